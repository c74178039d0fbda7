/*
 * disclosure.c: a tipper's disclosure of a private tip (docs/PROTOCOL.md,
 * Private tips): GET, POST (disclose) and DELETE (withdraw) of
 * /api/v1/<brand>s/{txHash}/disclosure. The signature is checked against
 * the indexed tipper only; a disclose keeps the note and the amount in the
 * clear beside the tip, a withdraw clears them for good: the typed data
 * carries nothing that makes a signature fresh (and a signature has more
 * than one encoding), so a withdrawal is final rather than a disclose
 * signature being remembered.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#include "addr.h"
#include "db.h"
#include "hex.h"
#include "json.h"
#include "privtips.h"
#include "table.h"
#include "timefmt.h"
#include "typed.h"
#include "walletsig.h"
#include "banned.h"

enum action { ACT_DISCLOSE, ACT_WITHDRAW };
static const char *const action_names[] = { "disclose", "withdraw" };

/* The current disclosure of t as the answer. */
static enum err
state_answer(struct req *r, struct resp *w, const struct ptip *t)
{
	char b[400], id[24], when[40], hx[67];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o;
	bool disclosed = false;
	int64_t updated = 0;
	enum err e = ERR_NONE;

	sql_add(&q, "SELECT disclosed, action, LOWER(HEX(signer)), updated_at FROM tip_disclosures "
	    "WHERE chain_id = ? AND tip_id = ?", SQL_U64(r->cfg->chain_id), SQL_U64(t->tip_id));
	if (db_query(r->db, &q, &res) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	row = res ? mysql_fetch_row(res) : NULL;
	if (row != NULL && (db_row_bool(row, 0, "disclosed", &disclosed) != DB_OK ||
	    db_row_i64(row, 3, "updated_at", &updated) != DB_OK)) {
		mysql_free_result(res);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	snprintf(id, sizeof(id), "%" PRIu64, t->tip_id);
	o = json_object_new_object();
	json_object_object_add(o, "txHash", json_object_new_string(hex_encode(t->tx, 32, hx)));
	json_object_object_add(o, "tipId", json_object_new_string(id));
	json_object_object_add(o, "disclosed", json_object_new_boolean(disclosed));
	json_object_object_add(o, "action", row ? json_object_new_string(row[1]) : NULL);
	json_object_object_add(o, "signer", row ? addr_json_new(row[2]) : NULL);
	json_object_object_add(o, "updatedAt", row ? json_object_new_string(
	    time_rfc3339((time_t)updated, when, sizeof(when))) : NULL);
	if (res)
		mysql_free_result(res);
	if (resp_json(w, 200, o) < 0)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
	json_object_put(o);
	return e;
}

static enum err
load(struct req *r, struct resp *w, struct ptip *t)
{
	enum err e = privtips_load(r, 0, req_val(r, "txHash")->b32, t);

	if (e == ERR_NOT_FOUND)
		return resp_fail(w, e, "txHash", "This transaction created no indexed private tip.");
	return e == ERR_NONE ? ERR_NONE : resp_fail(w, e, NULL, NULL);
}

enum err
h_disclosure_get(struct req *r, struct resp *w)
{
	struct ptip t;
	enum err e;

	if ((e = load(r, w, &t)) != ERR_NONE)
		return e;
	return state_answer(r, w, &t);
}

struct change {
	const struct config *cfg;
	const struct ptip *t;
	enum action act;
	const char *amount;        /* disclose: atomic USDC */
	const char *note;          /* disclose: NULL when the tip has no blob */
	int64_t now;
	bool withdrawn;            /* disclose: refused, a withdrawal came first */
};

/*
 * One statement each, atomic on the tip's one row, so racing changes (on
 * one server or on Galera nodes) cannot interleave: a disclose changes
 * nothing once a withdrawal is recorded (the assignments read the row's
 * old action, which is assigned last), a withdraw always wins and is final.
 */
static enum db_rc
change_body(struct db *d, void *arg)
{
	struct change *c = arg;
	char b[4096], act[16] = "", unused[4];
	struct sql q = SQL_ON(b);
	enum db_rc rc;

	c->withdrawn = false;
	if (c->act == ACT_WITHDRAW) {
		sql_add(&q, "INSERT INTO tip_disclosures (chain_id, tip_id, tx_hash, disclosed, action, "
		    "signer, updated_at) VALUES (?, ?, ?, 0, 'withdraw', ?, ?) ON DUPLICATE KEY UPDATE "
		    "disclosed = 0, usdc_amount = NULL, note = NULL, "
		    "signer = VALUES(signer), updated_at = VALUES(updated_at), action = 'withdraw'",
		    SQL_U64(c->cfg->chain_id), SQL_U64(c->t->tip_id), SQL_BYTES(c->t->tx, 32),
		    SQL_BYTES(c->t->tipper, 20), SQL_I64(c->now));
		return db_exec(d, &q);
	}
	sql_add(&q, "INSERT INTO tip_disclosures (chain_id, tip_id, tx_hash, disclosed, action, signer, "
	    "usdc_amount, note, updated_at) VALUES (?, ?, ?, 1, 'disclose', ?, ?, ?, ?) ON DUPLICATE KEY "
	    "UPDATE disclosed = IF(action = 'withdraw', disclosed, 1), "
	    "usdc_amount = IF(action = 'withdraw', usdc_amount, VALUES(usdc_amount)), "
	    "note = IF(action = 'withdraw', note, VALUES(note)), "
	    "signer = IF(action = 'withdraw', signer, VALUES(signer)), "
	    "updated_at = IF(action = 'withdraw', updated_at, VALUES(updated_at)), "
	    "action = IF(action = 'withdraw', action, 'disclose')",
	    SQL_U64(c->cfg->chain_id), SQL_U64(c->t->tip_id), SQL_BYTES(c->t->tx, 32),
	    SQL_BYTES(c->t->tipper, 20), SQL_DEC(c->amount), c->note ? SQL_TEXT(c->note) : SQL_NULL,
	    SQL_I64(c->now));
	if ((rc = db_exec(d, &q)) != DB_OK)
		return rc;
	sql_reset(&q);
	sql_add(&q, "SELECT action, '' FROM tip_disclosures WHERE chain_id = ? AND tip_id = ?",
	    SQL_U64(c->cfg->chain_id), SQL_U64(c->t->tip_id));
	if ((rc = db_query_pair(d, &q, act, unused, sizeof(act))) != DB_OK)
		return rc;
	c->withdrawn = strcmp(act, "withdraw") == 0;
	return DB_OK;
}

static enum err
change(struct req *r, struct resp *w, enum action act)
{
	const struct value *action = req_val(r, "action"), *sigv = req_val(r, "signature");
	struct typed_domain d = { .chain_id = r->cfg->chain_id,
		.verifying_contract = &r->cfg->tips_address };
	char msg[200], hx[67], err[160], note[PRIVTIP_NOTE_MAX + 1], amount[DECIMAL_ATOMIC_BUFSZ];
	uint8_t digest[32], *sig = NULL;
	size_t sig_len = 0;
	struct change c = { .cfg = r->cfg, .act = act, .now = (int64_t)time(NULL) };
	struct addr tipper;
	struct ptip t;
	json_object *m = NULL;
	bool has_note = false;
	enum err e;

	if (strcmp(action->text, action_names[act]) != 0)
		return resp_fail(w, ERR_INVALID_FIELD, "action", "This method's action is \"%s\".",
		    action_names[act]);
	if (addr_is_zero(&r->cfg->tips_address))
		return resp_fail(w, ERR_PRIVATE_TIPS_UNAVAILABLE, NULL,
		    "This service has no tips contract configured.");
	if ((sig = pool_alloc(&r->pool, sigv->len / 2 + 1)) == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (sigv->len < 4 || sigv->text[0] != '0' || sigv->text[1] != 'x' ||
	    hex_decode(sigv->text, sigv->len, sig, sigv->len / 2, &sig_len) < 0 || sig_len == 0)
		return resp_fail(w, ERR_INVALID_FIELD, "signature", "signature is 0x and hex.");
	if ((e = load(r, w, &t)) != ERR_NONE)
		return e;
	/* The typed data the tipper signed, and the tipper's signature on it. */
	snprintf(msg, sizeof(msg), "{\"txHash\":\"%s\",\"action\":\"%s\"}", hex_encode(t.tx, 32, hx),
	    action_names[act]);
	if (json_parse_strict(msg, strlen(msg), NULL, &m, NULL) < 0 ||
	    typed_digest(TYPED_DISCLOSURE, &d, m, digest, err, sizeof(err)) < 0) {
		json_object_put(m);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_put(m);
	memcpy(tipper.b, t.tipper, 20);
	switch (walletsig_verify(r->cfg, digest, sig, sig_len, &tipper, NULL)) {
	case WALLETSIG_VALID:
		break;
	case WALLETSIG_UNAVAILABLE:
		return resp_fail(w, ERR_SIGNATURE_UNAVAILABLE, NULL, NULL);
	default:
		return resp_fail(w, ERR_NOT_THE_TIPPER, "signature",
		    "The disclosure is not signed by the tip's indexed tipper.");
	}
	c.t = &t;
	if (act == ACT_DISCLOSE) {
		if ((e = privtips_note(r, &t, note, &has_note)) != ERR_NONE ||
		    (e = privtips_amount(r, &t, amount)) != ERR_NONE) {
			OPENSSL_cleanse(note, sizeof(note));
			return resp_fail(w, e, NULL, NULL);
		}
		c.note = has_note ? note : NULL;
		c.amount = amount;
	}
	if (db_txn(r->db, change_body, &c) != DB_OK) {
		OPENSSL_cleanse(note, sizeof(note));
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	OPENSSL_cleanse(note, sizeof(note));
	if (c.withdrawn)
		return resp_fail(w, ERR_DISCLOSURE_WITHDRAWN, NULL, NULL);
	return state_answer(r, w, &t);
}

enum err
h_disclosure_post(struct req *r, struct resp *w)
{
	return change(r, w, ACT_DISCLOSE);
}

enum err
h_disclosure_delete(struct req *r, struct resp *w)
{
	return change(r, w, ACT_WITHDRAW);
}
