#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "sql.h"
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

/* The contract's 20 bytes. */
static void
contract(const struct store *s, uint8_t out[20])
{
	if (hex_decode_fixed(s->contract_hex, strlen(s->contract_hex), out, 20, false) < 0)
		memset(out, 0, 20);
}

/* A statement over a big buffer of its own (released by sql_free). */
static int
sql_big(struct sql *q)
{
	char *p = malloc(SQL_MAX);

	sql_on(q, p, p ? SQL_MAX : 0);
	return p ? 0 : -1;
}

static void
sql_free(struct sql *q)
{
	free(q->p);
	q->p = NULL;
}

enum db_rc
store_fence(struct store *s)
{
	return s->lease != NULL ? lease_fence(s->lease) : DB_OK;
}

enum db_rc
store_lease_check(struct store *s)
{
	return s->lease != NULL ? lease_check(s->lease) : DB_OK;
}

enum db_rc
store_checkpoint(struct store *s, struct checkpoint *cp)
{
	char b[512];
	struct sql q = SQL_ON(b);
	uint8_t ct[20];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	contract(s, ct);
	sql_add(&q, "INSERT IGNORE INTO indexer_checkpoints (chain_id, contract, block_number) "
	    "VALUES (?, ?, ?)", SQL_U64(s->chain_id), SQL_BYTES(ct, 20), SQL_I64((int64_t)s->start_block - 1));
	if ((rc = db_exec(s->db, &q)) != DB_OK)
		return rc;
	sql_reset(&q);
	sql_add(&q, "SELECT block_number, block_hash FROM indexer_checkpoints "
	    "WHERE chain_id = ? AND contract = ?", SQL_U64(s->chain_id), SQL_BYTES(ct, 20));
	if ((rc = db_query(s->db, &q, &res)) != DB_OK)
		return rc;
	rc = DB_ERROR;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL) {
		int64_t v;

		if (db_row_i64(row, 0, "block_number", &v) == DB_OK) {
			cp->number = v;
			cp->has_hash = row[1] != NULL && len[1] == 32;
			if (cp->has_hash)
				memcpy(cp->hash, row[1], 32);
			rc = DB_OK;
		}
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/*
 * The notes for /health are single statements, not fenced transactions:
 * this condition makes one that a process without the lease sends change
 * nothing.
 */
static void
held_only(const struct store *s, struct sql *q)
{
	if (s->lease != NULL)
		sql_add(q, " AND EXISTS (SELECT 1 FROM indexer_lease WHERE chain_id = ? AND holder = ? AND "
		    "expires_at > UTC_TIMESTAMP(3))", SQL_U64(s->chain_id), SQL_TEXT(s->lease->id));
}

enum db_rc
store_note_head(struct store *s, uint64_t head)
{
	char b[1024];
	struct sql q = SQL_ON(b);
	uint8_t ct[20];

	contract(s, ct);
	sql_add(&q, "UPDATE indexer_checkpoints SET head_block = ?, "
	    "head_seen_at = UTC_TIMESTAMP(), last_error = NULL, last_error_at = NULL "
	    "WHERE chain_id = ? AND contract = ?", SQL_U64(head), SQL_U64(s->chain_id), SQL_BYTES(ct, 20));
	held_only(s, &q);
	return db_exec(s->db, &q);
}

enum db_rc
store_note_error(struct store *s, const char *msg)
{
	char b[2048];
	struct sql q = SQL_ON(b);
	uint8_t ct[20];
	size_t n = strlen(msg);

	if (n > 300)
		n = 300;
	contract(s, ct);
	sql_add(&q, "UPDATE indexer_checkpoints SET last_error = ?, "
	    "last_error_at = UTC_TIMESTAMP() WHERE chain_id = ? AND contract = ?", SQL_TEXTN(msg, n),
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20));
	held_only(s, &q);
	return db_exec(s->db, &q);
}

