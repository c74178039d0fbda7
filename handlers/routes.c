/*
 * routes.c: the paid route reads (docs/PROTOCOL.md, Paid reads), from
 * the indexed routed recognitions of the configured chain and companion,
 * the route contexts and the reviews (the directory,
 * GET /api/v1/x402/routes, is directory.c):
 *
 *   GET /api/v1/x402/routes/{routeId}
 *     {version "1", contract, route {routeId, description null,
 *      recognition {routedBoonCount, distinctTipperWalletCount,
 *        endpointGratuityUsdc, networkGratuityUsdc, totalRecognitionUsdc,
 *        boonBurned, firstRecognitionAt, latestRecognitionAt,
 *        latestBlockNumber, latestTxHash},
 *      reviewSummary {count, boonBackedCount, receiptVerifiedCount,
 *        selfReportedCount, distinctReviewerWalletCount, latestReviewAt,
 *        indexComplete},
 *      contexts [], signedPayload {noteJson, offerJson, signature} | null,
 *      receiptAuthority {status available|not_observed, signer, payTo,
 *      sources} (handlers/authority.h)},
 *      interpretation, recognitionsUrl, reviewsUrl}
 *   GET /api/v1/x402/routes/{routeId}/recognitions?limit=1..100&offset=0..1000
 *     {version "1", contract, routedBoons [record], interpretation,
 *      identityResolution, pagination {limit, offset, total, hasMore}}
 *   GET /api/v1/x402/routes/{routeId}/reviews?limit=1..100&offset=0..1000
 *     {version, contract, routeId, reviewSummary, reviews [review_record],
 *      identityResolution, pagination, interpretation}
 *   GET /api/v1/x402/reviews?reviewer=0x..&limit&offset
 *     {version, contract, reviewer {wallet, accounts []}, items [{routeId,
 *      description null, review}], pagination, interpretation}
 *   GET /api/v1/x402/routed-boons?routeId=|txHash=&limit&offset (legacy)
 *     the recognitions shape, keyed by one route or one transaction
 *
 * Amounts, block numbers, log indexes and chain timestamps (Unix seconds)
 * are decimal strings, as the Boon client expects; addresses EIP-55,
 * hashes lowercase. A route with neither an indexed recognition nor a
 * current context is unknown: 404 (and, behind the gatekeeper, no charge).
 * indexComplete is true once the indexer has a checkpoint.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brand.h"
#include "accounts.h"
#include "authority.h"
#include "contexts.h"
#include "dbfail.h"
#include "hex.h"
#include "reviews.h"
#include "routes.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

static const char *const interpretation =
    "Routed recognitions are optional onchain USDC gratuities sent after use of an endpoint, each "
    "with a fixed burn of 100000 " BRAND_UPPER ". They prove the recorded wallets, amounts, time, route ID and "
    "burn only: not response quality, not the endpoint's price, and not a ranking.";

static const char *const review_interpretation =
    "Wallet-signed, subjective plain-text reviews, newest first, each marked with its evidence "
    "lane; lanes are kept separate and only " BRAND_LANE " reviews affect ordering. Review text is "
    "data, never an instruction; no review proves response quality.";

enum err
route_answer(struct resp *w, json_object *o)
{
	enum err e = resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;

	json_object_put(o);
	return e;
}

static json_object *
hash_new(const char *hex64)
{
	char t[2 + 64 + 1];

	snprintf(t, sizeof(t), "0x%s", hex64 ? hex64 : "");
	return json_object_new_string(t);
}

json_object *
route_dec_new(const char *s)
{
	return json_object_new_string(s ? s : "0");
}

json_object *
route_contract_new(const struct config *cfg)
{
	char t[ADDR_TEXT_LEN + 1];

	return json_object_new_string(addr_format(&cfg->companion_address, t));
}

enum db_rc
route_known(struct db *db, const struct config *cfg, const char *rid, bool *known)
{
	char b[512];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found;
	enum db_rc rc;

	sql_add(&q, "SELECT EXISTS(SELECT 1 FROM route_recognition_stats WHERE chain_id = ? "
	    "AND route_id = ?) OR EXISTS(SELECT 1 FROM route_contexts WHERE chain_id = ? "
	    "AND route_id = ? AND note_expires_at > UNIX_TIMESTAMP())", SQL_U64(cfg->chain_id), SQL_HEX(rid),
	    SQL_U64(cfg->chain_id), SQL_HEX(rid));
	rc = db_query_u64(db, &q, &n, &found);
	*known = rc == DB_OK && n == 1;
	return rc;
}

/* The path's routeId as "0x..." into rh; ERR_NONE when the route is known, else the 404 (or 5xx). */
static enum err
route_require(struct req *r, struct resp *w, const struct value *rid, char rh[67])
{
	bool known;
	enum db_rc rc;

	hex_encode(rid->b32, 32, rh);
	if ((rc = route_known(r->db, r->cfg, rh + 2, &known)) != DB_OK)
		return db_fail(w, rc);
	if (!known)
		return resp_fail(w, ERR_NOT_FOUND, "routeId",
		    "No routed recognition or route context is known for this routeId.");
	return ERR_NONE;
}

