/*
 * paystate.h: one payment's life as an explicit state machine over the
 * ledger (lib/ledger.h; docs/ARCHITECTURE.md, Payment state machine). A
 * payment is one (payer, authorization nonce), whatever the rail that
 * carried it; each transition is one call that writes the ledger row and
 * says whether it was recorded, so the caller (fcgi/pay.c) can fail closed:
 * nothing is served that was not recorded, and nothing is charged that is
 * not recorded.
 *
 *   state           ledger row                        means
 *   NEW             none (or not looked at yet)       parsed and bound to this request
 *   RESERVED        reserved                          the facilitator may see it now
 *   VERIFIED        reserved                          /verify said valid: the handler may run
 *   RECLAIMED       reserved (reason unknown_retry)   an unknown outcome claimed for one more try
 *   REVERIFIED      reserved                          ... and verified again
 *   SETTLED         settled                           charged: what it bought may be served
 *   FAILED          failed                            refused; never charged
 *   RELEASED        released                          never charged, not served: reservable again
 *   SETTLE_UNKNOWN  failed (reason settle_unknown)    /settle got no answer: the chain decides
 *   RESUMABLE       settled, earlier, for this URL    (EP_PAY_RESUME rows, or a settlement
 *                                                     known from the chain: late_settled) serve
 *                                                     what it bought
 *
 * A settlement learnt from the chain (PE_CHAIN_USED) is written as
 * settled, late_settled: the identical request may be served from it
 * again until an hour past the authorization's validBefore
 * (PAYSTATE_LATE_SERVE_S, paystate_find), since its
 * header can be rebuilt by anyone from the transfer's calldata and the
 * payer must never be refused. m->late tells the caller that this request
 * presents a payment whose first request is over (its outcome was
 * unknown, or it settled late): a row whose answer is private serves
 * nothing on it (fcgi/pay.c).
 *
 * Return conventions: enum paystate_rc (PAYSTATE_OK is 0).
 */
#ifndef WAYMARK_PAYSTATE_H
#define WAYMARK_PAYSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "ledger.h"
#include "x402.h"

/* Seconds past validBefore before an unused authorization counts as dead (clock skew, a late block). */
#define PAYSTATE_EXPIRY_MARGIN 60
/* Seconds past validBefore that a settlement learnt from the chain still serves the identical request. */
#define PAYSTATE_LATE_SERVE_S 3600

enum pay_state {
	PS_NEW,
	PS_RESERVED,
	PS_VERIFIED,
	PS_RECLAIMED,
	PS_REVERIFIED,
	PS_SETTLED,
	PS_FAILED,
	PS_RELEASED,
	PS_SETTLE_UNKNOWN,
	PS_RESUMABLE,
	PS__MAX
};

enum pay_event {
	PE_RESERVE,            /* NEW -> RESERVED: insert the row (or reclaim a released one) */
	PE_FOUND_SETTLED,      /* NEW -> RESUMABLE: the row is settled for this resource (lookup) */
	PE_FOUND_UNKNOWN,      /* NEW -> SETTLE_UNKNOWN: the row's outcome is unknown (lookup) */
	PE_VERIFIED,           /* RESERVED -> VERIFIED, RECLAIMED -> REVERIFIED (nothing written) */
	PE_VERIFY_REFUSED,     /* RESERVED -> FAILED; RECLAIMED -> SETTLE_UNKNOWN */
	PE_VERIFY_UNAVAILABLE, /* RESERVED -> RELEASED; RECLAIMED -> SETTLE_UNKNOWN */
	PE_NOT_SERVED,         /* VERIFIED -> RELEASED; REVERIFIED -> SETTLE_UNKNOWN */
	PE_SETTLED,            /* VERIFIED, REVERIFIED -> SETTLED, with the transaction */
	PE_SETTLE_REFUSED,     /* VERIFIED -> FAILED; REVERIFIED -> SETTLE_UNKNOWN */
	PE_SETTLE_NO_ANSWER,   /* VERIFIED, REVERIFIED -> SETTLE_UNKNOWN */
	PE_CHAIN_USED,         /* SETTLE_UNKNOWN, RECLAIMED, REVERIFIED -> SETTLED: the transfer landed;
	                        * VERIFIED, FAILED -> SETTLED: it landed although /settle refused */
	PE_CHAIN_VOID,         /* SETTLE_UNKNOWN -> FAILED: its nonce paid something else */
	PE_CHAIN_EXPIRED,      /* SETTLE_UNKNOWN -> FAILED: unused past its validity */
	PE_CLAIM,              /* SETTLE_UNKNOWN -> RECLAIMED: one request tries to settle it now */
	PE__MAX
};

