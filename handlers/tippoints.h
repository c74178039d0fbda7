/*
 * tippoints.h: points of a handle or a wallet from the tip index
 * (docs/ARCHITECTURE.md, Handle reads and the board): the rows lib/points
 * judges are read from `tips`, with each tip's recipient wallets (the
 * wallet it paid and its handle's current wallet), and the totals are
 * taken at the index clock (the newest indexed tip's block time).
 *
 * Return conventions: enum db_rc (DB_OK is 0); DB_ERROR also when memory
 * ran out or a side has more than TIPPOINTS_MAX_TIPS tips. Nothing is
 * left for the caller to free.
 */
#ifndef WAYMARK_TIPPOINTS_H
#define WAYMARK_TIPPOINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "points.h"

#define TIPPOINTS_MAX_TIPS 500000

struct tippoints {
	bool linked;                  /* the handle has a current wallet */
	uint8_t wallet[20];           /* linked wallet, or an agent's payout wallet */
	uint64_t as_of;               /* the index clock; 0 with no tips at all */
	struct points_total received; /* tips to the handle */
	struct points_total sent;     /* tips from the wallet; zero when not linked */
};

/*
 * The current wallet of a canonical handle (text, as lib/handle makes it;
 * hash its handleHash): the latest Linked/Relinked wallet for github: and
 * x:, the registry's payout wallet for agent:. *found false when none.
 */
enum db_rc tippoints_wallet_of(struct db *d, uint64_t chain, const char *handle,
    const uint8_t hash[32], uint8_t wallet[20], bool *found);

/* The index clock: the newest block time in `tips` (0 when empty). */
enum db_rc tippoints_clock(struct db *d, uint64_t chain, uint64_t *as_of);

/* Both projections of a handle at the index clock. */
enum db_rc tippoints_handle(struct db *d, uint64_t chain, const char *handle, const uint8_t hash[32],
    struct tippoints *out);

/* The sent projection of one wallet at as_of. */
enum db_rc tippoints_wallet(struct db *d, uint64_t chain, const uint8_t wallet[20], uint64_t as_of,
    struct points_total *out);

#endif
