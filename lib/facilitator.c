#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "buf.h"
#include "cabundle.h"
#include "facilitator.h"
#include "json.h"
#include "banned.h"

/*
 * The calling thread's handle: its connection cache keeps the facilitator's
 * connection alive between calls. Everything that is the same on every
 * call (headers, timeouts, protocols, CA file) is set once, when the handle
 * is made for a configuration; a call sets only its URL, body and reply
 * buffer. Released by facilitator_thread_release.
 */
static _Thread_local struct {
	CURL *c;
	struct curl_slist *hdr;
	const struct config *cfg;       /* the configuration the handle is set up for */
} thread_fac;

void
facilitator_thread_release(void)
{
	if (thread_fac.c)
		curl_easy_cleanup(thread_fac.c);
	curl_slist_free_all(thread_fac.hdr);
	memset(&thread_fac, 0, sizeof(thread_fac));
}

/* The thread's handle, set up for cfg; NULL when it cannot be made. */
static CURL *
thread_handle(const struct config *cfg)
{
	struct curl_slist *h = NULL, *next;
	char auth[CONFIG_STR_MAX + 32];
	CURL *c;

	if (thread_fac.c && thread_fac.cfg == cfg)
		return thread_fac.c;
	facilitator_thread_release();
	if ((c = curl_easy_init()) == NULL)
		return NULL;
	h = curl_slist_append(h, "Content-Type: application/json");
	if (h && (next = curl_slist_append(h, "Accept: application/json")) != NULL)
		h = next;
	else
		goto fail;
	/* No "Expect: 100-continue" (curl adds it to bodies over 1 KiB): it
	 * would cost a remote facilitator one more round trip per call. */
	if ((next = curl_slist_append(h, "Expect:")) == NULL)
		goto fail;
	h = next;
	if (cfg->facilitator_auth_header[0]) {
		snprintf(auth, sizeof(auth), "Authorization: %s", cfg->facilitator_auth_header);
		next = curl_slist_append(h, auth);
		explicit_bzero(auth, sizeof(auth));
		if (next == NULL)
			goto fail;
		h = next;
	}
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, buf_sink);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)cfg->facilitator_timeout_ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
	    cfg->facilitator_timeout_ms < 5000 ? (long)cfg->facilitator_timeout_ms : 5000L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "waymark");
	cabundle_apply(c, cfg->tls_ca_file);
	thread_fac.c = c;
	thread_fac.hdr = h;
	thread_fac.cfg = cfg;
	return c;
fail:
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	return NULL;
}

/* Copy a short reason code, keeping only [a-z0-9_] so nothing long or odd is relayed. */
static void
copy_reason(json_object *reply, const char *name, char out[FAC_REASON_MAX])
{
	json_object *m = NULL;
	const char *s;
	size_t j = 0;

	out[0] = '\0';
	if (!json_object_object_get_ex(reply, name, &m) || !json_object_is_type(m, json_type_string))
		return;
	s = json_object_get_string(m);
	for (size_t i = 0; s[i] && j + 1 < FAC_REASON_MAX; i++) {
		char c = s[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
			out[j++] = c;
		else if (c >= 'A' && c <= 'Z')
			out[j++] = (char)(c + 32);
		else
			break;
	}
	out[j] = '\0';
}

enum fac_rc
facilitator_call(const struct config *cfg, bool settle, json_object *payload,
    json_object *requirements, struct fac_result *res)
{
	json_object *body = json_object_new_object(), *flag = NULL;
	struct json_limits lim = { .max_depth = 16, .max_length = FAC_REPLY_MAX,
		.max_string = FAC_REPLY_MAX, .max_members = 1000 };
	struct json_error je;
	struct buf reply;
	char url[CONFIG_STR_MAX + 16];
	const char *text;
	size_t tlen;
	long status = 0;
	CURL *c = NULL;
	CURLcode cc;
	enum fac_rc rc = FAC_UNAVAILABLE;

	memset(res, 0, sizeof(*res));
	buf_init(&reply, FAC_REPLY_MAX);
	json_object_object_add(body, "x402Version", json_object_new_int(2));
	json_object_object_add(body, "paymentPayload", json_object_get(payload));
	json_object_object_add(body, "paymentRequirements", json_object_get(requirements));
	text = json_dump(body, &tlen);
	snprintf(url, sizeof(url), "%s/%s", cfg->facilitator_url, settle ? "settle" : "verify");
	c = thread_handle(cfg);
	if (text == NULL || c == NULL) {
		snprintf(res->err, sizeof(res->err), "facilitator: cannot set up the request");
		goto out;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, text);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)tlen);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &reply);
	cc = curl_easy_perform(c);
	/* The body and the reply buffer are this call's: drop the pointers. */
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, NULL);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, NULL);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (cc != CURLE_OK) {
		snprintf(res->err, sizeof(res->err), "facilitator %s: %s", settle ? "settle" : "verify",
		    reply.full ? "reply too large" : curl_easy_strerror(cc));
		goto out;
	}
	if (json_parse_strict(buf_str(&reply), reply.len, &lim, &res->reply, &je) < 0 ||
	    !json_object_is_type(res->reply, json_type_object) ||
	    !json_object_object_get_ex(res->reply, settle ? "success" : "isValid", &flag) ||
	    !json_object_is_type(flag, json_type_boolean)) {
		snprintf(res->err, sizeof(res->err), "facilitator %s: HTTP %ld without a %s reply",
		    settle ? "settle" : "verify", status, settle ? "settle" : "verify");
		json_object_put(res->reply);
		res->reply = NULL;
		goto out;
	}
	copy_reason(res->reply, settle ? "errorReason" : "invalidReason", res->reason);
	rc = json_object_get_boolean(flag) ? FAC_OK : FAC_REFUSED;
	if (rc == FAC_REFUSED && res->reason[0] == '\0')
		snprintf(res->reason, sizeof(res->reason), "%s", settle ? "settlement_failed" : "invalid_payment");
out:
	buf_release(&reply);
	json_object_put(body);
	return rc;
}

void
fac_result_release(struct fac_result *res)
{
	json_object_put(res->reply);
	res->reply = NULL;
}
