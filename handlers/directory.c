/*
 * directory.c: the paid route directory (docs/PROTOCOL.md, Paid reads):
 *
 *   GET /api/v1/x402/routes?sort=reviewed|recent&context=with|all|raw&limit=1..50&cursor&q
 *       &origin=https://host&method=GET|POST|...&recognizer=0x..
 *     {version "1", contract, routes [{routeId, method|null,
 *      publicEndpointUrl|null, recognition, reviewSummary, links}],
 *      globalStats {routeCount, routedBoonCount, totalRecognitionUsdc,
 *      boonBurned}, pagination {hasMore, nextCursor}, interpretation
 *      {sorting, notProofOf []}}
 *
 * The directory holds every route with indexed recognitions or a current
 * context. context=with keeps the routes with a current context (its
 * method and URL recomputed to the route ID when it was published), raw
 * the others (hash-only), all both. sort=reviewed orders by boon_backed
 * review count, distinct boon_backed reviewers, USDC total, latest
 * recognition block (all descending), then route ID ascending;
 * sort=recent by latest recognition block, then route ID. The filters q,
 * origin, method and recognizer are those of directory.h; the selection
 * (routes_select) is shared with the graph read (graph.c). The cursor
 * carries the sort, the context, a tag of the filters and the last
 * route's key (keyset paging: a stable dataset gives every route exactly
 * once); the gatekeeper refuses one shown with another sort, context or
 * filters before any payment is asked.
 *
 * Entries use the shapes of the single-route reads (routes.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brand.h"
#include "buf.h"
#include "cursor.h"
#include "dbfail.h"
#include "directory.h"
#include "hex.h"
#include "keccak.h"
#include "reviews.h"
#include "routes.h"
#include "sql.h"
#include "table.h"
#include "url.h"
#include "banned.h"

const char *const route_sort_names[SORT__MAX + 1] = {
	[SORT_REVIEWED] = "reviewed", [SORT_RECENT] = "recent", [SORT__MAX] = NULL,
};
const char *const route_context_names[CTX__MAX + 1] = {
	[CTX_WITH] = "with", [CTX_ALL] = "all", [CTX_RAW] = "raw", [CTX__MAX] = NULL,
};
const char *const route_method_names[] = {
	"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", NULL,
};

enum err
route_filter_from_req(struct req *r, struct resp *w, struct route_filter *f)
{
	static _Thread_local struct url u;  /* large: one per thread, off the stack */
	const struct value *qv = req_val(r, "q"), *ov = req_val(r, "origin");
	const struct value *mv = req_val(r, "method"), *rv = req_val(r, "recognizer");
	uint8_t h[32];
	struct keccak_ctx k;
	char a[ADDR_TEXT_LEN + 1];

	memset(f, 0, sizeof(*f));
	f->sort = req_val(r, "sort")->choice;
	f->ctx = req_val(r, "context")->choice;
	f->q = qv ? qv->text : "";
	f->qlen = qv ? qv->len : 0;
	if (ov != NULL) {
		enum url_err ue = url_parse(ov->text, ov->len, &u);

		if (ue != URL_OK)
			return resp_fail(w, ERR_INVALID_FIELD, "origin",
			    "Field origin must be an https origin such as https://api.example.com: %s",
			    url_strerror(ue));
		if (strcmp(u.path, "/") != 0 || u.has_query || u.has_fragment ||
		    (f->origin = pool_strndup(&r->pool, u.origin, u.origin_len)) == NULL)
			return resp_fail(w, ERR_INVALID_FIELD, "origin",
			    "Field origin must be an https origin such as https://api.example.com, with "
			    "no path, query or fragment.");
	}
	if (mv != NULL)
		f->method = route_method_names[mv->choice];
	if (rv != NULL) {
		f->has_recognizer = true;
		f->recognizer = rv->addr;
	}
	/* The tag: keccak256 of the four filters, each followed by a NUL. */
	keccak_init(&k);
	keccak_update(&k, f->q, f->qlen);
	keccak_update(&k, "", 1);
	if (f->origin)
		keccak_update(&k, f->origin, strlen(f->origin));
	keccak_update(&k, "", 1);
	if (f->method)
		keccak_update(&k, f->method, strlen(f->method));
	keccak_update(&k, "", 1);
	if (f->has_recognizer)
		keccak_update(&k, addr_format_lower(&f->recognizer, a), ADDR_TEXT_LEN);
	keccak_update(&k, "", 1);
	keccak_final(&k, h);
	hex_encode(h, 8, a);
	memcpy(f->tag, a + 2, 17);
	return ERR_NONE;
}

