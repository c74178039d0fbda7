/*
 * corpus.c: the discovery corpus of a worker process (corpus.h;
 * docs/ARCHITECTURE.md, Discovery corpus).
 *
 * Each worker process keeps the described routes in memory (the corpus: verified
 * routes, their text in a search index (search.h), usage and prices), so a
 * request touches no table. At most every discovery_check_ms cheap
 * fingerprint queries tell whether contexts or the catalog changed (full
 * reload), or only the recognition index or the reviews moved; the first
 * request after the earliest expiry of a loaded context reloads at once,
 * so an expired description is never served and an older current one
 * takes its place.
 *
 * When the routes (contexts and catalog) cannot be read the corpus is
 * dropped; when the reviews or the recognition index cannot, the corpus
 * marks that source unavailable (reviews_ok, activity). Out of memory
 * while loading drops the corpus too, never a corpus missing part of its
 * routes or reviews.
 *
 * No database query runs under corpus_lock. One thread at a time (the
 * refresher, chosen under refresh_state.mu) reads the fingerprints and
 * builds the next corpus outside the lock: a full reload builds a new
 * one; a usage or reviews reload copies the entry array and shares the
 * strings and the search index of the current corpus, which nothing changes
 * while they are shared. It takes corpus_lock only to swap the result in.
 * A query holds corpus_lock from corpus_acquire to corpus_release and
 * copies into its answer what the answer keeps, so once the swap has the
 * lock no reader uses the old corpus any more, and the refresher frees it
 * after giving the lock back (docs/ARCHITECTURE.md, Discovery corpus).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "clock.h"
#include "corpus.h"
#include "hex.h"
#include "json.h"
#include "profiles.h"
#include "route.h"
#include "sql.h"
#include "url.h"
#include "banned.h"

/*
 * One corpus per worker process, shared by its threads: corpus_lock guards
 * it and its per-query scratch (sc), so one
 * query runs at a time in a process. Discovery is CPU-bound and short;
 * the free pool runs at least as many processes as cores. A refresh
 * holds it only to swap in a corpus it built without it (corpus_swap).
 *
 * corpus_lock is a ticket lock: queries get it in the order they asked.
 * With a plain mutex (not FIFO) a thread that had just asked could take
 * the lock ahead of those sleeping on it, and with eight threads a process
 * free discovery's p99 at 32 connections was about four times that of one
 * thread per process at the same throughput (docs/ARCHITECTURE.md,
 * Discovery corpus). Ticket t sleeps on cv[t % LOCK_CVS], so an unlock
 * wakes only the next ticket.
 */
#define LOCK_CVS 64
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv[LOCK_CVS];
	uint64_t next;              /* the next ticket to hand out */
	uint64_t serving;           /* the ticket that holds the lock */
} corpus_lock = { .mu = PTHREAD_MUTEX_INITIALIZER };
static pthread_once_t corpus_lock_once = PTHREAD_ONCE_INIT;
static struct corpus corpus;

/*
 * Who refreshes. refresh_state.mu guards these fields only and is held
 * for a few instructions; it may be taken while holding corpus_lock,
 * never the other way round. While running, only the running thread
 * writes the corpus's fields outside its scratch, so it may read them
 * without corpus_lock (queries only write the scratch).
 */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t done;        /* broadcast when a refresh ends */
	bool running;               /* a thread is refreshing */
	uint64_t finished;          /* refreshes ended */
	enum db_rc rc;              /* the last one's result */
} refresh_state = { .mu = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER };

/* What this thread's refresh swapped out, freed by corpus_release after corpus_lock. */
static _Thread_local struct corpus retired;

static void
corpus_lock_init(void)
{
	for (size_t i = 0; i < LOCK_CVS; i++)
		pthread_cond_init(&corpus_lock.cv[i], NULL);
}

/* Take corpus_lock in ticket order. */
static void
corpus_lock_take(void)
{
	uint64_t t;

	pthread_once(&corpus_lock_once, corpus_lock_init);
	pthread_mutex_lock(&corpus_lock.mu);
	t = corpus_lock.next++;
	while (t != corpus_lock.serving)
		pthread_cond_wait(&corpus_lock.cv[t % LOCK_CVS], &corpus_lock.mu);
	pthread_mutex_unlock(&corpus_lock.mu);
}

