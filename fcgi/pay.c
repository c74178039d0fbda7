#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "b64json.h"
#include "clock.h"
#include "facilitator.h"
#include "hex.h"
#include "json.h"
#include "ledger.h"
#include "mpp.h"
#include "paymeter.h"
#include "paystate.h"
#include "pay.h"
#include "sha256.h"
#include "x402.h"
#include "banned.h"

#define PAY_HEADER_MAX (24 * 1024)

#define HELD_RETRY_S 5     /* the longest Retry-After for a payment held by another request */
#define OUTCOME_UNKNOWN "The payment's outcome is not known yet (the facilitator did not " \
	"answer); nothing was served or published. Send the identical request with the same " \
	"payment (PAYMENT-SIGNATURE, or Authorization: Payment) again later: it is served once " \
	"the payment shows on chain, is never charged twice, and fails with nothing charged if " \
	"the authorization expires unused. Do not sign a replacement payment."
/* The same, where the answer is private (EP_PAY_PRIVATE): no replayed header ever carries it. */
#define OUTCOME_UNKNOWN_PRIVATE "The payment's outcome is not known yet (the facilitator did " \
	"not answer); nothing was served. Do not sign a replacement payment. Once the payment " \
	"shows on chain (the identical request then says so), the paying wallet may read this " \
	"resource free by its own signature, as the spec's signed unlock does; the payment " \
	"header itself never carries it again. If the authorization expires unused, nothing " \
	"is charged."

/*
 * What a paid row offers one request, on both rails, and which rail the
 * request paid on (docs/PROTOCOL.md, MPP payments): x402's requirements
 * always; an MPP challenge when mpp_secret is set and one could be made.
 */
struct rails {
	const struct config *cfg;
	struct x402_requirements rq;
	bool mpp_offered;
	bool mpp_used;                  /* the request's payment is an MPP credential */
	char mpp_id[48];                /* the challenge it answered (for its receipt) */
	struct mpp_challenge mpp;
	struct ledger_bind bind;        /* the rail and body this request presents its payment with */
	bool private_row;               /* EP_PAY_PRIVATE: the answer is for the payer alone */
};

static const char *
outcome_unknown(const struct rails *rl)
{
	return rl->private_row ? OUTCOME_UNKNOWN_PRIVATE : OUTCOME_UNKNOWN;
}

/* A 402 (or other) error with fresh challenges: PAYMENT-REQUIRED, and WWW-Authenticate: Payment. */
static enum err
challenge(struct resp *w, const struct rails *rl, enum err e, const char *msg)
{
	json_object *pr = x402_payment_required_json(&rl->rq, err_info(e)->code);

	buf_reset(&w->headers);
	b64json_header(w, "PAYMENT-REQUIRED", pr, PAY_HEADER_MAX);
	json_object_put(pr);
	if (rl->mpp_offered) {
		struct buf h;

		buf_init(&h, PAY_HEADER_MAX);
		if (mpp_challenge_header(&rl->mpp, &h) == 0)
			resp_header(w, "WWW-Authenticate", buf_str(&h));
		buf_release(&h);
	}
	if (msg)
		return resp_fail(w, e, NULL, "%s", msg);
	return resp_fail(w, e, NULL, NULL);
}

/*
 * The receipt of a payment: on x402, PAYMENT-RESPONSE {success,
 * transaction, network, payer[, errorReason]}; on MPP, Payment-Receipt,
 * and only on success (an MPP failure carries a fresh challenge instead).
 */
static void
payment_response(struct resp *w, const struct rails *rl, const struct x402_payment *p,
    bool success, const char *tx, const char *reason)
{
	json_object *o;
	char a[ADDR_TEXT_LEN + 1];

	if (rl->mpp_used) {
		struct buf h;

		if (!success)
			return;
		buf_init(&h, PAY_HEADER_MAX);
		if (mpp_receipt_header(rl->mpp_id, tx, rl->cfg, (uint64_t)time(NULL), &h) == 0)
			resp_header(w, "Payment-Receipt", buf_str(&h));
		buf_release(&h);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "success", json_object_new_boolean(success));
	if (!success)
		json_object_object_add(o, "errorReason", json_object_new_string(reason));
	json_object_object_add(o, "transaction", json_object_new_string(tx ? tx : ""));
	json_object_object_add(o, "network", json_object_new_string(rl->rq.network));
	json_object_object_add(o, "payer", json_object_new_string(addr_format(&p->from, a)));
	b64json_header(w, "PAYMENT-RESPONSE", o, PAY_HEADER_MAX);
	json_object_put(o);
}

