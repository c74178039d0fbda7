/*
 * baseline.h: checking a saved discovery snapshot (docs/PROTOCOL.md,
 * Discovery snapshot) that a caller sends back as the baseline of a changes report
 * (docs/PROTOCOL.md, Reports), in baseline.c.
 *
 * Besides the spec's bounds this service bounds, and documents, what the
 * spec leaves open: at most BASELINE_LIST_MAX entries in each matchReasons
 * and each limitations array, date-times of at most BASELINE_DATETIME_MAX
 * characters, price amounts of at most BASELINE_AMOUNT_MAX characters;
 * routeIds unique among the candidates and at most query.limit candidates;
 * invocation.client must be this service's payer client, and a review's
 * sourceUrl must be on this service's public base URL and cite the
 * candidate's own route (or a public profile activity).
 *
 * BASELINE_BYTES is the largest such snapshot written without escapes,
 * every character of a bounded string counted at its UTF-8 maximum of 4
 * bytes (URLs, IDs and links are ASCII), plus a fixed allowance per object
 * for names and punctuation. A body that inflates text with \u escapes
 * beyond that is refused with 413.
 */
#ifndef WAYMARK_BASELINE_H
#define WAYMARK_BASELINE_H

#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "http.h"

#define BASELINE_LIST_MAX 10
#define BASELINE_DATETIME_MAX 64
#define BASELINE_AMOUNT_MAX 96

/* Bytes of one array element or member value of n characters (quotes, comma). */
#define BASELINE_STR(n) (4 * (n) + 3)
#define BASELINE_URL (2048 + 3)
#define BASELINE_REVIEW_BYTES (BASELINE_STR(2000) + BASELINE_STR(17) + BASELINE_STR(42) + \
	BASELINE_STR(BASELINE_DATETIME_MAX) + BASELINE_URL + 128)
#define BASELINE_CANDIDATE_BYTES (BASELINE_STR(66) + BASELINE_STR(160) + BASELINE_URL + BASELINE_STR(7) + \
	BASELINE_STR(1000) + 2 * BASELINE_LIST_MAX * BASELINE_STR(2000) + 10 * BASELINE_REVIEW_BYTES + \
	3 * 20 + BASELINE_STR(BASELINE_AMOUNT_MAX) + BASELINE_STR(10) + BASELINE_STR(BASELINE_DATETIME_MAX) + \
	BASELINE_STR(7) + BASELINE_STR(64) + 2 * BASELINE_URL + BASELINE_STR(7) + 8 + 2 * BASELINE_STR(100) + 512)
#define BASELINE_BYTES (20 * BASELINE_CANDIDATE_BYTES + BASELINE_LIST_MAX * BASELINE_STR(2000) + \
	BASELINE_STR(BASELINE_DATETIME_MAX) + BASELINE_STR(400) + 256)

/* The evidence kinds a snapshot's review items may carry, NULL-terminated. */
extern const char *const baseline_lanes[];

/*
 * Check b as a baseline for a report asked with q, limit and reviewer
 * (NULL for none; the request's values, defaulted as discovery's): a
 * version-1 snapshot within the bounds above, generatedAt strictly before
 * now (to the nanosecond), query equal to (q, limit, reviewer), deprecated
 * limitations arrays (top level and per candidate) well-formed. Returns
 * ERR_NONE, or the 400 already written to w, naming the member as
 * "baseline.<path>" ("baseline.candidates[2].price.amount"): unknown_field,
 * missing_field or invalid_field. Reads no database.
 */
enum err baseline_check(struct req *r, struct resp *w, json_object *b, const char *q, uint64_t limit,
    const struct addr *reviewer);

#endif
