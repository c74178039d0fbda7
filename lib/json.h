/*
 * json.h: a strict RFC 8259 parser that builds json-c objects, and two
 * helpers for handlers (compact serialization, declared-key checks).
 *
 * json-c's own tokener keeps the last of duplicate member names, saturates
 * integers beyond 64 bits and accepts non-standard input. json_parse_strict
 * accepts exactly one RFC 8259 value surrounded by optional whitespace
 * (space, tab, LF, CR), and additionally:
 *  - rejects duplicate member names (compared after decoding escapes, so
 *    "a" and "\u0061" clash) in every object at every depth;
 *  - rejects a member name containing U+0000 (json-c keys are C strings);
 *    a string VALUE may contain U+0000 (use json_object_get_string_len);
 *  - requires valid UTF-8 in strings (no overlongs, no UTF-8-encoded
 *    surrogates, nothing above U+10FFFF) and paired surrogate escapes;
 *  - bounds input length, nesting depth, string length and member count.
 *
 * Numbers: an integer literal (no fraction, no exponent) within int64
 * becomes json_type_int. Every other number (fraction, exponent, or an
 * integer outside int64, such as 2^256-1) becomes json_type_double made
 * with json_object_new_double_s, so serialization prints the ORIGINAL text
 * and json_object_get_string returns it; json_object_get_double gives only
 * the nearest double (or +-HUGE_VAL). Callers needing uint256 values,
 * amounts or big ids must take them as JSON strings. "-0" is the integer 0.
 * Doubles are converted with strtod, so the process must keep the "C"
 * LC_NUMERIC locale (never call setlocale for LC_NUMERIC or LC_ALL).
 *
 * A JSON null is a NULL json_object pointer, as in json-c: a top-level
 * "null" parses successfully with *out == NULL.
 *
 * Include json-c as <json-c/json.h>, never as <json.h>: with the
 * -I/usr/include/json-c that pkg-config adds, <json.h> may find this file.
 * (This file includes <json-c/json.h>, so either way the json-c API is
 * declared.)
 *
 * Return conventions: json_parse_strict returns 0 or -1 and fills a
 * struct json_error; json_check_keys returns an enum because callers map
 * each kind to a different HTTP error; json_dump returns a pointer or NULL.
 */
#ifndef WAYMARK_JSON_H
#define WAYMARK_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

struct buf;

/* Error kinds of json_parse_strict. */
enum json_err {
	JSON_OK = 0,
	JSON_E_INVALID,       /* bad arguments (out NULL, buf NULL with len > 0) */
	JSON_E_NOMEM,         /* out of memory */
	JSON_E_LENGTH,        /* input longer than max_length */
	JSON_E_EOF,           /* input ended inside a value (or was empty) */
	JSON_E_SYNTAX,        /* unexpected character */
	JSON_E_TRAILING,      /* something other than whitespace after the value */
	JSON_E_NUMBER,        /* malformed number (leading zero, "1.", "1e", "-") */
	JSON_E_UTF8,          /* invalid UTF-8 in a string */
	JSON_E_CONTROL,       /* unescaped U+0000..U+001F in a string */
	JSON_E_ESCAPE,        /* unknown escape or bad \u hex digits */
	JSON_E_SURROGATE,     /* lone or mismatched surrogate escape */
	JSON_E_DEPTH,         /* arrays/objects nested deeper than max_depth */
	JSON_E_STRING_LENGTH, /* string or member name longer than max_string */
	JSON_E_MEMBERS,       /* object/array with more than max_members entries */
	JSON_E_DUPLICATE,     /* an object repeats a member name */
	JSON_E_NAME_NUL,      /* a member name contains U+0000 */
	JSON_E__MAX
};

/*
 * Limits for json_parse_strict. Depth counts open arrays and objects: with
 * max_depth 1, [1] is accepted and [[1]] is not; with 0 only scalars are.
 * max_depth is capped at JSON_DEPTH_CEILING whatever the caller asks,
 * because parsing, freeing and serializing all recurse. max_string counts
 * DECODED bytes of one string value or member name (capped at INT_MAX, the
 * json-c limit). max_members bounds each object's members and each array's
 * elements separately. Numbers are bounded by max_length only.
 */
struct json_limits {
	size_t max_depth;
	size_t max_length;
	size_t max_string;
	size_t max_members;
};

#define JSON_DEPTH_CEILING 1000

/* Depth 32, length 1 MiB, string 64 KiB, 1000 members per object/array. */
extern const struct json_limits json_limits_default;

/* Room for a member name in struct json_error, including "..." and NUL. */
#define JSON_ERR_NAME_MAX 48

