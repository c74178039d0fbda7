/*
 * discovery.c: GET /api/v1/x402/discovery (docs/PROTOCOL.md, Discovery
 * snapshot; docs/ARCHITECTURE.md, Decisions where the spec is silent).
 * Free and read-only: candidate endpoints for a
 * task, with dated evidence and an invocation handoff; no quality score.
 *
 * Candidates are routes with a description whose method and URL recompute
 * to their route ID: a published, unexpired route context, or a listing of
 * the synced x402 network catalog. `q` is parsed by the search engine
 * (lib/search.h: at most 8 words besides stop words, each matched by its
 * English stem, its synonyms, the longer stems its stem starts and, the
 * unfinished last word, as the start of a word) against the title, the summary, the URL and the signed
 * context text; matchReasons say which term matched which field, and how
 * when not by its own word. Order: relevance (BM25F, weighted title 3,
 * summary and context 2, URL 1; docs/ARCHITECTURE.md, Discovery
 * ranking), then boon_backed review count, then distinct boon_backed
 * reviewers, then route ID. Token holdings, burns and
 * recognition amounts never rank, and neither do receipt_verified,
 * self_reported or client_settlement reviews. Each candidate carries up
 * to 10 reviews (newest first, every lane, at most 4 of one lane while
 * other lanes have reviews to fill the slots (corpus.h), each with its
 * evidence kind and the free review source as sourceUrl: the route's
 * reviews, or for a client_settlement review the public profile activity
 * it is attached to); with `reviewer`, only routes that wallet reviewed
 * remain and its reviews come first. usage.profileCount counts the public
 * (public_all) profiles with a receipt-backed used fact of the route; the
 * snapshot's usage has the interface's three members and no more (its
 * objects are closed). A report's candidates (discovery_report_snapshot)
 * also count those with a client_settlement one,
 * usage.clientSettlementProfileCount. Nothing of a private profile is read
 * (docs/ARCHITECTURE.md, Profile activity).
 *
 * A route is a candidate while any of its descriptions is current: the
 * newest unexpired context describes it, else a catalog listing does.
 *
 * The corpus (corpus.h) keeps the described routes in memory, so a
 * request touches no table, and keeps them current.
 *
 * Coverage: each source has its own state. routes (contexts and catalog)
 * are needed by every query: when they cannot be read the corpus is
 * dropped and the answer is 503. reviews are needed by a query with
 * `reviewer`: 503 then; without it the snapshot says reviews unavailable.
 * activity (the recognition index) is available once the indexer has a
 * checkpoint and its aggregates can be read. An unavailable source is
 * never shown as an empty success.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "config.h"
#include "corpus.h"
#include "db.h"
#include "dbfail.h"
#include "discovery.h"
#include "hex.h"
#include "json.h"
#include "sql.h"
#include "table.h"
#include "timefmt.h"
#include "search.h"
#include "banned.h"

static const char *const field_names[F__MAX] = {
	[F_TITLE] = "title", [F_SUMMARY] = "summary", [F_CONTEXT] = "signed route context",
	[F_URL] = "URL", [F_TAGS] = "tags or input and output fields",
};

/* The places in the evidence order (corpus.h, rank) hit_rank reads; per thread. */
static _Thread_local const uint32_t *rank_of;

#define hit discovery_hit

/* Higher score first; then review evidence and route ID (corpus order). */
static int
hit_rank(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	/* Review evidence, then route ID: the no-q order, one compact array. */
	return (rank_of[x->doc] > rank_of[y->doc]) - (rank_of[x->doc] < rank_of[y->doc]);
}

int
discovery_rank(struct corpus *k, const struct search_query *sq,
    bool (*keep)(const struct cand *c, void *arg), void *arg, struct discovery_hit **out, size_t *n)
{
	struct hit *h = malloc(((size_t)k->n + 1) * sizeof(*h));
	size_t m = 0;

	*out = h;
	*n = 0;
	if (h == NULL)
		return -1;
	if (sq->n == 0) {
		for (size_t i = 0; i < k->n; i++)
			if (keep == NULL || keep(&k->e[k->order[i]], arg))
				h[m++] = (struct hit){ .doc = k->order[i], .score = 0 };
	} else {
		struct search_params prm;
		uint32_t nt;

		search_params_default(&prm);
		nt = search_run(&k->ix, &prm, sq, &k->sc);
		for (uint32_t i = 0; i < nt; i++) {
			uint32_t d = k->sc.touched[i];

			if (keep == NULL || keep(&k->e[d], arg))
				h[m++] = (struct hit){ .doc = d, .score = k->sc.score[d] };
		}
		rank_of = k->rank;
		qsort(h, m, sizeof(*h), hit_rank);
	}
	*n = m;
	return 0;
}

