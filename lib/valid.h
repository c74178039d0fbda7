/*
 * valid.h: field validators. Each validator checks AND parses one input
 * field into a typed value, so handlers only ever see clean input
 * (docs/ARCHITECTURE.md, Code conventions). A dispatch-table row lists its
 * fields; the gatekeeper runs
 * them before the handler and answers the central 400 naming the field.
 *
 * Sources: a "{name}" path segment, a query parameter, or a top-level
 * member of the JSON body. Query and path values arrive as text; body
 * values as JSON (numbers must be JSON integers, text must be JSON
 * strings: no coercion).
 */
#ifndef WAYMARK_VALID_H
#define WAYMARK_VALID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "err.h"
#include "pool.h"

#define VALID_MAX_FIELDS 16
#define VALID_ACCOUNT_CHAIN "eip155:8453"   /* Phase 1: Base accounts only */
#define VALID_ACCOUNT_CHAIN_ID 8453

enum vsrc {
	VS_PATH,
	VS_QUERY,
	VS_BODY,
};

enum vtype {
	VT_STRING,   /* UTF-8 text, min_len..max_len characters */
	VT_UINT,     /* unsigned integer in [min, max] */
	VT_ADDRESS,  /* 0x + 40 hex, lowercase or EIP-55 */
	VT_BYTES32,  /* 0x + 64 hex */
	VT_HANDLE,   /* canonical recognition handle, github:/x:/agent: */
	VT_DECIMAL,  /* strict decimal amount, up to 18 fractional digits */
	VT_URL,      /* public https URL (docs/PROTOCOL.md, Public URL policy) */
	VT_CHOICE,   /* one of choices[] */
	VT_BOOL,     /* JSON true/false; "true"/"false" in a query */
	VT_ARRAY,    /* JSON array (body only), min_len..max_len elements */
	VT_OBJECT,   /* JSON object (body only); its members are the handler's to check */
	VT_ACCOUNT,  /* CAIP-10 Base account: eip155:8453:0x + 40 hex (lowercase or EIP-55) */
	VT_UUID,     /* UUID, 8-4-4-4-12 hex digits in either case; text is the lowercase canonical form */
	VT_ADDRESS_EIP55, /* 0x + 40 hex with a valid EIP-55 checksum (no other case form) */
	VT__MAX
};

struct field {
	const char *name;
	enum vsrc src;
	enum vtype type;
	bool required;
	size_t min_len, max_len;     /* VT_STRING (characters), VT_ARRAY (elements) */
	uint64_t min, max;           /* VT_UINT */
	const char *const *choices;  /* VT_CHOICE, NULL-terminated */
	const char *def;             /* default as input text, or NULL */
};

struct value {
	bool present;
	enum vtype type;
	const char *text;      /* input text (NUL-terminated, pool) or canonical form */
	size_t len;
	union {
		uint64_t u;            /* VT_UINT */
		bool b;                /* VT_BOOL */
		struct addr addr;      /* VT_ADDRESS, VT_ADDRESS_EIP55, VT_ACCOUNT */
		uint8_t uuid[16];      /* VT_UUID */
		uint8_t b32[32];       /* VT_BYTES32 */
		uint8_t hash[32];      /* VT_HANDLE: handleHash */
		int choice;            /* VT_CHOICE: index into choices */
		json_object *array;    /* VT_ARRAY (borrowed from the parsed body) */
		json_object *object;   /* VT_OBJECT (borrowed from the parsed body) */
	};
};

/*
 * Validate text s[0..len) for field f into out (strings are copied into
 * pool). Returns ERR_NONE, ERR_INVALID_FIELD with a one-sentence
 * reason in msg[cap] that names the field, or ERR_INTERNAL (msg empty)
 * when the pool has no room for the copy.
 */
enum err valid_text(const struct field *f, const char *s, size_t len, struct pool *pool,
    struct value *out, char *msg, size_t cap);

/* The same for a JSON member (body fields). */
enum err valid_json(const struct field *f, json_object *j, struct pool *pool, struct value *out,
    char *msg, size_t cap);

#endif
