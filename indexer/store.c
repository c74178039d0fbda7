#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hex.h"
#include "sqlfmt.h"
#include "store.h"
#include "banned.h"

#define SQL_MAX (64u * 1024 * 1024)
#define ROWS_PER_INSERT 2000

/* Lowercase hex without 0x into out (2n+1 bytes). */
static char *
hexraw(const uint8_t *b, size_t n, char *out)
{
	char tmp[2 * 64 + 3];

	hex_encode(b, n, tmp);
	memcpy(out, tmp + 2, 2 * n + 1);
	return out;
}

static enum db_rc
exec_buf(struct store *s, struct buf *b)
{
	if (b->full)
		return DB_ERROR;
	return db_exec_text(s->db, buf_str(b), false);
}

enum db_rc
store_checkpoint(struct store *s, struct checkpoint *cp)
{
	char q[512];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	if (sql_format(q, sizeof(q), "INSERT IGNORE INTO indexer_checkpoints (chain_id, contract, block_number) "
	    "VALUES (%" PRIu64 ", X'%s', %" PRId64 ")", s->chain_id, s->contract_hex,
	    (int64_t)s->start_block - 1) < 0)
		return DB_ERROR;
	if ((rc = db_exec_text(s->db, q, false)) != DB_OK)
		return rc;
	if (sql_format(q, sizeof(q), "SELECT block_number, block_hash FROM indexer_checkpoints "
	    "WHERE chain_id = %" PRIu64 " AND contract = X'%s'", s->chain_id, s->contract_hex) < 0)
		return DB_ERROR;
	if ((rc = db_query_text(s->db, q, &res)) != DB_OK)
		return rc;
	rc = DB_ERROR;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL) {
		long long v = 0;

		sscanf(row[0], "%lld", &v);
		cp->number = v;
		cp->has_hash = row[1] != NULL && len[1] == 32;
		if (cp->has_hash)
			memcpy(cp->hash, row[1], 32);
		rc = DB_OK;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

enum db_rc
store_note_head(struct store *s, uint64_t head)
{
	char q[512];

	if (sql_format(q, sizeof(q), "UPDATE indexer_checkpoints SET head_block = %" PRIu64 ", "
	    "head_seen_at = UTC_TIMESTAMP(), last_error = NULL, last_error_at = NULL "
	    "WHERE chain_id = %" PRIu64 " AND contract = X'%s'", head, s->chain_id, s->contract_hex) < 0)
		return DB_ERROR;
	return db_exec_text(s->db, q, false);
}

enum db_rc
store_note_error(struct store *s, const char *msg)
{
	char esc[2 * 300 + 1], q[1024];
	size_t n = strlen(msg);

	if (n > 300)
		n = 300;
	if (db_escape(s->db, msg, n, esc, sizeof(esc)) < 0)
		return DB_UNAVAILABLE;
	if (sql_format(q, sizeof(q), "UPDATE indexer_checkpoints SET last_error = '%s', "
	    "last_error_at = UTC_TIMESTAMP() WHERE chain_id = %" PRIu64 " AND contract = X'%s'", esc,
	    s->chain_id, s->contract_hex) < 0)
		return DB_ERROR;
	return db_exec_text(s->db, q, false);
}

/* Append ",X'..'" for each distinct 32/20-byte key of a column list. */
static void
add_in_list(struct buf *b, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "%sX'%s'", i ? "," : "", keys[i]);
}

/* Recompute route stats for routes (hex keys) in one pass. */
static enum db_rc
refresh_routes(struct store *s, const char *const *routes, size_t n)
{
	struct buf b;
	enum db_rc rc;

	if (n == 0)
		return DB_OK;
	buf_init(&b, SQL_MAX);
	buf_printf(&b, "DELETE FROM route_recognition_stats WHERE chain_id = %" PRIu64
	    " AND route_id IN (", s->chain_id);
	add_in_list(&b, routes, n);
	buf_adds(&b, ")");
	if ((rc = exec_buf(s, &b)) != DB_OK)
		goto out;
	buf_reset(&b);
	buf_printf(&b, "INSERT INTO route_recognition_stats (chain_id, route_id, recognition_count, "
	    "tipper_count, endpoint_usdc, network_usdc, total_usdc, boon_burned, first_block_time, "
	    "latest_block_time, latest_block_number, latest_tx_hash) "
	    "SELECT chain_id, route_id, COUNT(*), COUNT(DISTINCT tipper), SUM(endpoint_usdc), "
	    "SUM(network_usdc), SUM(endpoint_usdc) + SUM(network_usdc), SUM(boon_burned), "
	    "MIN(block_time), MAX(block_time), MAX(block_number), "
	    "UNHEX(SUBSTRING(MAX(CONCAT(LPAD(block_number, 20, '0'), LPAD(log_index, 10, '0'), "
	    "HEX(tx_hash))), 31)) FROM routed_boons WHERE chain_id = %" PRIu64 " AND route_id IN (",
	    s->chain_id);
	add_in_list(&b, routes, n);
	buf_adds(&b, ") GROUP BY chain_id, route_id");
	rc = exec_buf(s, &b);
out:
	buf_release(&b);
	return rc;
}

