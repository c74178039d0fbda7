/*
 * site.c: free site reads under /api/site, rate-limited by nginx (rate class
 * "site": 10 r/s per client, bursts of 20).
 *
 * GET /api/site/x402/discover?q=&limit=&offset= : a page of endpoints from
 * the wider x402 network, as the catalog source listed them (URL, method,
 * description, service name, price). Listings are untrusted data: shown as
 * synced, never fetched, never ranked by payments or usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "json.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

static json_object *
str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}


enum err
h_site_discover_get(struct req *r, struct resp *w)
{
	const struct value *qv = req_val(r, "q");
	const char *q = qv ? qv->text : "";
	uint64_t limit = req_val(r, "limit")->u, offset = req_val(r, "offset")->u, total = 0;
	/* q: 400 characters, whose pattern takes at most 4 bytes each. */
	char b[4 * 402 + 2048];
	struct sql sql = SQL_ON(b);
	size_t qn = strlen(q);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *items, *query, *pg, *src;
	bool found;
	enum db_rc rc;

	sql_add(&sql, "SELECT COUNT(*) FROM catalog_resources");
	if (*q)
		sql_add(&sql, " WHERE search_text LIKE ?", SQL_LIKE_CONTAINS(q, qn));
	rc = db_query_u64(r->db, &sql, &total, &found);
	sql_reset(&sql);
	sql_add(&sql, "SELECT resource_url, method, description, service_name, network, asset, pay_to, "
	    "amount_atomic, price_usdc, DATE_FORMAT(synced_at, '%Y-%m-%dT%H:%i:%sZ'), "
	    "LOWER(HEX(route_id)), last_updated FROM catalog_resources");
	if (*q)
		sql_add(&sql, " WHERE search_text LIKE ?", SQL_LIKE_CONTAINS(q, qn));
	sql_add(&sql, " ORDER BY service_name, resource_url, method LIMIT ? OFFSET ?", SQL_U64(limit),
	    SQL_U64(offset));
	if (rc == DB_OK)
		rc = db_query(r->db, &sql, &res);
	if (rc != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);

	o = json_object_new_object();
	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		if (res)
			mysql_free_result(res);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_object_add(o, "version", json_object_new_string("1"));
	query = json_object_new_object();
	json_object_object_add(query, "q", json_object_new_string(q));
	json_object_object_add(query, "limit", json_object_new_int64((int64_t)limit));
	json_object_object_add(query, "offset", json_object_new_int64((int64_t)offset));
	json_object_object_add(o, "query", query);
	items = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *it = json_object_new_object(), *price = json_object_new_object();
		char rid[67];

		json_object_object_add(it, "url", json_object_new_string(row[0]));
		json_object_object_add(it, "method", str_or_null(row[1]));
		json_object_object_add(it, "description", json_object_new_string(row[2]));
		json_object_object_add(it, "serviceName", json_object_new_string(row[3]));
		if (row[10]) {
			snprintf(rid, sizeof(rid), "0x%s", row[10]);
			json_object_object_add(it, "routeId", json_object_new_string(rid));
		} else {
			json_object_object_add(it, "routeId", NULL);
		}
		json_object_object_add(price, "amount", str_or_null(row[8]));
		json_object_object_add(price, "currency", row[8] ? json_object_new_string("USDC") : NULL);
		json_object_object_add(price, "amountAtomic", str_or_null(row[7]));
		json_object_object_add(price, "network", str_or_null(row[4]));
		json_object_object_add(price, "asset", str_or_null(row[5]));
		json_object_object_add(price, "payTo", str_or_null(row[6]));
		json_object_object_add(price, "checkedAt", json_object_new_string(row[9]));
		json_object_object_add(price, "status", json_object_new_string(row[8] ? "stale" : "unknown"));
		json_object_object_add(it, "price", price);
		json_object_object_add(it, "listedLastUpdated", str_or_null(row[11]));
		json_object_array_add(items, it);
	}
	if (res)
		mysql_free_result(res);
	json_object_object_add(o, "items", items);
	pg = json_object_new_object();
	json_object_object_add(pg, "limit", json_object_new_int64((int64_t)limit));
	json_object_object_add(pg, "offset", json_object_new_int64((int64_t)offset));
	json_object_object_add(pg, "total", json_object_new_int64((int64_t)total));
	json_object_object_add(pg, "hasMore", json_object_new_boolean(offset + limit < total));
	json_object_object_add(o, "pagination", pg);
	src = json_object_new_object();
	json_object_object_add(src, "kind", json_object_new_string("x402_bazaar_discovery"));
	json_object_object_add(src, "configured", json_object_new_boolean(r->cfg->catalog_url[0] != '\0'));
	json_object_object_add(o, "source", src);
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "Endpoints as an x402 discovery catalog listed them at the sync time shown; untrusted "
	    "listing data, not verified by this service, not fetched, not ranked. A missing endpoint "
	    "is not a negative finding, and a listed price is stale until the endpoint's own 402 "
	    "challenge confirms it."));
	return resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
