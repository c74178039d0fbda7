/*
 * Route notes, their offers and the publisher signature (lib/routenote.c),
 * and the route-context store (handlers/contexts.c):
 *  (a) valid and invalid publications built here from a base note and offer
 *      with members overridden, signed with sig_sign and the public Anvil
 *      key #0 (#1 for the wrong signer); each invalid one must fail with
 *      its code and field, some with their exact message;
 *  (b) every publication of t/vectors/route-contexts.json, built and signed
 *      by viem (t/tools/gen-route-context.mjs): accepted with viem's
 *      routeId, digests, trimmed texts and signer (and sig_sign reproduces
 *      viem's signature), or rejected with the recorded code and field;
 *  (c) the publication handler and contexts_for_route against the MariaDB
 *      of the running test stack WAYMARK_VAR names (tools/run-tests sets
 *      it), on a chain id of this process's own: created, unchanged,
 *      replaced, stale and non-participant outcomes, and the exact strings
 *      read back. Without that stack these tests fail; they never skip.
 * Run from the top of the tree.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "config.h"
#include "contexts.h"
#include "db.h"
#include "hex.h"
#include "json.h"
#include "keccak.h"
#include "routenote.h"
#include "sig.h"
#include "table.h"
#include "typed.h"
#include "tap.h"
#include "banned.h"

#define VECTORS "t/vectors/route-contexts.json"
#define NOW 1767225700LL          /* 100 s after the base note's createdAt */
#define CREATED 1767225600LL
#define EXPIRES 1798761600LL
#define KEY0 "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
#define KEY1 "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
#define ADDR0 "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
#define ADDR1 "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
#define USDC "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
#define ROUTE_BASE "0x4fa0fcdb54475d7e8c02c5fd1e4ffac0f2b5997975e9be2988a1d5759f8e6af0"

#define A10 "aaaaaaaaaa"
#define A50 A10 A10 A10 A10 A10
#define A100 A50 A50
#define A280 A100 A100 A50 A10 A10 A10
#define A1000 A100 A100 A100 A100 A100 A100 A100 A100 A100 A100
#define E10 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
#define E140 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10
/* "https://example.org/" is 20 characters. */
#define URI_2048 "\"https://example.org/" A1000 A1000 A10 A10 "aaaaaaaa\""
#define URI_2049 "\"https://example.org/" A1000 A1000 A10 A10 "aaaaaaaaa\""
/* U+1F600 is one character of 4 bytes but 2 UTF-16 units, as JavaScript counts. */
#define U1 "\xf0\x9f\x98\x80"
#define U5 U1 U1 U1 U1 U1
#define U100 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5 U5
#define U1000 U100 U100 U100 U100 U100 U100 U100 U100 U100 U100
#define URI_ASTRAL_2048 "\"https://example.org/" U1000 U5 U5 U1 U1 U1 U1 "\""
#define URI_ASTRAL_2050 "\"https://example.org/" U1000 U5 U5 U5 "\""

static const char omit_marker[] = "(omit)";
#define OMIT omit_marker

struct kv {
	const char *key;
	const char *raw;          /* JSON text of the member's value; OMIT leaves it out */
};

static const struct kv note_base[] = {
	{ "version", "\"1\"" },
	{ "route", "{\"publicEndpointUrl\":\"https://api.example.com/v1/forecast\",\"method\":\"GET\"}" },
	{ "intent", "\"Returns a 7-day weather forecast for a latitude and longitude.\"" },
	{ "fit", "\"Use when an agent needs a forecast for one place.\"" },
	{ "limits", "[\"Land areas only.\",\"No forecasts beyond 7 days.\"]" },
	{ "requestSchemaUri", "\"https://api.example.com/schemas/forecast.json\"" },
	{ "documentationUri", "null" },
	{ "contextUris", "[\"ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi\"]" },
	{ "createdAt", "1767225600" },
	{ "expiresAt", "1798761600" },
	{ NULL, NULL },
};

#define F_WRAP     0x01u   /* offerJson as {"offer": {...}} */
#define F_COMPACT  0x02u   /* 64-byte EIP-2098 signature */
#define F_TAMPER   0x04u   /* change one note byte after signing */
#define F_V01      0x08u   /* v as 0/1 instead of 27/28 */
#define F_SIG_ONLY 0x10u   /* sign with the key, payTo stays ADDR0 */
#define F_WRAP_EXTRA 0x20u /* {"offer": {...}, "x": 1} */
#define F_WRAP_NULL 0x40u  /* {"offer": null} */
#define F_OFFER_DUP 0x80u  /* the offer repeats "version" */

struct tcase {
	const char *name;
	struct kv note[4];        /* overrides of note_base (other keys are appended) */
	struct kv offer[4];       /* overrides of the computed offer */
	const char *note_raw;     /* the whole note text instead */
	unsigned flags;
	const char *key;          /* the signer; NULL: KEY0 */
	const char *sig;          /* this signature text instead of signing */
	int64_t now;              /* 0: NOW */
	uint64_t chain;           /* the chain served; 0: 8453 */
	enum routenote_err want;
	const char *field;        /* for failures */
	const char *msg;          /* exact message, or NULL */
	const char *route;        /* for successes: expected routeId, or NULL */
	const char *intent;       /* for successes: expected trimmed intent, or NULL */
};

