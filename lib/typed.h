/*
 * typed.h: the service's fixed EIP-712 typed-data definitions, hashed with
 * eip712.h. Types always come from the constants here, never from a
 * client; each includes EIP712Domain explicitly, so a challenge built from
 * them (typed_data_new) can be signed as-is by any wallet library.
 *
 * | kind                          | primaryType               | domain name / version           | chainId | verifyingContract |
 * |-------------------------------|---------------------------|---------------------------------|---------|-------------------|
 * | TYPED_X402_REVIEW             | X402Review                | "<Brand> X402 Review" / "1"     | caller  | caller            |
 * | TYPED_X402_RECEIPT_REVIEW     | X402ReceiptReview         | "<Brand> X402 Review" / "2"     | caller  | caller            |
 * | TYPED_X402_SELF_REPORTED_REVIEW | X402SelfReportedReview  | "<Brand> X402 Review" / "3"     | caller  | caller            |
 * | TYPED_ROUTE_NOTE_OFFER        | RouteNoteOffer            | "<Brand> x402 Route Note Offer" / "1" | caller | none       |
 * | TYPED_LINK                    | Link                      | "<Brand>" / "3"                 | caller  | caller (BoonV3)   |
 * | TYPED_DISCLOSURE              | Disclosure                | default "<Brand> Disclosure" / "1" (caller may replace) | caller | caller |
 * | TYPED_PRIVATE_TIP_UNLOCK      | PrivateTipUnlock          | default "<Brand> Private Tip Unlock" / "1" (caller may replace) | caller | caller |
 * | TYPED_X402_OFFER              | Offer                     | "x402 offer" / "1"              | 1       | none              |
 * | TYPED_X402_RECEIPT            | Receipt                   | "x402 receipt" / "1"            | 1       | none              |
 * | TYPED_TRANSFER_WITH_AUTHORIZATION | TransferWithAuthorization (EIP-3009) | the token's, from the caller | caller | caller (the token) |
 *
 * ("<Brand>" is BRAND_CAPITAL.) Where the table fixes a domain value, the
 * caller passes NULL/0 or that same value; anything else is an error, so a
 * misconfigured caller cannot silently sign or verify under another domain.
 *
 * Return conventions: actions 0/-1 with a one-line reason in err[0..errlen)
 * (may be NULL); constructors return a new json_object the caller releases
 * with json_object_put, or NULL. Message objects stay the caller's.
 */
#ifndef WAYMARK_TYPED_H
#define WAYMARK_TYPED_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "u256.h"

#define TYPED_MAX_CHAIN_ID 9007199254740991ull /* 2^53-1: chainId travels as a JSON number */

enum typed_kind {
	TYPED_X402_REVIEW,
	TYPED_X402_RECEIPT_REVIEW,
	TYPED_X402_SELF_REPORTED_REVIEW,
	TYPED_ROUTE_NOTE_OFFER,
	TYPED_LINK,
	TYPED_DISCLOSURE,
	TYPED_PRIVATE_TIP_UNLOCK,
	TYPED_X402_OFFER,
	TYPED_X402_RECEIPT,
	TYPED_TRANSFER_WITH_AUTHORIZATION,
	TYPED__MAX
};

/* Domain parameters supplied by the caller (from configuration or the payload's network). */
struct typed_domain {
	const char *name;                       /* NULL: the kind's fixed or default name */
	const char *version;                    /* NULL: the kind's fixed or default version */
	uint64_t chain_id;                      /* 0: the kind's fixed chain id; else 1..2^53-1 */
	const struct addr *verifying_contract;  /* NULL for kinds without one; never zero */
};

/* The primaryType of kind (static string), or NULL when kind is out of range. */
const char *typed_primary(enum typed_kind kind);

/* The kind whose primaryType is name; 0, or -1 when there is none. */
int typed_kind_from_primary(const char *name, enum typed_kind *out);

/* The kind's `types` as JSON text (static string), or NULL. */
const char *typed_types_json(enum typed_kind kind);

/* The kind's `types` parsed; caller frees. NULL when out of range or out of memory. */
json_object *typed_types_new(enum typed_kind kind);

/*
 * The domain object for kind and d (chainId as a JSON number,
 * verifyingContract as lowercase hex); caller frees. NULL with err set
 * when d does not fit the kind (see the table above).
 */
json_object *typed_domain_new(enum typed_kind kind, const struct typed_domain *d, char *err,
    size_t errlen);

/*
 * A complete typed-data object {types, primaryType, domain, message} for
 * a challenge or a client; message gains a reference (the caller keeps
 * its own). Caller frees. NULL with err set on a bad domain.
 */
json_object *typed_data_new(enum typed_kind kind, const struct typed_domain *d, json_object *message,
    char *err, size_t errlen);

/*
 * The EIP-712 digest of message as kind under d; 0, or -1 with err set
 * (a bad domain, or a message that is not exactly the type's fields with
 * valid values, as eip712.h describes). Pass the signed struct only: e.g.
 * a review body's "version" key is not one of its fields.
 */
int typed_digest(enum typed_kind kind, const struct typed_domain *d, json_object *message,
    uint8_t out[32], char *err, size_t errlen);

/* The fields of a TransferWithAuthorization (EIP-3009), decoded. */
struct typed_transfer {
	struct addr from;
	struct addr to;
	struct u256 value;
	struct u256 valid_after;
	struct u256 valid_before;
	uint8_t nonce[32];
};

/*
 * The digest typed_digest(TYPED_TRANSFER_WITH_AUTHORIZATION, d, message)
 * gives for the message with m's fields, computed from them directly: the
 * check of every payment's signature (lib/x402.c) runs no JSON engine.
 * 0, or -1 when d does not fit the kind (as typed_domain_new refuses it).
 */
int typed_transfer_digest(const struct typed_domain *d, const struct typed_transfer *m, uint8_t out[32]);

/* The domain separator of kind under d; 0, or -1 with err set. */
int typed_domain_separator(enum typed_kind kind, const struct typed_domain *d, uint8_t out[32],
    char *err, size_t errlen);

/* typeHash of the kind's primary type; 0, or -1 when kind is out of range. */
int typed_type_hash(enum typed_kind kind, uint8_t out[32]);

#endif
