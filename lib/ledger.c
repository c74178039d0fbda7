#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "ledger.h"
#include "sqlfmt.h"
#include "banned.h"

static const char *const status_names[LEDGER__MAX] = {
	[LEDGER_SETTLED] = "settled",
	[LEDGER_FAILED] = "failed",
	[LEDGER_RELEASED] = "released",
};

/* Hex digits of b[0..n) without "0x" into out[2n + 3]. */
static const char *
raw_hex(const uint8_t *b, size_t n, char *out)
{
	return hex_encode(b, n, out) + 2;
}

enum ledger_rc
ledger_reserve(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id)
{
	char payer[ADDR_LEN * 2 + 3], nonce[32 * 2 + 3], asset[ADDR_LEN * 2 + 3], pay_to[ADDR_LEN * 2 + 3];
	char ep[2 * 128 + 1], net[2 * 64 + 1];
	size_t ulen = strlen(rq->url);
	char *url = malloc(2 * ulen + 1), *sql = NULL;
	size_t cap = 4 * ulen + 2048;
	enum ledger_rc rc = LEDGER_UNAVAILABLE;
	enum db_rc d;

	if (url == NULL || (sql = malloc(cap)) == NULL || strlen(endpoint_id) > 128 ||
	    db_escape(db, rq->url, ulen, url, 2 * ulen + 1) < 0 ||
	    db_escape(db, endpoint_id, strlen(endpoint_id), ep, sizeof(ep)) < 0 ||
	    db_escape(db, rq->network, strlen(rq->network), net, sizeof(net)) < 0)
		goto out;
	raw_hex(p->from.b, ADDR_LEN, payer);
	raw_hex(p->nonce, 32, nonce);
	raw_hex(rq->asset.b, ADDR_LEN, asset);
	raw_hex(rq->pay_to.b, ADDR_LEN, pay_to);
	if (sql_format(sql, cap, "INSERT INTO x402_payments (payer, auth_nonce, network, asset, pay_to, "
	    "amount, endpoint_id, resource_url, status, created_at, updated_at) VALUES (UNHEX('%s'), "
	    "UNHEX('%s'), '%s', UNHEX('%s'), UNHEX('%s'), %s, '%s', '%s', 'reserved', UTC_TIMESTAMP(6), "
	    "UTC_TIMESTAMP(6))", payer + 2, nonce + 2, net, asset + 2, pay_to + 2, rq->amount, ep, url) < 0)
		goto out;
	d = db_exec_text(db, sql, false);
	if (d == DB_OK) {
		rc = LEDGER_OK;
		goto out;
	}
	if (d != DB_DUPLICATE)
		goto out;
	/* Taken: only a released row bound to this same URL may be reserved again. */
	if (sql_format(sql, cap, "UPDATE x402_payments SET status = 'reserved', reason = NULL, "
	    "endpoint_id = '%s', updated_at = UTC_TIMESTAMP(6) WHERE payer = UNHEX('%s') AND "
	    "auth_nonce = UNHEX('%s') AND status = 'released' AND resource_url = '%s' AND amount = %s "
	    "AND pay_to = UNHEX('%s')", ep, payer + 2, nonce + 2, url, rq->amount, pay_to + 2) < 0 ||
	    db_exec_text(db, sql, false) != DB_OK)
		goto out;
	rc = mysql_affected_rows(db->my) == 1 ? LEDGER_OK : LEDGER_USED;
out:
	free(url);
	free(sql);
	return rc;
}

/* p's row bound to rq and endpoint_id in a state matching cond (SQL). */
static enum ledger_rc
lookup(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id, const char *cond, uint8_t tx[32], bool *has_tx)
{
	char payer[ADDR_LEN * 2 + 3], nonce[32 * 2 + 3], pay_to[ADDR_LEN * 2 + 3], ep[2 * 128 + 1];
	size_t ulen = strlen(rq->url);
	char *url = malloc(2 * ulen + 1), *sql = NULL;
	size_t cap = 2 * ulen + 1024;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum ledger_rc rc = LEDGER_UNAVAILABLE;

	*has_tx = false;
	if (url == NULL || (sql = malloc(cap)) == NULL || strlen(endpoint_id) > 128 ||
	    db_escape(db, rq->url, ulen, url, 2 * ulen + 1) < 0 ||
	    db_escape(db, endpoint_id, strlen(endpoint_id), ep, sizeof(ep)) < 0)
		goto out;
	raw_hex(p->from.b, ADDR_LEN, payer);
	raw_hex(p->nonce, 32, nonce);
	raw_hex(rq->pay_to.b, ADDR_LEN, pay_to);
	if (sql_format(sql, cap, "SELECT tx_hash FROM x402_payments WHERE payer = UNHEX('%s') AND "
	    "auth_nonce = UNHEX('%s') AND %s AND resource_url = '%s' AND amount = %s "
	    "AND pay_to = UNHEX('%s') AND endpoint_id = '%s'", payer + 2, nonce + 2, cond, url, rq->amount,
	    pay_to + 2, ep) < 0 || db_query_text(db, sql, &res) != DB_OK)
		goto out;
	rc = LEDGER_USED;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);

		rc = LEDGER_OK;
		if (row[0] && len[0] == 32) {
			memcpy(tx, row[0], 32);
			*has_tx = true;
		}
	}
