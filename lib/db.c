#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <errmsg.h>
#include <mysqld_error.h>

#include "clock.h"
#include "db.h"
#include "banned.h"

void
db_init(struct db *d, const struct config *cfg)
{
	memset(d, 0, sizeof(*d));
	d->cfg = cfg;
	d->node = -1;
}

void
db_init_script(struct db *d, const struct config *cfg)
{
	db_init(d, cfg);
	d->script = true;
}

void
db_init_sole_writer(struct db *d, const struct config *cfg)
{
	db_init(d, cfg);
	d->read_committed = true;
}

void
db_close(struct db *d)
{
	if (d->my) {
		mysql_close(d->my);
		d->my = NULL;
	}
	d->node = -1;
	d->galera = false;
	d->in_txn = false;
	d->aborted = false;
	d->lost = false;
}

static void
keep_error(struct db *d)
{
	snprintf(d->err, sizeof(d->err), "%u: %s", mysql_errno(d->my), mysql_error(d->my));
}

/* The session's idle_transaction_timeout, from db_idle_txn_timeout. */
static int
set_idle_txn(struct db *d)
{
	char b[64];

	snprintf(b, sizeof(b), "SET SESSION idle_transaction_timeout = %u", d->idle_txn_s);
	return mysql_query(d->my, b);
}

void
db_idle_txn_timeout(struct db *d, unsigned int seconds)
{
	d->idle_txn_s = seconds;
}

/* ------------------------------------------------------------ the nodes */

static size_t
node_count(const struct config *c)
{
	return c->db_nodes ? c->db_nodes : 1;
}

static size_t
preferred_node(const struct config *c)
{
	return c->db_nodes ? (size_t)c->db_prefer - 1 : 0;
}

bool
db_cluster_usable(const struct db_cluster *c)
{
	return !c->galera || (strcmp(c->status, "Primary") == 0 && strcmp(c->local_state, "Synced") == 0);
}

/*
 * The rows (name, value) of a SHOW statement into the fields of cs that
 * they name. 0, or -1 with the error left on my.
 */
static int
read_show(MYSQL *my, const char *show, struct db_cluster *cs, bool *wsrep_on)
{
	MYSQL_RES *res;
	MYSQL_ROW row;

	if (mysql_query(my, show) != 0 || (res = mysql_store_result(my)) == NULL)
		return -1;
	while ((row = mysql_fetch_row(res)) != NULL) {
		const char *name = row[0], *v = row[1] ? row[1] : "";

		if (name == NULL || mysql_num_fields(res) < 2)
			continue;
		if (strcmp(name, "wsrep_on") == 0)
			*wsrep_on = strcmp(v, "ON") == 0;
		else if (strcmp(name, "wsrep_node_name") == 0 && v[0])
			snprintf(cs->node, sizeof(cs->node), "%s", v);
		else if (strcmp(name, "wsrep_node_address") == 0 && v[0] && cs->node[0] == '\0')
			snprintf(cs->node, sizeof(cs->node), "%s", v);
		else if (strcmp(name, "wsrep_cluster_status") == 0)
			snprintf(cs->status, sizeof(cs->status), "%s", v);
		else if (strcmp(name, "wsrep_local_state_comment") == 0)
			snprintf(cs->local_state, sizeof(cs->local_state), "%s", v);
		else if (strcmp(name, "wsrep_cluster_size") == 0)
			cs->size = strtoull(v, NULL, 10);
	}
	mysql_free_result(res);
	return 0;
}

/*
 * The cluster state of the node my is connected to. SHOW statements,
 * which a node outside the primary component still answers and which
 * wait for the cluster only under wsrep_sync_wait bit 8. 0 or -1.
 */