/* Recompute wallet roles for wallets (hex keys). */
static enum db_rc
refresh_wallets(struct store *s, const char *const *wallets, size_t n)
{
	static const char *const roles[3][3] = {
		{ "tipper", "tipper", "1" },
		{ "endpoint", "endpoint_pay_to", "endpoint_usdc > 0" },
		{ "network", "network_pay_to", "network_usdc > 0" },
	};
	struct buf b;
	enum db_rc rc;

	if (n == 0)
		return DB_OK;
	buf_init(&b, SQL_MAX);
	buf_printf(&b, "DELETE FROM wallet_roles WHERE chain_id = %" PRIu64 " AND wallet IN (",
	    s->chain_id);
	add_in_list(&b, wallets, n);
	buf_adds(&b, ")");
	if ((rc = exec_buf(s, &b)) != DB_OK)
		goto out;
	buf_reset(&b);
	buf_adds(&b, "INSERT INTO wallet_roles (chain_id, wallet, role, recognition_count, "
	    "first_block_time, latest_block_time) ");
	for (int k = 0; k < 3; k++) {
		buf_printf(&b, "%sSELECT chain_id, %s, '%s', COUNT(*), MIN(block_time), MAX(block_time) "
		    "FROM routed_boons WHERE chain_id = %" PRIu64 " AND %s AND %s IN (", k ? " UNION ALL " : "",
		    roles[k][1], roles[k][0], s->chain_id, roles[k][2], roles[k][1]);
		add_in_list(&b, wallets, n);
		buf_printf(&b, ") GROUP BY chain_id, %s", roles[k][1]);
	}
	rc = exec_buf(s, &b);
out:
	buf_release(&b);
	return rc;
}

static int
key_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Sort keys[0..n) and keep each distinct one once; returns the count. */
static size_t
uniq(char (*keys)[65], size_t n)
{
	size_t m = 0;

	qsort(keys, n, sizeof(keys[0]), key_cmp);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || strcmp(keys[m - 1], keys[i]) != 0) {
			if (m != i)
				memcpy(keys[m], keys[i], sizeof(keys[0]));
			m++;
		}
	return m;
}

/* Recompute aggregates for the given route and wallet key arrays. */
static enum db_rc
refresh(struct store *s, char (*routes)[65], size_t nr, char (*wallets)[65], size_t nw)
{
	const char **rp = NULL, **wp = NULL;
	enum db_rc rc;

	nr = uniq(routes, nr);
	nw = uniq(wallets, nw);
	rp = calloc(nr + 1, sizeof(*rp));
	wp = calloc(nw + 1, sizeof(*wp));
	if (rp == NULL || wp == NULL) {
		free(rp);
		free(wp);
		return DB_ERROR;
	}
	for (size_t i = 0; i < nr; i++)
		rp[i] = routes[i];
	for (size_t i = 0; i < nw; i++)
		wp[i] = wallets[i];
	rc = refresh_routes(s, rp, nr);
	if (rc == DB_OK)
		rc = refresh_wallets(s, wp, nw);
	free(rp);
	free(wp);
	return rc;
}

/* uint256 as a decimal for DECIMAL(65,0); -1 when it has more digits. */
static int
dec65(const struct u256 *v, char out[U256_DEC_MAX + 1])
{
	u256_format_dec(v, out);
	return strlen(out) > 65 ? -1 : 0;
}

