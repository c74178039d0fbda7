/* httpget.c: bounded GETs of untrusted JSON (httpget.h). */
#include <stdio.h>

#include <curl/curl.h>

#include "httpget.h"
#include "banned.h"

int
httpget_open(struct httpget *h, char *err, size_t cap)
{
	h->retry_after_s = 0;
	h->curl = curl_easy_init();
	if (h->curl == NULL) {
		snprintf(err, cap, "cannot set up HTTP");
		return -1;
	}
	return 0;
}

long
httpget_fetch(struct httpget *h, const char *url, long timeout_ms, struct buf *out, char *err,
    size_t cap)
{
	CURL *c = h->curl;
	CURLcode cc;
	curl_off_t ra = 0;
	long status = -1;

	h->retry_after_s = 0;
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
	if (cc != CURLE_OK) {
		snprintf(err, cap, "%s", out->full ? "response too large" : curl_easy_strerror(cc));
		return -1;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
		h->retry_after_s = ra > 86400 ? 86400 : (long)ra;
	return status;
}

void
httpget_close(struct httpget *h)
{
	if (h->curl)
		curl_easy_cleanup(h->curl);
	h->curl = NULL;
}

long
httpget(const char *url, long timeout_ms, struct buf *out, char *err, size_t cap)
{
	struct httpget h;
	long st;

	if (httpget_open(&h, err, cap) < 0)
		return -1;
	st = httpget_fetch(&h, url, timeout_ms, out, err, cap);
	httpget_close(&h);
	return st;
}
