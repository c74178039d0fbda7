/*
 * discovery.c: GET /api/v1/x402/discovery (docs/PROTOCOL.md, Discovery
 * snapshot; docs/ARCHITECTURE.md, Decisions where the spec is silent).
 * Free and read-only: candidate endpoints for a
 * task, with dated evidence and an invocation handoff; no quality score.
 *
 * Candidates are routes with a description whose method and URL recompute
 * to their route ID: a published, unexpired route context, or a listing of
 * the synced x402 network catalog. `q` is split into at most 8 terms, each
 * matched case-insensitively against the title, the summary, the URL and
 * the signed context text; matchReasons say which term matched which
 * field. Order: relevance (terms matched, weighted title 3, summary and
 * context 2, URL 1), then boon_backed review count, then distinct
 * boon_backed reviewers, then route ID. Token holdings, burns and
 * recognition amounts never rank, and neither do receipt_verified or
 * self_reported reviews. Each candidate carries up to 10 reviews (newest
 * first, every lane, each with its evidence kind and the free review
 * source as sourceUrl); with `reviewer`, only routes that wallet reviewed
 * remain and its reviews come first.
 *
 * A route is a candidate while any of its descriptions is current: the
 * newest unexpired context describes it, else a catalog listing does.
 *
 * Each worker process keeps the described routes in memory (the corpus: verified
 * routes, their text in a word-prefix index, usage and prices), so a
 * request touches no table. At most every discovery_check_ms cheap
 * fingerprint queries tell whether contexts or the catalog changed (full
 * reload), or only the recognition index or the reviews moved; the first
 * request after the earliest expiry of a loaded context reloads at once,
 * so an expired description is never served and an older current one
 * takes its place. Terms match word prefixes ("weath" finds "weather"),
 * case-insensitively for ASCII.
 *
 * Coverage: each source has its own state. routes (contexts and catalog)
 * are needed by every query: when they cannot be read the corpus is
 * dropped and the answer is 503. reviews are needed by a query with
 * `reviewer`: 503 then; without it the snapshot says reviews unavailable.
 * activity (the recognition index) is available once the indexer has a
 * checkpoint and its aggregates can be read. An unavailable source is
 * never shown as an empty success.
 */
#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "buf.h"
#include "config.h"
#include "db.h"
#include "discovery.h"
#include "hex.h"
#include "json.h"
#include "route.h"
#include "sqlfmt.h"
#include "table.h"
#include "timefmt.h"
#include "url.h"
#include "wordindex.h"
#include "banned.h"

#define TERMS_MAX 8

enum field_id { F_TITLE, F_SUMMARY, F_CONTEXT, F_URL, F__MAX };

static const char *const field_names[F__MAX] = {
	[F_TITLE] = "title", [F_SUMMARY] = "summary", [F_CONTEXT] = "signed route context",
	[F_URL] = "URL",
};
static const int field_weight[F__MAX] = { [F_TITLE] = 3, [F_SUMMARY] = 2, [F_CONTEXT] = 2, [F_URL] = 1 };

/* One described route of the corpus. Strings are malloc'd. */
struct cand {
	uint8_t route_id[32];
	char method[16];
	char *url, *title, *summary, *context;
	bool from_context, from_catalog;
	char price_usdc[100];
	char checked_at[32];
	long long created;          /* the context note's createdAt (newest describes) */
	long long expires;          /* the context note's expiresAt; 0 for catalog-only */
	uint64_t uses, wallets;
	uint64_t boon_reviews, boon_reviewers;
	json_object *reviews;       /* up to 10 review items, newest first (or NULL) */
};

struct corpus {
	bool loaded;
	uint64_t checked_ms;
	uint64_t chain_id;
	char desc_fp[256];          /* contexts and catalog fingerprint */
	char usage_fp[64];          /* indexer checkpoint */
	char reviews_fp[64];        /* review count and newest id */
	long long next_expiry;      /* earliest expiresAt of a loaded context; 0: none */
	uint32_t *order;            /* entries by review evidence, then route ID (no-q order) */
	bool activity;              /* the recognition index exists and its aggregates load */
	bool reviews_ok;            /* the reviews loaded */
	struct cand *e;             /* sorted by route ID */
	size_t n;
	struct wordindex wi;
	uint32_t *match;            /* per entry and field: bit per query term */
	uint32_t *touched;          /* entries matched by this query */
	size_t ntouched;
	uint32_t *seen;             /* per entry: the query generation that touched it */
	int *rel;                   /* per entry: relevance within this query */
	uint32_t gen;
};

