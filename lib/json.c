/*
 * json.c: strict recursive-descent JSON parser building json-c objects.
 *
 * The parser walks (s, len) with a cursor. Decoded strings go to a scratch
 * byte stack: a member name stays on it (below `top`) while its value is
 * parsed, so the name survives nested strings without a copy of its own,
 * and is handed to json-c only after the value is complete. Recursion depth
 * is bounded by max_depth, itself capped at JSON_DEPTH_CEILING.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/json_object_iterator.h>

#include "buf.h"
#include "json.h"
#include "utf8.h"
#include "banned.h"

const struct json_limits json_limits_default = {
	.max_depth = 32,
	.max_length = 1024 * 1024,
	.max_string = 64 * 1024,
	.max_members = 1000,
};

static const char *const json_errstr[JSON_E__MAX] = {
	[JSON_OK] = "no error",
	[JSON_E_INVALID] = "invalid argument",
	[JSON_E_NOMEM] = "out of memory",
	[JSON_E_LENGTH] = "input too long",
	[JSON_E_EOF] = "unexpected end of input",
	[JSON_E_SYNTAX] = "unexpected character",
	[JSON_E_TRAILING] = "unexpected data after the JSON value",
	[JSON_E_NUMBER] = "invalid number",
	[JSON_E_UTF8] = "invalid UTF-8 in string",
	[JSON_E_CONTROL] = "unescaped control character in string",
	[JSON_E_ESCAPE] = "invalid escape sequence in string",
	[JSON_E_SURROGATE] = "unpaired surrogate escape in string",
	[JSON_E_DEPTH] = "nesting too deep",
	[JSON_E_STRING_LENGTH] = "string too long",
	[JSON_E_MEMBERS] = "too many members or elements",
	[JSON_E_DUPLICATE] = "duplicate member name",
	[JSON_E_NAME_NUL] = "member name contains U+0000",
};

struct parser {
	const unsigned char *s;
	size_t len;
	size_t pos;
	size_t max_depth;
	size_t max_string;
	size_t max_members;
	unsigned char *scratch; /* decoded strings; bytes below top are in use */
	size_t scap;
	size_t top;
	struct json_error *err;
};

const char *
json_strerror(enum json_err code)
{
	if ((unsigned)code >= JSON_E__MAX)
		return "unknown error";
	return json_errstr[code];
}

/*
 * Record an error. detail replaces the code's fixed text when not NULL.
 * Always returns -1 so callers can `return fail(...)`.
 */
static int
fail(struct parser *p, enum json_err code, size_t off, const char *detail)
{
	struct json_error *e = p->err;

	if (e == NULL)
		return -1;
	e->code = code;
	e->offset = off;
	e->name[0] = '\0';
	if (detail == NULL)
		detail = json_strerror(code);
	if ((size_t)snprintf(e->msg, sizeof(e->msg), "%s", detail) >= sizeof(e->msg))
		e->msg[sizeof(e->msg) - 1] = '\0'; /* cannot happen: all texts are short */
	return -1;
}

/* fail() with a message naming a limit: "<pre> <limit> <post>". */
static int
fail_limit(struct parser *p, enum json_err code, size_t off, const char *pre, size_t limit, const char *post)
{
	char msg[sizeof(p->err->msg)];
	int n = snprintf(msg, sizeof(msg), "%s %zu %s", pre, limit, post);

	if (n < 0 || (size_t)n >= sizeof(msg))
		return fail(p, code, off, NULL);
	return fail(p, code, off, msg);
}

/*
 * Copy a decoded member name into out[cap] for an error message: printable
 * ASCII as is except '"' and '\\', which get a backslash; other bytes
 * below 0x20 and 0x7f as \u00XX; multi-byte UTF-8 characters whole (the
 * name was validated). Stops at a character boundary and ends with "..."
 * when the name does not fit.
 */