/*
 * Where and why a parse failed. offset is the byte offset in the input at
 * which the problem was found: the offending byte; the opening quote of a
 * duplicate, NUL-containing or over-long string; the '[' or '{' that is
 * too deep; the first entry beyond max_members; len for JSON_E_EOF; and
 * max_length for JSON_E_LENGTH. name holds the member name for
 * JSON_E_DUPLICATE and JSON_E_NAME_NUL (quotes, backslashes and control
 * characters escaped, cut at a character boundary and ended with "..." when
 * long), and "" otherwise. msg is a short English sentence without a
 * trailing period, e.g. "duplicate member name \"a\"", safe to show to a
 * client.
 */
struct json_error {
	enum json_err code;
	size_t offset;
	char name[JSON_ERR_NAME_MAX];
	char msg[128];
};

/*
 * Parse buf[0..len) (no NUL needed) strictly as described above, with lim
 * (NULL means json_limits_default). Returns 0 and stores the value in *out
 * (the caller frees it with json_object_put; NULL for a JSON null). Returns
 * -1 on any error with *out set to NULL, nothing allocated left behind and,
 * when err is not NULL, *err filled in.
 */
int json_parse_strict(const char *buf, size_t len, const struct json_limits *lim, json_object **out,
    struct json_error *err);

/* Fixed English text for an error code ("unknown error" when out of range). */
const char *json_strerror(enum json_err code);

/*
 * Serialize obj compactly (JSON_C_TO_STRING_PLAIN |
 * JSON_C_TO_STRING_NOSLASHESCAPE); obj NULL gives "null". Returns a string
 * owned by obj, valid until obj is freed or serialized again, and stores
 * its length in *len when len is not NULL. Returns NULL when memory ran
 * out.
 */
const char *json_dump(json_object *obj, size_t *len);

/*
 * The string member key of o, or NULL when o is NULL or not an object, or
 * the member is absent or not a string. The text belongs to o; its length
 * goes to *len when len is not NULL.
 */
const char *json_member_string(json_object *o, const char *key, size_t *len);

/* json_object_put as a void * callback (for pool_defer). */
void json_release(void *obj);

/* Result kinds of json_check_keys. */
enum json_keys {
	JSON_KEYS_OK = 0,
	JSON_KEYS_NOT_OBJECT, /* obj is not a JSON object (NULL is JSON null) */
	JSON_KEYS_UNKNOWN,    /* a member name is in neither list */
	JSON_KEYS_MISSING,    /* a required member is absent */
	JSON_KEYS__MAX
};

/*
 * Check obj's member names against two NULL-terminated lists: allowed
 * (optional members) and required (members that must be present, and are
 * allowed too). Either list may be NULL for "none". Unknown members are
 * reported first, the first in member order; then the first missing name
 * in required's order. When bad_key is not NULL it gets the offending name
 * (owned by obj for JSON_KEYS_UNKNOWN, by the required list for
 * JSON_KEYS_MISSING) or NULL for JSON_KEYS_OK and JSON_KEYS_NOT_OBJECT.
 */
enum json_keys json_check_keys(json_object *obj, const char *const allowed[], const char *const required[],
    const char **bad_key);

/*
 * Canonical serialization (RFC 8785 JCS restricted to integers), appended
 * to out: no whitespace; object members sorted by their names compared as
 * UTF-16 code unit sequences (what JavaScript's default sort does); strings
 * written as JSON.stringify writes them: " and \ escaped, U+0008, U+0009,
 * U+000A, U+000C, U+000D as \b \t \n \f \r, every other U+0000..U+001F
 * as \u00xx (lowercase hex), everything else as its literal UTF-8 (no
 * \/); integers in plain decimal, within +-(2^53 - 1) so that JavaScript
 * reads them exactly; true, false, null. Doubles are refused (the form
 * would need ECMAScript number formatting), and so are invalid UTF-8 in a
 * string or name, an integer outside that range and nesting deeper than
 * JSON_DEPTH_CEILING. Returns 0, or -1 on a refusal or when out is full
 * (out may then hold part of the text); running out of memory also sets
 * the allocation latch (json_alloc_latched).
 */
int json_canonical(json_object *obj, struct buf *out);

/*
 * Out of memory while building JSON. json-c's constructors return NULL and
 * its add functions -1 when an allocation fails, and a NULL member is
 * printed as null: an answer built from such a tree would be a 200 with a
 * broken body. Every program links lib/jsonwrap.c with -Wl,--wrap for the
 * json-c constructors and add functions our code calls (Makefile
 * JSON_WRAP): a failure there sets this thread's latch, an add to a NULL
 * container drops the value instead of asserting, and a value an add could
 * not take is released: in our programs an add always takes its value,
 * even when it fails (json-c alone would leave it with the caller). resp_json refuses to serialize while the latch is
 * set, and the gatekeeper clears it before each request and turns an answer
 * given with it set into a 500 (docs/ARCHITECTURE.md, Gatekeeper).
 */
void json_alloc_failed(void);     /* set the latch (lib/jsonwrap.c calls it) */
bool json_alloc_latched(void);    /* whether it is set */
void json_alloc_clear(void);      /* clear it */

#endif