enum paystate_rc {
	PAYSTATE_OK = 0,       /* moved, and the ledger records it */
	PAYSTATE_REFUSED,      /* the ledger said no: the pair is used, or another request claimed it */
	PAYSTATE_UNRECORDED,   /* the row could not be written or read: fail closed */
	PAYSTATE_INVALID,      /* no such transition from this state (a bug): fail closed */
	PAYSTATE_HELD,         /* paystate_find: a request with the identical payment holds it */
};

struct paystate {
	enum pay_state state;
	struct db *db;
	const struct x402_payment *p;
	const struct x402_requirements *rq;
	const char *endpoint_id;     /* the dispatch row the payment is for */
	const struct ledger_bind *bind;  /* how this request presents it (rail, body) */
	bool late;                   /* presented again after its first request ended with an
	                              * unknown outcome or a late settlement (paystate_find) */
	bool has_tx;                 /* RESUMABLE, or the chain showed it USED: tx is the
	                              * settlement transaction */
	uint8_t tx[32];
	uint64_t held_s;             /* PAYSTATE_HELD: seconds before the hold counts as abandoned */
};

/* A payment in state NEW, presented as bind says (NULL only for paystate_reconcile's rows). */
void paystate_init(struct paystate *m, struct db *db, const struct x402_payment *p,
    const struct x402_requirements *rq, const char *endpoint_id, const struct ledger_bind *bind);

/*
 * Apply ev: check that the table allows it from m->state, write the ledger
 * row (tx: the 32-byte settlement transaction or NULL; reason: a
 * facilitator reason code or NULL, for the refusals), and move. On any rc
 * but PAYSTATE_OK the state does not change.
 */
enum paystate_rc paystate_apply(struct paystate *m, enum pay_event ev, const uint8_t *tx,
    const char *reason);

/*
 * Where an existing row of this payment stands for this resource and
 * binding (a NEW payment whose reservation was refused, or an expired
 * one): settled here moves to RESUMABLE when resumable (the row may be
 * shown again), or when late_ok (the authorization is still valid) and the
 * settlement was learnt from the chain (m->late); an unknown outcome moves
 * to SETTLE_UNKNOWN (m->late); PAYSTATE_HELD when
 * the identical payment is reserved by a request still in progress (or one
 * that died less than payment_abandoned_s ago; m->held_s tells how long
 * until it may be claimed), PAYSTATE_REFUSED when none of these (it was
 * used otherwise), PAYSTATE_UNRECORDED when the database failed. The state
 * stays NEW unless PAYSTATE_OK.
 */
enum paystate_rc paystate_find(struct paystate *m, bool resumable, bool late_ok);

/*
 * `waymark payments-reconcile`: every ledger row of unknown outcome (failed
 * settle_unknown, or reserved: its request died) untouched for min_age_s
 * seconds (until then the identical request, or a paid publication's own
 * completion task, resolves it) is put to the chain
 * (x402_authorization_state): a transfer that landed moves it to SETTLED
 * (late_settled), a nonce spent otherwise to FAILED, an unused one past
 * its validBefore (and PAYSTATE_EXPIRY_MARGIN) to FAILED expired_unsettled; an
 * unused one still valid, or an unknown one, stays for a later run. Rows
 * whose settlement the facilitator refused are put to the chain too while
 * their authorization could still land (until an hour past validBefore): a
 * facilitator that broadcast the transfer and then answered success false
 * charged the payer, and the row becomes SETTLED. Counts go to the
 * out-parameters (*open: rows left for later); PAYSTATE_UNRECORDED when
 * the database failed.
 */
enum paystate_rc paystate_reconcile(struct db *db, const struct config *cfg, uint64_t min_age_s,
    uint64_t *settled, uint64_t *voided, uint64_t *open);

/* The target of (from, ev), or PS__MAX when the table has no such transition. */
enum pay_state paystate_next(enum pay_state from, enum pay_event ev);

/* Names for logs and tests ("reserved", "settle"). */
const char *paystate_name(enum pay_state s);
const char *paystate_event_name(enum pay_event e);

/*
 * The per-request deadline: whether /settle may start elapsed_ms after the
 * worker took the request. It must have its whole facilitator timeout, and
 * then what may follow it (a look at the chain, two ledger writes, a
 * second for the answer), before nginx stops waiting
 * (config_remote_timeout_ms); otherwise a settlement could charge a payer
 * whose request nginx has already answered 504. The caller then settles
 * nothing and answers 503, the payment still the payer's.
 */
bool paystate_settle_fits(const struct config *c, uint64_t elapsed_ms);

#endif