static void
name_escape(char *out, size_t cap, const unsigned char *name, size_t nlen)
{
	static const char hexd[] = "0123456789abcdef";
	size_t o = 0, i = 0;

	while (i < nlen) {
		char rep[8];
		size_t rlen, adv = 1;
		unsigned char c = name[i];

		if (c == '"' || c == '\\') {
			rep[0] = '\\';
			rep[1] = (char)c;
			rlen = 2;
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(rep, "\\u00", 4);
			rep[4] = hexd[c >> 4];
			rep[5] = hexd[c & 0xf];
			rlen = 6;
		} else {
			uint32_t cp;
			int k = utf8_decode(name + i, nlen - i, &cp);

			adv = k > 0 ? (size_t)k : 1; /* k > 0: the name was validated */
			memcpy(rep, name + i, adv);
			rlen = adv;
		}
		/* Keep room for "..." and the NUL unless this is the last character. */
		if (o + rlen + (i + adv < nlen ? 4 : 1) > cap) {
			if (o + 4 <= cap) {
				memcpy(out + o, "...", 3);
				o += 3;
			}
			break;
		}
		memcpy(out + o, rep, rlen);
		o += rlen;
		i += adv;
	}
	out[o] = '\0';
}

/* fail() for JSON_E_DUPLICATE and JSON_E_NAME_NUL, naming the member. */
static int
fail_name(struct parser *p, enum json_err code, size_t off, const unsigned char *name, size_t nlen)
{
	struct json_error *e = p->err;
	const char *what;
	int n;

	if (e == NULL)
		return -1;
	fail(p, code, off, NULL);
	name_escape(e->name, sizeof(e->name), name, nlen);
	what = code == JSON_E_DUPLICATE ? "duplicate member name" : "U+0000 in member name";
	/* msg holds 128 bytes; what + name (< 48) + quotes always fit. */
	n = snprintf(e->msg, sizeof(e->msg), "%s \"%s\"", what, e->name);
	if (n < 0 || (size_t)n >= sizeof(e->msg))
		fail(p, code, off, NULL);
	return -1;
}

/* Make scratch hold at least need bytes. Returns 0, or -1 when out of memory. */
static int
scratch_reserve(struct parser *p, size_t need)
{
	size_t ncap;
	unsigned char *np;

	if (need <= p->scap)
		return 0;
	ncap = p->scap ? p->scap : 64;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2) {
			ncap = need;
			break;
		}
		ncap *= 2;
	}
	np = realloc(p->scratch, ncap);
	if (np == NULL)
		return -1;
	p->scratch = np;
	p->scap = ncap;
	return 0;
}

static void
skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

/*
 * The four hex digits at p->s[i..i+4) as a number; -1 when one of them is
 * not a hex digit, -2 when the input ends first.
 */
