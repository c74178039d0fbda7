/*
 * graph.c: the paid recognition graph (docs/PROTOCOL.md, Paid reads), over the
 * routes the
 * directory selects (routes_select, directory.h: same query family, same
 * order, no cursor):
 *
 *   GET /api/v1/x402/graph?sort&context&limit=1..50 (20)&eventLimit=1..500 (100)
 *       &q&origin&method&recognizer
 *     {version "1", contract,
 *      query {q, sort, context, limit, eventLimit, origin, method, recognizer},
 *      nodes [endpoint nodes: the directory entry of each selected route
 *               plus id "route:<routeId>" and kind "endpoint";
 *             wallet nodes {id "wallet:<EIP-55>", kind "wallet", address,
 *               roles [recognizer|endpointPayTo|networkPayTo|reviewer|
 *               contextPublisher]}],
 *      edges [{kind "recognized", from wallet (the tipper), to route, txHash,
 *               logIndex, blockNumber, blockTimestamp, endpointPayTo|null,
 *               endpointGratuityUsdc, networkPayTo|null, networkGratuityUsdc,
 *               boonBurned}   one per indexed routed recognition, newest first;
 *             {kind "reviewed", from wallet (the reviewer), to route,
 *               evidenceKind, reviewCount, latestPublishedAt}
 *               one per (route, reviewer, lane): lanes stay separate;
 *             {kind "described", from wallet (the publisher), to route,
 *               participantRoles, publishedAt, expiresAt}
 *               one per current route context],
 *      bounds {routes {limit, shown, hasMore}, eventLimitScope,
 *              recognized|reviewed|described {shown, matched, truncated}},
 *      interpretation {edges, notProofOf []}}
 *
 * Bounds: at most limit endpoint nodes, and eventLimit is a total per edge
 * kind over all the selected routes (not per route): at most eventLimit
 * recognized edges (the newest recognitions), eventLimit reviewed edges
 * (the most recently reviewed groups) and eventLimit described edges (the
 * newest publications); `matched` says how many there were, so an answer
 * holds at most 50 endpoints, 1500 edges and the wallets they name.
 * A recognized edge's payTo is null for a row that received nothing; each
 * funded payTo is a wallet node. recognizer selects routes; the edges of
 * those routes include every wallet's activity.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "buf.h"
#include "dbfail.h"
#include "directory.h"
#include "hex.h"
#include "sql.h"
#include "table.h"
#include "timefmt.h"
#include "banned.h"

#define GRAPH_VERSION "1"

enum wallet_role {
	ROLE_RECOGNIZER,
	ROLE_ENDPOINT_PAY_TO,
	ROLE_NETWORK_PAY_TO,
	ROLE_REVIEWER,
	ROLE_CONTEXT_PUBLISHER,
	ROLE__MAX
};

static const char *const role_names[ROLE__MAX] = {
	[ROLE_RECOGNIZER] = "recognizer",
	[ROLE_ENDPOINT_PAY_TO] = "endpointPayTo",
	[ROLE_NETWORK_PAY_TO] = "networkPayTo",
	[ROLE_REVIEWER] = "reviewer",
	[ROLE_CONTEXT_PUBLISHER] = "contextPublisher",
};

/* What one answer collects. */
struct graph {
	struct req *r;
	uint8_t (*ids)[32];     /* the selected route IDs */
	size_t nids;
	json_object *edges;
	json_object *wallets;   /* lowercase hex40 -> roles bit mask, in first-seen order */
	json_object *bounds;
};

enum err
h_graph_check(struct req *r, struct resp *w)
{
	struct route_filter f;

	return route_filter_from_req(r, w, &f);
}

/* "wallet:<EIP-55>" of 40 stored hex digits into out; NULL when unparsable. */
static const char *
wallet_id(const char *hex40, char *out, size_t cap, char addr_out[ADDR_TEXT_LEN + 1])
{
	struct addr a;

	if (addr_from_digits(hex40, &a) < 0)
		return NULL;
	addr_format(&a, addr_out);
	snprintf(out, cap, "wallet:%s", addr_out);
	return out;
}

/*
 * Note a wallet and one of its roles: its node id into id[cap] and its
 * EIP-55 address into a; returns id, or NULL when hex40 is unparsable.
 */
