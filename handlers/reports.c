/*
 * reports.c: the paid report resources (docs/PROTOCOL.md, Reports), each $0.01
 * through the gatekeeper's x402 step (the handler runs after /verify;
 * settlement follows only an answer below 400):
 *
 *   POST /api/v1/x402/reports/compare {q?, limit?, reviewer?}
 *     {version "1", report "compare", generatedAt, query {q, limit, reviewer},
 *      columns [{key, description}], rows [{position, routeId, title, method,
 *      url, facts {<one member per column>}}], coverage, interpretation}
 *   POST /api/v1/x402/reports/changes {baseline, q?, limit?, reviewer?}
 *     {version "1", report "changes", generatedAt, baselineGeneratedAt,
 *      query, added [entry], removed [entry], changed [{routeId, position,
 *      changes [{field, old, new}]}], unchangedCount, coverage,
 *      interpretation}; entry = {routeId, position, title, method, url}
 *   POST /api/v1/x402/reports/export {report, q?, limit?, reviewer?, baseline?}
 *     {version "1", report, generatedAt, request {report, q, limit,
 *      reviewer}, content, contentDigest "sha256:<64 hex>", interpretation}
 *
 * Candidates are always those of the free discovery snapshot for the same
 * q, limit and reviewer (discovery_snapshot), in its order: a report never
 * ranks, recommends or scores, and names no winner. Compare reads them
 * with one more usage count (discovery_report_snapshot: the profiles with
 * client_settlement use, which a snapshot, and so a baseline, never has).
 *
 * Compare puts facts side by side, one row per candidate: the price fields
 * and usage counts of the candidate, every review of the route counted per
 * evidence lane (lanes kept apart), the newest review, the route's total
 * USDC recognition and latest recognition, and its current signed route
 * contexts.
 *
 * Changes takes the caller's saved snapshot (the baseline). Before any
 * payment is asked for (the rows' .check hook) the baseline must validate
 * as a version-1 snapshot (docs/PROTOCOL.md, Discovery snapshot; baseline.h:
 * bounds), be strictly
 * older than the request (generatedAt < now, to the nanosecond), and have
 * been made for the request's own query: q, limit and reviewer, where the
 * request's values default as discovery's do (q "", limit 10, reviewer
 * absent = null); a difference is a 400 naming baseline.query.<field>.
 * Deprecated limitations arrays are validated, then ignored: nothing of
 * them is returned. The service stores nothing about the baseline. The
 * delta pairs candidates by routeId; per pair it compares the fields
 * listed in diff_fields (position is 1-based; reviewsShown counts the
 * review items each snapshot shows, at most 10, per evidence lane).
 *
 * Export runs one report (discovery, compare or changes; baseline only and
 * always for changes) and adds contentDigest: SHA-256 over json_canonical
 * (lib/json.h) of content, i.e. RFC 8785 JCS for integer-only JSON: no
 * whitespace, member names sorted by UTF-16 code units, strings escaped as
 * JSON.stringify does, integers in decimal. It is a checksum for integrity
 * checks, not a signature.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "buf.h"
#include "config.h"
#include "dbfail.h"
#include "discovery.h"
#include "json.h"
#include "reports.h"
#include "reviews.h"
#include "sha256.h"
#include "sql.h"
#include "table.h"
#include "timefmt.h"
#include "banned.h"

#define REPORT_VERSION "1"
#define CANONICAL_MAX (16u * 1024 * 1024)

enum report_kind { REPORT_DISCOVERY, REPORT_COMPARE, REPORT_CHANGES, REPORT__MAX };

const char *const report_names[REPORT__MAX + 1] = {
	[REPORT_DISCOVERY] = "discovery", [REPORT_COMPARE] = "compare", [REPORT_CHANGES] = "changes",
	[REPORT__MAX] = NULL,
};

static const char *const compare_interpretation =
    "A comparison matrix of facts side by side, not a ranking: rows follow the discovery order "
    "(relevance to q, then " BRAND_LOWER "_backed review evidence, then route ID) and nothing else. "
    "No column is a quality score, no row is recommended and there is no winner. Review counts are "
    "kept per evidence lane; recognition amounts and usage counts never rank a candidate. Missing "
    "or unknown data is not a negative finding, and no payment proves response quality.";

static const char *const changes_interpretation =
    "The baseline is caller-supplied context, never authenticated history: it was checked for shape, "
    "age and query only. This service keeps no history of discovery, stores nothing about the "
    "baseline and does not monitor or notify. The delta compares it with a discovery snapshot made "
    "now for the same query; position is 1-based within the snapshot an entry comes from; "
    "reviewsShown counts the review items each snapshot shows (at most 10). A change is not a "
    "finding about quality.";

static const char *const export_interpretation =
    "contentDigest is SHA-256 over the canonical JSON of content (RFC 8785 JCS for integer-only "
    "JSON: no whitespace, member names sorted by UTF-16 code units, strings as JSON.stringify "
    "writes them). It is a checksum for integrity checks only: not a signature, not proof of who "
    "made the report or when, and not a proof of any endpoint's quality.";


static json_object *
get(json_object *o, const char *name)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, name, &v);
	return v;
}

/* The request's discovery parameters, defaulted as discovery's. */
struct params {
	const char *q;
	uint64_t limit;
	const struct addr *reviewer;
};

