#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "hex.h"
#include "siwxstore.h"
#include "sql.h"
#include "banned.h"

#define PRUNE_ONE_IN 64      /* about one issue in 64 also prunes */
#define PRUNE_BATCH 500      /* rows per DELETE: 500 / 64 per issue outruns one new row per issue */

/* A nonce of ours: SIWXSTORE_NONCE_LEN lowercase hex digits. */
static bool
nonce_shape(const char *nonce)
{
	return strlen(nonce) == SIWXSTORE_NONCE_LEN &&
	    strspn(nonce, "0123456789abcdef") == SIWXSTORE_NONCE_LEN;
}

int
siwxstore_issue(struct db *db, const struct siwx_binding *b, int64_t now, char nonce[SIWXSTORE_NONCE_LEN + 1])
{
	uint8_t raw[SIWXSTORE_NONCE_LEN / 2];
	char buf[1024];
	struct sql q = SQL_ON(buf);

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -1;
	hex_digits(raw, sizeof(raw), nonce);
	nonce[SIWXSTORE_NONCE_LEN] = '\0';
	if (raw[0] % PRUNE_ONE_IN == 0)
		(void)siwxstore_prune(db, now, 1, NULL);   /* best effort; the scheduled task does the rest */
	sql_add(&q, "INSERT INTO siwx_challenges (nonce, endpoint_id, domain, uri_digest, issued_at, expires_at) "
	    "VALUES (?, ?, ?, ?, ?, ?)", SQL_TEXT(nonce), SQL_TEXT(b->endpoint_id), SQL_TEXT(b->domain),
	    SQL_BYTES(b->uri_digest, 32), SQL_I64(now), SQL_I64(now + SIWXSTORE_TTL_S));
	explicit_bzero(raw, sizeof(raw));
	return db_exec(db, &q) == DB_OK ? 0 : -1;
}

enum siwxstore_rc
siwxstore_lookup(struct db *db, const char *nonce, const struct siwx_binding *b, int64_t now)
{
	char buf[512];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum siwxstore_rc rc;

	if (!nonce_shape(nonce))
		return SIWXSTORE_UNKNOWN;
	sql_add(&q, "SELECT endpoint_id, domain, uri_digest, expires_at > ?, used_at IS NOT NULL, "
	    "failures >= ? FROM siwx_challenges WHERE nonce = ?", SQL_I64(now),
	    SQL_U64(SIWXSTORE_MAX_FAILURES), SQL_TEXT(nonce));
	if (db_query(db, &q, &res) != DB_OK)
		return SIWXSTORE_UNAVAILABLE;
	if (res == NULL || (row = mysql_fetch_row(res)) == NULL || (len = mysql_fetch_lengths(res)) == NULL)
		rc = SIWXSTORE_UNKNOWN;
	else if (!row[0] || !row[1] || !row[2] || len[2] != 32 || strcmp(row[0], b->endpoint_id) != 0 ||
	    strcmp(row[1], b->domain) != 0 || memcmp(row[2], b->uri_digest, 32) != 0)
		rc = SIWXSTORE_OTHER_OP;
	else if (row[4] && strcmp(row[4], "1") == 0)
		rc = SIWXSTORE_USED;
	else if (row[5] && strcmp(row[5], "1") == 0)
		rc = SIWXSTORE_BURNED;
	else if (!row[3] || strcmp(row[3], "1") != 0)
		rc = SIWXSTORE_EXPIRED;
	else
		rc = SIWXSTORE_OK;
	if (res)
		mysql_free_result(res);
	return rc;
}

