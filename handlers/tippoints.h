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

/*
 * One tip whose own points are wanted: the caller sets tip_id, tipper and
 * handle (its handleHash); tippoints_tips sets the rest.
 */
struct tippoints_tip {
	uint64_t tip_id;
	uint8_t tipper[20];
	uint8_t handle[32];
	bool found;                  /* the tip was read from the index */
	enum points_reason reason;   /* as points_judge judged it */
	uint32_t rank;               /* earned: its rank in its pair; otherwise 0 */
};

/*
 * Judge each of want[0..n) (distinct tip ids) with every tip of its pair
 * (tipper, handle) and the circular rule's back tips: exactly the
 * judgement the handle's received and the tipper's sent totals make of
 * it, so points_weight(POINTS_RECEIVED, rank) and points_weight(
 * POINTS_SENT, rank) are what the tip adds to them. Leaves want sorted by
 * tip id (see tippoints_tip_find); a tip not found earns nothing.
 */
enum db_rc tippoints_tips(struct db *d, uint64_t chain, struct tippoints_tip *want, size_t n);

/* The entry of tip_id in want[0..n) as tippoints_tips left it, or NULL. */
const struct tippoints_tip *tippoints_tip_find(const struct tippoints_tip *want, size_t n,
    uint64_t tip_id);

#endif
