/*
 * lib/db.c on a real Galera cluster (run by t/1100-galera.t, which starts
 * one with tools/galera and migrates it): dbcert.t CONF_A CONF_B, two
 * configurations naming two different nodes. Run any other way it fails;
 * it never skips.
 *
 * - A conflict another node committed first aborts our open transaction
 *   (Galera reports it as a deadlock, 1213, at a statement or at COMMIT):
 *   db_txn runs the body again, and the rerun's effect is there once, on
 *   top of the winner's.
 * - Two nodes insert one unique key: the first to commit wins cluster-wide;
 *   the loser's rerun gets the duplicate, and reads the winner's row.
 * - The SIWX challenge consume (lib/siwxstore.c), raced from two nodes
 *   round after round: exactly one consume of each challenge succeeds and
 *   the other is told it was used.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "db.h"
#include "dbtest.h"
#include "siwxstore.h"
#include "sql.h"
#include "tap.h"
#include "banned.h"

#define RACE_ROUNDS 20

static struct config cfg_a, cfg_b;
static struct db other;   /* node B, used from inside node A's bodies */

/* wsrep status or variable `name` of d's node, as a number. */
static uint64_t
wsrep_u64(struct db *d, const char *table, const char *name)
{
	char b[256];
	struct sql q = SQL_ON(b);
	uint64_t v = 0;
	bool found;

	if (strcmp(table, "status") == 0)
		sql_add(&q, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
		    "WHERE VARIABLE_NAME = ?", SQL_TEXT(name));
	else
		sql_add(&q, "SELECT VARIABLE_VALUE = 'ON' FROM information_schema.GLOBAL_VARIABLES "
		    "WHERE VARIABLE_NAME = ?", SQL_TEXT(name));
	if (db_query_u64(d, &q, &v, &found) != DB_OK || !found)
		return 0;
	return v;
}

/* ------------------------------------------------ a conflicting update */

struct bump {
	uint64_t k;
	int runs;
	enum db_rc first_after;   /* what our next statement got, in the first run */
	unsigned int first_errno;
};

static enum db_rc
bump_body(struct db *d, void *arg)
{
	struct bump *b = arg;
	char ub[160], ob[160], sb[64];
	struct sql q = SQL_ON(ub), o = SQL_ON(ob), s = SQL_ON(sb);
	uint64_t n;
	enum db_rc rc;

	b->runs++;
	sql_add(&q, "UPDATE galera_cert_test SET n = n + 1 WHERE k = ?", SQL_U64(b->k));
	if ((rc = db_exec(d, &q)) != DB_OK)
		return rc;
	if (b->runs > 1)
		return DB_OK;
	/* Node B changes the same row and commits first. */
	sql_add(&o, "UPDATE galera_cert_test SET n = n + 10 WHERE k = ?", SQL_U64(b->k));
	if (db_exec_affected(&other, &o, &n) != DB_OK || n != 1) {
		printf("#   node B's update: %s\n", other.err);
		return DB_ERROR;
	}
	/*
	 * Its write set reaches our node and aborts us (the applier wins the
	 * row lock), at this statement if it arrives first, else at COMMIT
	 * (certification).
	 */
	sql_add(&s, "SELECT SLEEP(0.3)");
	b->first_after = db_exec(d, &s);
	b->first_errno = d->last_errno;
	return b->first_after;
}

/* ------------------------------------------------ one unique key, two nodes */

struct claim {
	uint64_t k;
	int runs;
};

static enum db_rc
claim_body(struct db *d, void *arg)
{
	struct claim *c = arg;
	char ib[160], ob[160];
	struct sql q = SQL_ON(ib), o = SQL_ON(ob);
	uint64_t n;

	c->runs++;
	sql_add(&q, "INSERT INTO galera_cert_test (k, n) VALUES (?, 1)", SQL_U64(c->k));
	if (c->runs == 1) {
		enum db_rc rc = db_exec(d, &q);

		if (rc != DB_OK)
			return rc;
		/* Node B claims the same key and commits first. */
		sql_add(&o, "INSERT INTO galera_cert_test (k, n) VALUES (?, 2)", SQL_U64(c->k));
		if (db_exec_affected(&other, &o, &n) != DB_OK || n != 1) {
			printf("#   node B's insert: %s\n", other.err);
			return DB_ERROR;
		}
		return DB_OK;   /* our COMMIT meets node B's row */
	}
	return db_exec(d, &q);
}

