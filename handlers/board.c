/*
 * board.c: the free board and the sender-side totals of a wallet
 * (docs/PROTOCOL.md, Handle reads; docs/ARCHITECTURE.md, Handle reads and
 * the board).
 *
 *   GET /api/v1/board?limit=1..50 (default 25), alias GET /api/leaderboard
 *     {version "0.1",
 *      recipients [{id (handle), linkedWallet|null, totalReceived,
 *        pushedAmount, escrowedAmount, claimedAmount, privateTipCount,
 *        tipCount, uniqueTippers, firstTipAt, lastTipAt}],
 *      tippers [{id (address), totalSent, privateTipCount, tipCount,
 *        uniqueRecipients, firstTipAt, lastTipAt}],
 *      stats {totalTipped, tipCount, privateTipCount, uniqueRecipients,
 *        uniqueTippers, linkedRecipients, attestations, agents},
 *      order, note}
 *   GET /api/v1/wallets/{address}/sent
 *     {version, address, tipper {id, totalSent, tipCount, privateTipCount,
 *      sentPoints, firstTipAt, lastTipAt} | null, note}
 *
 * Each list is read from the aggregates the indexer keeps, never from the
 * tips: a backward scan of one index each (by_count of handle_tip_stats,
 * by_sent_count of wallet_tip_stats, whose primary key columns end them,
 * so the tie-break by key needs no sort). Recipients rank by tips
 * received, tippers by tips sent, ties by key; never by amount. Amounts
 * are sums of public tips; counts include private tips.
 *
 * Each serving thread keeps its last board answer (one limit) for
 * board_ttl_ms (configuration, default 1000; 0: no cache): the board
 * changes only when the indexer stores a range, and one second of
 * staleness spares three statements per request under load. Answers
 * larger than the cache are never cached.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "addr.h"
#include "brand.h"
#include "clock.h"
#include "config.h"
#include "db.h"
#include "json.h"
#include "points.h"
#include "table.h"
#include "tippoints.h"
#include "banned.h"

#define BOARD_VERSION "0.1"
#define BOARD_CACHE_MAX (48 * 1024)

struct board_cache {
	bool valid;
	uint64_t at_ms;
	uint64_t chain, limit;
	size_t len;
	char body[BOARD_CACHE_MAX];
};

/* Each serving thread reuses its own answer (no lock, no sharing). */
static _Thread_local struct board_cache cache;

static json_object *
str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* Count column i of row as JSON: 0 without a row or for SQL NULL; *bad when it does not parse. */
static json_object *
count(MYSQL_ROW row, unsigned int i, const char *name, bool *bad)
{
	int64_t v = 0;

	if (row != NULL && db_row_i64_or(row, i, name, 0, &v) != DB_OK)
		*bad = true;
	return json_object_new_int64(v);
}

static json_object *
amount(const char *s)
{
	return json_object_new_string(s ? s : "0");
}

