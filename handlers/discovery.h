/*
 * discovery.h: the discovery snapshot (docs/PROTOCOL.md, Discovery snapshot),
 * shared by GET /api/v1/x402/discovery and the MCP tool.
 */
#ifndef WAYMARK_DISCOVERY_H
#define WAYMARK_DISCOVERY_H

#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "corpus.h"
#include "http.h"
#include "search.h"

#define DISCOVERY_Q_MAX 400
#define DISCOVERY_LIMIT_MAX 20
#define DISCOVERY_LIMIT_DEFAULT 10

/*
 * Build the snapshot for q (<= 400 characters, "" for none), limit
 * (1..20) and reviewer (NULL for none), with r->db connected. Returns
 * ERR_NONE and *out (the caller puts it), or an error already written to w
 * (503 when the database or the index cannot answer: never an empty
 * success in place of a failure).
 */
enum err discovery_snapshot(struct req *r, struct resp *w, const char *q, uint64_t limit,
    const struct addr *reviewer, json_object **out);

/*
 * The same candidates for a report (the compare report): each usage also
 * counts the public profiles whose use of the route rests on their own
 * client_settlement facts, usage.clientSettlementProfileCount. A
 * snapshot's objects are closed (docs/PROTOCOL.md, Discovery snapshot), so
 * that member is never in a snapshot, an export or a baseline.
 */
enum err discovery_report_snapshot(struct req *r, struct resp *w, const char *q, uint64_t limit,
    const struct addr *reviewer, json_object **out);

/* A ranked entry: its index in the corpus and its score. */
struct discovery_hit {
	uint32_t doc;
	float score;
};

/*
 * The entries of k (corpus_lock held) that sq matches and keep(entry, arg)
 * accepts (keep NULL: all), in discovery's order: score, then review
 * evidence, then route ID; with no terms in sq, every kept entry in the
 * no-q order (review evidence, then route ID) with score 0. *out is
 * malloc'd (the caller frees it, also when *n is 0). 0, or -1 when out of
 * memory.
 */
int discovery_rank(struct corpus *k, const struct search_query *sq,
    bool (*keep)(const struct cand *c, void *arg), void *arg, struct discovery_hit **out, size_t *n);

#endif
