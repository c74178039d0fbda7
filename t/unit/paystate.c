/*
 * The payment state machine (lib/paystate.h) against the test stack's
 * MariaDB: every transition of its table is driven from a payment put in
 * its starting state, and checked twice: with the ledger write injected to
 * fail (db_fault_after), the transition reports PAYSTATE_UNRECORDED and
 * neither the state nor the row moves (so the caller can fail closed:
 * nothing served that was not recorded, nothing charged that is not
 * recorded); then for real, when the row says what the new state means.
 * Transitions the table lacks are refused without touching the ledger.
 * The grant of a paid private-tip unlock (handlers/privtips.h) counts in
 * exactly the states whose row says settled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "config.h"
#include "db.h"
#include "ledger.h"
#include "paystate.h"
#include "privtips.h"
#include "sql.h"
#include "tap.h"
#include "banned.h"

static struct config cfg;
static struct db db;
static struct x402_requirements rq;
/* How the tests present their payments: x402, an empty body (the digest's value does not matter here). */
static struct ledger_bind bind = { LEDGER_RAIL_X402, { 0 } };

/* The row of p as "status reason" ("" when there is none, "?" on a failure). */
static const char *
row_of(const struct x402_payment *p, char out[160])
{
	char b[400], st[64] = "", why[96] = "";
	struct sql q = SQL_ON(b);

	sql_add(&q, "SELECT status, IFNULL(reason, '-') FROM x402_payments WHERE payer = ? AND "
	    "auth_nonce = ?", SQL_BYTES(p->from.b, 20), SQL_BYTES(p->nonce, 32));
	if (db_query_pair(&db, &q, st, why, sizeof(why)) != DB_OK)
		snprintf(out, 160, "?");
	else
		snprintf(out, 160, "%s%s%s", st, st[0] ? " " : "", st[0] ? why : "");
	return out;
}

/* A payment never seen, in state NEW. */
static void
fresh(struct paystate *m, struct x402_payment *p)
{
	memset(p, 0, sizeof(*p));
	if (getrandom(p->from.b, 20, 0) != 20 || getrandom(p->nonce, 32, 0) != 32)
		abort();
	paystate_init(m, &db, p, &rq, "test.paystate", &bind);
}

/* Drive m along evs (PE__MAX-terminated); true when every step was recorded. */
static bool
drive(struct paystate *m, const enum pay_event *evs)
{
	for (size_t i = 0; evs[i] != PE__MAX; i++)
		if (paystate_apply(m, evs[i], NULL, NULL) != PAYSTATE_OK)
			return false;
	return true;
}

/* The path that puts a payment in each state (PE__MAX ends it). */
static const enum pay_event to_new[] = { PE__MAX };
static const enum pay_event to_reserved[] = { PE_RESERVE, PE__MAX };
static const enum pay_event to_verified[] = { PE_RESERVE, PE_VERIFIED, PE__MAX };
static const enum pay_event to_unknown[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_NO_ANSWER, PE__MAX };
static const enum pay_event to_reclaimed[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_NO_ANSWER,
	PE_CLAIM, PE__MAX };
static const enum pay_event to_refused[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_REFUSED, PE__MAX };
static const enum pay_event to_reverified[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_NO_ANSWER,
	PE_CLAIM, PE_VERIFIED, PE__MAX };

