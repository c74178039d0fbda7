/*
 * db.h: one MariaDB connection per process (a worker, or a tool).
 *
 * The connection opens lazily and reopens by itself: when a statement
 * fails because the server went away (restart, timeout), and no
 * transaction is open, db_* reconnects once and retries that statement;
 * if that fails too the caller gets DB_UNAVAILABLE and the next call tries
 * again. So a MariaDB restart costs requests a 503 while it is down and
 * nothing after it, without restarting workers.
 *
 * Return conventions: enum db_rc; DB_OK is 0.
 */
#ifndef WAYMARK_DB_H
#define WAYMARK_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

#include "config.h"

enum db_rc {
	DB_OK = 0,
	DB_UNAVAILABLE,   /* cannot connect, or the connection was lost */
	DB_ERROR,         /* the server refused the statement */
	DB_DUPLICATE,     /* a unique key refused the row */
};

struct db {
	MYSQL *my;
	const struct config *cfg;
	bool in_txn;
	char err[256];    /* last error text, for logs only (never to clients) */
};

/* Remember the configuration; connects on first use. */
void db_init(struct db *d, const struct config *cfg);

/* Close the connection. */
void db_close(struct db *d);

/* Connect when not connected. */
enum db_rc db_connect(struct db *d);

/* Run one statement (or several when multi is true) and discard results. */
enum db_rc db_exec(struct db *d, const char *sql, bool multi);

/*
 * Run a query and hand back its result set (caller frees with
 * mysql_free_result), which may be NULL for statements without rows.
 */
enum db_rc db_query(struct db *d, const char *sql, MYSQL_RES **res);

/* First column of the first row as an unsigned integer (0 when NULL). */
enum db_rc db_query_u64(struct db *d, const char *sql, uint64_t *out, bool *found);

/*
 * The first two columns of the first row as text into a[cap] and b[cap]
 * (truncated; "" for NULL, and both "" when there is no row).
 */
enum db_rc db_query_pair(struct db *d, const char *sql, char *a, char *b, size_t cap);

/* Escape s[0..len) for use inside single quotes, into out[cap]; 0 or -1. */
int db_escape(struct db *d, const char *s, size_t len, char *out, size_t cap);

enum db_rc db_begin(struct db *d);
enum db_rc db_commit(struct db *d);
void db_rollback(struct db *d);

#endif
