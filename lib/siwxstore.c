#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "hex.h"
#include "siwxstore.h"
#include "sql.h"
#include "banned.h"

#define PRUNE_ONE_IN 64      /* about one issue in 64 also prunes */
#define PRUNE_BATCH 500

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
	if (raw[0] % PRUNE_ONE_IN == 0) {
		struct sql pq = SQL_ON(buf);

		sql_add(&pq, "DELETE FROM siwx_challenges WHERE expires_at < ? LIMIT ?",
		    SQL_I64(now - SIWXSTORE_KEEP_S), SQL_U64(PRUNE_BATCH));
		(void)db_exec(db, &pq);   /* pruning is best effort */
	}
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
