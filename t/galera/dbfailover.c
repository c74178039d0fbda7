/*
 * lib/db.c's failover on a real Galera cluster (run by t/1105-db-failover.t,
 * which starts one with tools/galera, migrates a database on it and leaves
 * node 3 isolated afterwards for its /health checks):
 *
 *	dbfailover.t CONF GALERA_TOOL
 *
 * CONF names the three nodes in db_hosts (db_prefer 1) and a db_timeout
 * longer than the pause of a cluster that lost a member (until the others
 * declare it gone, writes and sync waits wait); the test derives the
 * other choices from it. GALERA_TOOL is tools/galera, run for what a
 * client cannot do (kill and restart a node, isolate one); its
 * WAYMARK_GALERA_VAR and WAYMARK_GALERA_PORT come from the environment.
 * Run any other way it fails; it never skips.
 *
 * - Sessions on Galera get wsrep_sync_wait = db_sync_wait: a row written
 *   through node 1 is read at once through node 2, round after round,
 *   and a SIWX challenge issued through node 1 is consumed through node 2.
 * - SIGKILL of the preferred node inside a transaction: the statement
 *   after it fails, the body runs again on node 2 and commits once; the
 *   dead node is skipped (reconnecting does not try it every time), and
 *   once it is back the connection returns to it.
 * - A COMMIT whose answer is lost (node 2 holds commits back with BACKUP
 *   STAGE BLOCK_COMMIT longer than the client's read timeout): db_txn
 *   does not run the body again, says the outcome is unknown, and the
 *   transaction, committed once the block ends, is there exactly once.
 * - Node 3 isolated from the group (gmcast.isolate=1: non-Primary): a
 *   connection that preferred it moves to node 1 at its next statement;
 *   a connection that can reach only node 3 is refused as not primary;
 *   node 3 answers a write with 1047.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "config.h"
#include "db.h"
#include "dbtest.h"
#include "siwxstore.h"
#include "sql.h"
#include "tap.h"
#include "banned.h"

#define ROUNDS 50
#define SIWX_ROUNDS 20
#define POLL_LIMIT_MS (180 * 1000)

static const char *galera;

/* Run tools/galera with args, its output into out[cap] (may be NULL); its exit status. */
static int
tool(char *out, size_t cap, const char *args)
{
	char cmd[1024];
	FILE *p;
	size_t n = 0;
	int st;

	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", galera, args);
	if ((p = popen(cmd, "r")) == NULL)
		return -1;
	if (out && cap) {
		n = fread(out, 1, cap - 1, p);
		out[n] = '\0';
	} else {
		char sink[512];

		while (fread(sink, 1, sizeof(sink), p) > 0)
			;
	}
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void
pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The wsrep_node_name d's statements run on ("" when it cannot say). */
static const char *
node_of(struct db *d, char *out, size_t cap)
{
	struct db_cluster cs;

	out[0] = '\0';
	if (db_cluster(d, &cs) == DB_OK)
		snprintf(out, cap, "%s", cs.node);
	else
		printf("#   db_cluster: %s\n", d->err);
	return out;
}

/* Node n's cluster status as root sees it (tools/galera sql). */
static const char *
status_of(int n, char *out, size_t cap)
{
	char args[160];
	size_t len;

	snprintf(args, sizeof(args), "sql %d \"SHOW STATUS LIKE 'wsrep_cluster_status'\" | cut -f2", n);
	if (tool(out, cap, args) != 0)
		snprintf(out, cap, "?");
	len = strlen(out);
	while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == '\r'))
		out[--len] = '\0';
	return out;
}

/* ------------------------------------------------ a kill inside a transaction */

struct killed {
	uint64_t k;
	int runs;
	pid_t victim;
	enum db_rc after_kill;
	bool gone;
};

static enum db_rc
bump(struct db *d, uint64_t k)
{
	char b[128];
	struct sql q = SQL_ON(b);

	sql_add(&q, "UPDATE fo_test SET n = n + 1 WHERE k = ?", SQL_U64(k));
	return db_exec(d, &q);
}