static struct params
params_of(struct req *r)
{
	const struct value *q = req_val(r, "q"), *rv = req_val(r, "reviewer");
	struct params p = {
		.q = q ? q->text : "",
		.limit = req_val(r, "limit")->u,
		.reviewer = rv ? &rv->addr : NULL,
	};

	return p;
}

/* ---- compare ---- */

struct column {
	const char *key;
	const char *description;
};

static const struct column columns[] = {
	{ "priceAmount", "The candidate's listed price amount (decimal string), or null when unknown." },
	{ "priceCurrency", "The listed price's currency, or null." },
	{ "priceStatus", "unknown, or stale: a listing checked at priceCheckedAt, not a live quote." },
	{ "priceCheckedAt", "When the listed price was seen, or null." },
	{ "useCount", "Routed recognitions indexed for the route (discovery usage.useCount)." },
	{ "walletCount", "Distinct wallets that sent them (discovery usage.walletCount)." },
	{ "profileCount", "Public profiles with receipt-backed use facts for the route (discovery "
	    "usage.profileCount)." },
	{ "clientSettlementProfileCount", "Public profiles whose use of the route rests on their own "
	    "client_settlement facts (counted apart from profileCount; not in the discovery snapshot)." },
	{ BRAND_LOWER "BackedReviewCount", "Reviews in the " BRAND_LANE " lane (cite a routed recognition)." },
	{ "receiptVerifiedReviewCount", "Reviews in the receipt_verified lane." },
	{ "selfReportedReviewCount", "Reviews in the self_reported lane (prove signer control only)." },
	{ "distinctReviewerWalletCount", "Distinct wallets among all the route's reviews." },
	{ "latestReviewAt", "When the newest review of any lane was published, or null." },
	{ "recognitionTotalUsdc", "Total USDC of the route's routed recognitions, base units (6 decimals); a "
	    "gratuity record, not a price and never a rank." },
	{ "latestRecognitionAt", "Block time of the latest routed recognition, or null." },
	{ "signedContext", "Whether a current route context signed by a route participant exists." },
	{ "signedContextCount", "How many current signed route contexts the route has (one per participant)." },
};

#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static void
copy_member(json_object *to, const char *to_name, json_object *from, const char *name)
{
	json_object_object_add(to, to_name, json_object_get(get(from, name)));
}

