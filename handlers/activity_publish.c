/*
 * activity_publish.c: POST /api/v1/x402/profiles/{profileId}/activity
 * {accountId, evidence}, SIWX by a wallet active in that profile
 * (docs/ARCHITECTURE.md, Profile activity; evidence shapes in
 * docs/PROTOCOL.md, Profile activity). The evidence is verified, then
 * stored as one normalized fact; in this order:
 *
 *   - accountId must be the signer (else 402 siwx_wrong_account), and an
 *     active wallet of the profile (else 404: a private profile's
 *     membership is not disclosed, as for the profile read);
 *   - the evidence's shape (lib/activity): 400 naming the member;
 *   - verification, 422 evidence_unverified naming the member and why:
 *       x402_receipt: offer and receipt signatures recover a key (one of
 *         65 bytes that recovers none is found by lib/activity, after
 *         every shape, and is 422, a malformed one 400); the receipt's
 *         payer is accountId; offer and receipt
 *         name the same resource URL on the configured network; the route
 *         (method + that URL) has a pinned receipt authority
 *         (handlers/authority.h) whose signer signed both and whose payTo
 *         the offer pays; issuedAt is not later than now or the offer's
 *         validUntil (5 minutes of skew); a receipt that names its
 *         transaction has it checked on the chain too (a USDC Transfer
 *         from the payer to payTo of the offer's amount);
 *       usdc_transfer, client_settlement: lib/settlement reads the one
 *         USDC Transfer log from accountId in that transaction, succeeded
 *         and confirmed;
 *       client_settlement also (docs/ARCHITECTURE.md, Profile activity):
 *         the Transfer is not to accountId itself, moves at least
 *         client_settlement_min_atomic, and when the route has a known
 *         payTo (route_pay_to) pays it;
 *     a chain that cannot answer is 503 chain_unavailable, nothing stored;
 *   - the fact is inserted by one INSERT ... SELECT that also requires the
 *     wallet still active in the profile; its activity ID is the digest of
 *     the profile and the evidence, so the same evidence again hits the
 *     key and answers 201 with the stored fact, and other evidence under
 *     the same key (a settlement attested for another route) is 409
 *     activity_conflict.
 *
 * Facts: x402_receipt gives kind used; usdc_transfer paid_settlement (no
 * route); client_settlement used with the wallet-attested route. Only the
 * submitted transaction, only USDC, only Transfer logs from the wallet are
 * ever read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "activity.h"
#include "authority.h"
#include "config.h"
#include "db.h"
#include "facts.h"
#include "hex.h"
#include "json.h"
#include "profiles.h"
#include "settlement.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

#define RECEIPT_SKEW 300          /* seconds a receipt may be ahead of a clock */

enum pub_outcome {
	PUB_NEW,
	PUB_EXISTS,                   /* the key holds a fact already */
	PUB_NOT_LINKED,               /* the wallet is no longer active in the profile */
};

/* The fact to store, and what its insert did. */
struct pub {
	const uint8_t *pid;
	uint8_t account[20];
	uint8_t key[32], id[32];
	const char *kind, *evidence_kind;
	bool has_route, has_asset, has_tx, has_log;
	uint8_t route[32], asset[20], tx[32];
	const char *origin, *method, *path, *network;
	const char *amount;
	uint64_t log_index;
	int64_t occurred_at, published_at;
	const char *details;
	const uint8_t *proof_digest;  /* the sign-in proof that publishes it */
	const char *signature_kind;
	enum pub_outcome out;
};

/* Is wallet an active wallet of profile pid? */
static enum db_rc
active_in(struct db *db, const uint8_t pid[16], const uint8_t wallet[20], bool *yes)
{
	char b[256];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found = false;
	enum db_rc rc;

	sql_add(&q, "SELECT COUNT(*) FROM profile_wallets WHERE profile_id = ? AND chain_id = ? AND "
	    "active_wallet = ?", SQL_BYTES(pid, 16), SQL_U64(VALID_ACCOUNT_CHAIN_ID), SQL_BYTES(wallet, 20));
	rc = db_query_u64(db, &q, &n, &found);
	*yes = n > 0;
	return rc;
}

