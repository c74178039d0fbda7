/*
 * corpus.h: the discovery corpus of a worker process (docs/ARCHITECTURE.md,
 * Discovery corpus): the described routes, their text in a search index
 * (search.h), their usage, review evidence and prices, kept current from the
 * database. discovery.c answers from it.
 *
 * One corpus per process, shared by its threads behind corpus_lock. The
 * only way in is corpus_acquire(), which takes the lock; everything the
 * corpus owns (entries, strings, JSON values, the index) stays the
 * corpus's, and an answer that keeps a corpus JSON value takes
 * corpus_copy() of it, never a reference: a refresh swaps a new corpus in
 * under the lock and frees the old one, which no answer may then use.
 * No database query runs under corpus_lock (corpus.c).
 */
#ifndef WAYMARK_CORPUS_H
#define WAYMARK_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "config.h"
#include "db.h"
#include "http.h"
#include "sql.h"
#include "search.h"

/*
 * Review slots of a candidate, and how many one evidence lane fills while
 * the other lanes have reviews for the rest (docs/ARCHITECTURE.md,
 * Discovery corpus): one lane cannot crowd out the others.
 */
#define CORPUS_REVIEWS_MAX 10
#define CORPUS_LANE_SLOTS 4

/* The indexed text fields of an entry (search.h field numbers). */
enum field_id { F_TITLE, F_SUMMARY, F_CONTEXT, F_URL, F_TAGS, F__MAX };

/*
 * What a catalog listing says of the route's payment, for the Bazaar
 * filters (handlers/bazaar.c): its accepts entries' schemes, networks and
 * payTo addresses (lower case) and its extension keys, comma-separated,
 * the asset of the entry the catalog chose, and its tags (space-separated);
 * cand_fact() reads them.
 */
enum cand_fact { CF_SCHEMES, CF_NETWORKS, CF_PAY_TOS, CF_EXTENSIONS, CF_ASSET, CF_TAGS, CF__MAX };
_Static_assert(F__MAX == SEARCH_FIELDS, "the corpus indexes SEARCH_FIELDS fields");

/* One described route of the corpus. Strings are malloc'd. */
struct cand {
	uint8_t route_id[32];
	char method[16];
	char *url, *title, *summary, *context;
	char *tags;                 /* a listing's tags and Bazaar field words: indexed (F_TAGS), then freed */
	char *facts;                /* the CF__MAX facts, each NUL-terminated, one after another; NULL: none */
	bool from_context, from_catalog;
	char price_usdc[100];
	char checked_at[32];
	int64_t created;            /* the context note's createdAt (newest describes) */
	int64_t expires;            /* the context note's expiresAt; 0 for catalog-only */
	uint64_t uses, wallets;
	uint64_t profiles;          /* public profiles with a receipt-backed used fact of this route */
	uint64_t settlement_profiles;   /* public profiles with a client_settlement used fact of it */
	uint64_t boon_reviews, boon_reviewers;
	json_object *reviews;       /* up to CORPUS_REVIEWS_MAX review items, newest first (or NULL) */
};

/*
 * The corpus. The query scratch (sc) is sized with the entries and
 * belongs to the one query that holds corpus_lock.
 */
struct corpus {
	bool loaded;
	uint64_t checked_ms;
	uint64_t chain_id;
	char desc_fp[256];          /* contexts and catalog fingerprint */
	char usage_fp[64];          /* indexer checkpoint */
	char reviews_fp[256];       /* reviews, and public profile activity (facts, activity
	                             * reviews, discovery modes, active wallets) */
	int64_t next_expiry;        /* earliest expiresAt of a loaded context; 0: none */
	uint32_t *order;            /* entries by review evidence, then route ID (no-q order) */
	uint32_t *rank;             /* each entry's place in order (in order's allocation) */
	bool activity;              /* the recognition index exists and its aggregates load */
	bool reviews_ok;            /* the reviews loaded */
	struct cand *e;             /* sorted by route ID */
	size_t n;
	struct search_index ix;     /* the entries' text: document i is entry i */
	struct search_scratch sc;
};

/*
 * Bring the corpus up to date for r (r->db connected; the queries run
 * before corpus_lock is taken) and take corpus_lock. *out is the
 * process's corpus whatever the result, valid until corpus_release(); the
 * caller calls corpus_release() exactly once. DB_OK, or the code of the
 * failure that left the routes unreadable (DB_UNAVAILABLE: the database;
 * DB_ERROR: a refused statement, or out of memory): the corpus is then
 * empty and must not be answered from.
 */
enum db_rc corpus_acquire(struct req *r, struct corpus **out);

/* Fact f of c (enum cand_fact), "" when the route has no catalog listing. */
const char *cand_fact(const struct cand *c, enum cand_fact f);

/* Release corpus_lock taken by corpus_acquire(), then free what a refresh of this thread replaced. */
void corpus_release(void);

/*
 * Review evidence order of entries a and b of e: more boon_backed reviews
 * first, then more distinct reviewers, then the entry index (route ID).
 * Negative, zero or positive, as qsort wants.
 */
int corpus_evidence_cmp(uint32_t a, uint32_t b, const struct cand *e);

/*
 * One review item of a candidate (docs/PROTOCOL.md, Discovery snapshot),
 * citing the free review source: the route's reviews, or for a
 * client_settlement review (source_profile and source_activity, raw 16 and
 * 32 bytes, not NULL) the public profile activity it is attached to. A new
 * object the caller owns.
 */
json_object *corpus_review_item(const struct config *cfg, const uint8_t route_id[32],
    const char *text, const char *lane, const char *wallet_hex, const char *published,
    const uint8_t *source_profile, const uint8_t *source_activity);

/*
 * The SQL of every review item, as rows (route ID, lane, text, reviewer
 * hex, published, profile ID, activity ID): the lanes' reviews and the
 * client_settlement reviews of public activity (the last two columns NULL
 * for the others), on chain. With reviewer (40 hex digits) only that
 * wallet's, ordered by route ID, newest first; without, the
 * CORPUS_REVIEWS_MAX shown of each route (the CORPUS_LANE_SLOTS newest of
 * each lane first, then the newest of the rest while slots are left),
 * ordered by route ID, newest first. Appended to q.
 */
void corpus_review_sql(struct sql *q, uint64_t chain, const char *reviewer);

/*
 * A deep copy of a corpus JSON value: the answer outlives corpus_lock, and
 * json-c's reference counts are not atomic, so no corpus object is shared
 * with an answer. The caller owns the copy; NULL when out of memory, with
 * the thread's JSON latch set (lib/json.h), so the answer is a 500.
 */
json_object *corpus_copy(json_object *src);

#endif
