/*
 * discovery.c: GET /api/v1/x402/discovery (spec 2.1-2.3, DESIGN.md
 * "Discovery decisions"). Free and read-only: candidate endpoints for a
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
 * recognition amounts never rank. Until reviews are published (a later
 * release), review counts are zero, each candidate's reviews are empty and
 * coverage.reviews.available is false; with `reviewer`, no route qualifies.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "config.h"
#include "db.h"
#include "discovery.h"
#include "hex.h"
#include "route.h"
#include "table.h"
#include "timefmt.h"
#include "url.h"
#include "banned.h"

#define TERMS_MAX 8
#define TERM_MAX 100
#define ROWS_MAX 5000

enum field_id { F_TITLE, F_SUMMARY, F_CONTEXT, F_URL, F__MAX };

static const char *const field_names[F__MAX] = {
	[F_TITLE] = "title", [F_SUMMARY] = "summary", [F_CONTEXT] = "signed route context",
	[F_URL] = "URL",
};
static const int field_weight[F__MAX] = { [F_TITLE] = 3, [F_SUMMARY] = 2, [F_CONTEXT] = 2, [F_URL] = 1 };

struct cand {
	uint8_t route_id[32];
	char method[16];
	char url[2049];
	char title[4 * 160 + 1];
	char summary[4 * 1000 + 1];
	char *context;              /* signed context text (intent, fit, limits), malloc */
	bool from_context, from_catalog;
	char price_usdc[100];
	char checked_at[32];
	long long created;          /* the context note's createdAt (newest describes) */
	int relevance;
	unsigned matched[F__MAX];   /* bit per term */
	uint64_t uses, wallets;
};

struct terms {
	size_t n;
	char t[TERMS_MAX][TERM_MAX + 1];   /* lowercase */
};

static void
split_terms(const char *q, struct terms *tm)
{
	tm->n = 0;
	while (*q && tm->n < TERMS_MAX) {
		size_t k = 0;

		while (*q == ' ' || *q == '\t')
			q++;
		while (*q && *q != ' ' && *q != '\t') {
			if (k < TERM_MAX)
				tm->t[tm->n][k++] = (char)tolower((unsigned char)*q);
			q++;
		}
		tm->t[tm->n][k] = '\0';
		if (k > 0) {
			bool dup = false;

			for (size_t i = 0; i < tm->n; i++)
				dup |= strcmp(tm->t[i], tm->t[tm->n]) == 0;
			if (!dup)
				tm->n++;
		}
	}
}

/* ASCII case-insensitive substring test (UTF-8 bytes compared as is). */
static bool
contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (hay == NULL || n == 0)
		return false;
	for (const char *p = hay; *p; p++) {
		size_t i = 0;

		while (i < n && p[i] && tolower((unsigned char)p[i]) == (unsigned char)needle[i])
			i++;
		if (i == n)
			return true;
	}
	return false;
}

/* Cut to at most max characters at a UTF-8 boundary. */
static void
copy_chars(char *dst, size_t cap, const char *src, size_t max)
{
	size_t j = 0, chars = 0;

	for (size_t i = 0; src[i] && chars < max; chars++) {
		size_t k = 1;

		while (src[i + k] && ((unsigned char)src[i + k] & 0xc0) == 0x80)
			k++;
		if (j + k >= cap)
			break;
		memcpy(dst + j, src + i, k);
		j += k;
		i += k;
	}
	dst[j] = '\0';
}

static int
cand_cmp_route(const void *a, const void *b)
{
	return memcmp(((const struct cand *)a)->route_id, ((const struct cand *)b)->route_id, 32);
}

static int
cand_cmp_rank(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->relevance != y->relevance)
		return y->relevance - x->relevance;
	/* boon_backed review counts and reviewers: zero until reviews exist. */
	return memcmp(x->route_id, y->route_id, 32);
}

