/*
 * Strict JSON parser: RFC 8259 grammar, UTF-8 and escapes, duplicates,
 * numbers, limits, error codes and offsets, json_dump and json_check_keys.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "json.h"
#include "tap.h"
#include "banned.h"

#define ANY_OFFSET SIZE_MAX

struct tcase {
	const char *name;
	const char *in;
	size_t len;
	enum json_err want;
	const char *dump;   /* expected json_dump of the result (valid cases), or NULL */
	size_t offset;      /* expected error offset, or ANY_OFFSET */
};

/* Input from a string literal, so embedded NULs count. */
#define IN(lit) lit, sizeof(lit) - 1
#define V(name, lit, dump) { name, IN(lit), JSON_OK, dump, ANY_OFFSET }
#define E(name, lit, code) { name, IN(lit), code, NULL, ANY_OFFSET }
#define EO(name, lit, code, off) { name, IN(lit), code, NULL, off }

static const struct tcase grammar[] = {
	/* scalars and whitespace */
	V("zero", "0", "0"),
	V("minus zero is the integer 0", "-0", "0"),
	V("one", "1", "1"),
	V("negative", "-123", "-123"),
	V("fraction keeps text", "1.50", "1.50"),
	V("negative fraction exponent", "-1.5e10", "-1.5e10"),
	V("capital E keeps text", "1E2", "1E2"),
	V("negative exponent", "1e-2", "1e-2"),
	V("plus exponent", "1.0e+2", "1.0e+2"),
	V("zero point zero", "0.0", "0.0"),
	V("zero exponent", "0e0", "0e0"),
	V("huge exponent keeps text", "1e400", "1e400"),
	V("tiny exponent keeps text", "-1e-400", "-1e-400"),
	V("true", "true", "true"),
	V("false", "false", "false"),
	V("null", "null", "null"),
	V("empty string", "\"\"", "\"\""),
	V("plain string", "\"abc\"", "\"abc\""),
	V("surrounding whitespace", " \t\n\r 1 \t\n\r ", "1"),
	V("empty array", "[]", "[]"),
	V("empty object", "{}", "{}"),
	V("spaced empty array", "[ \n ]", "[]"),
	V("spaced empty object", "{ \t }", "{}"),
	V("array", "[1,2,3]", "[1,2,3]"),
	V("spaced array", " [ 1 , 2 ] ", "[1,2]"),
	V("mixed array", "[true,false,null,\"x\",0.5,{}]", "[true,false,null,\"x\",0.5,{}]"),
	V("object", "{\"a\":1,\"b\":[true,false,null]}", "{\"a\":1,\"b\":[true,false,null]}"),
	V("member order kept", "{\"b\":1,\"a\":2,\"c\":3}", "{\"b\":1,\"a\":2,\"c\":3}"),
	V("spaced object", "{ \"a\" : 1 , \"b\" : 2 }", "{\"a\":1,\"b\":2}"),
	V("empty member name", "{\"\":1}", "{\"\":1}"),
	V("same name at two levels", "{\"a\":{\"a\":1}}", "{\"a\":{\"a\":1}}"),
	V("same name in sibling objects", "[{\"a\":1},{\"a\":2}]", "[{\"a\":1},{\"a\":2}]"),
	V("names differing after an escape", "{\"a\\nb\":1,\"a\\nc\":2}", "{\"a\\nb\":1,\"a\\nc\":2}"),
	V("null member value", "{\"a\":null}", "{\"a\":null}"),
	V("nested", "[[[]],{\"x\":[{}]}]", "[[[]],{\"x\":[{}]}]"),

	/* escapes */
	V("short escapes", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\\"\\\\/\\b\\f\\n\\r\\t\""),
	V("\\u0041", "\"\\u0041\"", "\"A\""),
	V("\\u00e9 uppercase hex", "\"\\u00E9\"", "\"\xc3\xa9\""),
	V("\\u20ac", "\"\\u20ac\"", "\"\xe2\x82\xac\""),
	V("surrogate pair", "\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\""),
	V("surrogate pair upper case", "\"\\uD83D\\uDE00\"", "\"\xf0\x9f\x98\x80\""),
	V("highest pair U+10FFFF", "\"\\udbff\\udfff\"", "\"\xf4\x8f\xbf\xbf\""),
	V("\\u0000 in a value", "\"a\\u0000b\"", "\"a\\u0000b\""),
	V("escaped control", "\"\\u001f\"", "\"\\u001f\""),
	V("escaped slash unescaped on output", "\"a\\/b\"", "\"a/b\""),

	/* UTF-8 */
	V("2-byte U+0080", "\"\xc2\x80\"", "\"\xc2\x80\""),
	V("2-byte U+00E9", "\"\xc3\xa9\"", "\"\xc3\xa9\""),
	V("3-byte U+0800", "\"\xe0\xa0\x80\"", "\"\xe0\xa0\x80\""),
	V("3-byte U+20AC", "\"\xe2\x82\xac\"", "\"\xe2\x82\xac\""),
	V("3-byte U+D7FF", "\"\xed\x9f\xbf\"", "\"\xed\x9f\xbf\""),
	V("3-byte U+E000", "\"\xee\x80\x80\"", "\"\xee\x80\x80\""),
	V("3-byte U+FFFF", "\"\xef\xbf\xbf\"", "\"\xef\xbf\xbf\""),
	V("4-byte U+10000", "\"\xf0\x90\x80\x80\"", "\"\xf0\x90\x80\x80\""),
	V("4-byte U+1F600", "\"\xf0\x9f\x98\x80\"", "\"\xf0\x9f\x98\x80\""),
	V("4-byte U+10FFFF", "\"\xf4\x8f\xbf\xbf\"", "\"\xf4\x8f\xbf\xbf\""),
	V("DEL is not a control character", "\"\x7f\"", "\"\x7f\""),
	V("UTF-8 member name", "{\"\xc3\xa9\":1}", "{\"\xc3\xa9\":1}"),

	/* integers at the int64 edges, and beyond */
	V("INT64_MAX", "9223372036854775807", "9223372036854775807"),
	V("INT64_MIN", "-9223372036854775808", "-9223372036854775808"),
	V("INT64_MAX+1 keeps text", "9223372036854775808", "9223372036854775808"),
	V("INT64_MIN-1 keeps text", "-9223372036854775809", "-9223372036854775809"),
	V("2^256-1 keeps text",
	    "115792089237316195423570985008687907853269984665640564039457584007913129639935",
	    "115792089237316195423570985008687907853269984665640564039457584007913129639935"),
	V("big integer inside object", "{\"v\":18446744073709551616}", "{\"v\":18446744073709551616}"),

	/* structure errors */
	EO("empty input", "", JSON_E_EOF, 0),
	EO("only whitespace", "  \n", JSON_E_EOF, 3),
	EO("two values", "1 2", JSON_E_TRAILING, 2),
	E("two objects", "{}{}", JSON_E_TRAILING),
	EO("extra bracket", "[1]]", JSON_E_TRAILING, 3),
	E("garbage after null", "nullx", JSON_E_TRAILING),
	E("NUL after value", "1\0", JSON_E_TRAILING),
	EO("trailing comma in array", "[1,]", JSON_E_SYNTAX, 3),
	EO("trailing comma in object", "{\"a\":1,}", JSON_E_SYNTAX, 7),
	E("leading comma", "[,1]", JSON_E_SYNTAX),
	E("double comma", "[1,,2]", JSON_E_SYNTAX),
	E("missing comma", "[1 2]", JSON_E_SYNTAX),
	E("missing colon", "{\"a\" 1}", JSON_E_SYNTAX),
	E("missing member value", "{\"a\":}", JSON_E_SYNTAX),
	E("unquoted name", "{a:1}", JSON_E_SYNTAX),
	E("single-quoted name", "{'a':1}", JSON_E_SYNTAX),
	E("single-quoted string", "'a'", JSON_E_SYNTAX),
	E("number as name", "{1:1}", JSON_E_SYNTAX),
	E("comma in empty object", "{,}", JSON_E_SYNTAX),
	E("array closed by brace", "[1}", JSON_E_SYNTAX),
	E("object closed by bracket", "{\"a\":1]", JSON_E_SYNTAX),
	E("lone close", "]", JSON_E_SYNTAX),
	E("lone colon", ":", JSON_E_SYNTAX),
	EO("unclosed array", "[", JSON_E_EOF, 1),
	E("unclosed object", "{", JSON_E_EOF),
	EO("unclosed array after value", "  [1, 2", JSON_E_EOF, 7),
	E("object ends after name", "{\"a\"", JSON_E_EOF),
	E("object ends after colon", "{\"a\":", JSON_E_EOF),
	E("object ends after value", "{\"a\":1", JSON_E_EOF),
	E("object ends after comma", "{\"a\":1,", JSON_E_EOF),
	EO("unterminated string", "\"abc", JSON_E_EOF, 4),
	E("block comment", "/*x*/1", JSON_E_SYNTAX),
	E("line comment after value", "1//x", JSON_E_TRAILING),
	E("comment in array", "[1/*x*/]", JSON_E_SYNTAX),
	E("hash comment", "#1", JSON_E_SYNTAX),
	EO("byte order mark", "\xef\xbb\xbf" "1", JSON_E_SYNTAX, 0),
	E("form feed is not whitespace", "\f1", JSON_E_SYNTAX),
	E("vertical tab is not whitespace", "\v1", JSON_E_SYNTAX),
	E("NBSP is not whitespace", "\xc2\xa0" "1", JSON_E_SYNTAX),
	E("raw UTF-8 outside a string", "\xc3\xa9", JSON_E_SYNTAX),

	/* literals */
	E("True", "True", JSON_E_SYNTAX),
	E("NULL", "NULL", JSON_E_SYNTAX),
	E("nul", "nul", JSON_E_EOF),
	E("tru", "tru", JSON_E_EOF),
	E("fals", "fals", JSON_E_EOF),
	EO("nulL", "nulL", JSON_E_SYNTAX, 3),
	E("NaN", "NaN", JSON_E_SYNTAX),
	E("Infinity", "Infinity", JSON_E_SYNTAX),
	E("-Infinity", "-Infinity", JSON_E_NUMBER),
	E("undefined", "undefined", JSON_E_SYNTAX),

	/* numbers */
	EO("leading plus", "+1", JSON_E_SYNTAX, 0),
	EO("leading zero", "01", JSON_E_NUMBER, 1),
	E("negative leading zero", "-01", JSON_E_NUMBER),
	E("double zero", "00", JSON_E_NUMBER),
	E("leading zero before fraction digits", "00.5", JSON_E_NUMBER),
	E("dot at end", "1.", JSON_E_EOF),
	E("dot then exponent", "1.e5", JSON_E_NUMBER),
	E("leading dot", ".5", JSON_E_SYNTAX),
	E("negative leading dot", "-.5", JSON_E_NUMBER),
	E("exponent at end", "1e", JSON_E_EOF),
	E("exponent sign at end", "1e+", JSON_E_EOF),
	EO("exponent without digits", "1ex", JSON_E_NUMBER, 2),
	E("exponent sign without digits", "[1e-]", JSON_E_NUMBER),
	E("lone minus", "-", JSON_E_EOF),
	E("minus letter", "-a", JSON_E_NUMBER),
	E("double minus", "--1", JSON_E_NUMBER),
	E("hex number", "0x10", JSON_E_TRAILING),
	E("two dots", "1.5.5", JSON_E_TRAILING),
	E("number then letter in array", "[1a]", JSON_E_SYNTAX),
	E("minus space digit", "- 1", JSON_E_NUMBER),

	/* string content */
	EO("raw newline", "\"a\nb\"", JSON_E_CONTROL, 2),
	E("raw tab", "\"\t\"", JSON_E_CONTROL),
	E("raw NUL", "\"\0\"", JSON_E_CONTROL),
	E("raw 0x1f", "\"\x1f\"", JSON_E_CONTROL),
	EO("\\x escape", "\"\\x41\"", JSON_E_ESCAPE, 1),
	E("\\a escape", "\"\\a\"", JSON_E_ESCAPE),
	E("\\' escape", "\"\\'\"", JSON_E_ESCAPE),
	E("\\U escape", "\"\\U0041\"", JSON_E_ESCAPE),
	E("\\u bad hex", "\"\\u00G1\"", JSON_E_ESCAPE),
	E("\\u too short", "\"\\u12\"", JSON_E_ESCAPE),
	E("\\u at end", "\"\\u12", JSON_E_EOF),
	E("backslash at end", "\"\\", JSON_E_EOF),
	E("escaped real newline", "\"\\\n\"", JSON_E_ESCAPE),

	/* surrogate escapes */
	EO("lone high surrogate", "\"\\ud83d\"", JSON_E_SURROGATE, 1),
	EO("lone low surrogate", "\"\\ude00\"", JSON_E_SURROGATE, 1),
	EO("high then \\u0041", "\"ab\\ud83d\\u0041\"", JSON_E_SURROGATE, 3),
	E("high then text", "\"\\ud83dx\"", JSON_E_SURROGATE),
	E("high then high", "\"\\ud83d\\ud83d\"", JSON_E_SURROGATE),
	E("high then \\n", "\"\\ud83d\\n\"", JSON_E_SURROGATE),
	E("low then high", "\"\\ude00\\ud83d\"", JSON_E_SURROGATE),
	E("high then bad hex", "\"\\ud83d\\uzzzz\"", JSON_E_ESCAPE),
	E("high at end of input", "\"\\ud83d", JSON_E_EOF),
	E("high then backslash at end", "\"\\ud83d\\", JSON_E_EOF),

	/* invalid UTF-8 */
	EO("overlong C0 80", "\"\xc0\x80\"", JSON_E_UTF8, 1),
	E("overlong C1 BF", "\"\xc1\xbf\"", JSON_E_UTF8),
	E("overlong E0 80 80", "\"\xe0\x80\x80\"", JSON_E_UTF8),
	E("overlong E0 9F BF", "\"\xe0\x9f\xbf\"", JSON_E_UTF8),
	E("overlong F0 80 80 80", "\"\xf0\x80\x80\x80\"", JSON_E_UTF8),
	E("overlong F0 8F BF BF", "\"\xf0\x8f\xbf\xbf\"", JSON_E_UTF8),
	EO("UTF-8 surrogate ED A0 80", "\"ab\xed\xa0\x80\"", JSON_E_UTF8, 3),
	E("UTF-8 surrogate ED BF BF", "\"\xed\xbf\xbf\"", JSON_E_UTF8),
	E("above U+10FFFF F4 90 80 80", "\"\xf4\x90\x80\x80\"", JSON_E_UTF8),
	E("F5 lead", "\"\xf5\x80\x80\x80\"", JSON_E_UTF8),
	E("FF byte", "\"\xff\"", JSON_E_UTF8),
	E("FE byte", "\"\xfe\"", JSON_E_UTF8),
	E("lone continuation", "\"\x80\"", JSON_E_UTF8),
	E("truncated 2-byte before quote", "\"\xc3\"", JSON_E_UTF8),
	E("truncated 3-byte", "\"\xe2\x82\"", JSON_E_UTF8),
	E("truncated 4-byte", "\"\xf0\x9f\x98\"", JSON_E_UTF8),
	E("truncated at end of input", "\"\xc3", JSON_E_UTF8),
	E("bad second byte", "\"\xe2\x28\xa1\"", JSON_E_UTF8),
	E("bad third byte", "\"\xe2\x82\x28\"", JSON_E_UTF8),
	E("invalid UTF-8 in a member name", "{\"\xc0\x80\":1}", JSON_E_UTF8),

	/* duplicates */
	EO("duplicate", "{\"a\":1,\"a\":2}", JSON_E_DUPLICATE, 7),
	E("duplicate via \\u0061", "{\"a\":1,\"\\u0061\":2}", JSON_E_DUPLICATE),
	E("duplicate via \\u00e9 and raw UTF-8", "{\"\\u00e9\":1,\"\xc3\xa9\":2}", JSON_E_DUPLICATE),
	E("duplicate via surrogate pair", "{\"\\ud83d\\ude00\":1,\"\xf0\x9f\x98\x80\":2}", JSON_E_DUPLICATE),
	E("duplicate after escaped char", "{\"a\\nb\":1,\"a\\u000ab\":2}", JSON_E_DUPLICATE),
	E("duplicate \\/ and /", "{\"a/b\":1,\"a\\/b\":2}", JSON_E_DUPLICATE),
	E("duplicate not adjacent", "{\"a\":1,\"b\":2,\"c\":3,\"a\":4}", JSON_E_DUPLICATE),
	E("duplicate with different types", "{\"a\":{},\"a\":[]}", JSON_E_DUPLICATE),
	E("duplicate in array of objects", "[{\"x\":1},{\"y\":1,\"y\":2}]", JSON_E_DUPLICATE),
	E("duplicate deep inside", "{\"o\":[{\"a\":1,\"b\":{\"c\":1,\"c\":2}}]}", JSON_E_DUPLICATE),
	E("duplicate empty names", "{\"\":1,\"\":2}", JSON_E_DUPLICATE),
	EO("U+0000 in a member name", "{\"a\\u0000b\":1}", JSON_E_NAME_NUL, 1),
	E("member name only U+0000", "{\"x\":1,\"\\u0000\":2}", JSON_E_NAME_NUL),
};

