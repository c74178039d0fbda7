/*
 * facts.c: a profile's activity facts, counted, paged and read one at a
 * time from the same four sources with the same conditions (facts.h).
 *
 * Each source is one SELECT of the same 22 columns (the fact's fields,
 * then kind-specific extras for its details); a page is the UNION ALL of
 * the four, each already cut to the page after the cursor, ordered once
 * more outside. The fact ID's text is computed in SQL as a binary string,
 * so SQL's order and the cursor's comparison are the same bytewise order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "facts.h"
#include "hex.h"
#include "json.h"
#include "sql.h"
#include "timefmt.h"
#include "valid.h"
#include "banned.h"

/* The wallets active in the profile now (one ?: the profile ID). */
#define ACTIVE_SET "(SELECT w.wallet FROM profile_wallets w WHERE w.profile_id = ? AND w.state = 'active')"

/*
 * Per source: its fact ID text, its occurredAt, its visibility condition
 * (the ?s: see each), and its SELECT list.
 */
#define FID_STORED "CAST(CONCAT('0x', LOWER(HEX(a.activity_id))) AS BINARY)"
#define AT_STORED "a.occurred_at"
#define W_STORED "a.profile_id = ? AND a.account IN " ACTIVE_SET              /* pid, pid */
#define SEL_STORED "SELECT " FID_STORED " AS fid, a.kind, a.account, a.route_id, a.origin, a.method, " \
	"a.path, a.network, a.asset, a.amount_atomic, a.tx_hash, " AT_STORED " AS occurred, a.evidence_kind, " \
	"a.details, NULL AS x1, NULL AS x2, NULL AS x3, NULL AS x4, NULL AS x5, NULL AS x6, NULL AS x7, " \
	"NULL AS x8 FROM profile_activity a WHERE " W_STORED

#define FID_RECOG "CAST(CONCAT('recognized-0x', LOWER(HEX(b.tx_hash)), '-', b.log_index) AS BINARY)"
#define AT_RECOG "GREATEST(b.block_time, 1)"
#define W_RECOG "b.chain_id = ? AND b.contract = ? AND b.tipper IN " ACTIVE_SET  /* chain, companion, pid */
#define SEL_RECOG "SELECT " FID_RECOG " AS fid, 'recognized', b.tipper, b.route_id, NULL, NULL, NULL, ?, ?, " \
	"b.endpoint_usdc + b.network_usdc, b.tx_hash, " AT_RECOG " AS occurred, 'routed_recognition', NULL, b.log_index, " \
	"b.block_number, b.endpoint_pay_to, b.endpoint_usdc, b.network_pay_to, b.network_usdc, b.boon_burned, " \
	"b.context_ref FROM routed_boons b WHERE " W_RECOG                       /* network, asset; W */

#define FID_REVIEW "CAST(CONCAT('reviewed-0x', LOWER(HEX(v.digest))) AS BINARY)"
#define AT_REVIEW "GREATEST(v.created_at, 1)"
#define W_REVIEW "v.chain_id = ? AND v.reviewer IN " ACTIVE_SET                /* chain, pid */
#define SEL_REVIEW "SELECT " FID_REVIEW " AS fid, 'reviewed', v.reviewer, v.route_id, NULL, NULL, NULL, " \
	"IF(v.recognition_tx_hash IS NULL, NULL, ?), NULL, NULL, v.recognition_tx_hash, " AT_REVIEW " AS occurred, " \
	"v.lane, NULL, v.review_text, DATE_FORMAT(v.published_at, '%Y-%m-%dT%H:%i:%sZ'), v.digest, " \
	"v.recognition_log_index, NULL, NULL, NULL, NULL FROM reviews v WHERE " W_REVIEW  /* network; W */

#define FID_AREV "CAST(CONCAT('reviewed-activity-0x', LOWER(HEX(ar.activity_id))) AS BINARY)"
#define AT_AREV "GREATEST(ar.created_at, 1)"
#define W_AREV "ar.profile_id = ? AND ar.reviewer IN " ACTIVE_SET              /* pid, pid */
#define SEL_AREV "SELECT " FID_AREV " AS fid, 'reviewed', ar.reviewer, ar.route_id, NULL, NULL, NULL, ?, NULL, " \
	"NULL, ar.tx_hash, " AT_AREV " AS occurred, 'client_settlement', NULL, ar.review_text, " \
	"DATE_FORMAT(FROM_UNIXTIME(ar.published_at), '%Y-%m-%dT%H:%i:%sZ'), ar.digest, NULL, " \
	"ar.activity_id, NULL, NULL, NULL FROM activity_reviews ar WHERE " W_AREV  /* network; W */