enum err
h_board_get(struct req *r, struct resp *w)
{
	uint64_t limit = req_val(r, "limit")->u, c = r->cfg->chain_id, ttl = r->cfg->board_ttl_ms;
	char b[1500];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *arr, *st;
	enum err e;
	uint64_t now = clock_ms();
	bool bad = false;

	if (cache.valid && cache.chain == c && cache.limit == limit && now - cache.at_ms < ttl) {
		w->status = 200;
		w->content_type = "application/json";
		buf_reset(&w->body);
		return buf_add(&w->body, cache.body, cache.len) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL)
		    : ERR_NONE;
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(BOARD_VERSION));

	sql_add(&q, "SELECT IFNULL(n.handle, s.handle), LOWER(HEX(COALESCE(l.wallet, a.payout_wallet))), "
	    "s.total_usdc, s.pushed_usdc, s.escrowed_usdc, s.claimed_usdc, s.private_received, "
	    "s.tips_received, s.tipper_count, s.first_tip_at, s.last_tip_at FROM handle_tip_stats s "
	    "LEFT JOIN handle_names n ON n.handle_hash = s.handle_hash "
	    "LEFT JOIN handle_links l ON l.chain_id = s.chain_id AND l.handle_hash = s.handle_hash "
	    "LEFT JOIN agents a ON a.chain_id = s.chain_id AND s.handle LIKE 'agent:%' "
	    "AND a.agent_id = SUBSTRING(s.handle, 7) WHERE s.chain_id = ? "
	    "ORDER BY s.tips_received DESC, s.handle_hash DESC LIMIT ?",
	    SQL_U64(c), SQL_U64(limit));
	if (db_query(r->db, &q, &res) != DB_OK)
		goto unavailable;
	arr = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *e1 = json_object_new_object();

		json_object_object_add(e1, "id", json_object_new_string(row[0] ? row[0] : ""));
		json_object_object_add(e1, "linkedWallet", row[1] ? addr_json_new(row[1]) : NULL);
		json_object_object_add(e1, "totalReceived", amount(row[2]));
		json_object_object_add(e1, "pushedAmount", amount(row[3]));
		json_object_object_add(e1, "escrowedAmount", amount(row[4]));
		json_object_object_add(e1, "claimedAmount", amount(row[5]));
		json_object_object_add(e1, "privateTipCount", count(row, 6, "private_received", &bad));
		json_object_object_add(e1, "tipCount", count(row, 7, "tips_received", &bad));
		json_object_object_add(e1, "uniqueTippers", count(row, 8, "tipper_count", &bad));
		json_object_object_add(e1, "firstTipAt", str_or_null(row[9]));
		json_object_object_add(e1, "lastTipAt", str_or_null(row[10]));
		json_object_array_add(arr, e1);
	}
	if (res)
		mysql_free_result(res);
	res = NULL;
	json_object_object_add(o, "recipients", arr);

	sql_reset(&q);
	sql_add(&q, "SELECT LOWER(HEX(wallet)), sent_usdc, private_sent, tips_sent, handles_tipped, "
	    "first_sent_at, last_sent_at FROM wallet_tip_stats WHERE chain_id = ? AND tips_sent > 0 "
	    "ORDER BY tips_sent DESC, wallet DESC LIMIT ?", SQL_U64(c), SQL_U64(limit));
	if (db_query(r->db, &q, &res) != DB_OK)
		goto unavailable;
	arr = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *e1 = json_object_new_object();

		json_object_object_add(e1, "id", addr_json_new(row[0] ? row[0] : ""));
		json_object_object_add(e1, "totalSent", amount(row[1]));
		json_object_object_add(e1, "privateTipCount", count(row, 2, "private_sent", &bad));
		json_object_object_add(e1, "tipCount", count(row, 3, "tips_sent", &bad));
		json_object_object_add(e1, "uniqueRecipients", count(row, 4, "handles_tipped", &bad));
		json_object_object_add(e1, "firstTipAt", str_or_null(row[5]));
		json_object_object_add(e1, "lastTipAt", str_or_null(row[6]));
		json_object_array_add(arr, e1);
	}
	if (res)
		mysql_free_result(res);
	res = NULL;
	json_object_object_add(o, "tippers", arr);

	sql_reset(&q);
	sql_add(&q, "SELECT total_usdc, tips, private_tips, recipients, tippers, linked_handles, "
	    "attestations, agents FROM tip_chain_stats WHERE chain_id = ?", SQL_U64(c));
	if (db_query(r->db, &q, &res) != DB_OK)
		goto unavailable;
	row = res ? mysql_fetch_row(res) : NULL;
	st = json_object_new_object();
	json_object_object_add(st, "totalTipped", amount(row ? row[0] : NULL));
	json_object_object_add(st, "tipCount", count(row, 1, "tips", &bad));
	json_object_object_add(st, "privateTipCount", count(row, 2, "private_tips", &bad));
	json_object_object_add(st, "uniqueRecipients", count(row, 3, "recipients", &bad));
	json_object_object_add(st, "uniqueTippers", count(row, 4, "tippers", &bad));
	json_object_object_add(st, "linkedRecipients", count(row, 5, "linked_handles", &bad));
	json_object_object_add(st, "attestations", count(row, 6, "attestations", &bad));
	json_object_object_add(st, "agents", count(row, 7, "agents", &bad));
	if (res)
		mysql_free_result(res);
	json_object_object_add(o, "stats", st);
	json_object_object_add(o, "order", json_object_new_string(
	    "recipients by tips received, tippers by tips sent (private tips included, refunded "
	    "ones too), ties by handle hash or wallet; never by amount"));
	json_object_object_add(o, "note", json_object_new_string(
	    "Aggregates of indexed tips. Amounts (USDC atomic units) are sums of public tips, refunds "
	    "excluded; counts include private tips, whose amounts and notes are never shown. Chain "
	    "times are Unix seconds."));
	e = bad || resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
	json_object_put(o);
	cache.valid = false;
	if (e == ERR_NONE && ttl > 0 && w->body.len <= sizeof(cache.body)) {
		memcpy(cache.body, w->body.p, w->body.len);
		cache.len = w->body.len;
		cache.chain = c;
		cache.limit = limit;
		cache.at_ms = now;
		cache.valid = true;
	}
	return e;
