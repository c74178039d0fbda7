/*
 * gratitude.c: the paid gratitude graphs over indexed tips
 * (docs/PROTOCOL.md, Tip reads):
 *
 *   GET  /api/v1/graphs/gratitude?subject=handle:<handle>|repo:<owner>/<repo>
 *        &limit=1..200 (50)
 *   POST /api/v1/graphs/queries {handles [1..25 handles], limit 1..200 (50)}
 *
 *   {version, subject {kind handle|repo, value} (gratitude) or
 *    handles [canonical, first-seen order, repeats dropped] (queries),
 *    nodes [{id "handle:<h>", kind "handle", handle, queried,
 *              linkedWallet|null and received {tips, privateTips, usdc}
 *              when queried}
 *           {id "wallet:<EIP-55>", kind "wallet", address}
 *           {id "repo:<owner>/<repo>", kind "repo", repo}],
 *    edges [{kind "tipped", from wallet, to handle, tipCount, privateCount,
 *            amountUsdc, firstAt, lastAt, markers [] (repo subject only)}],
 *    bounds {limit, edges, truncated}, interpretation}
 *
 * Handle subjects: every tipper of the handles (incoming), and every
 * handle their linked wallets tipped (outgoing: a GitHub/X handle's linked
 * wallet, an agent's payout wallet); one edge per (tipper, handle), the
 * most tips first, then the latest. Repo subjects: the public tips whose
 * note cites the repository with a pr: or review: marker (lib/gratitude.h;
 * a private tip has no note, so never counts here), the newest
 * GRAT_SCAN_MAX citing tips at most. amountUsdc sums public, unrefunded
 * amounts; counts include private tips, which never show an amount.
 * Every handle in the query is canonicalized before payment (400 else),
 * and more than 25 are refused by the row's field bound, also before.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brand.h"
#include "accounts.h"
#include "addr.h"
#include "dbfail.h"
#include "gratitude.h"
#include "handle.h"
#include "hex.h"
#include "sql.h"
#include "table.h"
#include "timefmt.h"
#include "tipreads.h"
#include "u256.h"
#include "banned.h"

#define GRAT_HANDLES_MAX 25
#define GRAT_SCAN_MAX 2000      /* citing tips a repo subject reads */
#define GRAT_EDGE_MARKERS 10    /* markers listed per repo edge */

struct edge {
	char tipper[41];                /* lowercase hex */
	uint8_t hh[32];
	char handle[HANDLE_MAX_LEN + 8];
	uint64_t tips, priv, first, last;
	struct u256 usdc;
	struct score_marker markers[GRAT_EDGE_MARKERS];
	size_t nmarkers;
};

struct graph {
	struct edge *e;
	size_t n, cap;
	bool truncated;
};

static const char *const interpretation =
    "Who tipped whom, from indexed onchain tips: a tipped edge counts a wallet's tips to a handle "
    "(private tips included, never their amounts) and sums the public, unrefunded USDC. Tips "
    "express gratitude; they prove the recorded wallets, amounts and times only, not the quality "
    "of any work, and rank nothing.";

static struct edge *
graph_add(struct graph *g)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct edge *e = realloc(g->e, cap * sizeof(*e));

		if (e == NULL)
			return NULL;
		g->e = e;
		g->cap = cap;
	}
	memset(&g->e[g->n], 0, sizeof(g->e[0]));
	return &g->e[g->n++];
}

static struct edge *
graph_find(struct graph *g, const char *tipper, const uint8_t hh[32])
{
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->e[i].tipper, tipper) == 0 && memcmp(g->e[i].hh, hh, 32) == 0)
			return &g->e[i];
	return NULL;
}

/* Columns of an aggregated edge row: tipper, handle hash, handle, tips, private, usdc, first, last. */
#define EDGE_COLUMNS \
	"LOWER(HEX(tipper)), LOWER(HEX(handle_hash)), MAX(handle), COUNT(*), SUM(is_private), " \
	"COALESCE(SUM(IF(status <> 'refunded', usdc_amount, NULL)), 0), MIN(block_time), MAX(block_time)"