static const struct tcase cases[] = {
	/* ---- accepted */
	{ .name = "base publication", .route = ROUTE_BASE,
	    .intent = "Returns a 7-day weather forecast for a latitude and longitude." },
	{ .name = "wrapped offer", .flags = F_WRAP, .route = ROUTE_BASE },
	{ .name = "64-byte EIP-2098 signature", .flags = F_COMPACT, .route = ROUTE_BASE },
	{ .name = "signature with v 0/1", .flags = F_V01, .route = ROUTE_BASE },
	{ .name = "lowercase methods are normalized",
	    .note = { { "route", "{\"method\":\"get\",\"publicEndpointUrl\":\"https://api.example.com/v1/forecast\"}" } },
	    .offer = { { "method", "\"post\"" } }, .route = ROUTE_BASE },
	{ .name = "publicEndpointUrl is normalized before hashing",
	    .note = { { "route", "{\"publicEndpointUrl\":\"https://API.Example.COM:443/v1/./forecast\",\"method\":\"GET\"}" } },
	    .route = ROUTE_BASE },
	{ .name = "texts are trimmed like String.prototype.trim; inner TAB and LF are allowed",
	    .note = { { "intent", "\"\\u3000\\u00a0 Forecasts.\\t\\n\\ufeff\"" },
		{ "fit", "\"One place.\\nOne call.\\tPaid.\"" }, { "limits", "[\"  Land only.  \"]" } },
	    .intent = "Forecasts." },
	{ .name = "280-byte intent of two-byte characters", .note = { { "intent", "\"" E140 "\"" } },
	    .intent = E140 },
	{ .name = "280-byte ASCII limit", .note = { { "limits", "[\"" A280 "\"]" } } },
	{ .name = "raw non-ASCII and \\u escapes in the note",
	    .note = { { "fit", "\"Pr\xc3\xa9visions \\u00e0 7 jours, \xe6\x9d\xb1\xe4\xba\xac.\"" } } },
	{ .name = "empty limits and contextUris, null URIs",
	    .note = { { "limits", "[]" }, { "contextUris", "[]" }, { "requestSchemaUri", "null" } } },
	{ .name = "five URIs in all (ipfs, ar, https with a query)",
	    .note = { { "contextUris", "[\"ar://bNbA3TEQVL60xlgCcqdz4ZPHFZ711cZ3hmkpGttDt_U\",\"ipfs://QmYw/a?b#c\",\"https://example.org/x\"]" },
		{ "documentationUri", "\"https://docs.example.net/forecast?lang=en\"" } } },
	{ .name = "a URI of 2048 characters", .note = { { "contextUris", "[" URI_2048 "]" } } },
	{ .name = "a URI of 2048 UTF-16 units with astral characters",
	    .note = { { "contextUris", "[" URI_ASTRAL_2048 "]" } } },
	{ .name = "a pretty-printed note (its exact bytes are hashed)",
	    .note_raw = "{\n  \"version\": \"1\",\n  \"route\": {\n    \"publicEndpointUrl\": \"https://api.example.com/v1/forecast\",\n"
		"    \"method\": \"GET\"\n  },\n  \"intent\": \"Forecasts.\",\n  \"fit\": \"Agents.\",\n  \"limits\": [],\n"
		"  \"requestSchemaUri\": null,\n  \"documentationUri\": null,\n  \"contextUris\": [],\n"
		"  \"createdAt\": 1767225600,\n  \"expiresAt\": 1798761600\n}\n", .route = ROUTE_BASE },
	{ .name = "members in another order",
	    .note_raw = "{\"expiresAt\":1798761600,\"createdAt\":1767225600,\"contextUris\":[],\"documentationUri\":null,"
		"\"requestSchemaUri\":null,\"limits\":[],\"fit\":\"f\",\"intent\":\"i\",\"route\":{\"method\":\"GET\","
		"\"publicEndpointUrl\":\"https://api.example.com/v1/forecast\"},\"version\":\"1\"}", .route = ROUTE_BASE },
	{ .name = "noteEndpoint with a query", .offer = { { "noteEndpoint", "\"https://notes.example.com/n?route=forecast&v=1\"" } } },
	{ .name = "noteEndpoint on an IP address (not the public policy)", .offer = { { "noteEndpoint", "\"https://10.0.0.1:8443/note\"" } } },
	{ .name = "largest uint256 amount",
	    .offer = { { "amountAtomic", "\"115792089237316195423570985008687907853269984665640564039457584007913129639935\"" } } },
	{ .name = "offer expiring before the note", .offer = { { "expiresAt", "1767312000" } } },
	{ .name = "lowercase payTo and asset", .offer = { { "payTo", "\"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\"" },
		{ "asset", "\"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913\"" } } },
	{ .name = "createdAt exactly 300 s ahead of now", .now = CREATED - 300 },
	{ .name = "another chain when the service serves it", .offer = { { "network", "\"eip155:84532\"" } },
	    .chain = 84532 },

	/* ---- the note: JSON and members */
	{ .name = "empty note", .note_raw = "", .want = RN_TOO_LARGE, .field = "note",
	    .msg = "note must be 1 to 32768 bytes long." },
	{ .name = "note not JSON", .note_raw = "{\"version\":", .want = RN_JSON, .field = "note" },
	{ .name = "note with trailing garbage", .note_raw = "{} x", .want = RN_JSON, .field = "note" },
	{ .name = "note not UTF-8", .note_raw = "{\"version\":\"\xff\"}", .want = RN_JSON, .field = "note" },
	{ .name = "note an array", .note_raw = "[]", .want = RN_NOT_OBJECT, .field = "note" },
	{ .name = "note null", .note_raw = "null", .want = RN_NOT_OBJECT, .field = "note" },
	{ .name = "duplicate member in the note",
	    .note_raw = "{\"version\":\"1\",\"intent\":\"a\",\"intent\":\"b\"}", .want = RN_DUPLICATE_KEY,
	    .field = "note", .msg = "note repeats the member name \"intent\"." },
	{ .name = "duplicate member through an escape",
	    .note_raw = "{\"version\":\"1\",\"fit\":\"a\",\"f\\u0069t\":\"b\"}", .want = RN_DUPLICATE_KEY, .field = "note" },
	{ .name = "duplicate member in note.route",
	    .note = { { "route", "{\"method\":\"GET\",\"method\":\"POST\",\"publicEndpointUrl\":\"https://api.example.com/\"}" } },
	    .want = RN_DUPLICATE_KEY, .field = "note" },
	{ .name = "unknown note member", .note = { { "color", "\"blue\"" } }, .want = RN_UNKNOWN_KEY,
	    .field = "note.color", .msg = "note.color is not an accepted member." },
	{ .name = "missing note member", .note = { { "fit", OMIT } }, .want = RN_MISSING_KEY,
	    .field = "note.fit", .msg = "note.fit is required." },
	{ .name = "missing contextUris", .note = { { "contextUris", OMIT } }, .want = RN_MISSING_KEY,
	    .field = "note.contextUris" },
	{ .name = "version as a number", .note = { { "version", "1" } }, .want = RN_VERSION, .field = "note.version" },
	{ .name = "version 2", .note = { { "version", "\"2\"" } }, .want = RN_VERSION, .field = "note.version" },
	{ .name = "route not an object", .note = { { "route", "\"https://api.example.com/\"" } }, .want = RN_NOT_OBJECT,
	    .field = "note.route" },
	{ .name = "unknown member in note.route",
	    .note = { { "route", "{\"publicEndpointUrl\":\"https://api.example.com/\",\"method\":\"GET\",\"query\":\"\"}" } },
	    .want = RN_UNKNOWN_KEY, .field = "note.route.query" },
	{ .name = "route without a method", .note = { { "route", "{\"publicEndpointUrl\":\"https://api.example.com/\"}" } },
	    .want = RN_MISSING_KEY, .field = "note.route.method" },
	{ .name = "method with a space", .note = { { "route", "{\"publicEndpointUrl\":\"https://api.example.com/\",\"method\":\"GE T\"}" } },
	    .want = RN_METHOD, .field = "note.route.method" },
	{ .name = "method CONNECT", .note = { { "route", "{\"publicEndpointUrl\":\"https://api.example.com/\",\"method\":\"CONNECT\"}" } },
	    .want = RN_METHOD, .field = "note.route.method" },
	{ .name = "http route URL", .note = { { "route", "{\"publicEndpointUrl\":\"http://api.example.com/\",\"method\":\"GET\"}" } },
	    .want = RN_ROUTE_URL, .field = "note.route.publicEndpointUrl",
	    .msg = "note.route.publicEndpointUrl is not an accepted public HTTPS URL: the URL must be an absolute https URL." },
	{ .name = "route on a reserved .example host", .note = { { "route", "{\"publicEndpointUrl\":\"https://api.weatherdata.example/v1/forecast\",\"method\":\"GET\"}" } },
	    .want = RN_ROUTE_URL, .field = "note.route.publicEndpointUrl" },
	{ .name = "route on an IP literal", .note = { { "route", "{\"publicEndpointUrl\":\"https://203.0.113.7/v1\",\"method\":\"GET\"}" } },
	    .want = RN_ROUTE_URL, .field = "note.route.publicEndpointUrl" },
	{ .name = "route with credentials", .note = { { "route", "{\"publicEndpointUrl\":\"https://u:p@api.example.com/\",\"method\":\"GET\"}" } },
	    .want = RN_ROUTE_URL, .field = "note.route.publicEndpointUrl" },
	{ .name = "route with a query", .note = { { "route", "{\"publicEndpointUrl\":\"https://api.example.com/s?q=1\",\"method\":\"GET\"}" } },
	    .want = RN_ROUTE_URL, .field = "note.route.publicEndpointUrl" },
	{ .name = "route with a fragment", .note = { { "route", "{\"publicEndpointUrl\":\"https://api.example.com/s#x\",\"method\":\"GET\"}" } },
	    .want = RN_ROUTE_URL, .field = "note.route.publicEndpointUrl" },
	{ .name = "route URL not a string", .note = { { "route", "{\"publicEndpointUrl\":null,\"method\":\"GET\"}" } },
	    .want = RN_NOT_STRING, .field = "note.route.publicEndpointUrl" },

	/* ---- the note: texts */
	{ .name = "intent a number", .note = { { "intent", "7" } }, .want = RN_NOT_STRING, .field = "note.intent" },
	{ .name = "intent only whitespace", .note = { { "intent", "\" \\t\\n\\u00a0\"" } }, .want = RN_TEXT_EMPTY,
	    .field = "note.intent", .msg = "note.intent is empty after trimming whitespace." },
	{ .name = "intent of 281 bytes", .note = { { "intent", "\"" A280 "a\"" } }, .want = RN_TEXT_TOO_LONG,
	    .field = "note.intent", .msg = "note.intent is longer than 280 bytes." },
	{ .name = "intent of 282 bytes of two-byte characters", .note = { { "intent", "\"" E140 "\xc3\xa9\"" } },
	    .want = RN_TEXT_TOO_LONG, .field = "note.intent" },
	{ .name = "limits[2] of 281 bytes", .note = { { "limits", "[\"a\",\"b\",\"" A280 "b\"]" } },
	    .want = RN_TEXT_TOO_LONG, .field = "note.limits[2]", .msg = "note.limits[2] is longer than 280 bytes." },
	{ .name = "limits[1] empty", .note = { { "limits", "[\"a\",\"\"]" } }, .want = RN_TEXT_EMPTY, .field = "note.limits[1]" },
	{ .name = "limits[0] not a string", .note = { { "limits", "[null]" } }, .want = RN_NOT_STRING, .field = "note.limits[0]" },
	{ .name = "intent with U+202E (escaped)", .note = { { "intent", "\"pay \\u202e me\"" } }, .want = RN_TEXT_FORBIDDEN,
	    .field = "note.intent" },
	{ .name = "fit with U+202E (raw)", .note = { { "fit", "\"pay \xe2\x80\xae me\"" } }, .want = RN_TEXT_FORBIDDEN,
	    .field = "note.fit" },
	{ .name = "fit with U+2066", .note = { { "fit", "\"a\\u2066b\"" } }, .want = RN_TEXT_FORBIDDEN, .field = "note.fit" },
	{ .name = "limit with U+2069", .note = { { "limits", "[\"a\\u2069\"]" } }, .want = RN_TEXT_FORBIDDEN,
	    .field = "note.limits[0]" },
	{ .name = "intent with U+202A", .note = { { "intent", "\"\\u202aa\"" } }, .want = RN_TEXT_FORBIDDEN, .field = "note.intent" },
	{ .name = "intent with BEL", .note = { { "intent", "\"a\\u0007b\"" } }, .want = RN_TEXT_FORBIDDEN, .field = "note.intent" },
	{ .name = "intent with U+0000", .note = { { "intent", "\"a\\u0000b\"" } }, .want = RN_TEXT_FORBIDDEN, .field = "note.intent" },
	{ .name = "intent with DEL", .note = { { "intent", "\"a\\u007fb\"" } }, .want = RN_TEXT_FORBIDDEN, .field = "note.intent" },
	{ .name = "intent with C1 U+0085", .note = { { "intent", "\"a\\u0085b\"" } }, .want = RN_TEXT_FORBIDDEN, .field = "note.intent" },
	{ .name = "intent with an inner vertical tab", .note = { { "intent", "\"a\\u000bb\"" } }, .want = RN_TEXT_FORBIDDEN,
	    .field = "note.intent" },
	{ .name = "six limits", .note = { { "limits", "[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"]" } }, .want = RN_TOO_MANY_ITEMS,
	    .field = "note.limits", .msg = "note.limits has more than 5 items." },
	{ .name = "limits null", .note = { { "limits", "null" } }, .want = RN_NOT_ARRAY, .field = "note.limits" },

	/* ---- the note: URIs and times */
	{ .name = "six contextUris", .note = { { "contextUris", "[\"ar://1\",\"ar://2\",\"ar://3\",\"ar://4\",\"ar://5\",\"ar://6\"]" } },
	    .want = RN_TOO_MANY_ITEMS, .field = "note.contextUris" },
	{ .name = "six URIs in all", .note = { { "contextUris", "[\"ar://1\",\"ar://2\",\"ar://3\",\"ar://4\"]" },
		{ "documentationUri", "\"https://docs.example.com/\"" } },
	    .want = RN_TOO_MANY_URIS, .field = "note" },
	{ .name = "http URI", .note = { { "contextUris", "[\"http://example.org/\"]" } }, .want = RN_URI_SCHEME,
	    .field = "note.contextUris[0]", .msg = "note.contextUris[0] must be an https:, ipfs:// or ar:// URI." },
	{ .name = "ftp URI", .note = { { "requestSchemaUri", "\"ftp://example.org/s.json\"" } }, .want = RN_URI_SCHEME,
	    .field = "note.requestSchemaUri" },
	{ .name = "scheme-less URI", .note = { { "documentationUri", "\"docs.example.org\"" } }, .want = RN_URI_SCHEME,
	    .field = "note.documentationUri" },
	{ .name = "ipfs URI with a space", .note = { { "contextUris", "[\"ipfs://Qm a\"]" } }, .want = RN_URI_INVALID,
	    .field = "note.contextUris[0]" },
	{ .name = "ar:// and nothing", .note = { { "contextUris", "[\"ar://\"]" } }, .want = RN_URI_INVALID,
	    .field = "note.contextUris[0]" },
	{ .name = "https URI with credentials", .note = { { "contextUris", "[\"https://u:p@example.org/\"]" } },
	    .want = RN_URI_INVALID, .field = "note.contextUris[0]" },
	{ .name = "URI of 2049 characters", .note = { { "contextUris", "[" URI_2049 "]" } }, .want = RN_URI_TOO_LONG,
	    .field = "note.contextUris[0]" },
	{ .name = "a URI of 2050 UTF-16 units but 1035 characters", .note = { { "contextUris", "[" URI_ASTRAL_2050 "]" } },
	    .want = RN_URI_TOO_LONG, .field = "note.contextUris[0]" },
	{ .name = "URI with a bidi control", .note = { { "contextUris", "[\"https://example.org/\\u202e\"]" } },
	    .want = RN_TEXT_FORBIDDEN, .field = "note.contextUris[0]" },
	{ .name = "requestSchemaUri a number", .note = { { "requestSchemaUri", "1" } }, .want = RN_NOT_STRING_OR_NULL,
	    .field = "note.requestSchemaUri" },
	{ .name = "contextUris[1] null", .note = { { "contextUris", "[\"ar://1\",null]" } }, .want = RN_NOT_STRING,
	    .field = "note.contextUris[1]" },
	{ .name = "contextUris an object", .note = { { "contextUris", "{}" } }, .want = RN_NOT_ARRAY, .field = "note.contextUris" },
	{ .name = "createdAt 0", .note = { { "createdAt", "0" } }, .want = RN_TIMESTAMP, .field = "note.createdAt" },
	{ .name = "createdAt negative", .note = { { "createdAt", "-5" } }, .want = RN_TIMESTAMP, .field = "note.createdAt" },
	{ .name = "createdAt a string", .note = { { "createdAt", "\"1767225600\"" } }, .want = RN_TIMESTAMP,
	    .field = "note.createdAt" },
	{ .name = "createdAt with a fraction", .note = { { "createdAt", "1767225600.5" } }, .want = RN_TIMESTAMP,
	    .field = "note.createdAt" },
	{ .name = "expiresAt 2^53", .note = { { "expiresAt", "9007199254740992" } }, .want = RN_TIMESTAMP,
	    .field = "note.expiresAt" },
	{ .name = "expiresAt equal to createdAt", .note = { { "expiresAt", "1767225600" } }, .want = RN_EXPIRY_ORDER,
	    .field = "note.expiresAt", .msg = "note.expiresAt must be later than note.createdAt." },

	/* ---- the offer */
	{ .name = "unknown offer member", .offer = { { "extra", "1" } }, .want = RN_UNKNOWN_KEY, .field = "offer.extra" },
	{ .name = "missing offer member", .offer = { { "asset", OMIT } }, .want = RN_MISSING_KEY, .field = "offer.asset",
	    .msg = "offer.asset is required." },
	{ .name = "wrapped offer without its version", .flags = F_WRAP, .offer = { { "version", OMIT } },
	    .want = RN_MISSING_KEY, .field = "offer.version" },
	{ .name = "wrapper with another member", .flags = F_WRAP_EXTRA, .want = RN_UNKNOWN_KEY, .field = "offer.x" },
	{ .name = "wrapper around null", .flags = F_WRAP_NULL, .want = RN_NOT_OBJECT, .field = "offer" },
	{ .name = "duplicate member in the offer", .flags = F_OFFER_DUP, .want = RN_DUPLICATE_KEY, .field = "offer",
	    .msg = "offer repeats the member name \"version\"." },
	{ .name = "duplicate member in the wrapped offer", .flags = F_OFFER_DUP | F_WRAP, .want = RN_DUPLICATE_KEY,
	    .field = "offer" },
	{ .name = "offer an array", .offer = { { "version", OMIT } }, .sig = "offer-array", .want = RN_NOT_OBJECT,
	    .field = "offer" },
	{ .name = "offer version 1 as a number", .offer = { { "version", "1" } }, .want = RN_VERSION, .field = "offer.version" },
	{ .name = "offer method empty", .offer = { { "method", "\"\"" } }, .want = RN_METHOD, .field = "offer.method" },
	{ .name = "noteEndpoint http", .offer = { { "noteEndpoint", "\"http://notes.example.com/n\"" } },
	    .want = RN_NOTE_ENDPOINT, .field = "offer.noteEndpoint" },
	{ .name = "noteEndpoint not normalized", .offer = { { "noteEndpoint", "\"https://Notes.example.com/n\"" } },
	    .want = RN_NOTE_ENDPOINT, .field = "offer.noteEndpoint" },
	{ .name = "noteEndpoint without its root slash", .offer = { { "noteEndpoint", "\"https://notes.example.com\"" } },
	    .want = RN_NOTE_ENDPOINT, .field = "offer.noteEndpoint" },
	{ .name = "noteEndpoint with a fragment", .offer = { { "noteEndpoint", "\"https://notes.example.com/n#a\"" } },
	    .want = RN_NOTE_ENDPOINT, .field = "offer.noteEndpoint" },
	{ .name = "noteEndpoint with a query needing encoding", .offer = { { "noteEndpoint", "\"https://notes.example.com/n?a=<b>\"" } },
	    .want = RN_NOTE_ENDPOINT, .field = "offer.noteEndpoint" },
	{ .name = "network base", .offer = { { "network", "\"base\"" } }, .want = RN_NETWORK, .field = "offer.network" },
	{ .name = "network with a leading zero", .offer = { { "network", "\"eip155:08453\"" } }, .want = RN_NETWORK,
	    .field = "offer.network" },
	{ .name = "network eip155:0", .offer = { { "network", "\"eip155:0\"" } }, .want = RN_NETWORK, .field = "offer.network" },
	{ .name = "network of another chain", .offer = { { "network", "\"eip155:84532\"" } }, .want = RN_WRONG_CHAIN,
	    .field = "offer.network",
	    .msg = "offer.network names another chain than the one this service serves (eip155:8453)." },
	{ .name = "asset not an address", .offer = { { "asset", "\"0x1234\"" } }, .want = RN_ADDRESS, .field = "offer.asset" },
	{ .name = "asset with a bad checksum", .offer = { { "asset", "\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02914\"" } },
	    .want = RN_ADDRESS, .field = "offer.asset" },
	{ .name = "asset zero", .offer = { { "asset", "\"0x0000000000000000000000000000000000000000\"" } },
	    .want = RN_ZERO_ADDRESS, .field = "offer.asset" },
	{ .name = "payTo zero", .offer = { { "payTo", "\"0x0000000000000000000000000000000000000000\"" } },
	    .want = RN_ZERO_ADDRESS, .field = "offer.payTo" },
	{ .name = "amount zero", .offer = { { "amountAtomic", "\"0\"" } }, .want = RN_AMOUNT, .field = "offer.amountAtomic" },
	{ .name = "amount with a leading zero", .offer = { { "amountAtomic", "\"01\"" } }, .want = RN_AMOUNT,
	    .field = "offer.amountAtomic" },
	{ .name = "amount with a fraction", .offer = { { "amountAtomic", "\"1.5\"" } }, .want = RN_AMOUNT,
	    .field = "offer.amountAtomic" },
	{ .name = "amount 2^256", .offer = { { "amountAtomic",
	    "\"115792089237316195423570985008687907853269984665640564039457584007913129639936\"" } },
	    .want = RN_AMOUNT, .field = "offer.amountAtomic" },
	{ .name = "amount a number", .offer = { { "amountAtomic", "1000" } }, .want = RN_NOT_STRING, .field = "offer.amountAtomic" },
	{ .name = "responseDigest uppercase", .offer = { { "responseDigest",
	    "\"0xABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB\"" } },
	    .want = RN_DIGEST_FORMAT, .field = "offer.responseDigest" },
	{ .name = "responseDigest short", .offer = { { "responseDigest", "\"0xabab\"" } }, .want = RN_DIGEST_FORMAT,
	    .field = "offer.responseDigest" },
	{ .name = "responseBytes 0", .offer = { { "responseBytes", "0" } }, .want = RN_RESPONSE_BYTES, .field = "offer.responseBytes" },
	{ .name = "responseBytes 32769", .offer = { { "responseBytes", "32769" } }, .want = RN_RESPONSE_BYTES,
	    .field = "offer.responseBytes" },
	{ .name = "responseBytes a string", .offer = { { "responseBytes", "\"100\"" } }, .want = RN_RESPONSE_BYTES,
	    .field = "offer.responseBytes" },
	{ .name = "offer expiresAt 0", .offer = { { "expiresAt", "0" } }, .want = RN_TIMESTAMP, .field = "offer.expiresAt" },

	/* ---- binding the note */
	{ .name = "responseBytes one short (signed)", .offer = { { "responseBytes", "100" } }, .want = RN_BYTES_MISMATCH,
	    .field = "offer.responseBytes" },
	{ .name = "responseDigest of other bytes (signed)", .offer = { { "responseDigest",
	    "\"0x1111111111111111111111111111111111111111111111111111111111111111\"" } },
	    .want = RN_DIGEST_MISMATCH, .field = "offer.responseDigest" },
	{ .name = "a note byte changed after signing", .flags = F_TAMPER, .want = RN_DIGEST_MISMATCH,
	    .field = "offer.responseDigest" },
	{ .name = "offer outlives the note", .offer = { { "expiresAt", "1798761601" } }, .want = RN_OFFER_OUTLIVES,
	    .field = "offer.expiresAt", .msg = "offer.expiresAt is later than note.expiresAt." },

	/* ---- the signature */
	{ .name = "signed by a key that is not payTo", .key = KEY1, .flags = F_SIG_ONLY, .want = RN_SIGNER_MISMATCH,
	    .field = "signature",
	    .msg = "signature recovers to " ADDR1 ", not to offer.payTo, over the RouteNoteOffer typed data." },
	{ .name = "payTo of the signer, signed over another payTo", .sig = "sign-other-payto", .want = RN_SIGNER_MISMATCH,
	    .field = "signature" },
	{ .name = "signature not hex", .sig = "0xzz", .want = RN_SIGNATURE, .field = "signature" },
	{ .name = "signature without 0x", .sig = "abcd", .want = RN_SIGNATURE, .field = "signature" },
	{ .name = "signature of 66 bytes", .sig = "0x" A10 A10 A10 A10 A10 A10 A10 A10 A10 A10 A10 A10 A10 "aaaaaaa",
	    .want = RN_SIGNATURE, .field = "signature" },
	{ .name = "empty signature", .sig = "", .want = RN_SIGNATURE, .field = "signature" },
	{ .name = "high-s signature", .sig = "high-s", .want = RN_SIGNATURE, .field = "signature" },
	{ .name = "signature with v 29", .sig = "v29", .want = RN_SIGNATURE, .field = "signature" },
	{ .name = "signed for another chain than the one served", .chain = 84532, .want = RN_WRONG_CHAIN,
	    .field = "offer.network" },

	/* ---- time */
	{ .name = "note expired (expiresAt == now)", .now = EXPIRES, .want = RN_NOTE_EXPIRED, .field = "note.expiresAt",
	    .msg = "note.expiresAt has passed: the note has expired." },
	{ .name = "note expired long ago", .now = EXPIRES + 86400, .want = RN_NOTE_EXPIRED, .field = "note.expiresAt" },
	{ .name = "offer expired, note not", .offer = { { "expiresAt", "1767225650" } }, .want = RN_OFFER_EXPIRED,
	    .field = "offer.expiresAt" },
	{ .name = "createdAt 301 s ahead of now", .now = CREATED - 301, .want = RN_CREATED_IN_FUTURE,
	    .field = "note.createdAt" },
};

static const struct kv offer_keys_order[] = {
	{ "version", NULL }, { "noteEndpoint", NULL }, { "method", NULL }, { "network", NULL },
	{ "asset", NULL }, { "payTo", NULL }, { "amountAtomic", NULL }, { "responseDigest", NULL },
	{ "responseBytes", NULL }, { "expiresAt", NULL }, { NULL, NULL },
};

static bool
in_list(const struct kv *l, const char *key)
{
	for (size_t i = 0; l[i].key; i++)
		if (strcmp(l[i].key, key) == 0)
			return true;
	return false;
}

/* {base members with overrides applied, then the other overrides}. */
static void
object_text(struct buf *b, const struct kv *base, const struct kv *over, size_t nover)
{
	bool first = true;

	buf_addc(b, '{');
	for (size_t i = 0; base[i].key; i++) {
		const char *raw = base[i].raw;

		for (size_t k = 0; k < nover; k++)
			if (over[k].key && strcmp(over[k].key, base[i].key) == 0)
				raw = over[k].raw;
		if (raw == OMIT)
			continue;
		buf_printf(b, "%s\"%s\":%s", first ? "" : ",", base[i].key, raw);
		first = false;
	}
	for (size_t k = 0; k < nover; k++)
		if (over[k].key && !in_list(base, over[k].key) && over[k].raw != OMIT) {
			buf_printf(b, "%s\"%s\":%s", first ? "" : ",", over[k].key, over[k].raw);
			first = false;
		}
	buf_addc(b, '}');
}

static int
key_of(const char *hexkey, uint8_t key[32])
{
	return hex_decode_fixed(hexkey, strlen(hexkey), key, 32, true);
}

/* The address of a hex private key. */
static struct addr
address_of(const char *hexkey)
{
	uint8_t key[32];
	struct addr a;

	memset(&a, 0, sizeof(a));
	if (key_of(hexkey, key) == 0)
		sig_key_address(key, &a);
	explicit_bzero(key, sizeof(key));
	return a;
}

/*
 * Sign the RouteNoteOffer typed data of offer text t (wrapped or not, as a
 * client would: method uppercased) with hexkey into sig[133]; 0 or -1 when
 * the offer cannot be turned into typed data.
 */
static int
sign_offer(const char *t, const char *hexkey, unsigned flags, char sig[133])
{
	static const char *const names[] = { "noteEndpoint", "method", "network", "asset", "payTo",
		"amountAtomic", "responseDigest", "responseBytes", "expiresAt", NULL };
	json_object *root = json_tokener_parse(t), *o = root, *m, *v;
	struct typed_domain d = { .chain_id = 0 };
	uint8_t digest[32], key[32], raw[65];
	char err[160], up[ROUTE_METHOD_MAX + 1];
	const char *net;
	int rc = -1;

	if (root == NULL)
		return -1;
	if (json_object_object_get_ex(root, "offer", &v))
		o = v;
	m = json_object_new_object();
	for (size_t i = 0; names[i]; i++) {
		if (!json_object_object_get_ex(o, names[i], &v) || v == NULL)
			goto out;
		json_object_object_add(m, names[i], json_object_get(v));
	}
	json_object_object_get_ex(o, "method", &v);
	if (route_method_normalize(json_object_get_string(v), (size_t)json_object_get_string_len(v), up) < 0)
		goto out;
	json_object_object_add(m, "method", json_object_new_string(up));
	json_object_object_get_ex(o, "network", &v);
	net = json_object_get_string(v);
	if (net == NULL || strncmp(net, "eip155:", 7) != 0 || (d.chain_id = strtoull(net + 7, NULL, 10)) == 0)
		goto out;
	if (typed_digest(TYPED_ROUTE_NOTE_OFFER, &d, m, digest, err, sizeof(err)) < 0 ||
	    key_of(hexkey, key) < 0 || sig_sign(key, digest, raw) < 0)
		goto out;
	if (flags & F_V01)
		raw[64] -= 27;
	if (flags & F_COMPACT) {
		raw[32] |= (uint8_t)((raw[64] - 27) << 7);
		hex_encode(raw, 64, sig);
	} else {
		hex_encode(raw, 65, sig);
	}
	rc = 0;
out:
	explicit_bzero(key, sizeof(key));
	json_object_put(m);
	json_object_put(root);
	return rc;
}

/* A signature of valid form over nothing in particular. */
static void
dummy_sig(char sig[133])
{
	uint8_t digest[32] = { 1 }, key[32], raw[65];

	key_of(KEY0, key);
	sig_sign(key, digest, raw);
	explicit_bzero(key, sizeof(key));
	hex_encode(raw, 65, sig);
}

/* Build a case's note, offer and signature into the three buffers. */
static void
build(const struct tcase *c, struct buf *note, struct buf *offer, char sig[140])
{
	const char *key = c->key ? c->key : KEY0;
	struct addr payto = (c->flags & F_SIG_ONLY) ? address_of(KEY0) : address_of(key);
	char vals[10][200], a[ADDR_TEXT_LEN + 1], d[67];
	struct kv base[11];
	struct buf inner;
	uint8_t h[32];

	if (c->note_raw)
		buf_adds(note, c->note_raw);
	else
		object_text(note, note_base, c->note, 4);
	keccak256(buf_str(note), note->len, h);
	snprintf(vals[0], sizeof(vals[0]), "\"1\"");
	snprintf(vals[1], sizeof(vals[1]), "\"https://notes.example.com/route-note\"");
	snprintf(vals[2], sizeof(vals[2]), "\"GET\"");
	snprintf(vals[3], sizeof(vals[3]), "\"eip155:8453\"");
	snprintf(vals[4], sizeof(vals[4]), "\"%s\"", USDC);
	snprintf(vals[5], sizeof(vals[5]), "\"%s\"", addr_format(&payto, a));
	snprintf(vals[6], sizeof(vals[6]), "\"1000\"");
	snprintf(vals[7], sizeof(vals[7]), "\"%s\"", hex_encode(h, 32, d));
	snprintf(vals[8], sizeof(vals[8]), "%zu", note->len);
	snprintf(vals[9], sizeof(vals[9]), "%lld", EXPIRES);
	for (size_t i = 0; i < 10; i++) {
		base[i].key = offer_keys_order[i].key;
		base[i].raw = vals[i];
	}
	base[10].key = NULL;
	buf_init(&inner, 64 * 1024);
	object_text(&inner, base, c->offer, 4);
	if (c->flags & F_OFFER_DUP) {
		buf_reset(&inner);
		buf_adds(&inner, "{\"version\":\"1\",");
		object_text(&inner, base, c->offer, 4);
		memmove(inner.p + 15, inner.p + 16, inner.len - 15);  /* drop the second '{' */
		inner.len--;
	}
	if (c->flags & F_WRAP)
		buf_printf(offer, "{\"offer\":%s}", buf_str(&inner));
	else if (c->flags & F_WRAP_EXTRA)
		buf_printf(offer, "{\"offer\":%s,\"x\":1}", buf_str(&inner));
	else if (c->flags & F_WRAP_NULL)
		buf_adds(offer, "{\"offer\":null}");
	else if (c->sig && strcmp(c->sig, "offer-array") == 0)
		buf_printf(offer, "[%s]", buf_str(&inner));
	else
		buf_adds(offer, buf_str(&inner));
	buf_release(&inner);

	if (c->sig && strcmp(c->sig, "sign-other-payto") == 0) {
		/* signed over payTo ADDR1 by KEY0, shown with payTo ADDR0 */
		struct buf other;
		const struct kv o1[] = { { "payTo", "\"" ADDR1 "\"" } };

		buf_init(&other, 64 * 1024);
		for (size_t i = 0; i < 10; i++)
			if (strcmp(base[i].key, "payTo") == 0)
				base[i].raw = o1[0].raw;
		object_text(&other, base, NULL, 0);
		if (sign_offer(buf_str(&other), KEY0, 0, sig) < 0)
			dummy_sig(sig);
		buf_release(&other);
	} else if (c->sig && (strcmp(c->sig, "high-s") == 0 || strcmp(c->sig, "v29") == 0)) {
		uint8_t raw[65];
		size_t n = 0;

		if (sign_offer(buf_str(offer), key, 0, sig) < 0)
			dummy_sig(sig);
		hex_decode(sig, strlen(sig), raw, sizeof(raw), &n);
		if (strcmp(c->sig, "v29") == 0) {
			raw[64] = 29;
		} else {
			/* s' = n - s, v flipped: the malleable twin */
			static const uint8_t order[32] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xba, 0xae, 0xdc, 0xe6, 0xaf,
				0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41 };
			int borrow = 0;

			for (int i = 31; i >= 0; i--) {
				int v = order[i] - raw[32 + i] - borrow;

				borrow = v < 0;
				raw[32 + i] = (uint8_t)(v + (borrow ? 256 : 0));
			}
			raw[64] = raw[64] == 27 ? 28 : 27;
		}
		hex_encode(raw, 65, sig);
	} else if (c->sig && strcmp(c->sig, "offer-array") == 0) {
		dummy_sig(sig);
	} else if (c->sig) {
		snprintf(sig, 140, "%s", c->sig);
	} else if (sign_offer(buf_str(offer), key, c->flags, sig) < 0) {
		dummy_sig(sig);
	}
	if (c->flags & F_TAMPER) {
		char *p = strstr(note->p, "7-day");

		if (p)
			*p = '8';
	}
}

