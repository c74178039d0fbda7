/*
 * review_v3.c: paid publication of a self_reported (V3) review.
 *
 * POST /api/v1/x402/reviews/self-reported, $0.05 through x402: the
 * EIP-712 X402SelfReportedReview (domain "Boon X402 Review" v3, the
 * configured chain and companion) must recover to review.reviewer; the
 * route must be recognized (at least one indexed routed recognition);
 * published within 24 hours of createdAt; one review per wallet and route
 * (unique keys in sql/007). Never ranked: self_reported reviews do not
 * change discovery order. Published reviews are immutable.
 *
 * Signatures are EOA signatures (65 bytes) for now; ERC-1271 contract
 * wallets (verified through the configured RPC) are a later step, and the
 * record says so in its verification.
 *
 * The paid publication record (spec 3.3, review_publications) moves
 * through the payment step of fcgi/pay.c:
 *
 *   v3_prepay      every check, paid or not, so a 402 is only ever asked
 *                  for a publishable review; with a payment it reserves
 *                  the record (reserved_unpaid) keyed by the review digest,
 *                  one per (wallet, route); v3_cancel undoes it
 *                  (cancel_pending, then removed) when nothing is charged
 *   verify         the facilitator
 *   h_review_v3_post  binds the authorization to the record
 *   settle         the facilitator
 *   v3_finish      the final write, one transaction: inserts the review and
 *                  marks the record published; if that write fails, the record becomes settled_pending and the
 *                  answer is 202 with the receipt and retryWithoutRecharge;
 *                  the identical bundle with the same authorization then
 *                  publishes without settling again (EP_PAY_RESUME).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "config.h"
#include "db.h"
#include "hex.h"
#include "json.h"
#include "review.h"
#include "reviews.h"
#include "sig.h"
#include "table.h"
#include "banned.h"

#define V3_SIG_HEX 130            /* 65 bytes: EOA signatures only, for now */
#define V3_STALE_RESERVATION 600  /* seconds before an unfinished reservation is abandoned */

struct v3 {
	struct review_v3 v;
	char rid[65];                 /* hex digits, no 0x */
	char who[41];
	char dg[65];
	char sg[V3_SIG_HEX + 1];
	bool reserved;                /* this request holds the reserved_unpaid record */
};

static void
json_release(void *o)
{
	json_object_put(o);
}

/* Hex digits of b[0..n), n <= 32, without "0x", into out[cap >= 2n + 1]. */
static const char *
raw_hex(const uint8_t *b, size_t n, char *out, size_t cap)
{
	char tmp[2 * 32 + 3];

	hex_encode(b, n, tmp);
	if (cap < 2 * n + 1)
		cap = 0;
	memcpy(out, tmp + 2, cap ? 2 * n + 1 : 0);
	return out;
}

