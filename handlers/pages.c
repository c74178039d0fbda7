/*
 * pages.c: what the website pages share (pages.h; docs/ARCHITECTURE.md,
 * Website pages): the layout, reading a free JSON row as a page's data,
 * the generic rendering of such a read, and the HTML error pages.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "brand.h"
#include "config.h"
#include "endpoint.h"
#include "fields.h"
#include "html.h"
#include "json.h"
#include "pages.h"
#include "pool.h"
#include "table.h"
#include "banned.h"

/* An array of objects with more members than this is a list of definition lists, not a table. */
#define PAGE_TABLE_COLUMNS 8

/* A sub-read's own request memory: the largest row answer a page shows is far below it. */
#define PAGE_READ_POOL (4 * 1024 * 1024)

static const char page_style[] =
    "body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:0 1rem;"
    "color:#1b1b1b;background:#fff}"
    "header nav a{margin-right:1rem}header{border-bottom:1px solid #ccc;padding:.5rem 0}"
    "code,pre{font:13px/1.4 ui-monospace,monospace;overflow-wrap:anywhere}"
    "pre{white-space:pre-wrap;background:#f4f4f4;padding:.5rem}"
    "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .4rem;"
    "text-align:left;vertical-align:top;overflow-wrap:anywhere}"
    "dt{font-weight:600}dd{margin:0 0 .4rem 1.5rem;overflow-wrap:anywhere}"
    ".lane{border-left:4px solid #888;padding-left:.6rem;margin:.8rem 0}"
    ".note{color:#555;font-size:.9rem}footer{border-top:1px solid #ccc;margin-top:2rem;"
    "padding:.5rem 0;font-size:.9rem}";