/* LIKE filter over `col` for any term: " AND (col LIKE '%t1%' OR ...)". */
static void
add_filter(struct buf *b, struct db *d, const struct terms *tm, const char *col)
{
	if (tm->n == 0)
		return;
	buf_adds(b, " AND (");
	for (size_t i = 0; i < tm->n; i++) {
		char esc1[2 * TERM_MAX + 1], esc2[4 * TERM_MAX + 3];
		size_t j = 0;

		for (const char *p = tm->t[i]; *p; p++) {
			if (*p == '%' || *p == '_' || *p == '\\')
				esc1[j++] = '\\';
			esc1[j++] = *p;
		}
		esc1[j] = '\0';
		if (db_escape(d, esc1, j, esc2, sizeof(esc2)) < 0)
			esc2[0] = '\0';
		buf_printf(b, "%s%s LIKE '%%%s%%'", i ? " OR " : "", col, esc2);
	}
	buf_adds(b, ")");
}

/* Append rows of one source into *cands. */
static enum db_rc
load(struct req *r, const char *sql, bool context, struct cand **cands, size_t *n, size_t *cap)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc = db_query(r->db, sql, &res);

	if (rc != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL && *n < ROWS_MAX) {
		unsigned long *len = mysql_fetch_lengths(res);
		struct cand *c;

		if (len[0] != 32)
			continue;
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct cand *nc = realloc(*cands, ncap * sizeof(*nc));

			if (nc == NULL) {
				rc = DB_ERROR;
				break;
			}
			*cands = nc;
			*cap = ncap;
		}
		c = &(*cands)[(*n)++];
		memset(c, 0, sizeof(*c));
		memcpy(c->route_id, row[0], 32);
		snprintf(c->method, sizeof(c->method), "%s", row[1] ? row[1] : "");
		snprintf(c->url, sizeof(c->url), "%s", row[2] ? row[2] : "");
		copy_chars(c->title, sizeof(c->title), row[3] ? row[3] : "", 160);
		copy_chars(c->summary, sizeof(c->summary), row[4] ? row[4] : "", 1000);
		if (context) {
			c->from_context = true;
			c->context = strdup(row[5] ? row[5] : "");
		} else {
			c->from_catalog = true;
			snprintf(c->price_usdc, sizeof(c->price_usdc), "%s", row[5] ? row[5] : "");
		}
		snprintf(c->checked_at, sizeof(c->checked_at), "%s", row[6] ? row[6] : "");
		c->created = context && row[7] ? strtoll(row[7], NULL, 10) : 0;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/*
 * Merge rows of the same route: the context (signed by a participant)
 * describes the route first; a catalog listing adds its price.
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
			if (c[i].from_catalog && !last->price_usdc[0]) {
				memcpy(last->price_usdc, c[i].price_usdc, sizeof(last->price_usdc));
				memcpy(last->checked_at, c[i].checked_at, sizeof(last->checked_at));
				last->from_catalog = true;
			}
			if (c[i].from_context && (!last->from_context || c[i].created > last->created)) {
				/* the newest context describes the route; a catalog listing only adds a price */
				char price[sizeof(last->price_usdc)], checked[sizeof(last->checked_at)];
				bool cat = last->from_catalog;

				memcpy(price, last->price_usdc, sizeof(price));
				memcpy(checked, last->checked_at, sizeof(checked));
				free(last->context);
				*last = c[i];
				c[i].context = NULL;
				if (cat && !last->price_usdc[0]) {
					memcpy(last->price_usdc, price, sizeof(price));
					memcpy(last->checked_at, checked, sizeof(checked));
					last->from_catalog = true;
				}
			}
			free(c[i].context);
			continue;
		}
		if (m != i)
			c[m] = c[i];
		m++;
	}
	return m;
}