static int
run_case(const struct tcase *c, const struct json_limits *lim)
{
	json_object *o = (json_object *)&o; /* must be reset to NULL on error */
	struct json_error err;
	int rc = json_parse_strict(c->in, c->len, lim, &o, &err);
	int good;

	if (c->want == JSON_OK) {
		const char *d = rc == 0 ? json_dump(o, NULL) : NULL;

		good = rc == 0 && (c->dump == NULL || (d != NULL && strcmp(d, c->dump) == 0));
		if (rc == 0) {
			/* The dump re-parses to an equal value. */
			json_object *again = NULL;

			if (json_parse_strict(d, strlen(d), lim, &again, NULL) < 0 || !json_object_equal(o, again))
				good = 0;
			json_object_put(again);
		}
		if (!ok(good, "valid: %s", c->name)) {
			printf("#   rc %d, error %s at %zu\n", rc, err.msg, err.offset);
			printf("#   got:  %s\n#   want: %s\n", d ? d : "(null)", c->dump ? c->dump : "(any)");
		}
		json_object_put(o);
		return good;
	}
	good = rc == -1 && o == NULL && err.code == c->want && err.msg[0] != '\0' &&
	    (c->offset == ANY_OFFSET || err.offset == c->offset);
	if (!ok(good, "invalid: %s", c->name))
		printf("#   rc %d, code %d (want %d), offset %zu, msg \"%s\"\n", rc, (int)err.code, (int)c->want,
		    err.offset, err.msg);
	if (rc == 0)
		json_object_put(o);
	return good;
}

