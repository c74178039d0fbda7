/*
 * routes.c: the paid route reads (spec 4.2, reference/boon.md 4.2), from
 * the indexed routed recognitions of the configured chain and companion:
 *
 *   GET /api/v1/x402/routes/{routeId}
 *     {version "1", contract, route {routeId, description null,
 *      recognition {routedBoonCount, distinctTipperWalletCount,
 *        endpointGratuityUsdc, networkGratuityUsdc, totalRecognitionUsdc,
 *        boonBurned, firstRecognitionAt, latestRecognitionAt,
 *        latestBlockNumber, latestTxHash},
 *      reviewSummary {...zeros, latestReviewAt null, indexComplete false},
 *      contexts [], signedPayload {noteJson, offerJson, signature} | null,
 *      receiptAuthority {status "not_observed", signer null, payTo null}},
 *      interpretation, recognitionsUrl, reviewsUrl}
 *   GET /api/v1/x402/routes/{routeId}/recognitions?limit=1..100&offset=0..1000
 *     {version "1", contract, routedBoons [record], interpretation,
 *      identityResolution, pagination {limit, offset, total, hasMore}}
 *
 * Amounts, block numbers, log indexes and chain timestamps (Unix seconds)
 * are decimal strings, as the Boon client expects; addresses EIP-55,
 * hashes lowercase. A route with neither an indexed recognition nor a
 * current context is unknown: 404 (and, behind the gatekeeper, no charge).
 * Reviews are not indexed yet: the summary says so (indexComplete false).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "hex.h"
#include "table.h"
#include "banned.h"

#define ROUTE_VERSION "1"

static const char *const interpretation =
    "Routed recognitions are optional onchain USDC gratuities sent after use of an endpoint, each "
    "with a fixed burn of 100000 BOON. They prove the recorded wallets, amounts, time, route ID and "
    "burn only: not response quality, not the endpoint's price, and not a ranking.";

static enum err
db_fail(struct resp *w, enum db_rc rc)
{
	return resp_fail(w, rc == DB_UNAVAILABLE ? ERR_DATABASE_UNAVAILABLE : ERR_INTERNAL, NULL, NULL);
}

/* EIP-55 text of 40 stored lowercase hex digits (JSON null when unparsable). */
static json_object *
address_new(const char *hex40)
{
	char t[ADDR_TEXT_LEN + 1];
	struct addr a;

	snprintf(t, sizeof(t), "0x%s", hex40 ? hex40 : "");
	if (addr_parse(t, strlen(t), &a) < 0)
		return NULL;
	return json_object_new_string(addr_format(&a, t));
}

static json_object *
hash_new(const char *hex64)
{
	char t[2 + 64 + 1];

	snprintf(t, sizeof(t), "0x%s", hex64 ? hex64 : "");
	return json_object_new_string(t);
}

static json_object *
dec_new(const char *s)
{
	return json_object_new_string(s ? s : "0");
}

/* The contract every record names: the configured companion. */
static json_object *
contract_new(const struct config *cfg)
{
	char t[ADDR_TEXT_LEN + 1];

	return json_object_new_string(addr_format(&cfg->companion_address, t));
}

/* *known: the route has indexed recognitions or current contexts. */
static enum db_rc
route_known(struct db *db, const struct config *cfg, const char *rid, bool *known)
{
	char q[512];
	uint64_t n = 0;
	bool found;
	enum db_rc rc;

	snprintf(q, sizeof(q), "SELECT EXISTS(SELECT 1 FROM route_recognition_stats WHERE chain_id = %"
	    PRIu64 " AND route_id = X'%s') OR EXISTS(SELECT 1 FROM route_contexts WHERE chain_id = %"
	    PRIu64 " AND route_id = X'%s' AND note_expires_at > UNIX_TIMESTAMP())", cfg->chain_id, rid,
	    cfg->chain_id, rid);
	rc = db_query_u64(db, q, &n, &found);
	*known = rc == DB_OK && n == 1;
	return rc;
}

