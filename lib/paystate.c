/*
 * paystate.c: the payment state machine (paystate.h). The table below is
 * the whole of it: every move a payment can make, and the one ledger write
 * that records it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hex.h"
#include "ledger.h"
#include "paystate.h"
#include "banned.h"

/* What a transition writes. */
enum write {
	W_NONE,        /* nothing: an in-memory step, or a lookup that found the row */
	W_RESERVE,     /* ledger_reserve */
	W_CLAIM,       /* ledger_claim_unknown */
	W_SETTLED,     /* ledger_mark settled (with the transaction when known) */
	W_FAILED,      /* ledger_mark failed with the facilitator's reason */
	W_RELEASED,    /* ledger_mark released */
	W_UNKNOWN,     /* ledger_mark failed, settle_unknown */
	W_LATE,        /* ledger_mark settled, late_settled (learnt from the chain) */
};

static const struct transition {
	enum pay_state from;
	enum pay_event ev;
	enum pay_state to;
	enum write write;
	const char *reason;    /* the reason code written, when the caller gives none */
} table[] = {
	{ PS_NEW, PE_RESERVE, PS_RESERVED, W_RESERVE, NULL },
	{ PS_NEW, PE_FOUND_SETTLED, PS_RESUMABLE, W_NONE, NULL },
	{ PS_NEW, PE_FOUND_UNKNOWN, PS_SETTLE_UNKNOWN, W_NONE, NULL },

	{ PS_RESERVED, PE_VERIFIED, PS_VERIFIED, W_NONE, NULL },
	{ PS_RESERVED, PE_VERIFY_REFUSED, PS_FAILED, W_FAILED, "verify_refused" },
	{ PS_RESERVED, PE_VERIFY_UNAVAILABLE, PS_RELEASED, W_RELEASED, "verify_unavailable" },

	{ PS_VERIFIED, PE_NOT_SERVED, PS_RELEASED, W_RELEASED, "handler_failed" },
	{ PS_VERIFIED, PE_SETTLED, PS_SETTLED, W_SETTLED, NULL },
	{ PS_VERIFIED, PE_SETTLE_REFUSED, PS_FAILED, W_FAILED, "settle_refused" },
	{ PS_VERIFIED, PE_SETTLE_NO_ANSWER, PS_SETTLE_UNKNOWN, W_UNKNOWN, NULL },
	/* /settle refused, but the transfer is on chain: charged, so served. */
	{ PS_VERIFIED, PE_CHAIN_USED, PS_SETTLED, W_LATE, NULL },
	{ PS_FAILED, PE_CHAIN_USED, PS_SETTLED, W_LATE, NULL },

	/* A claimed unknown outcome stays unknown unless it settles now or the chain shows it. */
	{ PS_RECLAIMED, PE_VERIFIED, PS_REVERIFIED, W_NONE, NULL },
	{ PS_RECLAIMED, PE_VERIFY_REFUSED, PS_SETTLE_UNKNOWN, W_UNKNOWN, NULL },
	{ PS_RECLAIMED, PE_VERIFY_UNAVAILABLE, PS_SETTLE_UNKNOWN, W_UNKNOWN, NULL },
	{ PS_RECLAIMED, PE_CHAIN_USED, PS_SETTLED, W_LATE, NULL },
	{ PS_REVERIFIED, PE_NOT_SERVED, PS_SETTLE_UNKNOWN, W_UNKNOWN, NULL },
	{ PS_REVERIFIED, PE_SETTLED, PS_SETTLED, W_SETTLED, NULL },
	{ PS_REVERIFIED, PE_SETTLE_REFUSED, PS_SETTLE_UNKNOWN, W_UNKNOWN, NULL },
	{ PS_REVERIFIED, PE_SETTLE_NO_ANSWER, PS_SETTLE_UNKNOWN, W_UNKNOWN, NULL },
	{ PS_REVERIFIED, PE_CHAIN_USED, PS_SETTLED, W_LATE, NULL },

	{ PS_SETTLE_UNKNOWN, PE_CHAIN_USED, PS_SETTLED, W_LATE, NULL },
	{ PS_SETTLE_UNKNOWN, PE_CHAIN_VOID, PS_FAILED, W_FAILED, "authorization_void" },
	{ PS_SETTLE_UNKNOWN, PE_CHAIN_EXPIRED, PS_FAILED, W_FAILED, "expired_unsettled" },
	{ PS_SETTLE_UNKNOWN, PE_CLAIM, PS_RECLAIMED, W_CLAIM, NULL },
};