static const struct {
	enum pay_state from;
	const enum pay_event *path;
	enum pay_event ev;
	enum pay_state to;
	const char *row;        /* the row after it: "status reason" */
	bool writes;            /* the transition writes the ledger */
} cases[] = {
	{ PS_NEW, to_new, PE_RESERVE, PS_RESERVED, "reserved -", true },
	{ PS_RESERVED, to_reserved, PE_VERIFIED, PS_VERIFIED, "reserved -", false },
	{ PS_RESERVED, to_reserved, PE_VERIFY_REFUSED, PS_FAILED, "failed verify_refused", true },
	{ PS_RESERVED, to_reserved, PE_VERIFY_UNAVAILABLE, PS_RELEASED, "released verify_unavailable", true },
	{ PS_VERIFIED, to_verified, PE_NOT_SERVED, PS_RELEASED, "released handler_failed", true },
	{ PS_VERIFIED, to_verified, PE_SETTLED, PS_SETTLED, "settled -", true },
	{ PS_VERIFIED, to_verified, PE_SETTLE_REFUSED, PS_FAILED, "failed settle_refused", true },
	{ PS_VERIFIED, to_verified, PE_SETTLE_NO_ANSWER, PS_SETTLE_UNKNOWN, "failed settle_unknown", true },
	{ PS_VERIFIED, to_verified, PE_CHAIN_USED, PS_SETTLED, "settled late_settled", true },
	{ PS_FAILED, to_refused, PE_CHAIN_USED, PS_SETTLED, "settled late_settled", true },
	{ PS_RECLAIMED, to_reclaimed, PE_VERIFIED, PS_REVERIFIED, "reserved unknown_retry", false },
	{ PS_RECLAIMED, to_reclaimed, PE_VERIFY_REFUSED, PS_SETTLE_UNKNOWN, "failed settle_unknown", true },
	{ PS_RECLAIMED, to_reclaimed, PE_VERIFY_UNAVAILABLE, PS_SETTLE_UNKNOWN, "failed settle_unknown", true },
	{ PS_RECLAIMED, to_reclaimed, PE_CHAIN_USED, PS_SETTLED, "settled late_settled", true },
	{ PS_REVERIFIED, to_reverified, PE_NOT_SERVED, PS_SETTLE_UNKNOWN, "failed settle_unknown", true },
	{ PS_REVERIFIED, to_reverified, PE_SETTLED, PS_SETTLED, "settled -", true },
	{ PS_REVERIFIED, to_reverified, PE_SETTLE_REFUSED, PS_SETTLE_UNKNOWN, "failed settle_unknown", true },
	{ PS_REVERIFIED, to_reverified, PE_SETTLE_NO_ANSWER, PS_SETTLE_UNKNOWN, "failed settle_unknown", true },
	{ PS_REVERIFIED, to_reverified, PE_CHAIN_USED, PS_SETTLED, "settled late_settled", true },
	{ PS_SETTLE_UNKNOWN, to_unknown, PE_CHAIN_USED, PS_SETTLED, "settled late_settled", true },
	{ PS_SETTLE_UNKNOWN, to_unknown, PE_CHAIN_VOID, PS_FAILED, "failed authorization_void", true },
	{ PS_SETTLE_UNKNOWN, to_unknown, PE_CHAIN_EXPIRED, PS_FAILED, "failed expired_unsettled", true },
	{ PS_SETTLE_UNKNOWN, to_unknown, PE_CLAIM, PS_RECLAIMED, "reserved unknown_retry", true },
};

static void
transitions(void)
{
	char before[160], after[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct paystate m;
		struct x402_payment p;
		const char *name = paystate_event_name(cases[i].ev);
		enum paystate_rc rc;

		fresh(&m, &p);
		if (!ok(drive(&m, cases[i].path) && m.state == cases[i].from, "%s --%s--> %s: put in %s",
		    paystate_name(cases[i].from), name, paystate_name(cases[i].to),
		    paystate_name(cases[i].from)))
			continue;
		ok(paystate_next(cases[i].from, cases[i].ev) == cases[i].to, "  the table says %s",
		    paystate_name(cases[i].to));
		row_of(&p, before);
		if (cases[i].writes) {
			/* The write fails: nothing moves, and the caller is told. */
			db_fault_after(&db, 1);
			rc = paystate_apply(&m, cases[i].ev, NULL, NULL);
			db_fault_after(&db, 0);
			ok(rc == PAYSTATE_UNRECORDED && m.state == cases[i].from,
			    "  a failed ledger write: unrecorded, still %s", paystate_name(m.state));
			is_str(row_of(&p, after), before, "  and the row did not move");
		}
		rc = paystate_apply(&m, cases[i].ev, NULL, NULL);
		ok(rc == PAYSTATE_OK && m.state == cases[i].to, "  recorded: %s", paystate_name(m.state));
		is_str(row_of(&p, after), cases[i].row, "  the row says %s", cases[i].row);
	}
}

