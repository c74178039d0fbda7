/*
 * routenote.h: route notes and the signed offers that sell them
 * (docs/PROTOCOL.md, Route contexts), the payload of a route-context
 * publication: {noteJson, offerJson, signature}.
 *
 * The note and the offer arrive as exact JSON strings. Each is parsed with
 * json_parse_strict (duplicate member names rejected at every depth) and
 * checked member by member; the bytes themselves are never re-serialized,
 * because the offer binds the note's exact bytes (responseDigest =
 * keccak256(note bytes), responseBytes = their count).
 *
 * Route note, 1..32768 bytes, exactly these members:
 *   {version "1", route {publicEndpointUrl, method}, intent, fit,
 *    limits [..5], requestSchemaUri|null, documentationUri|null,
 *    contextUris [], createdAt, expiresAt}
 *  - route.publicEndpointUrl passes url_check_public without flags (public
 *    https host, no credentials, query or fragment; normalized before
 *    hashing, so "https://API.example.com" is accepted) and the routeId is
 *    route_id(method, publicEndpointUrl);
 *  - intent, fit and each limit: 1..280 bytes after trimming whitespace
 *    the way JavaScript's String.prototype.trim does, with no C0 control
 *    other than TAB, LF and CR, no DEL or C1 control, no U+202A..U+202E and
 *    no U+2066..U+2069 (the deployed rule; the trimmed text is the value);
 *  - URIs: at most 5 in all (contextUris plus the two optional ones), each
 *    at most 2048 characters (UTF-16 units, as the deployed code counts),
 *    without the characters above, and either https (url_parse: any host,
 *    no credentials) or "ipfs://" / "ar://" followed by URI characters;
 *  - createdAt and expiresAt: JSON integers, 0 < createdAt < expiresAt
 *    <= 2^53-1.
 *
 * Offer, 1..65536 bytes, either the offer object or {"offer": {...}} (then
 * with no other member), exactly these members:
 *   {version "1", noteEndpoint, method, network "eip155:N", asset, payTo,
 *    amountAtomic, responseDigest, responseBytes, expiresAt}
 *  - noteEndpoint: an https URL in its WHATWG-normalized form (what the
 *    deployed client signs), no credentials, no fragment; method: an HTTP
 *    token, uppercased for the signature as the deployed client does;
 *  - network: eip155:N, N a positive safe integer without leading zeros,
 *    and N must be the chain the caller serves;
 *  - asset and payTo: nonzero addresses; amountAtomic: a positive uint256
 *    decimal string without leading zeros; responseDigest: 0x + 64
 *    lowercase hex digits equal to keccak256(note bytes); responseBytes: a
 *    JSON integer 1..32768 equal to the note's length; expiresAt: a
 *    positive safe integer not later than the note's expiresAt.
 * The signature (0x hex, 64 or 65 bytes, sig.h policy) over the EIP-712
 * RouteNoteOffer digest (typed.h; domain {name "<Brand> x402 Route Note
 * Offer", version "1", chainId N}) must recover to payTo.
 *
 * Time, last: the note and the offer must not have expired (expiresAt <=
 * now), and createdAt may be at most ROUTENOTE_FUTURE_SKEW seconds ahead
 * of now (our rule: a note dated in the future would win every later
 * replacement in its slot).
 *
 * Errors: one enum; routenote_verify fills a struct routenote_error with
 * the code, the request member it concerns (noteJson, offerJson or
 * signature), the path of the failing field ("note.limits[2]") and one
 * sentence naming it ("note.limits[2] is longer than 280 bytes.").
 *
 * Return conventions: routenote_verify returns the enum (RN_OK is 0);
 * routenote_code and routenote_input return static strings. A verified
 * publication points into json-c objects it owns; routenote_release frees
 * them (safe on a zeroed or failed struct, and twice).
 */
#ifndef WAYMARK_ROUTENOTE_H
#define WAYMARK_ROUTENOTE_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "route.h"
#include "u256.h"
#include "url.h"

#define ROUTENOTE_NOTE_MAX (32 * 1024)
#define ROUTENOTE_OFFER_MAX (64 * 1024)
#define ROUTENOTE_TEXT_MAX 280
#define ROUTENOTE_ITEMS_MAX 5          /* limits; and URIs in all */
#define ROUTENOTE_URI_MAX 2048         /* characters (UTF-16 units) */
#define ROUTENOTE_SAFE_MAX 9007199254740991LL
#define ROUTENOTE_FUTURE_SKEW 300      /* seconds createdAt may run ahead */
#define ROUTENOTE_PATH_SIZE (3 * URL_PUBLIC_MAX + 2)

