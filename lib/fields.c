#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "utf8.h"
#include "url.h"
#include "banned.h"

struct qparam {
	char *name;
	char *value;
	size_t len;
	bool used;
};

__attribute__((format(printf, 4, 5)))
static enum err
fail_with(struct fields_fail *fail, enum err e, const char *field, const char *fmt, ...)
{
	va_list ap;

	fail->e = e;
	fail->field = field;
	fail->msg[0] = '\0';
	if (fmt) {
		va_start(ap, fmt);
		utf8_vformat(fail->msg, sizeof(fail->msg), fmt, ap);
		va_end(ap);
	}
	return e;
}

/*
 * Decode one query component ('+' is a space) into the pool: 0, -1 on a
 * bad escape, -2 when the pool is out of memory.
 */
static int
query_decode(struct pool *p, const char *s, size_t n, char **out, size_t *outlen)
{
	char *d = pool_alloc(p, n + 1);

	if (d == NULL)
		return -2;
	if (url_pct_decode(s, n, true, d, outlen) != 0)
		return -1;
	*out = d;
	return 0;
}

/* Split the raw query string into qp[]; repeats and excess are refused. */
static enum err
query_split(const char *s, struct pool *pool, struct qparam *qp, size_t *nq,
    struct fields_fail *fail)
{
	size_t n = 0;

	*nq = 0;
	if (s == NULL)
		return ERR_NONE;
	if (strlen(s) > FIELDS_QUERY_MAX)
		return fail_with(fail, ERR_INVALID_REQUEST, NULL,
		    "The query string is longer than %d bytes.", FIELDS_QUERY_MAX);
	while (*s) {
		const char *amp = strchr(s, '&');
		size_t plen = amp ? (size_t)(amp - s) : strlen(s);
		const char *eq = memchr(s, '=', plen);
		size_t klen = eq ? (size_t)(eq - s) : plen, vlen = 0, kdl = 0;
		int kr, vr;

		if (plen > 0) {
			if (n == FIELDS_QUERY_MAX_PARAMS)
				return fail_with(fail, ERR_INVALID_REQUEST, NULL,
				    "The query string has more than %d parameters.", FIELDS_QUERY_MAX_PARAMS);
			kr = query_decode(pool, s, klen, &qp[n].name, &kdl);
			vr = eq ? query_decode(pool, eq + 1, plen - klen - 1, &qp[n].value, &vlen)
			    : query_decode(pool, "", 0, &qp[n].value, &vlen);
			if (kr == -2 || vr == -2)
				return fail_with(fail, ERR_INTERNAL, NULL, NULL);
			if (kr < 0 || vr < 0)
				return fail_with(fail, ERR_INVALID_REQUEST, NULL,
				    "The query string has an invalid percent escape.");
			qp[n].len = vlen;
			qp[n].used = false;
			for (size_t i = 0; i < n; i++)
				if (strcmp(qp[i].name, qp[n].name) == 0)
					return fail_with(fail, ERR_INVALID_FIELD, qp[n].name,
					    "Query parameter %s is given more than once.", qp[n].name);
			n++;
		}
		s += plen;
		if (*s == '&')
			s++;
	}
	*nq = n;
	return ERR_NONE;
}

/* Whether field f is read from the body. */
static bool
from_body(const struct field *f, const struct fields_in *in)
{
	return in->body_only || f->src == VS_BODY;
}

enum err
fields_check(const struct field *f, const struct fields_in *in, struct pool *pool,
    struct value v[VALID_MAX_FIELDS], struct fields_fail *fail)
{
	struct qparam qp[FIELDS_QUERY_MAX_PARAMS];
	json_object *body = in->body;
	size_t nq = 0;
	enum err e;

	fail_with(fail, ERR_NONE, NULL, NULL);
	if (body && (f || in->strict || in->body_only) && !json_object_is_type(body, json_type_object))
		return fail_with(fail, ERR_INVALID_JSON, NULL, "The JSON body must be an object.");
	if (!in->body_only && (e = query_split(in->query, pool, qp, &nq, fail)) != ERR_NONE)
		return e;
	for (size_t i = 0; f && f[i].name; i++) {
		const char *text = NULL;
		size_t tlen = 0;
		json_object *member = NULL;
		bool present = false;

		if (i >= VALID_MAX_FIELDS)
			return fail_with(fail, ERR_INTERNAL, NULL, NULL);
		memset(&v[i], 0, sizeof(v[i]));
		if (from_body(&f[i], in)) {
			present = body && json_object_object_get_ex(body, f[i].name, &member);
			if (present && member == NULL)
				return fail_with(fail, ERR_INVALID_FIELD, f[i].name,
				    "Field %s must not be null.", f[i].name);
		} else if (f[i].src == VS_PATH) {
			for (size_t k = 0; k < in->nparams; k++)
				if (strcmp(in->params[k].name, f[i].name) == 0) {
					text = in->params[k].value;
					tlen = in->params[k].len;
					present = true;
				}
		} else {
			for (size_t k = 0; k < nq; k++)
				if (strcmp(qp[k].name, f[i].name) == 0) {
					text = qp[k].value;
					tlen = qp[k].len;
					qp[k].used = true;
					present = true;
				}
		}
		if (!present) {
			if (f[i].def) {
				text = f[i].def;
				tlen = strlen(text);
			} else if (f[i].required) {
				return fail_with(fail, ERR_MISSING_FIELD, f[i].name, "Field %s is required.",
				    f[i].name);
			} else {
				continue;
			}
		}
		e = member ? valid_json(&f[i], member, pool, &v[i], fail->msg, sizeof(fail->msg))
		    : valid_text(&f[i], text, tlen, pool, &v[i], fail->msg, sizeof(fail->msg));
		if (e != ERR_NONE) {
			fail->e = e;
			fail->field = f[i].name;
			return e;
		}
	}
	for (size_t k = 0; k < nq && !in->query_lenient; k++)
		if (!qp[k].used)
			return fail_with(fail, ERR_UNKNOWN_FIELD, qp[k].name,
			    "This endpoint has no query parameter %s.", qp[k].name);
	if ((in->strict || in->body_only) && body) {
		json_object_object_foreach(body, key, val) {
			bool known = false;

			(void)val;
			for (size_t i = 0; f && f[i].name; i++)
				if (from_body(&f[i], in) && strcmp(f[i].name, key) == 0)
					known = true;
			if (!known)
				return fail_with(fail, ERR_UNKNOWN_FIELD, key,
				    "This endpoint does not accept the field %s.", key);
		}
	}
	return ERR_NONE;
}
