#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "http.h"
#include "json.h"
#include "endpoint.h"
#include "utf8.h"
#include "banned.h"

#define RESP_HEADERS_MAX (16 * 1024)
#define RESP_BODY_MAX (8 * 1024 * 1024)
#define RESP_FALLBACK "{\"error\":\"internal_error\",\"message\":\"The answer could not be built.\"}"

static const char *const method_names[HM__MAX] = {
	[HM_GET] = "GET",
	[HM_HEAD] = "HEAD",
	[HM_POST] = "POST",
	[HM_PUT] = "PUT",
	[HM_PATCH] = "PATCH",
	[HM_DELETE] = "DELETE",
	[HM_OPTIONS] = "OPTIONS",
};

enum http_method
http_method_parse(const char *s)
{
	for (int m = 0; m < HM__MAX; m++)
		if (strcmp(s, method_names[m]) == 0)
			return (enum http_method)m;
	return HM__MAX;
}

const char *
http_method_name(enum http_method m)
{
	return (unsigned)m < HM__MAX ? method_names[m] : "?";
}

const char *
req_header(const struct req *r, const char *name)
{
	for (size_t i = 0; i < r->nheaders; i++)
		if (strcmp(r->headers[i].name, name) == 0)
			return r->headers[i].value;
	return NULL;
}

const struct value *
req_val(const struct req *r, const char *name)
{
	const struct field *f;

	if (r->ep == NULL || r->ep->fields == NULL)
		return NULL;
	f = r->ep->fields;
	for (size_t i = 0; i < VALID_MAX_FIELDS && f[i].name; i++)
		if (strcmp(f[i].name, name) == 0)
			return r->vals[i].present ? &r->vals[i] : NULL;
	return NULL;
}

void
resp_init(struct resp *w)
{
	w->status = 200;
	w->content_type = "application/json";
	buf_init(&w->headers, RESP_HEADERS_MAX);
	buf_init(&w->body, RESP_BODY_MAX);
	/* Room for resp_fail's fixed answer, so it is written without an
	 * allocation when memory runs out (buf_reset keeps the room). */
	if (buf_add(&w->body, RESP_FALLBACK, sizeof(RESP_FALLBACK) - 1) == 0)
		buf_reset(&w->body);
}

void
resp_release(struct resp *w)
{
	buf_release(&w->headers);
	buf_release(&w->body);
}

int
resp_header(struct resp *w, const char *name, const char *value)
{
	if (strpbrk(name, "\r\n:") || strpbrk(value, "\r\n"))
		return -1;
	return buf_printf(&w->headers, "%s: %s\r\n", name, value);
}

int
resp_json(struct resp *w, int status, json_object *obj)
{
	size_t len = 0;
	const char *s = json_alloc_latched() ? NULL : json_dump(obj, &len);

	w->status = status;
	w->content_type = "application/json";
	buf_reset(&w->body);
	if (s == NULL || buf_add(&w->body, s, len) < 0)
		return -1;
	return 0;
}

/* Whether a member of o is null (a value that could not be made). */
static bool
has_null_member(json_object *o)
{
	json_object_object_foreach(o, k, v) {
		(void)k;
		if (v == NULL)
			return true;
	}
	return false;
}

enum err
resp_fail(struct resp *w, enum err e, const char *field, const char *fmt, ...)
{
	const struct err_info *info = err_info(e);
	json_object *o = json_object_new_object();
	const char *s = NULL;
	char msg[512], fieldbuf[512];
	size_t len = 0;

	/* The message and the field may quote input cut to fit (%.64s): the body stays UTF-8. */
	if (fmt) {
		va_list ap;

		va_start(ap, fmt);
		utf8_vformat(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	} else {
		utf8_copy(msg, sizeof(msg), info->message);
	}
	if (field) {
		utf8_copy(fieldbuf, sizeof(fieldbuf), field);
		field = fieldbuf;
	}
	/* Not through resp_json: an error is still written after the latch
	 * was set (lib/json.h); only this object's own failures count. */
	if (o && json_object_object_add(o, "error", json_object_new_string(info->code)) == 0 &&
	    json_object_object_add(o, "message", json_object_new_string(msg)) == 0 &&
	    (field == NULL || json_object_object_add(o, "field", json_object_new_string(field)) == 0) &&
	    json_object_object_length(o) == (field ? 3 : 2) && !has_null_member(o))
		s = json_dump(o, &len);
	w->content_type = "application/json";
	buf_reset(&w->body);
	if (s && buf_add(&w->body, s, len) == 0) {
		w->status = info->status;
	} else {
		/* resp_init left room for the fixed answer */
		buf_reset(&w->body);
		buf_add(&w->body, RESP_FALLBACK, sizeof(RESP_FALLBACK) - 1);
		w->status = 500;
	}
	json_object_put(o);
	return e;
}