/* One routed recognition record from a row of the recognitions query. */
static json_object *
record_new(MYSQL_ROW row, const char *route_hex)
{
	json_object *o = json_object_new_object(), *acc = json_object_new_object();
	char id[2 + 64 + 24];

	snprintf(id, sizeof(id), "0x%s:%s", row[0], row[1]);
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "contract", address_new(row[2]));
	json_object_object_add(o, "routeId", hash_new(route_hex));
	json_object_object_add(o, "tipper", address_new(row[5]));
	json_object_object_add(o, "contextRef", hash_new(row[6]));
	json_object_object_add(o, "endpointPayTo", address_new(row[7]));
	json_object_object_add(o, "endpointGratuityUsdc", dec_new(row[8]));
	json_object_object_add(o, "networkPayTo", address_new(row[9]));
	json_object_object_add(o, "networkGratuityUsdc", dec_new(row[10]));
	json_object_object_add(o, "boonBurned", dec_new(row[11]));
	json_object_object_add(o, "blockNumber", dec_new(row[3]));
	json_object_object_add(o, "blockTimestamp", dec_new(row[4]));
	json_object_object_add(o, "txHash", hash_new(row[0]));
	json_object_object_add(o, "logIndex", dec_new(row[1]));
	json_object_object_add(acc, "recognizer", json_object_new_array());
	json_object_object_add(acc, "endpoint", json_object_new_array());
	json_object_object_add(acc, "network", json_object_new_array());
	json_object_object_add(o, "accounts", acc);
	return o;
}

enum err
h_route_recognitions_get(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId"), *lim = req_val(r, "limit"),
	    *off = req_val(r, "offset");
	const struct config *cfg = r->cfg;
	char rh[67], ch[ADDR_LEN * 2 + 3], q[1024];
	uint64_t total = 0;
	bool known, found;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *list, *pg;
	enum db_rc rc;

	hex_encode(rid->b32, 32, rh);
	hex_encode(cfg->companion_address.b, ADDR_LEN, ch);
	if ((rc = route_known(r->db, cfg, rh + 2, &known)) != DB_OK)
		return db_fail(w, rc);
	if (!known)
		return resp_fail(w, ERR_NOT_FOUND, "routeId",
		    "No routed recognition or route context is known for this routeId.");
	snprintf(q, sizeof(q), "SELECT COUNT(*) FROM routed_boons WHERE chain_id = %" PRIu64
	    " AND route_id = X'%s' AND contract = X'%s'", cfg->chain_id, rh + 2, ch + 2);
	if ((rc = db_query_u64(r->db, q, &total, &found)) != DB_OK)
		return db_fail(w, rc);
	snprintf(q, sizeof(q), "SELECT LOWER(HEX(tx_hash)), log_index, LOWER(HEX(contract)), block_number, "
	    "block_time, LOWER(HEX(tipper)), LOWER(HEX(context_ref)), LOWER(HEX(endpoint_pay_to)), "
	    "endpoint_usdc, LOWER(HEX(network_pay_to)), network_usdc, boon_burned FROM routed_boons "
	    "WHERE chain_id = %" PRIu64 " AND route_id = X'%s' AND contract = X'%s' "
	    "ORDER BY block_number DESC, log_index DESC LIMIT %" PRIu64 " OFFSET %" PRIu64,
	    cfg->chain_id, rh + 2, ch + 2, lim->u, off->u);
	if ((rc = db_query(r->db, q, &res)) != DB_OK)
		return db_fail(w, rc);
	o = json_object_new_object();
	list = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL)
		json_object_array_add(list, record_new(row, rh + 2));
	if (res)
		mysql_free_result(res);
	json_object_object_add(o, "version", json_object_new_string(ROUTE_VERSION));
	json_object_object_add(o, "contract", contract_new(cfg));
	json_object_object_add(o, "routedBoons", list);
	json_object_object_add(o, "interpretation", json_object_new_string(interpretation));
	/* No wallet is linked to a handle yet, so every accounts[] is empty. */
	json_object_object_add(o, "identityResolution", json_object_new_string("complete"));
	pg = json_object_new_object();
	json_object_object_add(pg, "limit", json_object_new_int64((int64_t)lim->u));
	json_object_object_add(pg, "offset", json_object_new_int64((int64_t)off->u));
	json_object_object_add(pg, "total", json_object_new_int64((int64_t)total));
	json_object_object_add(pg, "hasMore", json_object_new_boolean(off->u + lim->u < total));
	json_object_object_add(o, "pagination", pg);
	resp_json(w, 200, o);
	json_object_put(o);
	return ERR_NONE;
}

