/*
 * db.h: a MariaDB connection. One per thread that talks to the database,
 * never shared between threads: each worker thread opens its own,
 * between mysql_thread_init and mysql_thread_end (a worker process runs
 * several threads, fcgi/main.c), and the indexer and the
 * operator tool use one each from their main thread (the indexer's fetch
 * thread talks only to the RPC node). A struct db has no lock; its owner
 * thread is the only one to touch it. Call mysql_library_init once before
 * any thread starts (docs/ARCHITECTURE.md, Worker).
 *
 * The connection opens lazily and reopens by itself: when a statement
 * fails because the server went away (restart, timeout), and no
 * transaction is open, db_* reconnects once and retries that statement;
 * if that fails too the caller gets DB_UNAVAILABLE and the next call tries
 * again. So a MariaDB restart costs requests a 503 while it is down and
 * nothing after it, without restarting workers.
 *
 * Failover (a Galera cluster, docs/ARCHITECTURE.md, Failover between
 * nodes): with db_hosts set, a connection opens on the preferred node
 * (db_prefer), else on the others in list order starting after it. On a
 * Galera node (wsrep_on) the connection is used only when the node is
 * Synced in the Primary component (checked right after connecting), and
 * its session gets wsrep_sync_wait = db_sync_wait, so what it reads was
 * committed cluster-wide before it (INSTALL section 8). A node that
 * refused the connection, or was found unusable, is skipped for
 * DB_NODE_SKIP_MS (each struct db keeps its own marks: no shared state),
 * so a dead preferred node does not cost a connect timeout per request;
 * when every node is marked they are all tried anyway. A connection on
 * another node goes back to the preferred one, between statements, once
 * its mark ran out. A statement a node refuses because it left the
 * primary component (1047 "WSREP has not yet prepared node for
 * application use", or a failed wsrep_sync_wait, 1205 on a node that is
 * no longer usable) was not run: outside a transaction it runs again on
 * the next node, and a transaction is run again (db_txn, below).
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
#include "sql.h"
#include "u256.h"

enum db_rc {
	DB_OK = 0,
	DB_UNAVAILABLE,   /* cannot connect, or the connection was lost */
	DB_ERROR,         /* the server refused the statement */
	DB_DUPLICATE,     /* a unique key refused the row */
	DB_RETRY,         /* the server aborted the transaction: db_txn runs it again */
};

/* How long a node that failed is not tried first again, in milliseconds. */
#define DB_NODE_SKIP_MS 5000

struct db {
	MYSQL *my;
	const struct config *cfg;
	bool in_txn;
	bool aborted;     /* the server aborted the open transaction: DB_RETRY until rollback */
	bool lost;        /* the connection died in the open transaction: DB_UNAVAILABLE until rollback */
	bool refused;     /* the last statement was refused unrun by an unusable node */
	bool commit_unknown; /* db_txn's last COMMIT was sent and its answer lost (see db_txn) */
	bool galera;      /* the connected node has wsrep_on */
	int node;         /* the connected node: index into cfg->db_node (0 without db_hosts); -1 none */
	unsigned int unready; /* nodes the last db_connect reached that were not Synced and Primary */
	unsigned long connect_tries; /* connections to a node attempted (tests, logs) */
	uint64_t skip_until[CONFIG_DB_NODES_MAX]; /* clock_ms() before which node i is not tried first */
	bool script;      /* db_init_script: CLIENT_MULTI_STATEMENTS */
	bool read_committed; /* db_init_sole_writer: transactions at READ COMMITTED */
	char err[256];    /* last error text, for logs only (never to clients) */
	unsigned int last_errno; /* the server or client error of the last failed statement */
	int fault_in;     /* db_fault_after: statements until the injected failure; 0: none */
	unsigned int idle_txn_s; /* db_idle_txn_timeout: the server's idle_transaction_timeout; 0: its default */
};

/* Remember the configuration; connects on first use. */
void db_init(struct db *d, const struct config *cfg);

/*
 * The same for the migrator only (lib/migrate.c): its connection allows
 * several statements in one call, for db_exec_script. No other connection
 * does, so a statement can never carry a second one.
 */