static enum db_rc
killed_body(struct db *d, void *arg)
{
	struct killed *k = arg;
	enum db_rc rc;
	uint64_t until;

	k->runs++;
	if ((rc = bump(d, k->k)) != DB_OK)
		return rc;
	if (k->runs == 1) {
		kill(k->victim, SIGKILL);
		until = clock_ms() + POLL_LIMIT_MS;
		while (kill(k->victim, 0) == 0 && clock_ms() < until)
			pause_ms(50);
		k->gone = kill(k->victim, 0) != 0;
		k->after_kill = bump(d, k->k);
		return k->after_kill;
	}
	return bump(d, k->k);
}

/* ------------------------------------------------ a COMMIT whose answer is lost */

/* Root's statements (tools/galera sql 2): every COMMIT on node 2 waits for 6 s. */
static const char block_commits[] = "BACKUP STAGE START; BACKUP STAGE FLUSH; BACKUP STAGE BLOCK_DDL; "
    "BACKUP STAGE BLOCK_COMMIT; SELECT SLEEP(6); BACKUP STAGE END";

struct unanswered {
	uint64_t k;
	int runs;
	bool blocked;
};

/* Until root's session on node 2 holds BLOCK_COMMIT (it is sleeping), at most POLL_LIMIT_MS. */
static bool
commits_blocked(void)
{
	char out[64];
	uint64_t until = clock_ms() + POLL_LIMIT_MS;

	do {
		if (tool(out, sizeof(out), "sql 2 \"SELECT COUNT(*) FROM information_schema.PROCESSLIST "
		    "WHERE INFO LIKE 'SELECT SLEEP%'\"") == 0 && out[0] == '1')
			return true;
		pause_ms(100);
	} while (clock_ms() < until);
	return false;
}

static enum db_rc
unanswered_body(struct db *d, void *arg)
{
	struct unanswered *u = arg;
	enum db_rc rc;
	char cmd[1024];

	u->runs++;
	if ((rc = bump(d, u->k)) != DB_OK || u->runs > 1)
		return rc;
	/* Root on node 2 blocks every COMMIT there for a while, in the background. */
	snprintf(cmd, sizeof(cmd), "'%s' sql 2 \"%s\" >/dev/null 2>&1 &", galera, block_commits);
	u->blocked = system(cmd) == 0 && commits_blocked();
	return DB_OK;
}

static pid_t
pid_of_node(int n)
{
	const char *var = getenv("WAYMARK_GALERA_VAR");
	char path[1024], line[32];
	FILE *f;
	long pid = 0;

	snprintf(path, sizeof(path), "%s/n%d/run/mariadbd.pid", var ? var : "", n);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(line, sizeof(line), f))
		pid = strtol(line, NULL, 10);
	fclose(f);
	return (pid_t)pid;
}