/* Parse s (NUL-terminated) with lim; returns the error code (JSON_OK on success). */
static enum json_err
parse_code(const char *s, size_t len, const struct json_limits *lim, struct json_error *err)
{
	json_object *o = NULL;
	struct json_error e;

	if (err == NULL)
		err = &e;
	if (json_parse_strict(s, len, lim, &o, err) == 0) {
		json_object_put(o);
		return JSON_OK;
	}
	return err->code;
}

/* n nested arrays, or objects {"a":...} when objects, around a 1. */
static char *
nest(size_t n, int objects, size_t *len)
{
	size_t cap = n * 6 + 2, o = 0;
	char *s = malloc(cap);

	if (s == NULL)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (objects) {
			memcpy(s + o, "{\"a\":", 5);
			o += 5;
		} else {
			s[o++] = '[';
		}
	}
	s[o++] = '1';
	for (size_t i = 0; i < n; i++)
		s[o++] = objects ? '}' : ']';
	s[o] = '\0';
	*len = o;
	return s;
}

static void
test_depth(void)
{
	struct json_error err;
	struct json_limits lim = json_limits_default;
	size_t len;
	char *s;

	s = nest(32, 0, &len);
	ok(parse_code(s, len, NULL, NULL) == JSON_OK, "32 nested arrays accepted by default");
	free(s);
	s = nest(33, 0, &len);
	ok(parse_code(s, len, NULL, &err) == JSON_E_DEPTH && err.offset == 32, "33 nested arrays rejected at offset 32");
	is_str(err.msg, "nesting deeper than 32 levels", "depth message");
	free(s);
	s = nest(32, 1, &len);
	ok(parse_code(s, len, NULL, NULL) == JSON_OK, "32 nested objects accepted by default");
	free(s);
	s = nest(33, 1, &len);
	ok(parse_code(s, len, NULL, NULL) == JSON_E_DEPTH, "33 nested objects rejected");
	free(s);

	lim.max_depth = 0;
	ok(parse_code("1", 1, &lim, NULL) == JSON_OK, "depth 0 accepts a scalar");
	ok(parse_code("[]", 2, &lim, NULL) == JSON_E_DEPTH, "depth 0 rejects []");
	lim.max_depth = 1;
	ok(parse_code("[1,{}]", 6, &lim, NULL) == JSON_E_DEPTH, "depth 1 rejects [{}]");
	ok(parse_code("[1,2]", 5, &lim, NULL) == JSON_OK, "depth 1 accepts [1,2]");

	lim.max_depth = 100000;
	lim.max_length = SIZE_MAX;
	s = nest(JSON_DEPTH_CEILING, 0, &len);
	ok(parse_code(s, len, &lim, NULL) == JSON_OK, "depth ceiling itself accepted");
	free(s);
	s = nest(JSON_DEPTH_CEILING + 1, 0, &len);
	ok(parse_code(s, len, &lim, &err) == JSON_E_DEPTH, "a caller's huge max_depth is capped at the ceiling");
	is_str(err.msg, "nesting deeper than 1000 levels", "ceiling message");
	free(s);
}