static long
hex4(const struct parser *p, size_t i)
{
	long v = 0;

	for (size_t k = 0; k < 4; k++) {
		int c, d;

		if (i + k >= p->len)
			return -2;
		c = p->s[i + k];
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Append code point cp (valid, not a surrogate) to d as UTF-8; returns the new end. */
static unsigned char *
utf8_put(unsigned char *d, unsigned long cp)
{
	if (cp < 0x80) {
		*d++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*d++ = (unsigned char)(0xc0 | (cp >> 6));
		*d++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*d++ = (unsigned char)(0xe0 | (cp >> 12));
		*d++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		*d++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		*d++ = (unsigned char)(0xf0 | (cp >> 18));
		*d++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		*d++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		*d++ = (unsigned char)(0x80 | (cp & 0x3f));
	}
	return d;
}

/*
 * Decode the escape whose backslash is at p->pos into *dp, advancing both.
 * Returns 0 or -1 (error recorded).
 */
static int
parse_escape(struct parser *p, unsigned char **dp)
{
	size_t at = p->pos;
	const unsigned char *s = p->s;
	long cp, lo;

	if (at + 1 >= p->len)
		return fail(p, JSON_E_EOF, p->len, "unterminated string");
	switch (s[at + 1]) {
	case '"': *(*dp)++ = '"'; break;
	case '\\': *(*dp)++ = '\\'; break;
	case '/': *(*dp)++ = '/'; break;
	case 'b': *(*dp)++ = '\b'; break;
	case 'f': *(*dp)++ = '\f'; break;
	case 'n': *(*dp)++ = '\n'; break;
	case 'r': *(*dp)++ = '\r'; break;
	case 't': *(*dp)++ = '\t'; break;
	case 'u':
		if ((cp = hex4(p, at + 2)) < 0)
			return cp == -2 ? fail(p, JSON_E_EOF, p->len, "unterminated string") :
			    fail(p, JSON_E_ESCAPE, at, "invalid \\u escape");
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return fail(p, JSON_E_SURROGATE, at, "low surrogate escape without a high one");
		if (cp >= 0xd800 && cp <= 0xdbff) {
			/* A backslash and a 'u' must follow, then a low surrogate. */
			for (size_t k = 0; k < 2; k++) {
				if (at + 6 + k >= p->len)
					return fail(p, JSON_E_EOF, p->len, "unterminated string");
				if (s[at + 6 + k] != "\\u"[k])
					return fail(p, JSON_E_SURROGATE, at,
					    "high surrogate escape not followed by a low one");
			}
			if ((lo = hex4(p, at + 8)) < 0)
				return lo == -2 ? fail(p, JSON_E_EOF, p->len, "unterminated string") :
				    fail(p, JSON_E_ESCAPE, at + 6, "invalid \\u escape");
			if (lo < 0xdc00 || lo > 0xdfff)
				return fail(p, JSON_E_SURROGATE, at, "high surrogate escape not followed by a low one");
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p->pos += 6;
		}
		*dp = utf8_put(*dp, (unsigned long)cp);
		p->pos += 6;
		return 0;
	default:
		return fail(p, JSON_E_ESCAPE, at, NULL);
	}
	p->pos += 2;
	return 0;
}

/*
 * Decode the string whose opening quote is at p->pos onto the scratch
 * stack at p->top (top itself is not moved). On success *off and *outlen
 * give the decoded bytes, followed by a NUL; returns 0 or -1.
 */
static int
parse_string(struct parser *p, size_t *off, size_t *outlen)
{
	size_t start = p->pos, room;
	unsigned char *d0, *d;

	/*
	 * Decoded bytes never outnumber the input bytes after the quote, and
	 * the length check below runs after each character (at most 4 bytes).
	 */
	room = p->len - start;
	if (room > p->max_string + 4)
		room = p->max_string + 4;
	if (scratch_reserve(p, p->top + room + 1) < 0)
		return fail(p, JSON_E_NOMEM, start, NULL);
	d0 = d = p->scratch + p->top;
	p->pos++;
	for (;;) {
		unsigned char c;

		if (p->pos >= p->len)
			return fail(p, JSON_E_EOF, p->len, "unterminated string");
		c = p->s[p->pos];
		if (c == '"') {
			p->pos++;
			break;
		} else if (c == '\\') {
			if (parse_escape(p, &d) < 0)
				return -1;
		} else if (c < 0x20) {
			return fail(p, JSON_E_CONTROL, p->pos, NULL);
		} else if (c < 0x80) {
			*d++ = c;
			p->pos++;
		} else {
			uint32_t cp;
			int n = utf8_decode(p->s + p->pos, p->len - p->pos, &cp);

			if (n < 0)
				return fail(p, JSON_E_UTF8, p->pos, NULL);
			memcpy(d, p->s + p->pos, (size_t)n);
			d += n;
			p->pos += (size_t)n;
		}
		if ((size_t)(d - d0) > p->max_string)
			return fail_limit(p, JSON_E_STRING_LENGTH, start, "string longer than", p->max_string,
			    "bytes");
	}
	*d = '\0';
	*off = p->top;
	*outlen = (size_t)(d - d0);
	return 0;
}

static bool
is_digit(const struct parser *p, size_t i)
{
	return i < p->len && p->s[i] >= '0' && p->s[i] <= '9';
}

/* Parse a number at p->pos (a '-' or a digit) into *out. Returns 0 or -1. */
static int
parse_number(struct parser *p, json_object **out)
{
	size_t start = p->pos, i = p->pos, tlen;
	bool neg = false, integral = true;
	uint64_t mag = 0, lim;
	bool overflow = false;
	char *text;
	double d;
	int saved_errno;

	if (p->s[i] == '-') {
		neg = true;
		i++;
		if (i >= p->len)
			return fail(p, JSON_E_EOF, p->len, NULL);
	}
	if (p->s[i] == '0') {
		i++;
		if (is_digit(p, i))
			return fail(p, JSON_E_NUMBER, i, "leading zeros are not allowed");
	} else if (is_digit(p, i)) {
		lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
		for (; is_digit(p, i); i++) {
			unsigned dig = p->s[i] - '0';

			if (mag > (lim - dig) / 10)
				overflow = true;
			else
				mag = mag * 10 + dig;
		}
	} else {
		return fail(p, JSON_E_NUMBER, i, "invalid number");
	}
	if (i < p->len && p->s[i] == '.') {
		integral = false;
		i++;
		if (i >= p->len)
			return fail(p, JSON_E_EOF, p->len, NULL);
		if (!is_digit(p, i))
			return fail(p, JSON_E_NUMBER, i, "digit expected after '.'");
		while (is_digit(p, i))
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		integral = false;
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (i >= p->len)
			return fail(p, JSON_E_EOF, p->len, NULL);
		if (!is_digit(p, i))
			return fail(p, JSON_E_NUMBER, i, "digit expected in exponent");
		while (is_digit(p, i))
			i++;
	}
	p->pos = i;
	if (integral && !overflow) {
		int64_t v;

		/* mag <= INT64_MAX, or exactly 2^63 when neg. */
		if (!neg)
			v = (int64_t)mag;
		else if (mag == (uint64_t)INT64_MAX + 1)
			v = INT64_MIN;
		else
			v = -(int64_t)mag;
		*out = json_object_new_int64(v);
		return *out == NULL ? fail(p, JSON_E_NOMEM, start, NULL) : 0;
	}
	/* Keep the text: json-c prints it back verbatim. */
	tlen = i - start;
	if (scratch_reserve(p, p->top + tlen + 1) < 0)
		return fail(p, JSON_E_NOMEM, start, NULL);
	text = (char *)p->scratch + p->top;
	memcpy(text, p->s + start, tlen);
	text[tlen] = '\0';
	saved_errno = errno;
	d = strtod(text, NULL); /* ERANGE gives +-HUGE_VAL or a tiny value; the text stays exact */
	errno = saved_errno;
	*out = json_object_new_double_s(d, text);
	return *out == NULL ? fail(p, JSON_E_NOMEM, start, NULL) : 0;
}

/* Match the literal word at p->pos. Returns 0 or -1. */
static int
parse_word(struct parser *p, const char *word)
{
	for (size_t k = 0; word[k] != '\0'; k++) {
		if (p->pos + k >= p->len)
			return fail(p, JSON_E_EOF, p->len, NULL);
		if (p->s[p->pos + k] != (unsigned char)word[k])
			return fail(p, JSON_E_SYNTAX, p->pos + k, NULL);
	}
	p->pos += strlen(word);
	return 0;
}

static int parse_value(struct parser *p, size_t depth, json_object **out);

/* Parse an array at p->pos ('['), one level below depth. Returns 0 or -1. */
static int
parse_array(struct parser *p, size_t depth, json_object **out)
{
	json_object *arr, *v;
	size_t n = 0;

	if ((arr = json_object_new_array()) == NULL)
		return fail(p, JSON_E_NOMEM, p->pos, NULL);
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ']') {
		p->pos++;
		*out = arr;
		return 0;
	}
	for (;;) {
		if (n == p->max_members) {
			fail_limit(p, JSON_E_MEMBERS, p->pos, "array has more than", p->max_members,
			    "elements");
			goto err;
		}
		if (parse_value(p, depth, &v) < 0)
			goto err;
		if (json_object_array_add(arr, v) < 0) {   /* v is taken (json.h) */
			fail(p, JSON_E_NOMEM, p->pos, NULL);
			goto err;
		}
		n++;
		skip_ws(p);
		if (p->pos >= p->len) {
			fail(p, JSON_E_EOF, p->len, NULL);
			goto err;
		}
		if (p->s[p->pos] == ']') {
			p->pos++;
			break;
		}
		if (p->s[p->pos] != ',') {
			fail(p, JSON_E_SYNTAX, p->pos, "expected ',' or ']'");
			goto err;
		}
		p->pos++;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ']') {
			fail(p, JSON_E_SYNTAX, p->pos, "trailing comma");
			goto err;
		}
	}
	*out = arr;
	return 0;
err:
	json_object_put(arr);
	return -1;
}

