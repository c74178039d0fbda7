/*
 * pay.h: the gatekeeper's step for AUTH_PAID rows (x402 v2,
 * docs/ARCHITECTURE.md, Payments), in this order:
 *
 *   no PAYMENT-SIGNATURE               402 payment_required + PAYMENT-REQUIRED
 *   undecodable, malformed, altered    402 invalid_payment + a fresh PAYMENT-REQUIRED
 *   another resource, price or payee   402 payment_mismatch
 *   (payer, nonce) already recorded    402 payment_already_used
 *   facilitator /verify says invalid   402 payment_rejected (its reason code only)
 *   the handler, response buffered; status >= 400: its answer, nothing settled
 *   facilitator /settle                200 + PAYMENT-RESPONSE, or 402 settlement_failed
 *   facilitator unreachable or failing 503 payment_unavailable, nothing charged
 *
 * Two rails, one path (docs/ARCHITECTURE.md, Payment state machine): every
 * 402 offers x402 (PAYMENT-REQUIRED) and, with mpp_secret set, MPP
 * (WWW-Authenticate: Payment, lib/mpp.h); a request pays with
 * PAYMENT-SIGNATURE or Authorization: Payment (both: 400 two_payments),
 * and is answered on its rail (PAYMENT-RESPONSE or Payment-Receipt). The
 * codes above are the same on both rails.
 *
 * The ledger row is reserved before /verify. Payment headers and payloads
 * are never logged.
 *
 * Paid publication (docs/ARCHITECTURE.md) adds three optional pieces, all
 * generic:
 *   - the row's prepay hook runs first, with the database, paid or not
 *     (it may also name this request's payee, r->pay.pay_to):
 *     it refuses what could never be served (400/409 before any 402) or
 *     answers by itself (e.g. the identical bundle already published);
 *     with a PAYMENT-SIGNATURE it may reserve, and sets r->pay.cancel to
 *     undo that reservation, which runs whenever nothing was charged;
 *   - the handler may set r->pay.finish: the final write, run only after
 *     settlement succeeded (the ledger row is settled by then), which
 *     writes the answer and may make it a 202 when that write fails;
 *   - EP_PAY_RESUME rows: a payment whose ledger row is settled for this
 *     same resource is not refused as used: the handler runs with
 *     r->pay.settled_earlier, nothing is verified or settled again, and
 *     PAYMENT-RESPONSE repeats the earlier transaction;
 *   - EP_PAY_RESUME rows, unknown outcome: when /settle got no answer, the
 *     ledger row says settle_unknown and the answer is 503 asking for the
 *     identical request later (a cancel hook must keep what such a
 *     payment may have paid for). Presented again (even expired), the
 *     chain decides (x402_authorization_state): used, served as settled
 *     earlier; unused and valid, verified and settled now; unused and
 *     expired, refused with nothing charged; unreachable, 503 again.
 *
 * On every paid row: a settlement known only from the chain records and
 * names the transaction of the token's AuthorizationUsed log, and serves
 * the identical request again until an hour past validBefore (anyone can rebuild a
 * landed payment's header), except on EP_PAY_PRIVATE rows, where such a
 * request gets 403 read_by_signature with the receipt and the payer reads
 * by signature; a refusal of /settle is checked against the chain (a
 * transfer that landed is served); a payment is bound to the rail and
 * body it was first presented with (lib/ledger.h), and refused on another
 * before any facilitator call; the
 * identical payment presented while another request holds its
 * reservation (reserved less than payment_abandoned_s ago) gets 503
 * payment_in_progress with Retry-After, nothing written; a settlement's
 * ledger write that fails is made once more before the request gives up.
 */
#ifndef WAYMARK_PAY_H
#define WAYMARK_PAY_H

#include "gate.h"

/* Run the payment checks and, when they pass, r's handler; writes w. */
enum err pay_run(const struct gate *g, struct req *r, struct resp *w);

#endif
