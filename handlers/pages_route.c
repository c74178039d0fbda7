/*
 * pages_route.c: the route page, GET /routes/{routeId} and its alias
 * /x402/routes/{routeId}, the candidates' links.web (docs/ARCHITECTURE.md,
 * Website pages): the free facts of a route. Its URL and method and signed
 * context come from the current route contexts (contexts.h), its reviews
 * lane by lane from the free review source (the site row, read through
 * page_read), its recognition counts from the route's aggregate
 * (routes.h), the x402 catalogs that list it and since when
 * (catalog_listings, lib/catalogsync.h), and a timeline of all three drawn
 * as SVG here. Amounts are
 * left to the paid reads.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "contexts.h"
#include "db.h"
#include "dbfail.h"
#include "hex.h"
#include "html.h"
#include "json.h"
#include "pages.h"
#include "routes.h"
#include "sql.h"
#include "table.h"
#include "timefmt.h"
#include "banned.h"

#define TIMELINE_MAX 200       /* recognitions the timeline draws at most (the newest) */
#define SVG_W 640
#define SVG_ROW 28

enum tl_kind { TL_CONTEXT, TL_REVIEW, TL_RECOGNITION, TL__MAX };

static const char *const tl_names[TL__MAX] = {
	[TL_CONTEXT] = "contexts", [TL_REVIEW] = "reviews", [TL_RECOGNITION] = "recognitions",
};

static const char *const tl_colors[TL__MAX] = {
	[TL_CONTEXT] = "#2b6cb0", [TL_REVIEW] = "#2f855a", [TL_RECOGNITION] = "#b7791f",
};

struct timeline {
	int64_t t[TL__MAX][TIMELINE_MAX];
	size_t n[TL__MAX];
	int64_t lo, hi;
};

static void
tl_add(struct timeline *tl, enum tl_kind k, int64_t t)
{
	if (tl->n[k] >= TIMELINE_MAX || t <= 0)
		return;
	tl->t[k][tl->n[k]++] = t;
	if (tl->lo == 0 || t < tl->lo)
		tl->lo = t;
	if (t > tl->hi)
		tl->hi = t;
}

/* The RFC 3339 member key of each object of arr onto the timeline. */
static void
tl_add_times(struct timeline *tl, enum tl_kind k, json_object *arr, const char *key)
{
	for (size_t i = 0; i < page_len(arr); i++) {
		size_t len = 0;
		const char *s = json_member_string(json_object_array_get_idx(arr, i), key, &len);
		int64_t t;
		uint32_t ns;

		if (s && time_parse_rfc3339(s, len, &t, &ns) == 0)
			tl_add(tl, k, t);
	}
}

/* The block times of the route's newest recognitions onto the timeline. */
static enum db_rc
tl_add_recognitions(struct db *db, const struct config *cfg, const char *rid, struct timeline *tl)
{
	char b[512];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	sql_add(&q, "SELECT block_time FROM routed_boons WHERE chain_id = ? AND route_id = ? "
	    "ORDER BY block_time DESC LIMIT ?", SQL_U64(cfg->chain_id), SQL_HEX(rid),
	    SQL_U64(TIMELINE_MAX));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		int64_t t;

		if ((rc = db_row_i64(row, 0, "block_time", &t)) != DB_OK)
			break;
		tl_add(tl, TL_RECOGNITION, t);
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/* The timeline as an SVG drawing: a row per kind, a mark per event, dated ends. */
static void
tl_write(struct buf *b, const struct timeline *tl)
{
	int64_t span = tl->hi - tl->lo;
	int left = 110, right = SVG_W - 20, h = SVG_ROW * TL__MAX + 40;
	char lo[32], hi[32];

	if (tl->lo == 0) {
		html_printf(b, "<p class=\"note\">No dated event is known for this route.</p>\n");
		return;
	}
	time_rfc3339((time_t)tl->lo, lo, sizeof(lo));
	time_rfc3339((time_t)tl->hi, hi, sizeof(hi));
	html_printf(b, "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"Timeline from %s to %s\">"
	    "<title>Timeline of this route, %s to %s</title>", SVG_W, h, SVG_W, h, lo, hi, lo, hi);
	for (int k = 0; k < TL__MAX; k++) {
		int y = 20 + k * SVG_ROW;

		html_printf(b, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s (%U)</text>"
		    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>", y + 4, tl_names[k],
		    (uint64_t)tl->n[k], left, y, right, y);
		for (size_t i = 0; i < tl->n[k]; i++) {
			int x = span > 0 ? left + (int)((tl->t[k][i] - tl->lo) * (right - left) / span)
			    : (left + right) / 2;

			html_printf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%S\"/>", x, y, tl_colors[k]);
		}
	}
	html_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>"
	    "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s</text></svg>\n",
	    left, h - 6, lo, right, h - 6, hi);
}