/* Parse an object at p->pos ('{'), one level below depth. Returns 0 or -1. */
static int
parse_object(struct parser *p, size_t depth, json_object **out)
{
	json_object *obj, *v;
	size_t n = 0, base = p->top, koff, klen, at;
	const char *key;

	if ((obj = json_object_new_object()) == NULL)
		return fail(p, JSON_E_NOMEM, p->pos, NULL);
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == '}') {
		p->pos++;
		*out = obj;
		return 0;
	}
	for (;;) {
		at = p->pos;
		if (at >= p->len) {
			fail(p, JSON_E_EOF, p->len, NULL);
			goto err;
		}
		if (p->s[at] != '"') {
			fail(p, JSON_E_SYNTAX, at, n > 0 && p->s[at] == '}' ? "trailing comma" : "expected member name");
			goto err;
		}
		if (n == p->max_members) {
			fail_limit(p, JSON_E_MEMBERS, at, "object has more than", p->max_members,
			    "members");
			goto err;
		}
		if (parse_string(p, &koff, &klen) < 0)
			goto err;
		key = (const char *)p->scratch + koff;
		if (memchr(key, '\0', klen) != NULL) {
			fail_name(p, JSON_E_NAME_NUL, at, (const unsigned char *)key, klen);
			goto err;
		}
		if (json_object_object_get_ex(obj, key, NULL)) {
			fail_name(p, JSON_E_DUPLICATE, at, (const unsigned char *)key, klen);
			goto err;
		}
		skip_ws(p);
		if (p->pos >= p->len) {
			fail(p, JSON_E_EOF, p->len, NULL);
			goto err;
		}
		if (p->s[p->pos] != ':') {
			fail(p, JSON_E_SYNTAX, p->pos, "expected ':'");
			goto err;
		}
		p->pos++;
		skip_ws(p);
		/* Keep the name on the scratch stack while the value is parsed. */
		p->top = koff + klen + 1;
		if (parse_value(p, depth, &v) < 0)
			goto err;
		/* scratch may have moved while parsing the value. */
		key = (const char *)p->scratch + koff;
		/*
		 * KEY_IS_NEW skips json-c's second lookup: the name was checked
		 * above. If growing the hash table fails here, json-c 0.16 leaks
		 * its copy of the key (fixed upstream in json-c PR #962); only
		 * under memory exhaustion, and nothing on our side can avoid it.
		 */
		if (json_object_object_add_ex(obj, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW) < 0) {
			/* v is taken (json.h) */
			fail(p, JSON_E_NOMEM, at, NULL);
			goto err;
		}
		p->top = base;
		n++;
		skip_ws(p);
		if (p->pos >= p->len) {
			fail(p, JSON_E_EOF, p->len, NULL);
			goto err;
		}
		if (p->s[p->pos] == '}') {
			p->pos++;
			break;
		}
		if (p->s[p->pos] != ',') {
			fail(p, JSON_E_SYNTAX, p->pos, "expected ',' or '}'");
			goto err;
		}
		p->pos++;
		skip_ws(p);
	}
	*out = obj;
	return 0;
