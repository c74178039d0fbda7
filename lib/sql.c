#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sql.h"
#include "banned.h"

void
sql_on(struct sql *q, char *buf, size_t cap)
{
	q->p = buf;
	q->cap = cap;
	sql_reset(q);
}

void
sql_reset(struct sql *q)
{
	q->len = 0;
	q->bad = q->p == NULL || q->cap == 0;
	if (!q->bad)
		q->p[0] = '\0';
}

const char *
sql_str(const struct sql *q)
{
	return q->p && q->len > 0 ? q->p : "";
}

/* Append s[0..n) at *at when it leaves room for the NUL. */
static int
put(struct sql *q, size_t *at, const char *s, size_t n)
{
	if (*at >= q->cap || n >= q->cap - *at)
		return -1;
	memcpy(q->p + *at, s, n);
	*at += n;
	return 0;
}

/* The escape for one byte of text, or NULL when it goes as it is. */
static const char *
escape(unsigned char c)
{
	switch (c) {
	case '\0': return "\\0";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\\': return "\\\\";
	case '\'': return "\\'";
	case '"': return "\\\"";
	case 0x1a: return "\\Z";
	default: return NULL;
	}
}

static int
put_text(struct sql *q, size_t *at, const char *s, size_t n)
{
	if (put(q, at, "'", 1) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *e = escape((unsigned char)s[i]);

		if (e ? put(q, at, e, 2) < 0 : put(q, at, s + i, 1) < 0)
			return -1;
	}
	return put(q, at, "'", 1);
}

/*
 * Text as a quoted LIKE pattern matching it literally: \, % and _ get
 * LIKE's backslash, itself escaped for the literal like any backslash.
 */
static int
put_like(struct sql *q, size_t *at, const char *s, size_t n, uint64_t wild)
{
	if (put(q, at, "'", 1) < 0 || ((wild & SQL_LIKE_LEADING) && put(q, at, "%", 1) < 0))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *e = escape((unsigned char)s[i]);

		if ((s[i] == '%' || s[i] == '_' || s[i] == '\\') && put(q, at, "\\\\", 2) < 0)
			return -1;
		if (e ? put(q, at, e, 2) < 0 : put(q, at, s + i, 1) < 0)
			return -1;
	}
	if ((wild & SQL_LIKE_TRAILING) && put(q, at, "%", 1) < 0)
		return -1;
	return put(q, at, "'", 1);
}

static int
put_bytes(struct sql *q, size_t *at, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	if (n == 0)
		return put(q, at, "''", 2);
	if (put(q, at, "X'", 2) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char two[2] = { hex[p[i] >> 4], hex[p[i] & 15] };

		if (put(q, at, two, 2) < 0)
			return -1;
	}
	return put(q, at, "'", 1);
}

/* [-]digits[.digits] and nothing else. */
static bool
decimal_ok(const char *s, size_t n)
{
	size_t i = 0, d = 0;

	if (s == NULL)
		return false;
	if (i < n && s[i] == '-')
		i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		d++;
	if (d == 0)
		return false;
	if (i == n)
		return true;
	if (s[i++] != '.')
		return false;
	d = 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		d++;
	return d > 0 && i == n;
}

/* An even count of hex digits. */
static bool
hex_ok(const char *s, size_t n)
{
	if (s == NULL || n % 2)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
			return false;
	return true;
}

static int
put_value(struct sql *q, size_t *at, const struct sqlv *v)
{
	char num[24];

	switch (v->k) {
	case SQLV_TEXT:
		return put_text(q, at, v->p, v->n);
	case SQLV_BYTES:
		return put_bytes(q, at, v->p, v->n);
	case SQLV_U64:
		snprintf(num, sizeof(num), "%" PRIu64, v->u);
		return put(q, at, num, strlen(num));
	case SQLV_I64:
		snprintf(num, sizeof(num), "%" PRId64, v->i);
		return put(q, at, num, strlen(num));
	case SQLV_BOOL:
		return v->u ? put(q, at, "TRUE", 4) : put(q, at, "FALSE", 5);
	case SQLV_DEC:
		if (!decimal_ok(v->p, v->n))
			return -1;
		return put(q, at, v->p, v->n);
	case SQLV_NULL:
		return put(q, at, "NULL", 4);
	case SQLV_HEX:
		if (!hex_ok(v->p, v->n))
			return -1;
		if (v->n == 0)
			return put(q, at, "''", 2);
		if (put(q, at, "X'", 2) < 0 || put(q, at, v->p, v->n) < 0)
			return -1;
		return put(q, at, "'", 1);
	case SQLV_LIKE:
		return put_like(q, at, v->p, v->n, v->u);
	case SQLV_END:
	default:
		return -1;
	}
}

int
sql_add_(struct sql *q, const char *tmpl, const struct sqlv *v, size_t n)
{
	size_t at, used = 0;

	if (q->bad || q->p == NULL || q->cap == 0)
		goto bad;
	at = q->len;
	for (const char *t = tmpl; *t; t++) {
		if (*t != '?') {
			if (put(q, &at, t, 1) < 0)
				goto bad;
			continue;
		}
		if (used == n || put_value(q, &at, &v[used]) < 0)
			goto bad;
		used++;
	}
	if (used != n)
		goto bad;
	q->len = at;
	q->p[at] = '\0';
	return 0;
bad:
	q->bad = true;
	if (q->p && q->len < q->cap)
		q->p[q->len] = '\0';
	return -1;
}