static void
log_unavailable(const struct req *r, const char *what)
{
	fprintf(stderr, "waymark: %s %s: payment_unavailable (%s)\n", r->method_text, r->ep->id, what);
}

/*
 * Count a failed payment attempt of this request's client (lib/paymeter.h).
 * A count that cannot be written is logged and does not change the answer.
 */
static void
count_failure(const struct gate *g, const struct req *r)
{
	struct paymeter_client c;

	if (g->cfg->payment_failures_per_min == 0 || paymeter_client(r->remote_addr, &c) < 0)
		return;
	if (db_connect(g->db) != DB_OK || paymeter_fail(g->db, &c, (uint64_t)time(NULL)) != DB_OK)
		fprintf(stderr, "waymark: %s %s: a failed payment could not be counted\n", r->method_text,
		    r->ep->id);
}

/*
 * Whether this request's client used up its failed payment attempts this
 * minute: then 429 with Retry-After, before any ledger row or facilitator
 * call. ERR_NONE to go on.
 */
static enum err
metered(const struct gate *g, const struct req *r, struct resp *w)
{
	struct paymeter_client c;
	uint64_t after = 0;
	bool over = false;
	char s[24];

	if (g->cfg->payment_failures_per_min == 0 || paymeter_client(r->remote_addr, &c) < 0)
		return ERR_NONE;
	if (db_connect(g->db) != DB_OK || paymeter_over(g->db, &c, g->cfg->payment_failures_per_min,
	    (uint64_t)time(NULL), &over, &after) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!over)
		return ERR_NONE;
	snprintf(s, sizeof(s), "%" PRIu64, after);
	buf_reset(&w->headers);
	resp_header(w, "Retry-After", s);
	return resp_fail(w, ERR_RATE_LIMITED, NULL, "Too many failed payments came from this address "
	    "this minute; nothing was verified or charged. Retry after %" PRIu64 " seconds with a "
	    "valid payment.", after);
}

/*
 * Record a settlement (PE_SETTLED, PE_CHAIN_USED): once the USDC moved,
 * the row must say so. The write is idempotent (the same row, status and
 * transaction), so when it fails, perhaps after it committed on a node
 * that then died, it is made once more, on a new connection (the next
 * node, lib/db.h), before the request gives up as unrecorded.
 */
static enum paystate_rc
record_settled(struct paystate *m, enum pay_event ev, const uint8_t *tx)
{
	enum paystate_rc rc = paystate_apply(m, ev, tx, NULL);

	if (rc == PAYSTATE_UNRECORDED) {
		fprintf(stderr, "waymark: payment ledger: the settlement's write failed (%s); "
		    "writing it once more\n", paystate_event_name(ev));
		rc = paystate_apply(m, ev, tx, NULL);
	}
	return rc;
}

/*
 * What the chain says of m's authorization; on USED, m->tx holds the
 * transfer's transaction (m->has_tx), which PE_CHAIN_USED records and the
 * receipt names.
 */
static enum x402_auth_state
chain_state(const struct gate *g, struct paystate *m)
{
	enum x402_auth_state st = x402_authorization_state(g->cfg, m->p, m->tx);

	m->has_tx = st == X402_AUTH_USED;
	return st;
}

/* Record that the chain showed m's transfer (PE_CHAIN_USED, with its transaction). */
static enum paystate_rc
chain_used(struct req *r, struct paystate *m)
{
	if (m->has_tx)
		hex_encode(m->tx, 32, r->pay.tx);
	return record_settled(m, PE_CHAIN_USED, m->has_tx ? m->tx : NULL);
}

/*
 * A ledger write that did not happen: the request fails closed. Before any
 * charge nothing was served or charged; after the charge nothing is served
 * either, and the identical request later finds the outcome on chain.
 */
static enum err
unrecorded(struct req *r, struct resp *w, const struct rails *rl, bool after_charge)
{
	fprintf(stderr, "waymark: %s %s: the payment ledger could not be written\n", r->method_text,
	    r->ep->id);
	buf_reset(&w->headers);
	return resp_fail(w, after_charge ? ERR_PAYMENT_UNAVAILABLE : ERR_DATABASE_UNAVAILABLE, NULL,
	    "%s", after_charge ? outcome_unknown(rl) : "The payment could not be recorded; nothing was "
	    "served or charged. Try again shortly.");
}

