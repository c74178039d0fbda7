/*
 * store.h: what the indexer writes to MariaDB. Every change to the rows
 * (a new range, or a rollback after a reorg) happens in one transaction
 * together with the checkpoint and the aggregates of the routes and
 * wallets it touched, so a crash leaves either all of it or none.
 */
#ifndef WAYMARK_INDEXER_STORE_H
#define WAYMARK_INDEXER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "lease.h"
#include "sql.h"
#include "routedboon.h"
#include "tipevent.h"

struct store {
	struct db *db;
	uint64_t chain_id;
	char contract_hex[41];      /* lowercase, no 0x: for X'..' literals */
	uint64_t start_block;
	struct lease *lease;        /* fences every write of chain facts; NULL: none */
};

struct checkpoint {
	int64_t number;             /* start_block - 1 before anything was indexed */
	bool has_hash;
	uint8_t hash[32];
};

struct block_ref {
	uint64_t number;
	uint8_t hash[32];
};

/*
 * Last before the commit of every transaction that writes chain facts
 * (both stores' range and rollback bodies): lease_fence of s->lease, so
 * nothing commits once the lease is lost (DB_ERROR, s->lease->lost set).
 */
enum db_rc store_fence(struct store *s);

/* First in the same transactions: lease_check of s->lease (no lock taken). */
enum db_rc store_lease_check(struct store *s);

/* Read the checkpoint, creating it at start_block - 1 when absent. */
enum db_rc store_checkpoint(struct store *s, struct checkpoint *cp);

/* Record the chain head seen and clear the last error. */
enum db_rc store_note_head(struct store *s, uint64_t head);

/* Record an error (one line) for /health. */
enum db_rc store_note_error(struct store *s, const char *msg);

/*
 * Store rows[0..n) of blocks up to `to` (whose hash is to_hash), the hashes
 * of the blocks seen (blocks[0..nb)), move the checkpoint to `to` and
 * recompute the aggregates of the routes and wallets involved. Rows already
 * present are left alone (idempotent on chain, tx hash, log index).
 * *stored gets the number of new rows.
 */
enum db_rc store_range(struct store *s, const struct routedboon *rows, size_t n,
    const struct block_ref *blocks, size_t nb, uint64_t to, const uint8_t to_hash[32],
    size_t *stored);

/*
 * Up to max recorded block hashes at or below `below`, newest first, into
 * out; *n gets the count.
 */
enum db_rc store_recent_blocks(struct store *s, int64_t below, struct block_ref *out, size_t max,
    size_t *n);

/*
 * Remove everything above block `fork` (rows, block hashes), move the
 * checkpoint to it and recompute the aggregates involved. *removed gets
 * the number of rows removed.
 */
enum db_rc store_rollback(struct store *s, int64_t fork, size_t *removed);

/*
 * The blocks seen (blocks[0..nb)) and `to` with its hash into
 * indexer_blocks, and the checkpoint moved to `to`, over q (reset first).
 * Used inside the range transactions of both stores.
 */
enum db_rc store_advance(struct store *s, struct sql *q, const struct block_ref *blocks, size_t nb,
    uint64_t to, const uint8_t to_hash[32]);

/*
 * A tips range that arrives in pieces, in block order (indexer/main.c
 * fetches the next piece while this one is stored). piece(f, i, &ev, &n)
 * waits for piece i and answers 0 with its events; 1 when there is no
 * piece i, all having arrived, and the fields below then describe the
 * whole range's blocks; -1 when fetching failed (the range is abandoned).
 * Pieces stay until the range is done, so a transaction run again reads
 * them again.
 */
struct tipfeed {
	int (*piece)(struct tipfeed *f, size_t i, const struct tipevent **ev, size_t *n);
	const struct block_ref *blocks;     /* the blocks seen */
	size_t nb;
	uint64_t to;                        /* the range's last block, and its hash */
	const uint8_t *to_hash;
};

/*
 * Tips, attestation and registry sources (indexer/tipstore.c): the same
 * contract as store_range and store_rollback, over tip_events and the
 * tables computed from it (sql/012_tips.sql). Rows already present are
 * left alone; the private-tip amounts are never written.
 */
enum db_rc tipstore_range(struct store *s, struct tipfeed *f, size_t *stored);
enum db_rc tipstore_rollback(struct store *s, int64_t fork, size_t *removed);

#endif
