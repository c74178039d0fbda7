#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "banned.h"

static const char *const status_names[LEDGER__MAX] = {
	[LEDGER_SETTLED] = "settled",
	[LEDGER_FAILED] = "failed",
	[LEDGER_RELEASED] = "released",
};

static const char *const rail_names[] = { [LEDGER_RAIL_X402] = "x402", [LEDGER_RAIL_MPP] = "mpp" };

/* The binding's condition on a row: the same rail and body, or a row from before bindings. */
static void
add_bound(struct sql *q, const struct ledger_bind *b)
{
	sql_add(q, " AND (rail IS NULL OR (rail = ? AND body_digest = ?))", SQL_TEXT(rail_names[b->rail]),
	    SQL_BYTES(b->body_digest, 32));
}

enum ledger_rc
ledger_reserve(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id, const struct ledger_bind *b)
{
	size_t cap = 2 * strlen(rq->url) + 2048;
	char *buf = malloc(cap);
	struct sql q;
	enum ledger_rc rc = LEDGER_UNAVAILABLE;
	enum db_rc d;

	if (buf == NULL || strlen(endpoint_id) > 128)
		goto out;
	sql_on(&q, buf, cap);
	sql_add(&q, "INSERT INTO x402_payments (payer, auth_nonce, sig_digest, rail, body_digest, "
	    "valid_before, network, asset, pay_to, amount, endpoint_id, resource_url, status, created_at, "
	    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'reserved', UTC_TIMESTAMP(6), "
	    "UTC_TIMESTAMP(6))", SQL_BYTES(p->from.b, ADDR_LEN), SQL_BYTES(p->nonce, 32),
	    SQL_BYTES(p->sig_digest, 32), SQL_TEXT(rail_names[b->rail]), SQL_BYTES(b->body_digest, 32),
	    SQL_U64(p->valid_before), SQL_TEXT(rq->network), SQL_BYTES(rq->asset.b, ADDR_LEN),
	    SQL_BYTES(rq->pay_to.b, ADDR_LEN), SQL_DEC(rq->amount), SQL_TEXT(endpoint_id), SQL_TEXT(rq->url));
	d = db_exec(db, &q);
	if (d == DB_OK) {
		rc = LEDGER_OK;
		goto out;
	}
	if (d != DB_DUPLICATE)
		goto out;
	/* Taken: only a released row bound to this same URL, rail and body may be reserved again. */
	sql_reset(&q);
	sql_add(&q, "UPDATE x402_payments SET status = 'reserved', reason = NULL, sig_digest = ?, "
	    "rail = ?, body_digest = ?, valid_before = ?, endpoint_id = ?, updated_at = UTC_TIMESTAMP(6) "
	    "WHERE payer = ? AND auth_nonce = ? AND status = 'released' AND resource_url = ? AND "
	    "amount = ? AND pay_to = ?", SQL_BYTES(p->sig_digest, 32), SQL_TEXT(rail_names[b->rail]),
	    SQL_BYTES(b->body_digest, 32), SQL_U64(p->valid_before), SQL_TEXT(endpoint_id),
	    SQL_BYTES(p->from.b, ADDR_LEN), SQL_BYTES(p->nonce, 32), SQL_TEXT(rq->url), SQL_DEC(rq->amount),
	    SQL_BYTES(rq->pay_to.b, ADDR_LEN));
	add_bound(&q, b);
	if (db_exec(db, &q) != DB_OK)
		goto out;
	rc = mysql_affected_rows(db->my) == 1 ? LEDGER_OK : LEDGER_USED;
out:
	free(buf);
	return rc;
}

enum lookup_state { SETTLED, LATE, UNKNOWN };

/*
 * p's row bound to rq and endpoint_id in state st; for UNKNOWN, a row
 * reserved less than payment_abandoned_s ago is LEDGER_HELD, with the
 * seconds it has left in *held_s.
 */
static enum ledger_rc
lookup(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id, const struct ledger_bind *b, enum lookup_state st, uint8_t tx[32],
    bool *has_tx, uint64_t *held_s)
{
	size_t cap = 2 * strlen(rq->url) + 1536;
	char *buf = malloc(cap);
	struct sql q;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum ledger_rc rc = LEDGER_UNAVAILABLE;

	*has_tx = false;
	if (buf == NULL || strlen(endpoint_id) > 128)
		goto out;
	sql_on(&q, buf, cap);
	/* Only the identical payment (the same signature bytes) is served from its row. */
	/* The seconds a reserved row has left: payment_abandoned_s less its age (0 when not held). */
	sql_add(&q, "SELECT tx_hash, IF(status = 'reserved' AND updated_at >= UTC_TIMESTAMP(6) - "
	    "INTERVAL ? SECOND, GREATEST(1, ? - TIMESTAMPDIFF(SECOND, updated_at, UTC_TIMESTAMP(6))), 0) "
	    "FROM x402_payments WHERE payer = ? AND auth_nonce = ? AND sig_digest = ? AND ",
	    SQL_U64(db->cfg->payment_abandoned_s), SQL_U64(db->cfg->payment_abandoned_s),
	    SQL_BYTES(p->from.b, ADDR_LEN), SQL_BYTES(p->nonce, 32), SQL_BYTES(p->sig_digest, 32));
	if (st == SETTLED)
		sql_add(&q, "status = 'settled'");
	else if (st == LATE)
		sql_add(&q, "status = 'settled' AND reason = 'late_settled'");
	else
		sql_add(&q, "((status = 'failed' AND reason = 'settle_unknown') OR status = 'reserved')");
	sql_add(&q, " AND resource_url = ? AND amount = ? AND pay_to = ? AND endpoint_id = ?",
	    SQL_TEXT(rq->url), SQL_DEC(rq->amount), SQL_BYTES(rq->pay_to.b, ADDR_LEN), SQL_TEXT(endpoint_id));
	add_bound(&q, b);
	if (db_query(db, &q, &res) != DB_OK)
		goto out;
	rc = LEDGER_USED;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);

		rc = LEDGER_OK;
		if (row[0] && len[0] == 32) {
			memcpy(tx, row[0], 32);
			*has_tx = true;
		}
		if (held_s) {
			uint64_t left;

			if (db_row_u64(row, 1, "held_s", &left) != DB_OK) {
				rc = LEDGER_UNAVAILABLE;
				goto out;
			}
			if (left > 0) {
				*held_s = left;
				rc = LEDGER_HELD;
			}
		}
	}
