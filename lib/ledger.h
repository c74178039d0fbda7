/*
 * ledger.h: the x402 replay ledger (sql/005_x402_payments.sql), one row
 * per (payer, authorization nonce). A payment is reserved before the
 * facilitator sees it; a second reservation of the same pair fails on the
 * table's primary key, in the database, so it holds with any number of
 * workers and hosts. Only a released row (never charged) can be reserved
 * again, and only for the resource URL it was bound to, by one conditional
 * UPDATE.
 *
 * Return conventions: enum ledger_rc (LEDGER_OK is 0). Every result is
 * the caller's to act on: a payment whose ledger row is not what the
 * caller believes is a charge without a record, so ignoring one does not
 * compile (LEDGER_RESULT).
 */
#ifndef WAYMARK_LEDGER_H
#define WAYMARK_LEDGER_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "x402.h"

#define LEDGER_RESULT __attribute__((warn_unused_result))

enum ledger_rc {
	LEDGER_OK = 0,
	LEDGER_USED,         /* the pair is already recorded (and not released for this URL) */
	LEDGER_UNAVAILABLE,  /* the database failed */
	LEDGER_HELD,         /* reserved by the identical payment's request, still in progress */
};

/*
 * How a payment was first presented (sql/022_payment_binding.sql): the
 * rail that carried it and the SHA-256 of the request body. A row answers
 * only a presentation with the same binding: reserved again (released),
 * found settled or of unknown outcome. Rows written before the binding
 * existed match any.
 */
enum ledger_rail {
	LEDGER_RAIL_X402,     /* PAYMENT-SIGNATURE */
	LEDGER_RAIL_MPP,      /* Authorization: Payment */
};

struct ledger_bind {
	enum ledger_rail rail;
	uint8_t body_digest[32];
};

enum ledger_status {
	LEDGER_SETTLED,
	LEDGER_FAILED,
	LEDGER_RELEASED,
	LEDGER__MAX
};

/*
 * Reserve payment p, bound to rq and to b, for the row endpoint_id (with
 * its validBefore). A released row is reserved again only by the same URL,
 * price, payee and binding.
 */
LEDGER_RESULT enum ledger_rc ledger_reserve(struct db *db, const struct x402_payment *p,
    const struct x402_requirements *rq, const char *endpoint_id, const struct ledger_bind *b);

/*
 * LEDGER_OK when p's row is settled, bound to rq's resource URL, amount
 * and payee, to the row endpoint_id and to b (a payment that already
 * bought this resource), and was reserved with p's very signature
 * (sig_digest: the same (payer, nonce) under another signature is another
 * payment, served nothing); with only_late, only a settlement known from
 * the chain (reason late_settled) counts. Then tx holds its settlement
 * transaction when known (*has_tx). LEDGER_USED otherwise.
 * ledger_unknown_here and ledger_claim_unknown match the signature the
 * same way.
 */
LEDGER_RESULT enum ledger_rc ledger_settled_here(struct db *db, const struct x402_payment *p,
    const struct x402_requirements *rq, const char *endpoint_id, const struct ledger_bind *b,
    bool only_late, uint8_t tx[32], bool *has_tx);

/*
 * LEDGER_OK when p's row, bound to rq and endpoint_id, has an unknown
 * outcome: the facilitator vanished during /settle (failed,
 * settle_unknown), or the request holding it stopped between reservation
 * and settlement (reserved for more than payment_abandoned_s seconds, by
 * the database's clock). The caller asks the chain
 * (x402_authorization_state). LEDGER_HELD when the row is reserved more
 * recently than that: a request with this identical payment is being
 * served (or died too recently to tell); *held_s is how many seconds are
 * left before it counts as abandoned. LEDGER_USED otherwise.
 */
LEDGER_RESULT enum ledger_rc ledger_unknown_here(struct db *db, const struct x402_payment *p,
    const struct x402_requirements *rq, const char *endpoint_id, const struct ledger_bind *b,
    uint64_t *held_s);

/*
 * Claim p's row of unknown outcome for one new settlement attempt (it goes
 * back to reserved, which counts as possibly charged); LEDGER_OK for the
 * one request that claimed it, LEDGER_USED when another did meanwhile.
 */
LEDGER_RESULT enum ledger_rc ledger_claim_unknown(struct db *db, const struct x402_payment *p);

/*
 * Move p's row to status (a settled row is never moved to another
 * status), with the settlement transaction tx (32 bytes, or NULL) and a
 * reason code (or NULL): a facilitator's for a failure, late_settled for a
 * settlement known from the chain. 0 or -1.
 */
LEDGER_RESULT int ledger_mark(struct db *db, const struct x402_payment *p, enum ledger_status status,
    const uint8_t *tx, const char *reason);

/*
 * Delete failed and released rows (never charged) whose authorization
 * expired more than keep_s seconds before now (rows without validBefore:
 * created that long ago); never a settled row, nor one of unknown outcome
 * (failed settle_unknown), which the chain still has to decide. Then the
 * private-tip grants left without a payment row. Deleted in batches, so
 * no transaction grows large; *deleted counts the payment rows.
 */
LEDGER_RESULT enum ledger_rc ledger_prune(struct db *db, uint64_t keep_s, uint64_t now, uint64_t *deleted);

#endif
