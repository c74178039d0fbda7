/*
 * sitewallet.c: the free, rate-limited site reads about one wallet
 * (docs/PROTOCOL.md, Tip reads; nginx rate class "site"):
 *
 *   GET /api/site/link/wallet?address=<EIP-55 address>
 *     {version, address, handles [handle], accounts [linked account,
 *      handlers/accounts.h]}: the reverse lookup of the handles linked to
 *     the wallet. An address that is not EIP-55 checksummed is a 400 (the
 *     row's validator), so a typo never reads as "no accounts".
 *   GET /api/site/x402/wallet-endpoints?wallet=<EIP-55 address>
 *     {version, wallet, endpoints [{routeId|null, method|null, url|null,
 *      serviceName|null, matchLevel "provider_candidate", sources
 *      [catalog|route_context|routed_recognition]}], truncated,
 *      interpretation}: endpoints whose payments go to this wallet as their
 *     provider: catalog listings with this payTo, current route contexts
 *     this wallet published as an endpoint participant, and routes whose
 *     indexed recognitions funded it as the endpoint payTo. A provider-level
 *     match only: never evidence that the wallet used, operates or vouches
 *     for an endpoint (no verified use edge). At most WE_MAX endpoints.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts.h"
#include "addr.h"
#include "dbfail.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

#define SITE_WALLET_VERSION "0.1"
#define WE_MAX 100

enum we_source { WE_CATALOG, WE_CONTEXT, WE_RECOGNITION, WE__MAX };

static const char *const we_source_names[WE__MAX] = {
	[WE_CATALOG] = "catalog", [WE_CONTEXT] = "route_context", [WE_RECOGNITION] = "routed_recognition",
};

struct we {
	char rid[65];            /* "" when the listing gives no route ID */
	char method[17];
	char url[2049];
	char service[161];
	bool src[WE__MAX];
};

static enum err
answer(struct resp *w, json_object *o)
{
	enum err e = resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;

	json_object_put(o);
	return e;
}

enum err
h_site_link_wallet_get(struct req *r, struct resp *w)
{
	const struct value *av = req_val(r, "address");
	char t[ADDR_TEXT_LEN + 1];
	json_object *o, *handles, *accounts;
	enum db_rc rc;

	handles = json_object_new_array();
	accounts = json_object_new_array();
	if ((rc = accounts_of_wallet(r->db, r->cfg, av->addr.b, accounts, handles)) != DB_OK) {
		json_object_put(handles);
		json_object_put(accounts);
		return db_fail(w, rc);
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(SITE_WALLET_VERSION));
	json_object_object_add(o, "address", json_object_new_string(addr_format(&av->addr, t)));
	json_object_object_add(o, "handles", handles);
	json_object_object_add(o, "accounts", accounts);
	return answer(w, o);
}

/* The entry for (rid or, without one, method and url), added when new; NULL when full. */
static struct we *
we_get(struct we *v, size_t *n, bool *full, const char *rid, const char *method, const char *url)
{
	for (size_t i = 0; i < *n; i++) {
		if (rid && *rid ? strcmp(v[i].rid, rid) == 0 :
		    v[i].rid[0] == '\0' && strcmp(v[i].method, method ? method : "") == 0 &&
		    strcmp(v[i].url, url ? url : "") == 0)
			return &v[i];
	}
	if (*n == WE_MAX) {
		*full = true;
		return NULL;
	}
	memset(&v[*n], 0, sizeof(v[0]));
	snprintf(v[*n].rid, sizeof(v[0].rid), "%s", rid ? rid : "");
	return &v[(*n)++];
}

static void
we_fill(struct we *e, const char *method, const char *url, const char *service)
{
	if (e->method[0] == '\0' && method)
		snprintf(e->method, sizeof(e->method), "%s", method);
	if (e->url[0] == '\0' && url)
		snprintf(e->url, sizeof(e->url), "%s", url);
	if (e->service[0] == '\0' && service)
		snprintf(e->service, sizeof(e->service), "%s", service);
}

static json_object *
text_or_null(const char *s)
{
	return *s ? json_object_new_string(s) : NULL;
}

