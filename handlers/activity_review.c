/*
 * activity_review.c: POST /api/v1/x402/profiles/{profileId}/activity/
 * {activityId}/review {reviewText, createdAt}, free, SIWX by the wallet
 * that published that client_settlement fact (docs/ARCHITECTURE.md,
 * Profile activity; the statement in docs/PROTOCOL.md, Profile activity).
 *
 * One signature binds everything: the row's request binding
 * (siwx_request) puts the digest of the review statement (profile,
 * activity, route, settlement, signer, text, createdAt; lib/activity.h)
 * into the sign-in challenge as its Request ID, so the wallet's SIWX proof
 * signs the review itself; no second, typed signature is asked. In order:
 *
 *   - before any challenge (the row's check): the review text rule
 *     (lib/review.h) and a createdAt not ahead of now (5 minutes of skew),
 *     else 400 invalid_field (reviewText: invalid or multiline; createdAt:
 *     in the future). The check has no database, and an old createdAt may
 *     be the review already attached, so the window's other end waits;
 *   - the fact: a used fact of evidence kind client_settlement of this
 *     profile, public (fact.h), else 404;
 *   - the signer is the wallet that published it, else 402
 *     siwx_wrong_account;
 *   - the proof's Request ID is the digest of this very statement, else
 *     400 review_mismatch (the body changed after signing, or the proof
 *     was made for another review). The gate compares it first (the row's
 *     siwx_mismatch, fcgi/siwx_gate.c); this check also covers a fact
 *     published after the gate found none and bound nothing;
 *   - the same digest already attached is 200 with it, an idempotent
 *     repeat however long after (before the window);
 *   - createdAt older than 24 hours: 400 invalid_field createdAt (stale);
 *   - one INSERT ... SELECT that also requires the fact still public; the
 *     keys of activity_reviews decide: the same digest attached meanwhile
 *     is 200 with it, any other review on this activity, or by this wallet
 *     on this route, is 409 already_reviewed; else 201.
 *
 * Attached reviews are immutable, shown in discovery in their own lane
 * (client_settlement) and never ranked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "activity.h"
#include "buf.h"
#include "config.h"
#include "db.h"
#include "hex.h"
#include "json.h"
#include "profiles.h"
#include "review.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

/* What a review needs of the stored fact it is attached to. */
struct fact {
	uint8_t id[32], profile[16], account[20];
	bool has_route, has_tx, has_log;
	uint8_t route[32], tx[32];
	char kind[24], evidence_kind[72], network[40];
	uint64_t log_index;
	bool is_public;               /* public_all, and its wallet still active in the profile */
};