/* The facts of one candidate (discovery JSON) into a new object *out. */
static enum db_rc
route_facts(struct req *r, json_object *cand, json_object **out)
{
	const char *rid = json_object_get_string(get(cand, "routeId")) + 2;
	json_object *f, *sum = NULL, *price = get(cand, "price"), *usage = get(cand, "usage");
	MYSQL_RES *res = NULL;
	MYSQL_ROW row = NULL;
	char b[1024], stamp[32];
	struct sql q = SQL_ON(b);
	int64_t latest = -1, contexts = 0;   /* latest: -1 without a recognition */
	enum db_rc rc;

	*out = NULL;
	if ((rc = review_summary(r->db, r->cfg, rid, &sum)) != DB_OK)
		return rc;
	sql_add(&q, "SELECT s.total_usdc, s.latest_block_time, (SELECT COUNT(*) FROM route_contexts c "
	    "WHERE c.chain_id = ? AND c.route_id = ? AND c.note_expires_at > UNIX_TIMESTAMP()) "
	    "FROM (SELECT 1) d LEFT JOIN route_recognition_stats s ON s.chain_id = ? AND "
	    "s.route_id = ?", SQL_U64(r->cfg->chain_id), SQL_HEX(rid), SQL_U64(r->cfg->chain_id), SQL_HEX(rid));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK) {
		json_object_put(sum);
		return rc;
	}
	if (res)
		row = mysql_fetch_row(res);
	if (row != NULL && (db_row_i64_or(row, 1, "latest_block_time", -1, &latest) != DB_OK ||
	    db_row_i64_or(row, 2, "signedContextCount", 0, &contexts) != DB_OK)) {
		mysql_free_result(res);
		json_object_put(sum);
		return DB_ERROR;
	}
	f = json_object_new_object();
	copy_member(f, "priceAmount", price, "amount");
	copy_member(f, "priceCurrency", price, "currency");
	copy_member(f, "priceStatus", price, "status");
	copy_member(f, "priceCheckedAt", price, "checkedAt");
	copy_member(f, "useCount", usage, "useCount");
	copy_member(f, "walletCount", usage, "walletCount");
	copy_member(f, "profileCount", usage, "profileCount");
	copy_member(f, "clientSettlementProfileCount", usage, "clientSettlementProfileCount");
	copy_member(f, BRAND_LOWER "BackedReviewCount", sum, BRAND_LOWER "BackedCount");
	copy_member(f, "receiptVerifiedReviewCount", sum, "receiptVerifiedCount");
	copy_member(f, "selfReportedReviewCount", sum, "selfReportedCount");
	copy_member(f, "distinctReviewerWalletCount", sum, "distinctReviewerWalletCount");
	copy_member(f, "latestReviewAt", sum, "latestReviewAt");
	json_object_object_add(f, "recognitionTotalUsdc",
	    json_object_new_string(row && row[0] ? row[0] : "0"));
	json_object_object_add(f, "latestRecognitionAt", latest >= 0 ?
	    json_object_new_string(time_rfc3339((time_t)latest, stamp, sizeof(stamp))) : NULL);
	json_object_object_add(f, "signedContext", json_object_new_boolean(contexts > 0));
	json_object_object_add(f, "signedContextCount", json_object_new_int64(contexts));
	if (res)
		mysql_free_result(res);
	json_object_put(sum);
	*out = f;
	return DB_OK;
}

/*
 * The compare report for p into *out (the caller puts it), or an error
 * written to w.
 */
static enum err
report_compare(struct req *r, struct resp *w, const struct params *p, json_object **out)
{
	json_object *snap = NULL, *o = NULL, *cols, *rows, *cands;
	enum err e;

	*out = NULL;
	if ((e = discovery_report_snapshot(r, w, p->q, p->limit, p->reviewer, &snap)) != ERR_NONE)
		return e;
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(REPORT_VERSION));
	json_object_object_add(o, "report", json_object_new_string("compare"));
	copy_member(o, "generatedAt", snap, "generatedAt");
	copy_member(o, "query", snap, "query");
	cols = json_object_new_array();
	for (size_t i = 0; i < NCOLUMNS; i++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "key", json_object_new_string(columns[i].key));
		json_object_object_add(c, "description", json_object_new_string(columns[i].description));
		json_object_array_add(cols, c);
	}
	json_object_object_add(o, "columns", cols);
	/* filled before it is added: the add takes rows (and releases it when it fails) */
	rows = json_object_new_array();
	cands = get(snap, "candidates");
	for (size_t i = 0; i < json_object_array_length(cands); i++) {
		json_object *c = json_object_array_get_idx(cands, i), *row, *facts;
		enum db_rc rc;

		if ((rc = route_facts(r, c, &facts)) != DB_OK) {
			json_object_put(rows);
			e = db_fail(w, rc);
			goto out;
		}
		row = json_object_new_object();
		json_object_object_add(row, "position", json_object_new_int64((int64_t)i + 1));
		copy_member(row, "routeId", c, "routeId");
		copy_member(row, "title", c, "title");
		copy_member(row, "method", c, "method");
		copy_member(row, "url", c, "url");
		json_object_object_add(row, "facts", facts);
		json_object_array_add(rows, row);
	}
	json_object_object_add(o, "rows", rows);
	copy_member(o, "coverage", snap, "coverage");
	json_object_object_add(o, "interpretation", json_object_new_string(compare_interpretation));
	*out = o;
	o = NULL;
	e = ERR_NONE;