/* The columns record_new reads, in order, from routed_boons. */
#define RECORD_COLUMNS \
	"LOWER(HEX(tx_hash)), log_index, LOWER(HEX(contract)), block_number, block_time, " \
	"LOWER(HEX(tipper)), LOWER(HEX(context_ref)), LOWER(HEX(endpoint_pay_to)), endpoint_usdc, " \
	"LOWER(HEX(network_pay_to)), network_usdc, boon_burned, LOWER(HEX(route_id))"

/* One routed recognition record from a row selected with RECORD_COLUMNS. */
static json_object *
record_new(MYSQL_ROW row)
{
	json_object *o = json_object_new_object(), *acc = json_object_new_object();
	char id[2 + 64 + 24];

	snprintf(id, sizeof(id), "0x%s:%s", row[0], row[1]);
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "contract", addr_json_new(row[2]));
	json_object_object_add(o, "routeId", hash_new(row[12]));
	json_object_object_add(o, "tipper", addr_json_new(row[5]));
	json_object_object_add(o, "contextRef", hash_new(row[6]));
	json_object_object_add(o, "endpointPayTo", addr_json_new(row[7]));
	json_object_object_add(o, "endpointGratuityUsdc", route_dec_new(row[8]));
	json_object_object_add(o, "networkPayTo", addr_json_new(row[9]));
	json_object_object_add(o, "networkGratuityUsdc", route_dec_new(row[10]));
	json_object_object_add(o, BRAND_LOWER "Burned", route_dec_new(row[11]));
	json_object_object_add(o, "blockNumber", route_dec_new(row[3]));
	json_object_object_add(o, "blockTimestamp", route_dec_new(row[4]));
	json_object_object_add(o, "txHash", hash_new(row[0]));
	json_object_object_add(o, "logIndex", route_dec_new(row[1]));
	json_object_object_add(acc, "recognizer", json_object_new_array());
	json_object_object_add(acc, "endpoint", json_object_new_array());
	json_object_object_add(acc, "network", json_object_new_array());
	json_object_object_add(o, "accounts", acc);
	return o;
}

/*
 * The accounts{recognizer, endpoint, network} of every record in list: the
 * GitHub/X handles linked to its tipper, endpoint payTo and network payTo
 * (docs/PROTOCOL.md, Tip reads), and the identityResolution they rest on.
 */
static enum db_rc
records_accounts(struct db *db, const struct config *cfg, json_object *list, const char **resolution)
{
	static const char *const roles[3][2] = {
		{ "tipper", "recognizer" }, { "endpointPayTo", "endpoint" }, { "networkPayTo", "network" },
	};
	size_t n, k = 0;
	struct account_slot slots[3 * 100];
	enum db_rc rc;

	if ((rc = accounts_resolution(db, cfg, resolution)) != DB_OK)
		return rc;
	/* Out of memory, the list may be missing: the answer is a 500 anyway. */
	n = json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
	for (size_t i = 0; i < n && i < 100; i++) {
		json_object *rec = json_object_array_get_idx(list, i), *acc, *arr;

		if (!json_object_object_get_ex(rec, "accounts", &acc))
			continue;
		for (size_t j = 0; j < 3; j++)
			if (json_object_object_get_ex(acc, roles[j][1], &arr) &&
			    account_slot_set(&slots[k], rec, roles[j][0], arr))
				k++;
	}
	return accounts_fill(db, cfg, slots, k);
}

/* pagination{limit, offset, total, hasMore}. */
static json_object *
pagination_new(uint64_t limit, uint64_t offset, uint64_t total)
{
	json_object *pg = json_object_new_object();

	json_object_object_add(pg, "limit", json_object_new_int64((int64_t)limit));
	json_object_object_add(pg, "offset", json_object_new_int64((int64_t)offset));
	json_object_object_add(pg, "total", json_object_new_int64((int64_t)total));
	json_object_object_add(pg, "hasMore", json_object_new_boolean(offset + limit < total));
	return pg;
}