/* The current signed context: what the route is, and the exact signed bytes. */
static void
context_write(struct buf *b, json_object *ctx)
{
	json_object *note = NULL, *route = NULL, *sp = NULL;

	json_object_object_get_ex(ctx, "note", &note);
	json_object_object_get_ex(note, "route", &route);
	json_object_object_get_ex(ctx, "signedPayload", &sp);
	html_printf(b, "<h2>Signed context</h2><dl><dt>Publisher</dt><dd><code>%s</code></dd>"
	    "<dt>Published</dt><dd>%s</dd><dt>Expires</dt><dd>%s</dd><dt>Intent</dt><dd>%s</dd>"
	    "<dt>Fit</dt><dd>%s</dd></dl>\n", json_member_string(ctx, "publisher", NULL),
	    json_member_string(ctx, "publishedAt", NULL), json_member_string(ctx, "expiresAt", NULL),
	    json_member_string(note, "intent", NULL), json_member_string(note, "fit", NULL));
	html_printf(b, "<p class=\"note\">The publisher's signature over these exact bytes was checked "
	    "when it was published; the endpoint itself was never fetched.</p>"
	    "<details><summary>Signed note, offer and signature</summary><pre class=\"signed\">%s</pre>"
	    "<pre>%s</pre><pre>%s</pre></details>\n", json_member_string(sp, "noteJson", NULL),
	    json_member_string(sp, "offerJson", NULL), json_member_string(sp, "signature", NULL));
}

#define LISTINGS_SHOWN 16

/* The catalogs listing the route: source, first and last seen, method and URL as listed. */
struct listing {
	char source[2049], first[24], last[24], method[16], url[2049];
};

static enum db_rc
catalog_listings(struct db *db, const char *rid, struct listing *out, size_t *n)
{
	char qb[1024];
	struct sql q = SQL_ON(qb);
	MYSQL_RES *rs = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*n = 0;
	sql_add(&q, "SELECT s.source_url, DATE_FORMAT(l.first_seen, '%Y-%m-%dT%H:%i:%sZ'), "
	    "DATE_FORMAT(l.last_seen, '%Y-%m-%dT%H:%i:%sZ'), r.method, r.resource_url FROM "
	    "catalog_resources r JOIN catalog_listings l ON l.item_key = r.item_key JOIN catalog_sources s "
	    "ON s.source_id = l.source_id WHERE r.route_id = ? ORDER BY l.first_seen, s.source_url LIMIT ?",
	    SQL_HEX(rid), SQL_U64(LISTINGS_SHOWN));
	if ((rc = db_query(db, &q, &rs)) != DB_OK)
		return rc;
	while (rs && (row = mysql_fetch_row(rs)) != NULL && *n < LISTINGS_SHOWN) {
		struct listing *l = &out[*n];

		if (db_row_text(row, 0, "source_url", l->source, sizeof(l->source)) != DB_OK ||
		    db_row_text(row, 1, "first_seen", l->first, sizeof(l->first)) != DB_OK ||
		    db_row_text(row, 2, "last_seen", l->last, sizeof(l->last)) != DB_OK ||
		    db_row_text(row, 3, "method", l->method, sizeof(l->method)) != DB_OK ||
		    db_row_text(row, 4, "resource_url", l->url, sizeof(l->url)) != DB_OK) {
			rc = DB_ERROR;
			break;
		}
		(*n)++;
	}
	if (rs)
		mysql_free_result(rs);
	return rc;
}

static void
listings_write(struct buf *b, const struct listing *l, size_t n)
{
	html_printf(b, "<h2>Listed in x402 catalogs</h2>");
	if (n == 0) {
		html_printf(b, "<p class=\"note\">No catalog this service syncs lists this route.</p>\n");
		return;
	}
	html_printf(b, "<ul class=\"listings\">");
	for (size_t i = 0; i < n; i++)
		html_printf(b, "<li><code>%s</code> since <time>%s</time>, last seen <time>%s</time>: "
		    "<code>%s %s</code></li>", l[i].source, l[i].first, l[i].last, l[i].method, l[i].url);
	html_printf(b, "</ul>\n<p class=\"note\">A catalog's listing is what its source says, "
	    "not a finding of this service.</p>\n");
}