/* The stored fact activity_id of profile pid, with its publicity (docs/ARCHITECTURE.md, Profile activity). */
static enum db_rc
fact_load(struct db *db, const uint8_t pid[16], const uint8_t activity_id[32], struct fact *f, bool *found)
{
	char buf[1024];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	*found = false;
	sql_add(&q, "SELECT a.activity_id, a.profile_id, a.account, a.kind, a.evidence_kind, a.route_id, "
	    "a.network, a.tx_hash, a.log_index, (p.discovery_mode = 'public_all' AND EXISTS (SELECT 1 FROM "
	    "profile_wallets w WHERE w.profile_id = a.profile_id AND w.chain_id = a.chain_id AND "
	    "w.active_wallet = a.account)) FROM profile_activity a JOIN profiles p ON p.profile_id = "
	    "a.profile_id WHERE a.activity_id = ? AND a.profile_id = ?", SQL_BYTES(activity_id, 32),
	    SQL_BYTES(pid, 16));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL &&
	    row[0] && len[0] == 32 && row[1] && len[1] == 16 && row[2] && len[2] == 20 && row[3] && row[4] &&
	    row[9]) {
		memset(f, 0, sizeof(*f));
		memcpy(f->id, row[0], 32);
		memcpy(f->profile, row[1], 16);
		memcpy(f->account, row[2], 20);
		snprintf(f->kind, sizeof(f->kind), "%s", row[3]);
		snprintf(f->evidence_kind, sizeof(f->evidence_kind), "%s", row[4]);
		if ((f->has_route = row[5] && len[5] == 32))
			memcpy(f->route, row[5], 32);
		snprintf(f->network, sizeof(f->network), "%s", row[6] ? row[6] : "");
		if ((f->has_tx = row[7] && len[7] == 32))
			memcpy(f->tx, row[7], 32);
		if ((f->has_log = row[8] != NULL))
			rc = db_row_u64(row, 8, "log_index", &f->log_index);
		if (rc == DB_OK)
			rc = db_row_bool(row, 9, "is_public", &f->is_public);
		*found = rc == DB_OK;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/* Can f take an activity review? */
static bool
reviewable(const struct fact *f)
{
	return f->is_public && strcmp(f->kind, "used") == 0 &&
	    strcmp(f->evidence_kind, "client_settlement") == 0 && f->has_route && f->has_tx && f->has_log &&
	    f->network[0] != '\0';
}

/* The review statement of f by its publisher with this text and time, and its digest. */
static json_object *
statement_of(const struct fact *f, const char *text, size_t text_len, uint64_t created_at, uint8_t digest[32])
{
	struct activity_review_in in;
	char pid[37], reviewer[64];
	json_object *acct = account_json(f->account);

	if (acct == NULL)
		return NULL;
	snprintf(reviewer, sizeof(reviewer), "%s", json_object_get_string(acct));
	json_object_put(acct);
	uuid_text(f->profile, pid);
	in = (struct activity_review_in){ .profile_id = pid, .activity_id = f->id, .route_id = f->route,
		.network = f->network, .tx = f->tx, .log_index = f->log_index, .reviewer = reviewer,
		.text = text, .text_len = text_len, .created_at = created_at };
	return activity_review_statement(&in, digest);
}

enum err
h_activity_review_check(struct req *r, struct resp *w)
{
	const struct value *t = req_val(r, "reviewText"), *c = req_val(r, "createdAt");
	char why[256];

	if (review_text_check(t->text, t->len, why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "reviewText", "Invalid reviewText: %s.", why);
	/*
	 * Only the future end of the window here: a review attached once was
	 * never ahead of its publication, so none is ahead of now; the past end
	 * is the handler's, after it has looked for the identical review.
	 */
	if (c->u > (uint64_t)time(NULL) + REVIEW_SKEW)
		return resp_fail(w, ERR_INVALID_FIELD, "createdAt", "Invalid createdAt: createdAt is in "
		    "the future.");
	return ERR_NONE;
}

int
h_activity_review_request(struct req *r, char *out, size_t cap)
{
	const struct value *pid = req_val(r, "profileId"), *aid = req_val(r, "activityId");
	const struct value *t = req_val(r, "reviewText"), *c = req_val(r, "createdAt");
	struct fact f;
	bool found = false;
	uint8_t digest[32];
	json_object *st;
	char hx[67];

	out[0] = '\0';
	if (fact_load(r->db, pid->uuid, aid->b32, &f, &found) != DB_OK)
		return -1;
	/* No such reviewable fact: no binding; the handler answers 404 after the proof. */
	if (!found || !reviewable(&f))
		return 0;
	if ((st = statement_of(&f, t->text, t->len, c->u, digest)) == NULL)
		return -1;
	json_object_put(st);
	snprintf(out, cap, "%s", hex_encode(digest, 32, hx));
	return 0;
}

/* The attached review of an activity. */
struct attached {
	uint8_t digest[32];
	int64_t published_at;
};

static enum db_rc
attached_load(struct db *db, const uint8_t aid[32], struct attached *a, bool *found)
{
	char b[256];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	*found = false;
	sql_add(&q, "SELECT digest, published_at FROM activity_reviews WHERE activity_id = ?", SQL_BYTES(aid, 32));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL &&
	    row[0] && len[0] == 32 && row[1]) {
		memcpy(a->digest, row[0], 32);
		rc = db_row_i64(row, 1, "published_at", &a->published_at);
		*found = rc == DB_OK;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

enum review_outcome {
	REVIEW_NEW,
	REVIEW_TAKEN,                 /* a key holds a review already */
	REVIEW_GONE,                  /* the fact is no longer public */
};

struct attach {
	const struct fact *f;
	const char *text;
	size_t text_len;
	uint64_t created_at;
	uint8_t digest[32];
	const char *statement;        /* its canonical JSON, what was signed */
	const uint8_t *proof_digest;
	const char *signature_kind;
	int64_t now;
	enum review_outcome out;
};

/* The review, inserted only while its fact is public (the SELECT finds it so). */
static enum db_rc
attach_body(struct db *db, void *arg)
{
	struct attach *a = arg;
	const struct fact *f = a->f;
	char buf[12288];
	struct sql q = SQL_ON(buf);
	enum db_rc rc;

	sql_add(&q, "INSERT INTO activity_reviews (activity_id, profile_id, chain_id, route_id, reviewer, "
	    "tx_hash, review_text, created_at, digest, published_at, statement_json, proof_digest, "
	    "signature_kind) SELECT a.activity_id, a.profile_id, a.chain_id, a.route_id, a.account, a.tx_hash, "
	    "?, ?, ?, ?, ?, ?, ? FROM profile_activity a JOIN profiles p ON p.profile_id = a.profile_id JOIN "
	    "profile_wallets w ON w.profile_id = a.profile_id AND w.chain_id = a.chain_id AND "
	    "w.active_wallet = a.account WHERE a.activity_id = ? AND a.profile_id = ? AND a.kind = 'used' AND "
	    "a.evidence_kind = 'client_settlement' AND p.discovery_mode = 'public_all'",
	    SQL_TEXTN(a->text, a->text_len), SQL_U64(a->created_at), SQL_BYTES(a->digest, 32), SQL_I64(a->now),
	    SQL_TEXT(a->statement), SQL_BYTES(a->proof_digest, 32), SQL_TEXT(a->signature_kind),
	    SQL_BYTES(f->id, 32), SQL_BYTES(f->profile, 16));
	if ((rc = db_exec(db, &q)) == DB_DUPLICATE) {
		a->out = REVIEW_TAKEN;
		return DB_DUPLICATE;
	}
	if (rc != DB_OK)
		return rc;
	a->out = mysql_affected_rows(db->my) == 1 ? REVIEW_NEW : REVIEW_GONE;
	return DB_OK;
}

/* The attached review as JSON (t/schemas/activity-review.json). */
static enum err
answer(struct req *r, struct resp *w, int status, const struct fact *f, json_object *st, const uint8_t dg[32],
    int64_t published_at)
{
	json_object *o = json_object_new_object(), *v = NULL;
	char hx[67], pid[37], src[CONFIG_STR_MAX + 160];
	int rc;

	uuid_text(f->profile, pid);
	snprintf(src, sizeof(src), "%s/api/site/x402/profiles/%s/activity/%s", r->cfg->public_base_url, pid,
	    hex_encode(f->id, 32, hx));
	json_object_object_add(o, "version", json_object_new_string(ACTIVITY_REVIEW_VERSION));
	json_object_object_add(o, "evidenceKind", json_object_new_string("client_settlement"));
	json_object_object_add(o, "profileId", json_object_new_string(pid));
	json_object_object_add(o, "activityId", json_object_new_string(hex_encode(f->id, 32, hx)));
	json_object_object_add(o, "routeId", json_object_new_string(hex_encode(f->route, 32, hx)));
	json_object_object_add(o, "reviewer", account_json(f->account));
	json_object_object_get_ex(st, "reviewText", &v);
	json_object_object_add(o, "reviewText", json_object_get(v));
	v = NULL;
	json_object_object_get_ex(st, "createdAt", &v);
	json_object_object_add(o, "createdAt", json_object_get(v));
	json_object_object_add(o, "publishedAt", time_json(published_at));
	json_object_object_add(o, "reviewDigest", json_object_new_string(hex_encode(dg, 32, hx)));
	json_object_object_add(o, "statement", json_object_get(st));
	json_object_object_add(o, "rankingEligible", json_object_new_boolean(0));
	json_object_object_add(o, "sourceUrl", json_object_new_string(src));
	rc = resp_json(w, status, o);
	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

enum err
h_activity_review_post(struct req *r, struct resp *w)
{
	const struct value *pid = req_val(r, "profileId"), *aid = req_val(r, "activityId");
	const struct value *t = req_val(r, "reviewText"), *c = req_val(r, "createdAt");
	struct fact f;
	struct attach a = { .f = &f, .text = t->text, .text_len = t->len, .created_at = c->u,
		.proof_digest = r->siwx.proof_digest, .signature_kind = r->siwx.signature_kind,
		.now = (int64_t)time(NULL), .out = REVIEW_NEW };
	struct buf canon;
	struct attached old;
	bool found = false;
	char hx[67], why[256];
	json_object *st;
	enum db_rc rc;

	if (fact_load(r->db, pid->uuid, aid->b32, &f, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found || !reviewable(&f))
		return resp_fail(w, ERR_NOT_FOUND, NULL, "This profile has no public client_settlement activity "
		    "with this ID.");
	if (memcmp(f.account, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_SIWX_WRONG_ACCOUNT, NULL, "The sign-in proof is by %s; only the wallet "
		    "that published this activity reviews it.", r->siwx.caip10);
	if ((st = statement_of(&f, t->text, t->len, c->u, a.digest)) == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (pool_defer(&r->pool, json_release, st) < 0) {
		json_object_put(st);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	hex_encode(a.digest, 32, hx);
	if (r->siwx.request_id == NULL || strcmp(r->siwx.request_id, hx) != 0)
		return resp_fail(w, ERR_REVIEW_MISMATCH, NULL, "The sign-in proof's Request ID must be %s, the "
		    "digest of this review's statement; sign the fresh challenge for this very review.", hx);
	buf_init(&canon, 16 * 1024);
	if (json_canonical(st, &canon) < 0 || (a.statement = pool_strndup(&r->pool, canon.p, canon.len)) == NULL) {
		buf_release(&canon);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	buf_release(&canon);
	/* The identical review attached already: the idempotent 200, whenever it is repeated. */
	if (attached_load(r->db, f.id, &old, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (found && memcmp(old.digest, a.digest, 32) == 0)
		return answer(r, w, 200, &f, st, a.digest, old.published_at);
	if (review_window_check(c->u, (time_t)a.now, why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "createdAt", "Invalid createdAt: %s.", why);
	rc = db_txn(r->db, attach_body, &a);
	if (rc != DB_OK && !(rc == DB_DUPLICATE && a.out == REVIEW_TAKEN))
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (a.out == REVIEW_GONE)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "This profile has no public client_settlement activity "
		    "with this ID.");
	if (a.out == REVIEW_NEW)
		return answer(r, w, 201, &f, st, a.digest, a.now);
	if (attached_load(r->db, f.id, &old, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (found && memcmp(old.digest, a.digest, 32) == 0)
		return answer(r, w, 200, &f, st, a.digest, old.published_at);
	return resp_fail(w, ERR_ALREADY_REVIEWED, NULL, found ? "This activity already has a different review; "
	    "reviews are immutable." : "This wallet already reviewed this route through another activity; "
	    "one review per wallet and route.");
}