/*
 * One corpus per worker process, shared by its threads: corpus_lock guards
 * it and its per-query scratch (match, touched, seen, rel, gen), so one
 * query or reload runs at a time in a process. Discovery is CPU-bound and
 * short; the free pool runs at least as many processes as cores.
 */
static pthread_mutex_t corpus_lock = PTHREAD_MUTEX_INITIALIZER;
static struct corpus corpus;

struct terms {
	size_t n;
	char t[TERMS_MAX][65];      /* lowercase words */
};

static void
add_term(const char *word, void *arg)
{
	struct terms *tm = arg;

	if (tm->n == TERMS_MAX)
		return;
	for (size_t i = 0; i < tm->n; i++)
		if (strcmp(tm->t[i], word) == 0)
			return;
	snprintf(tm->t[tm->n++], sizeof(tm->t[0]), "%s", word);
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A malloc'd copy of at most max characters of s, cut at a UTF-8 boundary. */
static char *
dup_chars(const char *s, size_t max)
{
	size_t j = 0, chars = 0;
	char *d;

	s = s ? s : "";
	while (s[j] && chars < max) {
		j++;
		while (s[j] && ((unsigned char)s[j] & 0xc0) == 0x80)
			j++;
		chars++;
	}
	d = malloc(j + 1);
	if (d) {
		memcpy(d, s, j);
		d[j] = '\0';
	}
	return d;
}

static void
cand_free(struct cand *c)
{
	free(c->url);
	free(c->title);
	free(c->summary);
	free(c->context);
	json_object_put(c->reviews);
	c->url = c->title = c->summary = c->context = NULL;
	c->reviews = NULL;
}

static void
corpus_clear(struct corpus *k)
{
	for (size_t i = 0; i < k->n; i++)
		cand_free(&k->e[i]);
	free(k->e);
	free(k->match);
	free(k->touched);
	free(k->seen);
	free(k->rel);
	free(k->order);
	wordindex_release(&k->wi);
	memset(k, 0, sizeof(*k));
}

static int
cand_cmp_route(const void *a, const void *b)
{
	return memcmp(((const struct cand *)a)->route_id, ((const struct cand *)b)->route_id, 32);
}

/* Append the rows of one source into *c. */
static enum db_rc
load_rows(struct db *db, const char *sql, bool context, struct cand **c, size_t *n, size_t *cap)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc = db_query(db, sql, &res);

	if (rc != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);
		struct cand *x;

		if (len[0] != 32)
			continue;
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 256;
			struct cand *nc = realloc(*c, ncap * sizeof(*nc));

			if (nc == NULL) {
				rc = DB_ERROR;
				break;
			}
			*c = nc;
			*cap = ncap;
		}
		x = &(*c)[(*n)++];
		memset(x, 0, sizeof(*x));
		memcpy(x->route_id, row[0], 32);
		snprintf(x->method, sizeof(x->method), "%s", row[1] ? row[1] : "");
		x->url = dup_chars(row[2], 2048);
		x->title = dup_chars(row[3], 160);
		x->summary = dup_chars(row[4], 1000);
		if (context) {
			x->from_context = true;
			x->context = dup_chars(row[5], 4000);
			x->created = row[7] ? strtoll(row[7], NULL, 10) : 0;
			x->expires = row[8] ? strtoll(row[8], NULL, 10) : 0;
		} else {
			x->from_catalog = true;
			snprintf(x->price_usdc, sizeof(x->price_usdc), "%s", row[5] ? row[5] : "");
		}
		snprintf(x->checked_at, sizeof(x->checked_at), "%s", row[6] ? row[6] : "");
		if (x->url == NULL || x->title == NULL || x->summary == NULL ||
		    (context && x->context == NULL)) {
			rc = DB_ERROR;
			break;
		}
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/*
 * Merge rows of the same route: the newest context (signed by a
 * participant) describes the route; a catalog listing adds its price.
 */
