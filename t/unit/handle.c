/*
 * Handles: every case of Boon's cross-language fixture t/vectors/handles.json
 * (run from the repository root), handleHash vectors, edges of each rule.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "handle.h"
#include "hex.h"
#include "tap.h"
#include "banned.h"

#define FIXTURE "t/vectors/handles.json"

static const char *
hash_hex(const struct handle *h)
{
	static char out[67];
	uint8_t d[32];

	handle_hash(h, d);
	return hex_encode(d, 32, out);
}

/* Printable form of a test input for TAP names. */
static const char *
show(const char *s, size_t n)
{
	static char out[256];
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < sizeof(out); i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7F) {
			out[o++] = (char)c;
		} else {
			int w = snprintf(out + o, sizeof(out) - o, "\\x%02x", c);

			if (w < 0 || (size_t)w >= sizeof(out) - o)
				break;
			o += (size_t)w;
		}
	}
	out[o] = '\0';
	return out;
}

static void
test_fixture(void)
{
	json_object *root = json_object_from_file(FIXTURE), *arr;
	struct handle h, h2;
	enum handle_err e;

	if (!ok(root != NULL, "read %s", FIXTURE))
		return;
	if (ok(json_object_object_get_ex(root, "ok", &arr) && json_object_is_type(arr, json_type_array),
	        "fixture has an ok array")) {
		size_t n = json_object_array_length(arr);

		ok(n == 19, "19 fixture ok cases to check (got %zu)", n);
		for (size_t i = 0; i < n; i++) {
			json_object *c = json_object_array_get_idx(arr, i), *in, *want;
			const char *s;
			size_t slen;

			if (!json_object_object_get_ex(c, "input", &in) ||
			    !json_object_object_get_ex(c, "canonical", &want)) {
				ok(0, "ok case %zu is malformed", i);
				continue;
			}
			s = json_object_get_string(in);
			slen = (size_t)json_object_get_string_len(in);
			e = handle_parse(s, slen, &h);
			if (!ok(e == HANDLE_OK, "ok: '%s' (%s)", show(s, slen), handle_strerror(e)))
				continue;
			is_str(h.text, json_object_get_string(want), "canonical of '%s'", show(s, slen));
			ok(h.len == strlen(h.text), "len matches for '%s'", show(s, slen));
			ok(handle_parse(h.text, h.len, &h2) == HANDLE_OK && strcmp(h.text, h2.text) == 0,
			    "canonical form is a fixed point: %s", h.text);
		}
	}
	if (ok(json_object_object_get_ex(root, "bad", &arr) && json_object_is_type(arr, json_type_array),
	        "fixture has a bad array")) {
		size_t n = json_object_array_length(arr);

		ok(n == 28, "28 fixture bad cases to check (got %zu)", n);
		for (size_t i = 0; i < n; i++) {
			json_object *c = json_object_array_get_idx(arr, i), *in;
			const char *s;
			size_t slen;

			if (!json_object_object_get_ex(c, "input", &in)) {
				ok(0, "bad case %zu is malformed", i);
				continue;
			}
			s = json_object_get_string(in);
			slen = (size_t)json_object_get_string_len(in);
			e = handle_parse(s, slen, &h);
			ok(e != HANDLE_OK && e < HANDLE_ERR__MAX, "bad: '%s' -> %s", show(s, slen), handle_strerror(e));
		}
	}
	json_object_put(root);
}

