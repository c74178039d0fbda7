/*
 * paymeter.c: failed payment attempts per client address (paymeter.h).
 */
#include <arpa/inet.h>
#include <string.h>

#include "paymeter.h"
#include "sql.h"
#include "banned.h"

int
paymeter_client(const char *remote_addr, struct paymeter_client *c)
{
	uint8_t v6[16];
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	memset(c, 0, sizeof(*c));
	if (remote_addr == NULL)
		return -1;
	if (inet_pton(AF_INET, remote_addr, c->b) == 1) {
		c->len = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, remote_addr, v6) != 1)
		return -1;
	if (memcmp(v6, mapped, sizeof(mapped)) == 0) {
		memcpy(c->b, v6 + 12, 4);
		c->len = 4;
	} else {
		/* One /64 is what one IPv6 client is usually given. */
		memcpy(c->b, v6, 8);
		c->len = 8;
	}
	return 0;
}

enum db_rc
paymeter_over(struct db *db, const struct paymeter_client *c, uint64_t limit, uint64_t now, bool *over,
    uint64_t *retry_after)
{
	char b[256];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found = false;
	enum db_rc rc;

	*over = false;
	*retry_after = 60 - now % 60;
	if (limit == 0)
		return DB_OK;
	sql_add(&q, "SELECT failures FROM payment_failures WHERE client = ? AND minute = ?",
	    SQL_BYTES(c->b, c->len), SQL_U64(now / 60));
	if ((rc = db_query_u64(db, &q, &n, &found)) != DB_OK)
		return rc;
	*over = n >= limit;
	return DB_OK;
}

enum db_rc
paymeter_fail(struct db *db, const struct paymeter_client *c, uint64_t now)
{
	char b[256];
	struct sql q = SQL_ON(b);

	/* One statement on the row's key: concurrent failures add up, on any node. */
	sql_add(&q, "INSERT INTO payment_failures (client, minute, failures) VALUES (?, ?, 1) "
	    "ON DUPLICATE KEY UPDATE failures = failures + 1", SQL_BYTES(c->b, c->len), SQL_U64(now / 60));
	return db_exec(db, &q);
}

enum db_rc
paymeter_prune(struct db *db, uint64_t now, uint64_t *deleted)
{
	char b[128];
	struct sql q = SQL_ON(b);

	sql_add(&q, "DELETE FROM payment_failures WHERE minute < ?", SQL_U64(now / 60 > 10 ? now / 60 - 10 : 0));
	return db_exec_affected(db, &q, deleted);
}