/* The answer for a settlement that did not verify. */
static enum err
settlement_fail(struct resp *w, enum settlement_rc rc, const char *field)
{
	if (rc == SETTLEMENT_UNAVAILABLE || rc == SETTLEMENT_BAD_REPLY) {
		/* Fail closed; the operator learns why, the client only that it may retry. */
		fprintf(stderr, "waymark: activity publish: chain_unavailable (%s)\n", settlement_strerror(rc));
		return resp_fail(w, ERR_CHAIN_UNAVAILABLE, NULL, NULL);
	}
	return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, rc == SETTLEMENT_AMBIGUOUS ? "evidence.logIndex" : field,
	    "%s", settlement_strerror(rc));
}

/* The details object as JSON text kept by the request; NULL when out of memory. */
static const char *
details_text(struct req *r, json_object *d)
{
	const char *s;

	if (d == NULL || pool_defer(&r->pool, json_release, d) < 0) {
		json_object_put(d);
		return NULL;
	}
	s = json_dump(d, NULL);
	return s;
}

static json_object *
addr_str(const struct addr *a)
{
	char s[ADDR_TEXT_LEN + 1];

	return json_object_new_string(addr_format(a, s));
}

/* {payee, logIndex, blockNumber, blockHash} of a verified Transfer, into d. */
static void
settlement_details(json_object *d, const struct settlement *s)
{
	char hx[67];

	json_object_object_add(d, "payee", addr_str(&s->to));
	json_object_object_add(d, "logIndex", json_object_new_int64((int64_t)s->log_index));
	json_object_object_add(d, "blockNumber", json_object_new_int64((int64_t)s->block_number));
	json_object_object_add(d, "blockHash", json_object_new_string(hex_encode(s->block_hash, 32, hx)));
}

/* A pool copy of s; NULL when out of memory. */
static const char *
keep(struct req *r, const char *s)
{
	return pool_strndup(&r->pool, s, strlen(s));
}

/*
 * The payTo of the route rid is known from: the catalog's pin
 * (handlers/authority.h: a listing's signed offer, or its challenge), and
 * the offers of the route's contexts published by its endpoint payTo (a
 * context's publisher is its offer's payTo; only the endpoint role says
 * that wallet is paid for the route). *known: any is; *match: to is one of
 * them; *shown and *source (static): for the message, the one that
 * matches, else the catalog's, else a context's.
 */
static enum db_rc
route_pay_to(struct req *r, const uint8_t rid[32], const struct addr *to, bool *known, bool *match,
    struct addr *shown, const char **source)
{
	char b[512], rhex[65], a[80], m[80];
	struct sql q = SQL_ON(b);
	struct authority au;
	enum db_rc rc;

	*known = *match = false;
	*source = NULL;
	hex_digits(rid, 32, rhex);
	if ((rc = authority_load(r->db, r->cfg, rhex, &au)) != DB_OK)
		return rc;
	if (au.has_pay_to) {
		*known = true;
		*match = addr_eq(&au.pay_to, to);
		*shown = au.pay_to;
		*source = au.pay_to_source;
	}
	/* The matching context's payTo first, so one row answers both questions. */
	sql_add(&q, "SELECT LOWER(HEX(pay_to)), pay_to = ? FROM route_contexts WHERE chain_id = ? AND "
	    "route_id = ? AND FIND_IN_SET('endpoint', participant_roles) ORDER BY pay_to = ? DESC, publisher "
	    "LIMIT 1", SQL_BYTES(to->b, ADDR_LEN), SQL_U64(r->cfg->chain_id), SQL_BYTES(rid, 32),
	    SQL_BYTES(to->b, ADDR_LEN));
	if ((rc = db_query_pair(r->db, &q, a, m, sizeof(a))) != DB_OK)
		return rc;
	if (a[0] && (!*known || strcmp(m, "1") == 0)) {
		if (addr_from_digits(a, shown) < 0)
			return DB_ERROR;
		*source = "route_context";
	}
	*known = *known || a[0];
	*match = *match || strcmp(m, "1") == 0;
	return DB_OK;
}

/*
 * The rules a client_settlement's Transfer s must keep beyond being
 * verified (docs/ARCHITECTURE.md, Profile activity): ERR_NONE, or the
 * answer given.
 */
