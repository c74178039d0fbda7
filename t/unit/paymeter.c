/*
 * Failed payment attempts per client address (lib/paymeter.h): the client
 * of REMOTE_ADDR values (IPv4, an IPv6 /64, IPv4-mapped, junk), then the
 * counts against the test stack's MariaDB: under the limit, at it, another
 * address and another minute apart, and the prune of past minutes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "config.h"
#include "db.h"
#include "paymeter.h"
#include "tap.h"
#include "banned.h"

static void
clients(void)
{
	struct paymeter_client c, d;

	ok(paymeter_client("127.0.0.7", &c) == 0 && c.len == 4 && memcmp(c.b, "\x7f\x00\x00\x07", 4) == 0,
	    "IPv4: its four bytes");
	ok(paymeter_client("2001:db8:1:2:3:4:5:6", &c) == 0 && c.len == 8 &&
	    memcmp(c.b, "\x20\x01\x0d\xb8\x00\x01\x00\x02", 8) == 0, "IPv6: its /64");
	ok(paymeter_client("2001:db8:1:2:ffff::1", &d) == 0 && d.len == 8 && memcmp(c.b, d.b, 8) == 0,
	    "  another address of the same /64 is the same client");
	ok(paymeter_client("::ffff:10.1.2.3", &c) == 0 && c.len == 4 && memcmp(c.b, "\x0a\x01\x02\x03", 4) == 0,
	    "IPv4-mapped IPv6: the IPv4 address");
	ok(paymeter_client(NULL, &c) < 0, "no address: not metered");
	ok(paymeter_client("", &c) < 0 && paymeter_client("localhost", &c) < 0 &&
	    paymeter_client("1.2.3.4.5", &c) < 0 && paymeter_client("1.2.3.4 ", &c) < 0 &&
	    paymeter_client("::g", &c) < 0, "text that is no address: not metered");
}

static void
counts(struct db *db)
{
	struct paymeter_client c, other;
	uint64_t now = 1699999980 + 15, after = 0, deleted = 0;   /* 15 s into a minute of 2023 */
	bool over = true;

	/* A random address of the documentation range, so reruns never meet. */
	c.len = 8;
	if (getrandom(c.b, 8, 0) != 8)
		abort();
	c.b[0] = 0x20, c.b[1] = 0x01, c.b[2] = 0x0d, c.b[3] = 0xb8;
	other = c;
	other.b[7] ^= 1;
	ok(paymeter_over(db, &c, 3, now, &over, &after) == DB_OK && !over && after == 45,
	    "a new client: not over, the minute ends in 45 s");
	for (int i = 0; i < 2; i++)
		paymeter_fail(db, &c, now + (uint64_t)i);
	ok(paymeter_over(db, &c, 3, now + 2, &over, &after) == DB_OK && !over, "two failures: under a limit of 3");
	ok(paymeter_fail(db, &c, now + 3) == DB_OK && paymeter_over(db, &c, 3, now + 3, &over, &after) == DB_OK &&
	    over && after == 42, "the third: over, for the 42 s left in the minute");
	ok(paymeter_over(db, &c, 0, now + 3, &over, &after) == DB_OK && !over, "limit 0: never over");
	ok(paymeter_over(db, &other, 3, now + 3, &over, &after) == DB_OK && !over, "another client: not over");
	ok(paymeter_over(db, &c, 3, now + 60, &over, &after) == DB_OK && !over && after == 45,
	    "the next minute: not over");
	ok(paymeter_prune(db, now + 11 * 60, &deleted) == DB_OK, "eleven minutes on, the prune runs");
	ok(deleted >= 1 && paymeter_over(db, &c, 1, now, &over, &after) == DB_OK && !over,
	    "  and has deleted that minute's count (%llu rows)", (unsigned long long)deleted);
	db_fault_after(db, 1);
	ok(paymeter_over(db, &c, 3, now, &over, &after) != DB_OK, "a database failure is reported");
	db_fault_after(db, 0);
}

int
main(void)
{
	const char *var = getenv("WAYMARK_VAR");
	struct config cfg;
	struct db db;
	char path[1024], err[256];

	clients();
	if (!ok(var != NULL, "WAYMARK_VAR names the test stack (run through tools/run-tests)"))
		return done_testing();
	snprintf(path, sizeof(path), "%s/waymark.conf", var);
	if (!ok(config_load(&cfg, path, err, sizeof(err)) == 0, "the test stack's configuration loads"))
		return done_testing();
	db_init(&db, &cfg);
	if (!ok(db_connect(&db) == DB_OK, "the suite's MariaDB is reachable"))
		return done_testing();
	counts(&db);
	db_close(&db);
	return done_testing();
}
