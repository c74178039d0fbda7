/*
 * lease.h: one indexer at a time (docs/ARCHITECTURE.md, Indexer: the
 * lease). A row of indexer_lease per chain (sql/021_indexer_lease.sql)
 * names the process that may write chain facts and until when, by the
 * database's clock. The holder renews it every third of indexer_lease_ms;
 * a standby tries to take it over every fifth, which succeeds once it has
 * expired. Taking, renewing and releasing are each one conditional UPDATE
 * (the row decides; two takers on two Galera nodes both match it, and the
 * second to commit fails certification, which db_txn runs again against
 * the winner's row).
 *
 * Fencing: every transaction that stores events or moves a checkpoint
 * calls lease_fence last, just before its commit, which renews the row
 * with an UPDATE that must match it (this holder, unexpired). A holder
 * that was paused past its lease and resumes finds it gone there, its
 * transaction rolls back, and it stands by. The UPDATE keeps the row
 * locked until the commit that follows at once, so on one server a
 * standby's take waits for that commit; on Galera a take on another node
 * that commits first makes the holder's commit fail certification.
 *
 * Return conventions: enum db_rc; a lost lease inside lease_fence is
 * DB_ERROR with `lost` set.
 */
#ifndef WAYMARK_INDEXER_LEASE_H
#define WAYMARK_INDEXER_LEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "db.h"

#define LEASE_ID_MAX 128

struct lease {
	struct db *db;
	uint64_t chain_id;
	uint64_t ms;               /* indexer_lease_ms */
	char id[LEASE_ID_MAX];     /* this process's holder name */
	bool held;                 /* the last take, renewal or fence found it ours */
	bool lost;                 /* a fence found it gone: the caller stands by */
};

/*
 * Set up l for cfg's chain over db: the holder name is indexer_id, or
 * <hostname>:<pid>:<random> when that is empty. Nothing is sent.
 */
void lease_init(struct lease *l, struct db *db, const struct config *cfg);

/*
 * Take the lease when it is free (expired, released, or already ours):
 * *won tells. Inserts the row, expired, first when it is missing.
 */
enum db_rc lease_take(struct lease *l, bool *won);

/* Push the expiry on while it is still ours: *kept tells (false: it expired or was taken). */
enum db_rc lease_renew(struct lease *l, bool *kept);

/*
 * Inside a transaction that writes chain facts, after its writes, just
 * before the commit: renew the lease, or DB_ERROR with l->lost set and a reason in the db's err
 * when it is no longer this process's. DB_RETRY and DB_UNAVAILABLE pass
 * through as they come.
 */
enum db_rc lease_fence(struct lease *l);

/*
 * At the start of such a transaction: the same answer as lease_fence
 * from a plain read, which locks nothing, so a process that lost the
 * lease does no work it would roll back (holding row locks the holder's
 * transactions would wait for). Only lease_fence decides.
 */
enum db_rc lease_check(struct lease *l);

/* Give the lease up now (on a clean exit), when it is ours. */
enum db_rc lease_release(struct lease *l);

/*
 * Who holds it, for logs: holder[cap] ("" when free or absent) and the
 * milliseconds until it expires in *left.
 */
enum db_rc lease_holder(struct lease *l, char *holder, size_t cap, int64_t *left);

#endif
