/*
 * links.c: a profile's wallet links (docs/ARCHITECTURE.md, Wallet
 * profiles): the controller prepares a link for a member wallet (pending,
 * with an immutable intent and its digest, five minutes), the member
 * confirms it with the identical digest (active, in a free slot 2..8),
 * either of them revokes it. All rows are AUTH_SIWX: r->siwx is the
 * verified signer. The limits are keys (sql/010): a wallet active in one
 * profile, one active wallet per slot 1..8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "hex.h"
#include "json.h"
#include "profiles.h"
#include "sha256.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

#define INTENT_VERSION 1

struct link {
	uint8_t id[16], profile[16], wallet[20], digest[32];
	char role[16], state[16], policy[16];
	bool has_digest;
	int64_t created, expires, activated, ended;   /* 0 when NULL */
};

/* The link with ID id in profile pid, or (id NULL) wallet's active link there. */
static enum db_rc
link_load(struct db *db, const uint8_t pid[16], const uint8_t *id, const uint8_t *wallet, struct link *l,
    bool *found)
{
	char buf[768];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	*found = false;
	sql_add(&q, "SELECT link_id, profile_id, wallet, role, state, policy, intent_digest, created_at, "
	    "expires_at, activated_at, ended_at FROM profile_wallets WHERE profile_id = ? AND ", SQL_BYTES(pid, 16));
	if (id)
		sql_add(&q, "link_id = ?", SQL_BYTES(id, 16));
	else
		sql_add(&q, "chain_id = ? AND wallet = ? AND state = 'active'", SQL_U64(VALID_ACCOUNT_CHAIN_ID),
		    SQL_BYTES(wallet, 20));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL &&
	    row[0] && len[0] == 16 && row[1] && len[1] == 16 && row[2] && len[2] == 20 && row[3] && row[4] &&
	    row[5] && row[7]) {
		memset(l, 0, sizeof(*l));
		memcpy(l->id, row[0], 16);
		memcpy(l->profile, row[1], 16);
		memcpy(l->wallet, row[2], 20);
		snprintf(l->role, sizeof(l->role), "%s", row[3]);
		snprintf(l->state, sizeof(l->state), "%s", row[4]);
		snprintf(l->policy, sizeof(l->policy), "%s", row[5]);
		if (row[6] && len[6] == 32) {
			memcpy(l->digest, row[6], 32);
			l->has_digest = true;
		}
		if ((rc = db_row_i64(row, 7, "created_at", &l->created)) == DB_OK &&
		    (rc = db_row_i64_or(row, 8, "expires_at", 0, &l->expires)) == DB_OK &&
		    (rc = db_row_i64_or(row, 9, "activated_at", 0, &l->activated)) == DB_OK)
			rc = db_row_i64_or(row, 10, "ended_at", 0, &l->ended);
		*found = rc == DB_OK;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/*
 * The intent of a member link (docs/PROTOCOL.md, Wallet profiles): profile, controller,
 * member, chain, discovery mode and publication policy at issue, request ID
 * (the link ID), issue time and expiry. Its digest is the SHA-256 of its
 * RFC 8785 canonical JSON (docs/PROTOCOL.md, Wallet profiles).
 */
static json_object *
intent_json(const struct profile *p, const struct link *l)
{
	json_object *o = json_object_new_object();
	char id[37];

	json_object_object_add(o, "version", json_object_new_int(INTENT_VERSION));
	uuid_text(p->id, id);
	json_object_object_add(o, "profileId", json_object_new_string(id));
	json_object_object_add(o, "controllerAccount", account_json(p->controller));
	json_object_object_add(o, "memberAccount", account_json(l->wallet));
	json_object_object_add(o, "chainId", json_object_new_string(VALID_ACCOUNT_CHAIN));
	json_object_object_add(o, "discoveryMode", json_object_new_string(l->policy));
	json_object_object_add(o, "publicationPolicy", json_object_new_string(l->policy));
	uuid_text(l->id, id);
	json_object_object_add(o, "requestId", json_object_new_string(id));
	json_object_object_add(o, "issuedAt", time_json(l->created));
	json_object_object_add(o, "expiresAt", time_json(l->expires));
	return o;
}

static int
intent_digest(json_object *intent, uint8_t out[32])
{
	struct buf b;
	int rc = -1;

	buf_init(&b, 4096);
	if (json_canonical(intent, &b) == 0)
		rc = sha256(b.p, b.len, out);
	buf_release(&b);
	return rc;
}

static const char *
shown_state(const struct link *l, int64_t now)
{
	return strcmp(l->state, "pending") == 0 && now >= l->expires ? "expired" : l->state;
}

/* The link as JSON (t/schemas/wallet-link.json). */
static json_object *
link_json(const struct profile *p, const struct link *l, int64_t now)
{
	json_object *o = json_object_new_object();
	char id[37], pid[37], hex[67], url[160];
	bool member = strcmp(l->role, "member") == 0;

	uuid_text(l->id, id);
	uuid_text(p->id, pid);
	json_object_object_add(o, "linkId", json_object_new_string(id));
	json_object_object_add(o, "profileId", json_object_new_string(pid));
	json_object_object_add(o, "memberAccount", account_json(l->wallet));
	json_object_object_add(o, "role", json_object_new_string(l->role));
	json_object_object_add(o, "state", json_object_new_string(shown_state(l, now)));
	json_object_object_add(o, "intent", member ? intent_json(p, l) : NULL);
	if (member && l->has_digest) {
		hex_encode(l->digest, 32, hex);
		json_object_object_add(o, "intentDigest", json_object_new_string(hex));
	} else {
		json_object_object_add(o, "intentDigest", NULL);
	}
	snprintf(url, sizeof(url), "/api/v1/x402/profiles/%s/wallet-links/%s/confirm", pid, id);
	json_object_object_add(o, "confirmPath", member ? json_object_new_string(url) : NULL);
	json_object_object_add(o, "createdAt", time_json(l->created));
	json_object_object_add(o, "expiresAt", l->expires ? time_json(l->expires) : NULL);
	json_object_object_add(o, "activatedAt", l->activated ? time_json(l->activated) : NULL);
	json_object_object_add(o, "endedAt", l->ended ? time_json(l->ended) : NULL);
	return o;
}

static enum err
answer(struct resp *w, int status, const struct profile *p, const struct link *l)
{
	json_object *o = link_json(p, l, (int64_t)time(NULL));
	int rc = resp_json(w, status, o);

	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

/* Is wallet active in any profile? */
static enum db_rc
wallet_active(struct db *db, const uint8_t wallet[20], bool *active)
{
	char buf[256];
	struct sql q = SQL_ON(buf);
	uint64_t n = 0;
	bool found = false;
	enum db_rc rc;

	sql_add(&q, "SELECT COUNT(*) FROM profile_wallets WHERE chain_id = ? AND active_wallet = ?",
	    SQL_U64(VALID_ACCOUNT_CHAIN_ID), SQL_BYTES(wallet, 20));
	rc = db_query_u64(db, &q, &n, &found);
	*active = n > 0;
	return rc;
}

static enum db_rc
active_count(struct db *db, const uint8_t pid[16], uint64_t *n)
{
	char buf[256];
	struct sql q = SQL_ON(buf);
	bool found = false;

	sql_add(&q, "SELECT COUNT(*) FROM profile_wallets WHERE profile_id = ? AND active_slot IS NOT NULL",
	    SQL_BYTES(pid, 16));
	return db_query_u64(db, &q, n, &found);
}

/*
 * The profile of the path (404 when there is none). With controller_only,
 * a valid proof by another wallet is refused as on every SIWX row that
 * needs one wallet's signature: 402 siwx_wrong_account (the gate adds a
 * fresh challenge).
 */
static enum err
own_profile(struct req *r, struct resp *w, struct profile *p, bool controller_only)
{
	bool found = false;

	if (profile_load(r->db, req_val(r, "profileId")->uuid, NULL, p, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No profile has this ID.");
	if (controller_only && memcmp(p->controller, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_SIWX_WRONG_ACCOUNT, NULL, "The sign-in proof is by %s; only the "
		    "profile's controller prepares its wallet links.", r->siwx.caip10);
	return ERR_NONE;
}

enum err
h_link_prepare_post(struct req *r, struct resp *w)
{
	const struct value *member = req_val(r, "memberAccount");
	char buf[1024];
	struct sql q = SQL_ON(buf);
	struct profile p;
	struct link l;
	json_object *intent;
	bool active = false;
	uint64_t n = 0;
	enum db_rc rc;
	enum err e;

	if ((e = own_profile(r, w, &p, true)) != ERR_NONE)
		return e;
	if (wallet_active(r->db, member->addr.b, &active) != DB_OK || active_count(r->db, p.id, &n) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (active)
		return resp_fail(w, ERR_WALLET_ALREADY_LINKED, "memberAccount", NULL);
	if (n >= PROFILE_WALLETS_MAX)
		return resp_fail(w, ERR_PROFILE_FULL, NULL, NULL);
	memset(&l, 0, sizeof(l));
	if (uuid_new(l.id) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	memcpy(l.profile, p.id, 16);
	memcpy(l.wallet, member->addr.b, 20);
	snprintf(l.role, sizeof(l.role), "member");
	snprintf(l.state, sizeof(l.state), "pending");
	snprintf(l.policy, sizeof(l.policy), "%s", p.mode);
	l.created = (int64_t)time(NULL);
	l.expires = l.created + PROFILE_LINK_TTL_S;
	intent = intent_json(&p, &l);
	if (intent_digest(intent, l.digest) < 0) {
		json_object_put(intent);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_put(intent);
	l.has_digest = true;
	sql_add(&q, "INSERT INTO profile_wallets (link_id, profile_id, chain_id, wallet, role, state, slot, policy, "
	    "intent_digest, created_at, expires_at) VALUES (?, ?, ?, ?, 'member', 'pending', NULL, ?, ?, ?, ?)",
	    SQL_BYTES(l.id, 16), SQL_BYTES(p.id, 16), SQL_U64(VALID_ACCOUNT_CHAIN_ID), SQL_BYTES(l.wallet, 20),
	    SQL_TEXT(l.policy), SQL_BYTES(l.digest, 32), SQL_I64(l.created), SQL_I64(l.expires));
	if ((rc = db_exec(r->db, &q)) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	return answer(w, 201, &p, &l);
}

enum err
h_link_get(struct req *r, struct resp *w)
{
	struct profile p;
	struct link l;
	bool found = false;
	enum err e;

	if ((e = own_profile(r, w, &p, false)) != ERR_NONE)
		return e;
	if (link_load(r->db, p.id, req_val(r, "walletRef")->uuid, NULL, &l, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	/* The controller and the link's member read it; nobody else learns of it. */
	if (!found || (memcmp(p.controller, r->siwx.account, 20) != 0 && memcmp(l.wallet, r->siwx.account, 20) != 0))
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No wallet link with this ID is visible to the signing wallet.");
	return answer(w, 200, &p, &l);
}

/* What the confirmation's transaction did. */
enum confirm_outcome {
	CONFIRM_DONE,
	CONFIRM_GONE,        /* the link is no longer pending, or expired meanwhile */
	CONFIRM_TAKEN,       /* the member is active in a profile */
	CONFIRM_FULL,        /* no free slot */
	CONFIRM_POLICY,      /* the profile's discovery mode is no longer the intent's */
};

struct confirm {
	const struct link *l;
	int64_t now;
	enum confirm_outcome out;
};

/*
 * Activate the pending link in the lowest free slot 2..8. Each try is one
 * conditional UPDATE; a slot another request took meanwhile fails on the
 * key one_per_slot (or waits for it), and the next slot is tried, so no
 * interleaving makes a ninth active wallet.
 */
static enum db_rc
confirm_body(struct db *db, void *arg)
{
	struct confirm *c = arg;
	char buf[768];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	bool used[PROFILE_WALLETS_MAX + 1] = { false }, active = false;
	enum db_rc rc;

	/*
	 * The discovery mode is still the one the member consents to, and this
	 * transaction changes the profile's row (its revision, sql/014), as a
	 * change of the mode does: the two never interleave, on one server
	 * (the row lock) or on a Galera cluster (both write sets hold the row).
	 */
	sql_add(&q, "UPDATE profiles SET revision = revision + 1 WHERE profile_id = ? AND discovery_mode = ?",
	    SQL_BYTES(c->l->profile, 16), SQL_TEXT(c->l->policy));
	if ((rc = db_exec(db, &q)) != DB_OK)
		return rc;
	if (mysql_affected_rows(db->my) != 1) {
		c->out = CONFIRM_POLICY;
		return DB_DUPLICATE;
	}
	sql_reset(&q);
	sql_add(&q, "SELECT active_slot FROM profile_wallets WHERE profile_id = ? AND active_slot IS NOT NULL",
	    SQL_BYTES(c->l->profile, 16));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		uint64_t s;

		if (db_row_u64(row, 0, "active_slot", &s) != DB_OK) {
			mysql_free_result(res);
			return DB_ERROR;
		}
		if (s >= 1 && s <= PROFILE_WALLETS_MAX)
			used[s] = true;
	}
	if (res)
		mysql_free_result(res);
	c->out = CONFIRM_FULL;
	for (int s = 2; s <= PROFILE_WALLETS_MAX; s++) {
		if (used[s])
			continue;
		sql_reset(&q);
		sql_add(&q, "UPDATE profile_wallets SET state = 'active', slot = ?, activated_at = ? "
		    "WHERE link_id = ? AND state = 'pending' AND expires_at > ? AND intent_digest = ?",
		    SQL_U64(s), SQL_I64(c->now), SQL_BYTES(c->l->id, 16), SQL_I64(c->now),
		    SQL_BYTES(c->l->digest, 32));
		rc = db_exec(db, &q);
		if (rc == DB_OK) {
			c->out = mysql_affected_rows(db->my) == 1 ? CONFIRM_DONE : CONFIRM_GONE;
			return c->out == CONFIRM_DONE ? DB_OK : DB_DUPLICATE;
		}
		if (rc != DB_DUPLICATE)
			return rc;
		/* A key refused it: the slot was taken, or the member is active somewhere. */
		if ((rc = wallet_active(db, c->l->wallet, &active)) != DB_OK)
			return rc;
		if (active) {
			c->out = CONFIRM_TAKEN;
			return DB_DUPLICATE;
		}
	}
	return DB_DUPLICATE;   /* every slot is taken: roll back */
}

/*
 * The confirm's request binding (siwx_request): the member's proof signs
 * the intent digest it confirms as its Request ID (docs/PROTOCOL.md,
 * Wallet profiles), so a relay cannot confirm another intent with it.
 */
int
h_link_confirm_request(struct req *r, char *out, size_t cap)
{
	char hx[67];

	snprintf(out, cap, "%s", hex_encode(req_val(r, "intentDigest")->b32, 32, hx));
	return 0;
}

enum err
h_link_confirm_post(struct req *r, struct resp *w)
{
	const struct value *digest = req_val(r, "intentDigest");
	struct profile p;
	struct link l;
	struct confirm c = { .l = &l, .now = (int64_t)time(NULL), .out = CONFIRM_GONE };
	bool found = false;
	enum db_rc rc;
	enum err e;

	if ((e = own_profile(r, w, &p, false)) != ERR_NONE)
		return e;
	if (link_load(r->db, p.id, req_val(r, "linkId")->uuid, NULL, &l, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found || strcmp(l.role, "member") != 0)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No member wallet link with this ID in this profile.");
	if (memcmp(l.wallet, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_SIWX_WRONG_ACCOUNT, NULL, "The sign-in proof is by %s; only the member "
		    "wallet of this link confirms it.", r->siwx.caip10);
	if (!l.has_digest || memcmp(l.digest, digest->b32, 32) != 0)
		return resp_fail(w, ERR_LINK_INTENT_INVALID, "intentDigest", "intentDigest is not the digest of "
		    "this link's intent.");
	if (strcmp(l.state, "active") == 0)
		return answer(w, 200, &p, &l);          /* confirmed already: the same answer */
	if (strcmp(l.state, "pending") != 0 || c.now >= l.expires)
		return resp_fail(w, ERR_LINK_INTENT_INVALID, NULL, "This link is %s; ask the controller for a new "
		    "one.", shown_state(&l, c.now));
	if (strcmp(l.policy, p.mode) != 0)
		return resp_fail(w, ERR_LINK_INTENT_INVALID, NULL, "The profile's discovery mode changed since this "
		    "intent was issued; ask the controller for a new link.");
	rc = db_txn(r->db, confirm_body, &c);
	if (rc == DB_OK) {
		if (link_load(r->db, p.id, l.id, NULL, &l, &found) != DB_OK || !found)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		return answer(w, 200, &p, &l);
	}
	if (rc != DB_DUPLICATE)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	switch (c.out) {
	case CONFIRM_TAKEN:
		return resp_fail(w, ERR_WALLET_ALREADY_LINKED, NULL, NULL);
	case CONFIRM_FULL:
		return resp_fail(w, ERR_PROFILE_FULL, NULL, NULL);
	case CONFIRM_POLICY:
		return resp_fail(w, ERR_LINK_INTENT_INVALID, NULL, "The profile's discovery mode changed since this "
		    "intent was issued; ask the controller for a new link.");
	default:
		return resp_fail(w, ERR_LINK_INTENT_INVALID, NULL, "This link is no longer pending; ask the "
		    "controller for a new one.");
	}
}

enum err
h_link_revoke_delete(struct req *r, struct resp *w)
{
	const struct value *ref = req_val(r, "walletRef"), *actor = req_val(r, "actorAccount");
	char buf[512];
	struct sql q = SQL_ON(buf);
	struct profile p;
	struct link l;
	bool found = false;
	int64_t now = (int64_t)time(NULL);
	enum err e;

	if (memcmp(actor->addr.b, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_SIWX_WRONG_ACCOUNT, "actorAccount", "The sign-in proof is by %s, but "
		    "actorAccount names another wallet.", r->siwx.caip10);
	if ((e = own_profile(r, w, &p, false)) != ERR_NONE)
		return e;
	/* Only the controller or the member itself; to anyone else nothing is there. */
	if (memcmp(p.controller, r->siwx.account, 20) != 0 && memcmp(ref->addr.b, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No wallet link of this profile is visible to the "
		    "signing wallet.");
	if (memcmp(ref->addr.b, p.controller, 20) == 0)
		return resp_fail(w, ERR_CONTROLLER_ROTATION, NULL, NULL);
	if (link_load(r->db, p.id, NULL, ref->addr.b, &l, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "This wallet has no active link in this profile.");
	sql_add(&q, "UPDATE profile_wallets SET state = 'revoked', ended_at = ? WHERE link_id = ? AND state = 'active'",
	    SQL_I64(now), SQL_BYTES(l.id, 16));
	if (db_exec(r->db, &q) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (mysql_affected_rows(r->db->my) != 1)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "This wallet has no active link in this profile.");
	if (link_load(r->db, p.id, l.id, NULL, &l, &found) != DB_OK || !found)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	return answer(w, 200, &p, &l);
}

enum db_rc
links_prune(struct db *db, int64_t now, uint64_t *expired, uint64_t *pruned)
{
	char buf[512];
	struct sql q = SQL_ON(buf);
	enum db_rc rc;

	*expired = *pruned = 0;
	sql_add(&q, "UPDATE profile_wallets SET state = 'expired', ended_at = expires_at "
	    "WHERE state = 'pending' AND expires_at <= ?", SQL_I64(now));
	if ((rc = db_exec(db, &q)) != DB_OK)
		return rc;
	*expired = (uint64_t)mysql_affected_rows(db->my);
	sql_reset(&q);
	sql_add(&q, "DELETE FROM profile_wallets WHERE state = 'expired' AND expires_at <= ?",
	    SQL_I64(now - PROFILE_LINK_KEEP_S));
	if ((rc = db_exec(db, &q)) != DB_OK)
		return rc;
	*pruned = (uint64_t)mysql_affected_rows(db->my);
	return DB_OK;
}