static void
test_limits(void)
{
	struct json_error err;
	struct json_limits lim = json_limits_default;
	char *s;
	size_t o;

	lim.max_length = 9;
	ok(parse_code("[1,2,3,4]", 9, &lim, NULL) == JSON_OK, "input exactly max_length accepted");
	ok(parse_code("[1,2,3,4] ", 10, &lim, &err) == JSON_E_LENGTH && err.offset == 9,
	    "one byte over max_length rejected (offset = limit)");
	is_str(err.msg, "input longer than 9 bytes", "length message");

	lim = json_limits_default;
	lim.max_string = 3;
	ok(parse_code("\"abc\"", 5, &lim, NULL) == JSON_OK, "string of max_string bytes accepted");
	ok(parse_code("[\"abcd\"]", 8, &lim, &err) == JSON_E_STRING_LENGTH && err.offset == 1,
	    "string one byte over rejected at its opening quote");
	is_str(err.msg, "string longer than 3 bytes", "string length message");
	ok(parse_code(IN("\"\\u0041\\u0042\\u0043\""), &lim, NULL) == JSON_OK, "limit counts decoded bytes (3 escapes)");
	ok(parse_code(IN("\"\xe2\x82\xac\""), &lim, NULL) == JSON_OK, "3-byte character fits max_string 3");
	ok(parse_code(IN("\"a\xe2\x82\xac\""), &lim, NULL) == JSON_E_STRING_LENGTH, "1+3 bytes exceed max_string 3");
	ok(parse_code(IN("\"\\ud83d\\ude00\""), &lim, NULL) == JSON_E_STRING_LENGTH, "4-byte pair exceeds max_string 3");
	ok(parse_code(IN("{\"abcd\":1}"), &lim, NULL) == JSON_E_STRING_LENGTH, "member names obey max_string");
	lim.max_string = 0;
	ok(parse_code(IN("[\"\",{\"\":\"\"}]"), &lim, NULL) == JSON_OK, "max_string 0 still allows empty strings");

	lim = json_limits_default;
	lim.max_members = 3;
	ok(parse_code(IN("[1,2,3]"), &lim, NULL) == JSON_OK, "array of max_members accepted");
	ok(parse_code(IN("[1,2,3,4]"), &lim, &err) == JSON_E_MEMBERS && err.offset == 7,
	    "array one over rejected at the extra element");
	is_str(err.msg, "array has more than 3 elements", "element limit message");
	ok(parse_code(IN("{\"a\":1,\"b\":2,\"c\":3}"), &lim, NULL) == JSON_OK, "object of max_members accepted");
	ok(parse_code(IN("{\"a\":1,\"b\":2,\"c\":3,\"d\":4}"), &lim, &err) == JSON_E_MEMBERS && err.offset == 19,
	    "object one over rejected at the extra name");
	is_str(err.msg, "object has more than 3 members", "member limit message");
	ok(parse_code(IN("[[1,2,3],[1,2,3],[1,2,3]]"), &lim, NULL) == JSON_OK, "limit is per container");
	lim.max_members = 0;
	ok(parse_code(IN("[[],{}]"), &lim, NULL) == JSON_E_MEMBERS, "max_members 0 rejects a non-empty array");
	ok(parse_code(IN("{}"), &lim, NULL) == JSON_OK, "max_members 0 allows {}");

	/* Default: 1000 elements fine, 1001 not. */
	s = malloc(1001 * 2 + 2);
	if (s == NULL)
		abort();
	o = 0;
	s[o++] = '[';
	for (int i = 0; i < 1001; i++) {
		s[o++] = '0';
		s[o++] = ',';
	}
	s[o - 1] = ']';
	ok(parse_code(s, o, NULL, NULL) == JSON_E_MEMBERS, "1001 elements rejected by default");
	s[1000 * 2] = ']';
	ok(parse_code(s, 1000 * 2 + 1, NULL, NULL) == JSON_OK, "1000 elements accepted by default");
	free(s);

	ok(json_limits_default.max_depth == 32 && json_limits_default.max_length == 1024 * 1024 &&
	    json_limits_default.max_string == 64 * 1024 && json_limits_default.max_members == 1000,
	    "default limits are 32 / 1 MiB / 64 KiB / 1000");
}