/* Columns of a fact row. */
enum {
	C_FID, C_KIND, C_ACCOUNT, C_ROUTE, C_ORIGIN, C_METHOD, C_PATH, C_NETWORK, C_ASSET, C_AMOUNT, C_TX,
	C_AT, C_EVIDENCE, C_DETAILS, C_X1, C_X2, C_X3, C_X4, C_X5, C_X6, C_X7, C_X8, C__MAX
};

#define FACTS_SQL_MAX 12288

/* The network of chain facts: Base, the only chain of profile accounts (else unknown). */
static const char *
fact_network(const struct config *cfg)
{
	return strcmp(cfg->network, VALID_ACCOUNT_CHAIN) == 0 ? VALID_ACCOUNT_CHAIN : NULL;
}

/*
 * One source's SELECT: after the cursor `after` (when not NULL), or only
 * the fact `one` (when not NULL), newest first, at most limit rows (0: no
 * LIMIT).
 */
static void
source_select(struct sql *q, const struct config *cfg, const uint8_t pid[16], enum fact_src src,
    const struct feed_cursor *after, const char *after_id, const struct fact_id *one, uint64_t limit)
{
	const char *net = fact_network(cfg);

	switch (src) {
	case FACT_STORED:
		sql_add(q, SEL_STORED, SQL_BYTES(pid, 16), SQL_BYTES(pid, 16));
		if (after)
			sql_add(q, " AND (" AT_STORED " < ? OR (" AT_STORED " = ? AND " FID_STORED " < ?))",
			    SQL_U64(after->at), SQL_U64(after->at), SQL_TEXT(after_id));
		if (one)
			sql_add(q, " AND a.activity_id = ?", SQL_BYTES(one->key, 32));
		break;
	case FACT_RECOGNIZED:
		sql_add(q, SEL_RECOG, SQL_TEXT(net), SQL_BYTES(cfg->usdc_address.b, ADDR_LEN),
		    SQL_U64(cfg->chain_id), SQL_BYTES(cfg->companion_address.b, ADDR_LEN), SQL_BYTES(pid, 16));
		if (after)
			sql_add(q, " AND (" AT_RECOG " < ? OR (" AT_RECOG " = ? AND " FID_RECOG " < ?))",
			    SQL_U64(after->at), SQL_U64(after->at), SQL_TEXT(after_id));
		if (one)
			sql_add(q, " AND b.tx_hash = ? AND b.log_index = ?", SQL_BYTES(one->key, 32),
			    SQL_U64(one->log_index));
		break;
	case FACT_REVIEW:
		sql_add(q, SEL_REVIEW, SQL_TEXT(net), SQL_U64(cfg->chain_id), SQL_BYTES(pid, 16));
		if (after)
			sql_add(q, " AND (" AT_REVIEW " < ? OR (" AT_REVIEW " = ? AND " FID_REVIEW " < ?))",
			    SQL_U64(after->at), SQL_U64(after->at), SQL_TEXT(after_id));
		if (one)
			sql_add(q, " AND v.digest = ?", SQL_BYTES(one->key, 32));
		break;
	default:
		sql_add(q, SEL_AREV, SQL_TEXT(net), SQL_BYTES(pid, 16), SQL_BYTES(pid, 16));
		if (after)
			sql_add(q, " AND (" AT_AREV " < ? OR (" AT_AREV " = ? AND " FID_AREV " < ?))",
			    SQL_U64(after->at), SQL_U64(after->at), SQL_TEXT(after_id));
		if (one)
			sql_add(q, " AND ar.activity_id = ?", SQL_BYTES(one->key, 32));
		break;
	}
	if (limit)
		sql_add(q, " ORDER BY occurred DESC, fid DESC LIMIT ?", SQL_U64(limit));
}

static json_object *
text_or_null(const char *s, unsigned long n)
{
	return s ? json_object_new_string_len(s, (int)n) : NULL;
}

static json_object *
hex_or_null(const char *s, unsigned long n, size_t want)
{
	char h[2 * 32 + 3];

	if (s == NULL || n != want || want > 32)
		return NULL;
	return json_object_new_string(hex_encode((const uint8_t *)s, want, h));
}

static json_object *
addr_or_null(const char *s, unsigned long n)
{
	struct addr a;
	char t[ADDR_TEXT_LEN + 1];

	if (s == NULL || n != ADDR_LEN)
		return NULL;
	memcpy(a.b, s, ADDR_LEN);
	return json_object_new_string(addr_format(&a, t));
}