static enum err
client_rules(struct req *r, struct resp *w, const struct activity_evidence *e, const struct pub *p,
    const struct settlement *s)
{
	char to[ADDR_TEXT_LEN + 1], pin[ADDR_TEXT_LEN + 1];
	struct u256 least;
	struct addr shown;
	const char *source;
	bool known, match;

	if (memcmp(s->to.b, p->account, 20) == 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.transaction", "The USDC Transfer is "
		    "from accountId to itself: a transfer to oneself pays no endpoint and is no client settlement.");
	u256_from_u64(&least, r->cfg->client_settlement_min_atomic);
	if (u256_cmp(&s->value, &least) < 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.transaction", "The USDC Transfer moved "
		    "%s atomic units, less than the %" PRIu64 " a client settlement must move.", s->amount,
		    r->cfg->client_settlement_min_atomic);
	if (route_pay_to(r, e->route_id, &s->to, &known, &match, &shown, &source) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (known && !match)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.transaction", "The USDC Transfer pays %s, "
		    "but the route %s %s%s is paid to %s (%s): a client settlement must pay the route's known "
		    "payTo.", addr_format(&s->to, to), e->method, e->origin, e->path, addr_format(&shown, pin),
		    source);
	return ERR_NONE;
}

/* usdc_transfer and client_settlement: the Transfer from the wallet, on the chain. */
static enum err
verify_transfer(struct req *r, struct resp *w, const struct activity_evidence *e, struct pub *p)
{
	struct settlement_want want = { .log_index = e->log_index };
	struct settlement s;
	enum settlement_rc rc;
	enum err er;
	json_object *d;
	bool attested = e->kind == ACTIVITY_CLIENT_SETTLEMENT;

	memcpy(want.tx, e->tx, 32);
	want.token = r->cfg->usdc_address;
	memcpy(want.from.b, p->account, 20);
	if ((rc = settlement_verify(r->cfg, &want, &s)) != SETTLEMENT_OK)
		return settlement_fail(w, rc, "evidence.transaction");
	if (attested && (er = client_rules(r, w, e, p, &s)) != ERR_NONE)
		return er;
	p->kind = attested ? "used" : "paid_settlement";
	p->has_asset = p->has_tx = p->has_log = true;
	memcpy(p->asset, r->cfg->usdc_address.b, 20);
	memcpy(p->tx, e->tx, 32);
	p->log_index = s.log_index;
	p->occurred_at = (int64_t)s.block_time;
	p->amount = keep(r, s.amount);
	d = json_object_new_object();
	settlement_details(d, &s);
	if (attested) {
		p->has_route = true;
		memcpy(p->route, e->route_id, 32);
		p->origin = keep(r, e->origin);
		p->path = keep(r, e->path);
		p->method = keep(r, e->method);
		/* The route is the wallet's word, bound to a settlement we verified. */
		json_object_object_add(d, "routeBinding", json_object_new_string("wallet_attested"));
	}
	p->details = details_text(r, d);
	if (p->amount == NULL || p->details == NULL || (attested && (!p->origin || !p->path || !p->method)))
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	return ERR_NONE;
}