/*
 * The prepay hook of the row, when it has one: 200 with an empty body
 * after it means "go on"; anything it wrote is the answer.
 */
static bool
prepay_answered(const struct resp *w, enum err e)
{
	return e != ERR_NONE || w->status != 200 || w->body.len > 0;
}

/*
 * Serve what a payment that is already settled bought, without verifying
 * or settling it again: an EP_PAY_RESUME row's payment shown again (the
 * handler sees r->pay.settled_earlier), or a payment whose unknown outcome
 * the chain just showed settled.
 */
static enum err
serve_settled(struct req *r, struct resp *w, const struct rails *rl, const struct paystate *m)
{
	enum err e;

	r->pay.settled_earlier = (r->ep->flags & EP_PAY_RESUME) != 0;
	if (m->has_tx)
		hex_encode(m->tx, 32, r->pay.tx);
	e = r->ep->handler(r, w);
	if (w->status >= 400)
		return e;
	payment_response(w, rl, m->p, true, r->pay.tx, NULL);
	return r->pay.finish ? r->pay.finish(r, w) : e;
}

/*
 * The answer of a private row (EP_PAY_PRIVATE) whose payment settled but
 * whose content may not leave on this request: the payment header of a
 * landed transfer can be rebuilt by anyone from its calldata, so a request
 * presenting it again (m->late) is told it was charged (PAYMENT-RESPONSE
 * or Payment-Receipt with the transaction) and that the paying wallet reads
 * by signature: the row's handler recorded that grant before settlement
 * (docs/PROTOCOL.md, Private tips).
 */
static enum err
withhold(struct req *r, struct resp *w, const struct rails *rl, const struct paystate *m)
{
	enum err e;

	if (m->has_tx)
		hex_encode(m->tx, 32, r->pay.tx);
	buf_reset(&w->headers);
	e = resp_fail(w, ERR_READ_BY_SIGNATURE, NULL, NULL);
	payment_response(w, rl, m->p, true, r->pay.tx, NULL);
	return e;
}

/*
 * A settlement learnt late (m->late: the payment's first request is over
 * and its transfer is public): a public row serves what it bought again
 * (a fresh read), a private row withholds it.
 */
static enum err
serve_late(struct req *r, struct resp *w, const struct rails *rl, const struct paystate *m)
{
	if (rl->private_row && m->late)
		return withhold(r, w, rl, m);
	return serve_settled(r, w, rl, m);
}

/*
 * A payment whose outcome is unknown (SETTLE_UNKNOWN), presented again:
 * the chain decides.
 *   used by this transfer   it settled: serve what it bought (*charged)
 *   used otherwise (void)   it never pays: refused, nothing served
 *   unused, still valid     claim it (RECLAIMED) and return ERR_NONE with
 *                           nothing written: the caller verifies and
 *                           settles it now (*retry); an EIP-3009 nonce
 *                           moves money once, so this never charges twice
 *   unused, expired         past validBefore + PAYSTATE_EXPIRY_MARGIN: it never will
 *                           move money; nothing was charged
 *   otherwise               still unknown: 503
 */
static enum err
resolve_unknown(const struct gate *g, struct req *r, struct resp *w,
    const struct rails *rl, struct paystate *m, bool *charged, bool *retry)
{
	uint64_t now = (uint64_t)time(NULL);

	switch (chain_state(g, m)) {
	case X402_AUTH_USED:
		if (chain_used(r, m) != PAYSTATE_OK)
			return unrecorded(r, w, rl, true);
		*charged = true;
		return serve_late(r, w, rl, m);
	case X402_AUTH_VOID:
		if (paystate_apply(m, PE_CHAIN_VOID, NULL, NULL) != PAYSTATE_OK)
			return unrecorded(r, w, rl, false);
		return challenge(w, rl, ERR_PAYMENT_REJECTED, "This authorization's nonce was used without "
		    "paying this resource (canceled, or spent by another authorization): nothing is served "
		    "for it.");
	case X402_AUTH_UNUSED:
		if (m->p->valid_before + PAYSTATE_EXPIRY_MARGIN < now) {
			if (paystate_apply(m, PE_CHAIN_EXPIRED, NULL, NULL) != PAYSTATE_OK)
				return unrecorded(r, w, rl, false);
			return challenge(w, rl, ERR_PAYMENT_MISMATCH, "This payment authorization expired "
			    "without being settled: nothing was charged. Sign a new payment.");
		}
		if (m->p->payload == NULL || m->p->valid_before <= now)
			break;          /* expiring: wait until it is surely dead */
		switch (paystate_apply(m, PE_CLAIM, NULL, NULL)) {
		case PAYSTATE_OK:
			*retry = true;
			return ERR_NONE;
		case PAYSTATE_REFUSED:
			resp_header(w, "Retry-After", "1");
			return resp_fail(w, ERR_PAYMENT_IN_PROGRESS, NULL, "This payment is being settled "
			    "by another request; send the identical request again in a moment.");
		default:
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		}
	default:
		break;
	}
	return resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "%s", outcome_unknown(rl));
}