static void
run_case(const struct tcase *c)
{
	static struct routenote_pub p;
	struct routenote_error re;
	struct buf note, offer;
	char sig[140], rid[67];
	enum routenote_err rc;

	buf_init(&note, 256 * 1024);
	buf_init(&offer, 256 * 1024);
	build(c, &note, &offer, sig);
	rc = routenote_verify(buf_str(&note), note.len, buf_str(&offer), offer.len, sig, strlen(sig),
	    c->chain ? c->chain : 8453, c->now ? c->now : NOW, &p, &re);
	if (c->want == RN_OK) {
		struct addr want = address_of(c->key ? c->key : KEY0);

		if (!ok(rc == RN_OK, "%s: accepted", c->name))
			printf("#   %s: %s\n", routenote_code(rc), re.msg);
		else
			ok(addr_eq(&p.signer, &want) && addr_eq(&p.offer.pay_to, &want),
			    "%s: the signer is payTo", c->name);
		if (rc == RN_OK && c->route)
			is_str(hex_encode(p.note.route_id, 32, rid), c->route, "%s: routeId", c->name);
		if (rc == RN_OK && c->intent) {
			char t[ROUTENOTE_TEXT_MAX + 1];

			snprintf(t, sizeof(t), "%.*s", (int)p.note.intent.len, p.note.intent.s);
			is_str(t, c->intent, "%s: trimmed intent", c->name);
		}
	} else {
		if (!ok(rc == c->want && strcmp(re.field, c->field) == 0, "%s: %s at %s", c->name,
		    routenote_code(c->want), c->field))
			printf("#   got %s at %s: %s\n", routenote_code(rc), rc ? re.field : "-", re.msg);
		if (c->msg && rc != RN_OK)
			is_str(re.msg, c->msg, "%s: message", c->name);
	}
	routenote_release(&p);
	buf_release(&note);
	buf_release(&offer);
}

