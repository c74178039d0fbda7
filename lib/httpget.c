#include <stdio.h>

#include <curl/curl.h>

#include "httpget.h"
#include "banned.h"

long
httpget(const char *url, long timeout_ms, struct buf *out, char *err, size_t cap)
{
	CURL *c = curl_easy_init();
	CURLcode cc;
	long status = -1;

	if (c == NULL) {
		snprintf(err, cap, "cannot set up HTTP");
		return -1;
	}
	buf_reset(out);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, buf_sink);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "waymark-catalog-sync");
	cc = curl_easy_perform(c);
	if (cc != CURLE_OK)
		snprintf(err, cap, "%s", out->full ? "response too large" : curl_easy_strerror(cc));
	else
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	return status;
}