enum siwxstore_rc
siwxstore_consume(struct db *db, const char *nonce, const struct siwx_binding *b, int64_t now,
    const struct siwx_use *u)
{
	char buf[1024];
	struct sql q = SQL_ON(buf);
	uint64_t affected = 0;
	enum siwxstore_rc rc;

	if (!nonce_shape(nonce))
		return SIWXSTORE_UNKNOWN;
	/* The one decision: only an unused, unexpired row with this binding
	 * changes, and only one caller can change it. */
	sql_add(&q, "UPDATE siwx_challenges SET used_at = ?, account = ?, proof_digest = ?, signature_kind = ? "
	    "WHERE nonce = ? AND endpoint_id = ? AND domain = ? AND uri_digest = ? "
	    "AND used_at IS NULL AND expires_at > ? AND failures < ?",
	    SQL_I64(now), SQL_BYTES(u->account, 20), SQL_BYTES(u->proof_digest, 32), SQL_TEXT(u->signature_kind),
	    SQL_TEXT(nonce), SQL_TEXT(b->endpoint_id), SQL_TEXT(b->domain), SQL_BYTES(b->uri_digest, 32),
	    SQL_I64(now), SQL_U64(SIWXSTORE_MAX_FAILURES));
	/* A transaction of its own: an abort runs it again, and the rerun then
	 * finds the row used by the winner. */
	if (db_exec_affected(db, &q, &affected) != DB_OK)
		return SIWXSTORE_UNAVAILABLE;
	if (affected == 1)
		return SIWXSTORE_OK;
	/* Someone else took it, or it expired meanwhile: say which. */
	rc = siwxstore_lookup(db, nonce, b, now);
	return rc == SIWXSTORE_OK ? SIWXSTORE_USED : rc;
}

int
siwxstore_fail(struct db *db, const char *nonce, const struct siwx_binding *b)
{
	char buf[512];
	struct sql q = SQL_ON(buf);

	if (!nonce_shape(nonce))
		return 0;
	/* One statement, counted in the database: concurrent failures all count. */
	sql_add(&q, "UPDATE siwx_challenges SET failures = failures + 1 WHERE nonce = ? AND endpoint_id = ? "
	    "AND domain = ? AND uri_digest = ? AND used_at IS NULL AND failures < ?", SQL_TEXT(nonce),
	    SQL_TEXT(b->endpoint_id), SQL_TEXT(b->domain), SQL_BYTES(b->uri_digest, 32),
	    SQL_U64(SIWXSTORE_MAX_FAILURES));
	return db_exec(db, &q) == DB_OK ? 0 : -1;
}

/* One DELETE of at most PRUNE_BATCH rows: unused ones expired before cutoff, or (unused false) any. */
static int
prune_batch(struct db *db, bool unused, int64_t cutoff, uint64_t *n)
{
	char buf[256];
	struct sql q = SQL_ON(buf);

	/* One statement decides, row by row: an unused row expired before the
	 * cutoff can no longer be consumed (consume requires expires_at > its
	 * now), so deleting it races no use; a row being consumed meanwhile is
	 * used, and the unused DELETE passes it by (sql/020's key finds them). */
	if (unused)
		sql_add(&q, "DELETE FROM siwx_challenges WHERE used_at IS NULL AND expires_at < ? LIMIT ?",
		    SQL_I64(cutoff), SQL_U64(PRUNE_BATCH));
	else
		sql_add(&q, "DELETE FROM siwx_challenges WHERE expires_at < ? LIMIT ?", SQL_I64(cutoff),
		    SQL_U64(PRUNE_BATCH));
	*n = 0;
	return db_exec_affected(db, &q, n) == DB_OK ? 0 : -1;
}

int
siwxstore_prune(struct db *db, int64_t now, size_t max_batches, uint64_t *deleted)
{
	uint64_t n = 0, total = 0;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < max_batches; i++) {
		if ((rc = prune_batch(db, true, now - SIWXSTORE_UNUSED_KEEP_S, &n)) == 0)
			total += n;
		if (n < PRUNE_BATCH)
			break;
	}
	for (size_t i = 0; rc == 0 && i < max_batches; i++) {
		if ((rc = prune_batch(db, false, now - SIWXSTORE_KEEP_S, &n)) == 0)
			total += n;
		if (n < PRUNE_BATCH)
			break;
	}
	if (deleted)
		*deleted = total;
	return rc;
}
