/*
 * db_txn against the test stack's MariaDB: two connections deadlock on
 * purpose; the server aborts one, db_txn runs that body again, and each
 * body's effect is committed exactly once. Also: a bad statement never
 * runs, a connection refuses a second statement in one call, and on a
 * server without Galera the failover code leaves the session alone (no
 * wsrep_sync_wait of its own, no cluster to report).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "db.h"
#include "dbtest.h"
#include "sql.h"
#include "tap.h"
#include "banned.h"

static struct config cfg;
static pthread_barrier_t both_hold_one;
static uint64_t key1, key2;

struct side {
	struct db db;
	uint64_t first, second;   /* the rows it locks, in this order */
	int add;
	int runs;
	enum db_rc rc;
};

static enum db_rc
bump(struct db *d, uint64_t k, int add)
{
	char b[160];
	struct sql q = SQL_ON(b);

	sql_add(&q, "UPDATE waymark_txn_test SET n = n + ? WHERE k = ?", SQL_I64(add), SQL_U64(k));
	return db_exec(d, &q);
}

/* Lock one row, wait until the other side holds its row, then take the other's. */
static enum db_rc
body(struct db *d, void *arg)
{
	struct side *s = arg;
	enum db_rc rc;

	s->runs++;
	if ((rc = bump(d, s->first, s->add)) != DB_OK)
		return rc;
	if (s->runs == 1)
		pthread_barrier_wait(&both_hold_one);
	return bump(d, s->second, s->add);
}

static void *
run_side(void *arg)
{
	struct side *s = arg;

	s->rc = db_txn(&s->db, body, s);
	return NULL;
}

/*
 * A connection that dies inside the body, before COMMIT: the first run
 * adds 1, has its own connection killed from d_killer, then tries to add
 * 100 and, ignoring that failure, returns DB_OK. Nothing of that run may
 * stay (the 100 must not run in autocommit on a new connection); the
 * rerun adds 1 and commits.
 */
struct killed {
	struct db *killer;
	int runs;
	enum db_rc after_kill;
};

static enum db_rc
killed_body(struct db *d, void *arg)
{
	struct killed *k = arg;
	char b[128], kb[64];
	struct sql q = SQL_ON(b), kq = SQL_ON(kb);
	uint64_t id;
	enum db_rc rc;

	k->runs++;
	if ((rc = bump(d, key1, 1)) != DB_OK)
		return rc;
	if (k->runs > 1)
		return DB_OK;
	sql_add(&q, "SELECT CONNECTION_ID()");
	id = dbtest_u64(d, &q, 0);
	sql_add(&kq, "KILL CONNECTION ?", SQL_U64(id));
	if (id == 0 || dbtest_exec(k->killer, &kq) != DB_OK)
		return DB_ERROR;
	k->after_kill = bump(d, key1, 100);
	return DB_OK;
}

static enum db_rc
fail_body(struct db *d, void *arg)
{
	(void)arg;
	bump(d, key1, 1000);
	return DB_ERROR;
}

