/*
 * profile_mode.c: a profile's discovery mode (docs/ARCHITECTURE.md, Wallet
 * profiles; docs/PROTOCOL.md, Discovery preview). Both rows are AUTH_SIWX
 * and answer only the controller (anyone else: 404, as for the profile).
 *
 * GET .../profiles/{profileId}/discovery/preview: what public_all would
 * publish, bound by a digest: the exact active wallet IDs and the fact
 * counts per category (facts.h), no fact itself; and the members whose
 * consent is only the private policy.
 *
 * PUT .../profiles/{profileId}/discovery {discoveryMode, previewDigest}:
 * public_all needs the digest of the current preview and every active
 * member's consent to the public policy, else 409; private needs nothing
 * more than the controller's proof. One db_txn: the profile's row locked,
 * the preview recomputed and the consent read under that lock, then the
 * mode and the row's revision written (a member's confirmation writes the
 * revision too: sql/014), so no confirmation slips in between the check
 * and the change, on one server or on a Galera cluster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "db.h"
#include "facts.h"
#include "hex.h"
#include "json.h"
#include "profiles.h"
#include "sha256.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

#define PREVIEW_VERSION 1

const char *const discovery_mode_names[] = { "private", "public_all", NULL };

enum { MODE_PRIVATE, MODE_PUBLIC_ALL };

/* A profile's preview as computed now. */
struct preview {
	struct fact_wallet w[PROFILE_WALLETS_MAX];
	size_t n;
	struct fact_counts counts;
	uint8_t digest[32];
};

static int
by_address(const void *a, const void *b)
{
	return memcmp(((const struct fact_wallet *)a)->addr, ((const struct fact_wallet *)b)->addr, 20);
}

/*
 * The digested preview: {version, profileId, controllerAccount,
 * discoveryMode: "public_all", wallets (CAIP-10, by address), factCounts}.
 */
static json_object *
preview_json(const struct profile *p, const struct preview *v)
{
	struct fact_wallet sorted[PROFILE_WALLETS_MAX];
	json_object *o = json_object_new_object(), *ws = json_object_new_array();
	char id[37];

	memcpy(sorted, v->w, v->n * sizeof(sorted[0]));
	qsort(sorted, v->n, sizeof(sorted[0]), by_address);
	uuid_text(p->id, id);
	json_object_object_add(o, "version", json_object_new_int(PREVIEW_VERSION));
	json_object_object_add(o, "profileId", json_object_new_string(id));
	json_object_object_add(o, "controllerAccount", account_json(p->controller));
	json_object_object_add(o, "discoveryMode", json_object_new_string("public_all"));
	for (size_t i = 0; i < v->n; i++)
		json_object_array_add(ws, account_json(sorted[i].addr));
	json_object_object_add(o, "wallets", ws);
	json_object_object_add(o, "factCounts", facts_counts_json(&v->counts));
	return o;
}

/* The preview of p now into *v, its digest computed. DB_ERROR when memory ran out. */
static enum db_rc
preview_build(struct db *db, const struct config *cfg, const struct profile *p, struct preview *v)
{
	json_object *o;
	struct buf b;
	enum db_rc rc;
	int okay = -1;

	if ((rc = facts_wallets(db, p->id, v->w, &v->n)) != DB_OK ||
	    (rc = facts_count(db, cfg, p->id, &v->counts)) != DB_OK)
		return rc;
	o = preview_json(p, v);
	buf_init(&b, 4096);
	if (json_canonical(o, &b) == 0)
		okay = sha256(b.p, b.len, v->digest);
	buf_release(&b);
	json_object_put(o);
	return okay == 0 ? DB_OK : DB_ERROR;
}

/* The active members whose consent is only the private policy, as CAIP-10 accounts. */
static json_object *
missing_consent(const struct preview *v)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->w[i].role, "member") == 0 && strcmp(v->w[i].policy, "public_all") != 0)
			json_object_array_add(a, account_json(v->w[i].addr));
	return a;
}

/* The profile of the path when the signer is its controller; else the 404 answered. */
static enum err
controller_profile(struct req *r, struct resp *w, struct profile *p)
{
	bool found = false;

	if (profile_load(r->db, req_val(r, "profileId")->uuid, NULL, p, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found || memcmp(p->controller, r->siwx.account, 20) != 0)
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No profile with this ID has the signing wallet "
		    "as its controller.");
	return ERR_NONE;
}

