#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "lease.h"
#include "sql.h"
#include "banned.h"

void
lease_init(struct lease *l, struct db *db, const struct config *cfg)
{
	char host[64];
	uint32_t r = 0;

	memset(l, 0, sizeof(*l));
	l->db = db;
	l->chain_id = cfg->chain_id;
	l->ms = cfg->indexer_lease_ms;
	/*
	 * A holder that stalls inside a transaction (paused, or cut off)
	 * holds the lease row's lock from its fence to its commit; on one
	 * server a standby's take would wait for it however long that is.
	 * The server ends such a connection after a lease's time idle, and
	 * a transaction that waited that long could not have kept the lease
	 * anyway (its fence finds it expired).
	 */
	db_idle_txn_timeout(db, (unsigned int)((l->ms + 999) / 1000));
	if (cfg->indexer_id[0] != '\0') {
		snprintf(l->id, sizeof(l->id), "%s", cfg->indexer_id);
		return;
	}
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	/* The random part tells apart two processes given the same pid (two hosts, or a container). */
	if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		r = (uint32_t)getpid() * 2654435761u;
	snprintf(l->id, sizeof(l->id), "%s:%ld:%08" PRIx32, host, (long)getpid(), r);
}

/* The row, expired at once, when it is missing (a duplicate key: it is there). */
static enum db_rc
ensure_row(struct lease *l)
{
	char b[256];
	struct sql q = SQL_ON(b);
	uint64_t n;

	sql_add(&q, "INSERT IGNORE INTO indexer_lease (chain_id, holder, expires_at) "
	    "VALUES (?, '', UTC_TIMESTAMP(3))", SQL_U64(l->chain_id));
	return db_exec_affected(l->db, &q, &n);
}

/* The renewing UPDATE: it matches only this holder's unexpired row. */
static void
renewal(const struct lease *l, struct sql *q)
{
	sql_add(q, "UPDATE indexer_lease SET expires_at = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND, "
	    "renewed_at = UTC_TIMESTAMP(3) WHERE chain_id = ? AND holder = ? AND "
	    "expires_at > UTC_TIMESTAMP(3)", SQL_U64(l->ms * 1000), SQL_U64(l->chain_id), SQL_TEXT(l->id));
}

enum db_rc
lease_take(struct lease *l, bool *won)
{
	char b[512];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	enum db_rc rc;

	*won = false;
	sql_add(&q, "UPDATE indexer_lease SET holder = ?, expires_at = UTC_TIMESTAMP(3) + INTERVAL ? "
	    "MICROSECOND, term = term + 1, taken_at = UTC_TIMESTAMP(3), renewed_at = UTC_TIMESTAMP(3) "
	    "WHERE chain_id = ? AND (holder = ? OR expires_at <= UTC_TIMESTAMP(3))", SQL_TEXT(l->id),
	    SQL_U64(l->ms * 1000), SQL_U64(l->chain_id), SQL_TEXT(l->id));
	if ((rc = db_exec_affected(l->db, &q, &n)) != DB_OK)
		return rc;
	if (n == 0) {
		bool found;
		char c[160];
		struct sql e = SQL_ON(c);
		uint64_t one;

		/* No row matched: taken by another, or missing (made expired, then tried once more). */
		sql_add(&e, "SELECT 1 FROM indexer_lease WHERE chain_id = ?", SQL_U64(l->chain_id));
		if ((rc = db_query_u64(l->db, &e, &one, &found)) != DB_OK)
			return rc;
		if (!found) {
			if ((rc = ensure_row(l)) != DB_OK || (rc = db_exec_affected(l->db, &q, &n)) != DB_OK)
				return rc;
		}
	}
	*won = n == 1;
	l->held = *won;
	l->lost = false;
	return DB_OK;
}

enum db_rc
lease_renew(struct lease *l, bool *kept)
{
	char b[400];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	enum db_rc rc;

	*kept = false;
	renewal(l, &q);
	if ((rc = db_exec_affected(l->db, &q, &n)) != DB_OK)
		return rc;
	*kept = n == 1;
	l->held = *kept;
	return DB_OK;
}

/* The lease lost: the caller's transaction rolls back. */
static enum db_rc
lost(struct lease *l)
{
	snprintf(l->db->err, sizeof(l->db->err), "the indexer lease is no longer this process's (%s)", l->id);
	l->held = false;
	l->lost = true;
	return DB_ERROR;
}

enum db_rc
lease_fence(struct lease *l)
{
	char b[400];
	struct sql q = SQL_ON(b);
	enum db_rc rc;

	renewal(l, &q);
	if ((rc = db_exec(l->db, &q)) != DB_OK)
		return rc;
	return mysql_affected_rows(l->db->my) == 1 ? DB_OK : lost(l);
}

enum db_rc
lease_check(struct lease *l)
{
	char b[320];
	struct sql q = SQL_ON(b);
	uint64_t one;
	bool found;
	enum db_rc rc;

	sql_add(&q, "SELECT 1 FROM indexer_lease WHERE chain_id = ? AND holder = ? AND "
	    "expires_at > UTC_TIMESTAMP(3)", SQL_U64(l->chain_id), SQL_TEXT(l->id));
	if ((rc = db_query_u64(l->db, &q, &one, &found)) != DB_OK)
		return rc;
	return found ? DB_OK : lost(l);
}

enum db_rc
lease_release(struct lease *l)
{
	char b[256];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	enum db_rc rc;

	if (!l->held)
		return DB_OK;
	sql_add(&q, "UPDATE indexer_lease SET expires_at = UTC_TIMESTAMP(3) WHERE chain_id = ? AND "
	    "holder = ? AND expires_at > UTC_TIMESTAMP(3)", SQL_U64(l->chain_id), SQL_TEXT(l->id));
	rc = db_exec_affected(l->db, &q, &n);
	if (rc == DB_OK)
		l->held = false;
	return rc;
}

enum db_rc
lease_holder(struct lease *l, char *holder, size_t cap, int64_t *left)
{
	char b[256];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	holder[0] = '\0';
	*left = 0;
	sql_add(&q, "SELECT holder, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), expires_at) DIV 1000 "
	    "FROM indexer_lease WHERE chain_id = ? AND expires_at > UTC_TIMESTAMP(3)", SQL_U64(l->chain_id));
	if ((rc = db_query(l->db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL &&
	    (rc = db_row_text(row, 0, "holder", holder, cap)) == DB_OK)
		rc = db_row_i64(row, 1, "milliseconds left", left);
	if (res)
		mysql_free_result(res);
	return rc;
}