out:
	json_object_put(o);
	json_object_put(snap);
	return e;
}

/* ---- changes ---- */

/* Names compared per candidate; "reviewsShown.<lane>" follow for each lane. */
static const char *const diff_fields[] = {
	"position", "title", "summary", "url", "method", "price.amount", "price.currency", "price.status",
	"price.checkedAt", "usage.useCount", "usage.walletCount", "usage.profileCount", "matchReasons",
	"reviewsShown.latestPublishedAt", NULL,
};

/* The compared facts of a candidate (validated snapshot JSON) at 1-based position. */
static json_object *
diff_facts(json_object *c, size_t position)
{
	json_object *f = json_object_new_object(), *price = get(c, "price"), *usage = get(c, "usage");
	json_object *rv = get(c, "reviews"), *latest = NULL;
	int64_t best = INT64_MIN;
	uint32_t bestn = 0;
	char name[64];

	json_object_object_add(f, "position", json_object_new_int64((int64_t)position));
	copy_member(f, "title", c, "title");
	copy_member(f, "summary", c, "summary");
	copy_member(f, "url", c, "url");
	copy_member(f, "method", c, "method");
	copy_member(f, "price.amount", price, "amount");
	copy_member(f, "price.currency", price, "currency");
	copy_member(f, "price.status", price, "status");
	copy_member(f, "price.checkedAt", price, "checkedAt");
	copy_member(f, "usage.useCount", usage, "useCount");
	copy_member(f, "usage.walletCount", usage, "walletCount");
	copy_member(f, "usage.profileCount", usage, "profileCount");
	copy_member(f, "matchReasons", c, "matchReasons");
	for (size_t l = 0; baseline_lanes[l]; l++) {
		int64_t n = 0;

		for (size_t i = 0; i < json_object_array_length(rv); i++) {
			json_object *k = get(json_object_array_get_idx(rv, i), "evidenceKind");

			if (k && strcmp(json_object_get_string(k), baseline_lanes[l]) == 0)
				n++;
		}
		snprintf(name, sizeof(name), "reviewsShown.%s", baseline_lanes[l]);
		json_object_object_add(f, name, json_object_new_int64(n));
	}
	for (size_t i = 0; i < json_object_array_length(rv); i++) {
		json_object *at = get(json_object_array_get_idx(rv, i), "publishedAt");
		int64_t s;
		uint32_t ns;

		if (at && time_parse_rfc3339(json_object_get_string(at), (size_t)json_object_get_string_len(at),
		    &s, &ns) == 0 && (s > best || (s == best && ns > bestn))) {
			best = s;
			bestn = ns;
			latest = at;
		}
	}
	json_object_object_add(f, "reviewsShown.latestPublishedAt", json_object_get(latest));
	return f;
}

static json_object *
entry(json_object *c, size_t position)
{
	json_object *o = json_object_new_object();

	copy_member(o, "routeId", c, "routeId");
	json_object_object_add(o, "position", json_object_new_int64((int64_t)position));
	copy_member(o, "title", c, "title");
	copy_member(o, "method", c, "method");
	copy_member(o, "url", c, "url");
	return o;
}