static void
test_values(void)
{
	json_object *o = NULL, *v;
	struct json_error err;
	const char *d;
	size_t n;

	ok(json_parse_strict(IN("[9223372036854775807,-9223372036854775808,9223372036854775808]"), NULL, &o,
	    &err) == 0, "int64 edge array parses");
	v = json_object_array_get_idx(o, 0);
	ok(json_object_is_type(v, json_type_int) && json_object_get_int64(v) == INT64_MAX, "INT64_MAX is an int");
	v = json_object_array_get_idx(o, 1);
	ok(json_object_is_type(v, json_type_int) && json_object_get_int64(v) == INT64_MIN, "INT64_MIN is an int");
	v = json_object_array_get_idx(o, 2);
	ok(json_object_is_type(v, json_type_double), "INT64_MAX+1 is a double");
	is_str(json_object_get_string(v), "9223372036854775808", "json_object_get_string gives its original text");
	json_object_put(o);

	ok(json_parse_strict(IN("\"a\\u0000b\""), NULL, &o, &err) == 0 && json_object_get_string_len(o) == 3 &&
	    memcmp(json_object_get_string(o), "a\0b", 3) == 0, "\\u0000 gives an embedded NUL");
	json_object_put(o);

	ok(json_parse_strict(IN("-0"), NULL, &o, &err) == 0 && json_object_is_type(o, json_type_int) &&
	    json_object_get_int64(o) == 0, "-0 is the integer 0");
	json_object_put(o);

	o = (json_object *)&o;
	ok(json_parse_strict(IN("null"), NULL, &o, &err) == 0 && o == NULL, "top-level null gives 0 and NULL");

	ok(json_parse_strict(IN("{\"u\":\"https://x.example/a/b\",\"n\":1.25}"), NULL, &o, &err) == 0, "parse URL");
	d = json_dump(o, &n);
	is_str(d, "{\"u\":\"https://x.example/a/b\",\"n\":1.25}", "json_dump does not escape '/'");
	ok(d != NULL && n == strlen(d), "json_dump length");
	json_object_put(o);
	is_str(json_dump(NULL, &n), "null", "json_dump(NULL) is null");
}