/* Add the edge of row to g unless it is there; DB_ERROR when a column does not parse or memory runs out. */
static enum db_rc
edge_from_row(struct graph *g, MYSQL_ROW row)
{
	struct edge *e, x = { 0 };
	uint8_t hh[32];

	if (hex_decode_fixed(row[1], strlen(row[1]), hh, 32, false) < 0)
		return DB_OK;
	if (graph_find(g, row[0], hh) != NULL)
		return DB_OK;
	if (db_row_u64(row, 3, "tipCount", &x.tips) != DB_OK ||
	    db_row_u64_or(row, 4, "privateCount", 0, &x.priv) != DB_OK ||
	    db_row_u256(row, 5, "amountUsdc", &x.usdc) != DB_OK ||
	    db_row_u64(row, 6, "firstAt", &x.first) != DB_OK ||
	    db_row_u64(row, 7, "lastAt", &x.last) != DB_OK)
		return DB_ERROR;
	if ((e = graph_add(g)) == NULL)
		return DB_ERROR;
	*e = x;
	snprintf(e->tipper, sizeof(e->tipper), "%s", row[0]);
	memcpy(e->hh, hh, 32);
	snprintf(e->handle, sizeof(e->handle), "%s", row[2]);
	return DB_OK;
}

/* Run q and add its aggregated edge rows to g; more than limit in all sets truncated. */
static enum db_rc
edges_query(struct db *db, struct sql *q, struct graph *g, uint64_t limit)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	if ((rc = db_query(db, q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		if (g->n == limit) {
			g->truncated = true;
			break;
		}
		if ((rc = edge_from_row(g, row)) != DB_OK)
			break;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

struct queried {
	struct handle h;
	uint8_t hh[32];
	char wallet[41];        /* linked wallet, "" when none */
	uint64_t tips, priv;
	struct u256 usdc;
};

/* The handle nodes' facts: linked wallet and received totals. */
static enum db_rc
queried_load(struct req *r, struct queried *qh)
{
	char b[512];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	bool found;
	enum db_rc rc;

	rc = accounts_linked_wallet(r->db, r->cfg, qh->hh,
	    qh->h.kind == HANDLE_AGENT ? handle_name(&qh->h) : NULL, qh->wallet, &found);
	if (rc != DB_OK)
		return rc;
	qh->tips = qh->priv = 0;
	u256_from_u64(&qh->usdc, 0);
	sql_add(&q, "SELECT tips_received, private_received, total_usdc FROM handle_tip_stats WHERE "
	    "chain_id = ? AND handle_hash = ?", SQL_U64(r->cfg->chain_id), SQL_BYTES(qh->hh, 32));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL &&
	    (rc = db_row_u64(row, 0, "tips_received", &qh->tips)) == DB_OK &&
	    (rc = db_row_u64(row, 1, "private_received", &qh->priv)) == DB_OK)
		rc = db_row_u256(row, 2, "total_usdc", &qh->usdc);
	if (res)
		mysql_free_result(res);
	return rc;
}

/* Incoming edges of the handles, then the outgoing edges of their linked wallets. */
static enum db_rc
handle_edges(struct req *r, struct queried *qh, size_t n, struct graph *g, uint64_t limit)
{
	char b[8192];
	struct sql q = SQL_ON(b);
	size_t nw = 0;
	enum db_rc rc;

	sql_add(&q, "SELECT " EDGE_COLUMNS " FROM tips WHERE chain_id = ? AND handle_hash IN (?",
	    SQL_U64(r->cfg->chain_id), SQL_BYTES(qh[0].hh, 32));
	for (size_t i = 1; i < n; i++)
		sql_add(&q, ", ?", SQL_BYTES(qh[i].hh, 32));
	sql_add(&q, ") GROUP BY tipper, handle_hash ORDER BY COUNT(*) DESC, MAX(block_time) DESC, "
	    "tipper, handle_hash LIMIT ?", SQL_U64(limit + 1));
	if ((rc = edges_query(r->db, &q, g, limit)) != DB_OK || g->truncated)
		return rc;
	sql_reset(&q);
	sql_add(&q, "SELECT " EDGE_COLUMNS " FROM tips WHERE chain_id = ? AND tipper IN (",
	    SQL_U64(r->cfg->chain_id));
	for (size_t i = 0; i < n; i++) {
		if (qh[i].wallet[0] == '\0')
			continue;
		if (nw++ == 0)
			sql_add(&q, "?", SQL_HEX(qh[i].wallet));
		else
			sql_add(&q, ", ?", SQL_HEX(qh[i].wallet));
	}
	if (nw == 0)
		return DB_OK;
	sql_add(&q, ") GROUP BY tipper, handle_hash ORDER BY COUNT(*) DESC, MAX(block_time) DESC, "
	    "tipper, handle_hash LIMIT ?", SQL_U64(2 * limit + 1));
	return edges_query(r->db, &q, g, limit);
}

/* The public tips citing repo, aggregated per (tipper, handle) with their markers. */
static enum db_rc
repo_edges(struct req *r, const char *repo, struct graph *g, uint64_t limit, uint64_t *scanned)
{
	char b[1024 + 4 * GRATITUDE_REPO_MAX], cites[GRATITUDE_REPO_MAX + 2];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	int k;
	enum db_rc rc;

	/* A LIKE prefilter: notes containing "<repo>#"; the marker grammar decides below. */
	k = snprintf(cites, sizeof(cites), "%s#", repo);
	if (k < 0 || (size_t)k >= sizeof(cites))
		return DB_ERROR;
	sql_add(&q, "SELECT LOWER(HEX(tipper)), LOWER(HEX(handle_hash)), handle, note, usdc_amount, "
	    "status, block_time FROM tips WHERE chain_id = ? AND is_private = 0 AND LOWER(note) LIKE ? "
	    "ORDER BY tip_id DESC LIMIT ?", SQL_U64(r->cfg->chain_id), SQL_LIKE_CONTAINS(cites, (size_t)k),
	    SQL_U64(GRAT_SCAN_MAX + 1));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	*scanned = 0;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		struct score_marker m[GRAT_EDGE_MARKERS];
		size_t nm = gratitude_note_markers(row[3], strlen(row[3]), repo, m, GRAT_EDGE_MARKERS);
		uint8_t hh[32];
		struct edge *e;
		struct u256 amount;
		uint64_t t;

		if (*scanned == GRAT_SCAN_MAX) {
			g->truncated = true;
			break;
		}
		(*scanned)++;
		if ((rc = db_row_u64(row, 6, "block_time", &t)) != DB_OK)
			break;
		if (nm == 0 || hex_decode_fixed(row[1], strlen(row[1]), hh, 32, false) < 0)
			continue;
		if ((e = graph_find(g, row[0], hh)) == NULL) {
			if ((e = graph_add(g)) == NULL) {
				rc = DB_ERROR;
				break;
			}
			snprintf(e->tipper, sizeof(e->tipper), "%s", row[0]);
			memcpy(e->hh, hh, 32);
			snprintf(e->handle, sizeof(e->handle), "%s", row[2]);
			e->first = e->last = t;
		}
		e->tips++;
		if (strcmp(row[5], "refunded") != 0 && row[4] &&
		    ((rc = db_row_u256(row, 4, "usdc_amount", &amount)) != DB_OK ||
		    u256_add(&e->usdc, &e->usdc, &amount) < 0)) {
			rc = DB_ERROR;
			break;
		}
		e->first = t < e->first ? t : e->first;
		e->last = t > e->last ? t : e->last;
		for (size_t i = 0; i < nm && e->nmarkers < GRAT_EDGE_MARKERS; i++) {
			bool dup = false;

			for (size_t j = 0; j < e->nmarkers; j++)
				dup = dup || strcmp(e->markers[j].text, m[i].text) == 0;
			if (!dup)
				e->markers[e->nmarkers++] = m[i];
		}
	}
	if (res)
		mysql_free_result(res);
	(void)limit;
	return rc;
}

static int
edge_order(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	int c;

	if (x->tips != y->tips)
		return x->tips > y->tips ? -1 : 1;
	if (x->last != y->last)
		return x->last > y->last ? -1 : 1;
	if ((c = strcmp(x->tipper, y->tipper)) != 0)
		return c;
	return memcmp(x->hh, y->hh, 32);
}

static json_object *
wallet_id(const char *hex40)
{
	struct addr a;
	char t[ADDR_TEXT_LEN + 1], id[8 + ADDR_TEXT_LEN + 1];

	if (addr_from_digits(hex40, &a) < 0)
		return NULL;
	snprintf(id, sizeof(id), "wallet:%s", addr_format(&a, t));
	return json_object_new_string(id);
}

/* nodes and edges of g (plus the queried handles qh and the repo) into o. */
static void
graph_json(json_object *o, struct graph *g, const struct queried *qh, size_t nq, const char *repo,
    uint64_t limit)
{
	json_object *nodes = json_object_new_array(), *edges = json_object_new_array(), *seen, *bd;
	char id[2 * GRATITUDE_REPO_MAX + HANDLE_MAX_LEN + 16], t[40], dec[U256_DEC_MAX + 1];

	seen = json_object_new_object();  /* node ids already listed */
	if (repo) {
		json_object *n = json_object_new_object();

		snprintf(id, sizeof(id), "repo:%s", repo);
		json_object_object_add(n, "id", json_object_new_string(id));
		json_object_object_add(n, "kind", json_object_new_string("repo"));
		json_object_object_add(n, "repo", json_object_new_string(repo));
		json_object_array_add(nodes, n);
	}
	for (size_t i = 0; i < nq; i++) {
		json_object *n = json_object_new_object(), *rc = json_object_new_object();

		snprintf(id, sizeof(id), "handle:%s", qh[i].h.text);
		json_object_object_add(seen, id, NULL);
		json_object_object_add(n, "id", json_object_new_string(id));
		json_object_object_add(n, "kind", json_object_new_string("handle"));
		json_object_object_add(n, "handle", json_object_new_string(qh[i].h.text));
		json_object_object_add(n, "queried", json_object_new_boolean(1));
		json_object_object_add(n, "linkedWallet", qh[i].wallet[0] ? addr_json_new(qh[i].wallet) : NULL);
		json_object_object_add(rc, "tips", json_object_new_int64((int64_t)qh[i].tips));
		json_object_object_add(rc, "privateTips", json_object_new_int64((int64_t)qh[i].priv));
		json_object_object_add(rc, "usdc", json_object_new_string(u256_format_dec(&qh[i].usdc, dec)));
		json_object_object_add(n, "received", rc);
		json_object_array_add(nodes, n);
	}
	if (g->n > 1)
		qsort(g->e, g->n, sizeof(g->e[0]), edge_order);
	if (g->n > limit) {
		g->n = (size_t)limit;
		g->truncated = true;
	}
	for (size_t i = 0; i < g->n; i++) {
		const struct edge *e = &g->e[i];
		json_object *j = json_object_new_object(), *w = wallet_id(e->tipper);
		const char *wid = w ? json_object_get_string(w) : "wallet:";

		if (!json_object_object_get_ex(seen, wid, NULL)) {
			json_object *n = json_object_new_object();

			json_object_object_add(seen, wid, NULL);
			json_object_object_add(n, "id", json_object_new_string(wid));
			json_object_object_add(n, "kind", json_object_new_string("wallet"));
			json_object_object_add(n, "address", addr_json_new(e->tipper));
			json_object_array_add(nodes, n);
		}
		snprintf(id, sizeof(id), "handle:%s", e->handle);
		if (!json_object_object_get_ex(seen, id, NULL)) {
			json_object *n = json_object_new_object();

			json_object_object_add(seen, id, NULL);
			json_object_object_add(n, "id", json_object_new_string(id));
			json_object_object_add(n, "kind", json_object_new_string("handle"));
			json_object_object_add(n, "handle", json_object_new_string(e->handle));
			json_object_object_add(n, "queried", json_object_new_boolean(0));
			json_object_array_add(nodes, n);
		}
		json_object_object_add(j, "kind", json_object_new_string("tipped"));
		json_object_object_add(j, "from", json_object_new_string(wid));
		json_object_object_add(j, "to", json_object_new_string(id));
		json_object_object_add(j, "tipCount", json_object_new_int64((int64_t)e->tips));
		json_object_object_add(j, "privateCount", json_object_new_int64((int64_t)e->priv));
		json_object_object_add(j, "amountUsdc", json_object_new_string(u256_format_dec(&e->usdc, dec)));
		json_object_object_add(j, "firstAt", json_object_new_string(time_rfc3339((time_t)e->first, t, sizeof(t))));
		json_object_object_add(j, "lastAt", json_object_new_string(time_rfc3339((time_t)e->last, t, sizeof(t))));
		if (repo) {
			json_object *m = json_object_new_array();

			for (size_t k = 0; k < e->nmarkers; k++)
				json_object_array_add(m, json_object_new_string(e->markers[k].text));
			json_object_object_add(j, "markers", m);
		}
		json_object_array_add(edges, j);
		json_object_put(w);
	}
	json_object_put(seen);
	json_object_object_add(o, "nodes", nodes);
	json_object_object_add(o, "edges", edges);
	bd = json_object_new_object();
	json_object_object_add(bd, "limit", json_object_new_int64((int64_t)limit));
	json_object_object_add(bd, "edges", json_object_new_int64((int64_t)g->n));
	json_object_object_add(bd, "truncated", json_object_new_boolean(g->truncated));
	json_object_object_add(o, "bounds", bd);
	json_object_object_add(o, "interpretation", json_object_new_string(interpretation));
}

static enum err
answer(struct resp *w, json_object *o)
{
	enum err e = resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;

	json_object_put(o);
	return e;
}

enum err
h_gratitude_check(struct req *r, struct resp *w)
{
	const struct value *sv = req_val(r, "subject");
	struct gratitude_subject s;
	enum handle_err he;

	if (gratitude_subject_parse(sv->text, sv->len, &s, &he) < 0) {
		if (he != HANDLE_OK)
			return resp_fail(w, ERR_INVALID_FIELD, "subject",
			    "Field subject names an invalid canonical handle: %s", handle_strerror(he));
		return resp_fail(w, ERR_INVALID_FIELD, "subject",
		    "Field subject must be handle:<github:name|x:name|agent:N> or repo:<owner>/<repo>.");
	}
	return ERR_NONE;
}

enum err
h_gratitude_get(struct req *r, struct resp *w)
{
	const struct value *sv = req_val(r, "subject");
	uint64_t limit = req_val(r, "limit")->u, scanned = 0;
	struct gratitude_subject s;
	struct queried qh;
	struct graph g = { 0 };
	json_object *o, *subj;
	enum handle_err he;
	enum db_rc rc;
	enum err e;

	if (gratitude_subject_parse(sv->text, sv->len, &s, &he) < 0)   /* checked before payment */
		return resp_fail(w, ERR_INVALID_FIELD, "subject", NULL);
	if (s.kind == GRATITUDE_SUBJECT_HANDLE) {
		memset(&qh, 0, sizeof(qh));
		qh.h = s.h;
		handle_hash(&s.h, qh.hh);
		if ((rc = queried_load(r, &qh)) == DB_OK)
			rc = handle_edges(r, &qh, 1, &g, limit);
	} else {
		rc = repo_edges(r, s.repo, &g, limit, &scanned);
	}
	if (rc != DB_OK) {
		e = db_fail(w, rc);
		goto out;
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(TIP_VERSION));
	subj = json_object_new_object();
	json_object_object_add(subj, "kind", json_object_new_string(
	    s.kind == GRATITUDE_SUBJECT_HANDLE ? "handle" : "repo"));
	json_object_object_add(subj, "value", json_object_new_string(
	    s.kind == GRATITUDE_SUBJECT_HANDLE ? s.h.text : s.repo));
	json_object_object_add(o, "subject", subj);
	graph_json(o, &g, s.kind == GRATITUDE_SUBJECT_HANDLE ? &qh : NULL,
	    s.kind == GRATITUDE_SUBJECT_HANDLE ? 1 : 0, s.kind == GRATITUDE_SUBJECT_REPO ? s.repo : NULL,
	    limit);
	e = answer(w, o);
out:
	free(g.e);
	return e;
}

/* The handles of the body, canonical and without repeats, into qh; their number, or -1 with w written. */
static int
queries_handles(struct req *r, struct resp *w, struct queried *qh)
{
	const struct value *hv = req_val(r, "handles");
	size_t n = 0;

	for (size_t i = 0; i < hv->len && i < GRAT_HANDLES_MAX; i++) {
		json_object *it = json_object_array_get_idx(hv->array, i);
		struct handle h;
		enum handle_err he;
		bool dup = false;

		if (!json_object_is_type(it, json_type_string)) {
			resp_fail(w, ERR_INVALID_FIELD, "handles", "Field handles must hold strings only "
			    "(item %zu is not one).", i);
			return -1;
		}
		if ((he = handle_parse(json_object_get_string(it), (size_t)json_object_get_string_len(it),
		    &h)) != HANDLE_OK) {
			resp_fail(w, ERR_INVALID_FIELD, "handles", "Field handles item %zu is not a "
			    "canonical handle (github:<name>, x:<name> or agent:<N>): %s", i,
			    handle_strerror(he));
			return -1;
		}
		for (size_t k = 0; k < n; k++)
			dup = dup || strcmp(qh[k].h.text, h.text) == 0;
		if (dup)
			continue;
		memset(&qh[n], 0, sizeof(qh[n]));
		qh[n].h = h;
		handle_hash(&h, qh[n].hh);
		n++;
	}
	return (int)n;
}

enum err
h_queries_check(struct req *r, struct resp *w)
{
	struct queried qh[GRAT_HANDLES_MAX];

	return queries_handles(r, w, qh) < 0 ? ERR_INVALID_FIELD : ERR_NONE;
}

enum err
h_queries_post(struct req *r, struct resp *w)
{
	struct queried qh[GRAT_HANDLES_MAX];
	uint64_t limit = req_val(r, "limit")->u;
	struct graph g = { 0 };
	json_object *o, *hs;
	int n;
	enum db_rc rc = DB_OK;
	enum err e;

	if ((n = queries_handles(r, w, qh)) < 0)   /* checked before payment */
		return ERR_INVALID_FIELD;
	for (int i = 0; i < n && rc == DB_OK; i++)
		rc = queried_load(r, &qh[i]);
	if (rc == DB_OK && n > 0)
		rc = handle_edges(r, qh, (size_t)n, &g, limit);
	if (rc != DB_OK) {
		e = db_fail(w, rc);
		goto out;
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(TIP_VERSION));
	hs = json_object_new_array();
	for (int i = 0; i < n; i++)
		json_object_array_add(hs, json_object_new_string(qh[i].h.text));
	json_object_object_add(o, "handles", hs);
	graph_json(o, &g, qh, (size_t)n, NULL, limit);
	e = answer(w, o);
out:
	free(g.e);
	return e;
}