static bool
same_route(json_object *a, json_object *b)
{
	return strcmp(json_object_get_string(get(a, "routeId")), json_object_get_string(get(b, "routeId"))) == 0;
}

/* One {field, old, new} when the fact differs. */
static void
diff_one(json_object *changes, const char *name, json_object *of, json_object *nf)
{
	json_object *a = get(of, name), *b = get(nf, name), *ch;

	if (json_object_equal(a, b))
		return;
	ch = json_object_new_object();
	json_object_object_add(ch, "field", json_object_new_string(name));
	json_object_object_add(ch, "old", json_object_get(a));
	json_object_object_add(ch, "new", json_object_get(b));
	json_object_array_add(changes, ch);
}

/*
 * The changes report of the (already checked) baseline against a snapshot
 * made now for p, into *out (the caller puts it), or an error written to w.
 */
static enum err
report_changes(struct req *r, struct resp *w, const struct params *p, json_object *baseline,
    json_object **out)
{
	json_object *snap = NULL, *o, *added, *removed, *changed, *cur, *old;
	int64_t unchanged = 0;
	char name[64];
	enum err e;

	*out = NULL;
	if ((e = discovery_snapshot(r, w, p->q, p->limit, p->reviewer, &snap)) != ERR_NONE)
		return e;
	cur = get(snap, "candidates");
	old = get(baseline, "candidates");
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(REPORT_VERSION));
	json_object_object_add(o, "report", json_object_new_string("changes"));
	copy_member(o, "generatedAt", snap, "generatedAt");
	copy_member(o, "baselineGeneratedAt", baseline, "generatedAt");
	copy_member(o, "query", snap, "query");
	added = json_object_new_array();
	removed = json_object_new_array();
	changed = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(cur); i++) {
		json_object *c = json_object_array_get_idx(cur, i), *b = NULL, *of, *nf, *changes;
		size_t bpos = 0;

		for (size_t j = 0; j < json_object_array_length(old) && b == NULL; j++)
			if (same_route(json_object_array_get_idx(old, j), c)) {
				b = json_object_array_get_idx(old, j);
				bpos = j + 1;
			}
		if (b == NULL) {
			json_object_array_add(added, entry(c, i + 1));
			continue;
		}
		of = diff_facts(b, bpos);
		nf = diff_facts(c, i + 1);
		changes = json_object_new_array();
		for (size_t k = 0; diff_fields[k]; k++) {
			if (!json_object_object_get_ex(of, diff_fields[k], NULL))
				continue;   /* a member the baseline predates */
			diff_one(changes, diff_fields[k], of, nf);
			if (strcmp(diff_fields[k], "matchReasons") == 0)
				for (size_t l = 0; baseline_lanes[l]; l++) {
					snprintf(name, sizeof(name), "reviewsShown.%s", baseline_lanes[l]);
					diff_one(changes, name, of, nf);
				}
		}
		if (json_object_array_length(changes) == 0) {
			unchanged++;
			json_object_put(changes);
		} else {
			json_object *ch = json_object_new_object();

			copy_member(ch, "routeId", c, "routeId");
			json_object_object_add(ch, "position", json_object_new_int64((int64_t)i + 1));
			json_object_object_add(ch, "changes", changes);
			json_object_array_add(changed, ch);
		}
		json_object_put(of);
		json_object_put(nf);
	}
	for (size_t j = 0; j < json_object_array_length(old); j++) {
		json_object *b = json_object_array_get_idx(old, j);
		bool found = false;

		for (size_t i = 0; i < json_object_array_length(cur) && !found; i++)
			found = same_route(json_object_array_get_idx(cur, i), b);
		if (!found)
			json_object_array_add(removed, entry(b, j + 1));
	}
	json_object_object_add(o, "added", added);
	json_object_object_add(o, "removed", removed);
	json_object_object_add(o, "changed", changed);
	json_object_object_add(o, "unchangedCount", json_object_new_int64(unchanged));
	copy_member(o, "coverage", snap, "coverage");
	json_object_object_add(o, "interpretation", json_object_new_string(changes_interpretation));
	json_object_put(snap);
	*out = o;
	return ERR_NONE;
}