enum routenote_err {
	RN_OK = 0,
	RN_TOO_LARGE,         /* note or offer empty or over its byte limit */
	RN_JSON,              /* not strict JSON */
	RN_DUPLICATE_KEY,     /* an object repeats a member name */
	RN_NOT_OBJECT,        /* note, offer or a nested object is not an object */
	RN_UNKNOWN_KEY,       /* an undeclared member */
	RN_MISSING_KEY,       /* a required member is absent */
	RN_VERSION,           /* version is not the string "1" */
	RN_NOT_STRING,
	RN_NOT_ARRAY,
	RN_NOT_STRING_OR_NULL,
	RN_METHOD,            /* not an HTTP method token */
	RN_ROUTE_URL,         /* route.publicEndpointUrl fails the public URL policy */
	RN_TEXT_EMPTY,        /* intent, fit or a limit is empty after trimming */
	RN_TEXT_TOO_LONG,     /* ... longer than 280 bytes after trimming */
	RN_TEXT_FORBIDDEN,    /* a control or bidirectional formatting character */
	RN_TOO_MANY_ITEMS,    /* limits or contextUris with more than 5 items */
	RN_TOO_MANY_URIS,     /* more than 5 URIs in all */
	RN_URI_TOO_LONG,
	RN_URI_SCHEME,        /* not https:, ipfs:// or ar:// */
	RN_URI_INVALID,       /* a malformed URI of an accepted scheme */
	RN_TIMESTAMP,         /* not a positive safe JSON integer */
	RN_EXPIRY_ORDER,      /* note.expiresAt <= note.createdAt */
	RN_NOTE_ENDPOINT,     /* offer.noteEndpoint is not a normalized https URL */
	RN_NETWORK,           /* not eip155:<positive integer> */
	RN_WRONG_CHAIN,       /* another chain than the one served */
	RN_ADDRESS,
	RN_ZERO_ADDRESS,
	RN_AMOUNT,
	RN_DIGEST_FORMAT,
	RN_RESPONSE_BYTES,    /* not an integer 1..32768 */
	RN_BYTES_MISMATCH,    /* responseBytes != the note's length */
	RN_DIGEST_MISMATCH,   /* responseDigest != keccak256(note) */
	RN_OFFER_OUTLIVES,    /* offer.expiresAt > note.expiresAt */
	RN_SIGNATURE,         /* not a 64/65-byte hex signature under sig.h's policy */
	RN_SIGNER_MISMATCH,   /* recovers to another address than payTo */
	RN_NOTE_EXPIRED,
	RN_OFFER_EXPIRED,
	RN_CREATED_IN_FUTURE,
	RN_INTERNAL,          /* out of memory, or hashing failed */
	RN__MAX
};

/* Which member of the publication body an error concerns. */
enum routenote_input {
	RNI_NOTE,       /* noteJson */
	RNI_OFFER,      /* offerJson */
	RNI_SIGNATURE,  /* signature */
	RNI__MAX
};

struct routenote_error {
	enum routenote_err code;
	enum routenote_input input;
	char field[96];   /* "note.limits[2]", "offer.payTo", "signature" */
	char msg[384];    /* one sentence naming field */
};

/* A string inside the parsed note or offer (not NUL-terminated when trimmed). */
struct routenote_str {
	const char *s;    /* NULL for a JSON null */
	size_t len;
};

struct routenote_note {
	json_object *root;                      /* owns every string below */
	size_t bytes;                           /* exact length */
	uint8_t digest[32];                     /* keccak256 of the exact bytes */
	uint8_t route_id[ROUTE_ID_LEN];
	char method[ROUTE_METHOD_MAX + 1];      /* normalized */
	char origin[URL_ORIGIN_SIZE];
	char path[ROUTENOTE_PATH_SIZE];         /* publicPath */
	struct routenote_str intent, fit;       /* trimmed */
	struct routenote_str limits[ROUTENOTE_ITEMS_MAX];
	size_t nlimits;
	struct routenote_str request_schema_uri, documentation_uri; /* s NULL for null */
	struct routenote_str context_uris[ROUTENOTE_ITEMS_MAX];
	size_t ncontext_uris;
	int64_t created_at, expires_at;
};

struct routenote_offer {
	json_object *root;                      /* the parsed offerJson (wrapper included) */
	struct routenote_str note_endpoint;     /* exact and normalized */
	char method[ROUTE_METHOD_MAX + 1];      /* normalized, as signed */
	uint64_t chain_id;
	struct addr asset, pay_to;
	struct u256 amount;
	char amount_dec[U256_DEC_MAX + 1];
	uint8_t response_digest[32];
	uint32_t response_bytes;
	int64_t expires_at;
};

/* A verified publication. */
struct routenote_pub {
	struct routenote_note note;
	struct routenote_offer offer;
	uint8_t offer_digest[32];               /* the EIP-712 digest that was signed */
	uint8_t sig[65];
	size_t sig_len;                         /* 64 or 65, as given */
	struct addr signer;                     /* == offer.pay_to */
};

/*
 * Verify a publication: note[0..nlen), offer[0..olen) and the signature
 * text sig[0..slen) as described above, for chain chain_id at Unix time
 * now. Returns RN_OK with *out filled (release it with routenote_release),
 * or the first failure with *err filled (err may be NULL) and nothing left
 * to free in *out (routenote_release is still safe).
 */
enum routenote_err routenote_verify(const char *note, size_t nlen, const char *offer, size_t olen,
    const char *sig, size_t slen, uint64_t chain_id, int64_t now, struct routenote_pub *out,
    struct routenote_error *err);

/* Free the parsed JSON held by p; p's strings are invalid afterwards. */
void routenote_release(struct routenote_pub *p);

/* snake_case name of e ("text_too_long"); static, never NULL. */
const char *routenote_code(enum routenote_err e);

/* "noteJson", "offerJson" or "signature"; static, never NULL. */
const char *routenote_input_name(enum routenote_input i);

#endif
