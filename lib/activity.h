/*
 * activity.h: profile activity evidence and the activity review statement
 * (docs/PROTOCOL.md, Profile activity; docs/ARCHITECTURE.md, Profile
 * activity).
 *
 * Evidence is what a linked wallet submits to publish one fact; the
 * `evidence` object is exactly one of (unknown members refused):
 *
 *   {kind "x402_receipt", method, offer, receipt}
 *       an official x402 offer and receipt (lib/receipt) and the method of
 *       the route whose URL the receipt names;
 *   {kind "usdc_transfer", transaction, logIndex?}
 *       a Base USDC Transfer out of the wallet, in that transaction;
 *   {kind "client_settlement", transaction, logIndex?, method, url}
 *       the same, with the wallet's word for the route it paid (method
 *       and a public https URL).
 *
 * method is one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (exact
 * case); transaction is 0x + 64 lowercase hex digits; logIndex an integer
 * 0..2^31-1; url passes the public URL policy (lib/url, no query or
 * fragment) and yields the route ID with method (lib/route). Parsing
 * checks shapes, and that the offer's and the receipt's signatures
 * recover a key (lib/receipt): evidence well formed in every member but
 * such a signature is ACTIVITY_UNVERIFIED, a failed verification, not a
 * shape error. The chain and the receipt authority are the caller's.
 *
 * Identity (so publishing the same evidence again finds the same fact):
 *   evidence key = SHA-256("<brand>:activity-evidence:v1\n" kind "\n"
 *                  network "\n" ref), ref = the receipt digest (0x hex)
 *                  for x402_receipt, else the transaction (0x hex) "\n"
 *                  the log index (decimal) of the verified Transfer;
 *   activity ID  = SHA-256("<brand>:activity:v1\n" profileId "\n" key),
 *                  profileId as lowercase UUID text, key as 0x hex.
 *
 * The activity review statement is the JSON object a wallet signs (as the
 * Request ID of its sign-in proof, as its digest) to attach a review:
 *   {version "1", profileId, activityId, routeId, settlement {network,
 *    transaction, logIndex}, reviewer (CAIP-10), reviewText, createdAt}
 * and its digest is 0x + SHA-256 of its RFC 8785 canonical JSON.
 *
 * Return conventions: activity_evidence_parse returns enum activity_parse
 * (ACTIVITY_OK is 0) with the offending member (e.g. "evidence.url") in
 * field[] and one sentence in why[]; the rest are actions (0 or -1: out of
 * memory or a value that cannot be serialized). activity_review_statement
 * returns a new object the caller puts, or NULL.
 */
#ifndef WAYMARK_ACTIVITY_H
#define WAYMARK_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "brand.h"
#include "receipt.h"
#include "route.h"
#include "url.h"

#define ACTIVITY_EVIDENCE_DOMAIN BRAND_LOWER ":activity-evidence:v1"
#define ACTIVITY_ID_DOMAIN BRAND_LOWER ":activity:v1"
#define ACTIVITY_LOG_INDEX_MAX 2147483647
#define ACTIVITY_REVIEW_VERSION "1"

enum activity_kind {
	ACTIVITY_X402_RECEIPT,      /* evidence kind "x402_receipt": a used fact */
	ACTIVITY_USDC_TRANSFER,     /* "usdc_transfer": a paid_settlement fact */
	ACTIVITY_CLIENT_SETTLEMENT, /* "client_settlement": a used fact */
	ACTIVITY_KIND__MAX
};

enum activity_parse {
	ACTIVITY_OK = 0,
	ACTIVITY_UNKNOWN_MEMBER,    /* a member this kind does not have */
	ACTIVITY_MISSING_MEMBER,    /* a member this kind needs is absent */
	ACTIVITY_INVALID,           /* a member is malformed */
	ACTIVITY_UNVERIFIED,        /* well formed, but an offer's or a receipt's signature recovers no key */
};

/* A parsed evidence object. Large (two URLs and a route's parts): allocate it. */
struct activity_evidence {
	enum activity_kind kind;
	char method[ROUTE_METHOD_MAX + 1];   /* x402_receipt, client_settlement */
	uint8_t tx[32];                      /* usdc_transfer, client_settlement */
	int64_t log_index;                   /* -1 when absent */
	struct receipt_offer offer;          /* x402_receipt */
	struct receipt receipt;              /* x402_receipt */
	/* x402_receipt (from the receipt's resourceUrl) and client_settlement (from url): */
	uint8_t route_id[32];
	char origin[URL_PUBLIC_MAX + 1];     /* normalized, as hashed */
	char path[URL_PUBLIC_MAX + 1];
};

/* The evidence kind names ("x402_receipt", ...), indexed by enum activity_kind. */
extern const char *const activity_kind_names[ACTIVITY_KIND__MAX + 1];

/* The candidate methods, NULL-terminated. */
extern const char *const activity_methods[];

/* Parse the evidence object o (see above) into *out. */
enum activity_parse activity_evidence_parse(json_object *o, struct activity_evidence *out, char *field,
    size_t fcap, char *why, size_t cap);

/*
 * The evidence key of e on network: for x402_receipt its receipt digest,
 * else e->tx and log_index (the index of the verified Transfer, which the
 * evidence may have left out).
 */
int activity_evidence_key(const struct activity_evidence *e, const char *network, uint64_t log_index,
    uint8_t out[32]);

/* The activity ID of the evidence key in profile profile_id (16 bytes). */
int activity_id(const uint8_t profile_id[16], const uint8_t key[32], uint8_t out[32]);

/* What an activity review binds; strings NUL-terminated. */
struct activity_review_in {
	const char *profile_id;     /* lowercase UUID text */
	const uint8_t *activity_id; /* 32 bytes */
	const uint8_t *route_id;    /* 32 bytes */
	const char *network;        /* eip155:8453 */
	const uint8_t *tx;          /* 32 bytes: the verified settlement */
	uint64_t log_index;
	const char *reviewer;       /* CAIP-10, EIP-55 address */
	const char *text;
	size_t text_len;
	uint64_t created_at;
};

/* The statement object of in, and its digest into digest[32] (when not NULL). */
json_object *activity_review_statement(const struct activity_review_in *in, uint8_t digest[32]);

#endif
