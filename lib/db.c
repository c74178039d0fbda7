#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errmsg.h>
#include <mysqld_error.h>

#include "db.h"
#include "banned.h"

void
db_init(struct db *d, const struct config *cfg)
{
	memset(d, 0, sizeof(*d));
	d->cfg = cfg;
}

void
db_close(struct db *d)
{
	if (d->my) {
		mysql_close(d->my);
		d->my = NULL;
	}
	d->in_txn = false;
}

static void
keep_error(struct db *d)
{
	snprintf(d->err, sizeof(d->err), "%u: %s", mysql_errno(d->my), mysql_error(d->my));
}

enum db_rc
db_connect(struct db *d)
{
	const struct config *c = d->cfg;
	unsigned int timeout = (unsigned int)c->db_timeout;
	const char *sock = c->db_socket[0] ? c->db_socket : NULL;

	if (d->my)
		return DB_OK;
	d->my = mysql_init(NULL);
	if (d->my == NULL) {
		snprintf(d->err, sizeof(d->err), "mysql_init failed");
		return DB_UNAVAILABLE;
	}
	mysql_options(d->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(d->my, MYSQL_OPT_READ_TIMEOUT, &timeout);
	mysql_options(d->my, MYSQL_OPT_WRITE_TIMEOUT, &timeout);
	mysql_options(d->my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	if (mysql_real_connect(d->my, sock ? NULL : c->db_host, c->db_user, c->db_password,
	    c->db_name, sock ? 0 : (unsigned int)c->db_port, sock,
	    CLIENT_MULTI_STATEMENTS | CLIENT_FOUND_ROWS) == NULL) {
		keep_error(d);
		mysql_close(d->my);
		d->my = NULL;
		return DB_UNAVAILABLE;
	}
	if (mysql_query(d->my, "SET time_zone = '+00:00', sql_mode = 'STRICT_ALL_TABLES,"
	    "NO_ZERO_DATE,NO_ZERO_IN_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'") != 0) {
		keep_error(d);
		db_close(d);
		return DB_UNAVAILABLE;
	}
	return DB_OK;
}

/* Errors that mean the connection, not the statement, failed. */
static bool
is_connection_error(unsigned int e)
{
	return e == CR_SERVER_GONE_ERROR || e == CR_SERVER_LOST || e == CR_CONNECTION_ERROR ||
	    e == CR_CONN_HOST_ERROR || e == CR_SERVER_LOST_EXTENDED || e == ER_CONNECTION_KILLED ||
	    e == ER_SERVER_SHUTDOWN || e == CR_COMMANDS_OUT_OF_SYNC;
}

/* Drain every result of a multi-statement run; the first error wins. */
static unsigned int
drain(MYSQL *my)
{
	int more;

	do {
		MYSQL_RES *r = mysql_store_result(my);

		if (r)
			mysql_free_result(r);
		else if (mysql_field_count(my) != 0)
			return mysql_errno(my);
		more = mysql_next_result(my);
		if (more > 0)
			return mysql_errno(my);
	} while (more == 0);
	return 0;
}

/*
 * A failure the client library reported by itself (out of memory, a
 * malformed packet, or no error number at all) leaves the protocol state
 * unknown: results may still be unread, and the next statement could read
 * an earlier statement's rows. Such a connection is closed, never reused.
 */
static bool
is_client_error(unsigned int e)
{
	return e == 0 || (e >= CR_MIN_ERROR && e <= CR_MAX_ERROR);
}

static enum db_rc
classify(struct db *d, unsigned int e)
{
	keep_error(d);
	if (is_connection_error(e) || is_client_error(e)) {
		db_close(d);
		return DB_UNAVAILABLE;
	}
	if (e == ER_DUP_ENTRY || e == ER_DUP_UNIQUE)
		return DB_DUPLICATE;
	return DB_ERROR;
}

/* One attempt at running sql; *res gets the stored result when wanted. */
static enum db_rc
attempt(struct db *d, const char *sql, bool multi, MYSQL_RES **res)
{
	unsigned int e;

	if (db_connect(d) != DB_OK)
		return DB_UNAVAILABLE;
	if (mysql_query(d->my, sql) != 0)
		return classify(d, mysql_errno(d->my));
	if (multi) {
		e = drain(d->my);
		return e ? classify(d, e) : DB_OK;
	}
	if (res) {
		*res = mysql_store_result(d->my);
		if (*res == NULL && mysql_field_count(d->my) != 0)
			return classify(d, mysql_errno(d->my));
	}
	return DB_OK;
}

static enum db_rc
run(struct db *d, const char *sql, bool multi, MYSQL_RES **res)
{
	bool was_connected = d->my != NULL;
	enum db_rc rc;

	if (res)
		*res = NULL;
	rc = attempt(d, sql, multi, res);
	/* A connection that died while idle: retry once, outside transactions. */
	if (rc == DB_UNAVAILABLE && was_connected && !d->in_txn)
		rc = attempt(d, sql, multi, res);
	if (rc == DB_UNAVAILABLE)
		d->in_txn = false;
	return rc;
}

enum db_rc
db_exec(struct db *d, const char *sql, bool multi)
{
	return run(d, sql, multi, NULL);
}

enum db_rc
db_query(struct db *d, const char *sql, MYSQL_RES **res)
{
	return run(d, sql, false, res);
}

enum db_rc
db_query_u64(struct db *d, const char *sql, uint64_t *out, bool *found)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	enum db_rc rc = db_query(d, sql, &res);

	*out = 0;
	*found = false;
	if (rc != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		*found = true;
		if (row[0])
			*out = strtoull(row[0], NULL, 10);
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

enum db_rc
db_query_pair(struct db *d, const char *sql, char *a, char *b, size_t cap)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	enum db_rc rc = db_query(d, sql, &res);

	a[0] = b[0] = '\0';
	if (rc != DB_OK)
		return rc;
	if (res && mysql_num_fields(res) >= 2 && (row = mysql_fetch_row(res)) != NULL) {
		snprintf(a, cap, "%s", row[0] ? row[0] : "");
		snprintf(b, cap, "%s", row[1] ? row[1] : "");
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

int
db_escape(struct db *d, const char *s, size_t len, char *out, size_t cap)
{
	if (cap < 2 * len + 1 || db_connect(d) != DB_OK)
		return -1;
	mysql_real_escape_string(d->my, out, s, (unsigned long)len);
	return 0;
}

enum db_rc
db_begin(struct db *d)
{
	enum db_rc rc = run(d, "START TRANSACTION", false, NULL);

	if (rc == DB_OK)
		d->in_txn = true;
	return rc;
}

enum db_rc
db_commit(struct db *d)
{
	enum db_rc rc = run(d, "COMMIT", false, NULL);

	d->in_txn = false;
	return rc;
}

void
db_rollback(struct db *d)
{
	if (d->my && d->in_txn)
		mysql_query(d->my, "ROLLBACK");
	d->in_txn = false;
}