err:
	p->top = base;
	json_object_put(obj);
	return -1;
}

/*
 * Parse one value at p->pos (whitespace already skipped) inside depth open
 * containers. Returns 0 or -1.
 */
static int
parse_value(struct parser *p, size_t depth, json_object **out)
{
	size_t off, slen;
	unsigned char c;

	*out = NULL;
	if (p->pos >= p->len)
		return fail(p, JSON_E_EOF, p->len, NULL);
	c = p->s[p->pos];
	switch (c) {
	case '{':
	case '[':
		if (depth >= p->max_depth)
			return fail_limit(p, JSON_E_DEPTH, p->pos, "nesting deeper than", p->max_depth,
			    "levels");
		return c == '{' ? parse_object(p, depth + 1, out) : parse_array(p, depth + 1, out);
	case '"':
		if (parse_string(p, &off, &slen) < 0)
			return -1;
		/* slen <= max_string <= INT_MAX */
		*out = json_object_new_string_len((const char *)p->scratch + off, (int)slen);
		return *out == NULL ? fail(p, JSON_E_NOMEM, p->pos, NULL) : 0;
	case 't':
		if (parse_word(p, "true") < 0)
			return -1;
		*out = json_object_new_boolean(1);
		return *out == NULL ? fail(p, JSON_E_NOMEM, p->pos, NULL) : 0;
	case 'f':
		if (parse_word(p, "false") < 0)
			return -1;
		*out = json_object_new_boolean(0);
		return *out == NULL ? fail(p, JSON_E_NOMEM, p->pos, NULL) : 0;
	case 'n':
		return parse_word(p, "null");
	case '-':
		return parse_number(p, out);
	case '+':
		return fail(p, JSON_E_SYNTAX, p->pos, "leading '+' is not allowed");
	case '\'':
		return fail(p, JSON_E_SYNTAX, p->pos, "single quotes are not allowed");
	case '/':
		return fail(p, JSON_E_SYNTAX, p->pos, "comments are not allowed");
	default:
		if (c >= '0' && c <= '9')
			return parse_number(p, out);
		return fail(p, JSON_E_SYNTAX, p->pos, NULL);
	}
}

