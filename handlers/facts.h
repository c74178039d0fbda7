/*
 * facts.h: reading a profile's activity facts (docs/ARCHITECTURE.md,
 * Profile activity), the one place that decides which facts a profile
 * has. The discovery preview counts them, the paid feeds page through
 * them and the site reads show one; each reads them here, so the counts
 * a controller confirms are the facts a reader later sees.
 *
 * A profile's facts are those of its active wallets only:
 *   used, paid_settlement  stored facts (profile_activity) of this profile
 *                          published by a wallet that is active in it now;
 *   reviewed               signed reviews (every lane, table reviews) by an
 *                          active wallet, and activity reviews
 *                          (activity_reviews) of this profile by one;
 *   recognized             routed recognitions sent by an active wallet;
 *   linked_wallet          (a count only) the active member links.
 * A revoked wallet's facts leave the profile with it. Whether the profile
 * may be shown at all (public_all) is the caller's check.
 *
 * Order: occurredAt newest first, then the fact ID's text, descending; the
 * feed's cursor (lib/factid.h) names the last fact of a page.
 *
 * Return conventions: enum db_rc (DB_OK, or the database's failure).
 */
#ifndef WAYMARK_FACTS_H
#define WAYMARK_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "config.h"
#include "db.h"
#include "factid.h"
#include "profiles.h"

#define FACTS_PAGE_MAX 100

struct fact_wallet {
	uint8_t addr[20];
	char role[16];          /* "controller" or "member" */
	char policy[16];        /* the discovery mode it consented to: "private" or "public_all" */
	int64_t linked_at;      /* Unix seconds it became active */
};

struct fact_counts {
	uint64_t used, paid_settlement, reviewed, recognized, linked_wallet;
};

/* The active wallets of profile pid, by slot (the controller first), into w[PROFILE_WALLETS_MAX]; *n of them. */
enum db_rc facts_wallets(struct db *db, const uint8_t pid[16], struct fact_wallet *w, size_t *n);

/* How many facts of each category profile pid has. */
enum db_rc facts_count(struct db *db, const struct config *cfg, const uint8_t pid[16], struct fact_counts *c);

/*
 * One page of profile pid's facts, newest first, after the fact `after`
 * names (NULL: from the newest): up to limit (1..FACTS_PAGE_MAX) fact
 * objects appended to arr; *more when facts follow, and then *last is the
 * cursor of the last one appended.
 */
enum db_rc facts_page(struct db *db, const struct config *cfg, const uint8_t pid[16],
    const struct feed_cursor *after, uint64_t limit, json_object *arr, bool *more, struct feed_cursor *last);

/*
 * The fact id of profile pid as a new fact object into *out (the caller
 * puts it), or NULL when the profile has no such fact.
 */
enum db_rc facts_one(struct db *db, const struct config *cfg, const uint8_t pid[16], const struct fact_id *id,
    json_object **out);

/*
 * The activity review attached to the stored fact activity_id of profile
 * pid, as a new object {evidenceKind, reviewText, reviewer, accountId,
 * routeId, transaction, createdAt, publishedAt, digest} into *out, or NULL
 * when none is.
 */
enum db_rc facts_activity_review(struct db *db, const uint8_t pid[16], const uint8_t activity_id[32],
    json_object **out);

/* {used, paid_settlement, reviewed, recognized, linked_wallet} as a new object. */
json_object *facts_counts_json(const struct fact_counts *c);

#endif