static void
test_errors(void)
{
	json_object *o;
	struct json_error err;
	char big[200];
	size_t n;

	ok(json_parse_strict(IN("{\"a\":1,\"a\":2}"), NULL, &o, &err) < 0, "duplicate rejected");
	is_str(err.msg, "duplicate member name \"a\"", "duplicate message names the member");
	is_str(err.name, "a", "duplicate name stored");

	ok(json_parse_strict(IN("{\"q\\\"\\\\\\u0001\":1,\"q\\\"\\\\\\u0001\":2}"), NULL, &o, &err) < 0,
	    "duplicate name with quote, backslash and control rejected");
	is_str(err.name, "q\\\"\\\\\\u0001", "name escaped in the error");

	/* A long name is cut with "..." at a character boundary. */
	n = 0;
	n += (size_t)snprintf(big + n, sizeof(big) - n, "{\"");
	for (int i = 0; i < 30; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "\xc3\xa9");
	n += (size_t)snprintf(big + n, sizeof(big) - n, "\":1,\"");
	for (int i = 0; i < 30; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "\xc3\xa9");
	n += (size_t)snprintf(big + n, sizeof(big) - n, "\":2}");
	ok(n < sizeof(big) && json_parse_strict(big, n, NULL, &o, &err) < 0 && err.code == JSON_E_DUPLICATE,
	    "long duplicate name rejected");
	{
		size_t nl = strlen(err.name);

		ok(nl < JSON_ERR_NAME_MAX && nl >= 3 && strcmp(err.name + nl - 3, "...") == 0 && (nl - 3) % 2 == 0,
		    "long name truncated whole-character with ... (%zu bytes)", nl);
		ok(strstr(err.msg, err.name) != NULL,
		    "message contains the truncated name");
	}

	ok(json_parse_strict(IN("{\"a\\u0000b\":1}"), NULL, &o, &err) < 0, "NUL name rejected");
	is_str(err.msg, "U+0000 in member name \"a\\u0000b\"", "NUL name message");

	ok(json_parse_strict(IN("[1,]"), NULL, &o, &err) < 0, "trailing comma rejected");
	is_str(err.msg, "trailing comma", "trailing comma message");
	ok(json_parse_strict(IN("\"\xed\xa0\x80\""), NULL, &o, &err) < 0, "UTF-8 surrogate rejected");
	is_str(err.msg, "invalid UTF-8 in string", "UTF-8 message");
	ok(json_parse_strict(IN("[1 x"), NULL, &o, &err) < 0 && err.code == JSON_E_SYNTAX && err.offset == 3,
	    "unexpected character at offset 3");

	ok(json_parse_strict(IN("{\"a\":1,\"a\":2}"), NULL, &o, NULL) < 0 && o == NULL, "err may be NULL");
	ok(json_parse_strict(IN("1"), NULL, NULL, &err) < 0 && err.code == JSON_E_INVALID, "out NULL rejected");
	ok(json_parse_strict(NULL, 1, NULL, &o, &err) < 0 && err.code == JSON_E_INVALID, "buf NULL with len rejected");
	ok(json_parse_strict(NULL, 0, NULL, &o, &err) < 0 && err.code == JSON_E_EOF, "buf NULL, len 0 is empty input");

	{
		int all = 1;

		for (int c = 0; c < JSON_E__MAX; c++)
			if (json_strerror((enum json_err)c) == NULL || json_strerror((enum json_err)c)[0] == '\0')
				all = 0;
		ok(all, "json_strerror has text for every code");
	}
	is_str(json_strerror(JSON_E__MAX), "unknown error", "json_strerror out of range");
	is_str(json_strerror(JSON_E_UTF8), "invalid UTF-8 in string", "json_strerror(JSON_E_UTF8)");
}