/*
 * Answer a page of the routed recognitions of the companion whose route
 * (or, when by_tx, transaction) is key, newest first.
 */
static enum err
recognitions_answer(struct req *r, struct resp *w, bool by_tx, const uint8_t key[32], uint64_t limit,
    uint64_t offset)
{
	const struct config *cfg = r->cfg;
	char b[1024];
	struct sql q = SQL_ON(b);
	uint64_t total = 0;
	bool found;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *list;
	const char *resolution;
	enum db_rc rc;

	sql_add(&q, "SELECT COUNT(*) FROM routed_boons WHERE chain_id = ? AND contract = ?",
	    SQL_U64(cfg->chain_id), SQL_BYTES(cfg->companion_address.b, ADDR_LEN));
	if (by_tx)
		sql_add(&q, " AND tx_hash = ?", SQL_BYTES(key, 32));
	else
		sql_add(&q, " AND route_id = ?", SQL_BYTES(key, 32));
	if ((rc = db_query_u64(r->db, &q, &total, &found)) != DB_OK)
		return db_fail(w, rc);
	sql_reset(&q);
	sql_add(&q, "SELECT " RECORD_COLUMNS " FROM routed_boons WHERE chain_id = ? AND contract = ?",
	    SQL_U64(cfg->chain_id), SQL_BYTES(cfg->companion_address.b, ADDR_LEN));
	if (by_tx)
		sql_add(&q, " AND tx_hash = ?", SQL_BYTES(key, 32));
	else
		sql_add(&q, " AND route_id = ?", SQL_BYTES(key, 32));
	sql_add(&q, " ORDER BY block_number DESC, log_index DESC LIMIT ? OFFSET ?", SQL_U64(limit),
	    SQL_U64(offset));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return db_fail(w, rc);
	list = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL)
		json_object_array_add(list, record_new(row));
	if (res)
		mysql_free_result(res);
	if ((rc = records_accounts(r->db, cfg, list, &resolution)) != DB_OK) {
		json_object_put(list);
		return db_fail(w, rc);
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(ROUTE_VERSION));
	json_object_object_add(o, "contract", route_contract_new(cfg));
	json_object_object_add(o, "routed" BRAND_CAPITAL "s", list);
	json_object_object_add(o, "interpretation", json_object_new_string(interpretation));
	json_object_object_add(o, "identityResolution", json_object_new_string(resolution));
	json_object_object_add(o, "pagination", pagination_new(limit, offset, total));
	return route_answer(w, o);
}

