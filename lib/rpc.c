#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "buf.h"
#include "cabundle.h"
#include "hex.h"
#include "json.h"
#include "rpc.h"
#include "banned.h"

int
rpc_init(struct rpc *r, const char *url, long timeout_ms, const char *ca_file)
{
	memset(r, 0, sizeof(*r));
	if (snprintf(r->url, sizeof(r->url), "%s", url) >= (int)sizeof(r->url) ||
	    snprintf(r->ca_file, sizeof(r->ca_file), "%s", ca_file ? ca_file : "") >= (int)sizeof(r->ca_file))
		return -1;
	r->timeout_ms = timeout_ms;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	r->curl = curl_easy_init();
	return r->curl ? 0 : -1;
}

void
rpc_release(struct rpc *r)
{
	if (r->curl)
		curl_easy_cleanup(r->curl);
	r->curl = NULL;
	curl_global_cleanup();
}

/* Each thread's own connection (rpc_shared), released by rpc_thread_release. */
static _Thread_local struct rpc thread_node;
static _Thread_local bool thread_ready;

struct rpc *
rpc_shared(const char *url, long timeout_ms, const char *ca_file)
{
	if (url == NULL || url[0] == '\0')
		return NULL;
	ca_file = ca_file ? ca_file : "";
	/* A caller's own timeout does not cost the warm connection. */
	if (thread_ready && strcmp(thread_node.url, url) == 0 && strcmp(thread_node.ca_file, ca_file) == 0) {
		thread_node.timeout_ms = timeout_ms;
		return &thread_node;
	}
	rpc_thread_release();
	if (rpc_init(&thread_node, url, timeout_ms, ca_file) < 0) {
		rpc_release(&thread_node);
		return NULL;
	}
	thread_ready = true;
	return &thread_node;
}

void
rpc_thread_release(void)
{
	if (thread_ready)
		rpc_release(&thread_node);
	thread_ready = false;
}

/* POST body; the reply's bytes go to *b (caller releases it, also on failure). */
static enum rpc_rc
post(struct rpc *r, const char *body, struct buf *b)
{
	CURL *c = r->curl;
	struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json"), *more;
	CURLcode cc;
	long status = 0;
	enum rpc_rc rc = RPC_OK;

	/* No "Expect: 100-continue" on large bodies: one round trip less. */
	if (hdr != NULL && (more = curl_slist_append(hdr, "Expect:")) != NULL)
		hdr = more;
	buf_init(b, RPC_MAX_RESPONSE);
	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, r->url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, buf_sink);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, r->timeout_ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, r->timeout_ms < 5000 ? r->timeout_ms : 5000L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	cabundle_apply(c, r->ca_file);
	cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (cc != CURLE_OK) {
		snprintf(r->err, sizeof(r->err), "rpc: %s", b->full ? "reply too large" : curl_easy_strerror(cc));
		rc = b->full ? RPC_BAD_REPLY : RPC_TRANSPORT;
	} else if (status != 200) {
		snprintf(r->err, sizeof(r->err), "rpc: HTTP status %ld", status);
		rc = RPC_TRANSPORT;
	}
	curl_slist_free_all(hdr);
	return rc;
}

/* Parse reply text strictly into *reply (caller puts); RPC_OK or RPC_BAD_REPLY. */
static enum rpc_rc
parse_reply(struct rpc *r, const char *text, size_t len, json_object **reply)
{
	struct json_limits lim = { .max_depth = 16, .max_length = RPC_MAX_RESPONSE,
		.max_string = RPC_MAX_RESPONSE, .max_members = 10u * 1000 * 1000 };
	struct json_error je;

	*reply = NULL;
	if (json_parse_strict(text, len, &lim, reply, &je) < 0) {
		snprintf(r->err, sizeof(r->err), "rpc: reply is not JSON: %s", je.msg);
		return RPC_BAD_REPLY;
	}
	if (*reply == NULL) {
		snprintf(r->err, sizeof(r->err), "rpc: reply is null");
		return RPC_BAD_REPLY;
	}
	return RPC_OK;
}

/* Take "result" out of one reply object, or report its error. */
static enum rpc_rc
take_result(struct rpc *r, json_object *reply, json_object **result)
{
	json_object *res = NULL, *e = NULL;

	if (!json_object_is_type(reply, json_type_object)) {
		snprintf(r->err, sizeof(r->err), "rpc: reply is not an object");
		return RPC_BAD_REPLY;
	}
	if (json_object_object_get_ex(reply, "error", &e) && e) {
		json_object *code = NULL, *msg = NULL;

		json_object_object_get_ex(e, "code", &code);
		json_object_object_get_ex(e, "message", &msg);
		r->error_code = code ? (long)json_object_get_int64(code) : 0;
		snprintf(r->err, sizeof(r->err), "rpc: node error %ld: %.300s", r->error_code,
		    msg ? json_object_get_string(msg) : "?");
		return RPC_ERROR;
	}
	if (!json_object_object_get_ex(reply, "result", &res)) {
		snprintf(r->err, sizeof(r->err), "rpc: reply has no result");
		return RPC_BAD_REPLY;
	}
	*result = res ? json_object_get(res) : NULL;
	return RPC_OK;
}