static size_t
merge(struct cand *c, size_t n)
{
	size_t m = 0;

	if (n == 0)
		return 0;
	qsort(c, n, sizeof(*c), cand_cmp_route);
	for (size_t i = 0; i < n; i++) {
		struct cand *last = m ? &c[m - 1] : NULL;

		if (last && memcmp(last->route_id, c[i].route_id, 32) == 0) {
			if (c[i].from_context && (!last->from_context || c[i].created > last->created)) {
				struct cand old = *last;

				*last = c[i];
				if (old.from_catalog && !last->price_usdc[0]) {
					memcpy(last->price_usdc, old.price_usdc, sizeof(old.price_usdc));
					memcpy(last->checked_at, old.checked_at, sizeof(old.checked_at));
					last->from_catalog = true;
				}
				cand_free(&old);
			} else {
				if (c[i].from_catalog && !last->price_usdc[0]) {
					memcpy(last->price_usdc, c[i].price_usdc, sizeof(last->price_usdc));
					memcpy(last->checked_at, c[i].checked_at, sizeof(last->checked_at));
					last->from_catalog = true;
				}
				cand_free(&c[i]);
			}
			continue;
		}
		if (m != i)
			c[m] = c[i];
		m++;
	}
	return m;
}

/* The route URL recomputes to the route ID and passes the public policy. */
static bool
verified(struct cand *c)
{
	static struct route_parts parts;
	uint8_t id[32];
	char *url;

	if (route_id(c->method, strlen(c->method), c->url, strlen(c->url), id, &parts) != ROUTE_OK ||
	    memcmp(id, c->route_id, 32) != 0 || parts.url.origin_len + parts.url.path_len > 2048 ||
	    strlen(parts.method) >= sizeof(c->method))
		return false;
	url = malloc(parts.url.origin_len + parts.url.path_len + 1);
	if (url == NULL)
		return false;
	memcpy(url, parts.url.origin, parts.url.origin_len);
	memcpy(url + parts.url.origin_len, parts.url.path, parts.url.path_len + 1);
	free(c->url);
	c->url = url;
	memcpy(c->method, parts.method, strlen(parts.method) + 1);
	return url_check_public(c->url, strlen(c->url), URL_EXACT, NULL) == URL_OK &&
	    c->title[0] && c->summary[0];
}

/*
 * Run q, whose rows are (route ID, count, count), and store the two counts
 * of each corpus route at the given offsets of its entry (zero for routes
 * without a row).
 */
