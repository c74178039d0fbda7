/*
 * receipt.h: the x402 offer-receipt extension's signed artifacts
 * (docs/PROTOCOL.md, Offers and receipts): a signed offer (PAYMENT-REQUIRED
 * extensions["offer-receipt"].info.offers[]) and a signed receipt
 * (PAYMENT-RESPONSE extensions["offer-receipt"].info.receipt), format
 * "eip712" only.
 *
 *   offer   {format:"eip712", acceptIndex?, payload:{version:1, resourceUrl,
 *            scheme, network, asset, payTo, amount, validUntil}, signature}
 *   receipt {format:"eip712", payload:{version:1, network, resourceUrl, payer,
 *            issuedAt, transaction?}, signature}
 *
 * The EIP-712 domains are {name "x402 offer"|"x402 receipt", version "1",
 * chainId 1} with no verifyingContract (lib/typed). String-typed members
 * are hashed exactly as transmitted, so the digest is computed from the
 * payload as sent, never rebuilt. An absent transaction is signed as "".
 * A receipt's digest (the EIP-712 hash of its payload) is its receiptDigest.
 *
 * Parsing checks the shape only: exact key sets, version 1, https resource
 * URLs without credentials, query or fragment (at most 2048 bytes),
 * "eip155:<n>" networks, 0x addresses, a positive atomic amount, safe
 * integers, and a 65-byte signature, which is recovered (low s) to
 * `signer`. Whether that signer is authorized is the caller's business.
 *
 * Return conventions: 0, or -1 with the offending member (relative to the
 * artifact, e.g. "payload.resourceUrl") in field[] and one sentence in
 * why[]; RECEIPT_UNRECOVERED (-2, also < 0) when everything is well formed
 * but the signature, 65 bytes of hex, recovers no key (r or s zero or not
 * below the curve order, a high s, a v not 0, 1, 27 or 28, no point): a
 * failed verification rather than a malformed artifact, for callers that
 * answer the two apart (field[] is "signature").
 */
#ifndef WAYMARK_RECEIPT_H
#define WAYMARK_RECEIPT_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"

#define RECEIPT_URL_MAX 2048
#define RECEIPT_UNRECOVERED (-2)   /* well formed, but the signature recovers no key */

struct receipt_offer {
	char resource_url[RECEIPT_URL_MAX + 1];
	char scheme[33];
	char network[33];
	char asset[ADDR_TEXT_LEN + 1];      /* as sent */
	char pay_to[ADDR_TEXT_LEN + 1];     /* as sent */
	struct addr pay_to_addr;
	char amount[79];                    /* atomic units, decimal digits */
	uint64_t valid_until;               /* Unix seconds; 0 = no limit */
	uint8_t digest[32];
	struct addr signer;                 /* recovered from signature */
};

struct receipt {
	char network[33];
	char resource_url[RECEIPT_URL_MAX + 1];
	char payer[ADDR_TEXT_LEN + 1];      /* as sent */
	struct addr payer_addr;
	uint64_t issued_at;                 /* Unix seconds */
	char transaction[67];               /* "" when absent or empty */
	uint8_t digest[32];                 /* = receiptDigest */
	struct addr signer;                 /* recovered from signature */
};

int receipt_offer_parse(json_object *o, struct receipt_offer *out, char *field, size_t fcap,
    char *why, size_t cap);

int receipt_parse(json_object *o, struct receipt *out, char *field, size_t fcap, char *why,
    size_t cap);

#endif