int
json_parse_strict(const char *buf, size_t len, const struct json_limits *lim, json_object **out,
    struct json_error *err)
{
	struct parser p = { .s = (const unsigned char *)buf, .len = len, .err = err };
	json_object *v = NULL;
	int rc = -1;

	if (err != NULL) {
		err->code = JSON_OK;
		err->offset = 0;
		err->name[0] = '\0';
		err->msg[0] = '\0';
	}
	if (out == NULL)
		return fail(&p, JSON_E_INVALID, 0, NULL);
	*out = NULL;
	if (buf == NULL && len > 0)
		return fail(&p, JSON_E_INVALID, 0, NULL);
	if (lim == NULL)
		lim = &json_limits_default;
	p.max_depth = lim->max_depth < JSON_DEPTH_CEILING ? lim->max_depth : JSON_DEPTH_CEILING;
	p.max_string = lim->max_string < INT_MAX ? lim->max_string : INT_MAX;
	p.max_members = lim->max_members;
	if (len > lim->max_length)
		return fail_limit(&p, JSON_E_LENGTH, lim->max_length, "input longer than", lim->max_length,
		    "bytes");
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		return fail(&p, JSON_E_SYNTAX, 0, "byte order mark is not allowed");

	skip_ws(&p);
	if (parse_value(&p, 0, &v) < 0)
		goto out;
	skip_ws(&p);
	if (p.pos < p.len) {
		fail(&p, JSON_E_TRAILING, p.pos, NULL);
		json_object_put(v);
		goto out;
	}
	*out = v;
	rc = 0;
out:
	free(p.scratch);
	return rc;
}

/* The length of a string as json-c escapes it (PLAIN, NOSLASHESCAPE). */
static size_t
escaped_len(const char *p, size_t n)
{
	size_t out = 2;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\b' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '"' ||
		    c == '\\')
			out += 2;
		else if (c < ' ')
			out += 6;
		else
			out++;
	}
	return out;
}

/*
 * The length json_dump's text of o must have; SIZE_MAX for what it cannot
 * tell (a tree deeper than the parser accepts).
 */