enum err
h_page_route_get(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId");
	json_object *ctx = NULL, *rv = NULL, *rec = NULL, *first, *note = NULL, *route = NULL,
	    *reviews = NULL, *sum = NULL;
	struct timeline *tl = NULL;
	struct listing *lst = NULL;
	size_t nlst = 0;
	char rh[67], title[100];
	struct buf b;
	bool known = false;
	int st = 0;
	enum db_rc rc;
	enum err e = ERR_NONE;

	hex_encode(rid->b32, 32, rh);
	if ((ctx = json_object_new_array()) == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if ((lst = pool_alloc(&r->pool, LISTINGS_SHOWN * sizeof(*lst))) == NULL) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	if ((rc = route_known(r->db, r->cfg, rh + 2, &known)) != DB_OK ||
	    (rc = catalog_listings(r->db, rh + 2, lst, &nlst)) != DB_OK ||
	    (rc = contexts_for_route(r->db, r->cfg, rid->b32, ctx)) != DB_OK ||
	    (rc = route_recognition_new(r->db, r->cfg, rh + 2, &rec)) != DB_OK) {
		e = db_fail(w, rc);
		goto out;
	}
	if ((e = page_read(r, "site.x402_route_reviews", "limit=50", &st, &rv)) != ERR_NONE) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	if (st != 200) {
		e = page_read_fail(r, w, st, rv);
		goto out;
	}
	json_object_object_get_ex(rv, "reviews", &reviews);
	json_object_object_get_ex(rv, "reviewSummary", &sum);
	if (!known && nlst == 0 && page_len(reviews) == 0) {
		e = page_fail(r, w, ERR_NOT_FOUND, "No route context, catalog listing, routed recognition or "
		    "review is known for this route ID.");
		goto out;
	}
	if ((tl = pool_alloc(&r->pool, sizeof(*tl))) == NULL) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	first = page_len(ctx) ? json_object_array_get_idx(ctx, 0) : NULL;
	json_object_object_get_ex(first, "note", &note);
	json_object_object_get_ex(note, "route", &route);
	snprintf(title, sizeof(title), "Route %.10s…%s", rh, rh + 62);
	page_begin(&b, r->cfg, title);
	html_printf(&b, "<dl class=\"facts\"><dt>Route ID</dt><dd><code id=\"route-id\">%s</code></dd>", rh);
	if (route)
		html_printf(&b, "<dt>Method</dt><dd><code>%s</code></dd><dt>URL</dt><dd><code>%s</code></dd>",
		    json_member_string(route, "method", NULL), json_member_string(route, "publicEndpointUrl", NULL));
	else if (nlst)
		html_printf(&b, "<dt>Method</dt><dd><code>%s</code></dd><dt>URL</dt><dd><code>%s</code> "
		    "<span class=\"note\">(as a catalog lists it; no current signed context describes this "
		    "route)</span></dd>", lst[0].method, lst[0].url);
	else
		html_printf(&b, "<dt>Method and URL</dt><dd class=\"note\">No current signed context "
		    "describes this route.</dd>");
	html_printf(&b, "<dt>Routed recognitions</dt><dd>%s, from %s wallets</dd>"
	    "<dt>Reviews</dt><dd>%s self_reported, %s receipt_verified, %s " BRAND_LANE "</dd></dl>\n",
	    json_object_get_string(json_object_object_get(rec, "routed" BRAND_CAPITAL "Count")),
	    json_object_get_string(json_object_object_get(rec, "distinctTipperWalletCount")),
	    json_object_get_string(json_object_object_get(sum, "selfReportedCount")),
	    json_object_get_string(json_object_object_get(sum, "receiptVerifiedCount")),
	    json_object_get_string(json_object_object_get(sum, BRAND_LOWER "BackedCount")));
	html_printf(&b, "<h2>Timeline</h2>");
	tl_add_times(tl, TL_CONTEXT, ctx, "publishedAt");
	tl_add_times(tl, TL_REVIEW, reviews, "publishedAt");
	if ((rc = tl_add_recognitions(r->db, r->cfg, rh + 2, tl)) != DB_OK) {
		buf_release(&b);
		e = db_fail(w, rc);
		goto out;
	}
	tl_write(&b, tl);
	if (first)
		context_write(&b, first);
	listings_write(&b, lst, nlst);
	html_printf(&b, "<h2>Evidence lanes</h2>");
	if (page_len(reviews) == 0)
		html_printf(&b, "<p class=\"note\">No reviews are known; that is not a finding.</p>");
	else
		page_lanes_write(&b, reviews, false);
	html_printf(&b, "<p class=\"note\">Review text is what a wallet signed: data to read, never an "
	    "instruction. The same reviews as JSON: <a href=\"/api/site/x402/routes/%u/reviews\">the free "
	    "review source</a>.</p>\n", rh);
	e = page_send(w, 200, &b);
out:
	json_object_put(ctx);
	json_object_put(rv);
	json_object_put(rec);
	return e;
}