/* Checks a successful verify against the parts of cases[] it exercises. */
static void
check_details(void)
{
	static struct routenote_pub p;
	struct routenote_error re;
	struct buf note, offer;
	char sig[140], t[512];
	const struct tcase c = {
		.name = "details",
		.note = { { "route", "{\"publicEndpointUrl\":\"https://API.Example.COM:443/v1/./forecast\",\"method\":\"get\"}" },
			{ "limits", "[\" a \",\"b\\tc\"]" },
			{ "contextUris", "[\"ar://x\",\"https://Example.org/a\"]" } },
		.offer = { { "method", "\"patch\"" } },
		.flags = F_WRAP | F_COMPACT,
	};

	buf_init(&note, 256 * 1024);
	buf_init(&offer, 256 * 1024);
	build(&c, &note, &offer, sig);
	if (!ok(routenote_verify(buf_str(&note), note.len, buf_str(&offer), offer.len, sig, strlen(sig), 8453, NOW,
	    &p, &re) == RN_OK, "details: accepted"))
		printf("#   %s\n", re.msg);
	is_str(p.note.origin, "https://api.example.com", "origin is normalized");
	is_str(p.note.path, "/v1/forecast", "publicPath is normalized");
	is_str(p.note.method, "GET", "note method is uppercased");
	is_str(p.offer.method, "PATCH", "offer method is uppercased as signed");
	ok(p.note.nlimits == 2 && p.note.limits[0].len == 1 && p.note.limits[0].s[0] == 'a' &&
	    p.note.limits[1].len == 3, "limits are trimmed, inner TAB kept");
	snprintf(t, sizeof(t), "%.*s", (int)p.note.context_uris[1].len, p.note.context_uris[1].s);
	is_str(t, "https://Example.org/a", "URIs are kept as given");
	ok(p.note.request_schema_uri.s != NULL && p.note.documentation_uri.s == NULL, "null URI is NULL");
	ok(p.note.created_at == CREATED && p.note.expires_at == EXPIRES && p.offer.expires_at == EXPIRES,
	    "times are read");
	ok(p.sig_len == 64, "the 64-byte signature is kept as given");
	ok(p.offer.chain_id == 8453 && p.offer.response_bytes == note.len && p.note.bytes == note.len,
	    "chain and byte count");
	is_str(p.offer.amount_dec, "1000", "amount");
	routenote_release(&p);
	routenote_release(&p);
	ok(p.note.root == NULL && p.offer.root == NULL, "routenote_release is safe twice");
	buf_release(&note);
	buf_release(&offer);
}