static enum json_keys
keys(const char *in, const char *const *allowed, const char *const *required, const char **bad)
{
	json_object *o = NULL;
	enum json_keys k;

	if (json_parse_strict(in, strlen(in), NULL, &o, NULL) < 0)
		return JSON_KEYS__MAX;
	k = json_check_keys(o, allowed, required, bad);
	/* bad may point into o: copy what the caller checks before freeing. */
	if (bad != NULL && *bad != NULL) {
		static char copy[64];

		snprintf(copy, sizeof(copy), "%s", *bad);
		*bad = copy;
	}
	json_object_put(o);
	return k;
}

static void
test_check_keys(void)
{
	static const char *const allowed[] = { "a", "b", NULL };
	static const char *const required[] = { "id", "kind", NULL };
	const char *bad = "x";

	ok(keys("{\"id\":1,\"kind\":2,\"a\":3}", allowed, required, &bad) == JSON_KEYS_OK && bad == NULL,
	    "check_keys: allowed and required present");
	ok(keys("{\"kind\":2,\"id\":1}", allowed, required, &bad) == JSON_KEYS_OK, "check_keys: order does not matter");
	ok(keys("{\"id\":1,\"kind\":2,\"z\":3}", allowed, required, &bad) == JSON_KEYS_UNKNOWN && bad != NULL &&
	    strcmp(bad, "z") == 0, "check_keys: unknown key named");
	ok(keys("{\"id\":1,\"a\":3}", allowed, required, &bad) == JSON_KEYS_MISSING && bad != NULL &&
	    strcmp(bad, "kind") == 0, "check_keys: missing key named");
	ok(keys("{\"y\":1,\"x\":2}", allowed, required, &bad) == JSON_KEYS_UNKNOWN && bad != NULL &&
	    strcmp(bad, "y") == 0, "check_keys: unknown reported before missing, first in member order");
	ok(keys("{}", allowed, required, &bad) == JSON_KEYS_MISSING && bad != NULL && strcmp(bad, "id") == 0,
	    "check_keys: first missing in required order");
	ok(keys("[1]", allowed, required, &bad) == JSON_KEYS_NOT_OBJECT && bad == NULL, "check_keys: array");
	ok(keys("\"id\"", allowed, required, &bad) == JSON_KEYS_NOT_OBJECT, "check_keys: string");
	ok(json_check_keys(NULL, allowed, required, &bad) == JSON_KEYS_NOT_OBJECT, "check_keys: NULL (JSON null)");
	ok(keys("{}", NULL, NULL, &bad) == JSON_KEYS_OK, "check_keys: no lists, empty object");
	ok(keys("{\"a\":1}", NULL, NULL, &bad) == JSON_KEYS_UNKNOWN, "check_keys: no lists, any key unknown");
	ok(keys("{\"a\":1}", allowed, NULL, NULL) == JSON_KEYS_OK, "check_keys: only optional keys, bad_key NULL");
	ok(keys("{\"id\":1,\"kind\":1}", NULL, required, &bad) == JSON_KEYS_OK, "check_keys: required keys are allowed");
	ok(keys("{\"A\":1}", allowed, NULL, &bad) == JSON_KEYS_UNKNOWN, "check_keys: names are case-sensitive");
}

/* json_canonical: sorted names (UTF-16 order), escapes, integers only, refusals. */
struct ccase {
	const char *name;
	const char *in;      /* parsed strictly */
	const char *want;    /* canonical text, or NULL when refused */
};

static const struct ccase canonical_cases[] = {
	{ "scalars", "[true,false,null,0,-7,9007199254740991,-9007199254740991]",
	    "[true,false,null,0,-7,9007199254740991,-9007199254740991]" },
	{ "whitespace removed, names sorted", "{ \"b\" : 1 , \"a\" : [ 2 , { \"d\":3, \"c\":4 } ] }",
	    "{\"a\":[2,{\"c\":4,\"d\":3}],\"b\":1}" },
	{ "byte-wise prefix order", "{\"ab\":1,\"a\":2,\"B\":3,\"\":4}", "{\"\":4,\"B\":3,\"a\":2,\"ab\":1}" },
	/* U+FB01 (EF AC 81) sorts after U+1F600 (a surrogate pair D83D DE00) in UTF-16,
	 * though its code point is smaller. */
	{ "UTF-16 order of names", "{\"\\ufb01\":1,\"\\ud83d\\ude00\":2,\"\\u00e9\":3}",
	    "{\"\xc3\xa9\":3,\"\xf0\x9f\x98\x80\":2,\"\xef\xac\x81\":1}" },
	{ "string escapes", "\"q\\\" b\\\\ s\\/ \\b\\t\\n\\f\\r \\u0001\\u001f \\u007f \\u2028 \\u00e9\"",
	    "\"q\\\" b\\\\ s/ \\b\\t\\n\\f\\r \\u0001\\u001f \x7f \xe2\x80\xa8 \xc3\xa9\"" },
	{ "U+0000 in a value", "\"a\\u0000b\"", "\"a\\u0000b\"" },
	{ "empty containers", "{\"a\":{},\"b\":[]}", "{\"a\":{},\"b\":[]}" },
	{ "a double is refused", "{\"a\":1.5}", NULL },
	{ "an exponent is refused", "[1e2]", NULL },
	{ "2^53 is refused", "[9007199254740992]", NULL },
	{ "-2^53 is refused", "[-9007199254740992]", NULL },
	{ "beyond int64 is refused", "[18446744073709551615]", NULL },
};