/* ------------------------------------------------ SIWX consume race */

struct racer {
	struct db db;
	const char *nonce;
	const struct siwx_binding *b;
	struct siwx_use u;
	int64_t now;
	enum siwxstore_rc rc;
};

static pthread_barrier_t start_line;

static void *
race(void *arg)
{
	struct racer *r = arg;

	mysql_thread_init();
	pthread_barrier_wait(&start_line);
	r->rc = siwxstore_consume(&r->db, r->nonce, r->b, r->now, &r->u);
	mysql_thread_end();
	return NULL;
}

/* Read-your-cluster: this test's sessions wait for the cluster before reads and writes. */
static enum db_rc
sync_session(struct db *d)
{
	char b[64];
	struct sql q = SQL_ON(b);

	sql_add(&q, "SET SESSION wsrep_sync_wait = 15");
	return dbtest_exec(d, &q);
}

int
main(int argc, char **argv)
{
	char b[256];
	struct db a;
	struct sql q = SQL_ON(b);
	struct bump bu = { 0 };
	struct claim cl = { 0 };
	struct racer ra, rb;
	struct siwx_binding bind = { .endpoint_id = "galera.test", .domain = "galera.test" };
	uint64_t n = 0, key;
	bool found;
	enum db_rc rc;
	unsigned long before;
	int one_winner = 0, other_used = 0;

	if (!ok(argc == 3, "two node configurations (run through t/1100-galera.t, which starts the cluster)"))
		return done_testing();
	if (!dbtest_config(&cfg_a, argv[1], "node A's configuration loads") ||
	    !dbtest_config(&cfg_b, argv[2], "node B's configuration loads"))
		return done_testing();
	mysql_library_init(0, NULL, NULL);
	if (!ok(dbtest_open(&a, &cfg_a) && dbtest_open(&other, &cfg_b), "both nodes are reachable"))
		return done_testing();
	ok(wsrep_u64(&a, "variables", "wsrep_on") == 1 && wsrep_u64(&other, "variables", "wsrep_on") == 1,
	    "both are Galera nodes (wsrep_on)");
	ok(wsrep_u64(&a, "status", "wsrep_cluster_size") == 3 &&
	    wsrep_u64(&other, "status", "wsrep_cluster_size") == 3, "of one cluster of three");
	ok(wsrep_u64(&a, "status", "wsrep_local_index") != wsrep_u64(&other, "status", "wsrep_local_index"),
	    "A and B are different nodes");
	ok(sync_session(&a) == DB_OK && sync_session(&other) == DB_OK, "sessions wait for the cluster");

	key = (uint64_t)getpid() * 4;
	sql_add(&q, "CREATE TABLE IF NOT EXISTS galera_cert_test (k BIGINT UNSIGNED NOT NULL PRIMARY KEY, "
	    "n INT NOT NULL) ENGINE=InnoDB");
	ok(dbtest_exec(&a, &q) == DB_OK, "a scratch table");
	sql_reset(&q);
	sql_add(&q, "REPLACE INTO galera_cert_test (k, n) VALUES (?, 0)", SQL_U64(key));
	ok(dbtest_exec(&a, &q) == DB_OK, "a row at 0");

	/* An update node B committed first. */
	bu.k = key;
	before = db_txn_retries();
	rc = db_txn(&a, bump_body, &bu);
	if (!ok(rc == DB_OK, "the transaction commits in the end"))
		printf("#   rc %d, errno %u: %s\n", rc, a.last_errno, a.err);
	printf("# first run: the statement after node B's commit got rc %d (errno %u)%s\n",
	    bu.first_after, bu.first_errno, bu.first_after == DB_OK ? "; the abort came at COMMIT" : "");
	ok(bu.first_after == DB_OK || (bu.first_after == DB_RETRY && bu.first_errno == 1213),
	    "an abort inside the body is a deadlock (1213), which db_* turn into DB_RETRY");
	ok(bu.runs == 2, "Galera aborted the first run and db_txn ran the body again (runs %d)", bu.runs);
	ok(db_txn_retries() - before == 1, "db_txn counted one retry");
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM galera_cert_test WHERE k = ?", SQL_U64(key));
	rc = db_query_u64(&other, &q, &n, &found);
	ok(rc == DB_OK && found && n == 11, "node B reads both effects once each: 10 + 1 (n = %llu)", (unsigned long long)n);

	/* One unique key from two nodes. */
	cl.k = key + 1;
	before = db_txn_retries();
	ok(db_txn(&a, claim_body, &cl) == DB_DUPLICATE,
	    "the loser's rerun meets the winner's key: DB_DUPLICATE");
	ok(cl.runs == 2 && db_txn_retries() - before == 1, "after one abort and one rerun (runs %d)", cl.runs);
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM galera_cert_test WHERE k = ?", SQL_U64(key + 1));
	rc = db_query_u64(&a, &q, &n, &found);
	ok(rc == DB_OK && found && n == 2, "node A reads node B's row, the only one (n = %llu)", (unsigned long long)n);

	/* SIWX challenges consumed from two nodes at once. */
	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	db_init(&ra.db, &cfg_a);
	db_init(&rb.db, &cfg_b);
	ok(db_connect(&ra.db) == DB_OK && db_connect(&rb.db) == DB_OK &&
	    sync_session(&ra.db) == DB_OK && sync_session(&rb.db) == DB_OK, "two racers, one per node");
	memset(bind.uri_digest, 0x47, sizeof(bind.uri_digest));
	before = db_txn_retries();
	for (int i = 0; i < RACE_ROUNDS; i++) {
		char nonce[SIWXSTORE_NONCE_LEN + 1];
		int64_t now = (int64_t)time(NULL);
		pthread_t ta, tb;

		if (siwxstore_issue(&a, &bind, now, nonce) != 0) {
			printf("#   issue: %s\n", a.err);
			break;
		}
		ra.nonce = rb.nonce = nonce;
		ra.b = rb.b = &bind;
		ra.now = rb.now = now;
		ra.u.signature_kind = rb.u.signature_kind = "eoa";
		memset(ra.u.account, 0xaa, 20);
		memset(rb.u.account, 0xbb, 20);
		pthread_barrier_init(&start_line, NULL, 2);
		pthread_create(&ta, NULL, race, &ra);
		pthread_create(&tb, NULL, race, &rb);
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
		pthread_barrier_destroy(&start_line);
		if ((ra.rc == SIWXSTORE_OK) + (rb.rc == SIWXSTORE_OK) == 1)
			one_winner++;
		else
			printf("#   round %d: rc %d and %d\n", i, ra.rc, rb.rc);
		if ((ra.rc == SIWXSTORE_OK && rb.rc == SIWXSTORE_USED) ||
		    (rb.rc == SIWXSTORE_OK && ra.rc == SIWXSTORE_USED))
			other_used++;
	}
	ok(one_winner == RACE_ROUNDS, "each of %d challenges raced from two nodes was consumed once (%d)",
	    RACE_ROUNDS, one_winner);
	ok(other_used == RACE_ROUNDS, "and the other consume was told it was used (%d)", other_used);
	printf("# db_txn retried %lu of the %d races' transactions\n", db_txn_retries() - before,
	    2 * RACE_ROUNDS);
	sql_reset(&q);
	sql_add(&q, "DELETE FROM siwx_challenges WHERE endpoint_id = ?", SQL_TEXT(bind.endpoint_id));
	dbtest_exec(&a, &q);
	db_close(&ra.db);
	db_close(&rb.db);

	sql_reset(&q);
	sql_add(&q, "DROP TABLE IF EXISTS galera_cert_test");
	ok(dbtest_exec(&a, &q) == DB_OK, "the scratch table is dropped");
	db_close(&a);
	db_close(&other);
	mysql_library_end();
	return done_testing();
}