/* Extra cases: each rule at its edge, and the reason reported. */
static const struct {
	const char *in;
	enum handle_err want;
	const char *canon;
} extra[] = {
	{"github:abcdefghijklmnopqrstuvwxyz0123456789ABC", HANDLE_OK,
	    "github:abcdefghijklmnopqrstuvwxyz0123456789abc"}, /* 39 */
	{"github:abcdefghijklmnopqrstuvwxyz0123456789ABCD", HANDLE_TOO_LONG, NULL}, /* 40 */
	{"x:abcdefghijklmno_", HANDLE_TOO_LONG, NULL},                                 /* 16 */
	{"x:@abcdefghijklmno_", HANDLE_TOO_LONG, NULL},
	{"x:@abcdefghijklmnO", HANDLE_OK, "x:abcdefghijklmno"},                        /* 15 after @ */
	{"x:_", HANDLE_OK, "x:_"},
	{"x:@@bob", HANDLE_BAD_X, NULL},
	{"x: @Bob ", HANDLE_OK, "x:bob"},
	{"x:@ bob", HANDLE_BAD_X, NULL},
	{"github:a-b-c", HANDLE_OK, "github:a-b-c"},
	{"github:a_b", HANDLE_BAD_GITHUB, NULL},
	{"github:alice bob", HANDLE_BAD_GITHUB, NULL},
	{"github:@alice", HANDLE_BAD_GITHUB, NULL},
	{"github:a:b", HANDLE_BAD_GITHUB, NULL},
	{"github :alice", HANDLE_BAD_SCHEME, NULL},
	{" github:alice", HANDLE_OK, "github:alice"},
	{"\t\n\v\f\rgithub:alice\r\n", HANDLE_OK, "github:alice"},
	{"gitHub:ALICE", HANDLE_OK, "github:alice"},
	{"git:alice", HANDLE_BAD_SCHEME, NULL},
	{":alice", HANDLE_BAD_SCHEME, NULL},
	{"xx:bob", HANDLE_BAD_SCHEME, NULL},
	{"twitter:bob", HANDLE_BAD_SCHEME, NULL},
	{"alice", HANDLE_NO_SCHEME, NULL},
	{"", HANDLE_EMPTY, NULL},
	{" \t ", HANDLE_EMPTY, NULL},
	{"github:", HANDLE_EMPTY_NAME, NULL},
	{"x:@", HANDLE_EMPTY_NAME, NULL},
	{"agent:", HANDLE_EMPTY_NAME, NULL},
	{"AGENT:7", HANDLE_OK, "agent:7"},
	{"Agent:10", HANDLE_OK, "agent:10"},
	{"agent:0", HANDLE_BAD_AGENT, NULL},
	{"agent:01", HANDLE_BAD_AGENT, NULL},
	{"agent:+1", HANDLE_BAD_AGENT, NULL},
	{"agent:1e3", HANDLE_BAD_AGENT, NULL},
	{"agent:1 ", HANDLE_AGENT_SPACE, NULL},
	{" agent:1", HANDLE_AGENT_SPACE, NULL},
	{"agent: 1", HANDLE_AGENT_SPACE, NULL},
	{"agent:1 2", HANDLE_AGENT_SPACE, NULL},
	{"agent:1\xC2\xA0" "2", HANDLE_BAD_AGENT, NULL},
	{"agent:115792089237316195423570985008687907853269984665640564039457584007913129639934", HANDLE_OK,
	    "agent:115792089237316195423570985008687907853269984665640564039457584007913129639934"},
	{"agent:115792089237316195423570985008687907853269984665640564039457584007913129639936",
	    HANDLE_AGENT_RANGE, NULL},
	{"agent:999999999999999999999999999999999999999999999999999999999999999999999999999999",
	    HANDLE_AGENT_RANGE, NULL}, /* 78 nines */
	{"agent:1000000000000000000000000000000000000000000000000000000000000000000000000000000",
	    HANDLE_AGENT_RANGE, NULL}, /* 79 digits */
	{"agent:99999999999999999999999999999999999999999999999999999999999999999999999999999", HANDLE_OK,
	    "agent:99999999999999999999999999999999999999999999999999999999999999999999999999999"},
	/* JavaScript's trim also removes Unicode spaces (UTF-8 here). */
	{"\xC2\xA0github:alice\xC2\xA0", HANDLE_OK, "github:alice"},           /* U+00A0 */
	{"\xEF\xBB\xBFgithub:alice", HANDLE_OK, "github:alice"},               /* U+FEFF */
	{"github:\xE3\x80\x80" "alice\xE2\x80\xA8", HANDLE_OK, "github:alice"}, /* U+3000, U+2028 */
	{"x:\xE2\x80\x8A@bob\xE2\x81\x9F", HANDLE_OK, "x:bob"},                /* U+200A, U+205F */
	{"\xE1\x9A\x80x:bob\xE2\x80\xAF", HANDLE_OK, "x:bob"},                 /* U+1680, U+202F */
	{"agent:1\xC2\xA0", HANDLE_AGENT_SPACE, NULL},
	{"\xE2\x80\x8B" "github:alice", HANDLE_BAD_SCHEME, NULL}, /* U+200B is not whitespace in JS */
	{"github:\xC3\xA9lise", HANDLE_BAD_GITHUB, NULL},
	{"github:alice\xC2", HANDLE_BAD_GITHUB, NULL}, /* a lone lead byte is not trimmed */
};

