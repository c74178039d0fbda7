/* The bounded buffer, the request pool, the error table and error bodies. */
#include <string.h>

#include "buf.h"
#include "err.h"
#include "http.h"
#include "pool.h"
#include "dbfail.h"
#include "timefmt.h"
#include "tap.h"
#include "banned.h"

static int cleaned;

static void
count_cleanup(void *p)
{
	(void)p;
	cleaned++;
}

int
main(void)
{
	struct buf b;
	struct pool p;
	char t[32];

	buf_init(&b, 10);
	ok(buf_adds(&b, "hello") == 0 && b.len == 5 && strcmp(buf_str(&b), "hello") == 0, "buf add");
	ok(buf_printf(&b, "%d", 12345) == 0 && b.len == 10, "buf fills to the cap exactly");
	ok(buf_addc(&b, 'x') < 0 && b.full && b.len == 10, "one byte over the cap fails, marks full");
	ok(buf_adds(&b, "") < 0, "a full buffer stays failed");
	buf_reset(&b);
	ok(b.len == 0 && !b.full && buf_printf(&b, "%s", "0123456789a") < 0 && b.len == 0,
	    "printf past the cap writes nothing");
	buf_release(&b);
	ok(strcmp(buf_str(&b), "") == 0, "released buffer reads empty");
	buf_init(&b, 8);
	{
		char data[] = "abcdefghij";

		ok(buf_sink(data, 2, 3, &b) == 6 && strcmp(buf_str(&b), "abcdef") == 0,
		    "buf_sink appends size * n bytes and reports them taken");
		ok(buf_sink(data, 1, 4, &b) == 0 && b.full && b.len == 6,
		    "buf_sink past the cap takes nothing and reports 0");
	}
	buf_release(&b);

	pool_init(&p, 200);
	/* Cleanup records count against the cap: these two take some of it. */
	ok(pool_defer(&p, count_cleanup, NULL) == 0 && pool_defer(&p, count_cleanup, NULL) == 0,
	    "pool_defer records cleanups");
	ok(pool_alloc(&p, 200 - p.used) != NULL, "pool alloc up to the cap");
	ok(pool_alloc(&p, 1) == NULL, "pool alloc past the cap fails");
	pool_release(&p);
	ok(cleaned == 2 && p.used == 0, "release runs every cleanup and frees everything");
	{
		char *s = pool_strndup(&p, "abcdef", 3);

		ok(s && strcmp(s, "abc") == 0, "pool strndup");
	}
	pool_release(&p);
	ok(pool_alloc(&p, 200) != NULL, "a released pool can be used again");
	pool_release(&p);

	/* A full pool cannot record a cleanup: nothing runs, the caller keeps arg. */
	cleaned = 0;
	pool_init(&p, 64);
	ok(pool_alloc(&p, 64) != NULL, "pool filled to its cap");
	ok(pool_defer(&p, count_cleanup, NULL) < 0 && cleaned == 0,
	    "pool_defer on a full pool fails without running the cleanup");
	pool_release(&p);
	ok(cleaned == 0, "a cleanup that was not recorded never runs at release");
	ok(pool_defer(&p, count_cleanup, NULL) == 0, "a released pool records cleanups again");
	pool_release(&p);
	ok(cleaned == 1, "the recorded cleanup ran once");

	{
		struct resp w;
		char longmsg[200];

		resp_init(&w);
		ok(resp_fail(&w, ERR_NOT_FOUND, NULL, NULL) == ERR_NOT_FOUND && w.status == 404,
		    "resp_fail answers the error's status");
		resp_release(&w);
		/* A body cap the fallback fits in, the full error does not. */
		resp_init(&w);
		buf_release(&w.body);
		buf_init(&w.body, 80);
		memset(longmsg, 'x', sizeof(longmsg) - 1);
		longmsg[sizeof(longmsg) - 1] = '\0';
		ok(resp_fail(&w, ERR_NOT_FOUND, NULL, "%s", longmsg) == ERR_NOT_FOUND,
		    "resp_fail returns its error when the body does not fit");
		ok(w.status == 500, "the 'response too large' fallback answers 500, not the error's status");
		ok(strstr(buf_str(&w.body), "response too large") != NULL, "the fallback body is written");
		resp_release(&w);
	}

	ok(db_err(DB_RETRY) == ERR_DATABASE_UNAVAILABLE, "a transaction aborted on every try is a 503");
	ok(db_err(DB_OK) == ERR_NONE && db_err(DB_UNAVAILABLE) == ERR_DATABASE_UNAVAILABLE &&
	    db_err(DB_ERROR) == ERR_INTERNAL && db_err(DB_DUPLICATE) == ERR_INTERNAL,
	    "db_err: an unreachable database is a 503, every other failure a 500");
	ok(err_info(ERR_NOT_FOUND)->status == 404 && strcmp(err_info(ERR_NOT_FOUND)->code, "not_found") == 0,
	    "404 row");
	ok(err_info(ERR__MAX)->status == 500, "out-of-range error maps to 500");
	{
		int missing = 0;

		for (int e = 1; e < ERR__MAX; e++)
			if (err_info((enum err)e)->code == NULL || err_info((enum err)e)->message == NULL ||
			    err_info((enum err)e)->status < 400)
				missing++;
		ok(missing == 0, "every error has a status >= 400, a code and a message");
	}
	is_str(time_rfc3339(0, t, sizeof(t)), "1970-01-01T00:00:00Z", "RFC 3339 epoch");
	is_str(time_rfc3339(1767225600, t, sizeof(t)), "2026-01-01T00:00:00Z", "RFC 3339 2026");
	return done_testing();
}