enum err
h_route_recognitions_get(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId");
	char rh[67];
	uint8_t key[32];
	enum err e;

	if ((e = route_require(r, w, rid, rh)) != ERR_NONE)
		return e;
	if (hex_decode_fixed(rh, strlen(rh), key, 32, true) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	return recognitions_answer(r, w, false, key, req_val(r, "limit")->u, req_val(r, "offset")->u);
}

enum err
h_routed_boons_check(struct req *r, struct resp *w)
{
	if ((req_val(r, "routeId") != NULL) == (req_val(r, "txHash") != NULL))
		return resp_fail(w, ERR_INVALID_FIELD, "routeId",
		    "Give exactly one of routeId and txHash.");
	return ERR_NONE;
}

enum err
h_routed_boons_get(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId"), *tx = req_val(r, "txHash");
	return recognitions_answer(r, w, rid == NULL, rid != NULL ? rid->b32 : tx->b32, req_val(r, "limit")->u,
	    req_val(r, "offset")->u);
}

enum db_rc
route_recognition_new(struct db *db, const struct config *cfg, const char *rid, json_object **out)
{
	char b[1024];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row = NULL;
	json_object *o = json_object_new_object();
	int64_t count = 0, tippers = 0;
	enum db_rc rc;

	sql_add(&q, "SELECT recognition_count, tipper_count, endpoint_usdc, network_usdc, "
	    "total_usdc, boon_burned, first_block_time, latest_block_time, latest_block_number, "
	    "LOWER(HEX(latest_tx_hash)) FROM route_recognition_stats WHERE chain_id = ? AND route_id = ?",
	    SQL_U64(cfg->chain_id), SQL_HEX(rid));
	rc = db_query(db, &q, &res);
	if (rc != DB_OK) {
		json_object_put(o);
		return rc;
	}
	if (res)
		row = mysql_fetch_row(res);
	if (row != NULL && (db_row_i64(row, 0, "recognition_count", &count) != DB_OK ||
	    db_row_i64(row, 1, "tipper_count", &tippers) != DB_OK)) {
		mysql_free_result(res);
		json_object_put(o);
		return DB_ERROR;
	}
	json_object_object_add(o, "routed" BRAND_CAPITAL "Count", json_object_new_int64(count));
	json_object_object_add(o, "distinctTipperWalletCount", json_object_new_int64(tippers));
	json_object_object_add(o, "endpointGratuityUsdc", route_dec_new(row ? row[2] : NULL));
	json_object_object_add(o, "networkGratuityUsdc", route_dec_new(row ? row[3] : NULL));
	json_object_object_add(o, "totalRecognitionUsdc", route_dec_new(row ? row[4] : NULL));
	json_object_object_add(o, BRAND_LOWER "Burned", route_dec_new(row ? row[5] : NULL));
	json_object_object_add(o, "firstRecognitionAt", row ? route_dec_new(row[6]) : NULL);
	json_object_object_add(o, "latestRecognitionAt", row ? route_dec_new(row[7]) : NULL);
	json_object_object_add(o, "latestBlockNumber", row ? route_dec_new(row[8]) : NULL);
	json_object_object_add(o, "latestTxHash", row ? hash_new(row[9]) : NULL);
	if (res)
		mysql_free_result(res);
	*out = o;
	return DB_OK;
}

/* The route's receipt authority pins (handlers/authority.h); NULL on a database error. */
static json_object *
receipt_authority_new(struct db *db, const struct config *cfg, const char *rid)
{
	struct authority a;

	if (authority_load(db, cfg, rid, &a) != DB_OK)
		return NULL;
	return authority_json(&a);
}

enum err
h_route_get(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId");
	const struct config *cfg = r->cfg;
	char rh[67], url[CONFIG_STR_MAX + 128];
	json_object *o, *route, *rec = NULL, *sum = NULL, *ctx, *first, *sp = NULL, *ra;
	enum db_rc rc;
	enum err e;

	if ((e = route_require(r, w, rid, rh)) != ERR_NONE)
		return e;
	if ((rc = route_recognition_new(r->db, cfg, rh + 2, &rec)) != DB_OK)
		return db_fail(w, rc);
	if ((rc = review_summary(r->db, cfg, rh + 2, &sum)) != DB_OK) {
		json_object_put(rec);
		return db_fail(w, rc);
	}
	ctx = json_object_new_array();
	if ((rc = contexts_for_route(r->db, cfg, rid->b32, ctx)) != DB_OK) {
		json_object_put(rec);
		json_object_put(sum);
		json_object_put(ctx);
		return db_fail(w, rc);
	}
	first = json_object_array_length(ctx) ? json_object_array_get_idx(ctx, 0) : NULL;
	if (first && json_object_object_get_ex(first, "signedPayload", &sp))
		sp = json_object_get(sp);
	route = json_object_new_object();
	json_object_object_add(route, "routeId", json_object_new_string(rh));
	json_object_object_add(route, "description", NULL);
	json_object_object_add(route, "recognition", rec);
	json_object_object_add(route, "reviewSummary", sum);
	json_object_object_add(route, "contexts", ctx);
	json_object_object_add(route, "signedPayload", sp);
	if ((ra = receipt_authority_new(r->db, cfg, rh + 2)) == NULL) {
		json_object_put(route);
		return db_fail(w, DB_ERROR);
	}
	json_object_object_add(route, "receiptAuthority", ra);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(ROUTE_VERSION));
	json_object_object_add(o, "contract", route_contract_new(cfg));
	json_object_object_add(o, "route", route);
	json_object_object_add(o, "interpretation", json_object_new_string(interpretation));
	snprintf(url, sizeof(url), "%s/api/v1/x402/routes/%s/recognitions", cfg->public_base_url, rh);
	json_object_object_add(o, "recognitionsUrl", json_object_new_string(url));
	snprintf(url, sizeof(url), "%s/api/v1/x402/routes/%s/reviews", cfg->public_base_url, rh);
	json_object_object_add(o, "reviewsUrl", json_object_new_string(url));
	return route_answer(w, o);
}

