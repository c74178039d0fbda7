#include "dbfail.h"
#include "banned.h"

enum err
db_err(enum db_rc rc)
{
	if (rc == DB_OK)
		return ERR_NONE;
	return rc == DB_UNAVAILABLE ? ERR_DATABASE_UNAVAILABLE : ERR_INTERNAL;
}

enum err
db_fail(struct resp *w, enum db_rc rc)
{
	return resp_fail(w, db_err(rc), NULL, NULL);
}