static void
test_extra(void)
{
	struct handle h;
	enum handle_err e;

	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		const char *s = extra[i].in;

		e = handle_parse(s, strlen(s), &h);
		ok(e == extra[i].want, "'%s' -> %s (got: %s)", show(s, strlen(s)), handle_strerror(extra[i].want),
		    handle_strerror(e));
		if (e == HANDLE_OK && extra[i].canon != NULL)
			is_str(h.text, extra[i].canon, "canonical of '%s'", show(s, strlen(s)));
	}

	/* slen bounds the input; an embedded NUL is just a bad character. */
	ok(handle_parse("github:alicebob", 12, &h) == HANDLE_OK && strcmp(h.text, "github:alice") == 0,
	    "slen bounds the input");
	ok(handle_parse("github:al\0ce", 12, &h) == HANDLE_BAD_GITHUB, "embedded NUL rejected");
	ok(handle_parse("agent:1\0", 8, &h) == HANDLE_BAD_AGENT, "agent id with a trailing NUL rejected");
	ok(handle_parse(NULL, 0, &h) == HANDLE_EMPTY, "NULL is empty");
}

static void
test_hash_and_parts(void)
{
	struct handle h;
	const char *hx;

	if (ok(handle_parse("github:alice", 12, &h) == HANDLE_OK, "github:alice parses")) {
		hx = hash_hex(&h);
		ok(strncmp(hx, "0xa291e52d", 10) == 0 && strcmp(hx + 62, "80c0") == 0,
		    "handleHash(github:alice) = 0xa291e52d..80c0 (%s)", hx);
		ok(h.kind == HANDLE_GITHUB, "kind github");
		is_str(handle_name(&h), "alice", "name of github:alice");
	}
	if (ok(handle_parse("agent:42", 8, &h) == HANDLE_OK, "agent:42 parses")) {
		hx = hash_hex(&h);
		ok(strncmp(hx, "0x72ac738f", 10) == 0 && strcmp(hx + 62, "952d") == 0,
		    "handleHash(agent:42) = 0x72ac738f..952d (%s)", hx);
		ok(h.kind == HANDLE_AGENT, "kind agent");
		is_str(handle_name(&h), "42", "id of agent:42");
	}
	{
		struct handle h2;
		uint8_t d1[32], d2[32];

		ok(handle_parse("  GitHub: Alice ", 16, &h) == HANDLE_OK &&
		    handle_parse("github:alice", 12, &h2) == HANDLE_OK,
		    "two spellings of github:alice parse");
		handle_hash(&h, d1);
		handle_hash(&h2, d2);
		ok(memcmp(d1, d2, 32) == 0, "two spellings of the same handle hash alike");
	}
	if (ok(handle_parse("X:@Bob", 6, &h) == HANDLE_OK, "X:@Bob parses")) {
		ok(h.kind == HANDLE_X, "kind x");
		is_str(handle_name(&h), "bob", "name of x:bob");
	}
	is_str(handle_kind_name(HANDLE_GITHUB), "github", "kind name github");
	is_str(handle_kind_name(HANDLE_X), "x", "kind name x");
	is_str(handle_kind_name(HANDLE_AGENT), "agent", "kind name agent");
	is_str(handle_kind_name(HANDLE_KIND__MAX), "?", "kind name out of range");

	int distinct = 1;
	for (int i = 0; i < HANDLE_ERR__MAX; i++) {
		const char *m = handle_strerror((enum handle_err)i);
		size_t n = m ? strlen(m) : 0;

		if (n == 0 || m[n - 1] != '.')
			distinct = 0;
		for (int j = 0; j < i && distinct; j++)
			if (strcmp(m, handle_strerror((enum handle_err)j)) == 0)
				distinct = 0;
	}
	ok(distinct, "handle_strerror: one distinct sentence per code");
	ok(handle_strerror(HANDLE_ERR__MAX) != NULL, "handle_strerror out of range is not NULL");
}

int
main(void)
{
	test_fixture();
	test_extra();
	test_hash_and_parts();
	return done_testing();
}