static const char *
wallet_note(struct graph *g, const char *hex40, enum wallet_role role, char *id, size_t cap,
    char a[ADDR_TEXT_LEN + 1])
{
	json_object *v;
	int mask = 0;

	if (wallet_id(hex40, id, cap, a) == NULL)
		return NULL;
	if (json_object_object_get_ex(g->wallets, hex40, &v))
		mask = json_object_get_int(v);
	json_object_object_add(g->wallets, hex40, json_object_new_int(mask | (1 << role)));
	return id;
}

static json_object *
edge_new(const char *kind, const char *from, const char *route_hex)
{
	json_object *e = json_object_new_object();
	char to[6 + 2 + 64 + 1];

	snprintf(to, sizeof(to), "route:0x%s", route_hex);
	json_object_object_add(e, "kind", json_object_new_string(kind));
	json_object_object_add(e, "from", json_object_new_string(from));
	json_object_object_add(e, "to", json_object_new_string(to));
	return e;
}

/* bounds.<kind> = {shown, matched, truncated}. */
static void
bounds_add(struct graph *g, const char *kind, uint64_t shown, uint64_t matched)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "shown", json_object_new_int64((int64_t)shown));
	json_object_object_add(o, "matched", json_object_new_int64((int64_t)matched));
	json_object_object_add(o, "truncated", json_object_new_boolean(shown < matched));
	json_object_object_add(g->bounds, kind, o);
}

/* The selected route IDs as "?,?,..." ("NULL" when none: IN (NULL) matches nothing). */
static void
add_ids(struct sql *q, const struct graph *g)
{
	if (g->nids == 0)
		sql_add(q, "NULL");
	for (size_t i = 0; i < g->nids; i++)
		if (i)
			sql_add(q, ",?", SQL_BYTES(g->ids[i], 32));
		else
			sql_add(q, "?", SQL_BYTES(g->ids[i], 32));
}

/* Run the count and then the rows. */
static enum db_rc
graph_rows(struct graph *g, const struct sql *count, const struct sql *rows, uint64_t *matched,
    MYSQL_RES **res)
{
	bool found;
	enum db_rc rc;

	if ((rc = db_query_u64(g->r->db, count, matched, &found)) != DB_OK)
		return rc;
	return db_query(g->r->db, rows, res);
}

/* Two statements over buffers of 32 KiB each in the request pool. */
static int
two_on(struct graph *g, struct sql *c, struct sql *q)
{
	char *a = pool_alloc(&g->r->pool, 32 * 1024), *b = pool_alloc(&g->r->pool, 32 * 1024);

	if (a == NULL || b == NULL)
		return -1;
	sql_on(c, a, 32 * 1024);
	sql_on(q, b, 32 * 1024);
	return 0;
}
/* Recognized edges: the newest indexed routed recognitions of the routes. */
static enum db_rc
graph_recognized(struct graph *g, uint64_t max)
{
	struct sql c, q;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	uint64_t matched = 0, shown = 0;
	char from[80], pay[80], tx[2 + 64 + 1], a[ADDR_TEXT_LEN + 1];
	enum db_rc rc;

	if (two_on(g, &c, &q) < 0)
		return DB_ERROR;
	sql_add(&c, "SELECT COUNT(*) FROM routed_boons WHERE chain_id = ? AND route_id IN (",
	    SQL_U64(g->r->cfg->chain_id));
	add_ids(&c, g);
	sql_add(&c, ")");
	sql_add(&q, "SELECT LOWER(HEX(route_id)), LOWER(HEX(tipper)), LOWER(HEX(tx_hash)), log_index, "
	    "block_number, block_time, LOWER(HEX(endpoint_pay_to)), endpoint_usdc, "
	    "LOWER(HEX(network_pay_to)), network_usdc, boon_burned FROM routed_boons WHERE chain_id = ? "
	    "AND route_id IN (", SQL_U64(g->r->cfg->chain_id));
	add_ids(&q, g);
	sql_add(&q, ") ORDER BY block_number DESC, log_index DESC, tx_hash LIMIT ?", SQL_U64(max));
	if ((rc = graph_rows(g, &c, &q, &matched, &res)) != DB_OK)
		goto out;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *e;
		struct u256 eusdc, nusdc;
		bool efund, nfund;

		if ((rc = db_row_u256(row, 7, "endpoint_usdc", &eusdc)) != DB_OK ||
		    (rc = db_row_u256(row, 9, "network_usdc", &nusdc)) != DB_OK)
			goto out;
		efund = !u256_is_zero(&eusdc);
		nfund = !u256_is_zero(&nusdc);
		if (wallet_note(g, row[1], ROLE_RECOGNIZER, from, sizeof(from), a) == NULL) {
			rc = DB_ERROR;
			goto out;
		}
		e = edge_new("recognized", from, row[0]);
		snprintf(tx, sizeof(tx), "0x%s", row[2]);
		json_object_object_add(e, "txHash", json_object_new_string(tx));
		json_object_object_add(e, "logIndex", json_object_new_string(row[3]));
		json_object_object_add(e, "blockNumber", json_object_new_string(row[4]));
		json_object_object_add(e, "blockTimestamp", json_object_new_string(row[5]));
		json_object_object_add(e, "endpointPayTo", efund &&
		    wallet_note(g, row[6], ROLE_ENDPOINT_PAY_TO, pay, sizeof(pay), a) ?
		    json_object_new_string(a) : NULL);
		json_object_object_add(e, "endpointGratuityUsdc", json_object_new_string(row[7]));
		json_object_object_add(e, "networkPayTo", nfund &&
		    wallet_note(g, row[8], ROLE_NETWORK_PAY_TO, pay, sizeof(pay), a) ?
		    json_object_new_string(a) : NULL);
		json_object_object_add(e, "networkGratuityUsdc", json_object_new_string(row[9]));
		json_object_object_add(e, BRAND_LOWER "Burned", json_object_new_string(row[10]));
		json_object_array_add(g->edges, e);
		shown++;
	}
	bounds_add(g, "recognized", shown, matched);
