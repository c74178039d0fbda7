/*
 * publication.c: paid review publication records (see publication.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "db.h"
#include "endpoint.h"
#include "hex.h"
#include "json.h"
#include "ledger.h"
#include "publication.h"
#include "review.h"
#include "reviews.h"
#include "sql.h"
#include "x402.h"
#include "banned.h"

#define STALE_RESERVATION 600  /* seconds before an unfinished reservation is abandoned */

/*
 * A record may be removed only while no payment bound to it can have moved
 * money: never bound (verification never passed), or bound to a payment
 * the ledger knows was not charged (released, or failed for a reason other
 * than an unknown settlement outcome).
 */
#define NOT_CHARGED "(payer IS NULL OR EXISTS (SELECT 1 FROM x402_payments x WHERE " \
	"x.payer = review_publications.payer AND x.auth_nonce = review_publications.auth_nonce " \
	"AND (x.status = 'released' OR (x.status = 'failed' AND x.reason <> 'settle_unknown'))))"



/* Text of len bytes, or NULL. */
static struct sqlv
text_or_null(const char *s, size_t len)
{
	return s ? SQL_TEXTN(s, len) : SQL_NULL;
}

/* The published record of review digest p->dg in p's lane into *out (NULL when absent). */
static enum db_rc
load_record(struct req *r, const struct publication *p, json_object **out)
{
	char b[1024];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*out = NULL;
	sql_add(&q, "SELECT " REVIEW_COLUMNS " FROM " REVIEW_FROM " WHERE r.chain_id = ? AND r.digest = ? "
	    "AND r.lane = ?", SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg), SQL_TEXT(p->lane->name));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		if ((*out = review_record(row)) == NULL)
			rc = DB_ERROR;
		else if (pool_defer(&r->pool, json_release, *out) < 0) {
			json_object_put(*out);
			*out = NULL;
			rc = DB_ERROR;
		}
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/*
 * The state of this very bundle's record: its review digest and its
 * signature as stored ("" when there is none, or the signature differs).
 */
static enum db_rc
own_state(struct req *r, const struct publication *p, char *st, size_t cap)
{
	const struct value *sv = req_val(r, "signature");
	size_t scap = 2 * PUBLICATION_SIG_MAX + 1;
	char b[768], *sig = pool_alloc(&r->pool, scap), *state = pool_alloc(&r->pool, scap);
	struct sql q = SQL_ON(b);
	enum db_rc rc;

	st[0] = '\0';
	if (sig == NULL || state == NULL)
		return DB_ERROR;
	sql_add(&q, "SELECT 'published', LOWER(HEX(signature)) FROM reviews WHERE "
	    "chain_id = ? AND digest = ? UNION ALL SELECT state, LOWER(HEX(signature)) FROM "
	    "review_publications WHERE chain_id = ? AND digest = ? LIMIT 1",
	    SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg), SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg));
	if ((rc = db_query_pair(r->db, &q, state, sig, scap)) != DB_OK)
		return rc;
	if (sv->len > 2 && strlen(sig) == sv->len - 2 && memcmp(sig, sv->text + 2, sv->len - 2) == 0)
		snprintf(st, cap, "%s", state);
	return DB_OK;
}

/* The holder of this review's lane slot (wallet and route). */
static enum db_rc
slot_holder(struct req *r, const struct publication *p, char *dg_out, char *st_out, size_t cap)
{
	char b[1536];
	struct sql q = SQL_ON(b);

	sql_add(&q, "SELECT LOWER(HEX(digest)), 'published' FROM reviews WHERE chain_id = ? "
	    "AND route_id = ? AND lane = ? AND reviewer = ? UNION ALL "
	    "SELECT LOWER(HEX(digest)), IF(state = 'reserved_unpaid' AND updated_at < "
	    "UTC_TIMESTAMP(6) - INTERVAL ? SECOND AND " NOT_CHARGED ", 'stale', state) FROM review_publications "
	    "WHERE chain_id = ? AND lane = ? AND reviewer = ? AND route_id = ? "
	    "LIMIT 1", SQL_U64(r->cfg->chain_id), SQL_HEX(p->rid), SQL_TEXT(p->lane->name), SQL_HEX(p->who),
	    SQL_U64(STALE_RESERVATION), SQL_U64(r->cfg->chain_id), SQL_TEXT(p->lane->name), SQL_HEX(p->who),
	    SQL_HEX(p->rid));
	return db_query_pair(r->db, &q, dg_out, st_out, cap);
}