/* The record of the self_reported review with digest dg into *out (NULL when absent). */
static enum db_rc
load_record(struct req *r, const char *dg, json_object **out)
{
	char q[1024];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*out = NULL;
	snprintf(q, sizeof(q), "SELECT " REVIEW_COLUMNS " FROM " REVIEW_FROM " WHERE r.chain_id = %"
	    PRIu64 " AND r.digest = X'%s' AND r.lane = 'self_reported'", r->cfg->chain_id, dg);
	if ((rc = db_query(r->db, q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		*out = review_record(row);
		pool_defer(&r->pool, json_release, *out);
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

/*
 * The holder of this review's lane slot, from reviews (published) or
 * review_publications: its digest into dg_out and state into st_out, ""
 * when the slot is free.
 */
static enum db_rc
slot_holder(struct req *r, const struct v3 *c, char *dg_out, char *st_out, size_t cap)
{
	char q[1024];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	dg_out[0] = st_out[0] = '\0';
	snprintf(q, sizeof(q), "SELECT LOWER(HEX(digest)), 'published' FROM reviews WHERE chain_id = %"
	    PRIu64 " AND route_id = X'%s' AND self_reported_by = X'%s' UNION ALL "
	    "SELECT LOWER(HEX(digest)), IF(state = 'reserved_unpaid' AND updated_at < "
	    "UTC_TIMESTAMP(6) - INTERVAL %d SECOND, 'stale', state) FROM review_publications "
	    "WHERE chain_id = %" PRIu64 " AND lane = 'self_reported' AND reviewer = X'%s' AND "
	    "route_id = X'%s' LIMIT 1", r->cfg->chain_id, c->rid, c->who, V3_STALE_RESERVATION,
	    r->cfg->chain_id, c->who, c->rid);
	if ((rc = db_query(r->db, q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		snprintf(dg_out, cap, "%s", row[0]);
		snprintf(st_out, cap, "%s", row[1]);
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

/* Parse and check the bundle into *c: 400s, then the chain facts. */
static enum err
v3_validate(struct req *r, struct resp *w, struct v3 *c)
{
	const struct value *rv = req_val(r, "review"), *sv = req_val(r, "signature");
	struct sig s;
	struct addr signer;
	uint8_t digest[32];
	char field[64], why[256], q[512];
	uint64_t n = 0;
	bool found = false;

	if (review_v3_parse(rv->object, &c->v, field, sizeof(field), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, field, "Invalid review: %s.", why);
	if (review_window_check(c->v.created_at, time(NULL), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.createdAt", "Invalid review: %s.", why);
	if (sv->len != V3_SIG_HEX + 2 || !hex_is_lower_prefixed(sv->text, sv->len, V3_SIG_HEX) ||
	    sig_parse_hex(sv->text, sv->len, &s) != SIG_OK)
		return resp_fail(w, ERR_INVALID_FIELD, "signature",
		    "The signature must be 65 bytes of lowercase hex (r, s, v) with a low s; contract "
		    "wallet (ERC-1271) signatures are not accepted yet.");
	if (review_v3_digest(&c->v, r->cfg->chain_id, &r->cfg->companion_address, digest) < 0 ||
	    sig_recover(digest, &s, &signer) != SIG_OK || !addr_eq(&signer, &c->v.reviewer))
		return resp_fail(w, ERR_INVALID_FIELD, "signature",
		    "The signature does not recover to review.reviewer.");
	raw_hex(c->v.route_id, 32, c->rid, sizeof(c->rid));
	raw_hex(c->v.reviewer.b, ADDR_LEN, c->who, sizeof(c->who));
	raw_hex(digest, 32, c->dg, sizeof(c->dg));
	memcpy(c->sg, sv->text + 2, V3_SIG_HEX);
	c->sg[V3_SIG_HEX] = '\0';
	snprintf(q, sizeof(q), "SELECT COUNT(*) FROM (SELECT 1 FROM routed_boons WHERE chain_id = %"
	    PRIu64 " AND route_id = X'%s' LIMIT 1) x", r->cfg->chain_id, c->rid);
	if (db_query_u64(r->db, q, &n, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found || n == 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.routeId",
		    "This route is not recognized: it has no indexed routed recognition (it may not be "
		    "confirmed yet).");
	return ERR_NONE;
}

/* Undo this request's reservation: cancel_pending, then removed. */
static void
v3_cancel(struct req *r)
{
	struct v3 *c = r->pay.ctx;
	char q[512];

	if (c == NULL || !c->reserved)
		return;
	snprintf(q, sizeof(q), "UPDATE review_publications SET state = 'cancel_pending', updated_at = "
	    "UTC_TIMESTAMP(6) WHERE chain_id = %" PRIu64 " AND digest = X'%s' AND state = "
	    "'reserved_unpaid'", r->cfg->chain_id, c->dg);
	if (db_exec(r->db, q, false) != DB_OK)
		return;
	/* If this fails, the next reservation of the slot removes the row. */
	snprintf(q, sizeof(q), "DELETE FROM review_publications WHERE chain_id = %" PRIu64 " AND "
	    "digest = X'%s' AND state = 'cancel_pending'", r->cfg->chain_id, c->dg);
	db_exec(r->db, q, false);
	c->reserved = false;
}

/* Insert the reserved_unpaid record; DB_DUPLICATE when the slot or digest is taken. */
static enum db_rc
reserve(struct req *r, struct v3 *c)
{
	char q[1024];

	snprintf(q, sizeof(q), "INSERT INTO review_publications (chain_id, digest, lane, route_id, "
	    "reviewer, state, created_at, updated_at) VALUES (%" PRIu64 ", X'%s', 'self_reported', "
	    "X'%s', X'%s', 'reserved_unpaid', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))", r->cfg->chain_id,
	    c->dg, c->rid, c->who);
	return db_exec(r->db, q, false);
}

/* Remove abandoned records of this slot (cancel_pending, or stale reserved_unpaid). */
static enum db_rc
sweep_slot(struct req *r, const struct v3 *c)
{
	char q[1024];

	snprintf(q, sizeof(q), "DELETE FROM review_publications WHERE chain_id = %" PRIu64 " AND "
	    "lane = 'self_reported' AND reviewer = X'%s' AND route_id = X'%s' AND (state = "
	    "'cancel_pending' OR (state = 'reserved_unpaid' AND updated_at < UTC_TIMESTAMP(6) - "
	    "INTERVAL %d SECOND))", r->cfg->chain_id, c->who, c->rid, V3_STALE_RESERVATION);
	return db_exec(r->db, q, false);
}

/* The 202 of spec 3.3: settled, not yet published. */
static enum err
answer_pending(struct req *r, struct resp *w, bool checkpointed)
{
	json_object *o = json_object_new_object(), *rc = json_object_new_object();
	char a[ADDR_TEXT_LEN + 1];
	struct addr payer;

	memcpy(payer.b, r->pay.payer, ADDR_LEN);
	pool_defer(&r->pool, json_release, o);
	json_object_object_add(o, "status", json_object_new_string(checkpointed ? "settled_pending" :
	    "settlement_receipt_uncheckpointed"));
	json_object_object_add(o, "retryWithoutRecharge", json_object_new_boolean(1));
	json_object_object_add(rc, "transaction", json_object_new_string(r->pay.tx));
	json_object_object_add(rc, "network", json_object_new_string(r->cfg->network));
	json_object_object_add(rc, "payer", json_object_new_string(addr_format(&payer, a)));
	json_object_object_add(rc, "priceUsdc", json_object_new_string(r->ep->price_usdc));
	json_object_object_add(o, "receipt", rc);
	json_object_object_add(o, "message", json_object_new_string(
	    "The payment settled but the review is not published yet. Keep this receipt and send the "
	    "identical signed review with the same PAYMENT-SIGNATURE again: it publishes without a "
	    "second charge. Never authorize a replacement payment."));
	return resp_json(w, 202, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

/* The 202 again for a settled_pending record, from its stored receipt. */
static enum err
answer_recorded_pending(struct req *r, struct resp *w, const struct v3 *c)
{
	char q[512];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum err e = ERR_DATABASE_UNAVAILABLE;

	snprintf(q, sizeof(q), "SELECT payer, tx_hash FROM review_publications WHERE chain_id = %" PRIu64
	    " AND digest = X'%s' AND state = 'settled_pending'", r->cfg->chain_id, c->dg);
	if (db_query(r->db, q, &res) != DB_OK)
		return resp_fail(w, e, NULL, NULL);
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL &&
	    row[0] && len[0] == ADDR_LEN) {
		memcpy(r->pay.payer, row[0], ADDR_LEN);
		if (row[1] && len[1] == 32)
			hex_encode((const uint8_t *)row[1], 32, r->pay.tx);
		e = answer_pending(r, w, true);
	} else {
		e = resp_fail(w, e, NULL, NULL);
	}
	if (res)
		mysql_free_result(res);
	return e;
}

/*
 * The prepay hook: every check before a payment is asked for or verified.
 * Answers by itself with 200 when this identical review is already
 * published (nothing charged), 202 again when it is settled_pending and
 * came without its payment, 409 when another review holds the slot.
 */
enum err
h_review_v3_prepay(struct req *r, struct resp *w)
{
	struct v3 *c = pool_alloc(&r->pool, sizeof(*c));
	char dg[80], st[80];
	json_object *rec;
	enum err e;
	enum db_rc rc;

	if (c == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	memset(c, 0, sizeof(*c));
	r->pay.ctx = c;
	if ((e = v3_validate(r, w, c)) != ERR_NONE)
		return e;
	if (r->pay.present) {
		if ((rc = reserve(r, c)) == DB_DUPLICATE && sweep_slot(r, c) == DB_OK)
			rc = reserve(r, c);
		if (rc == DB_OK) {
			c->reserved = true;
			r->pay.cancel = v3_cancel;
			return ERR_NONE;
		}
		if (rc != DB_DUPLICATE)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	if (slot_holder(r, c, dg, st, sizeof(dg)) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (dg[0] == '\0' || strcmp(st, "stale") == 0 || strcmp(st, "cancel_pending") == 0) {
		/* Unpaid: free to ask for the payment. Paid: the slot was freed meanwhile. */
		return r->pay.present ? resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
		    "The review slot changed during the request; retry.") : ERR_NONE;
	}
	if (strcmp(dg, c->dg) != 0)
		return resp_fail(w, ERR_ALREADY_REVIEWED, "review.routeId",
		    "This wallet already has a different self_reported review of this route (or one "
		    "being published); reviews are immutable.");
	if (strcmp(st, "published") == 0) {
		if (load_record(r, c->dg, &rec) != DB_OK || rec == NULL)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		return resp_json(w, 200, rec) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
	}
	if (strcmp(st, "settled_pending") == 0)
		/* Paid earlier: with the same authorization, the retry goes on;
		 * without one, no 402 that would invite a replacement payment. */
		return r->pay.present ? ERR_NONE : answer_recorded_pending(r, w, c);
	return resp_fail(w, ERR_ALREADY_REVIEWED, "review.routeId",
	    "This review is being published by another request; retry it in a moment.");
}

/*
 * The final write, after settlement, in one transaction: insert the
 * review and mark the record published; 201 with the record. If it fails,
 * the record becomes settled_pending and the answer is 202. The slot's
 * reservation (one_per_slot) keeps every other bundle of this wallet and
 * route out, so the review's own unique keys do not refuse it here.
 */
static enum err
v3_finish(struct req *r, struct resp *w)
{
	struct v3 *c = r->pay.ctx;
	const struct value *rv = req_val(r, "review");
	char q[1024], payer[41], nonce[65], tx[80] = "NULL", text[2 * REVIEW_TEXT_MAX + 1];
	char jesc[2 * 8192 + 1];
	struct buf ins;
	json_object *rec = NULL;
	const char *js;
	size_t jl;
	bool done = false;

	raw_hex(r->pay.payer, ADDR_LEN, payer, sizeof(payer));
	raw_hex(r->pay.nonce, 32, nonce, sizeof(nonce));
	if (strlen(r->pay.tx) == 66)
		snprintf(tx, sizeof(tx), "X'%s'", r->pay.tx + 2);
	js = json_dump(rv->object, &jl);
	buf_init(&ins, 64 * 1024);
	if (js && jl <= 8192 && db_escape(r->db, c->v.text, c->v.text_len, text, sizeof(text)) == 0 &&
	    db_escape(r->db, js, jl, jesc, sizeof(jesc)) == 0 && db_begin(r->db) == DB_OK) {
		buf_printf(&ins, "INSERT INTO reviews (chain_id, lane, route_id, reviewer, review_text, "
		    "created_at, published_at, digest, signature, signature_kind, review_json) VALUES (%"
		    PRIu64 ", 'self_reported', X'%s', X'%s', '%s', %" PRIu64 ", UTC_TIMESTAMP(6), X'%s', "
		    "X'%s', 'eoa', '%s')", r->cfg->chain_id, c->rid, c->who, text, c->v.created_at, c->dg,
		    c->sg, jesc);
		snprintf(q, sizeof(q), "UPDATE review_publications SET state = 'published', payer = X'%s', "
		    "auth_nonce = X'%s', tx_hash = %s, updated_at = UTC_TIMESTAMP(6) WHERE chain_id = %"
		    PRIu64 " AND digest = X'%s' AND state IN ('reserved_unpaid', 'settled_pending')", payer,
		    nonce, tx, r->cfg->chain_id, c->dg);
		done = !ins.full && db_exec(r->db, buf_str(&ins), false) == DB_OK &&
		    db_exec(r->db, q, false) == DB_OK && mysql_affected_rows(r->db->my) == 1 &&
		    db_commit(r->db) == DB_OK;
	}
	buf_release(&ins);
	if (r->db->in_txn)
		db_rollback(r->db);
	c->reserved = false;
	if (done) {
		if (load_record(r, c->dg, &rec) != DB_OK || rec == NULL)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		return resp_json(w, 201, rec) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
	}
	fprintf(stderr, "waymark: %s %s: settled, publication not finished (settled_pending)\n",
	    r->method_text, r->ep->id);
	snprintf(q, sizeof(q), "UPDATE review_publications SET state = 'settled_pending', payer = X'%s', "
	    "auth_nonce = X'%s', tx_hash = %s, updated_at = UTC_TIMESTAMP(6) WHERE chain_id = %" PRIu64
	    " AND digest = X'%s' AND state IN ('reserved_unpaid', 'settled_pending')", payer, nonce, tx,
	    r->cfg->chain_id, c->dg);
	return answer_pending(r, w, db_exec(r->db, q, false) == DB_OK);
}

/*
 * Runs after the facilitator verified the payment (or, settled_earlier,
 * for the identical retry): binds the authorization to the record and
 * leaves the publication to v3_finish, after settlement.
 */
enum err
h_review_v3_post(struct req *r, struct resp *w)
{
	struct v3 *c = r->pay.ctx;
	char q[1024], payer[41], nonce[65];
	uint64_t n = 0;
	bool found = false;

	if (c == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	raw_hex(r->pay.payer, ADDR_LEN, payer, sizeof(payer));
	raw_hex(r->pay.nonce, 32, nonce, sizeof(nonce));
	if (r->pay.settled_earlier) {
		/* Only the record this very authorization paid for may publish now. */
		snprintf(q, sizeof(q), "SELECT COUNT(*) FROM review_publications WHERE chain_id = %" PRIu64
		    " AND digest = X'%s' AND state = 'settled_pending' AND payer = X'%s' AND auth_nonce = "
		    "X'%s'", r->cfg->chain_id, c->dg, payer, nonce);
		if (db_query_u64(r->db, q, &n, &found) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		if (!found || n != 1)
			return resp_fail(w, ERR_PAYMENT_USED, NULL, NULL);
	} else {
		snprintf(q, sizeof(q), "UPDATE review_publications SET payer = X'%s', auth_nonce = X'%s', "
		    "updated_at = UTC_TIMESTAMP(6) WHERE chain_id = %" PRIu64 " AND digest = X'%s' AND "
		    "state = 'reserved_unpaid'", payer, nonce, r->cfg->chain_id, c->dg);
		if (db_exec(r->db, q, false) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		if (mysql_affected_rows(r->db->my) != 1)
			return resp_fail(w, ERR_ALREADY_REVIEWED, "review.routeId",
			    "This review's publication record changed during the request; retry.");
	}
	r->pay.finish = v3_finish;
	return ERR_NONE;
}