/* A note padded with spaces to exactly n bytes. */
static void
check_size(size_t n, enum routenote_err want, const char *what)
{
	static struct routenote_pub p;
	struct routenote_error re;
	struct buf note, offer, pad;
	struct tcase c = { .name = what };
	char sig[140];
	enum routenote_err rc;

	buf_init(&pad, 64 * 1024);
	object_text(&pad, note_base, NULL, 0);
	while (pad.len < n)
		buf_adds(&pad, " ");
	c.note_raw = buf_str(&pad);
	buf_init(&note, 256 * 1024);
	buf_init(&offer, 256 * 1024);
	build(&c, &note, &offer, sig);
	rc = routenote_verify(buf_str(&note), note.len, buf_str(&offer), offer.len, sig, strlen(sig), 8453, NOW,
	    &p, &re);
	if (!ok(rc == want && note.len == n, "%s", what))
		printf("#   got %s: %s\n", routenote_code(rc), re.msg);
	routenote_release(&p);
	buf_release(&pad);
	buf_release(&note);
	buf_release(&offer);
}

static const char *
str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ? json_object_get_string(v) : "";
}

/* (b) the vectors signed by viem. */
static void
check_vectors(void)
{
	json_object *root = json_object_from_file(VECTORS), *arr, *v;
	static struct routenote_pub p;
	struct routenote_error re;
	uint64_t chain;
	int64_t now;
	uint8_t key[32];

	if (!ok(root != NULL, "vector file %s loads", VECTORS))
		return;
	json_object_object_get_ex(root, "chainId", &v);
	chain = (uint64_t)json_object_get_int64(v);
	json_object_object_get_ex(root, "now", &v);
	now = json_object_get_int64(v);
	json_object_object_get_ex(root, "valid", &arr);
	ok(json_object_array_length(arr) == 5, "five valid vectors to check");
	key_of(KEY0, key);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *c = json_object_array_get_idx(arr, i), *lim;
		const char *name = str(c, "name"), *n = str(c, "noteJson"), *o = str(c, "offerJson");
		const char *s = str(c, "signature");
		char h[67], a[ADDR_TEXT_LEN + 1], t[ROUTENOTE_TEXT_MAX + 1];
		uint8_t raw[65];
		bool lims = true;

		if (!ok(routenote_verify(n, strlen(n), o, strlen(o), s, strlen(s), chain, now, &p, &re) == RN_OK,
		    "viem: %s: accepted", name)) {
			printf("#   %s\n", re.msg);
			continue;
		}
		is_str(hex_encode(p.note.route_id, 32, h), str(c, "routeId"), "viem: %s: routeId", name);
		is_str(hex_encode(p.note.digest, 32, h), str(c, "noteDigest"), "viem: %s: note digest", name);
		is_str(hex_encode(p.offer_digest, 32, h), str(c, "offerDigest"), "viem: %s: EIP-712 digest", name);
		is_str(addr_format(&p.signer, a), str(c, "signer"), "viem: %s: signer", name);
		is_str(p.note.origin, str(c, "origin"), "viem: %s: origin", name);
		is_str(p.note.path, str(c, "publicPath"), "viem: %s: publicPath", name);
		is_str(p.note.method, str(c, "method"), "viem: %s: method", name);
		snprintf(t, sizeof(t), "%.*s", (int)p.note.intent.len, p.note.intent.s);
		is_str(t, str(c, "intent"), "viem: %s: intent trimmed like JavaScript", name);
		json_object_object_get_ex(c, "limits", &lim);
		lims = json_object_array_length(lim) == p.note.nlimits;
		for (size_t k = 0; lims && k < p.note.nlimits; k++) {
			const char *want = json_object_get_string(json_object_array_get_idx(lim, k));

			lims = strlen(want) == p.note.limits[k].len &&
			    memcmp(want, p.note.limits[k].s, p.note.limits[k].len) == 0;
		}
		ok(lims, "viem: %s: limits trimmed like JavaScript", name);
		ok(sig_sign(key, p.offer_digest, raw) == 0 &&
		    (p.sig_len == 65 ? memcmp(raw, p.sig, 65) == 0 :
		    memcmp(raw, p.sig, 32) == 0 && (raw[32] | (uint8_t)((raw[64] - 27) << 7)) == p.sig[32] &&
		    memcmp(raw + 33, p.sig + 33, 31) == 0),
		    "viem: %s: sig_sign reproduces viem's signature", name);
		routenote_release(&p);
	}
	explicit_bzero(key, sizeof(key));
	json_object_object_get_ex(root, "invalid", &arr);
	ok(json_object_array_length(arr) == 5, "five invalid vectors to check");
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *c = json_object_array_get_idx(arr, i);
		const char *n = str(c, "noteJson"), *o = str(c, "offerJson"), *s = str(c, "signature");
		enum routenote_err rc = routenote_verify(n, strlen(n), o, strlen(o), s, strlen(s), chain, now, &p, &re);

		if (!ok(rc != RN_OK && strcmp(routenote_code(rc), str(c, "code")) == 0 &&
		    strcmp(re.field, str(c, "field")) == 0, "viem: %s: %s at %s", str(c, "name"), str(c, "code"),
		    str(c, "field")))
			printf("#   got %s at %s: %s\n", routenote_code(rc), re.field, re.msg);
		routenote_release(&p);
	}
	json_object_put(root);
}

