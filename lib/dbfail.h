/*
 * dbfail.h: the one HTTP answer for a database call that failed. An
 * unreachable server (DB_UNAVAILABLE) is the 503 database_unavailable a
 * client may retry; anything else (a statement error, a duplicate the
 * caller did not expect) is the 500 internal_error.
 */
#ifndef WAYMARK_DBFAIL_H
#define WAYMARK_DBFAIL_H

#include "db.h"
#include "err.h"
#include "http.h"

/* The error of a failed rc (ERR_NONE for DB_OK). */
enum err db_err(enum db_rc rc);

/*
 * The error of a db_connect (or db_cluster) that failed on d: 503
 * database_not_primary when a node answered but was not Synced in the
 * Galera primary component, else 503 database_unavailable.
 */
enum err db_connect_err(const struct db *d);

/* Write the error body for rc into w (see resp_fail); returns the error. */
enum err db_fail(struct resp *w, enum db_rc rc);

#endif
