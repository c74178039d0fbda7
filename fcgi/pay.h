/*
 * pay.h: the gatekeeper's step for AUTH_PAID rows (x402 v2, DESIGN.md
 * "Payments"), in this order:
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
 * The ledger row is reserved before /verify. Payment headers and payloads
 * are never logged.
 */
#ifndef WAYMARK_PAY_H
#define WAYMARK_PAY_H

#include "gate.h"

/* Run the payment checks and, when they pass, r's handler; writes w. */
enum err pay_run(const struct gate *g, struct req *r, struct resp *w);

#endif