/* Append s to line[cap] at *off, never past its end. */
static void
line_add(char *line, size_t cap, size_t *off, const char *s)
{
	if (*off < cap)
		*off += (size_t)snprintf(line + *off, cap - *off, "%s", s);
}

/*
 * Why c (document doc of k's index) matched q: per field, one sentence
 * for the terms that matched by their own stem, and one for each term that
 * matched in another way (its stem differs from the word, a synonym, the
 * start of a word), naming what it matched.
 */
static void
field_reasons(json_object *a, const struct corpus *k, const struct search_query *q, uint32_t doc)
{
	int how[SEARCH_TERMS_MAX][SEARCH_FIELDS];
	char line[128 + SEARCH_TERMS_MAX * (SEARCH_WORD_MAX + 4)], part[3 * SEARCH_WORD_MAX + 64];

	for (size_t t = 0; t < q->n; t++)
		search_explain(&k->ix, q, t, doc, how[t]);
	for (int f = 0; f < F__MAX; f++) {
		size_t off = 0, nplain = 0;

		for (size_t t = 0; t < q->n; t++) {
			const struct search_exp *e = how[t][f] >= 0 ? &q->t[t].exp[how[t][f]] : NULL;

			if (e && e->how == SEARCH_WORD && strcmp(q->t[t].word, q->t[t].stem) == 0)
				nplain++;
		}
		if (nplain > 0) {
			line_add(line, sizeof(line), &off, nplain > 1 ? "The query terms " : "The query term ");
			for (size_t t = 0, n = 0; t < q->n; t++) {
				const struct search_exp *e = how[t][f] >= 0 ? &q->t[t].exp[how[t][f]] : NULL;

				if (e && e->how == SEARCH_WORD && strcmp(q->t[t].word, q->t[t].stem) == 0) {
					snprintf(part, sizeof(part), "%s\"%s\"", n++ ? ", " : "", q->t[t].word);
					line_add(line, sizeof(line), &off, part);
				}
			}
			snprintf(part, sizeof(part), " matched the %s.", field_names[f]);
			line_add(line, sizeof(line), &off, part);
			json_object_array_add(a, json_object_new_string(line));
		}
		for (size_t t = 0; t < q->n; t++) {
			const struct search_exp *e = how[t][f] >= 0 ? &q->t[t].exp[how[t][f]] : NULL;
			const char *w = q->t[t].word;

			if (e == NULL || (e->how == SEARCH_WORD && strcmp(w, q->t[t].stem) == 0))
				continue;
			if (e->how == SEARCH_WORD)
				snprintf(line, sizeof(line), "The query term \"%s\" matched the %s by its stem "
				    "\"%s\".", w, field_names[f], q->t[t].stem);
			else if (e->how == SEARCH_SYNONYM)
				snprintf(line, sizeof(line), "The query term \"%s\" matched the %s through its "
				    "synonym \"%s\".", w, field_names[f], e->synonym);
			else if (e->how == SEARCH_PREFIX)
				snprintf(line, sizeof(line), "The query term \"%s\" matched the %s as the start "
				    "of a word (stem \"%s\").", w, field_names[f], search_term_text(&k->ix, e->term));
			else if (e->how == SEARCH_PAST)
				snprintf(line, sizeof(line), "The query term \"%s\" matched the %s as a word "
				    "typed past its stem \"%s\".", w, field_names[f], search_term_text(&k->ix, e->term));
			else
				snprintf(line, sizeof(line), "The query term \"%s\" matched the %s: its stem "
				    "\"%s\" starts the stem \"%s\".", w, field_names[f], q->t[t].stem,
				    search_term_text(&k->ix, e->term));
			json_object_array_add(a, json_object_new_string(line));
		}
	}
}