void db_init_script(struct db *d, const struct config *cfg);

/*
 * The same for the indexer, the sole writer of every table it reads: its
 * transactions run at READ COMMITTED, so an INSERT ... SELECT reads its
 * source rows without locking each one, as it does under REPEATABLE READ.
 * With no other writer, each statement sees what a REPEATABLE READ
 * snapshot would (docs/ARCHITECTURE.md, Indexer).
 */
void db_init_sole_writer(struct db *d, const struct config *cfg);

/*
 * From the next connection on (and now, when connected, at the next
 * reconnect), the server ends this connection when it sits idle inside a
 * transaction for more than seconds (idle_transaction_timeout), releasing
 * its row locks: a client that stalls mid-transaction (paused, or cut off)
 * cannot keep another from a row for long. The indexer uses it with its
 * lease (indexer/lease.h). 0: the server's default (never).
 */
void db_idle_txn_timeout(struct db *d, unsigned int seconds);

/* Run a whole migration file (several statements); only on a db_init_script connection. */
enum db_rc db_exec_script(struct db *d, const char *text);

/* Close the connection. */
void db_close(struct db *d);

/*
 * Connect when not connected: to the first usable node (Failover,
 * above). DB_UNAVAILABLE when none is; then unready counts the nodes that
 * answered but were not Synced in the Primary component (a /health that
 * can tell "not primary" from "unreachable"), and err names the last
 * failure.
 */
enum db_rc db_connect(struct db *d);

/*
 * The cluster state of the connected node, for /health. galera is false
 * on a server without wsrep (the rest is then empty); node is
 * wsrep_node_name, else wsrep_node_address.
 */
struct db_cluster {
	bool galera;
	uint64_t size;            /* wsrep_cluster_size */
	char status[32];          /* wsrep_cluster_status: Primary, non-Primary, Disconnected */
	char local_state[32];     /* wsrep_local_state_comment: Synced, Donor/Desynced, Joined, ... */
	char node[128];
};

/*
 * Fill *out from the node this connection uses, connecting first when it
 * is not connected. A node found no longer Synced and Primary is dropped
 * (skipped like a failed one) and the next usable node is read instead.
 * DB_UNAVAILABLE when no node is usable (unready as for db_connect);
 * DB_ERROR inside a transaction.
 */
enum db_rc db_cluster(struct db *d, struct db_cluster *out);

/* True when c is a server without Galera, or a node Synced in the Primary component. */
bool db_cluster_usable(const struct db_cluster *c);

/*
 * Statements come only from the builder in sql.h; a bad statement (cut
 * short, a count mismatch, an invalid value) never runs: DB_ERROR, with
 * the reason in err.
 */

/* Run one statement and discard its result. */
enum db_rc db_exec(struct db *d, const struct sql *q);

/*
 * Run a query and hand back its result set (caller frees with
 * mysql_free_result), which may be NULL for statements without rows.
 */
enum db_rc db_query(struct db *d, const struct sql *q, MYSQL_RES **res);

/*
 * First column of the first row as an unsigned integer (0 when NULL);
 * DB_ERROR (logged) when it holds anything else.
 */
enum db_rc db_query_u64(struct db *d, const struct sql *q, uint64_t *out, bool *found);

/*
 * The first two columns of the first row as text into a[cap] and b[cap]
 * (truncated; "" for NULL, and both "" when there is no row).
 */
enum db_rc db_query_pair(struct db *d, const struct sql *q, char *a, char *b, size_t cap);

/*
 * Typed reads of a result row (a MYSQL_ROW of db_query's result): column
 * i, which holds the field name (named in the log, never its value). Each
 * returns DB_OK and stores the value, or DB_ERROR when the row is NULL,
 * the column is SQL NULL or its text is not a value of the type; that is
 * logged naming the field, *out is left unchanged, and the request fails
 * closed (db_fail: 500), never with a silent 0.
 *
 *	if (db_row_u64(row, 0, "tip_id", &t->tip_id) != DB_OK ||
 *	    db_row_i64_or(row, 7, "created", 0, &t->created) != DB_OK)
 *		return db_fail(w, DB_ERROR);
 *
 * u64: decimal digits, no sign, no leading zero; i64: the same with an
 * optional '-'; u256: decimal as u256_parse_dec takes it (a DECIMAL(78,0)
 * column); bool: "0" or "1" (a TINYINT(1), or a comparison); text: copied
 * into out[cap], and a value that does not fit is an error, not cut short.
 * The _or forms read SQL NULL as dflt (an outer join without a match, a
 * SUM over no rows); anything else they read like the plain forms.
 */