out:
	if (res)
		mysql_free_result(res);
	free(url);
	free(sql);
	return rc;
}

enum ledger_rc
ledger_settled_here(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id, uint8_t tx[32], bool *has_tx)
{
	return lookup(db, p, rq, endpoint_id, "status = 'settled'", tx, has_tx);
}

enum ledger_rc
ledger_unknown_here(struct db *db, const struct x402_payment *p, const struct x402_requirements *rq,
    const char *endpoint_id)
{
	uint8_t tx[32];
	bool has_tx;

	return lookup(db, p, rq, endpoint_id, "((status = 'failed' AND reason = 'settle_unknown') OR "
	    "(status = 'reserved' AND updated_at < UTC_TIMESTAMP(6) - INTERVAL " LEDGER_ABANDONED_S
	    " SECOND))", tx, &has_tx);
}

int
ledger_mark(struct db *db, const struct x402_payment *p, enum ledger_status status,
    const uint8_t *tx, const char *reason)
{
	char payer[ADDR_LEN * 2 + 3], nonce[32 * 2 + 3], txh[32 * 2 + 3], why[2 * 96 + 1];
	char sql[1024], txs[80] = "NULL", rs[2 * 96 + 8] = "NULL";

	if ((unsigned)status >= LEDGER__MAX)
		return -1;
	raw_hex(p->from.b, ADDR_LEN, payer);
	raw_hex(p->nonce, 32, nonce);
	if (tx && sql_format(txs, sizeof(txs), "UNHEX('%s')", raw_hex(tx, 32, txh)) < 0)
		return -1;
	if (reason && strlen(reason) <= 96 && db_escape(db, reason, strlen(reason), why, sizeof(why)) == 0 &&
	    sql_format(rs, sizeof(rs), "'%s'", why) < 0)
		return -1;
	/* A settled row stays settled: a late failure never downgrades it. */
	if (sql_format(sql, sizeof(sql), "UPDATE x402_payments SET status = '%s', tx_hash = %s, reason = %s, "
	    "updated_at = UTC_TIMESTAMP(6) WHERE payer = UNHEX('%s') AND auth_nonce = UNHEX('%s')%s",
	    status_names[status], txs, rs, payer + 2, nonce + 2,
	    status == LEDGER_SETTLED ? "" : " AND status <> 'settled'") < 0)
		return -1;
	return db_exec_text(db, sql, false) == DB_OK ? 0 : -1;
}

enum ledger_rc
ledger_claim_unknown(struct db *db, const struct x402_payment *p)
{
	char payer[ADDR_LEN * 2 + 3], nonce[32 * 2 + 3], sql[768];

	raw_hex(p->from.b, ADDR_LEN, payer);
	raw_hex(p->nonce, 32, nonce);
	if (sql_format(sql, sizeof(sql), "UPDATE x402_payments SET status = 'reserved', reason = 'unknown_retry', "
	    "updated_at = UTC_TIMESTAMP(6) WHERE payer = UNHEX('%s') AND auth_nonce = UNHEX('%s') AND "
	    "((status = 'failed' AND reason = 'settle_unknown') OR (status = 'reserved' AND updated_at < "
	    "UTC_TIMESTAMP(6) - INTERVAL " LEDGER_ABANDONED_S " SECOND))", payer + 2, nonce + 2) < 0)
		return LEDGER_UNAVAILABLE;
	if (db_exec_text(db, sql, false) != DB_OK)
		return LEDGER_UNAVAILABLE;
	return mysql_affected_rows(db->my) == 1 ? LEDGER_OK : LEDGER_USED;
}