/*
 * A payment the ledger already holds (its reservation was refused, or it
 * is too late to pay with): served again when it settled for this
 * resource of an EP_PAY_RESUME row, resolved from the chain when its
 * outcome is unknown, refused as used otherwise. ERR_NONE with *retry when
 * it was claimed for one more settlement attempt.
 */
static enum err
known_payment(const struct gate *g, struct req *r, struct resp *w,
    const struct rails *rl, struct paystate *m, bool *charged, bool *retry,
    enum err refusal, const char *msg)
{
	/* A settlement learnt from the chain serves the identical public
	 * request again until PAYSTATE_LATE_SERVE_S past its validBefore
	 * (lib/paystate.h), so a payer whose retry comes after the chain or
	 * payments-reconcile told is served too. A private row finds any
	 * settlement of the identical payment, to withhold its answer with the
	 * receipt, however long after. */
	switch (paystate_find(m, (r->ep->flags & EP_PAY_RESUME) != 0 || rl->private_row,
	    rl->private_row || m->p->valid_before + PAYSTATE_LATE_SERVE_S > (uint64_t)time(NULL))) {
	case PAYSTATE_OK:
		if (rl->private_row)
			m->late = true;         /* shown again: withheld */
		break;
	case PAYSTATE_REFUSED:
		return challenge(w, rl, refusal, msg);
	case PAYSTATE_HELD: {
		/* Its holder answers within moments, or it counts as abandoned
		 * after held_s and the identical request may claim it. */
		char after[24];

		snprintf(after, sizeof(after), "%" PRIu64, m->held_s < HELD_RETRY_S ? m->held_s : HELD_RETRY_S);
		buf_reset(&w->headers);
		resp_header(w, "Retry-After", after);
		return resp_fail(w, ERR_PAYMENT_IN_PROGRESS, NULL, NULL);
	}
	default:
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	if (m->state == PS_RESUMABLE) {
		*charged = true;
		return serve_late(r, w, rl, m);
	}
	return resolve_unknown(g, r, w, rl, m, charged, retry);
}

/*
 * Settle after the handler served: 200 with PAYMENT-RESPONSE, or w
 * rewritten. A claimed unknown outcome (REVERIFIED) that the facilitator
 * refuses may have landed meanwhile: the chain tells. With no answer from
 * /settle, the chain is asked at once, and the identical request later.
 */
static enum err
settle(const struct gate *g, struct req *r, struct resp *w, const struct rails *rl,
    struct paystate *m, json_object *reqs, bool *charged)
{
	struct fac_result fr;
	json_object *t = NULL;
	const char *tx = "";
	uint8_t txb[32];
	bool have_tx = false, retried = m->state == PS_REVERIFIED;
	enum err e = ERR_NONE;

