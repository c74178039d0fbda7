/* The points policy (lib/points.h): each rule, ranks, decay, totals, order independence. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "points.h"
#include "tap.h"
#include "banned.h"

#define H POINTS_HALF_LIFE
#define D POINTS_DAY

/*
 * A vector tip: wallets and handles are small numbers (wallet n is 20
 * bytes of n, handle n 32 bytes of n); w1, w2 are the recipient's wallets
 * (0: none). want is the reason, rank the expected rank.
 */
struct vtip {
	uint64_t id, time;
	int tipper, handle, w1, w2;
	bool priv, refunded;
	uint64_t usdc;
	enum points_reason want;
	uint32_t rank;
};

static void
fill(struct points_tip *t, const struct vtip *v)
{
	uint8_t w[20];

	memset(t, 0, sizeof(*t));
	t->tip_id = v->id;
	t->time = v->time;
	memset(t->tipper, v->tipper, 20);
	memset(t->handle, v->handle, 32);
	if (v->w1) {
		memset(w, v->w1, 20);
		points_tip_wallet(t, w);
	}
	if (v->w2) {
		memset(w, v->w2, 20);
		points_tip_wallet(t, w);
	}
	t->is_private = v->priv;
	t->refunded = v->refunded;
	t->usdc = v->usdc;
}

static const struct points_tip *
find(const struct points_tip *t, size_t n, uint64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].tip_id == id)
			return &t[i];
	return NULL;
}

#define U 250000  /* a public amount above the floor */

/* One handle (1, unlinked) tipped by wallets 10 and 11: repeats, the day cap, ties. */
static const struct vtip repeats[] = {
	{1, 1000, 10, 1, 0, 0, false, false, U, POINTS_EARNED, 1},
	{2, 1000 + 3600, 10, 1, 0, 0, false, false, U, POINTS_PAIR_DAY, 0},
	{3, D + 5, 10, 1, 0, 0, false, false, U, POINTS_EARNED, 2},
	{4, 2 * D + 7, 10, 1, 0, 0, true, false, 0, POINTS_EARNED, 3},
	{5, 2 * D + 8, 10, 1, 0, 0, false, false, U, POINTS_PAIR_DAY, 0},
	{7, 1000, 11, 1, 0, 0, false, false, U, POINTS_PAIR_DAY, 0}, /* same time as id 6: id order */
	{6, 1000, 11, 1, 0, 0, false, false, U, POINTS_EARNED, 1},
	{8, D - 1, 12, 1, 0, 0, false, false, U, POINTS_EARNED, 1},  /* last second of day 0 */
	{9, D, 12, 1, 0, 0, false, false, U, POINTS_EARNED, 2},      /* first of day 1 */
};

/* Exclusions: refunds, dust, self (linked wallet, claimer), circular pairs. */
static const struct vtip rules[] = {
	{20, 100, 10, 2, 0, 0, false, true, U, POINTS_REFUNDED, 0},
	{21, 100, 11, 2, 0, 0, false, false, POINTS_MIN_USDC - 1, POINTS_DUST, 0},
	{22, 100, 12, 2, 0, 0, false, false, POINTS_MIN_USDC, POINTS_EARNED, 1},
	{23, 100, 13, 2, 0, 0, true, false, 0, POINTS_EARNED, 1},        /* private: never dust */
	{24, 100, 14, 3, 14, 0, false, false, U, POINTS_SELF, 0},        /* handle 3 linked to 14 */
	{25, 100, 15, 4, 15, 16, false, false, U, POINTS_SELF, 0},       /* claimed by the tipper */
	/* 30 tips handle 5 (linked to 31); 31 tips handle 6 (linked to 30): a circle. */
	{26, 100, 30, 5, 31, 0, false, false, U, POINTS_CIRCULAR, 0},
	{27, 200, 31, 6, 30, 0, false, false, U, POINTS_CIRCULAR, 0},
	{28, 300, 30, 5, 31, 0, true, false, 0, POINTS_CIRCULAR, 0},     /* every tip between them */
	{29, 300, 32, 5, 31, 0, false, false, U, POINTS_EARNED, 1},      /* a third wallet still earns */
	/* circle through the wallet a tip paid, not the current link: 33 -> h7 paid 34; 34 -> h8 linked 33 */
	{40, 100, 33, 7, 34, 35, false, false, U, POINTS_CIRCULAR, 0},
	{41, 100, 34, 8, 33, 0, false, false, U, POINTS_CIRCULAR, 0},
	/* one way only: no circle */
	{42, 100, 36, 9, 37, 0, false, false, U, POINTS_EARNED, 1},
	{43, 100, 37, 10, 38, 0, false, false, U, POINTS_EARNED, 1},
};