/* x402_receipt: the official offer and receipt of a route (see the head comment). */
static enum err
verify_receipt(struct req *r, struct resp *w, const struct activity_evidence *e, struct pub *p)
{
	const struct receipt_offer *of = &e->offer;
	const struct receipt *rc = &e->receipt;
	struct authority au;
	struct addr asset;
	char rid[65], hx[67];
	uint64_t now = (uint64_t)time(NULL);
	json_object *d, *st = NULL;
	struct settlement s;

	if (memcmp(rc->payer_addr.b, p->account, 20) != 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.payer",
		    "The receipt's payer is not accountId: only the wallet that paid publishes its receipt.");
	if (strcmp(of->resource_url, rc->resource_url) != 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.resourceUrl",
		    "The receipt's resourceUrl differs from the offer's.");
	if (strcmp(of->network, r->cfg->network) != 0 || strcmp(rc->network, r->cfg->network) != 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.network",
		    "The offer and receipt must be for network %s.", r->cfg->network);
	hex_digits(e->route_id, 32, rid);
	if (authority_load(r->db, r->cfg, rid, &au) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!authority_available(&au))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt",
		    "No official receipt authority (signer and payTo) has been observed for the route %s %s, "
		    "so this receipt cannot be verified as the endpoint's own.", e->method, rc->resource_url);
	if (!addr_eq(&of->signer, &au.signer))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.offer.signature",
		    "The offer was not signed by the route's pinned receipt signer.");
	if (!addr_eq(&rc->signer, &au.signer))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.signature",
		    "The receipt was not signed by the route's pinned receipt signer.");
	if (!addr_eq(&of->pay_to_addr, &au.pay_to))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.offer.payload.payTo",
		    "The offer's payTo is not the route's pinned payTo.");
	if (rc->issued_at > now + RECEIPT_SKEW ||
	    (of->valid_until != 0 && rc->issued_at > of->valid_until + RECEIPT_SKEW))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.issuedAt",
		    "The receipt's issuedAt must not be later than now or the offer's validUntil (5 minutes "
		    "of skew allowed).");
	if (addr_parse(of->asset, strlen(of->asset), &asset) < 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.offer.payload.asset",
		    "The offer's asset is not an address.");
	if (rc->transaction[0]) {
		/* A receipt that names its settlement: the chain must show it. */
		struct settlement_want want = { .to = &au.pay_to, .log_index = -1 };
		struct u256 v;
		enum settlement_rc sr;

		if (!addr_eq(&asset, &r->cfg->usdc_address) ||
		    u256_parse_dec(of->amount, strlen(of->amount), &v) < 0)
			return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.offer.payload.asset",
			    "A receipt that names its transaction is checked on the chain, which needs an offer "
			    "in the configured USDC.");
		want.value = &v;
		hex_decode_fixed(rc->transaction, 66, want.tx, 32, true);
		want.token = r->cfg->usdc_address;
		want.from = rc->payer_addr;
		if ((sr = settlement_verify(r->cfg, &want, &s)) != SETTLEMENT_OK)
			return settlement_fail(w, sr, "evidence.receipt.payload.transaction");
		p->has_tx = p->has_log = true;
		memcpy(p->tx, want.tx, 32);
		p->log_index = s.log_index;
		st = json_object_new_object();
		settlement_details(st, &s);
	}
	p->kind = "used";
	p->has_route = p->has_asset = true;
	memcpy(p->route, e->route_id, 32);
	memcpy(p->asset, asset.b, 20);
	p->origin = keep(r, e->origin);
	p->path = keep(r, e->path);
	p->method = keep(r, e->method);
	p->amount = keep(r, of->amount);
	p->occurred_at = rc->issued_at > 0 ? (int64_t)rc->issued_at : 1;   /* occurredAt is at least 1 */
	d = json_object_new_object();
	json_object_object_add(d, "routeBinding", json_object_new_string("service_receipt"));
	json_object_object_add(d, "receiptDigest", json_object_new_string(hex_encode(rc->digest, 32, hx)));
	json_object_object_add(d, "resourceUrl", json_object_new_string(rc->resource_url));
	json_object_object_add(d, "payTo", addr_str(&of->pay_to_addr));
	json_object_object_add(d, "serviceSigner", addr_str(&rc->signer));
	json_object_object_add(d, "authoritySource", json_object_new_string(au.signer_source ?
	    au.signer_source : "catalog_offer"));
	json_object_object_add(d, "settlement", st);
	p->details = details_text(r, d);
	if (!p->origin || !p->path || !p->method || !p->amount || !p->details)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	return ERR_NONE;
}

/*
 * The fact, inserted only while the wallet is active in the profile (the
 * SELECT gives its one membership row); the keys decide the rest.
 */
static enum db_rc
insert_body(struct db *db, void *arg)
{
	struct pub *p = arg;
	char buf[12288];
	struct sql q = SQL_ON(buf);
	enum db_rc rc;

	sql_add(&q, "INSERT INTO profile_activity (activity_id, profile_id, chain_id, account, kind, "
	    "evidence_kind, evidence_key, route_id, origin, method, path, network, asset, amount_atomic, "
	    "tx_hash, log_index, occurred_at, details, published_at, proof_digest, signature_kind) SELECT "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM profile_wallets WHERE "
	    "profile_id = ? AND chain_id = ? AND active_wallet = ?", SQL_BYTES(p->id, 32), SQL_BYTES(p->pid, 16), SQL_U64(VALID_ACCOUNT_CHAIN_ID),
	    SQL_BYTES(p->account, 20), SQL_TEXT(p->kind), SQL_TEXT(p->evidence_kind), SQL_BYTES(p->key, 32),
	    p->has_route ? SQL_BYTES(p->route, 32) : SQL_NULL, SQL_TEXT(p->origin), SQL_TEXT(p->method),
	    SQL_TEXT(p->path), SQL_TEXT(p->network), p->has_asset ? SQL_BYTES(p->asset, 20) : SQL_NULL,
	    p->amount ? SQL_DEC(p->amount) : SQL_NULL, p->has_tx ? SQL_BYTES(p->tx, 32) : SQL_NULL,
	    p->has_log ? SQL_U64(p->log_index) : SQL_NULL, SQL_I64(p->occurred_at), SQL_TEXT(p->details),
	    SQL_I64(p->published_at), SQL_BYTES(p->proof_digest, 32), SQL_TEXT(p->signature_kind),
	    SQL_BYTES(p->pid, 16), SQL_U64(VALID_ACCOUNT_CHAIN_ID),
	    SQL_BYTES(p->account, 20));
	if ((rc = db_exec(db, &q)) == DB_DUPLICATE) {
		p->out = PUB_EXISTS;
		return DB_DUPLICATE;
	}
	if (rc != DB_OK)
		return rc;
	p->out = mysql_affected_rows(db->my) == 1 ? PUB_NEW : PUB_NOT_LINKED;
	return DB_OK;
}