enum db_rc
store_range(struct store *s, const struct routedboon *rows, size_t n,
    const struct block_ref *blocks, size_t nb, uint64_t to, const uint8_t to_hash[32],
    size_t *stored)
{
	struct buf b;
	char (*routes)[65] = calloc(n + 1, sizeof(*routes));
	char (*wallets)[65] = calloc(3 * n + 1, sizeof(*wallets));
	size_t nw = 0;
	char h1[65], h2[65];
	enum db_rc rc;

	*stored = 0;
	if (routes == NULL || wallets == NULL) {
		free(routes);
		free(wallets);
		return DB_ERROR;
	}
	buf_init(&b, SQL_MAX);
	if ((rc = db_begin(s->db)) != DB_OK)
		goto out;
	for (size_t i = 0; i < n; i += ROWS_PER_INSERT) {
		size_t end = i + ROWS_PER_INSERT < n ? i + ROWS_PER_INSERT : n;

		buf_reset(&b);
		buf_adds(&b, "INSERT IGNORE INTO routed_boons (chain_id, tx_hash, log_index, contract, "
		    "block_number, block_hash, block_time, route_id, tipper, context_ref, endpoint_pay_to, "
		    "endpoint_usdc, network_pay_to, network_usdc, boon_burned) VALUES ");
		for (size_t k = i; k < end; k++) {
			const struct routedboon *r = &rows[k];
			char tx[65], bh[65], rid[65], tip[41], ctx[65], ep[41], nw_[41];
			char eu[U256_DEC_MAX + 1], nu[U256_DEC_MAX + 1], bu[U256_DEC_MAX + 1];

			if (dec65(&r->endpoint_usdc, eu) < 0 || dec65(&r->network_usdc, nu) < 0 ||
			    dec65(&r->boon_burned, bu) < 0) {
				rc = DB_ERROR;
				snprintf(s->db->err, sizeof(s->db->err),
				    "an amount has more than 65 digits (block %" PRIu64 ")", r->block_number);
				goto out;
			}
			buf_printf(&b, "%s(%" PRIu64 ",X'%s',%" PRIu64 ",X'%s',%" PRIu64 ",X'%s',%" PRIu64
			    ",X'%s',X'%s',X'%s',X'%s',%s,X'%s',%s,%s)", k > i ? "," : "", s->chain_id,
			    hexraw(r->tx_hash, 32, tx), r->log_index, s->contract_hex, r->block_number,
			    hexraw(r->block_hash, 32, bh), r->block_time, hexraw(r->route_id, 32, rid),
			    hexraw(r->tipper.b, 20, tip), hexraw(r->context_ref, 32, ctx),
			    hexraw(r->endpoint_pay_to.b, 20, ep), eu, hexraw(r->network_pay_to.b, 20, nw_),
			    nu, bu);
			memcpy(routes[k], rid, sizeof(rid));
			memcpy(wallets[nw++], tip, sizeof(tip));
			if (!u256_is_zero(&r->endpoint_usdc))
				memcpy(wallets[nw++], ep, sizeof(ep));
			if (!u256_is_zero(&r->network_usdc))
				memcpy(wallets[nw++], nw_, sizeof(nw_));
		}
		if ((rc = exec_buf(s, &b)) != DB_OK)
			goto out;
		*stored += (size_t)mysql_affected_rows(s->db->my);
	}
	buf_reset(&b);
	buf_adds(&b, "INSERT INTO indexer_blocks (chain_id, contract, block_number, block_hash) VALUES ");
	for (size_t k = 0; k < nb; k++)
		buf_printf(&b, "%s(%" PRIu64 ",X'%s',%" PRIu64 ",X'%s')", k ? "," : "", s->chain_id,
		    s->contract_hex, blocks[k].number, hexraw(blocks[k].hash, 32, h1));
	buf_printf(&b, "%s(%" PRIu64 ",X'%s',%" PRIu64 ",X'%s') ON DUPLICATE KEY UPDATE "
	    "block_hash = VALUES(block_hash)", nb ? "," : "", s->chain_id, s->contract_hex, to,
	    hexraw(to_hash, 32, h2));
	if ((rc = exec_buf(s, &b)) != DB_OK)
		goto out;
	buf_reset(&b);
	buf_printf(&b, "UPDATE indexer_checkpoints SET block_number = %" PRIu64 ", block_hash = X'%s', "
	    "updated_at = UTC_TIMESTAMP() WHERE chain_id = %" PRIu64 " AND contract = X'%s'", to, h2,
	    s->chain_id, s->contract_hex);
	if ((rc = exec_buf(s, &b)) != DB_OK)
		goto out;
	if ((rc = refresh(s, routes, n, wallets, nw)) != DB_OK)
		goto out;
	rc = db_commit(s->db);
out:
	if (rc != DB_OK)
		db_rollback(s->db);
	buf_release(&b);
	free(routes);
	free(wallets);
	return rc;
}