out:
	if (res)
		mysql_free_result(res);
	free(buf);
	return rc;
}

enum ledger_rc
ledger_settled_here(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id, const struct ledger_bind *b, bool only_late, uint8_t tx[32], bool *has_tx)
{
	return lookup(db, p, rq, endpoint_id, b, only_late ? LATE : SETTLED, tx, has_tx, NULL);
}

enum ledger_rc
ledger_unknown_here(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id, const struct ledger_bind *b, uint64_t *held_s)
{
	uint8_t tx[32];
	bool has_tx;

	*held_s = 0;
	return lookup(db, p, rq, endpoint_id, b, UNKNOWN, tx, &has_tx, held_s);
}

int
ledger_mark(struct db *db, const struct x402_payment *p, enum ledger_status status,
    const uint8_t *tx, const char *reason)
{
	char b[1024];
	struct sql q = SQL_ON(b);

	if ((unsigned)status >= LEDGER__MAX)
		return -1;
	/* A reason longer than 96 bytes is not kept. */
	if (reason && strlen(reason) > 96)
		reason = NULL;
	sql_add(&q, "UPDATE x402_payments SET status = ?, tx_hash = ?, reason = ?, "
	    "updated_at = UTC_TIMESTAMP(6) WHERE payer = ? AND auth_nonce = ?",
	    SQL_TEXT(status_names[status]), tx ? SQL_BYTES(tx, 32) : SQL_NULL, SQL_TEXT(reason),
	    SQL_BYTES(p->from.b, ADDR_LEN), SQL_BYTES(p->nonce, 32));
	/* A settled row stays settled: a late failure never downgrades it. */
	if (status != LEDGER_SETTLED)
		sql_add(&q, " AND status <> 'settled'");
	return db_exec(db, &q) == DB_OK ? 0 : -1;
}

enum ledger_rc
ledger_claim_unknown(struct db *db, const struct x402_payment *p)
{
	char b[768];
	struct sql q = SQL_ON(b);

	sql_add(&q, "UPDATE x402_payments SET status = 'reserved', reason = 'unknown_retry', "
	    "updated_at = UTC_TIMESTAMP(6) WHERE payer = ? AND auth_nonce = ? AND sig_digest = ? AND "
	    "((status = 'failed' AND reason = 'settle_unknown') OR (status = 'reserved' AND updated_at < "
	    "UTC_TIMESTAMP(6) - INTERVAL ? SECOND))",
	    SQL_BYTES(p->from.b, ADDR_LEN), SQL_BYTES(p->nonce, 32), SQL_BYTES(p->sig_digest, 32),
	    SQL_U64(db->cfg->payment_abandoned_s));
	if (db_exec(db, &q) != DB_OK)
		return LEDGER_UNAVAILABLE;
	return mysql_affected_rows(db->my) == 1 ? LEDGER_OK : LEDGER_USED;
}

#define PRUNE_BATCH 5000

enum ledger_rc
ledger_prune(struct db *db, uint64_t keep_s, uint64_t now, uint64_t *deleted)
{
	char b[640];
	struct sql q;
	uint64_t n;

	*deleted = 0;
	if (now < keep_s)
		return LEDGER_OK;
	do {
		sql_on(&q, b, sizeof(b));
		sql_add(&q, "DELETE FROM x402_payments WHERE status IN ('failed', 'released') AND "
		    "IFNULL(reason, '') <> 'settle_unknown' AND IFNULL(valid_before, "
		    "UNIX_TIMESTAMP(created_at)) < ? LIMIT ?", SQL_U64(now - keep_s), SQL_U64(PRUNE_BATCH));
		if (db_exec_affected(db, &q, &n) != DB_OK)
			return LEDGER_UNAVAILABLE;
		*deleted += n;
	} while (n == PRUNE_BATCH);
	do {
		sql_on(&q, b, sizeof(b));
		sql_add(&q, "DELETE FROM private_tip_grants WHERE created_at < FROM_UNIXTIME(?) AND NOT EXISTS "
		    "(SELECT 1 FROM x402_payments p WHERE p.payer = private_tip_grants.payer AND "
		    "p.auth_nonce = private_tip_grants.auth_nonce) LIMIT ?", SQL_U64(now - keep_s),
		    SQL_U64(PRUNE_BATCH));
		if (db_exec_affected(db, &q, &n) != DB_OK)
			return LEDGER_UNAVAILABLE;
	} while (n == PRUNE_BATCH);
	return LEDGER_OK;
}