/* The route URL recomputes to the route ID, and passes the public policy. */
static bool
verified(struct cand *c)
{
	static struct route_parts parts;
	uint8_t id[32];

	if (route_id(c->method, strlen(c->method), c->url, strlen(c->url), id, &parts) != ROUTE_OK ||
	    memcmp(id, c->route_id, 32) != 0)
		return false;
	if (parts.url.origin_len + parts.url.path_len >= sizeof(c->url) ||
	    strlen(parts.method) >= sizeof(c->method))
		return false;
	memcpy(c->url, parts.url.origin, parts.url.origin_len);
	memcpy(c->url + parts.url.origin_len, parts.url.path, parts.url.path_len + 1);
	memcpy(c->method, parts.method, strlen(parts.method) + 1);
	return url_check_public(c->url, strlen(c->url), URL_EXACT, NULL) == URL_OK &&
	    c->title[0] && c->summary[0];
}

static void
score(struct cand *c, const struct terms *tm)
{
	const char *text[F__MAX] = { c->title, c->summary, c->context, c->url };

	c->relevance = 0;
	for (size_t i = 0; i < tm->n; i++)
		for (int f = 0; f < F__MAX; f++)
			if (contains(text[f], tm->t[i])) {
				c->matched[f] |= 1u << i;
				c->relevance += field_weight[f];
			}
}