static void
run(const char *name, const struct vtip *v, size_t n)
{
	struct points_tip t[32];
	bool good = true;

	for (size_t i = 0; i < n; i++)
		fill(&t[i], &v[i]);
	ok(points_judge(t, n, NULL, 0) == 0, "%s: judged", name);
	for (size_t i = 0; i < n; i++) {
		const struct points_tip *p = find(t, n, v[i].id);

		if (p == NULL || p->reason != v[i].want || p->rank != v[i].rank) {
			good = false;
			printf("#   tip %" PRIu64 ": got %s rank %u, want %s rank %u\n", v[i].id,
			    p ? points_reason_name(p->reason) : "missing", p ? p->rank : 0,
			    points_reason_name(v[i].want), v[i].rank);
		}
	}
	ok(good, "%s: every tip's reason and rank", name);
}

static void
test_back(void)
{
	/* The tips of handle 5 alone do not show the circle; back tips do. */
	const struct vtip in[] = {
		{26, 100, 30, 5, 31, 0, false, false, U, POINTS_CIRCULAR, 0},
		{29, 300, 32, 5, 31, 0, false, false, U, POINTS_EARNED, 1},
	};
	const struct vtip bk[] = {
		{27, 200, 31, 6, 30, 0, false, false, U, POINTS_CIRCULAR, 0},
	};
	struct points_tip t[2], b[1];
	struct points_total r;

	fill(&t[0], &in[0]);
	fill(&t[1], &in[1]);
	points_judge(t, 2, NULL, 0);
	ok(find(t, 2, 26)->reason == POINTS_EARNED, "without the back tip, 30's tip to handle 5 earns");
	fill(&t[0], &in[0]);
	fill(&t[1], &in[1]);
	fill(&b[0], &bk[0]);
	points_judge(t, 2, b, 1);
	ok(find(t, 2, 26)->reason == POINTS_CIRCULAR && find(t, 2, 29)->reason == POINTS_EARNED,
	    "with 31's tip to a handle of 30 given as back, it is circular; 32's still earns");
	points_received(t, 2, 300, &r);
	ok(r.points == POINTS_RECEIVED && r.distinct == 1 && r.earning == 1 && r.last_at == 300,
	    "received: one earning tip, 10 points");
}