static enum db_rc
load_counts(struct db *db, struct corpus *k, const char *q, size_t off_a, size_t off_b)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	for (size_t i = 0; i < k->n; i++) {
		*(uint64_t *)(void *)((char *)&k->e[i] + off_a) = 0;
		*(uint64_t *)(void *)((char *)&k->e[i] + off_b) = 0;
	}
	if ((rc = db_query(db, q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);
		struct cand key, *hit;

		if (len[0] != 32)
			continue;
		memcpy(key.route_id, row[0], 32);
		if ((hit = bsearch(&key, k->e, k->n, sizeof(*k->e), cand_cmp_route)) != NULL) {
			*(uint64_t *)(void *)((char *)hit + off_a) = strtoull(row[1], NULL, 10);
			*(uint64_t *)(void *)((char *)hit + off_b) = strtoull(row[2], NULL, 10);
		}
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

/* Usage of every corpus route from the recognition aggregates. */
static enum db_rc
load_usage(struct db *db, struct corpus *k)
{
	char q[256];

	if (sql_format(q, sizeof(q), "SELECT route_id, recognition_count, tipper_count FROM "
	    "route_recognition_stats WHERE chain_id = %" PRIu64, k->chain_id) < 0)
		return DB_ERROR;
	return load_counts(db, k, q, offsetof(struct cand, uses), offsetof(struct cand, wallets));
}

/* The entries qsort orders (it has no context argument); per thread. */
static _Thread_local const struct cand *order_entries;

/* More boon_backed reviews first, then more distinct reviewers, then route ID. */
static int
evidence_cmp(uint32_t a, uint32_t b, const struct cand *e)
{
	if (e[a].boon_reviews != e[b].boon_reviews)
		return e[a].boon_reviews > e[b].boon_reviews ? -1 : 1;
	if (e[a].boon_reviewers != e[b].boon_reviewers)
		return e[a].boon_reviewers > e[b].boon_reviewers ? -1 : 1;
	return (a > b) - (a < b);
}

static int
order_cmp(const void *x, const void *y)
{
	return evidence_cmp(*(const uint32_t *)x, *(const uint32_t *)y, order_entries);
}

/*
 * One review item of a candidate (docs/PROTOCOL.md, Discovery snapshot),
 * citing the free review source.
 */
static json_object *
review_item(const struct config *cfg, const uint8_t route_id[32], const char *text,
    const char *lane, const char *wallet_hex, const char *published)
{
	json_object *it = json_object_new_object();
	char rid[67], wallet[43], src[CONFIG_STR_MAX + 128];

	hex_encode(route_id, 32, rid);
	snprintf(wallet, sizeof(wallet), "0x%s", wallet_hex);
	snprintf(src, sizeof(src), "%s/api/site/x402/routes/%s/reviews", cfg->public_base_url, rid);
	json_object_object_add(it, "text", json_object_new_string(text));
	json_object_object_add(it, "evidenceKind", json_object_new_string(lane));
	json_object_object_add(it, "reviewer", json_object_new_string(wallet));
	json_object_object_add(it, "publishedAt", json_object_new_string(published));
	json_object_object_add(it, "sourceUrl", json_object_new_string(src));
	return it;
}

/*
 * Review evidence of every corpus route: boon_backed counts for ranking and
 * up to 10 newest review items of any lane for the candidates.
 */
static enum db_rc
load_reviews(struct db *db, const struct config *cfg, struct corpus *k)
{
	char q[1024];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	for (size_t i = 0; i < k->n; i++) {
		json_object_put(k->e[i].reviews);
		k->e[i].reviews = NULL;
	}
	if (sql_format(q, sizeof(q), "SELECT route_id, COUNT(*), COUNT(DISTINCT reviewer) FROM reviews "
	    "WHERE chain_id = %" PRIu64 " AND lane = '" BRAND_LANE "' GROUP BY route_id", k->chain_id) < 0)
		return DB_ERROR;
	if ((rc = load_counts(db, k, q, offsetof(struct cand, boon_reviews),
	    offsetof(struct cand, boon_reviewers))) != DB_OK)
		return rc;
	res = NULL;
	if (sql_format(q, sizeof(q), "SELECT route_id, lane, review_text, LOWER(HEX(reviewer)), "
	    "DATE_FORMAT(published_at, '%%Y-%%m-%%dT%%H:%%i:%%sZ') FROM (SELECT route_id, lane, "
	    "review_text, reviewer, published_at, ROW_NUMBER() OVER (PARTITION BY route_id ORDER BY "
	    "published_at DESC, id DESC) AS n FROM reviews WHERE chain_id = %" PRIu64 ") t WHERE n <= 10 "
	    "ORDER BY route_id, n", k->chain_id) < 0)
		return DB_ERROR;
	if ((rc = db_query(db, q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);
		struct cand key, *hit;

		if (len[0] != 32)
			continue;
		memcpy(key.route_id, row[0], 32);
		if ((hit = bsearch(&key, k->e, k->n, sizeof(*k->e), cand_cmp_route)) == NULL)
			continue;
		if (hit->reviews == NULL)
			hit->reviews = json_object_new_array();
		json_object_array_add(hit->reviews, review_item(cfg, hit->route_id, row[2], row[1], row[3],
		    row[4]));
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/* Forget every review of the corpus (the reviews source is unavailable). */
static void
reviews_clear(struct corpus *k)
{
	for (size_t i = 0; i < k->n; i++) {
		json_object_put(k->e[i].reviews);
		k->e[i].reviews = NULL;
		k->e[i].boon_reviews = k->e[i].boon_reviewers = 0;
	}
}

/* The no-q order of the entries (by review evidence, then route ID). */
static int
corpus_order(struct corpus *k)
{
	free(k->order);
	k->order = calloc(k->n + 1, sizeof(*k->order));
	if (k->order == NULL)
		return -1;
	for (size_t i = 0; i < k->n; i++)
		k->order[i] = (uint32_t)i;
	order_entries = k->e;
	if (k->n > 0)
		qsort(k->order, k->n, sizeof(*k->order), order_cmp);
	return 0;
}

/*
 * Load every current description (contexts unexpired at now, catalog
 * listings), verify each route and index its text; k->next_expiry is the
 * earliest expiry among the loaded contexts.
 */
static enum db_rc
load_corpus(struct db *db, struct corpus *k, long long now)
{
	char q[1024];
	struct cand *c = NULL;
	size_t n = 0, cap = 0, kept = 0;
	enum db_rc rc;

	if (sql_format(q, sizeof(q), "SELECT route_id, method, public_endpoint_url, "
	    "CONCAT(method, ' ', SUBSTRING(public_endpoint_url, 9)), CONCAT(intent, ' ', fit), "
	    "CONCAT_WS(' ', intent, fit, limits_text), DATE_FORMAT(published_at, '%%Y-%%m-%%dT%%H:%%i:%%sZ'), "
	    "note_created_at, note_expires_at FROM route_contexts WHERE chain_id = %" PRIu64
	    " AND note_expires_at > %lld", k->chain_id, now) < 0)
		return DB_ERROR;
	rc = load_rows(db, q, true, &c, &n, &cap);
	if (rc == DB_OK)
		rc = load_rows(db, "SELECT route_id, method, resource_url, service_name, description, "
		    "price_usdc, DATE_FORMAT(synced_at, '%Y-%m-%dT%H:%i:%sZ') FROM catalog_resources "
		    "WHERE route_id IS NOT NULL", false, &c, &n, &cap);
	if (rc != DB_OK) {
		for (size_t i = 0; i < n; i++)
			cand_free(&c[i]);
		free(c);
		return rc;
	}
	k->next_expiry = 0;
	for (size_t i = 0; i < n; i++)
		if (c[i].from_context && (k->next_expiry == 0 || c[i].expires < k->next_expiry))
			k->next_expiry = c[i].expires;
	n = merge(c, n);
	for (size_t i = 0; i < n; i++) {
		if (verified(&c[i]))
			c[kept++] = c[i];
		else
			cand_free(&c[i]);
	}
	k->e = c;
	k->n = kept;
	k->match = calloc(kept * F__MAX + 1, sizeof(*k->match));
	k->touched = calloc(kept + 1, sizeof(*k->touched));
	k->seen = calloc(kept + 1, sizeof(*k->seen));
	k->rel = calloc(kept + 1, sizeof(*k->rel));
	wordindex_init(&k->wi);
	if (k->match == NULL || k->touched == NULL || k->seen == NULL || k->rel == NULL)
		return DB_ERROR;
	for (size_t i = 0; i < kept; i++) {
		const char *text[F__MAX] = { c[i].title, c[i].summary, c[i].context, c[i].url };

		for (int f = 0; f < F__MAX; f++)
			if (text[f] && wordindex_add(&k->wi, (uint32_t)i, (unsigned)f, text[f],
			    strlen(text[f])) < 0)
				return DB_ERROR;
	}
	return wordindex_build(&k->wi) < 0 ? DB_ERROR : DB_OK;
}

/* One fingerprint query's single value into out[cap]; "" when NULL. */
static enum db_rc
fingerprint(struct db *db, const char *q, char *out, size_t cap)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc = db_query(db, q, &res);

	out[0] = '\0';
	if (rc == DB_OK && res && (row = mysql_fetch_row(res)) != NULL)
		snprintf(out, cap, "%s", row[0] ? row[0] : "");
	else if (rc == DB_OK)
		rc = DB_ERROR;
	if (res)
		mysql_free_result(res);
	return rc;
}

/*
 * Make the corpus current: at most every discovery_check_ms (at once when
 * a loaded context has expired), compare each source's fingerprint and
 * reload what changed. The routes failing drops the corpus (DB_ERROR); the
 * reviews or the recognition index failing only marks that source
 * unavailable.
 */
static enum db_rc
corpus_refresh(struct req *r)
{
	struct corpus *k = &corpus;
	uint64_t now = now_ms(), chain = r->cfg->chain_id;
	long long wall = (long long)time(NULL);
	char q[512], desc[256], usage[64], reviews[64];
	bool expired = k->loaded && k->next_expiry != 0 && wall >= k->next_expiry;
	bool reload, reorder;
	enum db_rc rc;

	if (k->loaded && k->chain_id == chain && !expired && now - k->checked_ms < r->cfg->discovery_check_ms)
		return DB_OK;
	if (sql_format(q, sizeof(q), "SELECT CONCAT_WS(':', (SELECT COUNT(*) FROM route_contexts WHERE "
	    "chain_id = %" PRIu64 "), (SELECT IFNULL(MAX(published_at), '') FROM route_contexts WHERE "
	    "chain_id = %" PRIu64 "), (SELECT COUNT(*) FROM catalog_resources), (SELECT "
	    "IFNULL(MAX(generation), 0) FROM catalog_resources))", chain, chain) < 0)
		return DB_ERROR;
	if ((rc = fingerprint(r->db, q, desc, sizeof(desc))) != DB_OK) {
		corpus_clear(k);
		return rc;
	}
	reload = !k->loaded || k->chain_id != chain || expired || strcmp(desc, k->desc_fp) != 0;
	reorder = reload;
	if (reload) {
		corpus_clear(k);
		k->chain_id = chain;
		if ((rc = load_corpus(r->db, k, wall)) != DB_OK) {
			corpus_clear(k);
			return rc;
		}
	}
	if (sql_format(q, sizeof(q), "SELECT IFNULL(MAX(block_number), 'none') FROM indexer_checkpoints "
	    "WHERE chain_id = %" PRIu64, chain) < 0 || fingerprint(r->db, q, usage, sizeof(usage)) != DB_OK)
		snprintf(usage, sizeof(usage), "failed");
	if (strcmp(usage, "failed") == 0 || strcmp(usage, "none") == 0) {
		k->activity = false;
	} else if (reload || !k->activity || strcmp(usage, k->usage_fp) != 0) {
		k->activity = load_usage(r->db, k) == DB_OK;
		if (!k->activity)
			snprintf(usage, sizeof(usage), "failed");
	}
	if (sql_format(q, sizeof(q), "SELECT CONCAT(COUNT(*), ':', IFNULL(MAX(id), 0)) FROM reviews WHERE "
	    "chain_id = %" PRIu64, chain) < 0 || fingerprint(r->db, q, reviews, sizeof(reviews)) != DB_OK) {
		reorder = reorder || k->reviews_ok;
		k->reviews_ok = false;
		reviews[0] = '\0';
		reviews_clear(k);
	} else if (reload || !k->reviews_ok || strcmp(reviews, k->reviews_fp) != 0) {
		reorder = true;
		k->reviews_ok = load_reviews(r->db, r->cfg, k) == DB_OK;
		if (!k->reviews_ok) {
			reviews[0] = '\0';
			reviews_clear(k);
		}
	}
	if (reorder && corpus_order(k) < 0) {
		corpus_clear(k);
		return DB_ERROR;
	}
	k->loaded = true;
	k->checked_ms = now;
	memcpy(k->desc_fp, desc, sizeof(desc));
	memcpy(k->usage_fp, usage, sizeof(usage));
	memcpy(k->reviews_fp, reviews, sizeof(reviews));
	return DB_OK;
}

struct hit {
	uint32_t doc;
	int relevance;
};

/* Higher relevance first; then review evidence and route ID (corpus order). */
static int
hit_rank(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->relevance != y->relevance)
		return y->relevance - x->relevance;
	return evidence_cmp(x->doc, y->doc, order_entries);
}

struct match_ctx {
	struct corpus *k;
	unsigned term;
};

static void
on_match(uint32_t doc, unsigned fields, void *arg)
{
	struct match_ctx *m = arg;
	struct corpus *k = m->k;
	uint32_t bit = 1u << m->term, *mt = &k->match[doc * F__MAX];

	if (k->seen[doc] != k->gen) {
		k->seen[doc] = k->gen;
		k->rel[doc] = 0;
		k->touched[k->ntouched++] = doc;
	}
	for (int f = 0; f < F__MAX; f++)
		if ((fields & (1u << f)) && !(mt[f] & bit)) {
			mt[f] |= bit;
			k->rel[doc] += field_weight[f];
		}
}

static json_object *
match_reasons(const struct cand *c, const uint32_t *matched, const struct terms *tm)
{
	json_object *a = json_object_new_array();
	char line[64 + TERMS_MAX * (64 + 4) + 64];   /* never cuts a term (at most 64 bytes each) */

	if (tm->n == 0)
		json_object_array_add(a, json_object_new_string(
		    "No query terms were given: every described route qualifies; ordered by " BRAND_LANE " "
		    "review evidence, then route ID."));
	for (int f = 0; matched && f < F__MAX; f++) {
		size_t off;

		if (!matched[f])
			continue;
		off = (size_t)snprintf(line, sizeof(line), "The query term%s ",
		    __builtin_popcount(matched[f]) > 1 ? "s" : "");
		for (size_t i = 0, k = 0; i < tm->n && off < sizeof(line); i++)
			if (matched[f] & (1u << i))
				off += (size_t)snprintf(line + off, sizeof(line) - off, "%s\"%s\"",
				    k++ ? ", " : "", tm->t[i]);
		if (off < sizeof(line))
			snprintf(line + off, sizeof(line) - off, " matched the %s.", field_names[f]);
		json_object_array_add(a, json_object_new_string(line));
	}
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

/* A copy of a corpus JSON value: the answer outlives corpus_lock, and
 * json-c's reference counts are not atomic, so no corpus object is shared
 * with an answer. NULL when out of memory. */
static json_object *
corpus_copy(json_object *src)
{
	json_object *dst = NULL;

	return json_object_deep_copy(src, &dst, NULL) == 0 ? dst : NULL;
}

static json_object *
candidate_reviews(const struct cand *c, const struct mine *m, const char *reviewer_hex)
{
	json_object *a;

	if (m == NULL)
		return c->reviews ? corpus_copy(c->reviews) : json_object_new_array();
	/* The reviewer's reviews first, then the others, at most 10. */
	a = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(m->items) && json_object_array_length(a) < 10; i++)
		json_object_array_add(a, json_object_get(json_object_array_get_idx(m->items, i)));
	for (size_t i = 0; c->reviews && i < json_object_array_length(c->reviews) &&
	    json_object_array_length(a) < 10; i++) {
		json_object *it = json_object_array_get_idx(c->reviews, i), *rv = NULL;

		json_object_object_get_ex(it, "reviewer", &rv);
		if (rv && strcmp(json_object_get_string(rv) + 2, reviewer_hex) == 0)
			continue;
		json_object_array_add(a, corpus_copy(it));
	}
	return a;
}

static json_object *
candidate_json(const struct config *cfg, const struct cand *c, const uint32_t *matched,
    const struct terms *tm, const struct mine *m, const char *reviewer_hex)
{
	json_object *o = json_object_new_object(), *usage, *price, *inv, *links;
	char rid[67], path[128];

	hex_encode(c->route_id, 32, rid);
	json_object_object_add(o, "routeId", json_object_new_string(rid));
	json_object_object_add(o, "title", json_object_new_string(c->title));
	json_object_object_add(o, "url", json_object_new_string(c->url));
	json_object_object_add(o, "method", json_object_new_string(c->method));
	json_object_object_add(o, "summary", json_object_new_string(c->summary));
	json_object_object_add(o, "matchReasons", match_reasons(c, matched, tm));
	json_object_object_add(o, "reviews", candidate_reviews(c, m, reviewer_hex));
	usage = json_object_new_object();
	json_object_object_add(usage, "useCount", json_object_new_int64((int64_t)c->uses));
	json_object_object_add(usage, "walletCount", json_object_new_int64((int64_t)c->wallets));
	json_object_object_add(usage, "profileCount", json_object_new_int64(0));
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

/* The reviewer's review items, grouped by route (sorted by route ID). */
static enum db_rc
load_mine(struct req *r, const char *rhex, struct mine **out, size_t *n)
{
	char q[768];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (sql_format(q, sizeof(q), "SELECT route_id, lane, review_text, DATE_FORMAT(published_at, "
	    "'%%Y-%%m-%%dT%%H:%%i:%%sZ') FROM reviews WHERE chain_id = %" PRIu64 " AND reviewer = X'%s' "
	    "ORDER BY route_id, published_at DESC, id DESC", r->cfg->chain_id, rhex) < 0)
		return DB_ERROR;
	if ((rc = db_query(r->db, q, &res)) != DB_OK)
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
					rc = DB_ERROR;
					break;
				}
				*out = nm;
				cap = ncap;
			}
			m = &(*out)[(*n)++];
			memcpy(m->route_id, row[0], 32);
			m->items = json_object_new_array();
		}
		json_object_array_add(m->items, review_item(r->cfg, m->route_id, row[2], row[1], rhex,
		    row[3]));
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

static enum err
snapshot_locked(struct req *r, struct resp *w, const char *q, uint64_t limit,
    const struct addr *reviewer, json_object **out)
{
	struct corpus *k = &corpus;
	struct terms tm = { .n = 0 };
	struct hit *hits = NULL;
	struct mine *mine = NULL;
	size_t nh = 0, nmine = 0;
	char rhex[ADDR_TEXT_LEN + 1] = "";
	char stamp[32];
	json_object *o, *query, *arr;

	*out = NULL;
	if (corpus_refresh(r) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
		    "Discovery cannot answer while its route descriptions are unavailable; this is not "
		    "an empty result.");
	if (reviewer && !k->reviews_ok)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
		    "Discovery by reviewer cannot answer while the reviews are unavailable; this is not "
		    "an empty result.");
	wordindex_words(q, strlen(q), add_term, &tm);
	if (reviewer) {
		addr_format_lower(reviewer, rhex);
		memmove(rhex, rhex + 2, 41);
		if (load_mine(r, rhex, &mine, &nmine) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
			    "Discovery cannot answer while the database is unavailable; this is not an empty result.");
	}
	arr = json_object_new_array();
	if (tm.n == 0) {
		/* No terms: by review evidence, then route ID (the precomputed order). */
		for (size_t i = 0; i < k->n && json_object_array_length(arr) < limit; i++) {
			const struct cand *c = &k->e[k->order[i]];
			const struct mine *m = reviewer ? find_mine(mine, nmine, c) : NULL;

			if (!reviewer || m)
				json_object_array_add(arr, candidate_json(r->cfg, c, NULL, &tm, m, rhex));
		}
	} else {
		if (++k->gen == 0) {
			memset(k->seen, 0, k->n * sizeof(*k->seen));
			k->gen = 1;
		}
		for (size_t t = 0; t < tm.n; t++) {
			struct match_ctx mc = { .k = k, .term = (unsigned)t };

			wordindex_prefix(&k->wi, tm.t[t], on_match, &mc);
		}
		/* Keep the best `limit` hits in order (insertion into a short array). */
		hits = calloc(limit + 1, sizeof(*hits));
		order_entries = k->e;
		for (size_t i = 0; hits && i < k->ntouched; i++) {
			uint32_t d = k->touched[i];
			struct hit h = { .doc = d, .relevance = k->rel[d] };
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
			json_object_array_add(arr, candidate_json(r->cfg, &k->e[hits[i].doc],
			    &k->match[hits[i].doc * F__MAX], &tm,
			    reviewer ? find_mine(mine, nmine, &k->e[hits[i].doc]) : NULL, rhex));
		for (size_t i = 0; i < k->ntouched; i++)
			memset(&k->match[k->touched[i] * F__MAX], 0, F__MAX * sizeof(*k->match));
		k->ntouched = 0;
		free(hits);
	}
	for (size_t i = 0; i < nmine; i++)
		json_object_put(mine[i].items);
	free(mine);
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
	return ERR_NONE;
}

enum err
discovery_snapshot(struct req *r, struct resp *w, const char *q, uint64_t limit,
    const struct addr *reviewer, json_object **out)
{
	enum err e;

	pthread_mutex_lock(&corpus_lock);
	e = snapshot_locked(r, w, q, limit, reviewer, out);
	pthread_mutex_unlock(&corpus_lock);
	return e;
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