static json_object *
match_reasons(const struct cand *c, const struct terms *tm)
{
	json_object *a = json_object_new_array();
	char line[512];

	if (tm->n == 0) {
		json_object_array_add(a, json_object_new_string(
		    "No query was given: every described route qualifies; ordered by boon_backed "
		    "review evidence, then route ID."));
	}
	for (int f = 0; f < F__MAX; f++) {
		size_t off = 0;

		if (!c->matched[f])
			continue;
		off = (size_t)snprintf(line, sizeof(line), "The query term%s ", 
		    __builtin_popcount(c->matched[f]) > 1 ? "s" : "");
		for (size_t i = 0, k = 0; i < tm->n && off < sizeof(line); i++)
			if (c->matched[f] & (1u << i))
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

static enum db_rc
load_usage(struct req *r, struct cand *c, size_t n)
{
	struct buf q;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	if (n == 0)
		return DB_OK;
	buf_init(&q, 64 * 1024);
	buf_printf(&q, "SELECT route_id, recognition_count, tipper_count FROM route_recognition_stats "
	    "WHERE chain_id = %" PRIu64 " AND route_id IN (", r->cfg->chain_id);
	for (size_t i = 0; i < n; i++) {
		char h[67];

		buf_printf(&q, "%sX'%s'", i ? "," : "", hex_encode(c[i].route_id, 32, h) + 2);
	}
	buf_adds(&q, ")");
	rc = db_query(r->db, buf_str(&q), &res);
	buf_release(&q);
	while (rc == DB_OK && res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);

		for (size_t i = 0; i < n && len[0] == 32; i++)
			if (memcmp(c[i].route_id, row[0], 32) == 0) {
				c[i].uses = strtoull(row[1], NULL, 10);
				c[i].wallets = strtoull(row[2], NULL, 10);
			}
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

static json_object *
candidate_json(const struct config *cfg, const struct cand *c, const struct terms *tm)
{
	json_object *o = json_object_new_object(), *usage, *price, *inv, *links;
	char rid[67], path[128];

	hex_encode(c->route_id, 32, rid);
	json_object_object_add(o, "routeId", json_object_new_string(rid));
	json_object_object_add(o, "title", json_object_new_string(c->title));
	json_object_object_add(o, "url", json_object_new_string(c->url));
	json_object_object_add(o, "method", json_object_new_string(c->method));
	json_object_object_add(o, "summary", json_object_new_string(c->summary));
	json_object_object_add(o, "matchReasons", match_reasons(c, tm));
	json_object_object_add(o, "reviews", json_object_new_array());
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

enum err
discovery_snapshot(struct req *r, struct resp *w, const char *q, uint64_t limit,
    const struct addr *reviewer, json_object **out)
{
	struct terms tm;
	struct buf sql;
	struct cand *c = NULL;
	size_t n = 0, cap = 0, kept = 0;
	uint64_t indexed = 0;
	bool found;
	char now[32];
	json_object *o, *query, *arr;
	enum db_rc rc;

	*out = NULL;
	split_terms(q, &tm);
	buf_init(&sql, 256 * 1024);
	buf_printf(&sql, "SELECT route_id, method, public_endpoint_url, "
	    "CONCAT(method, ' ', SUBSTRING(public_endpoint_url, 9)), CONCAT(intent, ' ', fit), "
	    "CONCAT_WS(' ', intent, fit, limits_text), DATE_FORMAT(published_at, '%%Y-%%m-%%dT%%H:%%i:%%sZ'), "
	    "note_created_at FROM route_contexts WHERE chain_id = %" PRIu64 " AND note_expires_at > UNIX_TIMESTAMP()",
	    r->cfg->chain_id);
	add_filter(&sql, r->db, &tm, "LOWER(CONVERT(CONCAT_WS(' ', method, public_endpoint_url, intent, fit, limits_text) USING utf8mb4))");
	/*
	 * Without q the ranking is by route ID alone (until review evidence
	 * exists), so each source needs only its lowest route IDs; with q at
	 * most ROWS_MAX matching rows per source are ranked.
	 */
	buf_printf(&sql, " ORDER BY route_id LIMIT %" PRIu64, tm.n ? (uint64_t)ROWS_MAX : limit * 10 + 50);
	rc = db_query_u64(r->db, "SELECT COUNT(*) FROM indexer_checkpoints", &indexed, &found);
	if (rc == DB_OK)
		rc = load(r, buf_str(&sql), true, &c, &n, &cap);
	buf_reset(&sql);
	buf_printf(&sql, "SELECT route_id, method, resource_url, service_name, description, price_usdc, "
	    "DATE_FORMAT(synced_at, '%%Y-%%m-%%dT%%H:%%i:%%sZ') FROM catalog_resources "
	    "WHERE route_id IS NOT NULL");
	add_filter(&sql, r->db, &tm, "search_text");
	buf_printf(&sql, " ORDER BY route_id LIMIT %" PRIu64, tm.n ? (uint64_t)ROWS_MAX : limit * 10 + 50);
	if (rc == DB_OK)
		rc = load(r, buf_str(&sql), false, &c, &n, &cap);
	buf_release(&sql);
	if (rc != DB_OK) {
		for (size_t i = 0; i < n; i++)
			free(c[i].context);
		free(c);
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
		    "Discovery cannot answer while the database is unavailable; this is not an empty result.");
	}
	n = merge(c, n);
	/* Rank every matching route, then verify in rank order until limit
	 * candidates recompute to their route IDs (only those are shown). */
	for (size_t i = 0; i < n; i++) {
		if (reviewer != NULL) {
			/* reviewer: no route has reviews before the review lanes exist */
			free(c[i].context);
			continue;
		}
		score(&c[i], &tm);
		if (tm.n > 0 && c[i].relevance == 0) {
			free(c[i].context);
			continue;
		}
		c[kept++] = c[i];
	}
	if (kept > 0)
		qsort(c, kept, sizeof(*c), cand_cmp_rank);
	{
		size_t shown = 0;

		for (size_t i = 0; i < kept; i++) {
			if (shown < limit && verified(&c[i]))
				c[shown++] = c[i];
			else
				free(c[i].context);
		}
		kept = shown;
	}
	if (load_usage(r, c, kept) != DB_OK) {
		for (size_t i = 0; i < kept; i++)
			free(c[i].context);
		free(c);
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string("1"));
	json_object_object_add(o, "generatedAt", json_object_new_string(time_rfc3339(time(NULL), now, sizeof(now))));
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
	arr = json_object_new_array();
	for (size_t i = 0; i < kept; i++) {
		json_object_array_add(arr, candidate_json(r->cfg, &c[i], &tm));
		free(c[i].context);
	}
	free(c);
	json_object_object_add(o, "candidates", arr);
	json_object_object_add(o, "coverage", coverage(true, false, indexed > 0));
	*out = o;
	return ERR_NONE;
}

static void
json_release(void *o)
{
	json_object_put(o);
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
	pool_defer(&r->pool, json_release, o);
	return resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