static void
refusals(void)
{
	struct paystate m, m2;
	struct x402_payment p;
	char row[160];
	size_t n = 0;

	/* Every (state, event) the table lacks is refused, and writes nothing. */
	for (int s = 0; s < PS__MAX; s++)
		for (int e = 0; e < PE__MAX; e++) {
			bool listed = false;

			for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
				listed |= cases[i].from == (enum pay_state)s && cases[i].ev == (enum pay_event)e;
			if (e == PE_FOUND_SETTLED || e == PE_FOUND_UNKNOWN)
				listed |= s == PS_NEW;  /* the lookups: paystate_find */
			if (!listed && paystate_next((enum pay_state)s, (enum pay_event)e) != PS__MAX)
				n++;
		}
	ok(n == 0, "the table has no transition that this test does not drive (%zu)", n);
	fresh(&m, &p);
	ok(paystate_apply(&m, PE_SETTLED, NULL, NULL) == PAYSTATE_INVALID && m.state == PS_NEW,
	    "a NEW payment cannot settle: invalid, nothing written");
	is_str(row_of(&p, row), "", "  no row appeared");
	ok(drive(&m, to_verified) && paystate_apply(&m, PE_CLAIM, NULL, NULL) == PAYSTATE_INVALID,
	    "a VERIFIED payment cannot be claimed as unknown");

	/* The ledger's own refusals. */
	paystate_init(&m2, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_apply(&m2, PE_RESERVE, NULL, NULL) == PAYSTATE_REFUSED && m2.state == PS_NEW,
	    "the same payment reserved again: refused by the key");
	fresh(&m, &p);
	ok(drive(&m, to_unknown), "a payment of unknown outcome");
	paystate_init(&m2, &db, &p, &rq, "test.paystate", &bind);
	m2.state = PS_SETTLE_UNKNOWN;
	ok(paystate_apply(&m, PE_CLAIM, NULL, NULL) == PAYSTATE_OK &&
	    paystate_apply(&m2, PE_CLAIM, NULL, NULL) == PAYSTATE_REFUSED,
	    "two requests claim it: the first wins, the second is refused");
	/* A settled row is never moved back. */
	fresh(&m, &p);
	ok(drive(&m, to_verified) && paystate_apply(&m, PE_SETTLED, NULL, NULL) == PAYSTATE_OK,
	    "settled");
	m.state = PS_VERIFIED;  /* as a confused caller would */
	ok(paystate_apply(&m, PE_NOT_SERVED, NULL, NULL) == PAYSTATE_OK, "a later release is written...");
	is_str(row_of(&p, row), "settled -", "  ...but the settled row stays settled");
}

static void
lookups(void)
{
	struct paystate m, again;
	struct x402_payment p;

	fresh(&m, &p);
	ok(drive(&m, to_unknown), "a payment of unknown outcome");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, false) == PAYSTATE_OK && again.state == PS_SETTLE_UNKNOWN,
	    "found again: SETTLE_UNKNOWN");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	db_fault_after(&db, 1);
	ok(paystate_find(&again, false, false) == PAYSTATE_UNRECORDED && again.state == PS_NEW,
	    "  the lookup fails: unrecorded, still NEW");
	db_fault_after(&db, 0);
	fresh(&m, &p);
	ok(drive(&m, to_verified) && paystate_apply(&m, PE_SETTLED, NULL, NULL) == PAYSTATE_OK, "a settled payment");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, true, false) == PAYSTATE_OK && again.state == PS_RESUMABLE,
	    "found again on a resumable row: RESUMABLE");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, false) == PAYSTATE_REFUSED && again.state == PS_NEW,
	    "on another row: used");

	/* Reserved by a request still in progress: held, then abandoned. */
	fresh(&m, &p);
	ok(drive(&m, to_reserved), "a payment reserved by a request in progress");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, false) == PAYSTATE_HELD && again.state == PS_NEW &&
	    again.held_s >= 1 && again.held_s <= cfg.payment_abandoned_s,
	    "the identical payment meanwhile: HELD, still NEW, for at most payment_abandoned_s");
	{
		char b[300];
		struct sql q = SQL_ON(b);

		sql_add(&q, "UPDATE x402_payments SET updated_at = updated_at - INTERVAL ? SECOND WHERE "
		    "payer = ? AND auth_nonce = ?", SQL_U64(cfg.payment_abandoned_s + 1),
		    SQL_BYTES(p.from.b, 20), SQL_BYTES(p.nonce, 32));
		ok(db_exec(&db, &q) == DB_OK, "  its request stops: the reservation ages past payment_abandoned_s");
	}
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, false) == PAYSTATE_OK && again.state == PS_SETTLE_UNKNOWN,
	    "  then it counts as abandoned: SETTLE_UNKNOWN, the chain decides");
	{
		struct x402_payment other = p;

		memset(other.sig_digest, 0x5a, sizeof(other.sig_digest));
		fresh(&m, &p);
		other.from = p.from;
		memcpy(other.nonce, p.nonce, 32);
		ok(drive(&m, to_reserved), "another payment reserved");
		paystate_init(&again, &db, &other, &rq, "test.paystate", &bind);
		ok(paystate_find(&again, false, false) == PAYSTATE_REFUSED,
		    "  the same (payer, nonce) under another signature is not held for it: used");
	}
}