unavailable:
	json_object_put(o);
	return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
}

enum err
h_wallet_sent_get(struct req *r, struct resp *w)
{
	const struct value *v = req_val(r, "address");
	uint64_t c = r->cfg->chain_id, as_of = 0;
	char b[600], t[ADDR_TEXT_LEN + 1];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	struct points_total sent;
	json_object *o, *tp = NULL;
	enum err e;
	bool bad = false;

	sql_add(&q, "SELECT sent_usdc, tips_sent, private_sent, first_sent_at, last_sent_at "
	    "FROM wallet_tip_stats WHERE chain_id = ? AND wallet = ? AND tips_sent > 0",
	    SQL_U64(c), SQL_BYTES(v->addr.b, 20));
	if (db_query(r->db, &q, &res) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	row = res ? mysql_fetch_row(res) : NULL;
	if (row != NULL) {
		char pts[24];

		if (tippoints_clock(r->db, c, &as_of) != DB_OK ||
		    tippoints_wallet(r->db, c, v->addr.b, as_of, &sent) != DB_OK) {
			mysql_free_result(res);
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		}
		snprintf(pts, sizeof(pts), "%" PRIu64, sent.points);
		tp = json_object_new_object();
		json_object_object_add(tp, "id", json_object_new_string(addr_format(&v->addr, t)));
		json_object_object_add(tp, "totalSent", amount(row[0]));
		json_object_object_add(tp, "tipCount", count(row, 1, "tips_sent", &bad));
		json_object_object_add(tp, "privateTipCount", count(row, 2, "private_sent", &bad));
		json_object_object_add(tp, "sentPoints", json_object_new_string(pts));
		json_object_object_add(tp, "firstTipAt", str_or_null(row[3]));
		json_object_object_add(tp, "lastTipAt", str_or_null(row[4]));
	}
	if (res)
		mysql_free_result(res);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(BOARD_VERSION));
	json_object_object_add(o, "address", json_object_new_string(addr_format(&v->addr, t)));
	json_object_object_add(o, "tipper", tp);
	json_object_object_add(o, "note", json_object_new_string(
	    "Sender-side aggregates only (no per-tip list): totalSent sums this wallet's public tips, "
	    "refunds excluded; counts include private tips; sentPoints follow the " POINTS_POLICY
	    " policy. tipper is null when the wallet has sent no indexed tip."));
	e = bad || resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
	json_object_put(o);
	return e;
}