enum rpc_rc
rpc_call(struct rpc *r, const char *method, const char *params, json_object **result)
{
	struct buf body, reply;
	enum rpc_rc rc;

	*result = NULL;
	buf_init(&body, 1024 * 1024);
	if (buf_printf(&body, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\",\"params\":%s}", method,
	    params) < 0) {
		buf_release(&body);
		snprintf(r->err, sizeof(r->err), "rpc: request too large");
		return RPC_BAD_REPLY;
	}
	rc = post(r, buf_str(&body), &reply);
	if (rc == RPC_OK)
		rc = rpc_reply_single(r, buf_str(&reply), reply.len, result);
	buf_release(&reply);
	buf_release(&body);
	return rc;
}

enum rpc_rc
rpc_reply_single(struct rpc *r, const char *text, size_t len, json_object **result)
{
	json_object *reply = NULL;
	enum rpc_rc rc;

	*result = NULL;
	rc = parse_reply(r, text, len, &reply);
	if (rc == RPC_OK)
		rc = take_result(r, reply, result);
	json_object_put(reply);
	return rc;
}

enum rpc_rc
rpc_batch(struct rpc *r, const char *method, const char *const *params, size_t n,
    json_object **results)
{
	struct buf body, text;
	enum rpc_rc rc;

	for (size_t i = 0; i < n; i++)
		results[i] = NULL;
	if (n == 0)
		return RPC_OK;
	buf_init(&body, 16 * 1024 * 1024);
	buf_addc(&body, '[');
	for (size_t i = 0; i < n; i++)
		buf_printf(&body, "%s{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"%s\",\"params\":%s}",
		    i ? "," : "", i, method, params[i]);
	if (buf_addc(&body, ']') < 0) {
		buf_release(&body);
		snprintf(r->err, sizeof(r->err), "rpc: batch too large");
		return RPC_BAD_REPLY;
	}
	rc = post(r, buf_str(&body), &text);
	buf_release(&body);
	if (rc == RPC_OK)
		rc = rpc_reply_batch(r, buf_str(&text), text.len, n, results);
	buf_release(&text);
	return rc;
}

enum rpc_rc
rpc_reply_batch(struct rpc *r, const char *text, size_t len, size_t n, json_object **results)
{
	json_object *reply = NULL;
	bool *seen;
	enum rpc_rc rc;

	for (size_t i = 0; i < n; i++)
		results[i] = NULL;
	if ((rc = parse_reply(r, text, len, &reply)) != RPC_OK)
		return rc;
	if (!json_object_is_type(reply, json_type_array) || json_object_array_length(reply) != n) {
		/* A node that refuses batches answers one error object. */
		if (json_object_is_type(reply, json_type_object)) {
			json_object *dummy = NULL;

			rc = take_result(r, reply, &dummy);
			json_object_put(dummy);
		}
		if (rc == RPC_OK) {
			snprintf(r->err, sizeof(r->err), "rpc: batch reply has the wrong shape");
			rc = RPC_BAD_REPLY;
		}
		json_object_put(reply);
		return rc;
	}
	/* A result may be JSON null (NULL here): ids already given are kept apart. */
	if ((seen = calloc(n, sizeof(*seen))) == NULL) {
		snprintf(r->err, sizeof(r->err), "rpc: out of memory");
		json_object_put(reply);
		return RPC_BAD_REPLY;
	}
	for (size_t k = 0; k < n && rc == RPC_OK; k++) {
		json_object *item = json_object_array_get_idx(reply, k), *id = NULL, *res = NULL;
		uint64_t idx;

		if (!json_object_object_get_ex(item, "id", &id) || !json_object_is_type(id, json_type_int) ||
		    (idx = (uint64_t)json_object_get_int64(id)) >= n || seen[idx]) {
			snprintf(r->err, sizeof(r->err), "rpc: batch reply ids do not match");
			rc = RPC_BAD_REPLY;
			break;
		}
		seen[idx] = true;
		rc = take_result(r, item, &res);
		results[idx] = res;
	}
	free(seen);
	json_object_put(reply);
	if (rc != RPC_OK)
		for (size_t i = 0; i < n; i++) {
			json_object_put(results[i]);
			results[i] = NULL;
		}
	return rc;
}

int
rpc_hex_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n;

	if (s == NULL || s[0] != '0' || s[1] != 'x')
		return -1;
	n = strlen(s + 2);
	if (n == 0 || n > 16)
		return -1;
	for (size_t i = 2; s[i]; i++) {
		int d = hex_digit((unsigned char)s[i]);

		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

int
rpc_block_ref(json_object *block, uint8_t hash[32], uint64_t *time)
{
	json_object *h = NULL, *t = NULL;

	/* Members of another type than string (a JSON null) are refused, never read. */
	if (!json_object_object_get_ex(block, "hash", &h) || !json_object_is_type(h, json_type_string) ||
	    !json_object_object_get_ex(block, "timestamp", &t) || !json_object_is_type(t, json_type_string))
		return -1;
	if (hex_decode_fixed(json_object_get_string(h), (size_t)json_object_get_string_len(h), hash, 32,
	    true) < 0 || rpc_hex_u64(json_object_get_string(t), time) < 0)
		return -1;
	return 0;
}