int
main(void)
{
	const char *var = getenv("WAYMARK_VAR");
	char path[1024], b[256];
	struct db_cluster cs;
	struct db d;
	struct sql q = SQL_ON(b);
	struct side a, c;
	pthread_t ta, tc;
	uint64_t n1 = 0, n2 = 0;
	bool found;
	unsigned long before;

	if (!ok(var != NULL, "WAYMARK_VAR names the test stack (run through tools/run-tests)"))
		return done_testing();
	snprintf(path, sizeof(path), "%s/waymark.conf", var);
	if (!dbtest_config(&cfg, path, "the test stack's configuration loads"))
		return done_testing();
	if (!ok(dbtest_open(&d, &cfg), "the suite's MariaDB is reachable"))
		return done_testing();
	/* A plain server: nothing of Galera's is set or reported. */
	ok(db_cluster(&d, &cs) == DB_OK && !cs.galera && !d.galera && db_cluster_usable(&cs),
	    "a server without Galera has no cluster state and is usable");
	sql_add(&q, "SELECT @@SESSION.wsrep_sync_wait = @@GLOBAL.wsrep_sync_wait");
	ok(dbtest_u64(&d, &q, 0) == 1, "and its session keeps the server's wsrep_sync_wait (db_sync_wait %llu "
	    "is not applied)", (unsigned long long)cfg.db_sync_wait);
	sql_reset(&q);
	key1 = (uint64_t)getpid() * 2;
	key2 = key1 + 1;
	sql_add(&q, "CREATE TABLE IF NOT EXISTS waymark_txn_test (k BIGINT UNSIGNED NOT NULL PRIMARY KEY, "
	    "n INT NOT NULL) ENGINE=InnoDB");
	ok(dbtest_exec(&d, &q) == DB_OK, "a scratch table");
	sql_reset(&q);
	sql_add(&q, "REPLACE INTO waymark_txn_test (k, n) VALUES (?, 0), (?, 0)", SQL_U64(key1), SQL_U64(key2));
	ok(dbtest_exec(&d, &q) == DB_OK, "two rows at 0");

	/* Not multi-statement: a second statement in one call is a syntax error. */
	sql_reset(&q);
	sql_add(&q, "UPDATE waymark_txn_test SET n = 7 WHERE k = ?; UPDATE waymark_txn_test SET n = 7",
	    SQL_U64(key1));
	ok(db_exec(&d, &q) == DB_ERROR, "a connection refuses two statements in one call");
	/* A bad statement never reaches the server. */
	sql_reset(&q);
	sql_add(&q, "UPDATE waymark_txn_test SET n = ? WHERE k = ?", SQL_DEC("7e0"), SQL_U64(key1));
	ok(q.bad && db_exec(&d, &q) == DB_ERROR && strstr(d.err, "refused a bad statement") != NULL,
	    "db_exec refuses a bad statement");
	/* A body that fails rolls back. */
	ok(db_txn(&d, fail_body, NULL) == DB_ERROR, "a failing body's rc comes back");
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM waymark_txn_test WHERE k = ?", SQL_U64(key1));
	ok(db_query_u64(&d, &q, &n1, &found) == DB_OK && found && n1 == 0,
	    "the failing body left nothing behind (n = %llu)", (unsigned long long)n1);

	/* The deadlock: a locks key1 then key2 (+1 each); c locks key2 then key1 (+10 each). */
	memset(&a, 0, sizeof(a));
	memset(&c, 0, sizeof(c));
	db_init(&a.db, &cfg);
	db_init(&c.db, &cfg);
	a.first = key1, a.second = key2, a.add = 1;
	c.first = key2, c.second = key1, c.add = 10;
	pthread_barrier_init(&both_hold_one, NULL, 2);
	before = db_txn_retries();
	pthread_create(&ta, NULL, run_side, &a);
	pthread_create(&tc, NULL, run_side, &c);
	pthread_join(ta, NULL);
	pthread_join(tc, NULL);
	pthread_barrier_destroy(&both_hold_one);
	ok(a.rc == DB_OK && c.rc == DB_OK, "both transactions committed (rc %d and %d)", a.rc, c.rc);
	ok(a.runs + c.runs == 3 && (a.runs == 2 || c.runs == 2),
	    "the server aborted one, and only that body ran again (runs %d and %d)", a.runs, c.runs);
	ok(db_txn_retries() - before == 1, "db_txn counted one retry");
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM waymark_txn_test WHERE k = ?", SQL_U64(key1));
	db_query_u64(&d, &q, &n1, &found);
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM waymark_txn_test WHERE k = ?", SQL_U64(key2));
	db_query_u64(&d, &q, &n2, &found);
	ok(n1 == 11 && n2 == 11, "each body's effect is there exactly once (%llu, %llu)",
	    (unsigned long long)n1, (unsigned long long)n2);

	/* The connection killed in the middle of a transaction. */
	{
		struct db killer;
		struct killed k = { .killer = &killer };

		ok(dbtest_open(&killer, &cfg), "a second connection");
		sql_reset(&q);
		sql_add(&q, "UPDATE waymark_txn_test SET n = 0 WHERE k = ?", SQL_U64(key1));
		dbtest_exec(&d, &q);
		before = db_txn_retries();
		ok(db_txn(&d, killed_body, &k) == DB_OK, "a transaction whose connection was killed before "
		    "COMMIT commits on a new one");
		ok(k.after_kill == DB_UNAVAILABLE, "the statement after the kill got DB_UNAVAILABLE (%d)",
		    k.after_kill);
		ok(k.runs == 2 && db_txn_retries() - before == 1, "db_txn ran the body again, counted as a "
		    "retry (runs %d)", k.runs);
		ok(!d.commit_unknown, "the outcome is known: COMMIT was never sent on the dead connection");
		sql_reset(&q);
		sql_add(&q, "SELECT n FROM waymark_txn_test WHERE k = ?", SQL_U64(key1));
		n1 = dbtest_u64(&killer, &q, 999);
		ok(n1 == 1, "only the rerun's effect is there: nothing of the killed run, and its last "
		    "statement did not run on its own (n = %llu)", (unsigned long long)n1);
		db_close(&killer);
	}

	db_close(&a.db);
	db_close(&c.db);
	sql_reset(&q);
	sql_add(&q, "DELETE FROM waymark_txn_test WHERE k IN (?, ?)", SQL_U64(key1), SQL_U64(key2));
	ok(dbtest_exec(&d, &q) == DB_OK, "the rows are removed");
	sql_reset(&q);
	sql_add(&q, "DROP TABLE IF EXISTS waymark_txn_test");
	ok(dbtest_exec(&d, &q) == DB_OK, "the scratch table is dropped");
	db_close(&d);
	return done_testing();
}