	switch (facilitator_call(g->cfg, true, m->p->payload, reqs, &fr)) {
	case FAC_OK:
		if (json_object_object_get_ex(fr.reply, "transaction", &t) &&
		    json_object_is_type(t, json_type_string) &&
		    hex_decode_fixed(json_object_get_string(t), (size_t)json_object_get_string_len(t), txb, 32,
		    true) == 0) {
			tx = json_object_get_string(t);
			have_tx = true;
			snprintf(r->pay.tx, sizeof(r->pay.tx), "%s", tx);
		}
		if (record_settled(m, PE_SETTLED, have_tx ? txb : NULL) != PAYSTATE_OK) {
			e = unrecorded(r, w, rl, true);
			break;
		}
		*charged = true;
		if (rl->private_row && m->late) {
			/* A payment shown again after an unknown outcome, settled
			 * now: charged, but its header may have been seen, so the
			 * answer carries no note; the payer reads by signature. */
			e = withhold(r, w, rl, m);
			break;
		}
		payment_response(w, rl, m->p, true, have_tx ? tx : "", NULL);
		break;
	case FAC_REFUSED:
		/* A refusal is checked against the chain: a facilitator may have
		 * broadcast the transfer and then answered success false (or the
		 * claimed unknown outcome landed meanwhile). Charged: served. */
		if (chain_state(g, m) == X402_AUTH_USED) {
			if (chain_used(r, m) != PAYSTATE_OK) {
				e = unrecorded(r, w, rl, true);
				break;
			}
			*charged = true;
			/* Learnt from the chain: on a private row the transfer's
			 * calldata (public) could have rebuilt this header. */
			if (rl->private_row)
				e = withhold(r, w, rl, m);
			else
				payment_response(w, rl, m->p, true, r->pay.tx, NULL);
			break;
		}
		if (paystate_apply(m, PE_SETTLE_REFUSED, NULL, fr.reason) != PAYSTATE_OK) {
			e = unrecorded(r, w, rl, retried);
			break;
		}
		if (retried) {          /* still unknown */
			buf_reset(&w->headers);
			e = resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "%s", outcome_unknown(rl));
			break;
		}
		buf_reset(&w->body);
		e = challenge(w, rl, ERR_SETTLEMENT_FAILED, NULL);
		payment_response(w, rl, m->p, false, NULL, fr.reason);
		break;
	case FAC_UNAVAILABLE:
		/* The transfer may or may not have happened: never reuse this
		 * payment for anything else; the chain decides. */
		log_unavailable(r, fr.err);
		if (paystate_apply(m, PE_SETTLE_NO_ANSWER, NULL, NULL) != PAYSTATE_OK) {
			e = unrecorded(r, w, rl, true);
			break;
		}
		if (chain_state(g, m) == X402_AUTH_USED) {
			if (chain_used(r, m) != PAYSTATE_OK) {
				e = unrecorded(r, w, rl, true);
				break;
			}
			*charged = true;
			/* Learnt from the chain: on a private row the transfer's
			 * calldata (public) could have rebuilt this header. */
			if (rl->private_row)
				e = withhold(r, w, rl, m);
			else
				payment_response(w, rl, m->p, true, r->pay.tx, NULL);
			break;
		}
		buf_reset(&w->headers);
		e = resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "%s", outcome_unknown(rl));
		break;
	}
	fac_result_release(&fr);
	return e;
}

/* Milliseconds since the worker took r. */
static uint64_t
elapsed_ms(const struct req *r)
{
	uint64_t now = clock_ms();

	if (r->started_ms == 0)
		return 0;       /* not taken by a serving thread (a test's own request) */
	return now > r->started_ms ? now - r->started_ms : 0;
}