enum err
h_routes_check(struct req *r, struct resp *w)
{
	const struct value *cv = req_val(r, "cursor");
	struct route_filter f;
	struct cursor c;
	enum err e;

	if ((e = route_filter_from_req(r, w, &f)) != ERR_NONE)
		return e;
	if (cv == NULL)
		return ERR_NONE;
	if (cursor_parse(cv->text, SORT__MAX, CTX__MAX, &c) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "cursor",
		    "The cursor is not one this service issued; start again without it.");
	if (c.sort != f.sort || c.ctx != f.ctx)
		return resp_fail(w, ERR_INVALID_FIELD, "cursor",
		    "The cursor was issued for sort=%s and context=%s; keep them while following it.",
		    route_sort_names[c.sort], route_context_names[c.ctx]);
	if (strcmp(c.tag, f.tag) != 0)
		return resp_fail(w, ERR_INVALID_FIELD, "cursor",
		    "The cursor was issued for other filters (q, origin, method, recognizer); keep them "
		    "while following it.");
	return ERR_NONE;
}

/* A current context of the route d.route_id (u.route_id, p.route_id); one placeholder: the chain. */
#define CTX_NOW_D "c.chain_id = ? AND c.route_id = d.route_id AND c.note_expires_at > UNIX_TIMESTAMP()"
#define CTX_NOW_P "c.chain_id = ? AND c.route_id = p.route_id AND c.note_expires_at > UNIX_TIMESTAMP()"
#define CTX_NOW_U "c.chain_id = ? AND c.route_id = u.route_id AND c.note_expires_at > UNIX_TIMESTAMP()"

/* The directory query for one page into q (bad when it does not fit). */
static void
routes_query(uint64_t cid, struct sql *q, const struct route_filter *f, const struct cursor *c,
    uint64_t limit)
{
	const struct sqlv id = SQL_U64(cid);
	int sort = f->sort;

	/*
	 * The page is chosen and ordered in p, from figures alone; only its
	 * rows then read their current context's method and URL. (Read for
	 * every route before the sort, the URL, a TEXT, also sent the sort
	 * through an on-disk temporary table.)
	 */
	sql_add(q, "SELECT LOWER(HEX(p.route_id)), p.bb, p.bbr, p.tu, p.lb, "
	    "(SELECT c.method FROM route_contexts c WHERE " CTX_NOW_P " ORDER BY c.published_at DESC, "
	    "c.publisher LIMIT 1), (SELECT c.public_endpoint_url FROM route_contexts c WHERE " CTX_NOW_P
	    " ORDER BY c.published_at DESC, c.publisher LIMIT 1) FROM (SELECT d.route_id, d.bb, d.bbr, d.tu, d.lb "
	    "FROM (SELECT u.route_id, COALESCE(v.bb, 0) bb, "
	    "COALESCE(v.bbr, 0) bbr, COALESCE(s.total_usdc, 0) tu, COALESCE(s.latest_block_number, 0) lb, "
	    "EXISTS(SELECT 1 FROM route_contexts c WHERE " CTX_NOW_U ") hc FROM (SELECT route_id FROM "
	    "route_recognition_stats WHERE chain_id = ? UNION SELECT route_id FROM route_contexts "
	    "WHERE chain_id = ? AND note_expires_at > UNIX_TIMESTAMP()) u "
	    "LEFT JOIN route_recognition_stats s ON s.chain_id = ? AND s.route_id = u.route_id "
	    "LEFT JOIN (SELECT route_id, COUNT(*) bb, COUNT(DISTINCT reviewer) bbr FROM reviews WHERE "
	    "chain_id = ? AND lane = '" BRAND_LANE "' GROUP BY route_id) v ON v.route_id = u.route_id"
	    ") d WHERE 1", id, id, id, id, id, id, id);
	if (f->ctx == CTX_WITH)
		sql_add(q, " AND d.hc");
	else if (f->ctx == CTX_RAW)
		sql_add(q, " AND NOT d.hc");
	if (f->qlen > 0)
		sql_add(q, " AND EXISTS(SELECT 1 FROM route_contexts c WHERE " CTX_NOW_D
		    " AND (LOWER(c.public_endpoint_url) LIKE LOWER(?) OR LOWER(c.intent) LIKE LOWER(?)))", id,
		    SQL_LIKE_CONTAINS(f->q, f->qlen), SQL_LIKE_CONTAINS(f->q, f->qlen));
	if (f->origin != NULL) {
		if (strlen(f->origin) > 2100)
			q->bad = true;
		sql_add(q, " AND EXISTS(SELECT 1 FROM route_contexts c WHERE " CTX_NOW_D " AND c.origin = ?)", id,
		    SQL_TEXT(f->origin));
	}
	if (f->method != NULL)
		sql_add(q, " AND EXISTS(SELECT 1 FROM route_contexts c WHERE " CTX_NOW_D " AND c.method = ?)", id,
		    SQL_TEXT(f->method));
	if (f->has_recognizer)
		sql_add(q, " AND EXISTS(SELECT 1 FROM routed_boons rb WHERE rb.chain_id = ? "
		    "AND rb.route_id = d.route_id AND rb.tipper = ?)", id, SQL_BYTES(f->recognizer.b, ADDR_LEN));
	if (c != NULL && sort == SORT_REVIEWED)
		sql_add(q, " AND (d.bb < ? OR (d.bb = ? AND (d.bbr < ? OR (d.bbr = ? AND (d.tu < ? OR (d.tu = ? "
		    "AND (d.lb < ? OR (d.lb = ? AND d.route_id > ?))))))))", SQL_U64(c->bb), SQL_U64(c->bb),
		    SQL_U64(c->bbr), SQL_U64(c->bbr), SQL_DEC(c->usdc), SQL_DEC(c->usdc), SQL_U64(c->block),
		    SQL_U64(c->block), SQL_HEX(c->rid));
	else if (c != NULL)
		sql_add(q, " AND (d.lb < ? OR (d.lb = ? AND d.route_id > ?))", SQL_U64(c->block),
		    SQL_U64(c->block), SQL_HEX(c->rid));
	if (sort == SORT_REVIEWED)
		sql_add(q, " ORDER BY d.bb DESC, d.bbr DESC, d.tu DESC, d.lb DESC, d.route_id ASC LIMIT ?) p "
		    "ORDER BY p.bb DESC, p.bbr DESC, p.tu DESC, p.lb DESC, p.route_id ASC", SQL_U64(limit + 1));
	else
		sql_add(q, " ORDER BY d.lb DESC, d.route_id ASC LIMIT ?) p ORDER BY p.lb DESC, p.route_id ASC",
		    SQL_U64(limit + 1));
}