static json_object *
match_reasons(const struct cand *c, const struct corpus *k, const struct search_query *q, uint32_t doc)
{
	json_object *a = json_object_new_array();

	if (q == NULL)
		json_object_array_add(a, json_object_new_string(
		    "No query terms were given: every described route qualifies; ordered by " BRAND_LANE " "
		    "review evidence, then route ID."));
	else
		field_reasons(a, k, q, doc);
	if (c->from_context)
		json_object_array_add(a, json_object_new_string(
		    "Described by a route context signed by a wallet that took part in a routed "
		    "recognition of this route."));
	if (c->from_catalog)
		json_object_array_add(a, json_object_new_string(
		    "Listed in the synced x402 network catalog (untrusted listing data)."));
	return a;
}

/* The reviewer's own review items on one route (discovery with reviewer). */
struct mine {
	uint8_t route_id[32];
	json_object *items;        /* array, newest first */
};

static json_object *
candidate_reviews(const struct cand *c, const struct mine *m, const char *reviewer_hex)
{
	json_object *a;

	if (m == NULL)
		return c->reviews ? corpus_copy(c->reviews) : json_object_new_array();
	/* The reviewer's reviews first, then the others (the corpus's slots), at most CORPUS_REVIEWS_MAX. */
	a = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(m->items) &&
	    json_object_array_length(a) < CORPUS_REVIEWS_MAX; i++)
		json_object_array_add(a, json_object_get(json_object_array_get_idx(m->items, i)));
	for (size_t i = 0; c->reviews && i < json_object_array_length(c->reviews) &&
	    json_object_array_length(a) < CORPUS_REVIEWS_MAX; i++) {
		json_object *it = json_object_array_get_idx(c->reviews, i), *rv = NULL;

		json_object_object_get_ex(it, "reviewer", &rv);
		if (rv && strcmp(json_object_get_string(rv) + 2, reviewer_hex) == 0)
			continue;
		json_object_array_add(a, corpus_copy(it));
	}
	return a;
}

static json_object *
candidate_json(const struct config *cfg, const struct corpus *k, uint32_t doc,
    const struct search_query *sq, const struct mine *m, const char *reviewer_hex, bool report)
{
	const struct cand *c = &k->e[doc];
	json_object *o = json_object_new_object(), *usage, *price, *inv, *links;
	char rid[67], path[128];

	hex_encode(c->route_id, 32, rid);
	json_object_object_add(o, "routeId", json_object_new_string(rid));
	json_object_object_add(o, "title", json_object_new_string(c->title));
	json_object_object_add(o, "url", json_object_new_string(c->url));
	json_object_object_add(o, "method", json_object_new_string(c->method));
	json_object_object_add(o, "summary", json_object_new_string(c->summary));
	json_object_object_add(o, "matchReasons", match_reasons(c, k, sq, doc));
	json_object_object_add(o, "reviews", candidate_reviews(c, m, reviewer_hex));
	usage = json_object_new_object();
	json_object_object_add(usage, "useCount", json_object_new_int64((int64_t)c->uses));
	json_object_object_add(usage, "walletCount", json_object_new_int64((int64_t)c->wallets));
	json_object_object_add(usage, "profileCount", json_object_new_int64((int64_t)c->profiles));
	if (report)
		json_object_object_add(usage, "clientSettlementProfileCount",
		    json_object_new_int64((int64_t)c->settlement_profiles));
	json_object_object_add(o, "usage", usage);
	price = json_object_new_object();
	if (c->price_usdc[0]) {
		json_object_object_add(price, "amount", json_object_new_string(c->price_usdc));
		json_object_object_add(price, "currency", json_object_new_string("USDC"));
		json_object_object_add(price, "checkedAt", json_object_new_string(c->checked_at));
		json_object_object_add(price, "status", json_object_new_string("stale"));
	} else {
		json_object_object_add(price, "amount", NULL);
		json_object_object_add(price, "currency", NULL);
		json_object_object_add(price, "checkedAt", NULL);
		json_object_object_add(price, "status", json_object_new_string("unknown"));
	}
	json_object_object_add(o, "price", price);
	inv = json_object_new_object();
	json_object_object_add(inv, "client", json_object_new_string(cfg->payer_client));
	json_object_object_add(inv, "discoveryUrl", json_object_new_string(c->url));
	json_object_object_add(inv, "method", json_object_new_string(c->method));
	json_object_object_add(inv, "endpoint", json_object_new_string(c->url));
	json_object_object_add(inv, "requiresApproval", json_object_new_boolean(1));
	json_object_object_add(o, "invocation", inv);
	links = json_object_new_object();
	snprintf(path, sizeof(path), "/x402/routes/%s", rid);
	json_object_object_add(links, "web", json_object_new_string(path));
	snprintf(path, sizeof(path), "/api/v1/x402/routes/%s", rid);
	json_object_object_add(links, "api", json_object_new_string(path));
	json_object_object_add(o, "links", links);
	return o;
}

