#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "migrate.h"
#include "sha256.h"
#include "banned.h"

#define MIGRATIONS_MAX 999
#define MIGRATION_FILE_MAX (4 * 1024 * 1024)
#define HOLDER_MAX 128

struct migration {
	unsigned version;
	char name[200];
};

static int
by_version(const void *a, const void *b)
{
	const struct migration *x = a, *y = b;

	return (x->version > y->version) - (x->version < y->version);
}

/* "001_name.sql" -> version 1; -1 when the name is not a migration. */
static int
parse_name(const char *n, unsigned *version)
{
	size_t len = strlen(n);

	if (len < 9 || strcmp(n + len - 4, ".sql") != 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (n[i] < '0' || n[i] > '9')
			return -1;
	if (n[3] != '_')
		return -1;
	for (size_t i = 4; i < len - 4; i++)
		if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= '0' && n[i] <= '9') || n[i] == '_' ||
		    n[i] == '-'))
			return -1;
	*version = (unsigned)((n[0] - '0') * 100 + (n[1] - '0') * 10 + (n[2] - '0'));
	return *version == 0 ? -1 : 0;
}

static int
read_file(const char *path, struct buf *b)
{
	FILE *f = fopen(path, "rb");
	char chunk[8192];
	size_t n;
	int rc = 0;

	if (f == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (buf_add(b, chunk, n) < 0) {
			rc = -1;
			break;
		}
	if (ferror(f))
		rc = -1;
	fclose(f);
	return rc;
}

/* The recorded checksum of version v into out[65], or "" when unapplied. */
static enum db_rc
applied_sha(struct db *d, unsigned v, bool have_table, char out[65])
{
	char b[128];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res;
	MYSQL_ROW row;
	enum db_rc rc;

	out[0] = '\0';
	if (!have_table)
		return DB_OK;
	sql_add(&q, "SELECT sha256 FROM schema_migrations WHERE version = ?", SQL_U64(v));
	if ((rc = db_query(d, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && row[0])
		snprintf(out, 65, "%s", row[0]);
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

static int
list_dir(const char *dir, struct migration *m, size_t *n, char *err, size_t cap)
{
	DIR *dp = opendir(dir);
	struct dirent *de;

	*n = 0;
	if (dp == NULL) {
		snprintf(err, cap, "migrate: cannot open %s", dir);
		return -1;
	}
	while ((de = readdir(dp)) != NULL) {
		unsigned v;

		if (parse_name(de->d_name, &v) < 0)
			continue;
		if (*n == MIGRATIONS_MAX || strlen(de->d_name) >= sizeof(m[0].name)) {
			closedir(dp);
			snprintf(err, cap, "migrate: too many migrations or name too long");
			return -1;
		}
		m[*n].version = v;
		memcpy(m[*n].name, de->d_name, strlen(de->d_name) + 1);
		(*n)++;
	}
	closedir(dp);
	qsort(m, *n, sizeof(*m), by_version);
	for (size_t i = 0; i < *n; i++)
		if (m[i].version != i + 1) {
			snprintf(err, cap, "migrate: %s: expected version %03zu (no gaps or repeats)",
			    m[i].name, i + 1);
			return -1;
		}
	return 0;
}

/* ------------------------------------------------ the lock row (migrate.h) */

/* Who holds the lock: host, process and a per-run number, into h[HOLDER_MAX]. */
static void
lock_holder(char h[HOLDER_MAX])
{
	char host[64];
	struct timespec ts;

	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(h, HOLDER_MAX, "%s/%ld/%lx", host, (long)getpid(),
	    (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20));
}

struct lock_take {
	const char *holder;
	bool won;
};

/*
 * One try: insert the row, or take it over when it has expired. On a
 * Galera cluster two nodes may both insert (or both take over) at once;
 * certification aborts all but the first to commit, and db_txn's rerun
 * finds that one's row, unexpired.
 */
static enum db_rc
lock_take_body(struct db *d, void *arg)
{
	struct lock_take *t = arg;
	char ib[320], ub[400];
	struct sql ins = SQL_ON(ib), upd = SQL_ON(ub);
	enum db_rc rc;

	t->won = false;
	sql_add(&ins, "INSERT INTO schema_migrate_lock (id, holder, expires_at) "
	    "VALUES (1, ?, UTC_TIMESTAMP(6) + INTERVAL ? SECOND)",
	    SQL_TEXT(t->holder), SQL_U64(MIGRATE_LOCK_TTL));
	rc = db_exec(d, &ins);
	if (rc == DB_OK) {
		t->won = true;
		return DB_OK;
	}
	if (rc != DB_DUPLICATE)
		return rc;
	sql_add(&upd, "UPDATE schema_migrate_lock SET holder = ?, "
	    "expires_at = UTC_TIMESTAMP(6) + INTERVAL ? SECOND "
	    "WHERE id = 1 AND expires_at < UTC_TIMESTAMP(6)",
	    SQL_TEXT(t->holder), SQL_U64(MIGRATE_LOCK_TTL));
	if ((rc = db_exec(d, &upd)) != DB_OK)
		return rc;
	t->won = mysql_affected_rows(d->my) == 1;
	return DB_OK;
}

/* Take the lock row, waiting up to MIGRATE_LOCK_WAIT seconds; 0 or -1 with err. */
static int
lock_take(struct db *d, const char *holder, char *err, size_t cap)
{
	char cb[512], hb[128], qb[160], who[HOLDER_MAX], until[HOLDER_MAX];
	struct sql create = SQL_ON(cb), sync = SQL_ON(hb), q = SQL_ON(qb);
	struct lock_take t = { .holder = holder, .won = false };
	struct timespec pause = { .tv_sec = 0, .tv_nsec = 250000000L };
	time_t give_up = time(NULL) + MIGRATE_LOCK_WAIT;

	/*
	 * Reads wait until this node has applied what the cluster committed
	 * before them (Galera; a server without it has the variable too and
	 * ignores it), so the run that takes the lock next sees every file
	 * the last one recorded.
	 */
	sql_add(&sync, "SET SESSION wsrep_sync_wait = 1");
	sql_add(&create, "CREATE TABLE IF NOT EXISTS schema_migrate_lock ("
	    "id TINYINT UNSIGNED NOT NULL PRIMARY KEY, "
	    "holder VARCHAR(128) NOT NULL, "
	    "expires_at DATETIME(6) NOT NULL"
	    ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
	if (db_exec(d, &sync) != DB_OK || db_exec(d, &create) != DB_OK) {
		snprintf(err, cap, "migrate: cannot prepare the migration lock: %s", d->err);
		return -1;
	}
	for (;;) {
		if (db_txn(d, lock_take_body, &t) != DB_OK) {
			snprintf(err, cap, "migrate: cannot take the migration lock: %s", d->err);
			return -1;
		}
		if (t.won)
			return 0;
		if (time(NULL) >= give_up)
			break;
		nanosleep(&pause, NULL);
	}
	sql_add(&q, "SELECT holder, expires_at FROM schema_migrate_lock WHERE id = 1");
	if (db_query_pair(d, &q, who, until, HOLDER_MAX) != DB_OK)
		who[0] = until[0] = '\0';
	snprintf(err, cap, "migrate: another migration holds the lock (%s, until %s UTC); "
	    "waited %d s", who[0] ? who : "?", until[0] ? until : "?", MIGRATE_LOCK_WAIT);
	return -1;
}

/* Push the lock's expiry on; -1 with err when the lock is no longer ours. */
static int
lock_renew(struct db *d, const char *holder, char *err, size_t cap)
{
	char b[320];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;

	sql_add(&q, "UPDATE schema_migrate_lock SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? SECOND "
	    "WHERE id = 1 AND holder = ?", SQL_U64(MIGRATE_LOCK_TTL), SQL_TEXT(holder));
	if (db_exec_affected(d, &q, &n) != DB_OK) {
		snprintf(err, cap, "migrate: cannot renew the migration lock: %s", d->err);
		return -1;
	}
	if (n != 1) {
		snprintf(err, cap, "migrate: lost the migration lock (it expired after %d s and "
		    "another run took it); stopped", MIGRATE_LOCK_TTL);
		return -1;
	}
	return 0;
}

static void
lock_release(struct db *d, const char *holder)
{
	char b[200];
	struct sql q = SQL_ON(b);
	uint64_t n;

	sql_add(&q, "DELETE FROM schema_migrate_lock WHERE id = 1 AND holder = ?", SQL_TEXT(holder));
	if (db_exec_affected(d, &q, &n) != DB_OK)
		fprintf(stderr, "waymark: migrate: releasing the migration lock: %s "
		    "(it lapses after %d s)\n", d->err, MIGRATE_LOCK_TTL);
}

void
migrate_open(struct db *d, const struct config *cfg)
{
	db_init_script(d, cfg);
}

int
migrate_run(struct db *d, const char *dir, void (*log)(const char *line), char *err, size_t cap)
{
	static struct migration m[MIGRATIONS_MAX];
	size_t n;
	uint64_t have = 0;
	bool found;
	int applied = -1;
	struct buf sql;
	char tb[256], holder[HOLDER_MAX];
	struct sql tables = SQL_ON(tb);

	buf_init(&sql, MIGRATION_FILE_MAX);
	if (list_dir(dir, m, &n, err, cap) < 0)
		return -1;
	lock_holder(holder);
	if (lock_take(d, holder, err, cap) < 0)
		return -1;
	sql_add(&tables, "SELECT COUNT(*) FROM information_schema.tables WHERE "
	    "table_schema = DATABASE() AND table_name = 'schema_migrations'");
	if (db_query_u64(d, &tables, &have, &found) != DB_OK) {
		snprintf(err, cap, "migrate: %s", d->err);
		goto out;
	}
	applied = 0;
	for (size_t i = 0; i < n; i++) {
		char path[1200], sha[67], recorded[65], line[512], ib[512];
		struct sql ins = SQL_ON(ib);

		snprintf(path, sizeof(path), "%s/%s", dir, m[i].name);
		buf_reset(&sql);
		if (read_file(path, &sql) < 0) {
			snprintf(err, cap, "migrate: cannot read %s", path);
			applied = -1;
			goto out;
		}
		if (sha256_hex(sql.p ? sql.p : "", sql.len, sha) < 0) {
			snprintf(err, cap, "migrate: cannot compute the SHA-256 of %s", path);
			applied = -1;
			goto out;
		}
		if (applied_sha(d, m[i].version, have != 0, recorded) != DB_OK) {
			snprintf(err, cap, "migrate: %s", d->err);
			applied = -1;
			goto out;
		}
		if (recorded[0]) {
			if (strcmp(recorded, sha + 2) != 0) {
				snprintf(err, cap, "migrate: %s changed after it was applied "
				    "(recorded sha256 %.12s..., file %.12s...); add a new migration instead",
				    m[i].name, recorded, sha + 2);
				applied = -1;
				goto out;
			}
			continue;
		}
		if (lock_renew(d, holder, err, cap) < 0) {
			applied = -1;
			goto out;
		}
		if (db_exec_script(d, buf_str(&sql)) != DB_OK) {
			snprintf(err, cap, "migrate: %s failed: %s", m[i].name, d->err);
			applied = -1;
			goto out;
		}
		have = 1;
		if (sql_add(&ins, "INSERT INTO schema_migrations (version, name, sha256) VALUES (?, ?, ?)",
		    SQL_U64(m[i].version), SQL_TEXT(m[i].name), SQL_TEXT(sha + 2)) < 0) {
			snprintf(err, cap, "migrate: recording %s: the statement is too long", m[i].name);
			applied = -1;
			goto out;
		}
		if (db_exec(d, &ins) != DB_OK) {
			snprintf(err, cap, "migrate: recording %s failed: %s", m[i].name, d->err);
			applied = -1;
			goto out;
		}
		applied++;
		if (log) {
			snprintf(line, sizeof(line), "applied %s", m[i].name);
			log(line);
		}
	}
out:
	lock_release(d, holder);
	buf_release(&sql);
	return applied;
}
