/*
 * handles.c: the free handle reads and the points policy
 * (docs/PROTOCOL.md, Handle reads; docs/ARCHITECTURE.md, Handle reads and
 * the board). The handle in the path is canonicalized by its row's
 * validator (lib/handle), so an invalid handle never reaches here.
 *
 *   GET /api/v1/handles/{handle}/has-<brand>s
 *     {version "0.1", handle, has<Brand>s, has<Brand>sReceived,
 *      has<Brand>sSent, hasAny<Brand>Activity, <brand>sReceived,
 *      <brand>sSent, interpretation}
 *   GET /api/v1/handles/{handle}/points
 *     {version, handle, points, decayedPoints, receivedPoints, sentPoints,
 *      sentPointsSource linked_wallet|unlinked, <brand>sSent,
 *      <brand>sReceived, linkedWallet|null, policyVersion}
 *   GET /api/v1/handles/{handle}/profile
 *     {version, handle, points, receivedPoints, sentPoints,
 *      <brand>sReceived, <brand>sSent, profile {handle, linkedWallet,
 *      totalReceived, totalSent, pushedAmount, escrowedAmount,
 *      claimedAmount, firstTipAt, lastTipAt}}; never a per-tip list
 *   GET /api/v1/points/policy
 *     {policyVersion, policy_version, pointScale "1000", units, rules, note}
 *
 * The points and profile answers carry exactly the members of the
 * interface (docs/PROTOCOL.md, Handle reads); what a handle read leaves
 * out (the index clock of decayedPoints, independent senders) is prose in
 * the policy's rules.handleReads.
 *
 * Counts include private tips; amounts are sums of public tips only (the
 * index holds no private amount). Points and amounts are decimal strings;
 * chain times Unix seconds as decimal strings, as the deployed client
 * reads them; addresses EIP-55. An unknown handle is not an error: it
 * has nothing yet (zeros, unlinked).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "brand.h"
#include "config.h"
#include "db.h"
#include "handles.h"
#include "hex.h"
#include "json.h"
#include "points.h"
#include "table.h"
#include "tippoints.h"
#include "banned.h"

#define HANDLE_READ_VERSION "0.1"

static bool
is_agent(const char *handle)
{
	return strncmp(handle, "agent:", 6) == 0;
}

static json_object *
u64_string(uint64_t v)
{
	char t[24];

	snprintf(t, sizeof(t), "%" PRIu64, v);
	return json_object_new_string(t);
}

static json_object *
wallet_json(const struct tippoints *p)
{
	struct addr a;
	char t[ADDR_TEXT_LEN + 1];

	if (!p->linked)
		return NULL;
	memcpy(a.b, p->wallet, 20);
	return json_object_new_string(addr_format(&a, t));
}

/* Counts of a handle: tips to it, and tips from its current wallet (0 when unlinked). */
static enum db_rc
counts(struct req *r, const struct value *h, uint64_t *received, uint64_t *sent)
{
	char b[900];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res;
	MYSQL_ROW row;
	enum db_rc rc;

	sql_add(&q, "SELECT IFNULL((SELECT tips_received FROM handle_tip_stats WHERE chain_id = ? "
	    "AND handle_hash = ?), 0), ", SQL_U64(r->cfg->chain_id), SQL_BYTES(h->hash, 32));
	if (is_agent(h->text))
		sql_add(&q, "IFNULL((SELECT s.tips_sent FROM agents a JOIN wallet_tip_stats s "
		    "ON s.chain_id = a.chain_id AND s.wallet = a.payout_wallet WHERE a.chain_id = ? "
		    "AND a.agent_id = ?), 0)", SQL_U64(r->cfg->chain_id), SQL_TEXT(h->text + 6));
	else
		sql_add(&q, "IFNULL((SELECT s.tips_sent FROM handle_links l JOIN wallet_tip_stats s "
		    "ON s.chain_id = l.chain_id AND s.wallet = l.wallet WHERE l.chain_id = ? "
		    "AND l.handle_hash = ?), 0)", SQL_U64(r->cfg->chain_id), SQL_BYTES(h->hash, 32));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	row = res ? mysql_fetch_row(res) : NULL;
	if ((rc = db_row_u64(row, 0, "tips_received", received)) == DB_OK)
		rc = db_row_u64(row, 1, "tips_sent", sent);
	if (res)
		mysql_free_result(res);
	return rc;
}

