/*
 * authority.h: a route's receipt authority (docs/PROTOCOL.md, Receipt
 * authority): which key signs the route's official x402 receipts (signer) and which
 * wallet its payments go to (payTo), pinned from evidence this service has
 * already seen, never fetched from the endpoint. Only an observed official
 * x402 offer-receipt extension pins the signer:
 *
 *   1. catalog_offer: the x402 network catalog listed the route's resource
 *      with a challenge that carried a signed offer of the offer-receipt
 *      extension (lib/catalog): signer = the offer's recovered signer,
 *      payTo = the offer's payTo, which equals the challenge's payTo.
 *   2. catalog_challenge: a catalog challenge without a signed offer gives
 *      payTo only.
 *
 * A route context's offer (a route note signed by a participant, even by
 * the endpoint's payTo) is this service's own publication format, not the
 * offer-receipt extension, and pins nothing.
 *
 * status is "available" when both a signer and a payTo are pinned, else
 * "not_observed" (no official receipt evidence), and receipt_verified
 * reviews are then refused. A review records the pins it was checked
 * against, with their sources, at publication.
 *
 * Return conventions: authority_load returns enum db_rc; authority_json a
 * new object the caller puts.
 */
#ifndef WAYMARK_AUTHORITY_H
#define WAYMARK_AUTHORITY_H

#include <stdbool.h>

#include <json-c/json.h>

#include "addr.h"
#include "config.h"
#include "db.h"

struct authority {
	bool has_signer, has_pay_to;
	struct addr signer, pay_to;
	const char *signer_source;     /* static: "catalog_offer" or NULL */
	const char *pay_to_source;     /* static: "catalog_offer", "catalog_challenge" or NULL */
};

/* The pins of the route whose ID is rid (64 lowercase hex digits, no 0x). */
enum db_rc authority_load(struct db *db, const struct config *cfg, const char *rid,
    struct authority *out);

/* Both pins are known. */
bool authority_available(const struct authority *a);

/* {status, signer, payTo, sources{signer, payTo}} (EIP-55 addresses or null). */
json_object *authority_json(const struct authority *a);

#endif