static const char *const state_names[PS__MAX] = {
	[PS_NEW] = "new", [PS_RESERVED] = "reserved", [PS_VERIFIED] = "verified",
	[PS_RECLAIMED] = "reclaimed", [PS_REVERIFIED] = "reverified", [PS_SETTLED] = "settled",
	[PS_FAILED] = "failed", [PS_RELEASED] = "released", [PS_SETTLE_UNKNOWN] = "settle_unknown",
	[PS_RESUMABLE] = "resumable",
};

static const char *const event_names[PE__MAX] = {
	[PE_RESERVE] = "reserve", [PE_FOUND_SETTLED] = "found_settled",
	[PE_FOUND_UNKNOWN] = "found_unknown", [PE_VERIFIED] = "verified",
	[PE_VERIFY_REFUSED] = "verify_refused", [PE_VERIFY_UNAVAILABLE] = "verify_unavailable",
	[PE_NOT_SERVED] = "not_served", [PE_SETTLED] = "settled",
	[PE_SETTLE_REFUSED] = "settle_refused", [PE_SETTLE_NO_ANSWER] = "settle_no_answer",
	[PE_CHAIN_USED] = "chain_used", [PE_CHAIN_VOID] = "chain_void",
	[PE_CHAIN_EXPIRED] = "chain_expired", [PE_CLAIM] = "claim",
};

const char *
paystate_name(enum pay_state s)
{
	return (unsigned)s < PS__MAX ? state_names[s] : "?";
}

const char *
paystate_event_name(enum pay_event e)
{
	return (unsigned)e < PE__MAX ? event_names[e] : "?";
}

static const struct transition *
find(enum pay_state from, enum pay_event ev)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].from == from && table[i].ev == ev)
			return &table[i];
	return NULL;
}

enum pay_state
paystate_next(enum pay_state from, enum pay_event ev)
{
	const struct transition *t = find(from, ev);

	return t ? t->to : PS__MAX;
}

void
paystate_init(struct paystate *m, struct db *db, const struct x402_payment *p,
    const struct x402_requirements *rq, const char *endpoint_id, const struct ledger_bind *bind)
{
	memset(m, 0, sizeof(*m));
	m->bind = bind;
	m->state = PS_NEW;
	m->db = db;
	m->p = p;
	m->rq = rq;
	m->endpoint_id = endpoint_id;
}

static enum paystate_rc
from_ledger(enum ledger_rc rc)
{
	return rc == LEDGER_OK ? PAYSTATE_OK : rc == LEDGER_USED ? PAYSTATE_REFUSED :
	    PAYSTATE_UNRECORDED;
}

static enum paystate_rc
mark(struct paystate *m, enum ledger_status st, const uint8_t *tx, const char *reason)
{
	return ledger_mark(m->db, m->p, st, tx, reason) == 0 ? PAYSTATE_OK : PAYSTATE_UNRECORDED;
}

enum paystate_rc
paystate_apply(struct paystate *m, enum pay_event ev, const uint8_t *tx, const char *reason)
{
	const struct transition *t = find(m->state, ev);
	enum paystate_rc rc = PAYSTATE_OK;
	char why[97];

	if (t == NULL)
		return PAYSTATE_INVALID;
	/* A facilitator's refusal of /settle is kept as settle:<its code>, so
	 * that payments-reconcile can tell it from a refused /verify: only a
	 * settlement may have broadcast a transfer anyway. */
	if (ev == PE_SETTLE_REFUSED && reason) {
		snprintf(why, sizeof(why), "settle:%s", reason);
		reason = why;
	}
	switch (t->write) {
	case W_NONE:
		break;
	case W_RESERVE:
		rc = from_ledger(ledger_reserve(m->db, m->p, m->rq, m->endpoint_id, m->bind));
		break;
	case W_CLAIM:
		rc = from_ledger(ledger_claim_unknown(m->db, m->p));
		break;
	case W_SETTLED:
		rc = mark(m, LEDGER_SETTLED, tx, NULL);
		break;
	case W_FAILED:
		rc = mark(m, LEDGER_FAILED, NULL, reason ? reason : t->reason);
		break;
	case W_RELEASED:
		rc = mark(m, LEDGER_RELEASED, NULL, reason ? reason : t->reason);
		break;
	case W_UNKNOWN:
		rc = mark(m, LEDGER_FAILED, NULL, "settle_unknown");
		break;
	case W_LATE:
		rc = mark(m, LEDGER_SETTLED, tx, "late_settled");
		break;
	}
	if (rc == PAYSTATE_OK)
		m->state = t->to;
	return rc;
}