/* Append "?,?,..." with each distinct 32/20-byte key (hex) of a list as bytes. */
static void
add_in_list(struct sql *q, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t k[32];
		size_t len = strlen(keys[i]) / 2;

		if (len > sizeof(k) || hex_decode_fixed(keys[i], 2 * len, k, len, false) < 0) {
			q->bad = true;
			return;
		}
		if (i)
			sql_add(q, ",?", SQL_BYTES(k, len));
		else
			sql_add(q, "?", SQL_BYTES(k, len));
	}
}

/* Recompute route stats for routes (hex keys) in one pass. */
static enum db_rc
refresh_routes(struct store *s, const char *const *routes, size_t n)
{
	struct sql q;
	enum db_rc rc;

	if (n == 0)
		return DB_OK;
	if (sql_big(&q) < 0)
		return DB_ERROR;
	sql_add(&q, "DELETE FROM route_recognition_stats WHERE chain_id = ? AND route_id IN (",
	    SQL_U64(s->chain_id));
	add_in_list(&q, routes, n);
	sql_add(&q, ")");
	if ((rc = db_exec(s->db, &q)) != DB_OK)
		goto out;
	sql_reset(&q);
	sql_add(&q, "INSERT INTO route_recognition_stats (chain_id, route_id, recognition_count, "
	    "tipper_count, endpoint_usdc, network_usdc, total_usdc, boon_burned, first_block_time, "
	    "latest_block_time, latest_block_number, latest_tx_hash) "
	    "SELECT chain_id, route_id, COUNT(*), COUNT(DISTINCT tipper), SUM(endpoint_usdc), "
	    "SUM(network_usdc), SUM(endpoint_usdc) + SUM(network_usdc), SUM(boon_burned), "
	    "MIN(block_time), MAX(block_time), MAX(block_number), "
	    "UNHEX(SUBSTRING(MAX(CONCAT(LPAD(block_number, 20, '0'), LPAD(log_index, 10, '0'), "
	    "HEX(tx_hash))), 31)) FROM routed_boons WHERE chain_id = ? AND route_id IN (",
	    SQL_U64(s->chain_id));
	add_in_list(&q, routes, n);
	sql_add(&q, ") GROUP BY chain_id, route_id");
	rc = db_exec(s->db, &q);
out:
	sql_free(&q);
	return rc;
}