out:
	if (res)
		mysql_free_result(res);
	return rc;
}

/* Reviewed edges: one per (route, reviewer, lane), most recently reviewed first. */
static enum db_rc
graph_reviewed(struct graph *g, uint64_t max)
{
	struct sql c, q;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	uint64_t matched = 0, shown = 0;
	char from[80], a[ADDR_TEXT_LEN + 1];
	enum db_rc rc;

	if (two_on(g, &c, &q) < 0)
		return DB_ERROR;
	sql_add(&c, "SELECT COUNT(*) FROM (SELECT 1 FROM reviews WHERE chain_id = ? AND route_id IN (",
	    SQL_U64(g->r->cfg->chain_id));
	add_ids(&c, g);
	sql_add(&c, ") GROUP BY route_id, reviewer, lane) x");
	sql_add(&q, "SELECT LOWER(HEX(route_id)), LOWER(HEX(reviewer)), lane, COUNT(*), "
	    "DATE_FORMAT(MAX(published_at), '%Y-%m-%dT%H:%i:%sZ') FROM reviews WHERE chain_id = ? "
	    "AND route_id IN (", SQL_U64(g->r->cfg->chain_id));
	add_ids(&q, g);
	sql_add(&q, ") GROUP BY route_id, reviewer, lane ORDER BY MAX(published_at) "
	    "DESC, route_id, lane, reviewer LIMIT ?", SQL_U64(max));
	if ((rc = graph_rows(g, &c, &q, &matched, &res)) != DB_OK)
		goto out;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *e;
		int64_t n;

		if ((rc = db_row_i64(row, 3, "reviewCount", &n)) != DB_OK)
			goto out;
		if (wallet_note(g, row[1], ROLE_REVIEWER, from, sizeof(from), a) == NULL) {
			rc = DB_ERROR;
			goto out;
		}
		e = edge_new("reviewed", from, row[0]);
		json_object_object_add(e, "evidenceKind", json_object_new_string(row[2]));
		json_object_object_add(e, "reviewCount", json_object_new_int64(n));
		json_object_object_add(e, "latestPublishedAt", row[4] ? json_object_new_string(row[4]) : NULL);
		json_object_array_add(g->edges, e);
		shown++;
	}
	bounds_add(g, "reviewed", shown, matched);
out:
	if (res)
		mysql_free_result(res);
	return rc;
}