/* A settlement learnt from the chain serves the identical request again; an ordinary one does not. */
static void
late(void)
{
	struct paystate m, again;
	struct x402_payment p;

	fresh(&m, &p);
	ok(drive(&m, to_unknown) && paystate_apply(&m, PE_CHAIN_USED, NULL, NULL) == PAYSTATE_OK,
	    "a payment of unknown outcome, then seen on chain: settled late");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, true) == PAYSTATE_OK && again.state == PS_RESUMABLE && again.late,
	    "  the identical payment while still valid: RESUMABLE, late (served again, a private row withholds)");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, false) == PAYSTATE_REFUSED && again.state == PS_NEW,
	    "  once it may no longer be served (the caller says: an hour past validBefore): used");
	fresh(&m, &p);
	ok(drive(&m, to_verified) && paystate_apply(&m, PE_SETTLED, NULL, NULL) == PAYSTATE_OK,
	    "a payment settled by the facilitator's answer");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, true) == PAYSTATE_REFUSED && again.state == PS_NEW,
	    "  the identical payment again, still valid: used (a paid read is served once)");
	fresh(&m, &p);
	ok(drive(&m, to_unknown), "a payment of unknown outcome");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_find(&again, false, true) == PAYSTATE_OK && again.state == PS_SETTLE_UNKNOWN && again.late,
	    "  found again: SETTLE_UNKNOWN, late");
}

/* A grant row of p (as the paid unlock's handler writes it before settlement) for tip_id on chain_id. */
static bool
grant_of(const struct x402_payment *p, uint64_t chain_id, uint64_t tip_id)
{
	char b[400];
	struct sql q = SQL_ON(b);

	sql_add(&q, "INSERT INTO private_tip_grants (payer, auth_nonce, chain_id, tip_id, created_at) "
	    "VALUES (?, ?, ?, ?, UTC_TIMESTAMP(6))", SQL_BYTES(p->from.b, 20), SQL_BYTES(p->nonce, 32),
	    SQL_U64(chain_id), SQL_U64(tip_id));
	return db_exec(&db, &q) == DB_OK;
}

/* "yes" or "no": whether payer's grant of t counts on the row endpoint_id ("?" on an error). */
static const char *
grant_counts(const struct ptip *t, const uint8_t payer[20], const char *endpoint_id)
{
	bool yes = true;

	if (privtips_paid_grant(&db, &cfg, endpoint_id, t, payer, &yes) != ERR_NONE)
		return yes ? "?" : "? (and no)";
	return yes ? "yes" : "no";
}

/*
 * The grant of a paid private-tip unlock (handlers/privtips.h): the paid
 * handler writes it before settlement, so it exists in every state the
 * payment can be left in; the paying wallet may read by signature only
 * while the payment's row is settled (by the facilitator's answer, from
 * the chain, or after a refusal that landed), for this row and to the
 * tip's tipper.
 */
