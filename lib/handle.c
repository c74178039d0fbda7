/* Boon handle canonicalization (see handle.h for the rules). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "handle.h"
#include "keccak.h"
#include "utf8.h"
#include "banned.h"

/* 2^256 - 1 in decimal: the largest agent id. */
static const char uint256_max[] =
    "115792089237316195423570985008687907853269984665640564039457584007913129639935";
#define UINT256_DIGITS (sizeof(uint256_max) - 1)

static const char *const kind_names[HANDLE_KIND__MAX] = {
	[HANDLE_GITHUB] = "github",
	[HANDLE_X] = "x",
	[HANDLE_AGENT] = "agent",
};

static const char *const handle_errstr[HANDLE_ERR__MAX] = {
	[HANDLE_OK] = "The handle is valid.",
	[HANDLE_EMPTY] = "The handle is empty.",
	[HANDLE_NO_SCHEME] = "The handle needs a scheme: github:<user>, x:<user> or agent:<id>.",
	[HANDLE_BAD_SCHEME] = "The handle scheme must be github, x or agent.",
	[HANDLE_EMPTY_NAME] = "The handle has no user name or agent id after the scheme.",
	[HANDLE_TOO_LONG] = "The user name is too long (GitHub allows 39 characters, X allows 15).",
	[HANDLE_BAD_GITHUB] = "A GitHub user name is letters and digits with single hyphens between them.",
	[HANDLE_BAD_X] = "An X user name is letters, digits and underscores only.",
	[HANDLE_AGENT_SPACE] = "An agent handle must not contain whitespace.",
	[HANDLE_BAD_AGENT] = "An agent id is a positive decimal number without leading zeros.",
	[HANDLE_AGENT_RANGE] = "The agent id is larger than the uint256 maximum.",
};

/* Length of the JavaScript whitespace character that starts p[0..n), or 0. */
static size_t
ws_at(const unsigned char *p, size_t n)
{
	uint32_t cp;
	int k = utf8_decode(p, n, &cp);

	return k > 0 && utf8_is_js_space(cp) ? (size_t)k : 0;
}

/* Length of the whitespace character that ends p[0..n), or 0. */
static size_t
ws_before(const unsigned char *p, size_t n)
{
	if (n >= 1 && ws_at(p + n - 1, 1) == 1)
		return 1;
	if (n >= 2 && ws_at(p + n - 2, 2) == 2)
		return 2;
	if (n >= 3 && ws_at(p + n - 3, 3) == 3)
		return 3;
	return 0;
}

/* Narrow [*b, *e) of s past whitespace at both ends. */
static void
trim(const char *s, size_t *b, size_t *e)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k;

	while (*b < *e && (k = ws_at(u + *b, *e - *b)) > 0)
		*b += k;
	while (*e > *b && (k = ws_before(u + *b, *e - *b)) > 0)
		*e -= k;
}

static bool
is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char
lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive ASCII compare of s[0..n) with the lowercase word w. */
static bool
scheme_is(const char *s, size_t n, const char *w)
{
	if (n != strlen(w))
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(s[i]) != w[i])
			return false;
	return true;
}

/* ^[a-zA-Z0-9](?:-?[a-zA-Z0-9])*$ */
static bool
github_ok(const char *s, size_t n)
{
	if (n == 0 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return false;
	for (size_t i = 1; i < n; i++) {
		if (is_alnum(s[i]))
			continue;
		if (s[i] != '-' || s[i - 1] == '-')
			return false;
	}
	return true;
}

/* ^[A-Za-z0-9_]+$ */
static bool
x_ok(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* Writes "scheme:" + name (lowercased when fold) into out. */
static void
put(struct handle *out, enum handle_kind kind, const char *name, size_t n, bool fold)
{
	const char *scheme = kind_names[kind];
	size_t sl = strlen(scheme);

	/* Callers bound n so that sl + 1 + n <= HANDLE_MAX_LEN. */
	memcpy(out->text, scheme, sl);
	out->text[sl] = ':';
	for (size_t i = 0; i < n; i++)
		out->text[sl + 1 + i] = fold ? lower(name[i]) : name[i];
	out->len = sl + 1 + n;
	out->text[out->len] = '\0';
	out->kind = kind;
}

static enum handle_err
parse_agent(const char *id, size_t n, struct handle *out)
{
	if (n == 0)
		return HANDLE_EMPTY_NAME;
	/* Inner whitespace breaks the grammar anyway; name the real problem. */
	for (size_t i = 0; i < n; i++)
		if (ws_at((const unsigned char *)id + i, 1) == 1)
			return HANDLE_AGENT_SPACE;
	if (id[0] < '1' || id[0] > '9')
		return HANDLE_BAD_AGENT;
	for (size_t i = 1; i < n; i++)
		if (id[i] < '0' || id[i] > '9')
			return HANDLE_BAD_AGENT;
	if (n > UINT256_DIGITS || (n == UINT256_DIGITS && memcmp(id, uint256_max, n) > 0))
		return HANDLE_AGENT_RANGE;
	put(out, HANDLE_AGENT, id, n, false);
	return HANDLE_OK;
}

enum handle_err
handle_parse(const char *s, size_t slen, struct handle *out)
{
	size_t b = 0, e = slen, colon;
	const char *name;
	size_t nb, ne;

	if (s == NULL)
		return HANDLE_EMPTY;
	trim(s, &b, &e);
	if (b == e)
		return HANDLE_EMPTY;
	for (colon = b; colon < e && s[colon] != ':'; colon++)
		;
	if (colon == e)
		return HANDLE_NO_SCHEME;

	if (scheme_is(s + b, colon - b, "agent")) {
		if (b != 0 || e != slen)
			return HANDLE_AGENT_SPACE;
		return parse_agent(s + colon + 1, e - colon - 1, out);
	}

	nb = colon + 1;
	ne = e;
	trim(s, &nb, &ne);
	if (scheme_is(s + b, colon - b, "github")) {
		name = s + nb;
		if (ne == nb)
			return HANDLE_EMPTY_NAME;
		if (ne - nb > HANDLE_GITHUB_MAX)
			return HANDLE_TOO_LONG;
		if (!github_ok(name, ne - nb))
			return HANDLE_BAD_GITHUB;
		put(out, HANDLE_GITHUB, name, ne - nb, true);
		return HANDLE_OK;
	}
	if (scheme_is(s + b, colon - b, "x")) {
		if (nb < ne && s[nb] == '@')
			nb++;
		name = s + nb;
		if (ne == nb)
			return HANDLE_EMPTY_NAME;
		if (ne - nb > HANDLE_X_MAX)
			return HANDLE_TOO_LONG;
		if (!x_ok(name, ne - nb))
			return HANDLE_BAD_X;
		put(out, HANDLE_X, name, ne - nb, true);
		return HANDLE_OK;
	}
	return HANDLE_BAD_SCHEME;
}

void
handle_hash(const struct handle *h, uint8_t out[32])
{
	keccak256(h->text, h->len, out);
}

const char *
handle_name(const struct handle *h)
{
	const char *c = memchr(h->text, ':', h->len);

	return c != NULL ? c + 1 : h->text + h->len;
}

const char *
handle_kind_name(enum handle_kind k)
{
	if ((unsigned)k >= HANDLE_KIND__MAX)
		return "?";
	return kind_names[k];
}

const char *
handle_strerror(enum handle_err e)
{
	if ((unsigned)e >= HANDLE_ERR__MAX)
		return "The handle is not valid.";
	return handle_errstr[e];
}