enum db_rc db_row_u64(MYSQL_ROW row, unsigned int i, const char *name, uint64_t *out);
enum db_rc db_row_i64(MYSQL_ROW row, unsigned int i, const char *name, int64_t *out);
enum db_rc db_row_u256(MYSQL_ROW row, unsigned int i, const char *name, struct u256 *out);
enum db_rc db_row_bool(MYSQL_ROW row, unsigned int i, const char *name, bool *out);
enum db_rc db_row_text(MYSQL_ROW row, unsigned int i, const char *name, char *out, size_t cap);
enum db_rc db_row_u64_or(MYSQL_ROW row, unsigned int i, const char *name, uint64_t dflt,
    uint64_t *out);
enum db_rc db_row_i64_or(MYSQL_ROW row, unsigned int i, const char *name, int64_t dflt,
    int64_t *out);
enum db_rc db_row_bool_or(MYSQL_ROW row, unsigned int i, const char *name, bool dflt, bool *out);

/* True when row has a column i that is SQL NULL (the optional column's test). */
bool db_row_null(MYSQL_ROW row, unsigned int i);

/*
 * Transactions: db_txn runs body(d, arg) between START TRANSACTION and
 * COMMIT. When the server aborts the transaction (a deadlock, a lock wait
 * timeout, or a Galera certification failure, which MariaDB reports as a
 * deadlock, also at COMMIT), db_* return DB_RETRY inside the body; the
 * body passes it up, and db_txn rolls back and runs the body again, up to
 * DB_TXN_TRIES times with a short jittered backoff. So a body must be safe
 * to run again: no effect outside the database, or an idempotent one.
 * Any other rc than DB_OK from the body rolls back and is returned (a
 * body that wants to roll back on purpose returns its own non-DB_OK rc);
 * DB_RETRY is returned when every try was aborted.
 *
 * A lost connection (a node that died or left the primary component):
 * - before COMMIT was sent, nothing was committed: every later statement
 *   of that run gets DB_UNAVAILABLE (none runs in autocommit on a new
 *   connection), and whatever the body returns, db_txn runs it again on a
 *   new connection (the next node), counted as a retry like an abort;
 * - a COMMIT the server answered with an error did not commit either
 *   (run again the same way);
 * - a COMMIT that was sent and whose answer was lost has an unknown
 *   outcome: it may have committed on the cluster. db_txn does NOT run
 *   the body again (a rerun of a committed insert would meet its own
 *   unique key and turn a success into "already used", and a counter
 *   would count twice); it returns DB_UNAVAILABLE with commit_unknown set,
 *   and the caller fails closed (503). The client's retry of the request
 *   then meets the unique keys: what committed is found, never doubled
 *   (docs/ARCHITECTURE.md, Failover between nodes).
 */
#define DB_TXN_TRIES 5
enum db_rc db_txn(struct db *d, enum db_rc (*body)(struct db *d, void *arg), void *arg);

/*
 * Run one statement as a transaction of its own (db_txn: an abort runs it
 * again, and a rerun sees what the winner wrote) and give the rows it
 * changed in *affected: the one decision of a conditional UPDATE that only
 * one caller may win (a single-use nonce).
 */
enum db_rc db_exec_affected(struct db *d, const struct sql *q, uint64_t *affected);

/* How many times db_txn ran a body again, since the process started (tests, logs). */
unsigned long db_txn_retries(void);

/*
 * Fault injection for tests: the nth statement run on d from now fails
 * without being sent, as if the server were gone (DB_UNAVAILABLE; in a
 * transaction, DB_RETRY like an abort). 0 turns it off. Never set in the
 * service itself.
 */
void db_fault_after(struct db *d, int n);

#endif