/* The whole paid step; pay_run adds what every answer of a paid row carries. */
static enum err
pay_serve(const struct gate *g, struct req *r, struct resp *w, struct rails *rl)
{
	struct x402_payment p = { 0 };
	struct fac_result fr = { 0 };
	struct paystate m;
	json_object *reqs = NULL;
	const char *hdr = req_header(r, "payment-signature");
	const char *authz = req_header(r, "authorization");
	const char *cred = mpp_is_credential(authz) ? authz : NULL;
	uint64_t now = (uint64_t)time(NULL);
	char msg[256];
	bool charged = false, retry = false, admitted = false;
	struct admit_ticket ticket = { -1 };
	enum x402_parse parsed;
	enum err e;

	if (x402_requirements_init(&rl->rq, g->cfg, r->ep->price_usdc, r->path, r->query, r->ep->summary,
	    msg, sizeof(msg)) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (hdr && cred)
		return resp_fail(w, ERR_TWO_PAYMENTS, NULL, NULL);
	r->pay.present = hdr != NULL || cred != NULL;
	if (r->ep->prepay) {
		/* Business checks before any payment is asked for; with a
		 * payment, the hook may also reserve (undone by its cancel). */
		if (db_connect(g->db) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		r->db = g->db;
		e = r->ep->prepay(r, w);
		if (prepay_answered(w, e))
			return e;
		/* A payee of this request's own (docs/PROTOCOL.md, Private tips). */
		if (r->pay.pay_to_set)
			memcpy(rl->rq.pay_to.b, r->pay.pay_to, sizeof(rl->rq.pay_to.b));
	}
	/* The MPP challenge carries the same price, payee and resource. */
	rl->mpp_offered = g->cfg->mpp_secret[0] != '\0' && mpp_challenge_init(&rl->mpp, g->cfg, &rl->rq,
	    r->method_text, r->body, r->body_len, now, msg, sizeof(msg)) == 0;
	if (g->cfg->mpp_secret[0] != '\0' && !rl->mpp_offered)
		fprintf(stderr, "waymark: %s %s: no MPP challenge (%s)\n", r->method_text, r->ep->id, msg);
	if (hdr == NULL && cred == NULL)
		return challenge(w, rl, ERR_PAYMENT_REQUIRED, NULL);
	if (cred && !rl->mpp_offered) {
		/* goto out: a prepay hook's reservation is undone. */
		e = challenge(w, rl, ERR_INVALID_PAYMENT, "This endpoint takes no MPP payment right now; "
		    "pay the x402 challenge.");
		goto out;
	}
	if ((e = metered(g, r, w)) != ERR_NONE)
		goto out;
	rl->mpp_used = cred != NULL;
	/* One authorization, one rail, one body (sql/022_payment_binding.sql). */
	rl->bind.rail = rl->mpp_used ? LEDGER_RAIL_MPP : LEDGER_RAIL_X402;
	if (sha256(r->body ? (const void *)r->body : "", r->body ? r->body_len : 0, rl->bind.body_digest) < 0) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	/* Bounded waiting on the facilitator: past payment_max_in_flight
	 * payments in progress on this host's pool (either rail), refuse at
	 * once, nothing reserved or charged, rather than queue behind a slow
	 * facilitator. */
	if (g->pay_admit && !(admitted = admit_enter(g->pay_admit, &ticket))) {
		resp_header(w, "Retry-After", "1");
		e = resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "Too many payments are in progress right now; "
		    "nothing was charged. Retry shortly with the same payment.");
		goto out;
	}
	paystate_init(&m, g->db, &p, &rl->rq, r->ep->id, &rl->bind);
	if (rl->mpp_used)
		parsed = mpp_credential_parse(cred, &rl->mpp, g->cfg, &rl->rq, now, &p, rl->mpp_id, msg,
		    sizeof(msg));
	else
		parsed = x402_payment_parse(hdr, &rl->rq, now, &p, msg, sizeof(msg));
	switch (parsed) {
	case X402_PARSE_OK:
		break;
	case X402_PARSE_EXPIRED:
		/* Too late to pay with; but it may have paid here already. */
		memcpy(r->pay.payer, p.from.b, sizeof(r->pay.payer));
		memcpy(r->pay.nonce, p.nonce, sizeof(r->pay.nonce));
		if (db_connect(g->db) == DB_OK) {
			r->db = g->db;
			e = known_payment(g, r, w, rl, &m, &charged, &retry, ERR_PAYMENT_MISMATCH, msg);
		} else {
			e = challenge(w, rl, ERR_PAYMENT_MISMATCH, msg);
		}
		goto out;
	case X402_PARSE_MISMATCH:
		e = challenge(w, rl, ERR_PAYMENT_MISMATCH, msg);
		goto out;
	case X402_PARSE_NOMEM:
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	default:
		count_failure(g, r);
		e = challenge(w, rl, ERR_INVALID_PAYMENT, msg);
		goto out;
	}
	memcpy(r->pay.payer, p.from.b, sizeof(r->pay.payer));
	memcpy(r->pay.nonce, p.nonce, sizeof(r->pay.nonce));
	if (db_connect(g->db) != DB_OK) {
		e = resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		goto out;
	}
	r->db = g->db;
	switch (paystate_apply(&m, PE_RESERVE, NULL, NULL)) {
	case PAYSTATE_OK:
		break;
	case PAYSTATE_REFUSED:
		e = known_payment(g, r, w, rl, &m, &charged, &retry, ERR_PAYMENT_USED, NULL);
		if (!retry)
			goto out;
		break;          /* claimed, unused and still valid: verify and settle it now */
	default:
		e = resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		goto out;
	}
	reqs = x402_requirements_json(&rl->rq);
	switch (facilitator_call(g->cfg, false, p.payload, reqs, &fr)) {
	case FAC_OK:
		if (paystate_apply(&m, PE_VERIFIED, NULL, NULL) != PAYSTATE_OK) {
			e = unrecorded(r, w, rl, false);
			goto out;
		}
		break;
	case FAC_REFUSED:
		if (m.state == PS_RECLAIMED) {
			/* Perhaps refused because the earlier settlement just landed:
			 * the outcome stays the chain's to tell. */
			if (chain_state(g, &m) == X402_AUTH_USED) {
				if (chain_used(r, &m) != PAYSTATE_OK) {
					e = unrecorded(r, w, rl, true);
					goto out;
				}
				charged = true;
				e = serve_late(r, w, rl, &m);
				goto out;
			}
			e = paystate_apply(&m, PE_VERIFY_REFUSED, NULL, NULL) != PAYSTATE_OK ?
			    unrecorded(r, w, rl, true) : resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "%s", outcome_unknown(rl));
			goto out;
		}
		count_failure(g, r);
		if (paystate_apply(&m, PE_VERIFY_REFUSED, NULL, fr.reason) != PAYSTATE_OK) {
			e = unrecorded(r, w, rl, false);
			goto out;
		}
		snprintf(msg, sizeof(msg), "The facilitator found the payment invalid (%s).", fr.reason);
		e = challenge(w, rl, ERR_PAYMENT_REJECTED, msg);
		goto out;
	case FAC_UNAVAILABLE:
		log_unavailable(r, fr.err);
		if (paystate_apply(&m, PE_VERIFY_UNAVAILABLE, NULL, NULL) != PAYSTATE_OK) {
			e = unrecorded(r, w, rl, m.state == PS_RECLAIMED);
			goto out;
		}
		e = m.state == PS_SETTLE_UNKNOWN ? resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "%s",
		    outcome_unknown(rl)) : resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, NULL);
		goto out;
	}
	e = r->ep->handler(r, w);
	if (w->status >= 400) {
		/* Not served: nothing is settled, and the payment stays the
		 * payer's (an unknown outcome stays unknown). The handler's
		 * refusal is the answer either way. */
		if (paystate_apply(&m, PE_NOT_SERVED, NULL, NULL) != PAYSTATE_OK)
			fprintf(stderr, "waymark: %s %s: not served, and the payment ledger could not be "
			    "written\n", r->method_text, r->ep->id);
		goto out;
	}
	/* The per-request deadline (lib/paystate.h): too late to settle
	 * before nginx stops waiting, so nothing is charged. */
	if (!paystate_settle_fits(g->cfg, elapsed_ms(r))) {
		bool unknown = m.state == PS_REVERIFIED;

		fprintf(stderr, "waymark: %s %s: %" PRIu64 " ms taken, too late to settle; nothing charged\n",
		    r->method_text, r->ep->id, elapsed_ms(r));
		if (paystate_apply(&m, PE_NOT_SERVED, NULL, NULL) != PAYSTATE_OK) {
			e = unrecorded(r, w, rl, unknown);
			goto out;
		}
		buf_reset(&w->headers);
		e = unknown ? resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "%s", outcome_unknown(rl)) :
		    resp_fail(w, ERR_PAYMENT_UNAVAILABLE, NULL, "This request took too long to be settled "
		    "before the web server stops waiting for it; nothing was settled or charged. Send "
		    "it again with the same payment.");
		goto out;
	}
	e = settle(g, r, w, rl, &m, reqs, &charged);
	if (charged && r->pay.finish)
		e = r->pay.finish(r, w);
out:
	/* Cancel hooks remove only what no payment may have paid for, so they
	 * also run when a resumed handler refused. */
	if ((!charged || w->status >= 400) && r->pay.cancel && r->db)
		r->pay.cancel(r);
	if (admitted)
		admit_leave(g->pay_admit, &ticket);
	fac_result_release(&fr);
	json_object_put(reqs);
	x402_payment_release(&p);
	return e;
}

enum err
pay_run(const struct gate *g, struct req *r, struct resp *w)
{
	struct rails *rl = calloc(1, sizeof(*rl));
	enum err e;

	if (rl == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	rl->cfg = g->cfg;
	rl->private_row = (r->ep->flags & EP_PAY_PRIVATE) != 0;
	e = pay_serve(g, r, w, rl);
	/* The gatekeeper exposes the challenges and receipts of both rails to a
	 * browser's script (lib/cors.h). */
	/* Payments unavailable (facilitator down or slow, outcome unknown):
	 * the client is told when to try again. */
	if (w->status == 503 && strstr(buf_str(&w->headers), "Retry-After:") == NULL)
		resp_header(w, "Retry-After", "5");
	free(rl);
	return e;
}