static size_t
text_len(json_object *o, unsigned depth)
{
	size_t n = 0, k;
	char num[32];

	if (depth > 1000)
		return SIZE_MAX;
	switch (json_object_get_type(o)) {
	case json_type_null:
		return 4;
	case json_type_boolean:
		return json_object_get_boolean(o) ? 4 : 5;
	case json_type_int:
		return (size_t)snprintf(num, sizeof(num), "%" PRId64, json_object_get_int64(o));
	case json_type_double:
	case json_type_string:
		if (json_object_is_type(o, json_type_double)) {
			const char *t = json_object_get_string(o);

			return t ? strlen(t) : 0;
		}
		return escaped_len(json_object_get_string(o), (size_t)json_object_get_string_len(o));
	case json_type_array:
		k = json_object_array_length(o);
		n = 2 + (k ? k - 1 : 0);
		for (size_t i = 0; i < k; i++) {
			size_t m = text_len(json_object_array_get_idx(o, i), depth + 1);

			if (m == SIZE_MAX)
				return SIZE_MAX;
			n += m;
		}
		return n;
	case json_type_object:
		n = 2;
		k = 0;
		json_object_object_foreach(o, key, val) {
			size_t m = text_len(val, depth + 1);

			if (m == SIZE_MAX)
				return SIZE_MAX;
			n += (k++ ? 1 : 0) + escaped_len(key, strlen(key)) + 1 + m;
		}
		return n;
	}
	return SIZE_MAX;
}