/* The holder of this review's receipt, when it has one. */
static enum db_rc
receipt_holder(struct req *r, const struct publication *p, char *dg_out, char *st_out, size_t cap)
{
	char b[1536];
	struct sql q = SQL_ON(b);

	if (p->receipt_dg[0] == '\0') {
		dg_out[0] = st_out[0] = '\0';
		return DB_OK;
	}
	sql_add(&q, "SELECT LOWER(HEX(digest)), 'published' FROM reviews WHERE chain_id = ? "
	    "AND receipt_digest = ? UNION ALL SELECT LOWER(HEX(digest)), IF(state = "
	    "'reserved_unpaid' AND updated_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND AND " NOT_CHARGED
	    ", 'stale', state) "
	    "FROM review_publications WHERE chain_id = ? AND receipt_digest = ? LIMIT 1",
	    SQL_U64(r->cfg->chain_id), SQL_HEX(p->receipt_dg), SQL_U64(STALE_RESERVATION),
	    SQL_U64(r->cfg->chain_id), SQL_HEX(p->receipt_dg));
	return db_query_pair(r->db, &q, dg_out, st_out, cap);
}

/* Undo this request's reservation: cancel_pending, then removed. */
static void
cancel(struct req *r)
{
	struct publication *p = r->pay.ctx;
	char b[2048];
	struct sql q = SQL_ON(b);

	if (p == NULL || !p->reserved)
		return;
	/* When a statement cannot be built or fails, the reservation goes stale and is swept. */
	sql_add(&q, "UPDATE review_publications SET state = 'cancel_pending', updated_at = "
	    "UTC_TIMESTAMP(6) WHERE chain_id = ? AND digest = ? AND state = 'reserved_unpaid'",
	    SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg));
	/* Another request's reservation: only if this request's payment bound it. */
	if (p->adopted)
		sql_add(&q, " AND payer = ? AND auth_nonce = ?", SQL_BYTES(r->pay.payer, ADDR_LEN),
		    SQL_BYTES(r->pay.nonce, 32));
	sql_add(&q, " AND " NOT_CHARGED);
	if (db_exec(r->db, &q) != DB_OK)
		return;
	/* If this fails, the next reservation of the slot removes the row. */
	sql_reset(&q);
	sql_add(&q, "DELETE FROM review_publications WHERE chain_id = ? AND "
	    "digest = ? AND state = 'cancel_pending'", SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg));
	db_exec(r->db, &q);
	p->reserved = false;
}

/*
 * Insert the reserved_unpaid record with the complete review row it will
 * write; DB_DUPLICATE when its slot, digest or receipt is taken.
 */
static enum db_rc
reserve(struct req *r, const struct publication *p)
{
	const struct value *rv = req_val(r, "review");
	const size_t cap = 512 * 1024;
	char *b = pool_alloc(&r->pool, cap);
	struct sql q;
	const char *js;
	size_t jl;

	js = json_dump(rv->object, &jl);
	if (b == NULL || js == NULL)
		return DB_ERROR;
	sql_on(&q, b, cap);
	sql_add(&q, "INSERT INTO review_publications (chain_id, digest, lane, route_id, reviewer, "
	    "receipt_digest, state, created_at, updated_at, review_text, review_created_at, signature, "
	    "signature_kind, review_json, receipt_json, evidence_json, authority_json) VALUES (?, ?, ?, ?, ?, "
	    "?, 'reserved_unpaid', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), ?, ?, ?, ?, ?, ?, ?, ?)",
	    SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg), SQL_TEXT(p->lane->name), SQL_HEX(p->rid),
	    SQL_HEX(p->who), p->receipt_dg[0] ? SQL_HEX(p->receipt_dg) : SQL_NULL,
	    text_or_null(p->text, p->text_len), SQL_U64(p->created_at), SQL_HEX(p->sig),
	    SQL_TEXT(p->sig_kind), SQL_TEXTN(js, jl), SQL_TEXT(p->receipt_json), SQL_TEXT(p->evidence_json),
	    SQL_TEXT(p->authority_json));
	return db_exec(r->db, &q);
}

