/*
 * score.h: waymark's own recognition-score policy, labelled
 * SCORE_POLICY ("boon.recognition-score/v2") for wire compatibility. The
 * deployed service's formula is not public (docs/ARCHITECTURE.md, Decisions
 * where the spec is silent), so this
 * is a deterministic, conservative policy of our own, and every answer
 * says so. It suggests the size of an optional recognition; it is not a
 * quality score and pays nothing.
 *
 * All amounts are USDC atomic units (6 decimals) in 64-bit integers;
 * every division rounds down. The formula (SCORE_FORMULA), in order:
 *
 *   1. base     = floor(cost / 10) when the service cost is known (10% of
 *                 it): from the request's serviceCostUsdc, else from the
 *                 note (score_note_cost); else SCORE_DEFAULT_BASE (0.02).
 *   2. markers  + SCORE_PR (0.02) per pr:owner/repo#N, + SCORE_REVIEW
 *                 (0.01) per review:owner/repo#N, + SCORE_X (0.005) per
 *                 x:<postId> found in the note; each distinct marker once,
 *                 the first SCORE_MARKERS_MAX (3) in note order.
 *   3. history  + SCORE_PER_RECOGNIZER (0.002) per distinct wallet that
 *                 sent the recipient an indexed routed recognition (a
 *                 handle: an indexed tip), at most SCORE_RECOGNIZERS_MAX
 *                 (5) counted; counts only, never amounts. Absent when
 *                 the recipient's history is not indexed.
 *   3b. points  + SCORE_PER_POINT (0.001) per whole point a handle
 *                 received under the points policy (lib/points.h,
 *                 undecayed), at most SCORE_POINTS_MAX (0.02); handles
 *                 only, once the tips are indexed.
 *   4. costCap  amount = min(amount, floor(cost / 2)) when the cost is
 *                 known: never more than half of what the service cost.
 *   5. cap      amount = min(amount, SCORE_CAP) (0.50).
 *   6. floor    amount = max(amount, SCORE_FLOOR) (0.01); the floor wins
 *                 over the cost cap.
 *   7. rounding amount = amount rounded down to SCORE_STEP (0.001).
 *
 * Each step that is used (1, 2, 3, 3b) or that changes the amount (4 to 7)
 * is one component {name, input, effect, delta}; the deltas add up to
 * the suggested amount.
 *
 * Note grammar: tokens are separated by ASCII whitespace; one trailing
 * character of ".,;:!?)" and one leading "(" are ignored around a token.
 *   - cost: a token "$<amount>" or "<amount>" followed by the token "USDC"
 *     (any case); <amount> is a plain decimal with at most 6 fractional
 *     digits and at most 12 integer digits. Several amounts: the smallest
 *     (the conservative reading).
 *   - markers: "pr:" or "review:" + owner "/" repo "#" N, owner
 *     [A-Za-z0-9-]{1,39}, repo [A-Za-z0-9._-]{1,100}, N [1-9][0-9]{0,9};
 *     "x:" + [0-9]{1,19} (a post ID; "x:name" is a handle, not a marker).
 *     Compared case-insensitively for distinctness.
 *
 * Return conventions: score_usdc_parse and score_note_cost return 0 when
 * they produced a value and -1 otherwise; score_note_markers returns the
 * number of markers written; score_compute cannot fail. Nothing
 * allocates.
 */
#ifndef WAYMARK_SCORE_H
#define WAYMARK_SCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "brand.h"

#define SCORE_POLICY BRAND_LOWER ".recognition-score/v2"
#define SCORE_FORMULA "waymark.recognition-score-formula/1"
#define SCORE_POLICY_OWNER "waymark"

#define SCORE_DEFAULT_BASE 20000u      /* 0.02 USDC */
#define SCORE_COST_PERCENT 10u         /* base = cost * 10 / 100 */
#define SCORE_PR 20000u                /* 0.02 */
#define SCORE_REVIEW 10000u            /* 0.01 */
#define SCORE_X 5000u                  /* 0.005 */
#define SCORE_MARKERS_MAX 3u
#define SCORE_PER_RECOGNIZER 2000u     /* 0.002 */
#define SCORE_RECOGNIZERS_MAX 5u
#define SCORE_PER_POINT 1000u          /* 0.001 per whole received point */
#define SCORE_POINTS_MAX 20000u        /* 0.02 */
#define SCORE_POINT_UNITS 1000u        /* units of one point (lib/points.h POINTS_SCALE) */
#define SCORE_COST_CAP_PERCENT 50u     /* at most half the cost */
#define SCORE_CAP 500000u              /* 0.50 */
#define SCORE_FLOOR 10000u             /* 0.01 */
#define SCORE_STEP 1000u               /* 0.001 */

#define SCORE_USDC_INT_MAX 12          /* integer digits of a cost */
#define SCORE_MARKER_TEXT 160          /* longest marker text, with the NUL */
#define SCORE_INPUT_TEXT 192
#define SCORE_COMPONENTS_MAX 12
#define SCORE_USDC_TEXT 32             /* "-999999999999.999999" and a NUL fit */

enum score_marker_kind {
	SCORE_MARKER_PR,
	SCORE_MARKER_REVIEW,
	SCORE_MARKER_X,
	SCORE_MARKER__MAX
};

struct score_marker {
	enum score_marker_kind kind;
	char text[SCORE_MARKER_TEXT];   /* as written in the note */
};

enum score_cost_source {
	SCORE_COST_NONE,
	SCORE_COST_FIELD,    /* serviceCostUsdc */
	SCORE_COST_NOTE,     /* parsed from the note */
	SCORE_COST__MAX
};

struct score_input {
	enum score_cost_source cost_source;
	uint64_t cost;                       /* atomic; unused for SCORE_COST_NONE */
	struct score_marker markers[SCORE_MARKERS_MAX];
	size_t nmarkers;
	bool has_history;                    /* the recipient's recognitions are indexed */
	uint64_t recognitions, recognizers;  /* indexed routed recognitions; distinct senders */
	bool has_points;                     /* a handle whose received points are known */
	uint64_t points;                     /* received points, in units (1000 a point) */
};

struct score_component {
	const char *name;    /* serviceCost, defaultBase, artifactMarker, recognitionHistory,
	                      * receivedPoints, costCap, cap, floor, rounding */
	const char *effect;  /* base, add, cap, floor, round_down */
	char input[SCORE_INPUT_TEXT]; /* what the step read ("" when nothing) */
	int64_t delta;       /* atomic change of the running amount */
};

struct score_result {
	uint64_t amount;     /* the suggestion, atomic */
	struct score_component components[SCORE_COMPONENTS_MAX];
	size_t ncomponents;
};

/*
 * A USDC amount s[0..len): a plain decimal with at most 6 fractional and
 * SCORE_USDC_INT_MAX integer digits, into *atomic. 0 or -1.
 */
int score_usdc_parse(const char *s, size_t len, uint64_t *atomic);

/* The service cost named in a note (grammar above) into *atomic; 0, or -1 when none. */
int score_note_cost(const char *note, size_t len, uint64_t *atomic);

/* Up to max distinct markers of the note, in order, into out; their number. */
size_t score_note_markers(const char *note, size_t len, struct score_marker *out, size_t max);

/* The formula above over *in into *out. */
void score_compute(const struct score_input *in, struct score_result *out);

/* Signed atomic USDC as a decimal ("0.154", "-0.000456", "0") into out[cap]; returns out. */
char *score_usdc_format(int64_t atomic, char *out, size_t cap);

#endif