static json_object *
coverage(bool routes, bool reviews, bool activity)
{
	json_object *o = json_object_new_object();
	const char *names[3] = { "routes", "reviews", "activity" };
	bool avail[3] = { routes, reviews, activity };

	for (int i = 0; i < 3; i++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "available", json_object_new_boolean(avail[i]));
		json_object_object_add(c, "complete", json_object_new_boolean(0));
		json_object_object_add(o, names[i], c);
	}
	return o;
}

static int
mine_cmp(const void *a, const void *b)
{
	return memcmp(((const struct mine *)a)->route_id, ((const struct mine *)b)->route_id, 32);
}

static const struct mine *
find_mine(const struct mine *m, size_t n, const struct cand *c)
{
	struct mine key;

	if (n == 0)
		return NULL;
	memcpy(key.route_id, c->route_id, 32);
	return bsearch(&key, m, n, sizeof(*m), mine_cmp);
}

static void
mine_free(struct mine *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_object_put(m[i].items);
	free(m);
}

/*
 * The reviewer's review items, grouped by route (sorted by route ID), into
 * *out[*n] (mine_free). On failure (DB_ERROR also when out of memory)
 * nothing is left allocated: *out NULL, *n 0.
 */
static enum db_rc
load_mine(struct req *r, const char *rhex, struct mine **out, size_t *n)
{
	char b[2048];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	corpus_review_sql(&q, r->cfg->chain_id, rhex);
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);
		struct mine *m = *n ? &(*out)[*n - 1] : NULL;

		if (len[0] != 32)
			continue;
		if (m == NULL || memcmp(m->route_id, row[0], 32) != 0) {
			if (*n == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				struct mine *nm = realloc(*out, ncap * sizeof(*nm));

				if (nm == NULL) {
					rc = DB_ERROR;   /* *out is still the old array, freed below */
					break;
				}
				*out = nm;
				cap = ncap;
			}
			m = &(*out)[(*n)++];
			memcpy(m->route_id, row[0], 32);
			m->items = json_object_new_array();
		}
		json_object_array_add(m->items, corpus_review_item(r->cfg, m->route_id, row[2], row[1], rhex,
		    row[4], row[5] && len[5] == 16 ? (const uint8_t *)row[5] : NULL,
		    row[6] && len[6] == 32 ? (const uint8_t *)row[6] : NULL));
	}
	if (res)
		mysql_free_result(res);
	if (rc != DB_OK) {
		mine_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/*
 * The snapshot from k, a current corpus (corpus_lock held), with the
 * reviewer's own review items (mine, loaded before the lock) when reviewer
 * is set. Reads no table. Out of memory is a 500, never fewer candidates.
 */
static enum err
snapshot_locked(struct req *r, struct resp *w, struct corpus *k, const char *q, uint64_t limit,
    const struct addr *reviewer, const char *rhex, const struct mine *mine, size_t nmine, bool report,
    struct search_stemmer *st, json_object **out)
{
	struct search_query *sq = NULL;
	struct search_params prm;
	struct hit *hits = NULL;
	size_t nh = 0;
	char stamp[32];
	json_object *o, *query, *arr;
	enum err e = ERR_NONE;

	*out = NULL;
	if (reviewer && !k->reviews_ok)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
		    "Discovery by reviewer cannot answer while the reviews are unavailable; this is not "
		    "an empty result.");
	if ((sq = malloc(sizeof(*sq))) == NULL || search_query_parse(&k->ix, st, q, strlen(q), sq) < 0 ||
	    (hits = calloc(limit + 1, sizeof(*hits))) == NULL) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	arr = json_object_new_array();
	if (sq->n == 0) {
		/* No terms: by review evidence, then route ID (the precomputed order). */
		for (size_t i = 0; i < k->n && json_object_array_length(arr) < limit; i++) {
			uint32_t d = k->order[i];
			const struct mine *m = reviewer ? find_mine(mine, nmine, &k->e[d]) : NULL;

			if (!reviewer || m)
				json_object_array_add(arr, candidate_json(r->cfg, k, d, NULL, m, rhex, report));
		}
	} else {
		uint32_t nt;

		search_params_default(&prm);
		nt = search_run(&k->ix, &prm, sq, &k->sc);
		/* Keep the best `limit` hits in order (insertion into a short array). */
		rank_of = k->rank;
		for (uint32_t i = 0; i < nt; i++) {
			uint32_t d = k->sc.touched[i];
			struct hit h = { .doc = d, .score = k->sc.score[d] };
			size_t pos;

			if (reviewer && find_mine(mine, nmine, &k->e[d]) == NULL)
				continue;
			if (nh == limit && hit_rank(&h, &hits[nh - 1]) >= 0)
				continue;
			pos = nh < limit ? nh++ : nh - 1;
			while (pos > 0 && hit_rank(&h, &hits[pos - 1]) < 0) {
				hits[pos] = hits[pos - 1];
				pos--;
			}
			hits[pos] = h;
		}
		for (size_t i = 0; i < nh; i++)
			json_object_array_add(arr, candidate_json(r->cfg, k, hits[i].doc, sq,
			    reviewer ? find_mine(mine, nmine, &k->e[hits[i].doc]) : NULL, rhex, report));
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string("1"));
	json_object_object_add(o, "generatedAt",
	    json_object_new_string(time_rfc3339(time(NULL), stamp, sizeof(stamp))));
	query = json_object_new_object();
	json_object_object_add(query, "q", json_object_new_string(q));
	json_object_object_add(query, "limit", json_object_new_int64((int64_t)limit));
	if (reviewer) {
		char a[ADDR_TEXT_LEN + 1];

		json_object_object_add(query, "reviewer", json_object_new_string(addr_format_lower(reviewer, a)));
	} else {
		json_object_object_add(query, "reviewer", NULL);
	}
	json_object_object_add(o, "query", query);
	json_object_object_add(o, "candidates", arr);
	json_object_object_add(o, "coverage", coverage(true, k->reviews_ok, k->activity));
	*out = o;
out:
	free(hits);
	free(sq);
	return e;
}