static void
grants(uint64_t tip0)
{
	static const enum pay_event settled[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLED, PE__MAX };
	static const enum pay_event released[] = { PE_RESERVE, PE_VERIFIED, PE_NOT_SERVED, PE__MAX };
	static const enum pay_event late[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_NO_ANSWER, PE_CHAIN_USED,
		PE__MAX };
	static const enum pay_event landed[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_REFUSED, PE_CHAIN_USED,
		PE__MAX };
	static const enum pay_event voided[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_NO_ANSWER, PE_CHAIN_VOID,
		PE__MAX };
	static const enum pay_event expired[] = { PE_RESERVE, PE_VERIFIED, PE_SETTLE_NO_ANSWER,
		PE_CHAIN_EXPIRED, PE__MAX };
	static const enum pay_event verify_refused[] = { PE_RESERVE, PE_VERIFY_REFUSED, PE__MAX };
	static const struct {
		const enum pay_event *path;
		const char *row, *counts, *what;
	} g[] = {
		{ to_reserved, "reserved -", "no", "reserved (its request in progress)" },
		{ to_verified, "reserved -", "no", "verified, the handler ran (when the grant is written)" },
		{ to_unknown, "failed settle_unknown", "no", "of unknown outcome (/settle got no answer)" },
		{ to_reclaimed, "reserved unknown_retry", "no", "of unknown outcome, claimed for one more try" },
		{ to_reverified, "reserved unknown_retry", "no", "of unknown outcome, claimed and verified again" },
		{ to_refused, "failed settle_refused", "no", "refused by /settle" },
		{ verify_refused, "failed verify_refused", "no", "refused by /verify" },
		{ released, "released handler_failed", "no", "released (not served, or too late to settle)" },
		{ voided, "failed authorization_void", "no", "void: its nonce paid something else" },
		{ expired, "failed expired_unsettled", "no", "expired unused" },
		{ settled, "settled -", "yes", "settled by the facilitator's answer" },
		{ late, "settled late_settled", "yes", "settled from the chain after no answer" },
		{ landed, "settled late_settled", "yes", "settled from the chain after a refusal that landed" },
	};
	struct ptip t = { .tip_id = tip0 };
	struct paystate m;
	struct x402_payment p, q;
	char row[160];

	memcpy(t.tipper, rq.pay_to.b, 20);
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		fresh(&m, &p);
		ok(drive(&m, g[i].path) && grant_of(&p, cfg.chain_id, t.tip_id), "a paid unlock's grant, its payment %s",
		    g[i].what);
		is_str(row_of(&p, row), g[i].row, "  the row says %s", g[i].row);
		is_str(grant_counts(&t, p.from.b, "test.paystate"), g[i].counts, "  the grant counts: %s",
		    g[i].counts);
	}

	/* One grant over its payment's life: nothing until the chain shows the transfer. */
	fresh(&m, &p);
	ok(drive(&m, to_verified) && grant_of(&p, cfg.chain_id, t.tip_id), "a grant written before settlement");
	ok(paystate_apply(&m, PE_SETTLE_NO_ANSWER, NULL, NULL) == PAYSTATE_OK, "  /settle gets no answer");
	is_str(grant_counts(&t, p.from.b, "test.paystate"), "no", "  the grant does not count while the outcome is unknown");
	ok(paystate_apply(&m, PE_CHAIN_USED, NULL, NULL) == PAYSTATE_OK, "  the chain shows the transfer");
	is_str(grant_counts(&t, p.from.b, "test.paystate"), "yes", "  then it counts");

	/* A settled payment grants its own tip to its own payer, on its own row, paid to the tipper. */
	fresh(&m, &p);
	ok(drive(&m, settled) && grant_of(&p, cfg.chain_id, t.tip_id), "a settled unlock of tip %llu",
	    (unsigned long long)t.tip_id);
	{
		struct ptip other = t;

		other.tip_id = tip0 + 1;
		is_str(grant_counts(&other, p.from.b, "test.paystate"), "no", "  another tip: no");
		other.tip_id = tip0;
		memset(other.tipper, 0x33, 20);
		is_str(grant_counts(&other, p.from.b, "test.paystate"), "no",
		    "  a tip of another tipper (the payment paid someone else): no");
	}
	memcpy(q.from.b, p.from.b, 20);
	q.from.b[19] ^= 1;
	is_str(grant_counts(&t, q.from.b, "test.paystate"), "no", "  another wallet: no");
	is_str(grant_counts(&t, p.from.b, "test.paystate.other"), "no", "  asked for another row: no");
	fresh(&m, &p);
	ok(drive(&m, settled) && grant_of(&p, cfg.chain_id + 1, t.tip_id), "a settled payment's grant on another chain");
	is_str(grant_counts(&t, p.from.b, "test.paystate"), "no", "  does not count on this one");
	fresh(&m, &p);
	paystate_init(&m, &db, &p, &rq, "test.paystate.other", &bind);
	ok(drive(&m, settled) && grant_of(&p, cfg.chain_id, t.tip_id), "a settled payment of another row, with a grant");
	is_str(grant_counts(&t, p.from.b, "test.paystate"), "no", "  does not count on the unlock's row");
	fresh(&m, &p);
	ok(grant_of(&p, cfg.chain_id, t.tip_id), "a grant without a payment row");
	is_str(grant_counts(&t, p.from.b, "test.paystate"), "no", "  counts for nothing");
	fresh(&m, &p);
	ok(drive(&m, settled) && grant_of(&p, cfg.chain_id, t.tip_id), "a settled grant");
	db_fault_after(&db, 1);
	is_str(grant_counts(&t, p.from.b, "test.paystate"), "? (and no)",
	    "  the database fails: ERR_DATABASE_UNAVAILABLE, and no grant");
	db_fault_after(&db, 0);
}