const char *
json_member_string(json_object *o, const char *key, size_t *len)
{
	json_object *v = NULL;

	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	if (len)
		*len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

const char *
json_dump(json_object *obj, size_t *len)
{
	size_t n = 0, want;
	const char *s;

	s = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
	/* json-c drops what it cannot append when memory runs out and still
	 * returns the text: only the expected length tells a whole answer. */
	if (s != NULL && (want = text_len(obj, 0)) != SIZE_MAX && n != want) {
		json_alloc_failed();
		s = NULL;
	}
	if (len != NULL)
		*len = s != NULL ? n : 0;
	return s;
}

/* True when name is one of the NULL-terminated list (NULL list: none). */
static bool
in_list(const char *const list[], const char *name)
{
	if (list == NULL)
		return false;
	for (size_t i = 0; list[i] != NULL; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

enum json_keys
json_check_keys(json_object *obj, const char *const allowed[], const char *const required[],
    const char **bad_key)
{
	struct json_object_iterator it, end;

	if (bad_key != NULL)
		*bad_key = NULL;
	if (!json_object_is_type(obj, json_type_object))
		return JSON_KEYS_NOT_OBJECT;
	it = json_object_iter_begin(obj);
	end = json_object_iter_end(obj);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *name = json_object_iter_peek_name(&it);

		if (!in_list(allowed, name) && !in_list(required, name)) {
			if (bad_key != NULL)
				*bad_key = name;
			return JSON_KEYS_UNKNOWN;
		}
	}
	if (required != NULL) {
		for (size_t i = 0; required[i] != NULL; i++) {
			if (!json_object_object_get_ex(obj, required[i], NULL)) {
				if (bad_key != NULL)
					*bad_key = required[i];
				return JSON_KEYS_MISSING;
			}
		}
	}
	return JSON_KEYS_OK;
}

/* The first UTF-16 code unit of code point cp. */
static uint32_t
utf16_lead(uint32_t cp)
{
	return cp < 0x10000 ? cp : 0xd800 + ((cp - 0x10000) >> 10);
}

/*
 * Compare two member names as sequences of UTF-16 code units. Names that
 * are not valid UTF-8 compare as bytes (json_canonical refuses them when it
 * writes them).
 */
static int
name_cmp_utf16(const void *a, const void *b)
{
	const unsigned char *x = *(const unsigned char *const *)a, *y = *(const unsigned char *const *)b;
	size_t xl = strlen((const char *)x), yl = strlen((const char *)y);

	while (xl > 0 && yl > 0) {
		uint32_t cx, cy;
		int nx = utf8_decode(x, xl, &cx), ny = utf8_decode(y, yl, &cy);

		if (nx < 0 || ny < 0)
			return strcmp((const char *)x, (const char *)y);
		if (cx != cy) {
			uint32_t ux = utf16_lead(cx), uy = utf16_lead(cy);

			/* Same lead unit: both are supplementary, and the trail units
			 * order as the code points do. */
			if (ux != uy)
				return ux < uy ? -1 : 1;
			return cx < cy ? -1 : 1;
		}
		x += nx;
		xl -= (size_t)nx;
		y += ny;
		yl -= (size_t)ny;
	}
	return (xl > 0) - (yl > 0);
}

/* A JSON string in the canonical form; 0 or -1 (invalid UTF-8, full). */
static int
canonical_string(const char *s, size_t len, struct buf *out)
{
	static const char hexd[] = "0123456789abcdef";
	size_t i = 0;

	if (buf_addc(out, '"') < 0)
		return -1;
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp;
		int n;

		if (c >= 0x80) {
			if ((n = utf8_decode((const unsigned char *)s + i, len - i, &cp)) < 0)
				return -1;
			if (buf_add(out, s + i, (size_t)n) < 0)
				return -1;
			i += (size_t)n;
			continue;
		}
		switch (c) {
		case '"': buf_adds(out, "\\\""); break;
		case '\\': buf_adds(out, "\\\\"); break;
		case '\b': buf_adds(out, "\\b"); break;
		case '\t': buf_adds(out, "\\t"); break;
		case '\n': buf_adds(out, "\\n"); break;
		case '\f': buf_adds(out, "\\f"); break;
		case '\r': buf_adds(out, "\\r"); break;
		default:
			if (c < 0x20) {
				char e[7] = { '\\', 'u', '0', '0', hexd[c >> 4], hexd[c & 15], '\0' };

				buf_adds(out, e);
			} else {
				buf_addc(out, (char)c);
			}
		}
		i++;
	}
	buf_addc(out, '"');
	return out->full ? -1 : 0;
}

#define CANONICAL_INT_MAX 9007199254740991LL /* 2^53 - 1 */

static int
canonical_value(json_object *o, struct buf *out, size_t depth)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return buf_adds(out, "null");
	case json_type_boolean:
		return buf_adds(out, json_object_get_boolean(o) ? "true" : "false");
	case json_type_int: {
		int64_t v = json_object_get_int64(o);

		/* A uint64 above INT64_MAX reads back saturated: refused too. */
		if (v > CANONICAL_INT_MAX || v < -CANONICAL_INT_MAX)
			return -1;
		return buf_printf(out, "%lld", (long long)v);
	}
	case json_type_double:
		return -1;
	case json_type_string:
		return canonical_string(json_object_get_string(o), (size_t)json_object_get_string_len(o), out);
	case json_type_array: {
		size_t n = json_object_array_length(o);

		if (depth >= JSON_DEPTH_CEILING || buf_addc(out, '[') < 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			if ((i > 0 && buf_addc(out, ',') < 0) ||
			    canonical_value(json_object_array_get_idx(o, i), out, depth + 1) < 0)
				return -1;
		return buf_addc(out, ']');
	}
	case json_type_object: {
		size_t n = (size_t)json_object_object_length(o), k = 0;
		const char **names;
		int rc = 0;

		if (depth >= JSON_DEPTH_CEILING)
			return -1;
		if ((names = calloc(n + 1, sizeof(*names))) == NULL) {
			json_alloc_failed();
			return -1;
		}
		json_object_object_foreach(o, key, val) {
			(void)val;
			if (k < n)
				names[k++] = key;
		}
		qsort(names, k, sizeof(*names), name_cmp_utf16);
		rc = buf_addc(out, '{');
		for (size_t i = 0; rc == 0 && i < k; i++) {
			json_object *v = NULL;

			json_object_object_get_ex(o, names[i], &v);
			if ((i > 0 && buf_addc(out, ',') < 0) ||
			    canonical_string(names[i], strlen(names[i]), out) < 0 ||
			    buf_addc(out, ':') < 0 || canonical_value(v, out, depth + 1) < 0)
				rc = -1;
		}
		free(names);
		return rc == 0 ? buf_addc(out, '}') : -1;
	}
	}
	return -1;
}

int
json_canonical(json_object *obj, struct buf *out)
{
	if (canonical_value(obj, out, 0) < 0 || out->full)
		return -1;
	return 0;
}

void
json_release(void *obj)
{
	json_object_put(obj);
}

static _Thread_local bool alloc_latch;

void
json_alloc_failed(void)
{
	alloc_latch = true;
}

bool
json_alloc_latched(void)
{
	return alloc_latch;
}

void
json_alloc_clear(void)
{
	alloc_latch = false;
}