static enum err
answer(struct req *r, struct resp *w, json_object *o)
{
	enum err e;

	if (o == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	e = resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
	json_object_put(o);
	(void)r;
	return e;
}

enum err
h_has_boons_get(struct req *r, struct resp *w)
{
	const struct value *h = req_val(r, "handle");
	uint64_t rcv = 0, snt = 0;
	json_object *o;

	if (counts(r, h, &rcv, &snt) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(HANDLE_READ_VERSION));
	json_object_object_add(o, "handle", json_object_new_string(h->text));
	json_object_object_add(o, "has" BRAND_CAPITAL "s", json_object_new_boolean(rcv > 0));
	json_object_object_add(o, "has" BRAND_CAPITAL "sReceived", json_object_new_boolean(rcv > 0));
	json_object_object_add(o, "has" BRAND_CAPITAL "sSent", json_object_new_boolean(snt > 0));
	json_object_object_add(o, "hasAny" BRAND_CAPITAL "Activity", json_object_new_boolean(rcv + snt > 0));
	json_object_object_add(o, BRAND_LOWER "sReceived", json_object_new_int64((int64_t)rcv));
	json_object_object_add(o, BRAND_LOWER "sSent", json_object_new_int64((int64_t)snt));
	json_object_object_add(o, "interpretation", json_object_new_string(
	    BRAND_LOWER "sReceived counts indexed tips to this handle (private ones included, refunded "
	    "ones too); " BRAND_LOWER "sSent counts tips sent by its current wallet (0 while it has "
	    "none). has" BRAND_CAPITAL "s means the handle has received at least one. Counts only: no "
	    "amount, note or ranking, and no tip means nothing about the handle."));
	return answer(r, w, o);
}

/*
 * Into o, the members of the points answer, or with profile those of the
 * profile answer before its profile object: no decayedPoints, source,
 * wallet or policy at its top (docs/PROTOCOL.md, Handle reads).
 */
static void
points_fields(json_object *o, const char *handle, const struct tippoints *p, uint64_t rcv, uint64_t snt,
    bool profile)
{
	json_object_object_add(o, "version", json_object_new_string(HANDLE_READ_VERSION));
	json_object_object_add(o, "handle", json_object_new_string(handle));
	json_object_object_add(o, "points", u64_string(p->received.points + p->sent.points));
	if (!profile)
		json_object_object_add(o, "decayedPoints", u64_string(p->received.decayed + p->sent.decayed));
	json_object_object_add(o, "receivedPoints", u64_string(p->received.points));
	json_object_object_add(o, "sentPoints", u64_string(p->sent.points));
	if (profile) {
		json_object_object_add(o, BRAND_LOWER "sReceived", json_object_new_int64((int64_t)rcv));
		json_object_object_add(o, BRAND_LOWER "sSent", json_object_new_int64((int64_t)snt));
		return;
	}
	json_object_object_add(o, "sentPointsSource",
	    json_object_new_string(p->linked ? "linked_wallet" : "unlinked"));
	json_object_object_add(o, BRAND_LOWER "sSent", json_object_new_int64((int64_t)snt));
	json_object_object_add(o, BRAND_LOWER "sReceived", json_object_new_int64((int64_t)rcv));
	json_object_object_add(o, "linkedWallet", wallet_json(p));
	json_object_object_add(o, "policyVersion", json_object_new_string(POINTS_POLICY));
}

/* The points or (profile) the profile answer's top members into *out; DB_OK or the database's error. */
static enum db_rc
read_points(struct req *r, const struct value *h, struct tippoints *p, bool profile, json_object **out)
{
	uint64_t rcv = 0, snt = 0;
	enum db_rc rc;

	*out = NULL;
	if ((rc = counts(r, h, &rcv, &snt)) != DB_OK ||
	    (rc = tippoints_handle(r->db, r->cfg->chain_id, h->text, h->hash, p)) != DB_OK)
		return rc;
	*out = json_object_new_object();
	points_fields(*out, h->text, p, rcv, snt, profile);
	return DB_OK;
}

enum db_rc
handle_points_read(struct req *r, const struct value *h, struct tippoints *p, json_object **out)
{
	return read_points(r, h, p, false, out);
}

static enum err
points_or_profile(struct req *r, struct resp *w, bool profile)
{
	const struct value *h = req_val(r, "handle");
	struct tippoints p;
	json_object *o, *pr;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	char b[700];
	struct sql q = SQL_ON(b);
	const char *amt[5] = { "0", "0", "0", "0", "0" }; /* received, pushed, escrowed, claimed, sent */

	if (read_points(r, h, &p, profile, &o) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!profile)
		return answer(r, w, o);

	/*
	 * One row whether or not the handle received anything: a linked handle
	 * that only sent has no handle_tip_stats row, and its totalSent is still
	 * its wallet's (the LEFT JOIN leaves the received columns NULL, "0").
	 */
	sql_add(&q, "SELECT s.total_usdc, s.pushed_usdc, s.escrowed_usdc, s.claimed_usdc, "
	    "(SELECT sent_usdc FROM wallet_tip_stats WHERE chain_id = ? AND wallet = ?), "
	    "s.first_tip_at, s.last_tip_at FROM (SELECT 1 AS one) o LEFT JOIN handle_tip_stats s "
	    "ON s.chain_id = ? AND s.handle_hash = ?", SQL_U64(r->cfg->chain_id), SQL_BYTES(p.wallet, 20),
	    SQL_U64(r->cfg->chain_id), SQL_BYTES(h->hash, 32));
	if (db_query(r->db, &q, &res) != DB_OK) {
		json_object_put(o);
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	row = res ? mysql_fetch_row(res) : NULL;
	if (row)
		for (int i = 0; i < 5; i++)
			if (row[i])
				amt[i] = row[i];
	pr = json_object_new_object();
	json_object_object_add(pr, "handle", json_object_new_string(h->text));
	json_object_object_add(pr, "linkedWallet", wallet_json(&p));
	json_object_object_add(pr, "totalReceived", json_object_new_string(amt[0]));
	json_object_object_add(pr, "totalSent", json_object_new_string(p.linked ? amt[4] : "0"));
	json_object_object_add(pr, "pushedAmount", json_object_new_string(amt[1]));
	json_object_object_add(pr, "escrowedAmount", json_object_new_string(amt[2]));
	json_object_object_add(pr, "claimedAmount", json_object_new_string(amt[3]));
	json_object_object_add(pr, "firstTipAt", row && row[5] ? json_object_new_string(row[5]) : NULL);
	json_object_object_add(pr, "lastTipAt", row && row[6] ? json_object_new_string(row[6]) : NULL);
	if (res)
		mysql_free_result(res);
	json_object_object_add(o, "profile", pr);
	return answer(r, w, o);
}

enum err
h_handle_points_get(struct req *r, struct resp *w)
{
	return points_or_profile(r, w, false);
}

enum err
h_handle_profile_get(struct req *r, struct resp *w)
{
	return points_or_profile(r, w, true);
}

static json_object *
rule(const char *reason, const char *text)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "reason", json_object_new_string(reason));
	json_object_object_add(o, "rule", json_object_new_string(text));
	return o;
}