/* ---- handlers ---- */

static enum err
answer(struct req *r, struct resp *w, json_object *o)
{
	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	return resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

enum err
h_report_compare_post(struct req *r, struct resp *w)
{
	struct params p = params_of(r);
	json_object *o;
	enum err e = report_compare(r, w, &p, &o);

	return e != ERR_NONE ? e : answer(r, w, o);
}

enum err
h_report_changes_check(struct req *r, struct resp *w)
{
	struct params p = params_of(r);

	return baseline_check(r, w, req_val(r, "baseline")->object, p.q, p.limit, p.reviewer);
}

enum err
h_report_changes_post(struct req *r, struct resp *w)
{
	struct params p = params_of(r);
	json_object *o;
	enum err e = report_changes(r, w, &p, req_val(r, "baseline")->object, &o);

	return e != ERR_NONE ? e : answer(r, w, o);
}

enum err
h_report_export_check(struct req *r, struct resp *w)
{
	const struct value *b = req_val(r, "baseline");

	if (req_val(r, "report")->choice != REPORT_CHANGES) {
		if (b != NULL)
			return resp_fail(w, ERR_INVALID_FIELD, "baseline",
			    "baseline is accepted only with report \"changes\".");
		return ERR_NONE;
	}
	if (b == NULL)
		return resp_fail(w, ERR_MISSING_FIELD, "baseline",
		    "Field baseline (a saved discovery snapshot) is required with report \"changes\".");
	{
		struct params p = params_of(r);

		return baseline_check(r, w, b->object, p.q, p.limit, p.reviewer);
	}
}

/* "sha256:" and the digest of the canonical form of content, into out[72]; 0 or -1. */
static int
content_digest(json_object *content, char out[72])
{
	struct buf b;
	char hex[67];
	int rc = -1;

	buf_init(&b, CANONICAL_MAX);
	if (json_canonical(content, &b) == 0 && sha256_hex(b.p ? b.p : "", b.len, hex) == 0) {
		snprintf(out, 72, "sha256:%s", hex + 2);
		rc = 0;
	}
	buf_release(&b);
	return rc;
}

enum err
h_report_export_post(struct req *r, struct resp *w)
{
	struct params p = params_of(r);
	int kind = req_val(r, "report")->choice;
	json_object *content = NULL, *o, *rq;
	char digest[72], stamp[32], a[ADDR_TEXT_LEN + 1];
	enum err e;

	switch (kind) {
	case REPORT_DISCOVERY:
		e = discovery_snapshot(r, w, p.q, p.limit, p.reviewer, &content);
		break;
	case REPORT_COMPARE:
		e = report_compare(r, w, &p, &content);
		break;
	default:
		e = report_changes(r, w, &p, req_val(r, "baseline")->object, &content);
		break;
	}
	if (e != ERR_NONE)
		return e;
	o = json_object_new_object();
	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		json_object_put(content);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_object_add(o, "version", json_object_new_string(REPORT_VERSION));
	json_object_object_add(o, "report", json_object_new_string(report_names[kind]));
	json_object_object_add(o, "generatedAt",
	    json_object_new_string(time_rfc3339(time(NULL), stamp, sizeof(stamp))));
	rq = json_object_new_object();
	json_object_object_add(rq, "report", json_object_new_string(report_names[kind]));
	json_object_object_add(rq, "q", json_object_new_string(p.q));
	json_object_object_add(rq, "limit", json_object_new_int64((int64_t)p.limit));
	json_object_object_add(rq, "reviewer", p.reviewer ?
	    json_object_new_string(addr_format_lower(p.reviewer, a)) : NULL);
	json_object_object_add(o, "request", rq);
	/* the digest first: the add takes content (and releases it when it fails) */
	if (content_digest(content, digest) < 0) {
		json_object_put(content);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_object_add(o, "content", content);
	json_object_object_add(o, "contentDigest", json_object_new_string(digest));
	json_object_object_add(o, "interpretation", json_object_new_string(export_interpretation));
	return resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
