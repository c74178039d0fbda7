/*
 * dbtest.h: the set-up the C tests that talk to a real MariaDB share
 * (t/unit/dbtxn.c against the suite's server, t/galera/ against a
 * cluster): load a configuration, open a connection, run a statement
 * whose failure is printed, read one number. Header-only, like tap.h;
 * each check is one TAP line, so a set-up failure is a failed test,
 * never a skip.
 */
#ifndef WAYMARK_DBTEST_H
#define WAYMARK_DBTEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "db.h"
#include "sql.h"
#include "tap.h"

/* Load path into c: one TAP check named what; the reason is printed on failure. */
static inline bool
dbtest_config(struct config *c, const char *path, const char *what)
{
	char err[512];

	if (ok(config_load(c, path, err, sizeof(err)) == 0, "%s", what))
		return true;
	printf("#   %s\n", err);
	return false;
}

/* db_init d on c and connect it, without a TAP line; the reason is printed on failure. */
static inline bool
dbtest_open(struct db *d, const struct config *c)
{
	db_init(d, c);
	if (db_connect(d) == DB_OK)
		return true;
	printf("#   %s\n", d->err);
	return false;
}

/* Run q on d; a failure prints the server's reason. */
static inline enum db_rc
dbtest_exec(struct db *d, const struct sql *q)
{
	enum db_rc rc = db_exec(d, q);

	if (rc != DB_OK)
		printf("#   %s\n", d->err);
	return rc;
}

/* The first column of q's first row, or fallback when the query fails or finds no row. */
static inline uint64_t
dbtest_u64(struct db *d, const struct sql *q, uint64_t fallback)
{
	uint64_t v = 0;
	bool found = false;

	if (db_query_u64(d, q, &v, &found) != DB_OK) {
		printf("#   %s\n", d->err);
		return fallback;
	}
	return found ? v : fallback;
}

#endif