enum paystate_rc
paystate_find(struct paystate *m, bool resumable, bool late_ok)
{
	enum ledger_rc rc;
	enum paystate_rc prc;

	if (m->state != PS_NEW || m->bind == NULL)
		return PAYSTATE_INVALID;
	if (resumable || late_ok) {
		rc = ledger_settled_here(m->db, m->p, m->rq, m->endpoint_id, m->bind, !resumable, m->tx,
		    &m->has_tx);
		if (rc == LEDGER_OK) {
			if ((prc = paystate_apply(m, PE_FOUND_SETTLED, NULL, NULL)) == PAYSTATE_OK)
				m->late = !resumable;
			return prc;
		}
		if (rc != LEDGER_USED)
			return PAYSTATE_UNRECORDED;
	}
	rc = ledger_unknown_here(m->db, m->p, m->rq, m->endpoint_id, m->bind, &m->held_s);
	if (rc == LEDGER_OK) {
		if ((prc = paystate_apply(m, PE_FOUND_UNKNOWN, NULL, NULL)) == PAYSTATE_OK)
			m->late = true;
		return prc;
	}
	if (rc == LEDGER_HELD)
		return PAYSTATE_HELD;
	return rc == LEDGER_USED ? PAYSTATE_REFUSED : PAYSTATE_UNRECORDED;
}

#define RECONCILE_BATCH 500
#define REFUSED_WATCH_S 3600    /* a refused row is put to the chain until this long past validBefore */

/* One row payments-reconcile puts to the chain. */
struct open_row {
	struct x402_payment p;
	bool refused;           /* failed settle_refused, else of unknown outcome */
	bool has_before;        /* valid_before is recorded (rows since sql/022) */
};

/*
 * One page of payments-reconcile: up to RECONCILE_BATCH open rows after
 * the key (updated_at, payer, auth_nonce) in *last (none when last[0] is
 * ""), put to the chain; *fetched of them, and *last moved to the page's
 * last key. Rows decided here leave the set; those left open are passed,
 * so one run visits every open row and none starves behind the oldest.
 */
