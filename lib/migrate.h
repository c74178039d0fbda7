/*
 * migrate.h: schema migrations. The files NNN_name.sql in a folder are
 * applied once each, in version order, and recorded in schema_migrations
 * (created by 001). Runs are serialised by a lock row, which a Galera
 * cluster replicates like any other (docs/ARCHITECTURE.md, Data model):
 * the run inserts row 1 of schema_migrate_lock (which it creates when
 * missing) naming itself, with an expiry MIGRATE_LOCK_TTL seconds on,
 * pushed on again before each file it applies, and deletes it at the end,
 * applied or failed. A row that has expired (its run crashed) is taken
 * over; a second run waits up to MIGRATE_LOCK_WAIT seconds for the row,
 * then stops naming the holder. Two runs against two nodes at once: both
 * inserts reach certification, the first to commit wins, the other's
 * db_txn rerun finds the row. A file is no transaction (DDL commits by
 * itself): one that fails partway stays partly applied, unrecorded. An
 * applied file whose SHA-256 changed, a gap or a repeated version stops
 * the run with a message.
 */
#ifndef WAYMARK_MIGRATE_H
#define WAYMARK_MIGRATE_H

#include <stddef.h>

#include "db.h"

#define MIGRATE_LOCK_TTL 600   /* seconds the lock row holds without a renewal */
#define MIGRATE_LOCK_WAIT 60   /* seconds a second run waits for it */

/*
 * Apply the pending migrations in dir. Returns the number applied (>= 0),
 * or -1 with a message in err[cap]. Progress lines go to `log` when set.
 */
/*
 * Prepare d for migrate_run: the one connection allowed several
 * statements in one call (a migration file), which nothing else opens.
 */
void migrate_open(struct db *d, const struct config *cfg);

int migrate_run(struct db *d, const char *dir, void (*log)(const char *line), char *err, size_t cap);

#endif