/* Recompute wallet roles for wallets (hex keys). */
static enum db_rc
refresh_wallets(struct store *s, const char *const *wallets, size_t n)
{
	struct sql q;
	enum db_rc rc;

	if (n == 0)
		return DB_OK;
	if (sql_big(&q) < 0)
		return DB_ERROR;
	sql_add(&q, "DELETE FROM wallet_roles WHERE chain_id = ? AND wallet IN (", SQL_U64(s->chain_id));
	add_in_list(&q, wallets, n);
	sql_add(&q, ")");
	if ((rc = db_exec(s->db, &q)) != DB_OK)
		goto out;
	sql_reset(&q);
	sql_add(&q, "INSERT INTO wallet_roles (chain_id, wallet, role, recognition_count, "
	    "first_block_time, latest_block_time) ");
	sql_add(&q, "SELECT chain_id, tipper, 'tipper', COUNT(*), MIN(block_time), MAX(block_time) "
	    "FROM routed_boons WHERE chain_id = ? AND tipper IN (", SQL_U64(s->chain_id));
	add_in_list(&q, wallets, n);
	sql_add(&q, ") GROUP BY chain_id, tipper");
	sql_add(&q, " UNION ALL SELECT chain_id, endpoint_pay_to, 'endpoint', COUNT(*), MIN(block_time), "
	    "MAX(block_time) FROM routed_boons WHERE chain_id = ? AND endpoint_usdc > 0 AND "
	    "endpoint_pay_to IN (", SQL_U64(s->chain_id));
	add_in_list(&q, wallets, n);
	sql_add(&q, ") GROUP BY chain_id, endpoint_pay_to");
	sql_add(&q, " UNION ALL SELECT chain_id, network_pay_to, 'network', COUNT(*), MIN(block_time), "
	    "MAX(block_time) FROM routed_boons WHERE chain_id = ? AND network_usdc > 0 AND "
	    "network_pay_to IN (", SQL_U64(s->chain_id));
	add_in_list(&q, wallets, n);
	sql_add(&q, ") GROUP BY chain_id, network_pay_to");
	rc = db_exec(s->db, &q);
out:
	sql_free(&q);
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

struct range {
	struct store *s;
	const struct routedboon *rows;
	size_t n;
	const struct block_ref *blocks;
	size_t nb;
	uint64_t to;
	const uint8_t *to_hash;
	size_t *stored;
	char (*routes)[65];
	char (*wallets)[65];
	struct sql q;
};

/* The body of store_range's transaction (db_txn may run it again). */
static enum db_rc
range_body(struct db *db, void *arg)
{
	struct range *g = arg;
	struct store *s = g->s;
	struct sql *q = &g->q;
	size_t nw = 0;
	uint8_t ct[20];
	enum db_rc rc;

	(void)db;
	*g->stored = 0;
	if ((rc = store_lease_check(s)) != DB_OK)
		return rc;
	contract(s, ct);
	for (size_t i = 0; i < g->n; i += ROWS_PER_INSERT) {
		size_t end = i + ROWS_PER_INSERT < g->n ? i + ROWS_PER_INSERT : g->n;

		sql_reset(q);
		sql_add(q, "INSERT IGNORE INTO routed_boons (chain_id, tx_hash, log_index, contract, "
		    "block_number, block_hash, block_time, route_id, tipper, context_ref, endpoint_pay_to, "
		    "endpoint_usdc, network_pay_to, network_usdc, boon_burned) VALUES ");
		for (size_t k = i; k < end; k++) {
			const struct routedboon *r = &g->rows[k];
			char eu[U256_DEC_MAX + 1], nu[U256_DEC_MAX + 1], bu[U256_DEC_MAX + 1];

			if (dec65(&r->endpoint_usdc, eu) < 0 || dec65(&r->network_usdc, nu) < 0 ||
			    dec65(&r->boon_burned, bu) < 0) {
				snprintf(s->db->err, sizeof(s->db->err),
				    "an amount has more than 65 digits (block %" PRIu64 ")", r->block_number);
				return DB_ERROR;
			}
			if (k > i)
				sql_add(q, ",");
			sql_add(q, "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", SQL_U64(s->chain_id),
			    SQL_BYTES(r->tx_hash, 32), SQL_U64(r->log_index), SQL_BYTES(ct, 20),
			    SQL_U64(r->block_number), SQL_BYTES(r->block_hash, 32), SQL_U64(r->block_time),
			    SQL_BYTES(r->route_id, 32), SQL_BYTES(r->tipper.b, 20), SQL_BYTES(r->context_ref, 32),
			    SQL_BYTES(r->endpoint_pay_to.b, 20), SQL_DEC(eu), SQL_BYTES(r->network_pay_to.b, 20),
			    SQL_DEC(nu), SQL_DEC(bu));
			hexraw(r->route_id, 32, g->routes[k]);
			hexraw(r->tipper.b, 20, g->wallets[nw++]);
			if (!u256_is_zero(&r->endpoint_usdc))
				hexraw(r->endpoint_pay_to.b, 20, g->wallets[nw++]);
			if (!u256_is_zero(&r->network_usdc))
				hexraw(r->network_pay_to.b, 20, g->wallets[nw++]);
		}
		if ((rc = db_exec(s->db, q)) != DB_OK)
			return rc;
		*g->stored += (size_t)mysql_affected_rows(s->db->my);
	}
	if ((rc = store_advance(s, q, g->blocks, g->nb, g->to, g->to_hash)) != DB_OK ||
	    (rc = refresh(s, g->routes, g->n, g->wallets, nw)) != DB_OK)
		return rc;
	return store_fence(s);
}

enum db_rc
store_advance(struct store *s, struct sql *q, const struct block_ref *blocks, size_t nb, uint64_t to,
    const uint8_t to_hash[32])
{
	uint8_t ct[20];
	enum db_rc rc;

	contract(s, ct);
	sql_reset(q);
	sql_add(q, "INSERT INTO indexer_blocks (chain_id, contract, block_number, block_hash) VALUES ");
	for (size_t k = 0; k < nb; k++)
		sql_add(q, "(?,?,?,?),", SQL_U64(s->chain_id), SQL_BYTES(ct, 20), SQL_U64(blocks[k].number),
		    SQL_BYTES(blocks[k].hash, 32));
	sql_add(q, "(?,?,?,?) ON DUPLICATE KEY UPDATE block_hash = VALUES(block_hash)", SQL_U64(s->chain_id),
	    SQL_BYTES(ct, 20), SQL_U64(to), SQL_BYTES(to_hash, 32));
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	sql_add(q, "UPDATE indexer_checkpoints SET block_number = ?, block_hash = ?, "
	    "updated_at = UTC_TIMESTAMP() WHERE chain_id = ? AND contract = ?", SQL_U64(to),
	    SQL_BYTES(to_hash, 32), SQL_U64(s->chain_id), SQL_BYTES(ct, 20));
	return db_exec(s->db, q);
}

enum db_rc
store_range(struct store *s, const struct routedboon *rows, size_t n,
    const struct block_ref *blocks, size_t nb, uint64_t to, const uint8_t to_hash[32],
    size_t *stored)
{
	struct range g = { .s = s, .rows = rows, .n = n, .blocks = blocks, .nb = nb, .to = to,
	    .to_hash = to_hash, .stored = stored };
	enum db_rc rc = DB_ERROR;

	*stored = 0;
	g.routes = calloc(n + 1, sizeof(*g.routes));
	g.wallets = calloc(3 * n + 1, sizeof(*g.wallets));
	if (g.routes != NULL && g.wallets != NULL && sql_big(&g.q) == 0) {
		rc = db_txn(s->db, range_body, &g);
		sql_free(&g.q);
	}
	if (rc != DB_OK)
		*stored = 0;
	free(g.routes);
	free(g.wallets);
	return rc;
}

enum db_rc
store_recent_blocks(struct store *s, int64_t below, struct block_ref *out, size_t max, size_t *n)
{
	char b[512];
	struct sql q = SQL_ON(b);
	uint8_t ct[20];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*n = 0;
	contract(s, ct);
	sql_add(&q, "SELECT block_number, block_hash FROM indexer_blocks WHERE chain_id = ? AND contract = ? "
	    "AND block_number <= ? ORDER BY block_number DESC LIMIT ?", SQL_U64(s->chain_id),
	    SQL_BYTES(ct, 20), SQL_I64(below), SQL_U64(max));
	if ((rc = db_query(s->db, &q, &res)) != DB_OK)
		return rc;
	rc = DB_OK;
	while (res && (row = mysql_fetch_row(res)) != NULL && *n < max) {
		unsigned long *len = mysql_fetch_lengths(res);
		uint64_t v;

		if (len[1] != 32)
			continue;
		if (db_row_u64(row, 0, "block_number", &v) != DB_OK) {
			rc = DB_ERROR;
			break;
		}
		out[*n].number = v;
		memcpy(out[*n].hash, row[1], 32);
		(*n)++;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

enum key_col { COL_ROUTE, COL_TIPPER, COL_ENDPOINT_PAY_TO, COL_NETWORK_PAY_TO };

/* Hex keys of one column for the rows above fork. */
static enum db_rc
collect(struct store *s, enum key_col col, int64_t fork, char (**keys)[65], size_t *n)
{
	char b[512];
	struct sql q = SQL_ON(b);
	uint8_t ct[20];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;
	size_t cap;
	char (*grown)[65];

	*n = 0;
	contract(s, ct);
	switch (col) {
	case COL_ROUTE:
		sql_add(&q, "SELECT DISTINCT LOWER(HEX(route_id))");
		break;
	case COL_TIPPER:
		sql_add(&q, "SELECT DISTINCT LOWER(HEX(tipper))");
		break;
	case COL_ENDPOINT_PAY_TO:
		sql_add(&q, "SELECT DISTINCT LOWER(HEX(endpoint_pay_to))");
		break;
	case COL_NETWORK_PAY_TO:
		sql_add(&q, "SELECT DISTINCT LOWER(HEX(network_pay_to))");
		break;
	}
	sql_add(&q, " FROM routed_boons WHERE chain_id = ? AND contract = ? AND block_number > ?",
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20), SQL_I64(fork));
	if ((rc = db_query(s->db, &q, &res)) != DB_OK)
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

struct unwind {
	struct store *s;
	int64_t fork;
	size_t *removed;
	char (*routes)[65], (*wallets)[65], (*more)[65];
};

/* The body of store_rollback's transaction (db_txn may run it again). */
static enum db_rc
unwind_body(struct db *db, void *arg)
{
	struct unwind *u = arg;
	struct store *s = u->s;
	size_t nr = 0, nw = 0, nm = 0;
	char (*grown)[65];
	char b[768];
	struct sql q = SQL_ON(b);
	uint8_t ct[20];
	enum db_rc rc;

	(void)db;
	*u->removed = 0;
	if ((rc = store_lease_check(s)) != DB_OK)
		return rc;
	contract(s, ct);
	if ((rc = collect(s, COL_ROUTE, u->fork, &u->routes, &nr)) != DB_OK ||
	    (rc = collect(s, COL_TIPPER, u->fork, &u->wallets, &nw)) != DB_OK)
		return rc;
	for (int k = 0; k < 2; k++) {
		if ((rc = collect(s, k ? COL_NETWORK_PAY_TO : COL_ENDPOINT_PAY_TO, u->fork, &u->more, &nm)) !=
		    DB_OK)
			return rc;
		grown = realloc(u->wallets, (nw + nm + 1) * sizeof(*u->wallets));
		if (grown == NULL)
			return DB_ERROR;
		u->wallets = grown;
		memcpy(u->wallets + nw, u->more, nm * sizeof(*u->more));
		nw += nm;
	}
	sql_add(&q, "DELETE FROM routed_boons WHERE chain_id = ? AND contract = ? AND block_number > ?",
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20), SQL_I64(u->fork));
	if ((rc = db_exec(s->db, &q)) != DB_OK)
		return rc;
	*u->removed = (size_t)mysql_affected_rows(s->db->my);
	sql_reset(&q);
	sql_add(&q, "DELETE FROM indexer_blocks WHERE chain_id = ? AND contract = ? AND block_number > ?",
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20), SQL_I64(u->fork));
	if ((rc = db_exec(s->db, &q)) != DB_OK)
		return rc;
	sql_reset(&q);
	sql_add(&q, "UPDATE indexer_checkpoints c SET c.block_number = ?, "
	    "c.block_hash = (SELECT b.block_hash FROM indexer_blocks b WHERE b.chain_id = c.chain_id "
	    "AND b.contract = c.contract AND b.block_number = ?), c.updated_at = UTC_TIMESTAMP() "
	    "WHERE c.chain_id = ? AND c.contract = ?", SQL_I64(u->fork), SQL_I64(u->fork),
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20));
	if ((rc = db_exec(s->db, &q)) != DB_OK ||
	    (rc = refresh(s, u->routes, nr, u->wallets, nw)) != DB_OK)
		return rc;
	return store_fence(s);
}

enum db_rc
store_rollback(struct store *s, int64_t fork, size_t *removed)
{
	struct unwind u = { .s = s, .fork = fork, .removed = removed };
	enum db_rc rc;

	*removed = 0;
	rc = db_txn(s->db, unwind_body, &u);
	if (rc != DB_OK)
		*removed = 0;
	free(u.routes);
	free(u.wallets);
	free(u.more);
	return rc;
}