static void
test_canonical(void)
{
	for (size_t i = 0; i < sizeof(canonical_cases) / sizeof(canonical_cases[0]); i++) {
		const struct ccase *c = &canonical_cases[i];
		json_object *o = NULL;
		struct buf b;
		int rc;

		if (!ok(json_parse_strict(c->in, strlen(c->in), NULL, &o, NULL) == 0,
		    "canonical %s: input parses", c->name))
			continue;
		buf_init(&b, 4096);
		rc = json_canonical(o, &b);
		if (c->want)
			is_str(rc == 0 ? buf_str(&b) : "(refused)", c->want, "canonical %s", c->name);
		else
			ok(rc == -1, "canonical %s", c->name);
		buf_release(&b);
		json_object_put(o);
	}
	{
		/* Invalid UTF-8 built directly (the parser never makes it), a full buffer. */
		json_object *o = json_object_new_string_len("a\xff", 2);
		json_object *big = json_object_new_string("0123456789");
		struct buf b;

		buf_init(&b, 64);
		ok(json_canonical(o, &b) == -1, "canonical: invalid UTF-8 in a string is refused");
		buf_release(&b);
		buf_init(&b, 8);
		ok(json_canonical(big, &b) == -1, "canonical: a full buffer is an error");
		buf_release(&b);
		json_object_put(o);
		json_object_put(big);
	}
	{
		/* The same object built in two member orders gives the same text. */
		json_object *x = NULL, *y = NULL;
		const char *a = "{\"k\":{\"z\":[1,\"t\"],\"y\":null},\"j\":true}";
		const char *bb = "{\"j\":true,\"k\":{\"y\":null,\"z\":[1,\"t\"]}}";
		struct buf b1, b2;

		json_parse_strict(a, strlen(a), NULL, &x, NULL);
		json_parse_strict(bb, strlen(bb), NULL, &y, NULL);
		buf_init(&b1, 256);
		buf_init(&b2, 256);
		ok(json_canonical(x, &b1) == 0 && json_canonical(y, &b2) == 0 &&
		    strcmp(buf_str(&b1), buf_str(&b2)) == 0, "canonical: member order does not matter");
		buf_release(&b1);
		buf_release(&b2);
		json_object_put(x);
		json_object_put(y);
	}
}

/* json_member_string: a string member, or NULL for anything else. */
static void
test_member_string(void)
{
	static const char doc[] = "{\"s\":\"a\\u0000b\",\"e\":\"\",\"n\":1,\"z\":null,\"o\":{}}";
	json_object *o = NULL, *arr = json_object_new_array();
	size_t len = 99;
	const char *s;

	if (!ok(json_parse_strict(doc, strlen(doc), NULL, &o, NULL) == 0, "member_string: parse"))
		return;
	s = json_member_string(o, "s", &len);
	ok(s != NULL && len == 3 && memcmp(s, "a\0b", 3) == 0, "member_string: a string and its length");
	ok((s = json_member_string(o, "e", NULL)) != NULL && *s == '\0', "member_string: empty string");
	len = 99;
	ok(json_member_string(o, "n", &len) == NULL && len == 99, "member_string: a number is not one");
	ok(json_member_string(o, "z", NULL) == NULL, "member_string: null is not one");
	ok(json_member_string(o, "o", NULL) == NULL, "member_string: an object is not one");
	ok(json_member_string(o, "absent", NULL) == NULL, "member_string: absent");
	ok(json_member_string(arr, "s", NULL) == NULL, "member_string: of an array");
	ok(json_member_string(NULL, "s", NULL) == NULL, "member_string: of NULL");
	json_object_put(arr);
	json_object_put(o);
}

int
main(void)
{
	size_t nvalid = 0, ninvalid = 0;

	for (size_t i = 0; i < sizeof(grammar) / sizeof(grammar[0]); i++) {
		run_case(&grammar[i], NULL);
		if (grammar[i].want == JSON_OK)
			nvalid++;
		else
			ninvalid++;
	}
	{
		char msg[80];

		snprintf(msg, sizeof(msg), "table: %zu valid, %zu invalid cases", nvalid, ninvalid);
		diag(msg);
	}
	test_depth();
	test_limits();
	test_values();
	test_errors();
	test_check_keys();
	test_canonical();
	test_member_string();
	return done_testing();
}
