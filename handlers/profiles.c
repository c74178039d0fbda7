/*
 * profiles.c: wallet profiles (docs/ARCHITECTURE.md, Wallet profiles):
 * create (idempotent per controller) and the controller's read. Both rows
 * are AUTH_SIWX: the gate (fcgi/siwx_gate.c) verified and consumed the
 * caller's proof, and r->siwx names the wallet that signed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "db.h"
#include "profiles.h"
#include "sql.h"
#include "table.h"
#include "timefmt.h"
#include "banned.h"

int
uuid_new(uint8_t u[16])
{
	if (getrandom(u, 16, 0) != 16)
		return -1;
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
	return 0;
}

void
uuid_text(const uint8_t u[16], char out[37])
{
	static const char hx[] = "0123456789abcdef";
	size_t k = 0;

	for (size_t i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hx[u[i] >> 4];
		out[k++] = hx[u[i] & 15];
	}
	out[k] = '\0';
}

json_object *
account_json(const uint8_t a[20])
{
	struct addr ad;
	char t[ADDR_TEXT_LEN + 1], s[64];

	memcpy(ad.b, a, 20);
	snprintf(s, sizeof(s), VALID_ACCOUNT_CHAIN ":%s", addr_format(&ad, t));
	return json_object_new_string(s);
}

json_object *
time_json(int64_t t)
{
	char s[40];

	return json_object_new_string(time_rfc3339((time_t)t, s, sizeof(s)));
}

enum db_rc
profile_load(struct db *db, const uint8_t *id, const uint8_t *controller, struct profile *p, bool *found)
{
	char buf[512];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	enum db_rc rc;

	*found = false;
	sql_add(&q, "SELECT profile_id, controller, discovery_mode, created_at FROM profiles WHERE ");
	if (id)
		sql_add(&q, "profile_id = ?", SQL_BYTES(id, 16));
	else
		sql_add(&q, "chain_id = ? AND controller = ?", SQL_U64(VALID_ACCOUNT_CHAIN_ID),
		    SQL_BYTES(controller, 20));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL &&
	    row[0] && len[0] == 16 && row[1] && len[1] == 20 && row[2] && row[3]) {
		memcpy(p->id, row[0], 16);
		memcpy(p->controller, row[1], 20);
		snprintf(p->mode, sizeof(p->mode), "%s", row[2]);
		rc = db_row_i64(row, 3, "created_at", &p->created_at);
		*found = rc == DB_OK;
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

json_object *
profile_json(struct db *db, const struct profile *p)
{
	char buf[512], id[37];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	json_object *o, *wallets;

	sql_add(&q, "SELECT link_id, wallet, role, activated_at FROM profile_wallets "
	    "WHERE profile_id = ? AND state = 'active' ORDER BY slot", SQL_BYTES(p->id, 16));
	if (db_query(db, &q, &res) != DB_OK || res == NULL) {
		if (res)
			mysql_free_result(res);
		return NULL;
	}
	o = json_object_new_object();
	wallets = json_object_new_array();
	uuid_text(p->id, id);
	json_object_object_add(o, "profileId", json_object_new_string(id));
	json_object_object_add(o, "controllerAccount", account_json(p->controller));
	json_object_object_add(o, "discoveryMode", json_object_new_string(p->mode));
	json_object_object_add(o, "createdAt", time_json(p->created_at));
	json_object_object_add(o, "walletLimit", json_object_new_int(PROFILE_WALLETS_MAX));
	while ((row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL) {
		json_object *w;
		int64_t at;

		if (!row[0] || len[0] != 16 || !row[1] || len[1] != 20 || !row[2] || !row[3])
			continue;
		if (db_row_i64(row, 3, "activated_at", &at) != DB_OK) {
			mysql_free_result(res);
			json_object_put(wallets);
			json_object_put(o);
			return NULL;
		}
		w = json_object_new_object();
		uuid_text((const uint8_t *)row[0], id);
		json_object_object_add(w, "linkId", json_object_new_string(id));
		json_object_object_add(w, "accountId", account_json((const uint8_t *)row[1]));
		json_object_object_add(w, "role", json_object_new_string(row[2]));
		json_object_object_add(w, "linkedAt", time_json(at));
		json_object_array_add(wallets, w);
	}
	mysql_free_result(res);
	json_object_object_add(o, "wallets", wallets);
	return o;
}

static enum err
answer(struct req *r, struct resp *w, int status, const struct profile *p)
{
	json_object *o = profile_json(r->db, p);
	int rc;

	if (o == NULL)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	rc = resp_json(w, status, o);
	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

/* What create's transaction did. */
enum create_outcome {
	CREATE_NEW,
	CREATE_EXISTS,        /* the controller has a profile already */
	CREATE_WALLET_TAKEN,  /* the controller is an active member of another profile */
};