static void
check_tables(void)
{
	struct routenote_error re;
	static struct routenote_pub p;

	bool coded = true;

	for (int e = 0; e < RN__MAX; e++)
		coded = coded && strcmp(routenote_code((enum routenote_err)e), "unknown") != 0;
	ok(coded, "every error has a code");
	ok(strcmp(routenote_code(RN__MAX), "unknown") == 0, "out-of-range code");
	is_str(routenote_input_name(RNI_NOTE), "noteJson", "input name of the note");
	is_str(routenote_input_name(RNI_OFFER), "offerJson", "input name of the offer");
	is_str(routenote_input_name(RNI_SIGNATURE), "signature", "input name of the signature");
	ok(routenote_verify(NULL, 0, NULL, 0, NULL, 0, 8453, NOW, &p, &re) == RN_TOO_LARGE && re.input == RNI_NOTE,
	    "NULL inputs are empty inputs");
	ok(routenote_verify("{}", 2, "{}", 2, "", 0, 8453, NOW, &p, NULL) == RN_MISSING_KEY, "err may be NULL");
	routenote_release(NULL);
}

/* ---- (c) the store, through the handler, against the suite's MariaDB */

struct stack {
	struct config cfg;
	struct db db;
	const struct endpoint *ep;
};

static int
publish(struct stack *s, const char *note, const char *offer, const char *sig, int *status,
    json_object **body)
{
	struct req r;
	struct resp w;
	const char *vals[3] = { note, offer, sig };
	enum err e;

	memset(&r, 0, sizeof(r));
	pool_init(&r.pool, 32 * 1024 * 1024);
	r.ep = s->ep;
	r.cfg = &s->cfg;
	r.db = &s->db;
	for (size_t i = 0; i < 3; i++) {
		r.vals[i].present = true;
		r.vals[i].type = VT_STRING;
		r.vals[i].text = pool_strndup(&r.pool, vals[i], strlen(vals[i]));
		r.vals[i].len = strlen(vals[i]);
	}
	resp_init(&w);
	e = h_route_contexts_post(&r, &w);
	*status = w.status;
	*body = json_tokener_parse(buf_str(&w.body));
	resp_release(&w);
	pool_release(&r.pool);
	return (int)e;
}