/* Described edges: one per current route context, newest publication first. */
static enum db_rc
graph_described(struct graph *g, uint64_t max)
{
	struct sql c, q;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	uint64_t matched = 0, shown = 0;
	char from[80], t[40], a[ADDR_TEXT_LEN + 1];
	enum db_rc rc;

	if (two_on(g, &c, &q) < 0)
		return DB_ERROR;
	sql_add(&c, "SELECT COUNT(*) FROM route_contexts WHERE chain_id = ? AND route_id IN (",
	    SQL_U64(g->r->cfg->chain_id));
	add_ids(&c, g);
	sql_add(&c, ") AND note_expires_at > UNIX_TIMESTAMP()");
	sql_add(&q, "SELECT LOWER(HEX(route_id)), LOWER(HEX(publisher)), participant_roles, "
	    "DATE_FORMAT(published_at, '%Y-%m-%dT%H:%i:%sZ'), note_expires_at FROM route_contexts "
	    "WHERE chain_id = ? AND route_id IN (", SQL_U64(g->r->cfg->chain_id));
	add_ids(&q, g);
	sql_add(&q, ") AND note_expires_at > UNIX_TIMESTAMP() "
	    "ORDER BY published_at DESC, route_id, publisher LIMIT ?", SQL_U64(max));
	if ((rc = graph_rows(g, &c, &q, &matched, &res)) != DB_OK)
		goto out;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *e, *roles;
		char rl[64], *p, *s;
		int64_t expires;

		if ((rc = db_row_i64(row, 4, "note_expires_at", &expires)) != DB_OK)
			goto out;
		roles = json_object_new_array();
		if (wallet_note(g, row[1], ROLE_CONTEXT_PUBLISHER, from, sizeof(from), a) == NULL) {
			json_object_put(roles);
			rc = DB_ERROR;
			goto out;
		}
		e = edge_new("described", from, row[0]);
		snprintf(rl, sizeof(rl), "%s", row[2] ? row[2] : "");
		for (s = rl; *s; s = p) {  /* a SET value: "tipper,endpoint" */
			if ((p = strchr(s, ',')) != NULL)
				*p++ = '\0';
			else
				p = s + strlen(s);
			json_object_array_add(roles, json_object_new_string(s));
		}
		json_object_object_add(e, "participantRoles", roles);
		json_object_object_add(e, "publishedAt", json_object_new_string(row[3]));
		json_object_object_add(e, "expiresAt", json_object_new_string(
		    time_rfc3339((time_t)expires, t, sizeof(t))));
		json_object_array_add(g->edges, e);
		shown++;
	}
	bounds_add(g, "described", shown, matched);
out:
	if (res)
		mysql_free_result(res);
	return rc;
}

/* The wallet nodes, in first-seen order, appended to nodes. */
static void
wallet_nodes(struct graph *g, json_object *nodes)
{
	json_object_object_foreach(g->wallets, hex40, v) {
		char id[80], a[ADDR_TEXT_LEN + 1];
		int mask = json_object_get_int(v);
		json_object *n, *roles;

		if (wallet_id(hex40, id, sizeof(id), a) == NULL)
			continue;
		n = json_object_new_object();
		roles = json_object_new_array();
		json_object_object_add(n, "id", json_object_new_string(id));
		json_object_object_add(n, "kind", json_object_new_string("wallet"));
		json_object_object_add(n, "address", json_object_new_string(a));
		for (int i = 0; i < ROLE__MAX; i++)
			if (mask & (1 << i))
				json_object_array_add(roles, json_object_new_string(role_names[i]));
		json_object_object_add(n, "roles", roles);
		json_object_array_add(nodes, n);
	}
}

static json_object *
query_new(struct req *r, const struct route_filter *f)
{
	json_object *o = json_object_new_object();
	char a[ADDR_TEXT_LEN + 1];

	json_object_object_add(o, "q", json_object_new_string_len(f->q, (int)f->qlen));
	json_object_object_add(o, "sort", json_object_new_string(route_sort_names[f->sort]));
	json_object_object_add(o, "context", json_object_new_string(route_context_names[f->ctx]));
	json_object_object_add(o, "limit", json_object_new_int64((int64_t)req_val(r, "limit")->u));
	json_object_object_add(o, "eventLimit",
	    json_object_new_int64((int64_t)req_val(r, "eventLimit")->u));
	json_object_object_add(o, "origin", f->origin ? json_object_new_string(f->origin) : NULL);
	json_object_object_add(o, "method", f->method ? json_object_new_string(f->method) : NULL);
	json_object_object_add(o, "recognizer", f->has_recognizer ?
	    json_object_new_string(addr_format(&f->recognizer, a)) : NULL);
	return o;
}

