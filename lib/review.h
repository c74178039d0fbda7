/*
 * review.h: rules shared by the review lanes (docs/PROTOCOL.md, Review lanes):
 * the review text rules, the publication window, the V1 (boon_backed) and V3
 * (self_reported) review objects and their EIP-712 digests.
 *
 * Return conventions: 0, or -1 with the offending field (e.g.
 * "review.reviewText") in field[] and one sentence in why[].
 */
#ifndef WAYMARK_REVIEW_H
#define WAYMARK_REVIEW_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <json-c/json.h>

#include "addr.h"
#include "brand.h"

#define REVIEW_TEXT_MAX 1000      /* UTF-8 bytes */
#define REVIEW_WINDOW 86400       /* a signed review is published within 24 h of createdAt */
#define REVIEW_SKEW 300           /* createdAt may be this far in the future (clock skew) */

struct review_v1 {
	uint8_t route_id[32];
	uint8_t tx_hash[32];
	uint64_t log_index;
	const char *text;             /* borrowed from the JSON object */
	size_t text_len;
	uint64_t created_at;
};

struct review_v3 {
	uint8_t route_id[32];
	struct addr reviewer;
	const char *text;             /* borrowed from the JSON object */
	size_t text_len;
	uint64_t created_at;
};

struct review_v2 {
	uint8_t route_id[32];
	uint8_t receipt_digest[32];
	const char *text;             /* borrowed from the JSON object */
	size_t text_len;
	uint64_t created_at;
};

/* The V2 policy version, "boon.x402-review-policy/v2". */
#define REVIEW_V2_POLICY BRAND_LOWER ".x402-review-policy/v2"

/* The V3 policy version, "boon.x402-review-policy/v3". */
#define REVIEW_V3_POLICY BRAND_LOWER ".x402-review-policy/v3"

/*
 * The review text rules, the one check of every lane and of the drafts:
 * valid UTF-8, not empty, equal to its own trim (as JavaScript trims), at
 * most 1000 bytes, one paragraph: no line break of any kind (U+0000-U+001F,
 * so no LF, CR or tab; U+0085 NEL among U+007F-U+009F; U+2028 and U+2029),
 * no bidirectional controls U+202A-U+202E or U+2066-U+2069. Returns 0, or
 * -1 with a reason in why[cap].
 */
int review_text_check(const char *s, size_t len, char *why, size_t cap);

/* createdAt within [now - 24 h, now + 5 min]. */
int review_window_check(uint64_t created_at, time_t now, char *why, size_t cap);

/*
 * Parse the V1 review object: exactly {version "1", routeId, recognitionTxHash
 * (lowercase nonzero bytes32), recognitionLogIndex and createdAt (safe
 * integers, createdAt >= 1), reviewText (the text rules)}.
 */
int review_v1_parse(json_object *o, struct review_v1 *out, char *field, size_t fcap, char *why,
    size_t cap);

/* EIP-712 X402Review digest, domain "Boon X402 Review" v1 (chain, companion). */
int review_v1_digest(const struct review_v1 *r, uint64_t chain_id, const struct addr *companion,
    uint8_t out[32]);

/*
 * Parse the V2 review object: exactly {version "2", policyVersion
 * REVIEW_V2_POLICY, routeId and receiptDigest (lowercase nonzero bytes32),
 * reviewText (the text rules), createdAt (a safe integer >= 1)}.
 */
int review_v2_parse(json_object *o, struct review_v2 *out, char *field, size_t fcap, char *why,
    size_t cap);

/* EIP-712 X402ReceiptReview digest, domain "Boon X402 Review" v2 (chain, companion). */
int review_v2_digest(const struct review_v2 *r, uint64_t chain_id, const struct addr *companion,
    uint8_t out[32]);

/*
 * Parse the V3 review object: exactly {version "3", policyVersion
 * REVIEW_V3_POLICY, routeId (lowercase nonzero bytes32), reviewer (a
 * nonzero address, lowercase or EIP-55), reviewText (the text rules),
 * createdAt (a safe integer >= 1)}.
 */
int review_v3_parse(json_object *o, struct review_v3 *out, char *field, size_t fcap, char *why,
    size_t cap);

/* EIP-712 X402SelfReportedReview digest, domain "Boon X402 Review" v3 (chain, companion). */
int review_v3_digest(const struct review_v3 *r, uint64_t chain_id, const struct addr *companion,
    uint8_t out[32]);

#endif
