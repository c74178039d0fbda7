/*
 * publication.h: the paid publication of a signed review (docs/ARCHITECTURE.md,
 * Paid publication), shared by the paid lanes (receipt_verified V2,
 * self_reported V3). A lane supplies its checks; this module runs the
 * record through the payment step of fcgi/pay.c:
 *
 *   publication_prepay  the lane's parse and check (every rule, paid or not, so a
 *                       402 is only asked for a publishable review); with a
 *                       payment it reserves the record (reserved_unpaid),
 *                       keyed by the review digest, one per (lane, wallet,
 *                       route) and, for V2, one per receipt digest; the
 *                       cancel hook undoes it (cancel_pending, then
 *                       removed) when nothing is charged
 *   verify              the facilitator
 *   publication_post    binds the authorization to the record
 *   settle              the facilitator
 *   finish              one transaction: insert the review, mark the record
 *                       published, 201 with the public record; if that
 *                       fails, settled_pending and 202 with the receipt and
 *                       retryWithoutRecharge; the identical bundle with the
 *                       same authorization then publishes without settling
 *                       again (EP_PAY_RESUME). Published reviews are
 *                       immutable.
 *
 * Answers of prepay by itself: 200 with the record when this identical
 * review is already published (nothing charged); 202 again when it is
 * settled_pending and came without its payment (never a 402 that would
 * invite a replacement payment); 409 when another review holds the slot.
 */
#ifndef WAYMARK_PUBLICATION_H
#define WAYMARK_PUBLICATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "config.h"
#include "db.h"
#include "http.h"
#include "walletsig.h"

#define PUBLICATION_SIG_MAX WALLETSIG_MAX /* bytes of a reviewer signature */

struct publication;

struct publication_lane {
	const char *name;                 /* "receipt_verified" | "self_reported" */
	/* Parse the review object: p->dg (its digest) and p->rid; answers 400 itself. */
	enum err (*parse)(struct req *r, struct resp *w, struct publication *p);
	/* Every other rule (time, signature, evidence, chain facts), filling the
	 * rest of p; answers 4xx/5xx itself. Skipped for a review already
	 * published or paid for (the identical bundle again). */
	enum err (*check)(struct req *r, struct resp *w, struct publication *p);
};

/* One publication in progress (request pool). The lane's parse and check fill it. */
struct publication {
	const struct publication_lane *lane;
	char rid[65];                     /* route ID, hex digits without 0x */
	char who[41];                     /* the reviewer wallet */
	char dg[65];                      /* the review's EIP-712 digest */
	char receipt_dg[65];              /* V2: the receipt digest; "" otherwise */
	char sig[2 * PUBLICATION_SIG_MAX + 1]; /* the reviewer signature, hex digits */
	const char *sig_kind;             /* "eoa" | "erc1271" */
	const char *text;                 /* the review text (borrowed) */
	size_t text_len;
	uint64_t created_at;
	/* V2 only (NULL otherwise): JSON text of the public receipt record, the
	 * evidence as received and the receipt authority pins. */
	const char *receipt_json;
	const char *evidence_json;
	const char *authority_json;
	void *lane_ctx;                   /* the lane's own state */
	bool reserved;                    /* this request holds the reserved_unpaid record */
	bool adopted;                     /* ... which an earlier request of this bundle made */
};

/*
 * The reviewer signature (the body's "signature": 0x and lowercase hex,
 * 65 bytes for a wallet key or a contract wallet's ERC-1271/EIP-6492
 * signature of at most PUBLICATION_SIG_MAX bytes; the 64-byte compact form
 * is refused) over digest must come from signer (lib/walletsig). Fills
 * p->sig and p->sig_kind. Answers 400 for a malformed signature, 503
 * signature_check_unavailable when the chain was needed and could not
 * answer, and invalid (with invalid_msg) when it is not signer's.
 */
enum err publication_signature(struct req *r, struct resp *w, struct publication *p,
    const uint8_t digest[32], const struct addr *signer, enum err invalid, const char *invalid_msg);

/*
 * The route p->rid has at least one indexed routed recognition; else 400
 * naming review.routeId (503 when the database fails).
 */
enum err publication_recognized(struct req *r, struct resp *w, const struct publication *p);

/* The prepay hook of a paid review row, for lane. */
enum err publication_prepay(struct req *r, struct resp *w, const struct publication_lane *lane);

/* The handler of a paid review row (after verification, or for the identical retry). */
enum err publication_post(struct req *r, struct resp *w);

/*
 * Finish the settled_pending (or reserved_unpaid) publication whose review
 * digest is dg (64 hex digits) in one transaction: copy its review row into
 * reviews and mark it published. DB_OK when it was published now;
 * DB_DUPLICATE when it was not pending (already published, or gone); any
 * other code leaves it as it was.
 */
enum db_rc publication_complete(struct db *db, uint64_t chain_id, const char *dg);

/*
 * The scheduled task (docs/ARCHITECTURE.md, Paid publication), for records
 * last touched at least
 * min_age seconds ago: first the records bound to a payment of unknown
 * outcome are put to the chain (x402_authorization_state: used, its
 * ledger row becomes settled; void, the record is released), records
 * whose payment settled become settled_pending; then every settled_pending
 * record is completed. Counts go to *done and *failed; returns DB_OK
 * unless the database could not be read.
 */
enum db_rc publication_complete_pending(struct db *db, const struct config *cfg, unsigned min_age,
    unsigned *done, unsigned *failed);

#endif