/* globalStats{} of the configured chain into *out. */
static enum db_rc
global_stats_new(struct db *db, const struct config *cfg, json_object **out)
{
	char b[1024];
	struct sql q = SQL_ON(b);
	const struct sqlv id = SQL_U64(cfg->chain_id);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row = NULL;
	json_object *o;
	int64_t routes = 0, routed = 0;
	enum db_rc rc;

	sql_add(&q, "SELECT (SELECT COUNT(*) FROM (SELECT route_id FROM route_recognition_stats "
	    "WHERE chain_id = ? UNION SELECT route_id FROM route_contexts WHERE chain_id = ? "
	    "AND note_expires_at > UNIX_TIMESTAMP()) u), COALESCE(SUM(recognition_count), 0), "
	    "COALESCE(SUM(total_usdc), 0), COALESCE(SUM(boon_burned), 0) FROM route_recognition_stats "
	    "WHERE chain_id = ?", id, id, id);
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res)
		row = mysql_fetch_row(res);
	if (row != NULL && (db_row_i64(row, 0, "routeCount", &routes) != DB_OK ||
	    db_row_i64(row, 1, "routed" BRAND_CAPITAL "Count", &routed) != DB_OK)) {
		mysql_free_result(res);
		return DB_ERROR;
	}
	o = json_object_new_object();
	json_object_object_add(o, "routeCount", json_object_new_int64(routes));
	json_object_object_add(o, "routed" BRAND_CAPITAL "Count", json_object_new_int64(routed));
	json_object_object_add(o, "totalRecognitionUsdc", route_dec_new(row ? row[2] : NULL));
	json_object_object_add(o, BRAND_LOWER "Burned", route_dec_new(row ? row[3] : NULL));
	if (res)
		mysql_free_result(res);
	*out = o;
	return DB_OK;
}