static json_object *
int_string(unsigned v)
{
	return u64_string(v);
}

enum err
h_points_policy_get(struct req *r, struct resp *w)
{
	json_object *o = json_object_new_object(), *rules = json_object_new_object(), *ex, *wt, *dc,
	    *tot, *src;

	json_object_object_add(o, "policyVersion", json_object_new_string(POINTS_POLICY));
	json_object_object_add(o, "policy_version", json_object_new_string(POINTS_POLICY));
	json_object_object_add(o, "pointScale", json_object_new_string(POINTS_SCALE_TEXT));
	json_object_object_add(o, "units", json_object_new_string(
	    "points are decimal strings of integer units; pointScale units are one point"));

	ex = json_object_new_array();
	json_object_array_add(ex, rule(points_reason_name(POINTS_REFUNDED),
	    "a refunded tip earns nothing"));
	json_object_array_add(ex, rule(points_reason_name(POINTS_DUST),
	    "a public tip under minPublicTipUsdc earns nothing; a private tip is never dust"));
	json_object_array_add(ex, rule(points_reason_name(POINTS_SELF),
	    "a tip whose tipper is one of the recipient's wallets (the wallet it paid, or the handle's "
	    "current wallet) earns nothing"));
	json_object_array_add(ex, rule(points_reason_name(POINTS_CIRCULAR),
	    "when two wallets have tipped each other (each was a recipient wallet of a tip from the "
	    "other), no tip between them earns, either way"));
	json_object_array_add(ex, rule(points_reason_name(POINTS_PAIR_DAY),
	    "of the tips of one pair (tipper wallet, recipient handle) that passed the rules above, "
	    "only the first of each UTC day earns, in (block time, tip id) order"));
	json_object_object_add(rules, "exclusions", ex);
	json_object_object_add(rules, "minPublicTipUsdc", int_string(POINTS_MIN_USDC));
	json_object_object_add(rules, "perPairPerDay", json_object_new_int(POINTS_PER_PAIR_DAY));
	json_object_object_add(rules, "daySeconds", json_object_new_int(POINTS_DAY));

	wt = json_object_new_object();
	json_object_object_add(wt, "receivedFirst", int_string(POINTS_RECEIVED));
	json_object_object_add(wt, "sentFirst", int_string(POINTS_SENT));
	json_object_object_add(wt, "rank", json_object_new_string(
	    "the n-th earning tip of a pair gives floor(receivedFirst / n) units to the recipient "
	    "handle and floor(sentFirst / n) to the tipper wallet, so a new independent sender "
	    "counts more than a repeat"));
	json_object_object_add(rules, "weights", wt);

	dc = json_object_new_object();
	json_object_object_add(dc, "halfLifeSeconds", json_object_new_int(POINTS_HALF_LIFE));
	json_object_object_add(dc, "formula", json_object_new_string(
	    "a value v earned at block time t is worth floor((v >> k) * (2H - r) / 2H) with "
	    "d = max(0, asOf - t), H = halfLifeSeconds, k = floor(d / H), r = d mod H, and 0 when "
	    "k >= 63: halved every H, linear in between"));
	json_object_object_add(dc, "asOf", json_object_new_string(
	    "the block time of the newest indexed tip, so the same events give the same numbers"));
	json_object_object_add(rules, "decay", dc);

	json_object_object_add(rules, "privateTips", json_object_new_string(
	    "a private tip counts like a public one: it passes the dust rule and earns by the same "
	    "rules and weights, so no point value depends on an amount it hides"));

	tot = json_object_new_object();
	json_object_object_add(tot, "receivedPoints", json_object_new_string(
	    "the sum over tips to the handle"));
	json_object_object_add(tot, "sentPoints", json_object_new_string(
	    "the sum over tips from the handle's current wallet (linked wallet, or an agent's payout "
	    "wallet); 0 when it has none"));
	json_object_object_add(tot, "points", json_object_new_string("receivedPoints + sentPoints"));
	json_object_object_add(tot, "decayedPoints", json_object_new_string(
	    "the same sums of decayed values"));
	json_object_object_add(rules, "totals", tot);
	src = json_object_new_array();
	json_object_array_add(src, json_object_new_string("linked_wallet"));
	json_object_array_add(src, json_object_new_string("unlinked"));
	json_object_object_add(rules, "sentPointsSource", src);
	json_object_object_add(rules, "handleReads", json_object_new_string(
	    "GET /api/v1/handles/{handle}/points and .../profile carry only the interface's members. "
	    "decayedPoints (points read only) are taken at asOf, the block time of the newest indexed "
	    "tip, which no read names: the same events give the same numbers. No read counts a "
	    "handle's independent senders or dates its last earning tip; the rank rule is what makes "
	    "independent senders count more than repeats, and a tip's own points are in its receipt "
	    "(GET /api/v1/receipts/{txHash})."));
	json_object_object_add(o, "rules", rules);
	json_object_object_add(o, "note", json_object_new_string(
	    "waymark's own deterministic policy under the " POINTS_POLICY " label; points are "
	    "non-transferable, non-redeemable public reputation, not a payment or a quality score."));
	return answer(r, w, o);
}