/* The per-request deadline: /settle starts only with its whole timeout left before nginx gives up. */
static void
deadline(void)
{
	struct config c = cfg;
	uint64_t total;

	c.facilitator_timeout_ms = 20000, c.rpc_timeout_ms = 10000, c.sigcheck_timeout_ms = 3000, c.db_timeout = 3;
	total = config_remote_timeout_ms(&c);
	ok(total == 74000, "the defaults: nginx waits 74 s for a remote-pool answer (%llu ms)",
	    (unsigned long long)total);
	/* After /settle: a chain look (10 s), two ledger writes (2 x 3 s), a second. */
	ok(paystate_settle_fits(&c, 0) && paystate_settle_fits(&c, total - 20000 - 17000),
	    "a settlement fits with its 20 s timeout and what may follow it (17 s) before then");
	ok(!paystate_settle_fits(&c, total - 20000 - 16999) && !paystate_settle_fits(&c, total),
	    "  and not a millisecond later: the request answers 503, nothing charged");
	c.sigcheck_timeout_ms = 15000;
	ok(config_remote_timeout_ms(&c) == 79000, "the longer of rpc and sigcheck timeouts counts once");
}

/* Pruning: failed and released rows long expired go; settled and undecided ones stay. */
static void
pruning(void)
{
	struct paystate m;
	struct x402_payment failed, released, settled, unknown;
	char row[160];
	uint64_t deleted = 0, now = (uint64_t)time(NULL);

	/* fresh() payments have validBefore 0: expired since 1970. */
	fresh(&m, &failed);
	ok(drive(&m, to_reserved) && paystate_apply(&m, PE_VERIFY_REFUSED, NULL, NULL) == PAYSTATE_OK, "a refused payment");
	fresh(&m, &released);
	ok(drive(&m, to_reserved) && paystate_apply(&m, PE_VERIFY_UNAVAILABLE, NULL, NULL) == PAYSTATE_OK, "a released one");
	fresh(&m, &settled);
	ok(drive(&m, to_verified) && paystate_apply(&m, PE_SETTLED, NULL, NULL) == PAYSTATE_OK, "a settled one");
	fresh(&m, &unknown);
	ok(drive(&m, to_unknown), "one of unknown outcome");
	ok(ledger_prune(&db, 3600, now, &deleted) == LEDGER_OK, "the prune runs");
	ok(deleted >= 2, "  and deletes (%llu rows)", (unsigned long long)deleted);
	is_str(row_of(&failed, row), "", "  the refused row is gone");
	is_str(row_of(&released, row), "", "  the released row is gone");
	is_str(row_of(&settled, row), "settled -", "  the settled row stays");
	is_str(row_of(&unknown, row), "failed settle_unknown", "  the undecided row stays: the chain decides it");
	db_fault_after(&db, 1);
	ok(ledger_prune(&db, 3600, now, &deleted) == LEDGER_UNAVAILABLE, "a database failure is reported");
	db_fault_after(&db, 0);
}