enum err
h_site_wallet_endpoints_get(struct req *r, struct resp *w)
{
	const struct value *wv = req_val(r, "wallet");
	char b[1024], lower[ADDR_TEXT_LEN + 1], t[ADDR_TEXT_LEN + 1];
	struct sql q = SQL_ON(b);
	struct we *v;
	size_t n = 0;
	bool full = false;
	json_object *o, *arr;
	enum db_rc rc = DB_OK;

	if ((v = calloc(WE_MAX, sizeof(*v))) == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	addr_format_lower(&wv->addr, lower);
	for (int s = 0; s < WE__MAX && rc == DB_OK; s++) {
		MYSQL_RES *res = NULL;
		MYSQL_ROW row;

		sql_reset(&q);
		if (s == WE_CATALOG)
			sql_add(&q, "SELECT LOWER(HEX(route_id)), method, resource_url, service_name FROM "
			    "catalog_resources WHERE LOWER(pay_to) = ? ORDER BY service_name, resource_url, "
			    "method LIMIT ?", SQL_TEXT(lower), SQL_U64(WE_MAX + 1));
		else if (s == WE_CONTEXT)
			sql_add(&q, "SELECT LOWER(HEX(route_id)), method, public_endpoint_url, NULL FROM "
			    "route_contexts WHERE chain_id = ? AND publisher = ? AND "
			    "FIND_IN_SET('endpoint', participant_roles) > 0 AND note_expires_at > "
			    "UNIX_TIMESTAMP() ORDER BY route_id LIMIT ?", SQL_U64(r->cfg->chain_id),
			    SQL_BYTES(wv->addr.b, 20), SQL_U64(WE_MAX + 1));
		else
			sql_add(&q, "SELECT LOWER(HEX(route_id)), NULL, NULL, NULL FROM routed_boons WHERE "
			    "chain_id = ? AND endpoint_pay_to = ? AND endpoint_usdc > 0 GROUP BY route_id "
			    "ORDER BY MAX(block_number) DESC, route_id LIMIT ?", SQL_U64(r->cfg->chain_id),
			    SQL_BYTES(wv->addr.b, 20), SQL_U64(WE_MAX + 1));
		if ((rc = db_query(r->db, &q, &res)) != DB_OK)
			break;
		while (res && (row = mysql_fetch_row(res)) != NULL) {
			struct we *e = we_get(v, &n, &full, row[0], row[1], row[2]);

			if (e == NULL)
				break;
			e->src[s] = true;
			we_fill(e, row[1], row[2], row[3]);
		}
		if (res)
			mysql_free_result(res);
	}
	if (rc != DB_OK) {
		free(v);
		return db_fail(w, rc);
	}
	arr = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_new_object(), *src = json_object_new_array();
		char rid[67];

		snprintf(rid, sizeof(rid), "0x%s", v[i].rid);
		json_object_object_add(e, "routeId", v[i].rid[0] ? json_object_new_string(rid) : NULL);
		json_object_object_add(e, "method", text_or_null(v[i].method));
		json_object_object_add(e, "url", text_or_null(v[i].url));
		json_object_object_add(e, "serviceName", text_or_null(v[i].service));
		json_object_object_add(e, "matchLevel", json_object_new_string("provider_candidate"));
		for (int s = 0; s < WE__MAX; s++)
			if (v[i].src[s])
				json_object_array_add(src, json_object_new_string(we_source_names[s]));
		json_object_object_add(e, "sources", src);
		json_object_array_add(arr, e);
	}
	free(v);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(SITE_WALLET_VERSION));
	json_object_object_add(o, "wallet", json_object_new_string(addr_format(&wv->addr, t)));
	json_object_object_add(o, "endpoints", arr);
	json_object_object_add(o, "truncated", json_object_new_boolean(full));
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "Endpoints whose payments go to this wallet as their provider (a catalog listing's payTo, "
	    "a route context it published as the endpoint, or recognitions that paid it as the "
	    "endpoint): provider-level candidates only. Not a verified use edge: this does not show "
	    "that the wallet used, operates or vouches for any endpoint, and an absent endpoint is not "
	    "a negative finding."));
	return answer(w, o);
}