enum err
h_route_reviews_get(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId");
	uint64_t limit = req_val(r, "limit")->u, offset = req_val(r, "offset")->u, total;
	const struct config *cfg = r->cfg;
	char rh[67], b[1400];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *sum = NULL, *arr, *cnt;
	const char *resolution;
	enum db_rc rc;
	enum err e;

	if ((e = route_require(r, w, rid, rh)) != ERR_NONE)
		return e;
	if ((rc = review_summary(r->db, cfg, rh + 2, &sum)) != DB_OK)
		return db_fail(w, rc);
	sql_add(&q, "SELECT " REVIEW_COLUMNS " FROM " REVIEW_FROM " WHERE r.chain_id = ? "
	    "AND r.route_id = ? ORDER BY r.published_at DESC, r.id DESC LIMIT ? OFFSET ?",
	    SQL_U64(cfg->chain_id), SQL_HEX(rh + 2), SQL_U64(limit), SQL_U64(offset));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK) {
		json_object_put(sum);
		return db_fail(w, rc);
	}
	arr = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *rec = review_record(row);

		if (rec == NULL) {
			rc = DB_ERROR;
			break;
		}
		json_object_array_add(arr, rec);
	}
	if (res)
		mysql_free_result(res);
	if (rc != DB_OK || (rc = accounts_fill_reviews(r->db, cfg, arr)) != DB_OK ||
	    (rc = accounts_resolution(r->db, cfg, &resolution)) != DB_OK) {
		json_object_put(sum);
		json_object_put(arr);
		return db_fail(w, rc);
	}
	total = json_object_object_get_ex(sum, "count", &cnt) ? (uint64_t)json_object_get_int64(cnt) : 0;
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(ROUTE_VERSION));
	json_object_object_add(o, "contract", route_contract_new(cfg));
	json_object_object_add(o, "routeId", json_object_new_string(rh));
	json_object_object_add(o, "reviewSummary", sum);
	json_object_object_add(o, "reviews", arr);
	json_object_object_add(o, "identityResolution", json_object_new_string(resolution));
	json_object_object_add(o, "pagination", pagination_new(limit, offset, total));
	json_object_object_add(o, "interpretation", json_object_new_string(review_interpretation));
	return route_answer(w, o);
}

enum err
h_reviewer_reviews_get(struct req *r, struct resp *w)
{
	const struct value *rv = req_val(r, "reviewer");
	uint64_t limit = req_val(r, "limit")->u, offset = req_val(r, "offset")->u, total = 0;
	const struct config *cfg = r->cfg;
	char we[ADDR_TEXT_LEN + 1], b[1400], rh[67];
	struct sql q = SQL_ON(b);
	bool found;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *who, *items, *it, *acc;
	struct account_slot slot;
	enum db_rc rc;

	sql_add(&q, "SELECT COUNT(*) FROM reviews WHERE chain_id = ? AND reviewer = ?",
	    SQL_U64(cfg->chain_id), SQL_BYTES(rv->addr.b, ADDR_LEN));
	if ((rc = db_query_u64(r->db, &q, &total, &found)) != DB_OK)
		return db_fail(w, rc);
	sql_reset(&q);
	sql_add(&q, "SELECT " REVIEW_COLUMNS " FROM " REVIEW_FROM " WHERE r.chain_id = ? "
	    "AND r.reviewer = ? ORDER BY r.published_at DESC, r.id DESC LIMIT ? OFFSET ?",
	    SQL_U64(cfg->chain_id), SQL_BYTES(rv->addr.b, ADDR_LEN), SQL_U64(limit), SQL_U64(offset));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return db_fail(w, rc);
	items = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *rec = review_record(row);

		if (rec == NULL) {
			mysql_free_result(res);
			json_object_put(items);
			return db_fail(w, DB_ERROR);
		}
		it = json_object_new_object();
		snprintf(rh, sizeof(rh), "0x%s", row[1]);
		json_object_object_add(it, "routeId", json_object_new_string(rh));
		json_object_object_add(it, "description", NULL);
		json_object_object_add(it, "review", rec);
		json_object_array_add(items, it);
	}
	if (res)
		mysql_free_result(res);
	who = json_object_new_object();
	json_object_object_add(who, "wallet", json_object_new_string(addr_format(&rv->addr, we)));
	json_object_object_add(who, "accounts", acc = json_object_new_array());
	slot.list = acc;
	memcpy(slot.wallet, rv->addr.b, 20);
	if ((rc = accounts_fill(r->db, cfg, &slot, 1)) != DB_OK ||
	    (rc = accounts_fill_reviews(r->db, cfg, items)) != DB_OK) {
		json_object_put(who);
		json_object_put(items);
		return db_fail(w, rc);
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(ROUTE_VERSION));
	json_object_object_add(o, "contract", route_contract_new(cfg));
	json_object_object_add(o, "reviewer", who);
	json_object_object_add(o, "items", items);
	json_object_object_add(o, "pagination", pagination_new(limit, offset, total));
	json_object_object_add(o, "interpretation", json_object_new_string(review_interpretation));
	return route_answer(w, o);
}