/* One authorization, one rail, one body. */
static void
bindings(void)
{
	struct ledger_bind mpp = { LEDGER_RAIL_MPP, { 0 } }, body = { LEDGER_RAIL_X402, { 1 } };
	struct paystate m, again;
	struct x402_payment p;
	char row[160];

	fresh(&m, &p);
	ok(drive(&m, to_reserved) && paystate_apply(&m, PE_VERIFY_UNAVAILABLE, NULL, NULL) == PAYSTATE_OK,
	    "a payment presented on x402 with an empty body, released (never charged)");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &mpp);
	ok(paystate_apply(&again, PE_RESERVE, NULL, NULL) == PAYSTATE_REFUSED,
	    "  the same authorization on the MPP rail: not reserved");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &body);
	ok(paystate_apply(&again, PE_RESERVE, NULL, NULL) == PAYSTATE_REFUSED,
	    "  on x402 with another body: not reserved");
	is_str(row_of(&p, row), "released verify_unavailable", "  the row did not move");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &bind);
	ok(paystate_apply(&again, PE_RESERVE, NULL, NULL) == PAYSTATE_OK,
	    "  as first presented: reserved again");
	fresh(&m, &p);
	ok(drive(&m, to_unknown), "a payment of unknown outcome, presented on x402");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &mpp);
	ok(paystate_find(&again, false, true) == PAYSTATE_REFUSED && again.state == PS_NEW,
	    "  presented on the MPP rail: used, its outcome not looked up for it");
	paystate_init(&again, &db, &p, &rq, "test.paystate", &body);
	ok(paystate_find(&again, false, true) == PAYSTATE_REFUSED, "  with another body: used");
	paystate_init(&again, &db, &p, &rq, "test.paystate", NULL);
	ok(paystate_find(&again, false, true) == PAYSTATE_INVALID, "  a lookup without a binding: invalid");
}

int
main(void)
{
	const char *var = getenv("WAYMARK_VAR");
	char path[1024], err[256];
	uint64_t tip0;

	if (!ok(var != NULL, "WAYMARK_VAR names the test stack (run through tools/run-tests)"))
		return done_testing();
	snprintf(path, sizeof(path), "%s/waymark.conf", var);
	if (!ok(config_load(&cfg, path, err, sizeof(err)) == 0, "the test stack's configuration loads"))
		return done_testing();
	db_init(&db, &cfg);
	if (!ok(db_connect(&db) == DB_OK, "the suite's MariaDB is reachable"))
		return done_testing();
	snprintf(rq.network, sizeof(rq.network), "eip155:8453");
	snprintf(rq.amount, sizeof(rq.amount), "10000");
	snprintf(rq.url, sizeof(rq.url), "http://127.0.0.1/test/paystate");
	memset(rq.pay_to.b, 0x11, 20);
	memset(rq.asset.b, 0x22, 20);
	transitions();
	refusals();
	lookups();
	late();
	bindings();
	if (getrandom(&tip0, sizeof(tip0), 0) != sizeof(tip0))
		abort();
	tip0 = (tip0 >> 2) | (1ULL << 62);      /* above any tip the suite indexes */
	grants(tip0);
	deadline();
	pruning();
	{
		/* Leave the suite's ledger as it was (other tests count its rows). */
		char b[300];
		struct sql q = SQL_ON(b);

		sql_add(&q, "DELETE FROM x402_payments WHERE endpoint_id IN ('test.paystate', 'test.paystate.other')");
		ok(db_exec(&db, &q) == DB_OK, "the test's ledger rows are removed");
		sql_reset(&q);
		sql_add(&q, "DELETE FROM private_tip_grants WHERE tip_id IN (?, ?)", SQL_U64(tip0), SQL_U64(tip0 + 1));
		ok(db_exec(&db, &q) == DB_OK, "  and its grants");
	}
	db_close(&db);
	return done_testing();
}