/* A publication of the base note for chain `chain`, created `created`, by key. */
static void
stack_pub(uint64_t chain, const char *key, int64_t created, const char *intent, struct buf *note,
    struct buf *offer, char sig[140])
{
	char cr[32], ex[32], net[40], in[320];
	struct tcase c = { .name = "stack" };

	snprintf(cr, sizeof(cr), "%lld", (long long)created);
	snprintf(ex, sizeof(ex), "%lld", (long long)created + 3600);
	snprintf(net, sizeof(net), "\"eip155:%" PRIu64 "\"", chain);
	snprintf(in, sizeof(in), "\"%s\"", intent);
	c.note[0] = (struct kv){ "createdAt", cr };
	c.note[1] = (struct kv){ "expiresAt", ex };
	c.note[2] = (struct kv){ "intent", in };
	c.note[3] = (struct kv){ "fit", "\"Exact bytes: \\u00e9\\n\xe6\x9d\xb1 kept.\"" };
	c.offer[0] = (struct kv){ "network", net };
	c.offer[1] = (struct kv){ "expiresAt", ex };
	c.key = key;
	build(&c, note, offer, sig);
}

static void
check_store(void)
{
	static struct stack s;
	const char *var = getenv("WAYMARK_VAR");
	char path[1024], err[256], q[1024], rid[67];
	struct buf n1, o1, n2, o2;
	char s1[140], s2[140], s3[140];
	json_object *body = NULL, *list, *rec, *sp;
	int status = 0;
	int64_t now = (int64_t)time(NULL);
	uint8_t route[32];
	const char *published;
	enum db_rc rc_setup;

	if (!ok(var != NULL, "the store: WAYMARK_VAR names the test stack (run through tools/run-tests)"))
		return;
	snprintf(path, sizeof(path), "%s/waymark.conf", var);
	if (!ok(access(path, R_OK) == 0 && config_load(&s.cfg, path, err, sizeof(err)) == 0,
	    "the store: the test stack's configuration %s loads", path))
		return;
	db_init(&s.db, &s.cfg);
	if (!ok(db_connect(&s.db) == DB_OK, "the store: the suite's MariaDB is reachable")) {
		printf("#   %s\n", s.db.err);
		return;
	}
	for (size_t i = 0; i < nendpoints; i++)
		if (strcmp(endpoints[i].id, "x402.route_contexts") == 0)
			s.ep = &endpoints[i];
	if (!ok(s.ep != NULL, "the table has the x402.route_contexts row"))
		return;
	/* a chain id of this process's own, so parallel runs never meet */
	s.cfg.chain_id = 4000000000ull + (uint64_t)getpid();
	hex_decode_fixed(ROUTE_BASE, strlen(ROUTE_BASE), route, 32, true);
	hex_encode(route, 32, rid);
	{
		static const unsigned char z32[32];
		unsigned char a0[20], a1[20], one32[32] = { [31] = 1 }, two20[20] = { [19] = 2 },
		    three32[32] = { [31] = 3 };
		char b1[128], b2[128];
		struct sql d1 = SQL_ON(b1), d2 = SQL_ON(b2), ins = SQL_ON(q);

		hex_decode_fixed("70997970c51812dc3a010c7d01b50e0d17dc79c8", 40, a1, 20, false);
		hex_decode_fixed("f39fd6e51aad88f6f4ce6ab8827279cfffb92266", 40, a0, 20, false);
		sql_add(&d1, "DELETE FROM route_contexts WHERE chain_id = ?", SQL_U64(s.cfg.chain_id));
		sql_add(&d2, "DELETE FROM routed_boons WHERE chain_id = ?", SQL_U64(s.cfg.chain_id));
		sql_add(&ins, "INSERT INTO routed_boons (chain_id, tx_hash, log_index, contract, block_number, "
		    "block_hash, block_time, route_id, tipper, context_ref, endpoint_pay_to, endpoint_usdc, "
		    "network_pay_to, network_usdc, boon_burned) VALUES (?, ?, 0, ?, 1, ?, 1, ?, ?, ?, ?, 0, ?, 5, 1)",
		    SQL_U64(s.cfg.chain_id), SQL_BYTES(one32, 32), SQL_BYTES(two20, 20), SQL_BYTES(three32, 32),
		    SQL_BYTES(route, 32), SQL_BYTES(a1, 20), SQL_BYTES(z32, 32), SQL_BYTES(a0, 20),
		    SQL_BYTES(a0, 20));
		if (db_exec(&s.db, &d1) != DB_OK || db_exec(&s.db, &d2) != DB_OK)
			ins.bad = true;
		rc_setup = db_exec(&s.db, &ins);
	}
	/* ADDR1 tipped; ADDR0 is the endpoint payTo without gratuity and the funded network payTo */
	if (!ok(rc_setup == DB_OK, "a routed recognition for chain %" PRIu64, s.cfg.chain_id)) {
		printf("#   %s\n", s.db.err);
		return;
	}
	buf_init(&n1, 256 * 1024);
	buf_init(&o1, 256 * 1024);
	buf_init(&n2, 256 * 1024);
	buf_init(&o2, 256 * 1024);

	stack_pub(s.cfg.chain_id, KEY0, now - 60, "first", &n1, &o1, s1);
	publish(&s, buf_str(&n1), buf_str(&o1), s1, &status, &body);
	ok(status == 201, "handler: 201 created (got %d)", status);
	is_str(str(body, "publisher"), ADDR0, "handler: publisher");
	is_str(json_object_to_json_string_ext(json_object_object_get(body, "participantRoles"), JSON_C_TO_STRING_PLAIN),
	    "[\"network\"]", "handler: roles: the funded network payTo only (the endpoint row had no gratuity)");
	published = str(body, "publishedAt");
	{
		char keep[40];

		snprintf(keep, sizeof(keep), "%s", published);
		json_object_put(body);
		publish(&s, buf_str(&n1), buf_str(&o1), s1, &status, &body);
		ok(status == 200, "handler: the identical publication again: 200 (got %d)", status);
		is_str(str(body, "publishedAt"), keep, "handler: unchanged: the original publishedAt");
		json_object_put(body);
	}

	stack_pub(s.cfg.chain_id, KEY0, now - 30, "second", &n2, &o2, s2);
	publish(&s, buf_str(&n2), buf_str(&o2), s2, &status, &body);
	ok(status == 200, "handler: a newer note replaces: 200 (got %d)", status);
	is_str(str(json_object_object_get(body, "note"), "intent"), "second", "handler: the newer content");
	json_object_put(body);

	publish(&s, buf_str(&n1), buf_str(&o1), s1, &status, &body);
	ok(status == 409, "handler: the older one again: 409 (got %d)", status);
	is_str(str(body, "error"), "stale_publication", "handler: stale_publication");
	json_object_put(body);

	{
		struct buf n3, o3;

		buf_init(&n3, 256 * 1024);
		buf_init(&o3, 256 * 1024);
		stack_pub(s.cfg.chain_id, KEY1, now - 20, "tipper", &n3, &o3, s3);
		publish(&s, buf_str(&n3), buf_str(&o3), s3, &status, &body);
		ok(status == 201, "handler: the tipper publishes in a slot of its own: 201 (got %d)", status);
		is_str(json_object_to_json_string_ext(json_object_object_get(body, "participantRoles"),
		    JSON_C_TO_STRING_PLAIN), "[\"tipper\"]", "handler: roles: tipper");
		json_object_put(body);
		buf_release(&n3);
		buf_release(&o3);
	}
	{
		struct buf n4, o4;
		char s4[140];

		buf_init(&n4, 256 * 1024);
		buf_init(&o4, 256 * 1024);
		stack_pub(s.cfg.chain_id, "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
		    now - 20, "stranger", &n4, &o4, s4);
		publish(&s, buf_str(&n4), buf_str(&o4), s4, &status, &body);
		ok(status == 403, "handler: a non-participant: 403 (got %d)", status);
		is_str(str(body, "error"), "not_a_participant", "handler: not_a_participant");
		json_object_put(body);
		buf_release(&n4);
		buf_release(&o4);
	}

	list = json_object_new_array();
	ok(contexts_for_route(&s.db, &s.cfg, route, list) == DB_OK && json_object_array_length(list) == 2,
	    "contexts_for_route: the two current contexts");
	rec = json_object_array_get_idx(list, 1);
	is_str(str(rec, "publisher"), ADDR0, "contexts_for_route: newest publication first");
	sp = json_object_object_get(rec, "signedPayload");
	ok(sp && strcmp(str(sp, "noteJson"), buf_str(&n2)) == 0 && strcmp(str(sp, "offerJson"), buf_str(&o2)) == 0,
	    "contexts_for_route: the exact noteJson and offerJson of the replacement");
	is_str(str(sp, "signature"), s2, "contexts_for_route: the signature");
	is_str(str(rec, "version"), "boon.x402-route-context/v1", "contexts_for_route: record version");
	is_str(str(json_object_object_get(rec, "verification"), "challengeBinding"), "not_verified",
	    "contexts_for_route: verification");
	json_object_put(list);

	{
		struct sql up = SQL_ON(q);
		uint8_t a0[20];

		hex_decode_fixed("f39fd6e51aad88f6f4ce6ab8827279cfffb92266", 40, a0, 20, false);
		sql_add(&up, "UPDATE route_contexts SET note_expires_at = ? WHERE chain_id = ? AND publisher = ?",
		    SQL_I64(now), SQL_U64(s.cfg.chain_id), SQL_BYTES(a0, 20));
		ok(db_exec(&s.db, &up) == DB_OK, "the context is made to expire now");
	}
	list = json_object_new_array();
	ok(contexts_for_route(&s.db, &s.cfg, route, list) == DB_OK && json_object_array_length(list) == 1 &&
	    strcmp(str(json_object_array_get_idx(list, 0), "publisher"), ADDR1) == 0,
	    "contexts_for_route: an expired context is not listed");
	json_object_put(list);
	route[31] ^= 1;
	list = json_object_new_array();
	ok(contexts_for_route(&s.db, &s.cfg, route, list) == DB_OK && json_object_array_length(list) == 0,
	    "contexts_for_route: another route has none");
	json_object_put(list);

	{
		char b1[128], b2[128];
		struct sql d1 = SQL_ON(b1), d2 = SQL_ON(b2);

		sql_add(&d1, "DELETE FROM route_contexts WHERE chain_id = ?", SQL_U64(s.cfg.chain_id));
		sql_add(&d2, "DELETE FROM routed_boons WHERE chain_id = ?", SQL_U64(s.cfg.chain_id));
		ok(db_exec(&s.db, &d1) == DB_OK && db_exec(&s.db, &d2) == DB_OK, "the test rows are removed");
	}
	db_close(&s.db);
	buf_release(&n1);
	buf_release(&o1);
	buf_release(&n2);
	buf_release(&o2);
}

int
main(void)
{
	if (!ok(sig_init() == 0, "sig_init, once before anything recovers (lib/sig.h)"))
		return done_testing();
	check_tables();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	check_details();
	check_size(ROUTENOTE_NOTE_MAX, RN_OK, "a note of exactly 32768 bytes is accepted");
	check_size(ROUTENOTE_NOTE_MAX + 1, RN_TOO_LARGE, "a note of 32769 bytes is too large");
	check_vectors();
	check_store();
	sig_release();
	return done_testing();
}