/* recognition{} from the route's aggregate row (zeros and nulls when there is none). */
static enum db_rc
recognition_new(struct db *db, const struct config *cfg, const char *rid, json_object **out)
{
	char q[1024];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row = NULL;
	json_object *o = json_object_new_object();
	enum db_rc rc;

	snprintf(q, sizeof(q), "SELECT recognition_count, tipper_count, endpoint_usdc, network_usdc, "
	    "total_usdc, boon_burned, first_block_time, latest_block_time, latest_block_number, "
	    "LOWER(HEX(latest_tx_hash)) FROM route_recognition_stats WHERE chain_id = %" PRIu64
	    " AND route_id = X'%s'", cfg->chain_id, rid);
	if ((rc = db_query(db, q, &res)) != DB_OK) {
		json_object_put(o);
		return rc;
	}
	if (res)
		row = mysql_fetch_row(res);
	json_object_object_add(o, "routedBoonCount",
	    json_object_new_int64(row ? strtoll(row[0], NULL, 10) : 0));
	json_object_object_add(o, "distinctTipperWalletCount",
	    json_object_new_int64(row ? strtoll(row[1], NULL, 10) : 0));
	json_object_object_add(o, "endpointGratuityUsdc", dec_new(row ? row[2] : NULL));
	json_object_object_add(o, "networkGratuityUsdc", dec_new(row ? row[3] : NULL));
	json_object_object_add(o, "totalRecognitionUsdc", dec_new(row ? row[4] : NULL));
	json_object_object_add(o, "boonBurned", dec_new(row ? row[5] : NULL));
	json_object_object_add(o, "firstRecognitionAt", row ? dec_new(row[6]) : NULL);
	json_object_object_add(o, "latestRecognitionAt", row ? dec_new(row[7]) : NULL);
	json_object_object_add(o, "latestBlockNumber", row ? dec_new(row[8]) : NULL);
	json_object_object_add(o, "latestTxHash", row ? hash_new(row[9]) : NULL);
	if (res)
		mysql_free_result(res);
	*out = o;
	return DB_OK;
}

static json_object *
review_summary_new(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "count", json_object_new_int(0));
	json_object_object_add(o, "boonBackedCount", json_object_new_int(0));
	json_object_object_add(o, "receiptVerifiedCount", json_object_new_int(0));
	json_object_object_add(o, "selfReportedCount", json_object_new_int(0));
	json_object_object_add(o, "distinctReviewerWalletCount", json_object_new_int(0));
	json_object_object_add(o, "latestReviewAt", NULL);
	json_object_object_add(o, "indexComplete", json_object_new_boolean(false));
	return o;
}

static json_object *
receipt_authority_new(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "status", json_object_new_string("not_observed"));
	json_object_object_add(o, "signer", NULL);
	json_object_object_add(o, "payTo", NULL);
	return o;
}

enum err
h_route_get(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId");
	const struct config *cfg = r->cfg;
	char rh[67], url[CONFIG_STR_MAX + 128];
	bool known;
	json_object *o, *route, *rec = NULL, *ctx, *first, *sp = NULL;
	enum db_rc rc;

	hex_encode(rid->b32, 32, rh);
	if ((rc = route_known(r->db, cfg, rh + 2, &known)) != DB_OK)
		return db_fail(w, rc);
	if (!known)
		return resp_fail(w, ERR_NOT_FOUND, "routeId",
		    "No routed recognition or route context is known for this routeId.");
	if ((rc = recognition_new(r->db, cfg, rh + 2, &rec)) != DB_OK)
		return db_fail(w, rc);
	ctx = json_object_new_array();
	if ((rc = contexts_for_route(r->db, cfg, rid->b32, ctx)) != DB_OK) {
		json_object_put(rec);
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
	json_object_object_add(route, "reviewSummary", review_summary_new());
	json_object_object_add(route, "contexts", ctx);
	json_object_object_add(route, "signedPayload", sp);
	json_object_object_add(route, "receiptAuthority", receipt_authority_new());
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(ROUTE_VERSION));
	json_object_object_add(o, "contract", contract_new(cfg));
	json_object_object_add(o, "route", route);
	json_object_object_add(o, "interpretation", json_object_new_string(interpretation));
	snprintf(url, sizeof(url), "%s/api/v1/x402/routes/%s/recognitions", cfg->public_base_url, rh);
	json_object_object_add(o, "recognitionsUrl", json_object_new_string(url));
	snprintf(url, sizeof(url), "%s/api/v1/x402/routes/%s/reviews", cfg->public_base_url, rh);
	json_object_object_add(o, "reviewsUrl", json_object_new_string(url));
	resp_json(w, 200, o);
	json_object_put(o);
	return ERR_NONE;
}