size_t
page_len(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

void
page_begin(struct buf *b, const struct config *cfg, const char *title)
{
	(void)cfg;
	buf_init(b, PAGE_MAX);
	/* No script: the pages are plain documents; the icon link keeps the
	 * browser from asking for /favicon.ico, which the service has not. */
	html_printf(b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	    "<title>%s</title><link rel=\"icon\" href=\"data:,\"><style>%S</style></head>\n<body>"
	    "<header><nav><a href=\"/\">Search</a><a href=\"/board\">Board</a><a href=\"/docs\">Docs</a></nav></header>\n"
	    "<main><h1>%s</h1>\n", title, page_style, title);
}

bool
page_room(const struct buf *b)
{
	return !b->full && b->len < PAGE_SOFT;
}

enum err
page_send(struct resp *w, int status, struct buf *b)
{
	html_printf(b, "</main>\n<footer>Every page here is also a free JSON read; nothing here "
	    "is a quality score, and no page executes, pays or publishes anything.</footer>"
	    "</body></html>\n");
	if (b->full) {
		buf_release(b);
		return resp_fail(w, ERR_INTERNAL, NULL, "The page outgrew its size limit.");
	}
	buf_reset(&w->body);
	if (buf_add(&w->body, b->p, b->len) < 0) {
		buf_release(b);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	buf_release(b);
	w->status = status;
	w->content_type = "text/html; charset=utf-8";
	/* A plain document: no script, no frame around it, styles only inline. */
	resp_header(w, "Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; "
	    "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
	resp_header(w, "X-Content-Type-Options", "nosniff");
	return ERR_NONE;
}

/* The error whose status is status (ERR_INTERNAL for one no error has). */
static enum err
err_of_status(int status)
{
	for (int e = 0; e < ERR__MAX; e++)
		if (err_info((enum err)e)->status == status)
			return (enum err)e;
	return ERR_INTERNAL;
}

enum err
page_fail(struct req *r, struct resp *w, enum err e, const char *msg)
{
	const struct err_info *ei = err_info(e);
	struct buf b;
	char title[64];

	snprintf(title, sizeof(title), "%d %s", ei->status, err_reason_phrase(ei->status));
	page_begin(&b, r->cfg, title);
	html_printf(&b, "<p>%s</p><p><a href=\"/\">Search the endpoints</a></p>\n",
	    msg && msg[0] ? msg : ei->message);
	if (page_send(w, ei->status, &b) != ERR_NONE)
		return ERR_INTERNAL;
	return e;
}

enum err
page_read(struct req *r, const char *row_id, const char *query, int *status, json_object **out)
{
	const struct endpoint *ep = table_row(row_id);
	struct fields_in in = { .query = query };
	struct fields_fail fail;
	struct req *sub;
	struct resp sw;
	enum err e = ERR_INTERNAL;

	*out = NULL;
	*status = 500;
	/* Only the free reads of the free pool: a page never pays, signs or waits on the chain. */
	if (ep == NULL || ep->method != HM_GET || endpoint_remote(ep) || ep->auth != AUTH_NONE ||
	    (sub = pool_alloc(&r->pool, sizeof(*sub))) == NULL)
		return ERR_INTERNAL;
	pool_init(&sub->pool, PAGE_READ_POOL);
	sub->method = HM_GET;
	sub->method_text = "GET";
	sub->path = r->path;
	sub->query = query ? query : "";
	sub->ep = ep;
	sub->cfg = r->cfg;
	sub->db = r->db;
	for (size_t i = 0; i < r->nparams; i++)
		if (endpoint_pattern_has(ep->pattern, r->params[i].name))
			sub->params[sub->nparams++] = r->params[i];
	in.params = sub->params;
	in.nparams = sub->nparams;
	resp_init(&sw);
	if (fields_check(ep->fields, &in, &sub->pool, sub->vals, &fail) != ERR_NONE)
		resp_fail(&sw, fail.e, fail.field, "%s", fail.msg[0] ? fail.msg : err_info(fail.e)->message);
	else if ((ep->flags & EP_DB) && sub->db == NULL)
		resp_fail(&sw, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	else
		ep->handler(sub, &sw);
	if (json_parse_strict(sw.body.p ? sw.body.p : "", sw.body.len, NULL, out, NULL) == 0 &&
	    *out != NULL) {
		*status = sw.status;
		e = ERR_NONE;
	}
	resp_release(&sw);
	pool_release(&sub->pool);
	return e;
}

enum err
page_read_fail(struct req *r, struct resp *w, int status, json_object *o)
{
	const char *msg = json_member_string(o, "message", NULL);

	return page_fail(r, w, err_of_status(status), msg);
}

/* "totalReceived" as "total received" into out[cap]. */
static const char *
page_label(const char *key, char *out, size_t cap)
{
	size_t n = 0;

	for (const char *k = key; *k && n + 2 < cap; k++) {
		if (isupper((unsigned char)*k) && k != key && !isupper((unsigned char)k[-1]))
			out[n++] = ' ';
		out[n++] = (char)tolower((unsigned char)*k);
	}
	out[n] = '\0';
	return out;
}

/* True when s is 0x and 64 lowercase or uppercase hex digits. */
static bool
is_hash(const char *s)
{
	if (s == NULL || strlen(s) != 66 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < 66; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* A scalar value, linked to its page when the key says what it is. */
static void
page_scalar(struct buf *b, const char *key, json_object *v)
{
	const char *s;

	if (v == NULL) {
		html_printf(b, "<span class=\"note\">none</span>");
		return;
	}
	s = json_object_get_string(v);
	if (key && is_hash(s) && (strcmp(key, "txHash") == 0 || strcmp(key, "settledTxHash") == 0 ||
	    strcmp(key, "latestTxHash") == 0))
		html_printf(b, "<a href=\"/receipts/%u\"><code>%s</code></a>", s, s);
	else if (key && is_hash(s) && strcmp(key, "routeId") == 0)
		html_printf(b, "<a href=\"/routes/%u\"><code>%s</code></a>", s, s);
	else if (key && (strcmp(key, "handle") == 0 || (strcmp(key, "id") == 0 &&
	    strchr(s, ':') != NULL)) && json_object_is_type(v, json_type_string))
		html_printf(b, "<a href=\"/handles/%u\">%s</a>", s, s);
	else
		html_printf(b, "%s", s);
}

static void page_value(struct buf *b, const char *key, json_object *v, int depth);

/* An array of objects as a table, its columns the first object's keys. */
static void
page_table(struct buf *b, json_object *arr, int depth)
{
	size_t n = json_object_array_length(arr), i;
	json_object *first = json_object_array_get_idx(arr, 0);

	html_printf(b, "<table><tr>");
	json_object_object_foreach(first, hk, hv) {
		char label[64];

		(void)hv;
		html_printf(b, "<th>%s</th>", page_label(hk, label, sizeof(label)));
	}
	html_printf(b, "</tr>\n");
	for (i = 0; i < n && page_room(b); i++) {
		json_object *row = json_object_array_get_idx(arr, i), *cell;

		html_printf(b, "<tr>");
		json_object_object_foreach(first, k, unused) {
			(void)unused;
			html_printf(b, "<td>");
			if (json_object_object_get_ex(row, k, &cell))
				page_value(b, k, cell, depth + 1);
			html_printf(b, "</td>");
		}
		html_printf(b, "</tr>\n");
	}
	html_printf(b, "</table>\n");
	if (i < n)
		html_printf(b, "<p class=\"note\">%U more not shown here: see the JSON read.</p>\n",
		    (uint64_t)(n - i));
}

static void
page_value(struct buf *b, const char *key, json_object *v, int depth)
{
	size_t n;

	if (depth > 6) {
		html_printf(b, "<span class=\"note\">(nested further: see the JSON read)</span>");
		return;
	}
	switch (v ? json_object_get_type(v) : json_type_null) {
	case json_type_object:
		html_printf(b, "<dl>");
		json_object_object_foreach(v, k, sv) {
			char label[64];

			if (!page_room(b)) {
				html_printf(b, "<dt>&hellip;</dt><dd class=\"note\">see the JSON read</dd>");
				break;
			}
			html_printf(b, "<dt>%s</dt><dd>", page_label(k, label, sizeof(label)));
			page_value(b, k, sv, depth + 1);
			html_printf(b, "</dd>");
		}
		html_printf(b, "</dl>\n");
		break;
	case json_type_array:
		n = json_object_array_length(v);
		if (n == 0) {
			html_printf(b, "<span class=\"note\">none</span>");
		} else if (json_object_is_type(json_object_array_get_idx(v, 0), json_type_object) &&
		    json_object_object_length(json_object_array_get_idx(v, 0)) <= PAGE_TABLE_COLUMNS) {
			page_table(b, v, depth);
		} else {
			html_printf(b, "<ul>");
			for (size_t i = 0; i < n && page_room(b); i++) {
				html_printf(b, "<li>");
				page_value(b, key, json_object_array_get_idx(v, i), depth + 1);
				html_printf(b, "</li>");
			}
			html_printf(b, "</ul>");
		}
		break;
	default:
		page_scalar(b, key, v);
		break;
	}
}

void
page_json(struct buf *b, json_object *v)
{
	page_value(b, NULL, v, 0);
}

void
page_error_from_rest(struct req *r, struct resp *w)
{
	json_object *o = NULL;
	const char *field = NULL, *msg = NULL;
	int status = w->status;
	char text[300];

	if (json_parse_strict(w->body.p ? w->body.p : "", w->body.len, NULL, &o, NULL) == 0 && o) {
		field = json_member_string(o, "field", NULL);
		msg = json_member_string(o, "message", NULL);
	}
	snprintf(text, sizeof(text), "%s", msg ? msg : err_info(err_of_status(status))->message);
	/* A path segment that is no ID at all names no page: not found, like an unknown ID. */
	if (status == 400 && field && r->ep && endpoint_pattern_has(r->ep->pattern, field)) {
		status = 404;
		snprintf(text, sizeof(text), "Nothing here has this %s.", field);
	}
	json_object_put(o);
	/* The headers the JSON error set (Allow, Retry-After) stay. */
	page_fail(r, w, err_of_status(status), text);
}
