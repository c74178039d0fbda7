/*
 * points.h: waymark's own points policy, labelled POINTS_POLICY
 * ("boon.points/v1") for wire compatibility. The deployed service's
 * formula is not public, so this is a deterministic policy of our own
 * (docs/PROTOCOL.md, Points). Points are public reputation computed from
 * indexed tips; they are non-transferable and redeem for nothing.
 *
 * Points are scaled integers: POINTS_SCALE (1000) units are one point,
 * and every answer carries the integer of units as a decimal string.
 * Every division rounds down. Nothing here reads a clock: the decay is
 * taken at an "as of" time the caller passes (the index clock, the
 * newest indexed tip), so the same events always give the same numbers.
 *
 * A tip (struct points_tip) is one indexed tip: its id, block time,
 * tipper, the recipient handle's hash, and the recipient's wallets: the
 * wallet the tip paid (push target, agent payout at tip time, claimer)
 * and the handle's current wallet (its linked wallet, or an agent's
 * payout wallet), either or both absent. points_judge decides, for each
 * tip, whether it earns, in this order (the first rule that applies
 * names the reason):
 *
 *   1. refunded   a refunded tip reached nobody: nothing.
 *   2. dust       a public tip under POINTS_MIN_USDC (0.01 USDC):
 *                 nothing. A private tip's amount is not known: it is
 *                 never dust (it burned the private-tip fee instead).
 *   3. self       the tipper is one of the recipient's wallets: nothing.
 *   4. circular   the tipper W and a wallet L of the recipient have
 *                 tipped each other: some tip from L has W among its
 *                 recipient's wallets. Every tip between them, either
 *                 way, earns nothing.
 *   5. pair_day   a pair is (tipper, recipient handle); of a pair's tips
 *                 that passed 1-4, in (time, tip id) order, only the
 *                 first of each UTC day (time / 86400) earns.
 *   6. earned     the tip's rank n is its place among its pair's earning
 *                 tips (1 for the first). The recipient handle gets
 *                 floor(POINTS_RECEIVED / n) units and the tipper
 *                 floor(POINTS_SENT / n): a new independent sender is
 *                 worth 10 points to the recipient, the same sender's
 *                 second earning tip 5, its third 3.333, ...
 *
 * Decay: a value v earned at time t is worth, at as_of (age d =
 * max(0, as_of - t), H = POINTS_HALF_LIFE, k = d / H, r = d % H):
 *   floor((v >> k) * (2H - r) / 2H)       (0 when k >= 63)
 * that is, halved every H seconds (90 days) and linear between.
 *
 * Totals: receivedPoints of a handle = the sum over tips to it;
 * sentPoints of a wallet = the sum over tips from it; decayedPoints the
 * same sums of decayed values. A handle's sentPoints are those of its
 * current wallet (none: 0, source "unlinked").
 *
 * Return conventions: points_judge returns 0, or -1 when memory ran out
 * (the tips are then unchanged apart from their order); the others cannot
 * fail. points_judge sorts the array it is given.
 */
#ifndef WAYMARK_POINTS_H
#define WAYMARK_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "brand.h"

#define POINTS_POLICY BRAND_LOWER ".points/v1"
#define POINTS_POLICY_OWNER "waymark"
#define POINTS_SCALE 1000u
#define POINTS_SCALE_TEXT "1000"
#define POINTS_RECEIVED 10000u          /* 10 points for a new sender's tip */
#define POINTS_SENT 2000u               /* 2 points to that sender */
#define POINTS_MIN_USDC 10000u          /* 0.01 USDC, atomic units */
#define POINTS_DAY 86400u               /* the pair cap's day (UTC) */
#define POINTS_PER_PAIR_DAY 1u          /* earning tips per pair and day */
#define POINTS_HALF_LIFE 7776000u       /* 90 days */

enum points_reason {
	POINTS_EARNED,
	POINTS_REFUNDED,
	POINTS_DUST,
	POINTS_SELF,
	POINTS_CIRCULAR,
	POINTS_PAIR_DAY,
	POINTS_REASON__MAX
};

#define POINTS_WALLETS 2

struct points_tip {
	uint64_t tip_id;
	uint64_t time;                       /* block time, Unix seconds */
	uint8_t tipper[20];
	uint8_t handle[32];                  /* the recipient handle's hash */
	uint8_t wallets[POINTS_WALLETS][20]; /* the recipient's wallets (see above) */
	unsigned nwallets;
	bool is_private;
	bool refunded;
	uint64_t usdc;                       /* public amount (saturated); unused when private */
	/* set by points_judge */
	enum points_reason reason;
	uint32_t rank;                       /* earned: 1, 2, ...; otherwise 0 */
};

struct points_total {
	uint64_t points;       /* units */
	uint64_t decayed;      /* units, at as_of */
	uint64_t last_at;      /* time of the newest earning tip; 0 when none */
	uint64_t earning;      /* earning tips */
	uint64_t distinct;     /* distinct tippers (received) or handles (sent) among them */
};

/* Snake-case name of a reason ("earned", "pair_day", ...; "?" out of range). */
const char *points_reason_name(enum points_reason r);

/* Add a wallet to t->wallets unless present or full. */
void points_tip_wallet(struct points_tip *t, const uint8_t w[20]);

/*
 * Judge tips[0..n): the tips of every pair that is to be totalled (all
 * tips to one handle, or all tips from one wallet), plus back[0..m): any
 * other tips the circular rule may need (tips sent by the recipients'
 * wallets, or tips to the tipper's wallet). back is only read.
 */
int points_judge(struct points_tip *tips, size_t n, const struct points_tip *back, size_t m);

/* floor(first / rank); 0 for rank 0. */
uint64_t points_weight(uint64_t first, uint32_t rank);

/* The decayed value of v after age seconds (formula above). */
uint64_t points_decay(uint64_t v, uint64_t age);

/*
 * Totals of judged tips with POINTS_RECEIVED (received) or POINTS_SENT
 * (sent) as the first tip's value, decayed at as_of. distinct counts
 * tippers for received (tips to one handle) and handles for sent (tips
 * from one wallet); the tips must be in the order points_judge left them.
 */
void points_received(const struct points_tip *tips, size_t n, uint64_t as_of, struct points_total *out);
void points_sent(const struct points_tip *tips, size_t n, uint64_t as_of, struct points_total *out);

#endif