static enum paystate_rc
reconcile_page(struct db *db, const struct config *cfg, uint64_t min_age_s, uint64_t now,
    char last[3][72], size_t *fetched, uint64_t *settled, uint64_t *voided, uint64_t *open)
{
	char b[1500];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	struct open_row *rows = NULL;
	size_t n = 0;

	*fetched = 0;
	sql_add(&q, "SELECT LOWER(HEX(payer)), LOWER(HEX(auth_nonce)), LOWER(HEX(pay_to)), amount, "
	    "status = 'failed' AND reason <> 'settle_unknown', valid_before IS NOT NULL, "
	    "IFNULL(valid_before, 0), DATE_FORMAT(updated_at, '%Y-%m-%d %H:%i:%s.%f') FROM x402_payments "
	    "WHERE (((status = 'failed' AND reason = 'settle_unknown') OR status = 'reserved') OR "
	    "(status = 'failed' AND (reason = 'settle_refused' OR reason LIKE 'settle:%') AND "
	    "valid_before + ? > ?)) AND updated_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND",
	    SQL_U64(REFUSED_WATCH_S), SQL_U64(now), SQL_U64(min_age_s));
	if (last[0][0])
		sql_add(&q, " AND (updated_at, payer, auth_nonce) > (?, UNHEX(?), UNHEX(?))", SQL_TEXT(last[0]),
		    SQL_TEXT(last[1]), SQL_TEXT(last[2]));
	sql_add(&q, " ORDER BY updated_at, payer, auth_nonce LIMIT ?", SQL_U64(RECONCILE_BATCH));
	if (db_query(db, &q, &res) != DB_OK)
		return PAYSTATE_UNRECORDED;
	if (res && (rows = calloc(mysql_num_rows(res) + 1, sizeof(*rows))) == NULL) {
		mysql_free_result(res);
		return PAYSTATE_UNRECORDED;
	}
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		struct open_row *o = &rows[n];
		struct x402_payment *p = &o->p;

		(*fetched)++;
		/* The key of the page's last row, whatever becomes of it. */
		if (row[0] && row[1] && row[7] && strlen(row[7]) < 72 && strlen(row[0]) < 72 &&
		    strlen(row[1]) < 72) {
			snprintf(last[0], 72, "%s", row[7]);
			snprintf(last[1], 72, "%s", row[0]);
			snprintf(last[2], 72, "%s", row[1]);
		}
		if (addr_from_digits(row[0], &p->from) < 0 || addr_from_digits(row[2], &p->to) < 0 ||
		    strlen(row[1]) != 64 || hex_decode_fixed(row[1], 64, p->nonce, 32, false) < 0 ||
		    strlen(row[3]) >= sizeof(p->value) || db_row_bool(row, 4, "refused", &o->refused) != DB_OK ||
		    db_row_bool(row, 5, "has valid_before", &o->has_before) != DB_OK ||
		    db_row_u64(row, 6, "valid_before", &p->valid_before) != DB_OK)
			continue;
		snprintf(p->value, sizeof(p->value), "%s", row[3]);
		n++;
	}
	if (res)
		mysql_free_result(res);
	for (size_t i = 0; i < n; i++) {
		struct paystate m;
		enum paystate_rc rc = PAYSTATE_OK;
		uint8_t tx[32];

		paystate_init(&m, db, &rows[i].p, NULL, NULL, NULL);
		/* What the row means, as ledger_unknown_here reads it, or a refusal. */
		m.state = rows[i].refused ? PS_FAILED : PS_SETTLE_UNKNOWN;
		switch (x402_authorization_state(cfg, &rows[i].p, tx)) {
		case X402_AUTH_USED:
			if ((rc = paystate_apply(&m, PE_CHAIN_USED, tx, NULL)) == PAYSTATE_OK)
				(*settled)++;
			break;
		case X402_AUTH_VOID:
			if (rows[i].refused)
				break;  /* failed already, and it stays so */
			if ((rc = paystate_apply(&m, PE_CHAIN_VOID, NULL, NULL)) == PAYSTATE_OK)
				(*voided)++;
			break;
		case X402_AUTH_UNUSED:
			if (!rows[i].refused && rows[i].has_before &&
			    rows[i].p.valid_before + PAYSTATE_EXPIRY_MARGIN < now) {
				if ((rc = paystate_apply(&m, PE_CHAIN_EXPIRED, NULL, NULL)) == PAYSTATE_OK)
					(*voided)++;
				break;
			}
			(*open)++;
			break;
		default:
			(*open)++;
			break;
		}
		if (rc != PAYSTATE_OK) {
			free(rows);
			return PAYSTATE_UNRECORDED;
		}
	}
	free(rows);
	return PAYSTATE_OK;
}

enum paystate_rc
paystate_reconcile(struct db *db, const struct config *cfg, uint64_t min_age_s, uint64_t *settled,
    uint64_t *voided, uint64_t *open)
{
	char last[3][72] = { "", "", "" };
	uint64_t now = (uint64_t)time(NULL);
	size_t fetched;
	enum paystate_rc rc;

	*settled = *voided = *open = 0;
	do {
		rc = reconcile_page(db, cfg, min_age_s, now, last, &fetched, settled, voided, open);
	} while (rc == PAYSTATE_OK && fetched == RECONCILE_BATCH && last[0][0]);
	return rc;
}

#define SETTLE_SLACK_MS 1000    /* the answer, after everything else */

bool
paystate_settle_fits(const struct config *c, uint64_t elapsed_ms)
{
	/* After /settle: the chain asked about a refusal or no answer, and the
	 * settled write made twice at worst (fcgi/pay.c record_settled). */
	uint64_t after = c->rpc_timeout_ms + 2 * 1000 * c->db_timeout + SETTLE_SLACK_MS;

	return elapsed_ms + c->facilitator_timeout_ms + after <= config_remote_timeout_ms(c);
}