static void
test_totals(void)
{
	struct points_tip t[16], u[16];
	struct points_total r, s, r2;
	size_t n = sizeof(repeats) / sizeof(repeats[0]);
	uint64_t as_of = 2 * D + 8, want, wantd;

	for (size_t i = 0; i < n; i++)
		fill(&t[i], &repeats[i]);
	points_judge(t, n, NULL, 0);
	points_received(t, n, as_of, &r);
	/* 10: ranks 1, 2, 3; 11: rank 1; 12: ranks 1, 2 */
	want = 10000 + 5000 + 3333 + 10000 + 10000 + 5000;
	ok(r.points == want, "received points: 10000 + 5000 + 3333 (one sender, three days) + 10000 + "
	    "10000 + 5000 = %" PRIu64 " (got %" PRIu64 ")", want, r.points);
	ok(r.distinct == 3 && r.earning == 6 && r.last_at == 2 * D + 7,
	    "three independent senders, six earning tips, the last at day 2");
	wantd = points_decay(10000, as_of - 1000) + points_decay(5000, as_of - D - 5) +
	    points_decay(3333, as_of - 2 * D - 7) + points_decay(10000, as_of - 1000) +
	    points_decay(10000, as_of - D + 1) + points_decay(5000, as_of - D);
	ok(r.decayed == wantd && r.decayed < r.points, "decayed points: each tip decayed by its own age "
	    "(%" PRIu64 ")", r.decayed);

	/* Sent projection of wallet 10: its own tips only. */
	{
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (repeats[i].tipper == 10)
				fill(&u[k++], &repeats[i]);
		points_judge(u, k, NULL, 0);
		points_sent(u, k, as_of, &s);
		ok(s.points == 2000 + 1000 + 666 && s.distinct == 1 && s.earning == 3,
		    "wallet 10 sent points: 2000 + 1000 + 666, one handle");
	}

	/* Input order does not matter. */
	for (size_t i = 0; i < n; i++)
		fill(&u[i], &repeats[n - 1 - i]);
	points_judge(u, n, NULL, 0);
	points_received(u, n, as_of, &r2);
	ok(r2.points == r.points && r2.decayed == r.decayed && r2.distinct == r.distinct,
	    "reversed input: the same totals");

	/* A clock before the tips: no decay. */
	points_received(t, n, 0, &r2);
	ok(r2.decayed == r2.points, "as_of before every tip: decayed = points");
}

static void
test_decay(void)
{
	static const struct {
		uint64_t v, age, want;
	} d[] = {
		{10000, 0, 10000},
		{10000, 1, 9999},                 /* 10000 * (2H - 1) / 2H, rounded down */
		{10000, H / 2, 7500},
		{10000, H - 1, 5000},
		{10000, H, 5000},
		{10000, H + H / 2, 3750},
		{10000, 2 * H, 2500},
		{10000, 13 * H, 1},               /* 10000 >> 13 = 1 */
		{10000, 14 * H, 0},
		{10000, 63 * H, 0},
		{10000, UINT64_MAX, 0},
		{3333, H / 3, 2777},              /* 3333 * (2H - H/3) / 2H = 2777.5 */
		{UINT64_MAX, 0, UINT64_MAX},      /* exact for any value */
		{UINT64_MAX, H, UINT64_MAX >> 1},
		{0, 5, 0},
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		ok(points_decay(d[i].v, d[i].age) == d[i].want, "decay(%" PRIu64 ", %" PRIu64 ") = %" PRIu64
		    " (got %" PRIu64 ")", d[i].v, d[i].age, d[i].want, points_decay(d[i].v, d[i].age));
	ok(points_weight(10000, 0) == 0 && points_weight(10000, 3) == 3333 && points_weight(2000, 7) == 285,
	    "weights: floor(first / rank)");
}

int
main(void)
{
	is_str(POINTS_POLICY, "boon.points/v1", "the policy label");
	ok(POINTS_SCALE == 1000 && strcmp(POINTS_SCALE_TEXT, "1000") == 0, "point scale 1000");
	ok(points_judge(NULL, 0, NULL, 0) == 0, "nothing to judge");
	run("repeats and the pair-day cap", repeats, sizeof(repeats) / sizeof(repeats[0]));
	run("exclusions", rules, sizeof(rules) / sizeof(rules[0]));
	test_back();
	test_totals();
	test_decay();
	{
		struct points_tip t;
		uint8_t w[20];

		memset(&t, 0, sizeof(t));
		for (int i = 1; i <= 3; i++) {
			memset(w, i, 20);
			points_tip_wallet(&t, w);
		}
		memset(w, 1, 20);
		points_tip_wallet(&t, w);
		ok(t.nwallets == 2 && t.wallets[1][0] == 2, "a tip keeps two distinct wallets at most");
	}
	is_str(points_reason_name(POINTS_PAIR_DAY), "pair_day", "reason names");
	is_str(points_reason_name(POINTS_REASON__MAX), "?", "out of range");
	done_testing();
	return tap_failed != 0;
}