/* Give corpus_lock to the next ticket, if one waits. */
static void
corpus_lock_give(void)
{
	uint64_t t;

	pthread_mutex_lock(&corpus_lock.mu);
	t = ++corpus_lock.serving;
	if (t < corpus_lock.next)
		pthread_cond_broadcast(&corpus_lock.cv[t % LOCK_CVS]);
	pthread_mutex_unlock(&corpus_lock.mu);
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
	free(c->facts);
	free(c->tags);
	json_object_put(c->reviews);
	c->url = c->title = c->summary = c->context = c->facts = c->tags = NULL;
	c->reviews = NULL;
}

static void
corpus_clear(struct corpus *k)
{
	for (size_t i = 0; i < k->n; i++)
		cand_free(&k->e[i]);
	free(k->e);
	free(k->order);
	search_scratch_release(&k->sc);
	search_index_release(&k->ix);
	memset(k, 0, sizeof(*k));
}

static int
cand_cmp_route(const void *a, const void *b)
{
	return memcmp(((const struct cand *)a)->route_id, ((const struct cand *)b)->route_id, 32);
}

/* Append the rows of one source into *c. */
static enum db_rc
load_rows(struct db *db, const struct sql *q, bool context, struct cand **c, size_t *n, size_t *cap)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc = db_query(db, q, &res);

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
			if (db_row_i64_or(row, 7, "note_created_at", 0, &x->created) != DB_OK ||
			    db_row_i64_or(row, 8, "note_expires_at", 0, &x->expires) != DB_OK) {
				rc = DB_ERROR;
				break;
			}
		} else {
			size_t fl = 0, off = 0;

			x->from_catalog = true;
			snprintf(x->price_usdc, sizeof(x->price_usdc), "%s", row[5] ? row[5] : "");
			/* Columns 7..12: the facts; 13: tags and field words, indexed, then dropped. */
			for (int f = 0; f < CF__MAX; f++)
				fl += (row[7 + f] ? strlen(row[7 + f]) : 0) + 1;
			if ((x->facts = malloc(fl)) == NULL) {
				rc = DB_ERROR;
				break;
			}
			for (int f = 0; f < CF__MAX; f++) {
				size_t l = row[7 + f] ? strlen(row[7 + f]) : 0;

				memcpy(x->facts + off, row[7 + f] ? row[7 + f] : "", l + 1);
				off += l + 1;
			}
			x->tags = dup_chars(row[13] ? row[13] : "", 3000);
			if (x->tags == NULL) {
				rc = DB_ERROR;
				break;
			}
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

/* The catalog facts and words of from go to to, unless to has some already. */
static void
take_listing(struct cand *to, struct cand *from)
{
	if (to->facts == NULL && from->facts) {
		to->facts = from->facts;
		from->facts = NULL;
		free(to->tags);
		to->tags = from->tags;
		from->tags = NULL;
	}
}

const char *
cand_fact(const struct cand *c, enum cand_fact f)
{
	const char *p = c->facts;

	if (p == NULL || f >= CF__MAX)
		return "";
	for (int i = 0; i < (int)f; i++)
		p += strlen(p) + 1;
	return p;
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
				take_listing(last, &old);
				cand_free(&old);
			} else {
				if (c[i].from_catalog && !last->price_usdc[0]) {
					memcpy(last->price_usdc, c[i].price_usdc, sizeof(last->price_usdc));
					memcpy(last->checked_at, c[i].checked_at, sizeof(last->checked_at));
					last->from_catalog = true;
				}
				take_listing(last, &c[i]);
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

/*
 * Whether the route URL recomputes to the route ID and passes the public
 * policy (*v), with c's method and URL made canonical; parts is the
 * caller's scratch (about 29 KB, so not on a worker's stack and not
 * static: each load has its own). -1 when out of memory.
 */
static int
verified(struct cand *c, struct route_parts *parts, bool *v)
{
	uint8_t id[32];
	char *url;

	*v = false;
	if (route_id(c->method, strlen(c->method), c->url, strlen(c->url), id, parts) != ROUTE_OK ||
	    memcmp(id, c->route_id, 32) != 0 || parts->url.origin_len + parts->url.path_len > 2048 ||
	    strlen(parts->method) >= sizeof(c->method))
		return 0;
	url = malloc(parts->url.origin_len + parts->url.path_len + 1);
	if (url == NULL)
		return -1;
	memcpy(url, parts->url.origin, parts->url.origin_len);
	memcpy(url + parts->url.origin_len, parts->url.path, parts->url.path_len + 1);
	free(c->url);
	c->url = url;
	memcpy(c->method, parts->method, strlen(parts->method) + 1);
	*v = url_check_public(c->url, strlen(c->url), URL_EXACT, NULL) == URL_OK &&
	    c->title[0] && c->summary[0];
	return 0;
}

/*
 * Run q, whose rows are (route ID, count, count), and store the two counts
 * of each corpus route at the given offsets of its entry (zero for routes
 * without a row). off_b NO_COUNT: the rows carry one count.
 */
#define NO_COUNT SIZE_MAX
static enum db_rc
load_counts(struct db *db, struct corpus *k, const struct sql *q, size_t off_a, size_t off_b)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	for (size_t i = 0; i < k->n; i++) {
		*(uint64_t *)(void *)((char *)&k->e[i] + off_a) = 0;
		if (off_b != NO_COUNT)
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
		/* An empty corpus has no array to search (bsearch wants one). */
		if (k->n > 0 && (hit = bsearch(&key, k->e, k->n, sizeof(*k->e), cand_cmp_route)) != NULL) {
			rc = db_row_u64(row, 1, mysql_fetch_field_direct(res, 1)->name,
			    (uint64_t *)(void *)((char *)hit + off_a));
			if (rc == DB_OK && off_b != NO_COUNT)
				rc = db_row_u64(row, 2, mysql_fetch_field_direct(res, 2)->name,
				    (uint64_t *)(void *)((char *)hit + off_b));
			if (rc != DB_OK)
				break;
		}
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/* Usage of every corpus route from the recognition aggregates. */
static enum db_rc
load_usage(struct db *db, struct corpus *k)
{
	char b[256];
	struct sql q = SQL_ON(b);

	sql_add(&q, "SELECT route_id, recognition_count, tipper_count FROM "
	    "route_recognition_stats WHERE chain_id = ?", SQL_U64(k->chain_id));
	return load_counts(db, k, &q, offsetof(struct cand, uses), offsetof(struct cand, wallets));
}

/* The entries qsort orders (it has no context argument); per thread. */
static _Thread_local const struct cand *order_entries;

int
corpus_evidence_cmp(uint32_t a, uint32_t b, const struct cand *e)
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
	return corpus_evidence_cmp(*(const uint32_t *)x, *(const uint32_t *)y, order_entries);
}

json_object *
corpus_review_item(const struct config *cfg, const uint8_t route_id[32], const char *text,
    const char *lane, const char *wallet_hex, const char *published, const uint8_t *source_profile,
    const uint8_t *source_activity)
{
	json_object *it = json_object_new_object();
	char rid[67], wallet[43], src[CONFIG_STR_MAX + 160], pid[37];

	hex_encode(route_id, 32, rid);
	snprintf(wallet, sizeof(wallet), "0x%s", wallet_hex);
	if (source_profile && source_activity) {
		/* A client_settlement review cites the public activity it is attached to. */
		uuid_text(source_profile, pid);
		snprintf(src, sizeof(src), "%s/api/site/x402/profiles/%s/activity/%s", cfg->public_base_url, pid,
		    hex_encode(source_activity, 32, rid));
	} else {
		snprintf(src, sizeof(src), "%s/api/site/x402/routes/%s/reviews", cfg->public_base_url, rid);
	}
	json_object_object_add(it, "text", json_object_new_string(text));
	json_object_object_add(it, "evidenceKind", json_object_new_string(lane));
	json_object_object_add(it, "reviewer", json_object_new_string(wallet));
	json_object_object_add(it, "publishedAt", json_object_new_string(published));
	json_object_object_add(it, "sourceUrl", json_object_new_string(src));
	return it;
}

/* Every review item, the lanes' and the public client_settlement ones (see corpus.h). */
static void
review_union(struct sql *q, uint64_t chain, const char *reviewer)
{
	sql_add(q, "SELECT route_id, lane, review_text, LOWER(HEX(reviewer)) rv, published_at ts, 0 src, "
	    "id, NULL sp, NULL sa FROM reviews WHERE chain_id = ?", SQL_U64(chain));
	if (reviewer)
		sql_add(q, " AND reviewer = ?", SQL_HEX(reviewer));
	/* Public only: the profile is public_all and the publishing wallet still active in it. */
	sql_add(q, " UNION ALL SELECT r.route_id, 'client_settlement', r.review_text, LOWER(HEX(r.reviewer)), "
	    "FROM_UNIXTIME(r.published_at), 1, 0, r.profile_id, r.activity_id FROM activity_reviews r JOIN "
	    "profile_activity a ON a.activity_id = r.activity_id JOIN profiles p ON p.profile_id = "
	    "a.profile_id JOIN profile_wallets w ON w.profile_id = a.profile_id AND w.chain_id = a.chain_id "
	    "AND w.active_wallet = a.account WHERE r.chain_id = ? AND p.discovery_mode = 'public_all'",
	    SQL_U64(VALID_ACCOUNT_CHAIN_ID));
	if (reviewer)
		sql_add(q, " AND r.reviewer = ?", SQL_HEX(reviewer));
}

void
corpus_review_sql(struct sql *q, uint64_t chain, const char *reviewer)
{
	if (reviewer) {
		sql_add(q, "SELECT route_id, lane, review_text, rv, DATE_FORMAT(ts, '%Y-%m-%dT%H:%i:%sZ'), sp, "
		    "sa FROM (");
		review_union(q, chain, reviewer);
		sql_add(q, ") u ORDER BY route_id, ts DESC, src DESC, id DESC");
		return;
	}
	/*
	 * The slots: each lane's CORPUS_LANE_SLOTS newest first (ln, the rank
	 * within the lane), then, while slots are left, the newer of the rest;
	 * shown newest first.
	 */
	sql_add(q, "SELECT route_id, lane, review_text, rv, DATE_FORMAT(ts, '%Y-%m-%dT%H:%i:%sZ'), sp, sa "
	    "FROM (SELECT l.*, ROW_NUMBER() OVER (PARTITION BY route_id ORDER BY ln > ?, ts DESC, src DESC, "
	    "id DESC) AS n FROM (SELECT u.*, ROW_NUMBER() OVER (PARTITION BY route_id, lane ORDER BY ts DESC, "
	    "src DESC, id DESC) AS ln FROM (", SQL_U64(CORPUS_LANE_SLOTS));
	review_union(q, chain, NULL);
	sql_add(q, ") u) l) t WHERE n <= ? ORDER BY route_id, ts DESC, src DESC, id DESC",
	    SQL_U64(CORPUS_REVIEWS_MAX));
}

/*
 * Public profiles with a used fact of each corpus route, counted apart by
 * its evidence: an official receipt (usage.profileCount) or the wallet's
 * own word bound to a settlement (the compare report's
 * clientSettlementProfileCount; docs/ARCHITECTURE.md, Profile activity). The profile is public_all and
 * the wallet that published the fact is still active in it.
 */
static enum db_rc
load_profiles(struct db *db, struct corpus *k)
{
	char b[1024];
	struct sql q = SQL_ON(b);

	sql_add(&q, "SELECT a.route_id, COUNT(DISTINCT IF(a.evidence_kind = 'x402_receipt', a.profile_id, "
	    "NULL)), COUNT(DISTINCT IF(a.evidence_kind = 'client_settlement', a.profile_id, NULL)) FROM "
	    "profile_activity a JOIN profiles p ON p.profile_id = a.profile_id JOIN profile_wallets w ON "
	    "w.profile_id = a.profile_id AND w.chain_id = a.chain_id AND w.active_wallet = a.account WHERE "
	    "a.chain_id = ? AND a.kind = 'used' AND a.route_id IS NOT NULL AND p.discovery_mode = "
	    "'public_all' GROUP BY a.route_id", SQL_U64(VALID_ACCOUNT_CHAIN_ID));
	return load_counts(db, k, &q, offsetof(struct cand, profiles),
	    offsetof(struct cand, settlement_profiles));
}

/*
 * Review evidence of every corpus route: boon_backed counts for ranking and
 * up to 10 newest review items of any lane for the candidates, and the
 * public profiles that used it. The entries hold no review items yet
 * (reviews_drop). DB_ERROR when out of memory.
 */
static enum db_rc
load_reviews(struct db *db, const struct config *cfg, struct corpus *k)
{
	char b[4096];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	sql_add(&q, "SELECT route_id, COUNT(*), COUNT(DISTINCT reviewer) FROM reviews "
	    "WHERE chain_id = ? AND lane = '" BRAND_LANE "' GROUP BY route_id", SQL_U64(k->chain_id));
	if ((rc = load_counts(db, k, &q, offsetof(struct cand, boon_reviews),
	    offsetof(struct cand, boon_reviewers))) != DB_OK)
		return rc;
	if ((rc = load_profiles(db, k)) != DB_OK)
		return rc;
	res = NULL;
	sql_reset(&q);
	corpus_review_sql(&q, k->chain_id, NULL);
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);
		struct cand key, *hit;

		if (len[0] != 32)
			continue;
		memcpy(key.route_id, row[0], 32);
		if (k->n == 0 || (hit = bsearch(&key, k->e, k->n, sizeof(*k->e), cand_cmp_route)) == NULL)
			continue;
		if (hit->reviews == NULL && (hit->reviews = json_object_new_array()) == NULL) {
			rc = DB_ERROR;
			break;
		}
		if (json_object_array_add(hit->reviews, corpus_review_item(cfg, hit->route_id, row[2], row[1],
		    row[3], row[4], row[5] && len[5] == 16 ? (const uint8_t *)row[5] : NULL,
		    row[6] && len[6] == 32 ? (const uint8_t *)row[6] : NULL)) < 0) {
			rc = DB_ERROR;
			break;
		}
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/*
 * Forget every review of the corpus (before a reload, or the reviews
 * source is unavailable); put: the review items are k's own (else they
 * are the current corpus's, which k shares).
 */
static void
reviews_drop(struct corpus *k, bool put)
{
	for (size_t i = 0; i < k->n; i++) {
		if (put)
			json_object_put(k->e[i].reviews);
		k->e[i].reviews = NULL;
		k->e[i].boon_reviews = k->e[i].boon_reviewers = k->e[i].profiles = 0;
		k->e[i].settlement_profiles = 0;
	}
}

/* A new no-q order of the entries (by review evidence, then route ID); k->order was shared or NULL. */
static int
corpus_order(struct corpus *k)
{
	/* One block: the order, then each entry's place in it (k->rank). */
	uint32_t *order = calloc(2 * (k->n + 1), sizeof(*order));

	if (order == NULL)
		return -1;
	k->order = order;
	k->rank = order + k->n + 1;
	for (size_t i = 0; i < k->n; i++)
		k->order[i] = (uint32_t)i;
	order_entries = k->e;
	if (k->n > 0)
		qsort(k->order, k->n, sizeof(*k->order), order_cmp);
	for (size_t i = 0; i < k->n; i++)
		k->rank[k->order[i]] = (uint32_t)i;
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
	char b[1024];
	struct sql q = SQL_ON(b);
	struct cand *c = NULL;
	struct route_parts *parts;
	struct search_builder *sb;
	size_t n = 0, cap = 0, kept = 0;
	enum db_rc rc;

	sql_add(&q, "SELECT route_id, method, public_endpoint_url, "
	    "CONCAT(method, ' ', SUBSTRING(public_endpoint_url, 9)), CONCAT(intent, ' ', fit), "
	    "CONCAT_WS(' ', intent, fit, limits_text), DATE_FORMAT(published_at, '%Y-%m-%dT%H:%i:%sZ'), "
	    "note_created_at, note_expires_at FROM route_contexts WHERE chain_id = ? "
	    "AND note_expires_at > ?", SQL_U64(k->chain_id), SQL_I64(now));
	rc = load_rows(db, &q, true, &c, &n, &cap);
	if (rc == DB_OK) {
		sql_reset(&q);
		/* Two listings of one route (URLs that normalize alike): merge keeps one's facts. */
		sql_add(&q, "SELECT route_id, method, resource_url, service_name, description, "
		    "price_usdc, DATE_FORMAT(synced_at, '%Y-%m-%dT%H:%i:%sZ'), schemes, networks, pay_tos, "
		    "extension_keys, asset, tags_text, CONCAT_WS(' ', tags_text, fields_text) FROM catalog_resources "
		    "WHERE route_id IS NOT NULL");
		rc = load_rows(db, &q, false, &c, &n, &cap);
	}
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
	parts = malloc(sizeof(*parts));
	for (size_t i = 0; i < n; i++) {
		bool v = false;

		if (parts && verified(&c[i], parts, &v) < 0) {
			free(parts);
			parts = NULL;
		}
		if (v)
			c[kept++] = c[i];
		else
			cand_free(&c[i]);
	}
	k->e = c;
	k->n = kept;
	if (parts == NULL)
		return DB_ERROR;
	free(parts);
	if (kept > UINT32_MAX - 2 || search_scratch_init(&k->sc, (uint32_t)kept) < 0 ||
	    (sb = search_builder_new()) == NULL)
		return DB_ERROR;
	for (size_t i = 0; i < kept; i++) {
		const char *text[F__MAX] = { c[i].title, c[i].summary, c[i].context, c[i].url, c[i].tags };
		size_t len[F__MAX];

		for (int f = 0; f < F__MAX; f++)
			len[f] = text[f] ? strlen(text[f]) : 0;
		if (search_builder_add(sb, text, len) < 0) {
			search_builder_free(sb);
			return DB_ERROR;
		}
		free(c[i].tags);
		c[i].tags = NULL;
	}
	return search_builder_finish(sb, &k->ix) < 0 ? DB_ERROR : DB_OK;
}

/* One fingerprint query's single value into out[cap]; "" when NULL. */
static enum db_rc
fingerprint(struct db *db, const struct sql *q, char *out, size_t cap)
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
 * Forget in a what b shares with it (one is a partial reload of the other:
 * the same entries with the same strings and search index), so that
 * corpus_clear(a) frees only what is a's alone: its entry array, and the
 * review items, order and scratch that b does not hold too.
 */
static void
corpus_unshare(struct corpus *a, const struct corpus *b)
{
	for (size_t i = 0; i < a->n; i++) {
		struct cand *x = &a->e[i];

		x->url = x->title = x->summary = x->context = x->facts = x->tags = NULL;
		if (x->reviews == b->e[i].reviews)
			x->reviews = NULL;
	}
	if (a->order == b->order)
		a->order = a->rank = NULL;
	if (a->sc.score == b->sc.score)
		memset(&a->sc, 0, sizeof(a->sc));
	memset(&a->ix, 0, sizeof(a->ix));
}

/*
 * k becomes a partial copy of cur: its own entry array, everything else
 * shared (the strings, the search index, the review items, the order), and
 * no scratch, which corpus_swap hands over. -1 when out of memory.
 */
static int
corpus_share(struct corpus *k, const struct corpus *cur)
{
	memset(k, 0, sizeof(*k));
	if (cur->n > 0) {
		if ((k->e = malloc(cur->n * sizeof(*k->e))) == NULL)
			return -1;
		memcpy(k->e, cur->e, cur->n * sizeof(*k->e));
	}
	k->n = cur->n;
	k->loaded = cur->loaded;
	k->chain_id = cur->chain_id;
	memcpy(k->desc_fp, cur->desc_fp, sizeof(k->desc_fp));
	memcpy(k->usage_fp, cur->usage_fp, sizeof(k->usage_fp));
	memcpy(k->reviews_fp, cur->reviews_fp, sizeof(k->reviews_fp));
	k->next_expiry = cur->next_expiry;
	k->order = cur->order;
	k->rank = cur->rank;
	k->activity = cur->activity;
	k->reviews_ok = cur->reviews_ok;
	k->ix = cur->ix;
	return 0;
}

/*
 * Build into *k the current corpus, from cur (the corpus in use) and the
 * fingerprints: run by the refresher only, without corpus_lock (see
 * refresh_state). Each source's fingerprint is compared and what changed
 * reloaded: a changed description (contexts, catalog), an expired
 * context or another chain is a full reload; a moved recognition index or
 * changed reviews reload only those, into a partial copy of cur (*shared
 * true). The routes failing is that failure (DB_UNAVAILABLE, or DB_ERROR
 * for a refused statement or out of memory) with *k empty, the corpus to
 * drop; the reviews or the recognition index failing only marks that
 * source unavailable.
 */
static enum db_rc
corpus_build(struct req *r, const struct corpus *cur, struct corpus *k, bool *shared)
{
	uint64_t now = clock_ms(), chain = r->cfg->chain_id;
	long long wall = (long long)time(NULL);
	char b[1536], desc[256], usage[64], reviews[256];
	struct sql q = SQL_ON(b);
	bool expired = cur->loaded && cur->next_expiry != 0 && wall >= cur->next_expiry;
	bool latched = json_alloc_latched(), reload, reorder;
	enum db_rc rc;

	memset(k, 0, sizeof(*k));
	*shared = false;
	sql_add(&q, "SELECT CONCAT_WS(':', (SELECT COUNT(*) FROM route_contexts WHERE "
	    "chain_id = ?), (SELECT IFNULL(MAX(published_at), '') FROM route_contexts WHERE "
	    "chain_id = ?), (SELECT COUNT(*) FROM catalog_resources), (SELECT "
	    "IFNULL(MAX(generation), 0) FROM catalog_resources))", SQL_U64(chain), SQL_U64(chain));
	if ((rc = fingerprint(r->db, &q, desc, sizeof(desc))) != DB_OK)
		return rc;
	reload = !cur->loaded || cur->chain_id != chain || expired || strcmp(desc, cur->desc_fp) != 0;
	reorder = reload;
	if (reload) {
		k->chain_id = chain;
		if ((rc = load_corpus(r->db, k, wall)) != DB_OK)
			goto fail;
	} else {
		if (corpus_share(k, cur) < 0)
			return DB_ERROR;
		*shared = true;
	}
	sql_reset(&q);
	sql_add(&q, "SELECT IFNULL(MAX(block_number), 'none') FROM indexer_checkpoints "
	    "WHERE chain_id = ?", SQL_U64(chain));
	if (fingerprint(r->db, &q, usage, sizeof(usage)) != DB_OK)
		snprintf(usage, sizeof(usage), "failed");
	if (strcmp(usage, "failed") == 0 || strcmp(usage, "none") == 0) {
		k->activity = false;
	} else if (reload || !k->activity || strcmp(usage, k->usage_fp) != 0) {
		k->activity = load_usage(r->db, k) == DB_OK;
		if (!k->activity)
			snprintf(usage, sizeof(usage), "failed");
	}
	sql_reset(&q);
	/*
	 * Reviews, and what makes profile activity public: facts and activity
	 * reviews (inserted only), the set of public_all profiles and the set
	 * of active wallets (a mode change or a revocation changes either).
	 */
	sql_add(&q, "SELECT CONCAT_WS(':', (SELECT COUNT(*) FROM reviews WHERE chain_id = ?), (SELECT "
	    "IFNULL(MAX(id), 0) FROM reviews WHERE chain_id = ?), (SELECT COUNT(*) FROM profile_activity), "
	    "(SELECT IFNULL(MAX(published_at), 0) FROM profile_activity), (SELECT COUNT(*) FROM "
	    "activity_reviews), (SELECT IFNULL(MAX(published_at), 0) FROM activity_reviews), (SELECT "
	    "CONCAT(COUNT(*), '/', IFNULL(BIT_XOR(CRC32(profile_id)), 0)) FROM profiles WHERE discovery_mode = "
	    "'public_all'), (SELECT CONCAT(COUNT(*), '/', IFNULL(BIT_XOR(CRC32(link_id)), 0)) FROM "
	    "profile_wallets WHERE active_wallet IS NOT NULL))", SQL_U64(chain), SQL_U64(chain));
	if (fingerprint(r->db, &q, reviews, sizeof(reviews)) != DB_OK) {
		reorder = reorder || k->reviews_ok;
		k->reviews_ok = false;
		reviews[0] = '\0';
		reviews_drop(k, !*shared);
	} else if (reload || !k->reviews_ok || strcmp(reviews, k->reviews_fp) != 0) {
		reorder = true;
		reviews_drop(k, !*shared);
		k->reviews_ok = load_reviews(r->db, r->cfg, k) == DB_OK;
		if (!k->reviews_ok) {
			reviews[0] = '\0';
			reviews_drop(k, true);
		}
	}
	/* Out of memory while building review items: no corpus missing some. */
	if ((!latched && json_alloc_latched()) || (reorder && corpus_order(k) < 0)) {
		rc = DB_ERROR;
		goto fail;
	}
	k->loaded = true;
	k->checked_ms = now;
	memcpy(k->desc_fp, desc, sizeof(desc));
	memcpy(k->usage_fp, usage, sizeof(usage));
	memcpy(k->reviews_fp, reviews, sizeof(reviews));
	return DB_OK;
fail:
	if (*shared)
		corpus_unshare(k, cur);
	corpus_clear(k);
	*shared = false;
	return rc;
}

/*
 * Put next in place of the corpus (corpus_lock held): a partial reload
 * takes over the scratch of the corpus it shares the entries with. What
 * only the old corpus held waits in `retired` for corpus_release.
 */
static void
corpus_swap(struct corpus *next, bool shared)
{
	struct corpus old = corpus;

	if (shared) {
		next->sc = old.sc;
		corpus_unshare(&old, next);
	}
	corpus = *next;
	corpus_clear(&retired);
	retired = old;
}

/*
 * Refresh as the refresher (refresh_state.running set by this thread):
 * build without corpus_lock, then take it, swap and end the refresh. Returns
 * with corpus_lock held, as corpus_acquire does.
 */
static enum db_rc
corpus_refresh(struct req *r)
{
	struct corpus next;
	bool shared;
	enum db_rc rc = corpus_build(r, &corpus, &next, &shared);

	corpus_lock_take();
	corpus_swap(&next, shared);
	pthread_mutex_lock(&refresh_state.mu);
	refresh_state.running = false;
	refresh_state.finished++;
	refresh_state.rc = rc;
	pthread_cond_broadcast(&refresh_state.done);
	pthread_mutex_unlock(&refresh_state.mu);
	return rc;
}

enum db_rc
corpus_acquire(struct req *r, struct corpus **out)
{
	*out = &corpus;
	for (;;) {
		const struct corpus *k = &corpus;
		long long wall = (long long)time(NULL);
		bool usable, fresh;
		uint64_t seen;
		enum db_rc rc;

		corpus_lock_take();
		usable = k->loaded && k->chain_id == r->cfg->chain_id &&
		    (k->next_expiry == 0 || wall < k->next_expiry);
		fresh = usable && clock_ms() - k->checked_ms < r->cfg->discovery_check_ms;
		if (fresh)
			return DB_OK;
		pthread_mutex_lock(&refresh_state.mu);
		if (!refresh_state.running) {
			refresh_state.running = true;
			pthread_mutex_unlock(&refresh_state.mu);
			corpus_lock_give();
			return corpus_refresh(r);
		}
		if (usable) {
			/* Another thread is refreshing: answer from the corpus in place meanwhile. */
			pthread_mutex_unlock(&refresh_state.mu);
			return DB_OK;
		}
		/* Nothing to answer from until that refresh ends: wait for it, without corpus_lock. */
		seen = refresh_state.finished;
		pthread_mutex_unlock(&refresh_state.mu);
		corpus_lock_give();
		pthread_mutex_lock(&refresh_state.mu);
		while (refresh_state.running && refresh_state.finished == seen)
			pthread_cond_wait(&refresh_state.done, &refresh_state.mu);
		rc = refresh_state.rc;
		pthread_mutex_unlock(&refresh_state.mu);
		if (rc != DB_OK) {
			/* It failed: so does this request, rather than each waiter asking again. */
			corpus_lock_take();
			return rc;
		}
	}
}

void
corpus_release(void)
{
	corpus_lock_give();
	corpus_clear(&retired);
}

json_object *
corpus_copy(json_object *src)
{
	json_object *dst = NULL;

	if (json_object_deep_copy(src, &dst, NULL) == 0)
		return dst;
	/* json_object_deep_copy is not among the wrapped calls: latch here (lib/json.h). */
	json_alloc_failed();
	return NULL;
}