static int
read_cluster(MYSQL *my, struct db_cluster *cs)
{
	bool on = false;

	memset(cs, 0, sizeof(*cs));
	/* wsrep_node_name sorts after wsrep_node_address: the name wins when set. */
	if (read_show(my, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('wsrep_on', "
	    "'wsrep_node_address', 'wsrep_node_name')", cs, &on) < 0)
		return -1;
	if (!on) {
		memset(cs, 0, sizeof(*cs));
		return 0;
	}
	cs->galera = true;
	return read_show(my, "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_cluster_size', "
	    "'wsrep_cluster_status', 'wsrep_local_state_comment')", cs, &on);
}

/* Where node i is, for messages. */
static const char *
node_name(const struct db *d, size_t i, char *out, size_t cap)
{
	const struct config *c = d->cfg;

	if (c->db_nodes)
		snprintf(out, cap, "node %zu (%.200s:%llu)", i + 1, c->db_node[i].host,
		    (unsigned long long)c->db_node[i].port);
	else if (c->db_socket[0])
		snprintf(out, cap, "%.200s", c->db_socket);
	else
		snprintf(out, cap, "%.200s:%llu", c->db_host, (unsigned long long)c->db_port);
	return out;
}

/* Keep the error of node i's connection, naming the node; closes it. */
static enum db_rc
node_failed(struct db *d, size_t i)
{
	char where[320];

	snprintf(d->err, sizeof(d->err), "%s: %u: %s", node_name(d, i, where, sizeof(where)),
	    mysql_errno(d->my), mysql_error(d->my));
	mysql_close(d->my);
	d->my = NULL;
	return DB_UNAVAILABLE;
}

/* Open a connection to node i and check it is usable; DB_OK or DB_UNAVAILABLE (closed). */
static enum db_rc
connect_node(struct db *d, size_t i)
{
	const struct config *c = d->cfg;
	unsigned int timeout = (unsigned int)c->db_timeout;
	const char *sock = NULL, *host = c->db_host;
	unsigned int port = (unsigned int)c->db_port;
	struct db_cluster cs;
	char where[320], set[64];

	if (c->db_nodes) {
		host = c->db_node[i].host;
		port = (unsigned int)c->db_node[i].port;
	} else if (c->db_socket[0]) {
		sock = c->db_socket;
		host = NULL;
		port = 0;
	}
	d->connect_tries++;
	d->my = mysql_init(NULL);
	if (d->my == NULL) {
		snprintf(d->err, sizeof(d->err), "mysql_init failed");
		return DB_UNAVAILABLE;
	}
	mysql_options(d->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(d->my, MYSQL_OPT_READ_TIMEOUT, &timeout);
	mysql_options(d->my, MYSQL_OPT_WRITE_TIMEOUT, &timeout);
	mysql_options(d->my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	if (mysql_real_connect(d->my, host, c->db_user, c->db_password, c->db_name, port, sock,
	    (d->script ? CLIENT_MULTI_STATEMENTS : 0) | CLIENT_FOUND_ROWS) == NULL)
		return node_failed(d, i);
	/* sql.h escapes for exactly this: utf8mb4, and backslash escapes on. */
	if (mysql_query(d->my, "SET time_zone = '+00:00', sql_mode = 'STRICT_ALL_TABLES,"
	    "NO_ZERO_DATE,NO_ZERO_IN_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'") != 0 ||
	    (d->read_committed && mysql_query(d->my, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED") != 0))
		return node_failed(d, i);
	/* A Galera node serves only Synced in the Primary component. */
	if (read_cluster(d->my, &cs) < 0)
		return node_failed(d, i);
	if (!db_cluster_usable(&cs)) {
		snprintf(d->err, sizeof(d->err), "%s is %s in a %s component, not Synced in the Primary one",
		    node_name(d, i, where, sizeof(where)), cs.local_state, cs.status);
		d->unready++;
		mysql_close(d->my);
		d->my = NULL;
		return DB_UNAVAILABLE;
	}
	d->galera = cs.galera;
	/* Reads and writes wait for what the cluster committed before them (db_sync_wait). */
	snprintf(set, sizeof(set), "SET SESSION wsrep_sync_wait = %u", (unsigned int)c->db_sync_wait);
	if (d->galera && mysql_query(d->my, set) != 0)
		return node_failed(d, i);
	if (d->idle_txn_s > 0 && set_idle_txn(d) != 0)
		return node_failed(d, i);
	return DB_OK;
}

enum db_rc
db_connect(struct db *d)
{
	size_t n = node_count(d->cfg), first = preferred_node(d->cfg);
	bool marked[CONFIG_DB_NODES_MAX];
	uint64_t now;

	if (d->my)
		return DB_OK;
	d->unready = 0;
	now = clock_ms();
	for (size_t i = 0; i < n; i++)
		marked[i] = d->skip_until[i] > now;
	/* The nodes not marked as failed, in order; then, when none answered, the marked ones. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < n; k++) {
			size_t i = (first + k) % n;

			if (marked[i] != (pass == 1))
				continue;
			if (connect_node(d, i) == DB_OK) {
				d->node = (int)i;
				d->skip_until[i] = 0;
				return DB_OK;
			}
			d->skip_until[i] = clock_ms() + DB_NODE_SKIP_MS;
		}
	}
	return DB_UNAVAILABLE;
}

/* Give up the connected node: skipped for DB_NODE_SKIP_MS, the connection closed. */
static void
drop_node(struct db *d)
{
	if (d->node >= 0)
		d->skip_until[d->node] = clock_ms() + DB_NODE_SKIP_MS;
	if (d->my) {
		mysql_close(d->my);
		d->my = NULL;
	}
	d->node = -1;
	d->galera = false;
}

/*
 * Between statements: a connection on another node than the preferred one
 * is closed once the preferred node's mark ran out, so the next statement
 * tries it first again.
 */
static void
back_to_preferred(struct db *d)
{
	size_t p = preferred_node(d->cfg);

	if (d->my && d->node >= 0 && (size_t)d->node != p && d->skip_until[p] <= clock_ms())
		db_close(d);
}

enum db_rc
db_cluster(struct db *d, struct db_cluster *out)
{
	memset(out, 0, sizeof(*out));
	if (d->in_txn) {
		snprintf(d->err, sizeof(d->err), "db_cluster inside a transaction");
		return DB_ERROR;
	}
	back_to_preferred(d);
	for (size_t k = 0; k <= node_count(d->cfg); k++) {
		if (db_connect(d) != DB_OK)
			return DB_UNAVAILABLE;
		if (read_cluster(d->my, out) < 0) {
			keep_error(d);
			d->last_errno = mysql_errno(d->my);
			drop_node(d);
			continue;
		}
		if (db_cluster_usable(out))
			return DB_OK;
		snprintf(d->err, sizeof(d->err), "the node left: %s in a %s component", out->local_state,
		    out->status);
		drop_node(d);
	}
	return DB_UNAVAILABLE;
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

/*
 * After an error that a node outside the primary component also gives
 * (a failed wsrep_sync_wait is 1205, like a lock wait): true when this
 * Galera node is no longer Synced and Primary, or cannot even say.
 */
static bool
node_left(struct db *d)
{
	struct db_cluster cs;

	return d->galera && (read_cluster(d->my, &cs) < 0 || !db_cluster_usable(&cs));
}

static enum db_rc
classify(struct db *d, unsigned int e)
{
	keep_error(d);
	d->last_errno = e;
	if (is_connection_error(e) || is_client_error(e)) {
		/* Not db_close: an open transaction stays marked until db_txn sees it (lost). */
		mysql_close(d->my);
		d->my = NULL;
		d->node = -1;
		d->galera = false;
		return DB_UNAVAILABLE;
	}
	/*
	 * A node that left the primary component refuses every statement
	 * unrun (1047), or fails its sync wait (1205 outside a transaction,
	 * where no statement waits for a row lock that long before our
	 * read timeout): the statement did not run; this node is given up.
	 */
	if (e == ER_UNKNOWN_COM_ERROR || (e == ER_LOCK_WAIT_TIMEOUT && !d->in_txn && node_left(d))) {
		drop_node(d);
		d->refused = true;
		return DB_UNAVAILABLE;
	}
	if (e == ER_DUP_ENTRY || e == ER_DUP_UNIQUE)
		return DB_DUPLICATE;
	/*
	 * The server rolled the transaction back (a deadlock, which is also
	 * how Galera reports a certification failure) or gave up waiting for
	 * a lock: db_txn runs it again. Until then the connection runs
	 * nothing more, so a body cannot go on in autocommit.
	 */
	if (d->in_txn && (e == ER_LOCK_DEADLOCK || e == ER_LOCK_WAIT_TIMEOUT)) {
		d->aborted = true;
		return DB_RETRY;
	}
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
	} else if (mysql_field_count(d->my) != 0) {
		/* db_exec of a statement with rows: read and discard them, or the
		 * next statement finds the connection out of sync (2014). */
		MYSQL_RES *r = mysql_store_result(d->my);

		if (r == NULL)
			return classify(d, mysql_errno(d->my));
		mysql_free_result(r);
	}
	return DB_OK;
}

/* A statement that changes nothing, so running it twice is the same as once (our
 * statements write their keywords in capitals, docs/ARCHITECTURE.md, Code conventions);
 * START TRANSACTION too, run outside a transaction (db_txn's first statement). */
static bool
read_only(const char *sql)
{
	if (strcmp(sql, "START TRANSACTION") == 0)
		return true;
	while (*sql == ' ' || *sql == '\n' || *sql == '\t' || *sql == '(')
		sql++;
	return strncasecmp(sql, "SELECT", 6) == 0 && strstr(sql, " FOR UPDATE") == NULL &&
	    strstr(sql, " LOCK IN SHARE MODE") == NULL;
}

static enum db_rc
run(struct db *d, const char *sql, bool multi, MYSQL_RES **res)
{
	bool was_connected;
	enum db_rc rc;

	if (res)
		*res = NULL;
	if (d->aborted)
		return DB_RETRY;
	if (d->lost)
		return DB_UNAVAILABLE;
	d->last_errno = 0;
	d->refused = false;
	/* Fault injection (db_fault_after): this statement fails unsent. */
	if (d->fault_in > 0 && --d->fault_in == 0) {
		snprintf(d->err, sizeof(d->err), "injected fault");
		if (d->in_txn)
			d->aborted = true;
		return d->in_txn ? DB_RETRY : DB_UNAVAILABLE;
	}
	if (!d->in_txn)
		back_to_preferred(d);
	was_connected = d->my != NULL;
	rc = attempt(d, sql, multi, res);
	/*
	 * A connection that died while idle, or a node that refused the
	 * statement unrun: run it again once, outside transactions, on a new
	 * connection (the next node when this one was given up), only when
	 * it is known not to have run (the server was gone before it was
	 * sent, or refused it) or it changes nothing. A write lost in flight
	 * may have committed: replaying it could turn a reservation into
	 * "already used", so its caller sees the failure.
	 */
	if (rc == DB_UNAVAILABLE && (was_connected || d->refused) && !d->in_txn && !multi &&
	    (d->last_errno == CR_SERVER_GONE_ERROR || d->refused || read_only(sql))) {
		d->refused = false;
		rc = attempt(d, sql, multi, res);
	}
	/* In a transaction: nothing more runs until db_txn rolls back (and runs it again). */
	if (rc == DB_UNAVAILABLE && d->in_txn)
		d->lost = true;
	return rc;
}

/* A statement the builder refused never runs. */
static enum db_rc
checked(struct db *d, const struct sql *q)
{
	if (q == NULL || q->bad || q->len == 0 || q->p == NULL) {
		/* Only the statement's head: its values may be secrets (a nonce). */
		const char *t = q ? sql_str(q) : "";
		int head = (int)strcspn(t, "'");

		snprintf(d->err, sizeof(d->err), "refused a bad statement (cut short, a count "
		    "mismatch or an invalid value): %.*s...", head > 60 ? 60 : head, t);
		fprintf(stderr, "waymark: db: %s\n", d->err);
		return DB_ERROR;
	}
	return DB_OK;
}

enum db_rc
db_exec(struct db *d, const struct sql *q)
{
	if (checked(d, q) != DB_OK)
		return DB_ERROR;
	return run(d, q->p, false, NULL);
}

enum db_rc
db_query(struct db *d, const struct sql *q, MYSQL_RES **res)
{
	*res = NULL;
	if (checked(d, q) != DB_OK)
		return DB_ERROR;
	return run(d, q->p, false, res);
}

enum db_rc
db_exec_script(struct db *d, const char *text)
{
	if (!d->script) {
		snprintf(d->err, sizeof(d->err), "a script on a connection not opened for scripts");
		return DB_ERROR;
	}
	return run(d, text, true, NULL);
}

/* ------------------------------------------------------------ typed rows */

/* Column i's text, or NULL (logged, naming the field) when it has none. */
static const char *
column(MYSQL_ROW row, unsigned int i, const char *name)
{
	if (row == NULL || row[i] == NULL) {
		fprintf(stderr, "waymark: db: column %s: %s\n", name,
		    row == NULL ? "no row" : "NULL where a value is required");
		return NULL;
	}
	return row[i];
}

/* Logs why column name is refused (never its value: it may be a nonce or a key). */
static enum db_rc
bad_column(const char *name, const char *why)
{
	fprintf(stderr, "waymark: db: column %s: %s\n", name, why);
	return DB_ERROR;
}

/* Decimal digits without sign or leading zero, at most 2^64-1. */
static int
parse_u64(const char *s, uint64_t *out)
{
	struct u256 v;

	return u256_parse_dec(s, strlen(s), &v) == 0 ? u256_to_u64(&v, out) : -1;
}

enum db_rc
db_row_u64(MYSQL_ROW row, unsigned int i, const char *name, uint64_t *out)
{
	const char *s = column(row, i, name);

	if (s == NULL)
		return DB_ERROR;
	return parse_u64(s, out) == 0 ? DB_OK : bad_column(name, "not a valid u64");
}

enum db_rc
db_row_i64(MYSQL_ROW row, unsigned int i, const char *name, int64_t *out)
{
	const char *s = column(row, i, name);
	bool neg;
	uint64_t v;

	if (s == NULL)
		return DB_ERROR;
	neg = s[0] == '-';
	/* "-0" is not a form the server writes. */
	if (parse_u64(s + neg, &v) < 0 || (neg && v == 0) ||
	    v > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
		return bad_column(name, "not a valid i64");
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return DB_OK;
}

enum db_rc
db_row_u256(MYSQL_ROW row, unsigned int i, const char *name, struct u256 *out)
{
	const char *s = column(row, i, name);

	if (s == NULL)
		return DB_ERROR;
	return u256_parse_dec(s, strlen(s), out) == 0 ? DB_OK : bad_column(name, "not a valid u256");
}

enum db_rc
db_row_bool(MYSQL_ROW row, unsigned int i, const char *name, bool *out)
{
	const char *s = column(row, i, name);

	if (s == NULL)
		return DB_ERROR;
	if ((s[0] != '0' && s[0] != '1') || s[1] != '\0')
		return bad_column(name, "not a valid bool");
	*out = s[0] == '1';
	return DB_OK;
}

enum db_rc
db_row_text(MYSQL_ROW row, unsigned int i, const char *name, char *out, size_t cap)
{
	const char *s = column(row, i, name);
	size_t n;

	if (s == NULL)
		return DB_ERROR;
	if ((n = strlen(s)) >= cap)
		return bad_column(name, "longer than its buffer");
	memcpy(out, s, n + 1);
	return DB_OK;
}

bool
db_row_null(MYSQL_ROW row, unsigned int i)
{
	return row != NULL && row[i] == NULL;
}

enum db_rc
db_row_u64_or(MYSQL_ROW row, unsigned int i, const char *name, uint64_t dflt, uint64_t *out)
{
	if (db_row_null(row, i)) {
		*out = dflt;
		return DB_OK;
	}
	return db_row_u64(row, i, name, out);
}

enum db_rc
db_row_i64_or(MYSQL_ROW row, unsigned int i, const char *name, int64_t dflt, int64_t *out)
{
	if (db_row_null(row, i)) {
		*out = dflt;
		return DB_OK;
	}
	return db_row_i64(row, i, name, out);
}

enum db_rc
db_row_bool_or(MYSQL_ROW row, unsigned int i, const char *name, bool dflt, bool *out)
{
	if (db_row_null(row, i)) {
		*out = dflt;
		return DB_OK;
	}
	return db_row_bool(row, i, name, out);
}

/* ------------------------------------------------------ one-row queries */

static enum db_rc
first_u64(enum db_rc rc, MYSQL_RES *res, uint64_t *out, bool *found)
{
	MYSQL_ROW row;

	*out = 0;
	*found = false;
	if (rc != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		*found = true;
		rc = db_row_u64_or(row, 0, "first column", 0, out);
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

static enum db_rc
first_pair(enum db_rc rc, MYSQL_RES *res, char *a, char *b, size_t cap)
{
	MYSQL_ROW row;

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

enum db_rc
db_query_u64(struct db *d, const struct sql *q, uint64_t *out, bool *found)
{
	MYSQL_RES *res;
	enum db_rc rc = db_query(d, q, &res);

	return first_u64(rc, res, out, found);
}

enum db_rc
db_query_pair(struct db *d, const struct sql *q, char *a, char *b, size_t cap)
{
	MYSQL_RES *res;
	enum db_rc rc = db_query(d, q, &res);

	return first_pair(rc, res, a, b, cap);
}

static enum db_rc
db_begin(struct db *d)
{
	enum db_rc rc = run(d, "START TRANSACTION", false, NULL);

	if (rc == DB_OK)
		d->in_txn = true;
	return rc;
}

static void
db_rollback(struct db *d)
{
	if (d->my && d->in_txn)
		mysql_query(d->my, "ROLLBACK");
	d->in_txn = false;
	d->aborted = false;
	d->lost = false;
}

static enum db_rc
db_commit(struct db *d)
{
	enum db_rc rc = run(d, "COMMIT", false, NULL);

	/* A COMMIT refused with DB_RETRY (Galera certification) left nothing open. */
	if (rc == DB_RETRY)
		db_rollback(d);
	/*
	 * Lost: a COMMIT that was never sent (the server was gone, 2006), or
	 * that the server answered with an error (a node that left the
	 * primary component), did not commit; one whose answer the client
	 * library lost (2013 and the like) may have.
	 */
	if (rc == DB_UNAVAILABLE && d->last_errno != CR_SERVER_GONE_ERROR && !d->refused &&
	    is_client_error(d->last_errno))
		d->commit_unknown = true;
	d->in_txn = false;
	d->aborted = false;
	return rc;
}

static unsigned long txn_retries;

unsigned long
db_txn_retries(void)
{
	return __atomic_load_n(&txn_retries, __ATOMIC_RELAXED);
}

/* Sleep about 2^try ms plus up to as much again at random, before trying again. */
static void
backoff(unsigned int try)
{
	struct timespec now, ts;
	unsigned long base = 1000000UL << try, jitter;

	clock_gettime(CLOCK_MONOTONIC, &now);
	jitter = ((unsigned long)now.tv_nsec * 2654435761UL ^ (unsigned long)getpid()) % base;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(base + jitter);
	nanosleep(&ts, NULL);
}

enum db_rc
db_txn(struct db *d, enum db_rc (*body)(struct db *d, void *arg), void *arg)
{
	enum db_rc rc = DB_RETRY;

	if (d->in_txn) {
		snprintf(d->err, sizeof(d->err), "db_txn inside a transaction");
		return DB_ERROR;
	}
	for (unsigned int try = 0; try < DB_TXN_TRIES; try++) {
		if (try > 0) {
			__atomic_add_fetch(&txn_retries, 1, __ATOMIC_RELAXED);
			backoff(try);
		}
		d->commit_unknown = false;
		if ((rc = db_begin(d)) != DB_OK)
			return rc;
		rc = body(d, arg);
		if (rc == DB_OK && d->aborted)
			rc = DB_RETRY;   /* a body that swallowed the abort */
		if (d->lost) {
			/* The connection died before COMMIT: nothing committed, whatever the body says. */
			db_rollback(d);
			rc = DB_RETRY;
			continue;
		}
		if (rc == DB_OK) {
			rc = db_commit(d);
			if (rc == DB_UNAVAILABLE && !d->commit_unknown) {
				db_rollback(d);
				rc = DB_RETRY;   /* COMMIT not sent, or refused: nothing committed */
				continue;
			}
			if (d->commit_unknown) {
				fprintf(stderr, "waymark: db: the answer to a COMMIT was lost (%s); its outcome "
				    "is unknown, so the transaction is not run again\n", d->err);
				db_rollback(d);
				return DB_UNAVAILABLE;
			}
		} else {
			db_rollback(d);
		}
		if (rc != DB_RETRY)
			return rc;
		db_rollback(d);
	}
	return rc;
}

void
db_fault_after(struct db *d, int n)
{
	d->fault_in = n > 0 ? n : 0;
}

struct one_statement {
	const struct sql *q;
	uint64_t affected;
};

static enum db_rc
one_statement_body(struct db *d, void *arg)
{
	struct one_statement *o = arg;
	enum db_rc rc = db_exec(d, o->q);

	if (rc == DB_OK)
		o->affected = (uint64_t)mysql_affected_rows(d->my);
	return rc;
}

enum db_rc
db_exec_affected(struct db *d, const struct sql *q, uint64_t *affected)
{
	struct one_statement o = { .q = q, .affected = 0 };
	enum db_rc rc = db_txn(d, one_statement_body, &o);

	*affected = o.affected;
	return rc;
}