struct create {
	const uint8_t *controller;
	int64_t now;
	uint8_t id[16], link[16];
	enum create_outcome out;
};

/*
 * The profile and its controller's wallet row (slot 1), in one
 * transaction: each uniqueness rule is a key and the insert learns the
 * outcome (db_txn runs it again when the server aborts it).
 */
static enum db_rc
create_body(struct db *db, void *arg)
{
	struct create *c = arg;
	char buf[1024];
	struct sql q = SQL_ON(buf);
	enum db_rc rc;

	sql_add(&q, "INSERT INTO profiles (profile_id, chain_id, controller, discovery_mode, created_at, updated_at) "
	    "VALUES (?, ?, ?, 'private', ?, ?)", SQL_BYTES(c->id, 16), SQL_U64(VALID_ACCOUNT_CHAIN_ID),
	    SQL_BYTES(c->controller, 20), SQL_I64(c->now), SQL_I64(c->now));
	if ((rc = db_exec(db, &q)) == DB_DUPLICATE) {
		c->out = CREATE_EXISTS;
		return DB_DUPLICATE;     /* nothing to keep: roll back */
	}
	if (rc != DB_OK)
		return rc;
	sql_reset(&q);
	sql_add(&q, "INSERT INTO profile_wallets (link_id, profile_id, chain_id, wallet, role, state, slot, "
	    "policy, created_at, activated_at) VALUES (?, ?, ?, ?, 'controller', 'active', 1, 'private', ?, ?)",
	    SQL_BYTES(c->link, 16), SQL_BYTES(c->id, 16), SQL_U64(VALID_ACCOUNT_CHAIN_ID),
	    SQL_BYTES(c->controller, 20), SQL_I64(c->now), SQL_I64(c->now));
	if ((rc = db_exec(db, &q)) == DB_DUPLICATE) {
		c->out = CREATE_WALLET_TAKEN;
		return DB_DUPLICATE;
	}
	if (rc == DB_OK)
		c->out = CREATE_NEW;
	return rc;
}

enum err
h_profile_create_post(struct req *r, struct resp *w)
{
	const struct value *acct = req_val(r, "controllerAccount");
	struct create c = { .controller = r->siwx.account, .now = (int64_t)time(NULL), .out = CREATE_NEW };
	struct profile p;
	bool found = false;
	enum db_rc rc;

	if (memcmp(acct->addr.b, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_SIWX_WRONG_ACCOUNT, "controllerAccount", "The sign-in proof is by %s, "
		    "but controllerAccount names another wallet: the controller signs its own profile's creation.",
		    r->siwx.caip10);
	if (uuid_new(c.id) < 0 || uuid_new(c.link) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	rc = db_txn(r->db, create_body, &c);
	if (rc == DB_DUPLICATE && c.out == CREATE_WALLET_TAKEN)
		return resp_fail(w, ERR_WALLET_ALREADY_LINKED, "controllerAccount", "This wallet is an active "
		    "wallet of another profile; revoke that link before it creates a profile of its own.");
	if (rc != DB_OK && rc != DB_DUPLICATE)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (profile_load(r->db, NULL, r->siwx.account, &p, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	return answer(r, w, rc == DB_OK ? 201 : 200, &p);
}

enum err
h_profile_get(struct req *r, struct resp *w)
{
	const struct value *id = req_val(r, "profileId");
	struct profile p;
	bool found = false;

	if (profile_load(r->db, id->uuid, NULL, &p, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	/* Only the controller reads it; to anyone else it does not exist. */
	if (!found || memcmp(p.controller, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No profile with this ID has the signing wallet "
		    "as its controller.");
	return answer(r, w, 200, &p);
}