/* Remove abandoned records (cancel_pending, or stale reserved_unpaid) of this slot or receipt. */
static enum db_rc
sweep(struct req *r, const struct publication *p)
{
	char b[1536];
	struct sql q = SQL_ON(b);

	sql_add(&q, "DELETE FROM review_publications WHERE chain_id = ? AND "
	    "((lane = ? AND reviewer = ? AND route_id = ?)", SQL_U64(r->cfg->chain_id), SQL_TEXT(p->lane->name),
	    SQL_HEX(p->who), SQL_HEX(p->rid));
	if (p->receipt_dg[0])
		sql_add(&q, " OR receipt_digest = ?", SQL_HEX(p->receipt_dg));
	sql_add(&q, ") AND (state = 'cancel_pending' OR (state = 'reserved_unpaid' AND updated_at < "
	    "UTC_TIMESTAMP(6) - INTERVAL ? SECOND AND " NOT_CHARGED "))", SQL_U64(STALE_RESERVATION));
	return db_exec(r->db, &q);
}

/* The 202 of docs/ARCHITECTURE.md, Paid publication: settled, not yet published. */
static enum err
answer_pending(struct req *r, struct resp *w, bool checkpointed)
{
	json_object *o = json_object_new_object(), *rc = json_object_new_object();
	char a[ADDR_TEXT_LEN + 1];
	struct addr payer;

	memcpy(payer.b, r->pay.payer, ADDR_LEN);
	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		json_object_put(rc);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_object_add(o, "status", json_object_new_string(checkpointed ? "settled_pending" :
	    "settlement_receipt_uncheckpointed"));
	json_object_object_add(o, "publicationStatus", json_object_new_string(checkpointed ?
	    "settled_pending" : "settlement_receipt_uncheckpointed"));
	json_object_object_add(o, "retryWithoutRecharge", json_object_new_boolean(1));
	json_object_object_add(rc, "transaction", json_object_new_string(r->pay.tx));
	json_object_object_add(rc, "network", json_object_new_string(r->cfg->network));
	json_object_object_add(rc, "payer", json_object_new_string(addr_format(&payer, a)));
	json_object_object_add(rc, "priceUsdc", json_object_new_string(r->ep->price_usdc));
	json_object_object_add(o, "receipt", rc);
	json_object_object_add(o, "message", json_object_new_string(
	    "The payment settled but the review is not published yet. Keep this receipt and send the "
	    "identical signed review with the same payment (PAYMENT-SIGNATURE, or Authorization: "
	    "Payment) again: it publishes without a second charge. Never authorize a replacement "
	    "payment."));
	return resp_json(w, 202, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

/* The 202 again for a settled_pending record, from its stored receipt. */
static enum err
answer_recorded_pending(struct req *r, struct resp *w, const struct publication *p)
{
	char b[512];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum err e = ERR_DATABASE_UNAVAILABLE;

	sql_add(&q, "SELECT payer, tx_hash FROM review_publications WHERE chain_id = ? "
	    "AND digest = ? AND state = 'settled_pending'", SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg));
	if (db_query(r->db, &q, &res) != DB_OK)
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

/* What an existing holder of the slot or receipt means for this bundle. */
static enum err
answer_holder(struct req *r, struct resp *w, struct publication *p, const char *dg,
    const char *st, enum err other)
{
	json_object *rec;

	if (strcmp(dg, p->dg) != 0)
		return other == ERR_RECEIPT_USED ?
		    resp_fail(w, ERR_RECEIPT_USED, "review.receiptDigest",
		    "This receipt already backs another review (or one being published); each receipt "
		    "can be used once.") :
		    resp_fail(w, ERR_ALREADY_REVIEWED, "review.routeId",
		    "This wallet already has a different %s review of this route (or one being "
		    "published); reviews are immutable.", p->lane->name);
	if (strcmp(st, "published") == 0) {
		if (load_record(r, p, &rec) != DB_OK || rec == NULL)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		return resp_json(w, 200, rec) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
	}
	if (strcmp(st, "settled_pending") == 0)
		/* Paid earlier: with the same authorization, the retry goes on;
		 * without one, no 402 that would invite a replacement payment. */
		return r->pay.present ? ERR_NONE : answer_recorded_pending(r, w, p);
	/* reserved_unpaid (or its stale form) by this same bundle: a request in
	 * flight, or one whose payment's outcome is not known. Go on: the
	 * payment step resolves a known payment, and binding (publication_post)
	 * lets only one authorization ever pay for the record. */
	if (r->pay.present) {
		p->reserved = p->adopted = true;
		r->pay.cancel = cancel;
	}
	return ERR_NONE;
}

static bool
free_state(const char *dg, const char *st)
{
	return dg[0] == '\0' || strcmp(st, "stale") == 0 || strcmp(st, "cancel_pending") == 0;
}

enum err
publication_signature(struct req *r, struct resp *w, struct publication *p,
    const uint8_t digest[32], const struct addr *signer, enum err invalid, const char *invalid_msg)
{
	const struct value *sv = req_val(r, "signature");
	uint8_t *raw = pool_alloc(&r->pool, PUBLICATION_SIG_MAX);
	enum walletsig_kind kind = WALLETSIG_EOA;
	size_t n = 0;

	if (raw == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (sv->len < 4 || sv->len > 2 + 2 * PUBLICATION_SIG_MAX || sv->len % 2 != 0 ||
	    !hex_is_lower_prefixed(sv->text, sv->len, sv->len - 2) ||
	    hex_decode(sv->text, sv->len, raw, PUBLICATION_SIG_MAX, &n) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "signature",
		    "The signature must be 0x and lowercase hex of at most %d bytes: 65 bytes (r, s, v) "
		    "with a low s for a wallet key, or what the contract wallet signs (ERC-1271, "
		    "EIP-6492 when it is not deployed yet).", PUBLICATION_SIG_MAX);
	if (n == 64)
		/* EIP-2098 compact: reviews take the 65-byte (r, s, v) form every wallet produces. */
		return resp_fail(w, ERR_INVALID_FIELD, "signature",
		    "A 64-byte (compact) signature is not accepted: send the 65-byte form (r, s, v).");
	switch (walletsig_verify(r->cfg, digest, raw, n, signer, &kind)) {
	case WALLETSIG_VALID:
		break;
	case WALLETSIG_UNAVAILABLE:
		return resp_fail(w, ERR_SIGNATURE_UNAVAILABLE, "signature",
		    "This looks like a contract-wallet signature and the chain cannot be asked about it "
		    "right now; nothing was charged. Retry later.");
	default:
		return resp_fail(w, invalid, "signature", "%s", invalid_msg);
	}
	memcpy(p->sig, sv->text + 2, sv->len - 2);
	p->sig[sv->len - 2] = '\0';
	p->sig_kind = walletsig_kind_column(kind);
	return ERR_NONE;
}

enum err
publication_recognized(struct req *r, struct resp *w, const struct publication *p)
{
	char b[512];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found = false;

	sql_add(&q, "SELECT COUNT(*) FROM (SELECT 1 FROM routed_boons WHERE chain_id = ? "
	    "AND route_id = ? LIMIT 1) x", SQL_U64(r->cfg->chain_id), SQL_HEX(p->rid));
	if (db_query_u64(r->db, &q, &n, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found || n == 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.routeId",
		    "This route is not recognized: it has no indexed routed recognition (it may not be "
		    "confirmed yet).");
	return ERR_NONE;
}

enum err
publication_prepay(struct req *r, struct resp *w, const struct publication_lane *lane)
{
	struct publication *p = pool_alloc(&r->pool, sizeof(*p));
	char dg[80], st[80];
	enum err e;
	enum db_rc rc;

	if (p == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	memset(p, 0, sizeof(*p));
	p->lane = lane;
	r->pay.ctx = p;
	if ((e = lane->parse(r, w, p)) != ERR_NONE)
		return e;
	/* The identical bundle (same review, same signature) again: its record
	 * answers, whatever the clock or the chain say now (every rule held
	 * when it was reserved). */
	if (own_state(r, p, st, sizeof(st)) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (strcmp(st, "published") == 0 || strcmp(st, "settled_pending") == 0)
		return answer_holder(r, w, p, p->dg, st, ERR_ALREADY_REVIEWED);
	if ((e = lane->check(r, w, p)) != ERR_NONE)
		return e;
	if (r->pay.present) {
		if ((rc = reserve(r, p)) == DB_DUPLICATE && sweep(r, p) == DB_OK)
			rc = reserve(r, p);
		if (rc == DB_OK) {
			p->reserved = true;
			r->pay.cancel = cancel;
			return ERR_NONE;
		}
		if (rc != DB_DUPLICATE)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	if (receipt_holder(r, p, dg, st, sizeof(dg)) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!free_state(dg, st))
		return answer_holder(r, w, p, dg, st, ERR_RECEIPT_USED);
	if (slot_holder(r, p, dg, st, sizeof(dg)) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!free_state(dg, st))
		return answer_holder(r, w, p, dg, st, ERR_ALREADY_REVIEWED);
	/* Unpaid: free to ask for the payment. Paid: the slot was freed meanwhile. */
	return r->pay.present ? resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL,
	    "The review slot changed during the request; retry.") : ERR_NONE;
}

struct complete {
	uint64_t chain_id;
	const char *dg;
};

/* The body of publication_complete's transaction (db_txn may run it again). */
static enum db_rc
complete_body(struct db *db, void *arg)
{
	const struct complete *c = arg;
	char b[2048];
	struct sql q = SQL_ON(b);
	enum db_rc rc;

	sql_add(&q, "INSERT INTO reviews (chain_id, lane, route_id, reviewer, review_text, "
	    "created_at, published_at, digest, signature, signature_kind, review_json, receipt_digest, "
	    "receipt_json, evidence_json, authority_json) SELECT chain_id, lane, route_id, reviewer, "
	    "review_text, review_created_at, UTC_TIMESTAMP(6), digest, signature, signature_kind, "
	    "review_json, receipt_digest, receipt_json, evidence_json, authority_json FROM "
	    "review_publications WHERE chain_id = ? AND digest = ? AND state IN "
	    "('reserved_unpaid', 'settled_pending') AND review_text IS NOT NULL", SQL_U64(c->chain_id),
	    SQL_HEX(c->dg));
	if ((rc = db_exec(db, &q)) != DB_OK)
		return rc;
	if (mysql_affected_rows(db->my) != 1)
		return DB_DUPLICATE;
	sql_reset(&q);
	sql_add(&q, "UPDATE review_publications SET state = 'published', updated_at = "
	    "UTC_TIMESTAMP(6) WHERE chain_id = ? AND digest = ? AND state IN "
	    "('reserved_unpaid', 'settled_pending')", SQL_U64(c->chain_id), SQL_HEX(c->dg));
	if ((rc = db_exec(db, &q)) != DB_OK)
		return rc;
	return mysql_affected_rows(db->my) == 1 ? DB_OK : DB_DUPLICATE;
}

enum db_rc
publication_complete(struct db *db, uint64_t chain_id, const char *dg)
{
	struct complete c = { .chain_id = chain_id, .dg = dg };

	return db_txn(db, complete_body, &c);
}

/*
 * Records bound to a payment of unknown outcome (its ledger row failed with
 * settle_unknown, or reserved and abandoned): the chain decides, as for the
 * identical retry. Used: the ledger row becomes settled (the next step
 * completes the record). Void: it never pays, the record is released.
 * Unused or unknown: left for the retry (whether an unused authorization
 * has expired is not stored).
 */
static enum db_rc
resolve_unknown_payments(struct db *db, const struct config *cfg, unsigned min_age)
{
	char b[1024];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	sql_add(&q, "SELECT x.payer, x.auth_nonce, x.pay_to, x.amount FROM review_publications p "
	    "JOIN x402_payments x ON x.payer = p.payer AND x.auth_nonce = p.auth_nonce WHERE p.chain_id = ? "
	    "AND p.state = 'reserved_unpaid' AND p.updated_at <= UTC_TIMESTAMP(6) - INTERVAL ? "
	    "SECOND AND ((x.status = 'failed' AND x.reason = 'settle_unknown') OR (x.status = 'reserved' "
	    "AND x.updated_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND)) LIMIT 100",
	    SQL_U64(cfg->chain_id), SQL_U64(min_age), SQL_U64(cfg->payment_abandoned_s));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		struct x402_payment pay = { 0 };
		uint8_t tx[32];

		len = mysql_fetch_lengths(res);
		if (!row[0] || !row[1] || !row[2] || !row[3] || len[0] != ADDR_LEN || len[1] != 32 ||
		    len[2] != ADDR_LEN || len[3] >= sizeof(pay.value))
			continue;
		memcpy(pay.from.b, row[0], ADDR_LEN);
		memcpy(pay.nonce, row[1], 32);
		memcpy(pay.to.b, row[2], ADDR_LEN);
		memcpy(pay.value, row[3], len[3]);
		/*
		 * What the chain says goes to the ledger first; a row the ledger
		 * could not record stops this run (the next one asks again), so no
		 * publication below moves on a ledger that does not say so.
		 */
		switch (x402_authorization_state(cfg, &pay, tx)) {
		case X402_AUTH_USED:
			if (ledger_mark(db, &pay, LEDGER_SETTLED, tx, NULL) < 0)
				rc = DB_ERROR;
			break;
		case X402_AUTH_VOID:
			if (ledger_mark(db, &pay, LEDGER_FAILED, NULL, "authorization_void") < 0)
				rc = DB_ERROR;
			break;
		default:
			break;
		}
		if (rc != DB_OK)
			break;
	}
	if (res)
		mysql_free_result(res);
	if (rc != DB_OK)
		return rc;
	/* Void ones: nothing paid for them, so their records go. */
	sql_reset(&q);
	sql_add(&q, "DELETE FROM review_publications WHERE chain_id = ? AND "
	    "state = 'reserved_unpaid' AND payer IS NOT NULL AND " NOT_CHARGED, SQL_U64(cfg->chain_id));
	if ((rc = db_exec(db, &q)) != DB_OK)
		return rc;
	/* Settled ones (also a settlement whose receipt was never checkpointed): settled_pending. */
	sql_reset(&q);
	sql_add(&q, "UPDATE review_publications p JOIN x402_payments x ON x.payer = "
	    "p.payer AND x.auth_nonce = p.auth_nonce SET p.state = 'settled_pending', p.tx_hash = "
	    "x.tx_hash WHERE p.chain_id = ? AND p.state = 'reserved_unpaid' AND x.status = "
	    "'settled' AND p.updated_at <= UTC_TIMESTAMP(6) - INTERVAL ? SECOND", SQL_U64(cfg->chain_id),
	    SQL_U64(min_age));
	return db_exec(db, &q);
}

enum db_rc
publication_complete_pending(struct db *db, const struct config *cfg, unsigned min_age,
    unsigned *done, unsigned *failed)
{
	char b[512], dg[65];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;
	char (*pending)[65] = NULL;
	size_t n = 0;

	*done = *failed = 0;
	if ((rc = resolve_unknown_payments(db, cfg, min_age)) != DB_OK)
		return rc;
	sql_add(&q, "SELECT LOWER(HEX(digest)) FROM review_publications WHERE chain_id = ? "
	    "AND state = 'settled_pending' AND updated_at <= UTC_TIMESTAMP(6) - INTERVAL ? "
	    "SECOND ORDER BY updated_at LIMIT 1000", SQL_U64(cfg->chain_id), SQL_U64(min_age));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (pending = calloc(mysql_num_rows(res) + 1, sizeof(*pending))) != NULL)
		while ((row = mysql_fetch_row(res)) != NULL)
			snprintf(pending[n++], sizeof(dg), "%s", row[0]);
	if (res && pending == NULL) {
		mysql_free_result(res);
		return DB_ERROR;
	}
	if (res)
		mysql_free_result(res);
	for (size_t i = 0; i < n; i++) {
		if (publication_complete(db, cfg->chain_id, pending[i]) == DB_OK)
			(*done)++;
		else
			(*failed)++;
	}
	free(pending);
	return DB_OK;
}

/*
 * The final write, after settlement: publication_complete; 201 with the
 * record. If it fails, the record becomes settled_pending (with this
 * authorization) and the answer is 202. The reservation keeps every other
 * bundle of this slot and receipt out, so the review's own unique keys do
 * not refuse it here.
 */
static enum err
finish(struct req *r, struct resp *w)
{
	struct publication *p = r->pay.ctx;
	char b[1536];
	struct sql q = SQL_ON(b);
	json_object *rec = NULL;
	enum db_rc rc;
	bool bound;
	const struct sqlv payer = SQL_BYTES(r->pay.payer, ADDR_LEN), nonce = SQL_BYTES(r->pay.nonce, 32);

	/* The receipt first, so a record that cannot finish keeps it. */
	if (sql_add(&q, "UPDATE review_publications SET state = 'settled_pending', payer = ?, "
	    "auth_nonce = ?, tx_hash = ?, updated_at = UTC_TIMESTAMP(6) WHERE chain_id = ? "
	    "AND digest = ? AND state IN ('reserved_unpaid', 'settled_pending') AND (payer IS NULL "
	    "OR (payer = ? AND auth_nonce = ?))", payer, nonce,
	    strlen(r->pay.tx) == 66 ? SQL_HEX(r->pay.tx + 2) : SQL_NULL, SQL_U64(r->cfg->chain_id),
	    SQL_HEX(p->dg), payer, nonce) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	p->reserved = false;
	if (db_exec(r->db, &q) != DB_OK) {
		fprintf(stderr, "waymark: %s %s: settled, receipt not checkpointed\n", r->method_text,
		    r->ep->id);
		return answer_pending(r, w, false);
	}
	bound = mysql_affected_rows(r->db->my) == 1;
	rc = bound ? publication_complete(r->db, r->cfg->chain_id, p->dg) : DB_DUPLICATE;
	if (rc == DB_OK || rc == DB_DUPLICATE) {
		/* Published now, or already (by the identical retry or the scheduled task). */
		if (load_record(r, p, &rec) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		if (rec != NULL)
			return resp_json(w, rc == DB_OK ? 201 : 200, rec) < 0 ?
			    resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
	}
	if (!bound) {
		fprintf(stderr, "waymark: %s %s: settled, but the record is gone or held by another "
		    "payment\n", r->method_text, r->ep->id);
		return answer_pending(r, w, false);
	}
	fprintf(stderr, "waymark: %s %s: settled, publication not finished (settled_pending)\n",
	    r->method_text, r->ep->id);
	return answer_pending(r, w, true);
}

enum err
publication_post(struct req *r, struct resp *w)
{
	struct publication *p = r->pay.ctx;
	char b[1024];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found = false;

	if (p == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	const struct sqlv payer = SQL_BYTES(r->pay.payer, ADDR_LEN), nonce = SQL_BYTES(r->pay.nonce, 32);
	if (r->pay.settled_earlier) {
		/* Only the record this very authorization paid for may publish now. */
		if (sql_add(&q, "SELECT COUNT(*) FROM review_publications WHERE chain_id = ? "
		    "AND digest = ? AND state IN ('settled_pending', 'reserved_unpaid') AND payer = "
		    "? AND auth_nonce = ?", SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg), payer, nonce) < 0)
			return resp_fail(w, ERR_INTERNAL, NULL, NULL);
		if (db_query_u64(r->db, &q, &n, &found) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		if (!found || n != 1)
			return resp_fail(w, ERR_PAYMENT_USED, NULL, NULL);
	} else {
		/* Bind this authorization to the record, unless another one is
		 * bound already (in flight, or with an unknown outcome). */
		if (sql_add(&q, "UPDATE review_publications SET payer = ?, auth_nonce = ?, "
		    "updated_at = UTC_TIMESTAMP(6) WHERE chain_id = ? AND digest = ? AND "
		    "state = 'reserved_unpaid' AND (payer IS NULL OR (payer = ? AND auth_nonce = "
		    "?))", payer, nonce, SQL_U64(r->cfg->chain_id), SQL_HEX(p->dg), payer, nonce) < 0)
			return resp_fail(w, ERR_INTERNAL, NULL, NULL);
		if (db_exec(r->db, &q) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		if (mysql_affected_rows(r->db->my) != 1)
			return resp_fail(w, ERR_ALREADY_REVIEWED, "review.routeId",
			    "This review's publication is held by another payment (in progress, or whose "
			    "outcome is not known yet); send the identical request with that payment's "
			    "PAYMENT-SIGNATURE instead. Nothing was charged for this one.");
	}
	r->pay.finish = finish;
	return ERR_NONE;
}