static json_object *
interpretation_new(void)
{
	static const char *const not_proof[] = { "response quality", "the endpoint's current price",
	    "the identity of the endpoint operator", "a ranking or score",
	    "that a wallet's owner used the endpoint", NULL };
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "edges", json_object_new_string(
	    "recognized: an indexed routed recognition (an optional USDC gratuity with a fixed burn) "
	    "sent by the wallet to the route; reviewed: wallet-signed reviews in one evidence lane, "
	    "lanes kept separate; described: a current route context the wallet published. Nodes "
	    "are the routes the directory selects for the same query, in its order."));
	for (int i = 0; not_proof[i]; i++)
		json_object_array_add(a, json_object_new_string(not_proof[i]));
	json_object_object_add(o, "notProofOf", a);
	return o;
}

enum err
h_graph_get(struct req *r, struct resp *w)
{
	const struct config *cfg = r->cfg;
	uint64_t limit = req_val(r, "limit")->u, events = req_val(r, "eventLimit")->u;
	struct route_filter f;
	struct graph g = { .r = r };
	json_object *o = NULL, *routes = NULL, *nodes = NULL, *rb;
	char next[ROUTES_CURSOR_MAX], ca[ADDR_TEXT_LEN + 1];
	bool more = false;
	size_t n;
	enum db_rc rc = DB_OK;
	enum err e;

	if ((e = route_filter_from_req(r, w, &f)) != ERR_NONE)
		return e;
	g.edges = json_object_new_array();
	g.wallets = json_object_new_object();
	g.bounds = json_object_new_object();
	routes = json_object_new_array();
	nodes = json_object_new_array();
	if ((rc = routes_select(r, &f, NULL, limit, routes, &more, next)) != DB_OK)
		goto out;
	n = json_object_array_length(routes);
	if ((g.ids = pool_alloc(&r->pool, (n + 1) * sizeof(*g.ids))) == NULL) {
		rc = DB_ERROR;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *ent = json_object_array_get_idx(routes, i), *rid;
		const char *h;
		char id[6 + 67];

		if (!json_object_object_get_ex(ent, "routeId", &rid) ||
		    strlen(h = json_object_get_string(rid)) != 66) {
			rc = DB_ERROR;
			goto out;
		}
		if (hex_decode_fixed(h, 66, g.ids[g.nids++], 32, true) < 0) {
			rc = DB_ERROR;
			goto out;
		}
		snprintf(id, sizeof(id), "route:%s", h);
		json_object_object_add(ent, "id", json_object_new_string(id));
		json_object_object_add(ent, "kind", json_object_new_string("endpoint"));
		json_object_array_add(nodes, json_object_get(ent));
	}
	rb = json_object_new_object();
	json_object_object_add(rb, "limit", json_object_new_int64((int64_t)limit));
	json_object_object_add(rb, "shown", json_object_new_int64((int64_t)n));
	json_object_object_add(rb, "hasMore", json_object_new_boolean(more));
	json_object_object_add(g.bounds, "routes", rb);
	json_object_object_add(g.bounds, "eventLimitScope", json_object_new_string(
	    "total: eventLimit bounds each edge kind over all the selected routes together"));
	if ((rc = graph_recognized(&g, events)) != DB_OK || (rc = graph_reviewed(&g, events)) != DB_OK ||
	    (rc = graph_described(&g, events)) != DB_OK)
		goto out;
	wallet_nodes(&g, nodes);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(GRAPH_VERSION));
	json_object_object_add(o, "contract",
	    json_object_new_string(addr_format(&cfg->companion_address, ca)));
	json_object_object_add(o, "query", query_new(r, &f));
	json_object_object_add(o, "nodes", nodes);
	nodes = NULL;
	json_object_object_add(o, "edges", g.edges);
	g.edges = NULL;
	json_object_object_add(o, "bounds", g.bounds);
	g.bounds = NULL;
	json_object_object_add(o, "interpretation", interpretation_new());
	if (resp_json(w, 200, o) < 0)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
out:
	if (rc != DB_OK)
		e = db_fail(w, rc);
	json_object_put(o);
	json_object_put(routes);
	json_object_put(nodes);
	json_object_put(g.edges);
	json_object_put(g.wallets);
	json_object_put(g.bounds);
	return e;
}
