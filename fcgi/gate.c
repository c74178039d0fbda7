#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "a2a.h"
#include "cors.h"
#include "dbfail.h"
#include "fields.h"
#include "gate.h"
#include "json.h"
#include "pages.h"
#include "pay.h"
#include "siwx_gate.h"
#include "banned.h"

static bool
is_json_type(const char *ct)
{
	size_t n = strlen("application/json");

	if (ct == NULL || strncasecmp(ct, "application/json", n) != 0)
		return false;
	return ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ';
}

/* application/a2a+json, with parameters or none. */
static bool
is_a2a_type(const char *ct)
{
	size_t n = strlen(A2A_CONTENT_TYPE);

	if (ct == NULL || strncasecmp(ct, A2A_CONTENT_TYPE, n) != 0)
		return false;
	return ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ';
}

static enum err
read_body(const struct gate *g, struct req *r, struct resp *w)
{
	size_t want = (size_t)r->content_length, got = 0;
	uint8_t *b = pool_alloc(&r->pool, want + 1);

	if (b == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	while (got < want) {
		long k = g->read_body(g->read_ctx, b + got, want - got);

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (got != want)
		return resp_fail(w, ERR_INVALID_REQUEST, NULL,
		    "The request body ended before its Content-Length.");
	r->body = b;
	r->body_len = got;
	return ERR_NONE;
}


/*
 * A body error on a JSON-RPC row: HTTP 400 (500 for ERR_INTERNAL) with a JSON-RPC error object
 * (id null), the service's error code in error.data. Returns e.
 */
__attribute__((format(printf, 4, 5)))
static enum err
jsonrpc_fail(struct resp *w, enum err e, int code, const char *fmt, ...)
{
	json_object *o = json_object_new_object(), *er = json_object_new_object(), *d;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_object_object_add(o, "jsonrpc", json_object_new_string("2.0"));
	json_object_object_add(o, "id", NULL);
	json_object_object_add(er, "code", json_object_new_int(code));
	json_object_object_add(er, "message", json_object_new_string(msg));
	d = json_object_new_object();
	json_object_object_add(d, "error", json_object_new_string(err_info(e)->code));
	json_object_object_add(er, "data", d);
	json_object_object_add(o, "error", er);
	if (resp_json(w, err_info(e)->status, o) < 0)
		resp_fail(w, e, NULL, "%s", msg);
	json_object_put(o);
	return e;
}

static enum err
parse_body(const struct endpoint *ep, struct req *r, struct resp *w)
{
	bool rpc = (ep->flags & EP_JSONRPC) != 0;
	struct json_limits lim = json_limits_default;
	struct json_error je;
	json_object *o = NULL;

	lim.max_length = ep->body_max;
	if (r->body_len == 0)
		return rpc ? jsonrpc_fail(w, ERR_INVALID_JSON, -32700, "Parse error: the request body is empty.")
		    : resp_fail(w, ERR_INVALID_JSON, NULL, "The request body is empty; send a JSON object.");
	if (json_parse_strict((const char *)r->body, r->body_len, &lim, &o, &je) < 0) {
		if (je.code == JSON_E_NOMEM)
			return rpc ? jsonrpc_fail(w, ERR_INTERNAL, -32603, "Internal error.")
			    : resp_fail(w, ERR_INTERNAL, NULL, NULL);
		if (rpc)
			return jsonrpc_fail(w, je.code == JSON_E_DUPLICATE ? ERR_DUPLICATE_KEY : ERR_INVALID_JSON,
			    -32700, "Parse error: %s at byte %zu.", je.msg, je.offset);
		if (je.code == JSON_E_DUPLICATE)
			return resp_fail(w, ERR_DUPLICATE_KEY, je.name[0] ? je.name : NULL,
			    "The JSON body repeats the member name %s (at byte %zu).", je.name,
			    je.offset);
		return resp_fail(w, ERR_INVALID_JSON, NULL, "The body is not valid JSON: %s at byte %zu.",
		    je.msg, je.offset);
	}
	if (o == NULL)
		return rpc ? jsonrpc_fail(w, ERR_INVALID_JSON, -32600, "Invalid Request: the body is null.")
		    : resp_fail(w, ERR_INVALID_JSON, NULL, "The JSON body must be an object, not null.");
	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		return rpc ? jsonrpc_fail(w, ERR_INTERNAL, -32603, "Internal error.")
		    : resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	r->json = o;
	return ERR_NONE;
}

/* Step 6: every declared field from its source into r->vals (lib/fields.h). */
static enum err
check_fields(const struct endpoint *ep, struct req *r, struct resp *w)
{
	struct fields_in in = { .params = r->params, .nparams = r->nparams, .query = r->query,
	    .body = r->json, .strict = (ep->flags & EP_STRICT) != 0,
	    .query_lenient = (ep->flags & EP_A2A) != 0 };
	struct fields_fail fail;

	if (fields_check(ep->fields, &in, &r->pool, r->vals, &fail) == ERR_NONE)
		return ERR_NONE;
	if (fail.msg[0] == '\0')
		return resp_fail(w, fail.e, fail.field, NULL);
	return resp_fail(w, fail.e, fail.field, "%s", fail.msg);
}

static enum err
gate_checks(const struct gate *g, struct req *r, struct resp *w)
{
	const struct endpoint *ep = NULL;
	unsigned allow = 0;
	enum err e;

	switch (endpoint_find(g->table, g->ntable, r->method, r->path, &r->pool, &ep, r->params,
	    &r->nparams, &allow)) {
	case EP_NO_PATH:
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No endpoint has the path %s.",
		    strlen(r->path) > 200 ? "given" : r->path);
	case EP_WRONG_METHOD: {
		char text[128];

		/* A browser's preflight: answered for any path a row has (lib/cors.h). */
		if (r->method == HM_OPTIONS)
			return cors_preflight(g->table, g->ntable, r->path, allow, w) < 0 ?
			    resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;

		endpoint_allow_text(allow, text, sizeof(text));
		resp_header(w, "Allow", text);
		e = resp_fail(w, ERR_METHOD_NOT_ALLOWED, NULL,
		    "%s is not allowed on this path; use %s.", r->method_text, text);
		/* An A2A row's path answers in A2A's error shape whatever the method. */
		for (size_t i = 0; i < g->ntable; i++)
			if ((g->table[i].flags & EP_A2A) && endpoint_path_matches(g->table[i].pattern, r->path)) {
				a2a_error_from_rest(w, e);
				break;
			}
		return e;
	}
	case EP_NOMEM:
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	case EP_FOUND:
		break;
	}
	r->ep = ep;
	if (ep->body == BODY_JSON) {
		if (r->content_length > ep->body_max)
			return resp_fail(w, ERR_BODY_TOO_LARGE, NULL,
			    "The request body is larger than this endpoint's limit of %zu bytes.",
			    ep->body_max);
		if (!is_json_type(r->content_type) &&
		    !((ep->flags & EP_A2A) && is_a2a_type(r->content_type)))
			return resp_fail(w, ERR_UNSUPPORTED_MEDIA_TYPE, NULL, (ep->flags & EP_A2A) ?
			    "Send the body as Content-Type: application/a2a+json or application/json." :
			    "Send the body as Content-Type: application/json.");
		if ((e = read_body(g, r, w)) != ERR_NONE)
			return e;
		if ((e = parse_body(ep, r, w)) != ERR_NONE)
			return e;
	}
	if ((e = check_fields(ep, r, w)) != ERR_NONE)
		return e;
	if (ep->check && (e = ep->check(r, w)) != ERR_NONE)
		return e;
	if (ep->auth == AUTH_PAID)
		return pay_run(g, r, w);
	if (ep->auth == AUTH_SIWX)
		return siwx_gate_run(g, r, w);
	if (ep->auth != AUTH_NONE)
		return resp_fail(w, ERR_INTERNAL, NULL, "This endpoint's authentication is not available.");
	if (ep->flags & (EP_DB | EP_DB_TRY)) {
		if (db_connect(g->db) == DB_OK)
			r->db = g->db;
		else if (ep->flags & EP_DB)
			return resp_fail(w, db_connect_err(g->db), NULL, NULL);
	}
	return ep->handler(r, w);
}

void
gate_run(const struct gate *g, struct req *r, struct resp *w)
{
	enum err e;

	r->cfg = g->cfg;
	json_alloc_clear();
	if (r->method == HM__MAX) {
		resp_fail(w, ERR_METHOD_NOT_ALLOWED, NULL, "Unknown HTTP method.");
		return;
	}
	e = gate_checks(g, r, w);
	/* JSON that could not be built is never answered as is (lib/json.h). */
	if (json_alloc_latched() && w->status < 500)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
	json_alloc_clear();
	/* An A2A row's errors written as the REST body (by the checks above) become A2A's. */
	if (r->ep && (r->ep->flags & EP_A2A) && w->status >= 400 && w->content_type &&
	    strcmp(w->content_type, "application/json") == 0)
		a2a_error_from_rest(w, e);
	/* A page's errors, whoever wrote them, leave as an HTML page (handlers/pages.h). */
	if (r->ep && (r->ep->flags & EP_HTML) && w->status >= 400 && w->content_type &&
	    strcmp(w->content_type, "application/json") == 0)
		page_error_from_rest(r, w);
	json_alloc_clear();
	if (e == ERR_DATABASE_UNAVAILABLE || e == ERR_INTERNAL)
		fprintf(stderr, "waymark: %s %s: %s (db: %s)\n", r->method_text,
		    r->ep ? r->ep->id : "-", err_info(e)->code, g->db->err[0] ? g->db->err : "-");
	/* A contract-wallet check refused by its cap, out of time or with the
	 * node down: the client is told when to try again, on every row kind
	 * (paid rows already carry it, fcgi/pay.c). */
	if (e == ERR_SIGNATURE_UNAVAILABLE && strstr(buf_str(&w->headers), "Retry-After:") == NULL)
		resp_header(w, "Retry-After", "5");
	if (r->ep && (r->ep->flags & EP_NO_STORE))
		resp_header(w, "Cache-Control", "private, no-store");
	/* Every answer may be read cross-origin; a preflight wrote its own. */
	if (!(r->method == HM_OPTIONS && w->status == 204) && cors_answer(r->ep, w) < 0)
		fprintf(stderr, "waymark: %s %s: the cross-origin headers did not fit\n", r->method_text,
		    r->ep ? r->ep->id : "-");
}