static enum err
snapshot(struct req *r, struct resp *w, const char *q, uint64_t limit, const struct addr *reviewer,
    bool report, json_object **out)
{
	struct corpus *k;
	struct mine *mine = NULL;
	struct search_stemmer st;
	size_t nmine = 0;
	char rhex[ADDR_TEXT_LEN + 1] = "";
	enum db_rc rc = DB_OK;
	enum err e;

	*out = NULL;
	/* The query's stemmer, made before corpus_lock, which it would lengthen. */
	if (search_stemmer_init(&st) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	/* The one query of a request: before corpus_lock, which no query is made under. */
	if (reviewer) {
		addr_format_lower(reviewer, rhex);
		memmove(rhex, rhex + 2, 41);
		if ((rc = load_mine(r, rhex, &mine, &nmine)) != DB_OK) {
			search_stemmer_release(&st);
			return rc == DB_UNAVAILABLE ? resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
			    "Discovery cannot answer while the database is unavailable; this is not an "
			    "empty result.") : db_fail(w, rc);
		}
	}
	rc = corpus_acquire(r, &k);
	if (rc == DB_UNAVAILABLE)
		e = resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
		    "Discovery cannot answer while its route descriptions are unavailable; this is not "
		    "an empty result.");
	else if (rc != DB_OK)
		e = db_fail(w, rc);
	else
		e = snapshot_locked(r, w, k, q, limit, reviewer, rhex, mine, nmine, report, &st, out);
	corpus_release();
	mine_free(mine, nmine);
	search_stemmer_release(&st);
	return e;
}

enum err
discovery_snapshot(struct req *r, struct resp *w, const char *q, uint64_t limit,
    const struct addr *reviewer, json_object **out)
{
	return snapshot(r, w, q, limit, reviewer, false, out);
}

enum err
discovery_report_snapshot(struct req *r, struct resp *w, const char *q, uint64_t limit,
    const struct addr *reviewer, json_object **out)
{
	return snapshot(r, w, q, limit, reviewer, true, out);
}


enum err
h_discovery_get(struct req *r, struct resp *w)
{
	const struct value *q = req_val(r, "q"), *rv = req_val(r, "reviewer");
	json_object *o;
	enum err e = discovery_snapshot(r, w, q ? q->text : "", req_val(r, "limit")->u,
	    rv ? &rv->addr : NULL, &o);

	if (e != ERR_NONE)
		return e;
	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	return resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