/* One routes[] entry from a row of the directory query. */
static enum db_rc
route_entry_new(struct db *db, const struct config *cfg, MYSQL_ROW row, json_object **out)
{
	char h[67], url[CONFIG_STR_MAX + 160];
	json_object *o, *rec = NULL, *sum = NULL, *links;
	enum db_rc rc;

	if ((rc = route_recognition_new(db, cfg, row[0], &rec)) != DB_OK)
		return rc;
	if ((rc = review_summary(db, cfg, row[0], &sum)) != DB_OK) {
		json_object_put(rec);
		return rc;
	}
	snprintf(h, sizeof(h), "0x%s", row[0]);
	o = json_object_new_object();
	json_object_object_add(o, "routeId", json_object_new_string(h));
	json_object_object_add(o, "method", row[5] ? json_object_new_string(row[5]) : NULL);
	json_object_object_add(o, "publicEndpointUrl", row[6] ? json_object_new_string(row[6]) : NULL);
	json_object_object_add(o, "recognition", rec);
	json_object_object_add(o, "reviewSummary", sum);
	links = json_object_new_object();
	snprintf(url, sizeof(url), "%s/api/v1/x402/routes/%s", cfg->public_base_url, h);
	json_object_object_add(links, "route", json_object_new_string(url));
	snprintf(url, sizeof(url), "%s/api/v1/x402/routes/%s/recognitions", cfg->public_base_url, h);
	json_object_object_add(links, "recognitions", json_object_new_string(url));
	snprintf(url, sizeof(url), "%s/api/v1/x402/routes/%s/reviews", cfg->public_base_url, h);
	json_object_object_add(links, "reviews", json_object_new_string(url));
	json_object_object_add(o, "links", links);
	*out = o;
	return DB_OK;
}

static json_object *
routes_interpretation_new(int sort)
{
	static const char *const not_proof[] = { "response quality", "the endpoint's current price",
	    "the endpoint's availability", "the identity of the endpoint operator", "a ranking or score",
	    NULL };
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "sorting", json_object_new_string(sort == SORT_REVIEWED ?
	    "reviewed: " BRAND_LANE " review count, then distinct " BRAND_LANE " reviewers, then USDC "
	    "recognition, then the latest recognition, newest first, then route ID" :
	    "recent: the latest recorded routed recognition, newest first, then route ID"));
	for (int i = 0; not_proof[i]; i++)
		json_object_array_add(a, json_object_new_string(not_proof[i]));
	json_object_object_add(o, "notProofOf", a);
	return o;
}

enum db_rc
routes_select(struct req *r, const struct route_filter *f, const char *cursor, uint64_t limit,
    json_object *out_array, bool *more, char next[ROUTES_CURSOR_MAX])
{
	struct cursor c, *cp = NULL;
	char b[16 * 1024];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row, last = NULL;
	json_object *ent;
	uint64_t n = 0;
	enum db_rc rc = DB_OK;

	*more = false;
	next[0] = '\0';
	if (cursor != NULL) {
		if (cursor_parse(cursor, SORT__MAX, CTX__MAX, &c) < 0)
			return DB_ERROR;
		cp = &c;
	}
	routes_query(r->cfg->chain_id, &q, f, cp, limit);
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		goto out;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		if (n == limit) {
			*more = true;
			break;
		}
		if ((rc = route_entry_new(r->db, r->cfg, row, &ent)) != DB_OK)
			goto out;
		json_object_array_add(out_array, ent);
		last = row;
		n++;
	}
	if (*more && last != NULL)
		/* The form cursor_parse reads (lib/cursor.h); the row gives the digits. */
		snprintf(next, ROUTES_CURSOR_MAX, "c2.%d.%d.%s.%s.%s.%s.%s.%s", f->sort, f->ctx, f->tag,
		    last[1], last[2], last[3], last[4], last[0]);
out:
	if (res)
		mysql_free_result(res);
	return rc;
}

enum err
h_routes_get(struct req *r, struct resp *w)
{
	const struct value *cv = req_val(r, "cursor");
	uint64_t limit = req_val(r, "limit")->u;
	const struct config *cfg = r->cfg;
	struct route_filter f;
	json_object *o = NULL, *list, *gs = NULL, *pg;
	char next[ROUTES_CURSOR_MAX];
	bool more = false;
	enum db_rc rc;
	enum err e;

	if ((e = route_filter_from_req(r, w, &f)) != ERR_NONE)
		return e;
	list = json_object_new_array();
	if ((rc = routes_select(r, &f, cv ? cv->text : NULL, limit, list, &more, next)) != DB_OK ||
	    (rc = global_stats_new(r->db, cfg, &gs)) != DB_OK) {
		json_object_put(list);
		return db_fail(w, rc);
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(ROUTE_VERSION));
	json_object_object_add(o, "contract", route_contract_new(cfg));
	json_object_object_add(o, "routes", list);
	json_object_object_add(o, "globalStats", gs);
	pg = json_object_new_object();
	json_object_object_add(pg, "hasMore", json_object_new_boolean(more));
	json_object_object_add(pg, "nextCursor", more ? json_object_new_string(next) : NULL);
	json_object_object_add(o, "pagination", pg);
	json_object_object_add(o, "interpretation", routes_interpretation_new(f.sort));
	return route_answer(w, o);
}