int
main(int argc, char **argv)
{
	static struct config cfg1, cfg2, cfg3, only3;
	struct db d, e, f, g;
	char b[256], name[128], st[64], out[2048];
	struct sql q = SQL_ON(b);
	struct killed kd = { .k = 1000 };
	struct siwx_binding bind = { .endpoint_id = "failover.test", .domain = "failover.test" };
	unsigned long tries;
	enum db_rc rc;
	uint64_t until;
	int seen = 0, consumed = 0;

	if (!ok(argc == 3, "a configuration and tools/galera (run through t/1105-db-failover.t)"))
		return done_testing();
	galera = argv[2];
	if (!dbtest_config(&cfg1, argv[1], "the configuration loads"))
		return done_testing();
	if (!ok(cfg1.db_nodes == 3 && cfg1.db_prefer == 1 && cfg1.db_sync_wait == 7 && cfg1.db_timeout >= 15,
	    "it lists three nodes, prefers the first, db_sync_wait is the default 7, db_timeout >= 15 s"))
		return done_testing();
	cfg2 = cfg3 = only3 = cfg1;
	cfg2.db_prefer = 2;
	cfg3.db_prefer = 3;
	only3.db_node[0] = cfg1.db_node[2];
	only3.db_nodes = 1;
	mysql_library_init(0, NULL, NULL);

	/* ------------------------------------------------ sessions and sync wait */
	if (!ok(dbtest_open(&d, &cfg1) && dbtest_open(&e, &cfg2) && dbtest_open(&f, &cfg3),
	    "three connections, preferring nodes 1, 2 and 3"))
		return done_testing();
	is_str(node_of(&d, name, sizeof(name)), "node1", "the first is on node 1");
	is_str(node_of(&e, name, sizeof(name)), "node2", "the second on node 2");
	is_str(node_of(&f, name, sizeof(name)), "node3", "the third on node 3");
	ok(d.galera && e.galera && f.galera, "each knows it talks to Galera");
	sql_add(&q, "SELECT @@SESSION.wsrep_sync_wait");
	ok(dbtest_u64(&e, &q, 99) == 7, "a session's wsrep_sync_wait is db_sync_wait (7)");
	sql_reset(&q);
	sql_add(&q, "CREATE TABLE IF NOT EXISTS fo_test (k BIGINT UNSIGNED NOT NULL PRIMARY KEY, "
	    "n INT NOT NULL) ENGINE=InnoDB");
	ok(dbtest_exec(&d, &q) == DB_OK, "a scratch table");
	for (uint64_t i = 1; i <= ROUNDS; i++) {
		sql_reset(&q);
		sql_add(&q, "INSERT INTO fo_test (k, n) VALUES (?, ?)", SQL_U64(i), SQL_U64(i * 7));
		if (dbtest_exec(&d, &q) != DB_OK)
			break;
		sql_reset(&q);
		sql_add(&q, "SELECT n FROM fo_test WHERE k = ?", SQL_U64(i));
		if (dbtest_u64(&e, &q, 0) == i * 7)
			seen++;
	}
	ok(seen == ROUNDS, "each of %d rows written through node 1 is read at once through node 2 (%d)",
	    ROUNDS, seen);
	memset(bind.uri_digest, 0x51, sizeof(bind.uri_digest));
	for (int i = 0; i < SIWX_ROUNDS; i++) {
		char nonce[SIWXSTORE_NONCE_LEN + 1];
		struct siwx_use u = { .signature_kind = "eoa" };
		int64_t now = (int64_t)time(NULL);

		memset(u.account, 0xcc, sizeof(u.account));
		if (siwxstore_issue(&d, &bind, now, nonce) != 0) {
			printf("#   issue: %s\n", d.err);
			break;
		}
		if (siwxstore_consume(&e, nonce, &bind, now, &u) == SIWXSTORE_OK)
			consumed++;
	}
	ok(consumed == SIWX_ROUNDS, "each of %d SIWX challenges issued through node 1 is consumed at once "
	    "through node 2 (%d)", SIWX_ROUNDS, consumed);

	/* ------------------------------------------------ the preferred node killed */
	sql_reset(&q);
	sql_add(&q, "INSERT INTO fo_test (k, n) VALUES (?, 0)", SQL_U64(kd.k));
	ok(dbtest_exec(&d, &q) == DB_OK, "a row at 0");
	kd.victim = pid_of_node(1);
	if (!ok(kd.victim > 0, "node 1's pid (%ld)", (long)kd.victim))
		return done_testing();
	tries = db_txn_retries();
	ok(db_txn(&d, killed_body, &kd) == DB_OK, "a transaction whose node was SIGKILLed in the middle "
	    "commits in the end");
	ok(kd.gone, "node 1 is gone");
	ok(kd.after_kill == DB_UNAVAILABLE, "the statement after the kill got DB_UNAVAILABLE (%d)", kd.after_kill);
	ok(kd.runs == 2 && db_txn_retries() - tries == 1, "db_txn ran the body again (runs %d)", kd.runs);
	ok(!d.commit_unknown, "its outcome is known");
	is_str(node_of(&d, name, sizeof(name)), "node2", "the connection moved to node 2, the next in order");
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM fo_test WHERE k = ?", SQL_U64(kd.k));
	ok(dbtest_u64(&e, &q, 99) == 2, "node 2 holds the rerun's two increments, once");
	sql_reset(&q);
	sql_add(&q, "SELECT COUNT(*) FROM fo_test");
	tries = d.connect_tries;
	for (int i = 0; i < 20; i++) {
		db_close(&d);
		if (dbtest_u64(&d, &q, 0) != ROUNDS + 1)
			break;
	}
	ok(d.connect_tries - tries < 30, "20 reconnects with node 1 dead took %lu connection attempts, not "
	    "40: the dead node is skipped", d.connect_tries - tries);
	is_str(node_of(&d, name, sizeof(name)), "node2", "each on node 2");

	/* Node 1 back: the connection returns to it once its mark ran out. */
	if (!ok(tool(out, sizeof(out), "start") == 0, "node 1 restarts and rejoins (tools/galera start)"))
		printf("# %s\n", out);
	until = clock_ms() + POLL_LIMIT_MS;
	while (strcmp(node_of(&d, name, sizeof(name)), "node1") != 0 && clock_ms() < until)
		pause_ms(200);
	is_str(name, "node1", "the connection went back to node 1, its preferred node");
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM fo_test WHERE k = ?", SQL_U64(kd.k));
	ok(dbtest_u64(&d, &q, 99) == 2, "node 1 caught up: it reads the increments made while it was down");

	/* ------------------------------------------------ a COMMIT whose answer is lost */
	{
		static struct config quick;
		struct db h;
		struct unanswered u = { .k = kd.k };

		quick = cfg2;
		quick.db_timeout = 2;   /* well below block_commits' 6 s */
		ok(dbtest_open(&h, &quick), "a connection to node 2 with a read timeout of 2 s");
		tries = db_txn_retries();
		rc = db_txn(&h, unanswered_body, &u);
		ok(u.blocked, "root's session on node 2 blocked commits (BACKUP STAGE BLOCK_COMMIT)");
		ok(rc == DB_UNAVAILABLE && h.commit_unknown, "the COMMIT went unanswered: DB_UNAVAILABLE, "
		    "outcome unknown (rc %d: %s)", rc, h.err);
		ok(u.runs == 1 && db_txn_retries() == tries, "db_txn did not run the body again (runs %d)", u.runs);
		sql_reset(&q);
		sql_add(&q, "SELECT n FROM fo_test WHERE k = ?", SQL_U64(kd.k));
		until = clock_ms() + POLL_LIMIT_MS;
		while (dbtest_u64(&d, &q, 0) != 3 && clock_ms() < until)
			pause_ms(200);
		ok(dbtest_u64(&d, &q, 0) == 3, "once the block ended it had committed: its increment is there "
		    "once, never twice (n = %llu)", (unsigned long long)dbtest_u64(&d, &q, 0));
		db_close(&h);
	}

	/* ------------------------------------------------ node 3 isolated */
	is_str(node_of(&f, name, sizeof(name)), "node3", "the third connection is still on node 3");
	ok(tool(out, sizeof(out), "sql 3 \"SET GLOBAL wsrep_provider_options = 'gmcast.isolate=1'\"") == 0,
	    "node 3 is cut off from the group (gmcast.isolate=1)");
	until = clock_ms() + POLL_LIMIT_MS;
	while (strcmp(status_of(3, st, sizeof(st)), "non-Primary") != 0 && clock_ms() < until)
		pause_ms(200);
	is_str(st, "non-Primary", "node 3 leaves the primary component");
	sql_reset(&q);
	sql_add(&q, "SELECT COUNT(*) FROM fo_test");
	ok(dbtest_u64(&f, &q, 0) == ROUNDS + 1, "the third connection's next statement answers");
	is_str(node_of(&f, name, sizeof(name)), "node1", "from node 1, the next after node 3");
	sql_reset(&q);
	sql_add(&q, "INSERT INTO fo_test (k, n) VALUES (?, 5)", SQL_U64(kd.k + 1));
	ok(dbtest_exec(&f, &q) == DB_OK, "a write through it commits");
	sql_reset(&q);
	sql_add(&q, "SELECT n FROM fo_test WHERE k = ?", SQL_U64(kd.k + 1));
	ok(dbtest_u64(&e, &q, 0) == 5, "and node 2 reads it");
	db_init(&g, &only3);
	rc = db_connect(&g);
	ok(rc == DB_UNAVAILABLE && g.unready == 1, "a connection that can reach only node 3 is refused, as "
	    "not primary (rc %d, unready %u)", rc, g.unready);
	ok(strstr(g.err, "non-Primary") != NULL, "the reason names the state: %s", g.err);
	{
		char args[256];

		/* As root, through tools/galera: the database of t/1105's configuration. */
		sql_reset(&q);
		sql_add(&q, "INSERT INTO waymark_fo.fo_test (k, n) VALUES (?, 1)", SQL_U64(kd.k + 2));
		snprintf(args, sizeof(args), "sql 3 \"%s\"", sql_str(&q));
		ok(tool(out, sizeof(out), args) != 0 && strstr(out, "1047") != NULL,
		    "node 3 answers a write with 1047 (WSREP has not yet prepared node)");
		printf("#   %s", out);
	}
	db_close(&d);
	db_close(&e);
	db_close(&f);
	db_close(&g);
	mysql_library_end();
	return done_testing();
}