enum err
h_profile_preview_get(struct req *r, struct resp *w)
{
	struct profile p;
	struct preview v;
	json_object *o;
	char id[37], hex[67];
	enum err e;
	int rc;

	if ((e = controller_profile(r, w, &p)) != ERR_NONE)
		return e;
	if (preview_build(r->db, r->cfg, &p, &v) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	o = json_object_new_object();
	uuid_text(p.id, id);
	json_object_object_add(o, "profileId", json_object_new_string(id));
	json_object_object_add(o, "discoveryMode", json_object_new_string(p.mode));
	json_object_object_add(o, "preview", preview_json(&p, &v));
	json_object_object_add(o, "previewDigest", json_object_new_string(hex_encode(v.digest, 32, hex)));
	json_object_object_add(o, "missingConsent", missing_consent(&v));
	rc = resp_json(w, 200, o);
	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

enum err
h_profile_discovery_check(struct req *r, struct resp *w)
{
	if (req_val(r, "discoveryMode")->choice == MODE_PUBLIC_ALL && req_val(r, "previewDigest") == NULL)
		return resp_fail(w, ERR_MISSING_FIELD, "previewDigest", "discoveryMode public_all needs the "
		    "previewDigest of the current discovery preview.");
	return ERR_NONE;
}

/* What the mode change's transaction found. */
enum put_outcome {
	PUT_DONE,
	PUT_GONE,             /* the profile is not the signer's (any more) */
	PUT_STALE,            /* the preview digest is not the current one */
	PUT_CONSENT,          /* a member consented only to the private policy */
};

struct put {
	struct req *r;
	const struct profile *p;
	int mode;
	const uint8_t *digest;          /* public_all only */
	int64_t now;
	struct preview v;
	enum put_outcome out;
};

static enum db_rc
put_body(struct db *db, void *arg)
{
	struct put *c = arg;
	char buf[512];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	bool mine = false;
	enum db_rc rc;

	/* The row locked first: whatever is read below is read after any
	 * transaction that holds it (a confirmation) committed. */
	sql_add(&q, "SELECT controller FROM profiles WHERE profile_id = ? FOR UPDATE", SQL_BYTES(c->p->id, 16));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL)
		mine = row[0] && len[0] == 20 && memcmp(row[0], c->r->siwx.account, 20) == 0;
	if (res)
		mysql_free_result(res);
	if (!mine) {
		c->out = PUT_GONE;
		return DB_DUPLICATE;            /* roll back */
	}
	if (c->mode == MODE_PUBLIC_ALL) {
		if ((rc = preview_build(db, c->r->cfg, c->p, &c->v)) != DB_OK)
			return rc;
		for (size_t i = 0; i < c->v.n; i++)
			if (strcmp(c->v.w[i].role, "member") == 0 && strcmp(c->v.w[i].policy, "public_all") != 0) {
				c->out = PUT_CONSENT;
				return DB_DUPLICATE;
			}
		if (memcmp(c->v.digest, c->digest, 32) != 0) {
			c->out = PUT_STALE;
			return DB_DUPLICATE;
		}
	}
	sql_reset(&q);
	sql_add(&q, "UPDATE profiles SET discovery_mode = ?, updated_at = ?, revision = revision + 1 "
	    "WHERE profile_id = ?", SQL_TEXT(discovery_mode_names[c->mode]), SQL_I64(c->now),
	    SQL_BYTES(c->p->id, 16));
	if ((rc = db_exec(db, &q)) == DB_OK)
		c->out = PUT_DONE;
	return rc;
}

enum err
h_profile_discovery_put(struct req *r, struct resp *w)
{
	const struct value *dg = req_val(r, "previewDigest");
	struct profile p;
	struct put c = { .r = r, .p = &p, .mode = req_val(r, "discoveryMode")->choice,
		.digest = dg ? dg->b32 : NULL, .now = (int64_t)time(NULL), .out = PUT_GONE };
	json_object *o;
	struct addr ad;
	char a[ADDR_TEXT_LEN + 1];
	bool found = false;
	enum db_rc rc;
	enum err e;
	int k;

	if ((e = controller_profile(r, w, &p)) != ERR_NONE)
		return e;
	rc = db_txn(r->db, put_body, &c);
	if (rc != DB_OK && rc != DB_DUPLICATE)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	switch (c.out) {
	case PUT_DONE:
		break;
	case PUT_STALE:
		return resp_fail(w, ERR_PREVIEW_STALE, "previewDigest", NULL);
	case PUT_CONSENT: {
		/* Name a wallet, so the controller sees what to revoke and link again. */
		size_t n = 0, first = 0;

		for (size_t i = c.v.n; i-- > 0;)
			if (strcmp(c.v.w[i].role, "member") == 0 && strcmp(c.v.w[i].policy, "public_all") != 0) {
				n++;
				first = i;
			}
		memcpy(ad.b, c.v.w[first].addr, ADDR_LEN);
		addr_format(&ad, a);
		return resp_fail(w, ERR_MEMBER_CONSENT_MISSING, NULL, "%zu member wallet(s) consented only to the "
		    "private policy, linked while the profile was private (eip155:8453:%s%s; the preview lists them "
		    "as missingConsent). Revoke them, publish from a fresh preview, then link them again.", n, a,
		    n > 1 ? " and others" : "");
	}
	default:
		return resp_fail(w, ERR_NOT_FOUND, NULL, "No profile with this ID has the signing wallet "
		    "as its controller.");
	}
	if (profile_load(r->db, p.id, NULL, &p, &found) != DB_OK || !found ||
	    (o = profile_json(r->db, &p)) == NULL)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	k = resp_json(w, 200, o);
	json_object_put(o);
	return k < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
