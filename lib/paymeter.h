/*
 * paymeter.h: failed payment attempts per client address and minute
 * (sql/023_payment_failures.sql; docs/ARCHITECTURE.md, Payment ledger).
 *
 * A payment that is malformed or wrongly signed, or that the
 * facilitator's /verify refuses, costs the service something (a parse, a
 * ledger row, a facilitator call) and buys nothing. fcgi/pay.c counts each
 * against the address that sent it, and past payment_failures_per_min in
 * the current minute refuses that address's paid requests with 429 until
 * the minute ends, before any ledger row or facilitator call. A payer
 * whose payments succeed is never counted. The counts live in MariaDB
 * (one row per address and minute, one upsert per failure), so the limit
 * holds across worker processes and hosts.
 *
 * Return conventions: paymeter_client is a parse (0, or -1: no address,
 * the meter does not apply); the rest return enum db_rc.
 */
#ifndef WAYMARK_PAYMETER_H
#define WAYMARK_PAYMETER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"

/* A client as counted: an IPv4 address's 4 bytes, or the /64 of an IPv6 address (8). */
struct paymeter_client {
	uint8_t b[16];
	size_t len;
};

/* The client of a REMOTE_ADDR value (IPv4 dotted quad, IPv6 text; IPv4-mapped IPv6 is IPv4). */
int paymeter_client(const char *remote_addr, struct paymeter_client *c);

/*
 * Whether c has used up limit failures in the minute of now (*over), and
 * the seconds until that minute ends (*retry_after, at least 1). limit 0:
 * never over, nothing read.
 */
enum db_rc paymeter_over(struct db *db, const struct paymeter_client *c, uint64_t limit, uint64_t now,
    bool *over, uint64_t *retry_after);

/* Count one failed attempt of c in the minute of now. */
enum db_rc paymeter_fail(struct db *db, const struct paymeter_client *c, uint64_t now);

/* Delete the counts of minutes that ended more than 10 minutes before now; *deleted of them. */
enum db_rc paymeter_prune(struct db *db, uint64_t now, uint64_t *deleted);

#endif
