/*
 * points.c: the boon.points/v1 policy (points.h; docs/PROTOCOL.md,
 * Points). Pure: no I/O, no clock.
 */
#include <stdlib.h>
#include <string.h>

#include "points.h"
#include "banned.h"

static const char *const reason_names[POINTS_REASON__MAX] = {
	[POINTS_EARNED] = "earned",
	[POINTS_REFUNDED] = "refunded",
	[POINTS_DUST] = "dust",
	[POINTS_SELF] = "self",
	[POINTS_CIRCULAR] = "circular",
	[POINTS_PAIR_DAY] = "pair_day",
};

const char *
points_reason_name(enum points_reason r)
{
	return (unsigned)r < POINTS_REASON__MAX ? reason_names[r] : "?";
}

void
points_tip_wallet(struct points_tip *t, const uint8_t w[20])
{
	for (unsigned i = 0; i < t->nwallets; i++)
		if (memcmp(t->wallets[i], w, 20) == 0)
			return;
	if (t->nwallets < POINTS_WALLETS)
		memcpy(t->wallets[t->nwallets++], w, 20);
}

static bool
has_wallet(const struct points_tip *t, const uint8_t w[20])
{
	for (unsigned i = 0; i < t->nwallets; i++)
		if (memcmp(t->wallets[i], w, 20) == 0)
			return true;
	return false;
}

/* A directed edge: a tip from `from` reached a recipient whose wallet is `to`. */
struct edge {
	uint8_t from[20];
	uint8_t to[20];
};

static int
edge_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct edge));
}

static size_t
add_edges(struct edge *e, size_t k, const struct points_tip *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned j = 0; j < t[i].nwallets && j < POINTS_WALLETS; j++) {
			memcpy(e[k].from, t[i].tipper, 20);
			memcpy(e[k].to, t[i].wallets[j], 20);
			k++;
		}
	return k;
}

/* Pair order: tipper, handle, then time and tip id. */
static int
pair_cmp(const void *pa, const void *pb)
{
	const struct points_tip *a = pa, *b = pb;
	int c;

	if ((c = memcmp(a->tipper, b->tipper, 20)) != 0)
		return c;
	if ((c = memcmp(a->handle, b->handle, 32)) != 0)
		return c;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (a->tip_id != b->tip_id)
		return a->tip_id < b->tip_id ? -1 : 1;
	return 0;
}

static bool
same_pair(const struct points_tip *a, const struct points_tip *b)
{
	return memcmp(a->tipper, b->tipper, 20) == 0 && memcmp(a->handle, b->handle, 32) == 0;
}

int
points_judge(struct points_tip *tips, size_t n, const struct points_tip *back, size_t m)
{
	struct edge *e;
	size_t ne, i;

	if (n == 0)
		return 0;
	if (n + m > SIZE_MAX / (POINTS_WALLETS * sizeof(*e)))
		return -1;
	e = malloc((n + m) * POINTS_WALLETS * sizeof(*e));
	if (e == NULL)
		return -1;
	ne = add_edges(e, 0, tips, n);
	ne = add_edges(e, ne, back, m);
	qsort(e, ne, sizeof(*e), edge_cmp);

	/* Rules 1 to 4: each tip by itself and the edges. */
	for (i = 0; i < n; i++) {
		struct points_tip *t = &tips[i];

		t->rank = 0;
		if (t->refunded) {
			t->reason = POINTS_REFUNDED;
			continue;
		}
		if (!t->is_private && t->usdc < POINTS_MIN_USDC) {
			t->reason = POINTS_DUST;
			continue;
		}
		if (has_wallet(t, t->tipper)) {
			t->reason = POINTS_SELF;
			continue;
		}
		t->reason = POINTS_EARNED;
		for (unsigned j = 0; j < t->nwallets; j++) {
			struct edge k;

			memcpy(k.from, t->wallets[j], 20);
			memcpy(k.to, t->tipper, 20);
			if (bsearch(&k, e, ne, sizeof(*e), edge_cmp) != NULL) {
				t->reason = POINTS_CIRCULAR;
				break;
			}
		}
	}
	free(e);

	/* Rules 5 and 6: per pair, in time order. */
	qsort(tips, n, sizeof(*tips), pair_cmp);
	for (i = 0; i < n; ) {
		size_t j = i;
		uint32_t rank = 0;
		uint64_t day = 0;
		unsigned today = 0;

		for (; j < n && same_pair(&tips[i], &tips[j]); j++) {
			struct points_tip *t = &tips[j];

			if (t->reason != POINTS_EARNED)
				continue;
			if (rank > 0 && t->time / POINTS_DAY == day && today >= POINTS_PER_PAIR_DAY) {
				t->reason = POINTS_PAIR_DAY;
				continue;
			}
			if (rank == 0 || t->time / POINTS_DAY != day) {
				day = t->time / POINTS_DAY;
				today = 0;
			}
			today++;
			t->rank = ++rank;
		}
		i = j;
	}
	return 0;
}

uint64_t
points_weight(uint64_t first, uint32_t rank)
{
	return rank == 0 ? 0 : first / rank;
}

uint64_t
points_decay(uint64_t v, uint64_t age)
{
	uint64_t k = age / POINTS_HALF_LIFE, r = age % POINTS_HALF_LIFE;
	const uint64_t two_h = 2ull * POINTS_HALF_LIFE;

	if (k >= 63)
		return 0;
	v >>= k;
	/* v < 2^64 / 2H would be enough; split to stay exact for any v. */
	return (v / two_h) * (two_h - r) + (v % two_h) * (two_h - r) / two_h;
}

static void
total(const struct points_tip *tips, size_t n, uint64_t as_of, uint64_t first, bool by_tipper,
    struct points_total *out)
{
	const struct points_tip *prev = NULL;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct points_tip *t = &tips[i];
		uint64_t w;

		if (t->reason != POINTS_EARNED || t->rank == 0)
			continue;
		w = points_weight(first, t->rank);
		out->points += w;
		out->decayed += points_decay(w, as_of > t->time ? as_of - t->time : 0);
		out->earning++;
		if (t->time > out->last_at)
			out->last_at = t->time;
		/* points_judge left the tips in pair order: a new key starts a run. */
		if (prev == NULL || (by_tipper ? memcmp(prev->tipper, t->tipper, 20) != 0
		    : memcmp(prev->handle, t->handle, 32) != 0))
			out->distinct++;
		prev = t;
	}
}

void
points_received(const struct points_tip *tips, size_t n, uint64_t as_of, struct points_total *out)
{
	total(tips, n, as_of, POINTS_RECEIVED, true, out);
}

void
points_sent(const struct points_tip *tips, size_t n, uint64_t as_of, struct points_total *out)
{
	total(tips, n, as_of, POINTS_SENT, false, out);
}
