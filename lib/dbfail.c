#include "dbfail.h"
#include "banned.h"

enum err
db_err(enum db_rc rc)
{
	if (rc == DB_OK)
		return ERR_NONE;
	/* A transaction the server kept aborting: busy, worth retrying later. */
	return rc == DB_UNAVAILABLE || rc == DB_RETRY ? ERR_DATABASE_UNAVAILABLE : ERR_INTERNAL;
}

enum err
db_connect_err(const struct db *d)
{
	return d->unready > 0 ? ERR_DATABASE_NOT_PRIMARY : ERR_DATABASE_UNAVAILABLE;
}

enum err
db_fail(struct resp *w, enum db_rc rc)
{
	return resp_fail(w, db_err(rc), NULL, NULL);
}