/* Is the stored fact p->id the same fact as p? (The evidence key fixes the rest.) */
static enum db_rc
same_fact(struct db *db, const struct pub *p, bool *same)
{
	char b[512];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found = false;
	enum db_rc rc;

	sql_add(&q, "SELECT COUNT(*) FROM profile_activity WHERE activity_id = ? AND kind = ? AND "
	    "evidence_kind = ? AND account = ? AND route_id <=> ?", SQL_BYTES(p->id, 32), SQL_TEXT(p->kind),
	    SQL_TEXT(p->evidence_kind), SQL_BYTES(p->account, 20), p->has_route ? SQL_BYTES(p->route, 32) :
	    SQL_NULL);
	rc = db_query_u64(db, &q, &n, &found);
	*same = n == 1;
	return rc;
}

enum err
h_activity_publish_post(struct req *r, struct resp *w)
{
	const struct value *pid = req_val(r, "profileId"), *acct = req_val(r, "accountId");
	const struct value *ev = req_val(r, "evidence");
	struct activity_evidence *e = pool_alloc(&r->pool, sizeof(*e));
	struct pub p = { .pid = pid->uuid, .network = r->cfg->network, .proof_digest = r->siwx.proof_digest,
		.signature_kind = r->siwx.signature_kind, .out = PUB_NEW };
	struct fact_id fid = { .src = FACT_STORED };
	char field[96], why[320];
	bool yes = false, same = true;
	json_object *o = NULL;
	enum activity_parse pr;
	enum err er;
	enum db_rc rc;
	int jr;

	if (e == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (memcmp(acct->addr.b, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_SIWX_WRONG_ACCOUNT, "accountId", "The sign-in proof is by %s, but "
		    "accountId names another wallet: a wallet publishes its own activity.", r->siwx.caip10);
	memcpy(p.account, r->siwx.account, 20);
	if (active_in(r->db, pid->uuid, p.account, &yes) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!yes)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No profile with this ID has the signing wallet as an "
		    "active wallet.");
	if ((pr = activity_evidence_parse(ev->object, e, field, sizeof(field), why, sizeof(why))) == ACTIVITY_UNVERIFIED)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, field, "Unverified %s: %s.", field, why);
	if (pr != ACTIVITY_OK)
		return resp_fail(w, pr == ACTIVITY_UNKNOWN_MEMBER ? ERR_UNKNOWN_FIELD : pr == ACTIVITY_MISSING_MEMBER ?
		    ERR_MISSING_FIELD : ERR_INVALID_FIELD, field, "Invalid %s: %s.", field, why);
	p.evidence_kind = activity_kind_names[e->kind];
	er = e->kind == ACTIVITY_X402_RECEIPT ? verify_receipt(r, w, e, &p) : verify_transfer(r, w, e, &p);
	if (er != ERR_NONE)
		return er;
	if (activity_evidence_key(e, p.network, p.log_index, p.key) < 0 || activity_id(p.pid, p.key, p.id) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	p.published_at = (int64_t)time(NULL);
	rc = db_txn(r->db, insert_body, &p);
	if (rc != DB_OK && !(rc == DB_DUPLICATE && p.out == PUB_EXISTS))
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (p.out == PUB_NOT_LINKED)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No profile with this ID has the signing wallet as an "
		    "active wallet.");
	if (p.out == PUB_EXISTS && same_fact(r->db, &p, &same) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!same)
		return resp_fail(w, ERR_ACTIVITY_CONFLICT, "evidence", "This evidence is already the fact %s of "
		    "this profile, bound to another route; facts are immutable.", hex_encode(p.id, 32, field));
	/* The answer is the fact as every read shows it (handlers/facts.h). */
	memcpy(fid.key, p.id, 32);
	if (facts_one(r->db, r->cfg, p.pid, &fid, &o) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (o == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	jr = resp_json(w, 201, o);
	json_object_put(o);
	return jr < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
