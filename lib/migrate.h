/*
 * migrate.h: schema migrations. The files NNN_name.sql in a folder are
 * applied once each, in version order, and recorded in schema_migrations
 * (created by 001). A MariaDB named lock (GET_LOCK 'waymark_migrate', 60 s)
 * serialises runs against the same server only: it is held by the
 * connection (lost with it), is no transaction (a file that fails partway
 * stays partly applied, unrecorded) and is not replicated by Galera
 * (docs/ARCHITECTURE.md, Data model). An applied file whose SHA-256
 * changed, a gap or a repeated version stops the run with a message.
 */
#ifndef WAYMARK_MIGRATE_H
#define WAYMARK_MIGRATE_H

#include <stddef.h>

#include "db.h"

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