enum db_rc
store_recent_blocks(struct store *s, int64_t below, struct block_ref *out, size_t max, size_t *n)
{
	char q[512];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*n = 0;
	if (sql_format(q, sizeof(q), "SELECT block_number, block_hash FROM indexer_blocks WHERE chain_id = %"
	    PRIu64 " AND contract = X'%s' AND block_number <= %" PRId64 " ORDER BY block_number DESC "
	    "LIMIT %zu", s->chain_id, s->contract_hex, below, max) < 0)
		return DB_ERROR;
	if ((rc = db_query_text(s->db, q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL && *n < max) {
		unsigned long *len = mysql_fetch_lengths(res);
		unsigned long long v = 0;

		if (len[1] != 32)
			continue;
		sscanf(row[0], "%llu", &v);
		out[*n].number = v;
		memcpy(out[*n].hash, row[1], 32);
		(*n)++;
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

/* Hex keys of one column for the rows above fork. */
static enum db_rc
collect(struct store *s, const char *col, int64_t fork, char (**keys)[65], size_t *n)
{
	char q[512];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;
	size_t cap;
	char (*grown)[65];

	*n = 0;
	if (sql_format(q, sizeof(q), "SELECT DISTINCT LOWER(HEX(%s)) FROM routed_boons WHERE chain_id = %"
	    PRIu64 " AND contract = X'%s' AND block_number > %" PRId64, col, s->chain_id,
	    s->contract_hex, fork) < 0)
		return DB_ERROR;
	if ((rc = db_query_text(s->db, q, &res)) != DB_OK)
		return rc;
	cap = res ? (size_t)mysql_num_rows(res) : 0;
	/* On failure *keys stays as it was, for the caller to free. */
	if ((grown = realloc(*keys, (cap + 1) * sizeof(**keys))) == NULL) {
		if (res)
			mysql_free_result(res);
		return DB_ERROR;
	}
	*keys = grown;
	while (res && *n < cap && (row = mysql_fetch_row(res)) != NULL)
		if (row[0])
			snprintf((*keys)[(*n)++], 65, "%s", row[0]);
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

enum db_rc
store_rollback(struct store *s, int64_t fork, size_t *removed)
{
	char (*routes)[65] = NULL, (*wallets)[65] = NULL, (*more)[65] = NULL, (*grown)[65];
	size_t nr = 0, nw = 0, nm = 0;
	char q[768];
	enum db_rc rc;

	*removed = 0;
	if ((rc = db_begin(s->db)) != DB_OK)
		return rc;
	if ((rc = collect(s, "route_id", fork, &routes, &nr)) != DB_OK ||
	    (rc = collect(s, "tipper", fork, &wallets, &nw)) != DB_OK)
		goto out;
	for (int k = 0; k < 2; k++) {
		if ((rc = collect(s, k ? "network_pay_to" : "endpoint_pay_to", fork, &more, &nm)) != DB_OK)
			goto out;
		grown = realloc(wallets, (nw + nm + 1) * sizeof(*wallets));
		if (grown == NULL) {
			rc = DB_ERROR;
			goto out;
		}
		wallets = grown;
		memcpy(wallets + nw, more, nm * sizeof(*more));
		nw += nm;
	}
	if (sql_format(q, sizeof(q), "DELETE FROM routed_boons WHERE chain_id = %" PRIu64 " AND contract = "
	    "X'%s' AND block_number > %" PRId64, s->chain_id, s->contract_hex, fork) < 0) {
		rc = DB_ERROR;
		goto out;
	}
	if ((rc = db_exec_text(s->db, q, false)) != DB_OK)
		goto out;
	*removed = (size_t)mysql_affected_rows(s->db->my);
	if (sql_format(q, sizeof(q), "DELETE FROM indexer_blocks WHERE chain_id = %" PRIu64 " AND contract = "
	    "X'%s' AND block_number > %" PRId64, s->chain_id, s->contract_hex, fork) < 0) {
		rc = DB_ERROR;
		goto out;
	}
	if ((rc = db_exec_text(s->db, q, false)) != DB_OK)
		goto out;
	if (sql_format(q, sizeof(q), "UPDATE indexer_checkpoints c SET c.block_number = %" PRId64 ", "
	    "c.block_hash = (SELECT b.block_hash FROM indexer_blocks b WHERE b.chain_id = c.chain_id "
	    "AND b.contract = c.contract AND b.block_number = %" PRId64 "), c.updated_at = UTC_TIMESTAMP() "
	    "WHERE c.chain_id = %" PRIu64 " AND c.contract = X'%s'", fork, fork, s->chain_id,
	    s->contract_hex) < 0) {
		rc = DB_ERROR;
		goto out;
	}
	if ((rc = db_exec_text(s->db, q, false)) != DB_OK)
		goto out;
	if ((rc = refresh(s, routes, nr, wallets, nw)) != DB_OK)
		goto out;
	rc = db_commit(s->db);
out:
	if (rc != DB_OK)
		db_rollback(s->db);
	free(routes);
	free(wallets);
	free(more);
	return rc;
}