/* Integer column i as JSON; NULL and *rc DB_ERROR (logged) when it does not parse. */
static json_object *
int_json(MYSQL_ROW row, unsigned int i, const char *name, enum db_rc *rc)
{
	int64_t v;

	if (db_row_i64(row, i, name, &v) != DB_OK) {
		*rc = DB_ERROR;
		return NULL;
	}
	return json_object_new_int64(v);
}

/* A stored details column (JSON this service wrote): the object, else NULL. */
static json_object *
stored_details(const char *s, unsigned long n)
{
	json_object *o = NULL;
	struct json_error je;

	if (s == NULL || json_parse_strict(s, n, NULL, &o, &je) < 0)
		return NULL;
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The details of a derived fact of source src from its extra columns (*rc as int_json). */
static json_object *
derived_details(const struct config *cfg, const uint8_t pid[16], enum fact_src src, MYSQL_ROW row,
    const unsigned long *len, enum db_rc *rc)
{
	json_object *d = json_object_new_object();
	char url[CONFIG_STR_MAX + 256], id[37], h[67];

	if (src == FACT_RECOGNIZED) {
		json_object_object_add(d, "logIndex", int_json(row, C_X1, "logIndex", rc));
		json_object_object_add(d, "blockNumber", int_json(row, C_X2, "blockNumber", rc));
		json_object_object_add(d, "endpointPayTo", addr_or_null(row[C_X3], len[C_X3]));
		json_object_object_add(d, "endpointGratuityUsdc", text_or_null(row[C_X4], len[C_X4]));
		json_object_object_add(d, "networkPayTo", addr_or_null(row[C_X5], len[C_X5]));
		json_object_object_add(d, "networkGratuityUsdc", text_or_null(row[C_X6], len[C_X6]));
		json_object_object_add(d, BRAND_LOWER "Burned", text_or_null(row[C_X7], len[C_X7]));
		json_object_object_add(d, "contextRef", hex_or_null(row[C_X8], len[C_X8], 32));
		return d;
	}
	json_object_object_add(d, "reviewText", text_or_null(row[C_X1], len[C_X1]));
	json_object_object_add(d, "publishedAt", text_or_null(row[C_X2], len[C_X2]));
	json_object_object_add(d, "digest", hex_or_null(row[C_X3], len[C_X3], 32));
	if (src == FACT_ACTIVITY_REVIEW && row[C_X5] && len[C_X5] == 32) {
		hex_encode((const uint8_t *)row[C_X5], 32, h);
		uuid_text(pid, id);
		json_object_object_add(d, "activityId", json_object_new_string(h));
		snprintf(url, sizeof(url), "%s/api/site/x402/profiles/%s/activity/%s", cfg->public_base_url, id, h);
	} else {
		if (row[C_X4])
			json_object_object_add(d, "recognitionLogIndex", int_json(row, C_X4, "recognitionLogIndex", rc));
		hex_encode((const uint8_t *)row[C_ROUTE], 32, h);
		snprintf(url, sizeof(url), "%s/api/site/x402/routes/%s/reviews", cfg->public_base_url, h);
	}
	json_object_object_add(d, "sourceUrl", json_object_new_string(url));
	return d;
}

/*
 * A fact row as the fact object of the feed (every field, null where it
 * has none); NULL for a row that is not a fact (never written by us), and
 * *id gets its ID. NULL with *rc DB_ERROR (logged): a fact whose numbers
 * do not parse, which fails the request.
 */
static json_object *
fact_json(const struct config *cfg, const uint8_t pid[16], MYSQL_ROW row, const unsigned long *len,
    struct fact_id *id, enum db_rc *rc)
{
	json_object *o;

	if (row[C_FID] == NULL || factid_parse(row[C_FID], len[C_FID], id) < 0 || row[C_KIND] == NULL ||
	    row[C_ACCOUNT] == NULL || len[C_ACCOUNT] != ADDR_LEN || row[C_AT] == NULL || row[C_EVIDENCE] == NULL ||
	    (id->src != FACT_STORED && (row[C_ROUTE] == NULL || len[C_ROUTE] != 32)))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string_len(row[C_FID], (int)len[C_FID]));
	json_object_object_add(o, "kind", json_object_new_string(row[C_KIND]));
	json_object_object_add(o, "accountId", account_json((const uint8_t *)row[C_ACCOUNT]));
	json_object_object_add(o, "routeId", hex_or_null(row[C_ROUTE], len[C_ROUTE], 32));
	json_object_object_add(o, "origin", text_or_null(row[C_ORIGIN], len[C_ORIGIN]));
	json_object_object_add(o, "method", text_or_null(row[C_METHOD], len[C_METHOD]));
	json_object_object_add(o, "path", text_or_null(row[C_PATH], len[C_PATH]));
	json_object_object_add(o, "network", text_or_null(row[C_NETWORK], len[C_NETWORK]));
	json_object_object_add(o, "asset", addr_or_null(row[C_ASSET], len[C_ASSET]));
	json_object_object_add(o, "amountAtomic", text_or_null(row[C_AMOUNT], len[C_AMOUNT]));
	json_object_object_add(o, "transaction", hex_or_null(row[C_TX], len[C_TX], 32));
	json_object_object_add(o, "occurredAt", int_json(row, C_AT, "occurredAt", rc));
	json_object_object_add(o, "evidenceKind", json_object_new_string(row[C_EVIDENCE]));
	json_object_object_add(o, "details", id->src == FACT_STORED ? stored_details(row[C_DETAILS], len[C_DETAILS]) :
	    derived_details(cfg, pid, id->src, row, len, rc));
	if (*rc != DB_OK) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

enum db_rc
facts_wallets(struct db *db, const uint8_t pid[16], struct fact_wallet *w, size_t *n)
{
	char buf[512];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	*n = 0;
	sql_add(&q, "SELECT wallet, role, policy, activated_at FROM profile_wallets "
	    "WHERE profile_id = ? AND state = 'active' ORDER BY slot", SQL_BYTES(pid, 16));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	while (res && *n < PROFILE_WALLETS_MAX && (row = mysql_fetch_row(res)) != NULL &&
	    (len = mysql_fetch_lengths(res)) != NULL) {
		if (!row[0] || len[0] != 20 || !row[1] || !row[2])
			continue;
		memcpy(w[*n].addr, row[0], 20);
		snprintf(w[*n].role, sizeof(w[*n].role), "%s", row[1]);
		snprintf(w[*n].policy, sizeof(w[*n].policy), "%s", row[2]);
		if ((rc = db_row_i64_or(row, 3, "activated_at", 0, &w[*n].linked_at)) != DB_OK)
			break;
		(*n)++;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

enum db_rc
facts_count(struct db *db, const struct config *cfg, const uint8_t pid[16], struct fact_counts *c)
{
	char buf[4096];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	memset(c, 0, sizeof(*c));
	sql_add(&q, "SELECT (SELECT COUNT(*) FROM profile_activity a WHERE " W_STORED " AND a.kind = 'used'), "
	    "(SELECT COUNT(*) FROM profile_activity a WHERE " W_STORED " AND a.kind = 'paid_settlement'), ",
	    SQL_BYTES(pid, 16), SQL_BYTES(pid, 16), SQL_BYTES(pid, 16), SQL_BYTES(pid, 16));
	sql_add(&q, "(SELECT COUNT(*) FROM reviews v WHERE " W_REVIEW ") + "
	    "(SELECT COUNT(*) FROM activity_reviews ar WHERE " W_AREV "), ", SQL_U64(cfg->chain_id),
	    SQL_BYTES(pid, 16), SQL_BYTES(pid, 16), SQL_BYTES(pid, 16));
	sql_add(&q, "(SELECT COUNT(*) FROM routed_boons b WHERE " W_RECOG "), ", SQL_U64(cfg->chain_id),
	    SQL_BYTES(cfg->companion_address.b, ADDR_LEN), SQL_BYTES(pid, 16));
	sql_add(&q, "(SELECT COUNT(*) FROM profile_wallets WHERE profile_id = ? AND state = 'active' "
	    "AND role = 'member')", SQL_BYTES(pid, 16));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res == NULL || (row = mysql_fetch_row(res)) == NULL) {
		if (res)
			mysql_free_result(res);
		return DB_ERROR;
	}
	if ((rc = db_row_u64(row, 0, "used", &c->used)) == DB_OK &&
	    (rc = db_row_u64(row, 1, "paid_settlement", &c->paid_settlement)) == DB_OK &&
	    (rc = db_row_u64(row, 2, "reviewed", &c->reviewed)) == DB_OK &&
	    (rc = db_row_u64(row, 3, "recognized", &c->recognized)) == DB_OK)
		rc = db_row_u64(row, 4, "linked_wallet", &c->linked_wallet);
	mysql_free_result(res);
	return rc;
}

enum db_rc
facts_page(struct db *db, const struct config *cfg, const uint8_t pid[16], const struct feed_cursor *after,
    uint64_t limit, json_object *arr, bool *more, struct feed_cursor *last)
{
	static const enum fact_src order[] = { FACT_STORED, FACT_RECOGNIZED, FACT_REVIEW, FACT_ACTIVITY_REVIEW };
	char *buf, after_id[FACTID_TEXT_MAX] = "";
	struct sql q;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	uint64_t shown = 0;
	enum db_rc rc;

	*more = false;
	if (limit < 1 || limit > FACTS_PAGE_MAX)
		return DB_ERROR;
	if (after && factid_format(&after->id, after_id, sizeof(after_id)) < 0)
		return DB_ERROR;
	if ((buf = malloc(FACTS_SQL_MAX)) == NULL)
		return DB_ERROR;
	sql_on(&q, buf, FACTS_SQL_MAX);
	/* Each source cut to the page first, so the union stays small. */
	sql_add(&q, "SELECT * FROM (");
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (i)
			sql_add(&q, " UNION ALL ");
		sql_add(&q, "(");
		source_select(&q, cfg, pid, order[i], after, after_id, NULL, limit + 1);
		sql_add(&q, ")");
	}
	sql_add(&q, ") f ORDER BY f.occurred DESC, f.fid DESC LIMIT ?", SQL_U64(limit + 1));
	rc = db_query(db, &q, &res);
	free(buf);
	if (rc != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL) {
		struct fact_id id;
		json_object *f;

		if (shown == limit) {
			*more = true;
			break;
		}
		if ((f = fact_json(cfg, pid, row, len, &id, &rc)) == NULL) {
			if (rc != DB_OK)
				break;
			continue;
		}
		json_object_array_add(arr, f);
		if ((rc = db_row_u64(row, C_AT, "occurredAt", &last->at)) != DB_OK)
			break;
		last->id = id;
		shown++;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

enum db_rc
facts_one(struct db *db, const struct config *cfg, const uint8_t pid[16], const struct fact_id *id,
    json_object **out)
{
	char buf[4096];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	struct fact_id got;
	enum db_rc rc;

	*out = NULL;
	source_select(&q, cfg, pid, id->src, NULL, NULL, id, 1);
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL)
		*out = fact_json(cfg, pid, row, len, &got, &rc);
	if (res)
		mysql_free_result(res);
	return rc;
}

enum db_rc
facts_activity_review(struct db *db, const uint8_t pid[16], const uint8_t activity_id[32], json_object **out)
{
	char buf[512], h[67], t[40];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	json_object *o;
	int64_t published;
	enum db_rc rc;

	*out = NULL;
	sql_add(&q, "SELECT reviewer, route_id, tx_hash, review_text, created_at, published_at, digest "
	    "FROM activity_reviews WHERE activity_id = ? AND profile_id = ?", SQL_BYTES(activity_id, 32),
	    SQL_BYTES(pid, 16));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL &&
	    row[0] && len[0] == 20 && row[3] && row[4] && row[5]) {
		if ((rc = db_row_i64(row, 5, "published_at", &published)) != DB_OK) {
			mysql_free_result(res);
			return rc;
		}
		o = json_object_new_object();
		json_object_object_add(o, "evidenceKind", json_object_new_string("client_settlement"));
		json_object_object_add(o, "reviewText", json_object_new_string_len(row[3], (int)len[3]));
		json_object_object_add(o, "reviewer", addr_or_null(row[0], len[0]));
		json_object_object_add(o, "accountId", account_json((const uint8_t *)row[0]));
		json_object_object_add(o, "routeId", hex_or_null(row[1], len[1], 32));
		json_object_object_add(o, "transaction", hex_or_null(row[2], len[2], 32));
		json_object_object_add(o, "createdAt", int_json(row, 4, "created_at", &rc));
		json_object_object_add(o, "publishedAt", json_object_new_string(
		    time_rfc3339((time_t)published, t, sizeof(t))));
		json_object_object_add(o, "digest", row[6] && len[6] == 32 ?
		    json_object_new_string(hex_encode((const uint8_t *)row[6], 32, h)) : NULL);
		if (rc == DB_OK)
			*out = o;
		else
			json_object_put(o);
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

json_object *
facts_counts_json(const struct fact_counts *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "used", json_object_new_int64((int64_t)c->used));
	json_object_object_add(o, "paid_settlement", json_object_new_int64((int64_t)c->paid_settlement));
	json_object_object_add(o, "reviewed", json_object_new_int64((int64_t)c->reviewed));
	json_object_object_add(o, "recognized", json_object_new_int64((int64_t)c->recognized));
	json_object_object_add(o, "linked_wallet", json_object_new_int64((int64_t)c->linked_wallet));
	return o;
}
