/*
 * privtips.c: private tips (docs/PROTOCOL.md, Private tips): blob upload,
 * recipient-safe pending previews, unlock challenges and the unlock, free
 * for the tipper and the recipient (signed) and $1 over x402 to the
 * tipper for anyone else. Nothing here writes a private amount or note
 * anywhere but the answer of an authorized unlock.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/crypto.h>

#include "addr.h"
#include "brand.h"
#include "config.h"
#include "db.h"
#include "ethcall.h"
#include "hex.h"
#include "json.h"
#include "privtip.h"
#include "privtips.h"
#include "review.h"
#include "rpc.h"
#include "seal.h"
#include "table.h"
#include "typed.h"
#include "u256.h"
#include "walletsig.h"
#include "banned.h"

#define CHALLENGE_TTL 300               /* seconds an unlock nonce lives */
#define BLOB_UNUSED_TTL (7 * 86400)     /* an unused blob is kept a week */
#define PENDING_MAX 100
#define TRANSFER_TOPIC "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

static bool
hex_col(const char *s, uint8_t *out, size_t n)
{
	return s && strlen(s) == 2 * n && hex_decode_fixed(s, 2 * n, out, n, false) == 0;
}

static enum err
answer(struct resp *w, int status, json_object *o)
{
	enum err e = ERR_NONE;

	if (o == NULL || resp_json(w, status, o) < 0)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
	json_object_put(o);
	return e;
}

static json_object *
hex_json(const uint8_t *b, size_t n)
{
	char t[2 * 32 + 3];

	return json_object_new_string(hex_encode(b, n, t));
}

static json_object *
addr_json(const uint8_t a[20])
{
	struct addr x;
	char t[ADDR_TEXT_LEN + 1];

	memcpy(x.b, a, 20);
	return json_object_new_string(addr_format(&x, t));
}

/* ------------------------------------------------------------------ the tip */

enum err
privtips_load(struct req *r, uint64_t tip_id, const uint8_t *by_tx, struct ptip *out)
{
	char b[900];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum err e = ERR_NOT_FOUND;

	memset(out, 0, sizeof(*out));
	sql_add(&q, "SELECT tip_id, kind, handle, IFNULL(agent_id, ''), LOWER(HEX(tipper)), "
	    "LOWER(HEX(handle_hash)), LOWER(HEX(private_commitment)), LOWER(HEX(tx_hash)), log_index, "
	    "status FROM tips WHERE chain_id = ? AND is_private = 1 AND ", SQL_U64(r->cfg->chain_id));
	if (by_tx)
		sql_add(&q, "tx_hash = ? ORDER BY log_index LIMIT 1", SQL_BYTES(by_tx, 32));
	else
		sql_add(&q, "tip_id = ?", SQL_U64(tip_id));
	if (db_query(r->db, &q, &res) != DB_OK)
		return ERR_DATABASE_UNAVAILABLE;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		out->agent = strcmp(row[1], "agent") == 0;
		snprintf(out->handle, sizeof(out->handle), "%s", row[2]);
		e = db_row_u64(row, 0, "tip_id", &out->tip_id) == DB_OK &&
		    db_row_text(row, 3, "agent_id", out->agent_id, sizeof(out->agent_id)) == DB_OK &&
		    db_row_u64(row, 8, "log_index", &out->log_index) == DB_OK &&
		    db_row_text(row, 9, "status", out->status, sizeof(out->status)) == DB_OK &&
		    hex_col(row[4], out->tipper, 20) && hex_col(row[5], out->handle_hash, 32) &&
		    hex_col(row[6], out->commitment, 32) && hex_col(row[7], out->tx, 32) ?
		    ERR_NONE : ERR_INTERNAL;
	}
	if (res)
		mysql_free_result(res);
	return e;
}

enum err
privtips_note(struct req *r, const struct ptip *t, char *note, bool *found)
{
	char b[300], iv_hex[2 * SEAL_IV + 1], *sealed_hex = NULL;
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	uint8_t iv[SEAL_IV], sealed[PRIVTIP_SALT + PRIVTIP_NOTE_MAX + SEAL_TAG],
	    plain[PRIVTIP_SALT + PRIVTIP_NOTE_MAX];
	size_t n = 0;
	enum err e = ERR_NONE;

	*found = false;
	note[0] = '\0';
	if (r->cfg->private_tip_key[0] == '\0')
		return ERR_PRIVATE_TIPS_UNAVAILABLE;
	/* A blob is the earliest indexed tip's that carries its commitment: a later tip that
	 * copied the commitment from the chain gets no note (docs/PROTOCOL.md, Private tips). */
	sql_add(&q, "SELECT LOWER(HEX(b.iv)), LOWER(HEX(b.sealed)) FROM private_tip_blobs b WHERE "
	    "b.commitment = ? AND NOT EXISTS (SELECT 1 FROM tips t WHERE t.chain_id = ? AND "
	    "t.private_commitment = b.commitment AND t.tip_id < ?)", SQL_BYTES(t->commitment, 32),
	    SQL_U64(r->cfg->chain_id), SQL_U64(t->tip_id));
	if (db_query(r->db, &q, &res) != DB_OK)
		return ERR_DATABASE_UNAVAILABLE;
	if (res == NULL || (row = mysql_fetch_row(res)) == NULL)
		goto out;
	snprintf(iv_hex, sizeof(iv_hex), "%s", row[0] ? row[0] : "");
	sealed_hex = row[1];
	if (!hex_col(iv_hex, iv, SEAL_IV) || sealed_hex == NULL ||
	    (n = strlen(sealed_hex) / 2) < PRIVTIP_SALT + 1 + SEAL_TAG || n > sizeof(sealed) ||
	    !hex_col(sealed_hex, sealed, n) ||
	    seal_open(r->cfg->private_tip_key, t->commitment, 32, iv, sealed, n, plain,
	    sizeof(plain)) < 0) {
		e = ERR_INTERNAL;
		goto out;
	}
	n -= SEAL_TAG;
	memcpy(note, plain + PRIVTIP_SALT, n - PRIVTIP_SALT);
	note[n - PRIVTIP_SALT] = '\0';
	*found = true;
out:
	OPENSSL_cleanse(plain, sizeof(plain));
	if (res)
		mysql_free_result(res);
	return e;
}

/* topics[i] of a log as a string, or NULL. */
static const char *
topic(json_object *l, size_t i)
{
	json_object *t, *v;

	if (!json_object_object_get_ex(l, "topics", &t) || !json_object_is_type(t, json_type_array) ||
	    i >= json_object_array_length(t))
		return NULL;
	v = json_object_array_get_idx(t, i);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* The log of logs with logIndex idx, or NULL. */
static json_object *
log_at(json_object *logs, uint64_t idx)
{
	for (size_t i = 0; i < json_object_array_length(logs); i++) {
		json_object *l = json_object_array_get_idx(logs, i);
		const char *li = json_member_string(l, "logIndex", NULL);
		uint64_t n;

		if (li && rpc_hex_u64(li, &n) == 0 && n == idx)
			return l;
	}
	return NULL;
}

/* "0x" + 24 zero digits + the 40 of a (a topic holding an address) into out[67]. */
static char *
addr_topic(const uint8_t a[20], char out[67])
{
	memcpy(out, "0x000000000000000000000000", 26);
	hex_digits(a, 20, out + 26);
	return out;
}

enum err
privtips_amount(struct req *r, const struct ptip *t, char amount[DECIMAL_ATOMIC_BUFSZ])
{
	const struct config *cfg = r->cfg;
	struct rpc *node = rpc_shared(cfg->rpc_url, (long)cfg->rpc_timeout_ms, cfg->tls_ca_file);
	char params[80], tx[67], addr[43], from[67], id[67], dec[U256_DEC_MAX + 1];
	json_object *res = NULL, *logs, *tip, *pull;
	const char *a, *data, *t0, *t1, *t3;
	struct u256 v, tip_id;
	uint8_t word[32];
	enum err e = ERR_INTERNAL;

	if (node == NULL)
		return ERR_CHAIN_UNAVAILABLE;
	snprintf(params, sizeof(params), "[\"%s\"]", hex_encode(t->tx, 32, tx));
	if (rpc_call(node, "eth_getTransactionReceipt", params, &res) != RPC_OK)
		return ERR_CHAIN_UNAVAILABLE;
	/* No receipt (not found, or reorged away): the chain cannot say now. */
	if (res == NULL || !json_object_object_get_ex(res, "logs", &logs) ||
	    !json_object_is_type(logs, json_type_array)) {
		e = ERR_CHAIN_UNAVAILABLE;
		goto out;
	}
	/*
	 * The tip's own event (the tips contract, topic1 its tipId), and right
	 * before it the USDC Transfer from the tipper that moved the amount:
	 * the tips contract pulls the USDC just before it emits the event.
	 */
	u256_from_u64(&tip_id, t->tip_id);
	u256_to_be(&tip_id, word);
	hex_encode(word, 32, id);
	if (t->log_index == 0 || (tip = log_at(logs, t->log_index)) == NULL ||
	    (pull = log_at(logs, t->log_index - 1)) == NULL)
		goto out;
	a = json_member_string(tip, "address", NULL);
	t1 = topic(tip, 1);
	if (a == NULL || strcasecmp(a, hex_encode(cfg->tips_address.b, 20, addr)) != 0 || t1 == NULL ||
	    strcasecmp(t1, id) != 0)
		goto out;
	a = json_member_string(pull, "address", NULL);
	t0 = topic(pull, 0);
	t1 = topic(pull, 1);
	t3 = topic(pull, 3);
	data = json_member_string(pull, "data", NULL);
	if (a == NULL || strcasecmp(a, hex_encode(cfg->usdc_address.b, 20, addr)) != 0 || t0 == NULL ||
	    strcasecmp(t0, TRANSFER_TOPIC) != 0 || t1 == NULL ||
	    strcasecmp(t1, addr_topic(t->tipper, from)) != 0 || t3 != NULL || topic(pull, 2) == NULL ||
	    data == NULL || strlen(data) != 66 || u256_parse_hex(data, 66, &v) < 0)
		goto out;
	snprintf(amount, DECIMAL_ATOMIC_BUFSZ, "%s", u256_format_dec(&v, dec));
	e = ERR_NONE;
out:
	json_object_put(res);
	return e;
}

enum db_rc
privtips_prune(struct db *d, const struct config *cfg, int64_t now, uint64_t *blobs, uint64_t *nonces)
{
	char b[600];
	struct sql q = SQL_ON(b);
	enum db_rc rc;

	*blobs = *nonces = 0;
	sql_add(&q, "DELETE FROM private_tip_blobs WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM "
	    "tips t WHERE t.chain_id = ? AND t.private_commitment = private_tip_blobs.commitment)",
	    SQL_I64(now - BLOB_UNUSED_TTL), SQL_U64(cfg->chain_id));
	if ((rc = db_exec(d, &q)) != DB_OK)
		return rc;
	*blobs = (uint64_t)mysql_affected_rows(d->my);
	sql_reset(&q);
	sql_add(&q, "DELETE FROM private_tip_nonces WHERE expires_at < ?", SQL_I64(now - 86400));
	if ((rc = db_exec(d, &q)) != DB_OK)
		return rc;
	*nonces = (uint64_t)mysql_affected_rows(d->my);
	return DB_OK;
}

/* ------------------------------------------------------------------ blobs */

enum err
h_private_blob_post(struct req *r, struct resp *w)
{
	const struct value *c = req_val(r, "privateCommitment"), *note = req_val(r, "note"),
	    *salt = req_val(r, "salt");
	uint8_t plain[PRIVTIP_SALT + PRIVTIP_NOTE_MAX], sealed[sizeof(plain) + SEAL_TAG], iv[SEAL_IV];
	char b[3 * sizeof(sealed) + 400], why[200], stored[PRIVTIP_NOTE_MAX + 1];
	struct sql q = SQL_ON(b);
	struct ptip probe;
	json_object *o;
	enum db_rc rc;
	enum err e;
	bool found = false;
	int status = 201;

	if (r->cfg->private_tip_key[0] == '\0')
		return resp_fail(w, ERR_PRIVATE_TIPS_UNAVAILABLE, NULL,
		    "This service has no private_tip_key, so it cannot keep private-tip notes.");
	if (note->len > PRIVTIP_NOTE_MAX || review_text_check(note->text, note->len, why,
	    sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "note", "note: %s.", note->len > PRIVTIP_NOTE_MAX ?
		    "at most 1000 UTF-8 bytes" : why);
	if (!privtip_commitment_ok(c->b32, salt->b32, note->text, note->len))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "privateCommitment",
		    "privateCommitment is not keccak256(salt || note).");
	memcpy(plain, salt->b32, PRIVTIP_SALT);
	memcpy(plain + PRIVTIP_SALT, note->text, note->len);
	if (seal_seal(r->cfg->private_tip_key, c->b32, 32, plain, PRIVTIP_SALT + note->len, iv, sealed,
	    sizeof(sealed)) < 0) {
		OPENSSL_cleanse(plain, sizeof(plain));
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	OPENSSL_cleanse(plain, sizeof(plain));
	sql_add(&q, "INSERT INTO private_tip_blobs (commitment, iv, sealed, created_at) VALUES "
	    "(?, ?, ?, ?)", SQL_BYTES(c->b32, 32), SQL_BYTES(iv, SEAL_IV),
	    SQL_BYTES(sealed, PRIVTIP_SALT + note->len + SEAL_TAG), SQL_I64((int64_t)time(NULL)));
	rc = db_exec(r->db, &q);
	if (rc == DB_DUPLICATE) {
		/* The first upload won: the same blob again is fine, another is a conflict. */
		memset(&probe, 0, sizeof(probe));   /* tip 0: the blob whichever tip carries it */
		memcpy(probe.commitment, c->b32, 32);
		if ((e = privtips_note(r, &probe, stored, &found)) != ERR_NONE)
			return resp_fail(w, e, NULL, NULL);
		if (!found || strlen(stored) != note->len || memcmp(stored, note->text, note->len) != 0) {
			OPENSSL_cleanse(stored, sizeof(stored));
			return resp_fail(w, ERR_BLOB_CONFLICT, "privateCommitment", NULL);
		}
		OPENSSL_cleanse(stored, sizeof(stored));
		status = 200;
	} else if (rc != DB_OK) {
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	o = json_object_new_object();
	json_object_object_add(o, "privateCommitment", hex_json(c->b32, 32));
	json_object_object_add(o, "stored", json_object_new_boolean(1));
	return answer(w, status, o);
}

/* ------------------------------------------------------------------ pending */

enum err
h_private_pending_get(struct req *r, struct resp *w)
{
	const struct value *h = req_val(r, "handle");
	char b[700], url[CONFIG_STR_MAX + 64];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *list;
	uint8_t tipper[20], tx[32];

	sql_add(&q, "SELECT tip_id, handle, LOWER(HEX(tipper)), status, block_time, LOWER(HEX(tx_hash)) "
	    "FROM tips WHERE chain_id = ? AND handle_hash = ? AND is_private = 1 AND "
	    "status <> 'refunded' ORDER BY tip_id DESC LIMIT ?", SQL_U64(r->cfg->chain_id),
	    SQL_BYTES(h->hash, 32), SQL_U64(PENDING_MAX));
	if (db_query(r->db, &q, &res) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	list = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *p = json_object_new_object();

		if (!hex_col(row[2], tipper, 20) || !hex_col(row[5], tx, 32)) {
			json_object_put(p);
			continue;
		}
		json_object_object_add(p, "tipId", json_object_new_string(row[0]));
		json_object_object_add(p, "displayHandle", json_object_new_string(row[1]));
		json_object_object_add(p, "tipper", addr_json(tipper));
		json_object_object_add(p, "status", json_object_new_string(row[3]));
		json_object_object_add(p, "createdAt", json_object_new_string(row[4]));
		json_object_object_add(p, "txHash", hex_json(tx, 32));
		snprintf(url, sizeof(url), "%s/tips/%s", r->cfg->public_base_url, row[0]);
		json_object_object_add(p, "unlockUrl", json_object_new_string(url));
		json_object_array_add(list, p);
	}
	if (res)
		mysql_free_result(res);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(PRIVTIPS_VERSION));
	json_object_object_add(o, "handle", json_object_new_string(h->text));
	json_object_object_add(o, "count", json_object_new_int64((int64_t)json_object_array_length(list)));
	json_object_object_add(o, "pending", list);
	return answer(w, 200, o);
}

/* ------------------------------------------------------------------ the unlock challenge */

static struct typed_domain
unlock_domain(const struct config *cfg)
{
	return (struct typed_domain){ .chain_id = cfg->chain_id,
		.verifying_contract = &cfg->tips_address };
}

enum err
h_private_challenge_post(struct req *r, struct resp *w)
{
	uint64_t tip_id = req_val(r, "tipId")->u;
	struct typed_domain d = unlock_domain(r->cfg);
	char b[400], err[160];
	struct sql q = SQL_ON(b);
	uint8_t nonce[32];
	int64_t expires = (int64_t)time(NULL) + CHALLENGE_TTL;
	struct ptip t;
	json_object *o, *dom, *types;
	enum err e;

	if (addr_is_zero(&r->cfg->tips_address) || r->cfg->private_tip_key[0] == '\0')
		return resp_fail(w, ERR_PRIVATE_TIPS_UNAVAILABLE, NULL, "This service's configuration "
		    "for private tips is incomplete (tips_address, private_tip_key).");
	if ((e = privtips_load(r, tip_id, NULL, &t)) != ERR_NONE)
		return resp_fail(w, e, e == ERR_NOT_FOUND ? "tipId" : NULL, e == ERR_NOT_FOUND ?
		    "No indexed private tip has this tipId." : NULL);
	if (getrandom(nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce))
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	sql_add(&q, "INSERT INTO private_tip_nonces (nonce, chain_id, tip_id, expires_at) VALUES "
	    "(?, ?, ?, ?)", SQL_BYTES(nonce, 32), SQL_U64(r->cfg->chain_id), SQL_U64(tip_id),
	    SQL_I64(expires));
	if (db_exec(r->db, &q) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	dom = typed_domain_new(TYPED_PRIVATE_TIP_UNLOCK, &d, err, sizeof(err));
	types = typed_types_new(TYPED_PRIVATE_TIP_UNLOCK);
	if (dom == NULL || types == NULL) {
		json_object_put(dom);
		json_object_put(types);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	o = json_object_new_object();
	json_object_object_add(o, "nonce", hex_json(nonce, 32));
	json_object_object_add(o, "tipId", json_object_new_int64((int64_t)tip_id));
	json_object_object_add(o, "expiresAt", json_object_new_int64(expires));
	json_object_object_add(o, "domain", dom);
	json_object_object_add(o, "types", types);
	json_object_object_add(o, "primaryType",
	    json_object_new_string(typed_primary(TYPED_PRIVATE_TIP_UNLOCK)));
	return answer(w, 200, o);
}

/* ------------------------------------------------------------------ the unlock */

struct unlock {
	struct ptip tip;
};

/* The detail of an unlocked tip into *out (the caller puts it); ERR_NONE or the error to answer. */
static enum err
detail(struct req *r, const struct ptip *t, const char *by, json_object **out)
{
	char note[PRIVTIP_NOTE_MAX + 1], amount[DECIMAL_ATOMIC_BUFSZ], id[24];
	bool found = false;
	json_object *o;
	enum err e;

	*out = NULL;
	if ((e = privtips_note(r, t, note, &found)) != ERR_NONE ||
	    (e = privtips_amount(r, t, amount)) != ERR_NONE) {
		OPENSSL_cleanse(note, sizeof(note));
		return e;
	}
	snprintf(id, sizeof(id), "%" PRIu64, t->tip_id);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(PRIVTIPS_VERSION));
	json_object_object_add(o, "tipId", json_object_new_string(id));
	json_object_object_add(o, "tipper", addr_json(t->tipper));
	json_object_object_add(o, "displayHandle", json_object_new_string(t->handle));
	json_object_object_add(o, "privateCommitment", hex_json(t->commitment, 32));
	json_object_object_add(o, "amount", json_object_new_string(amount));
	json_object_object_add(o, "note", found ? json_object_new_string(note) : NULL);
	json_object_object_add(o, "unlockPriceUsdc", json_object_new_string("1"));
	json_object_object_add(o, "unlockedBy", json_object_new_string(by));
	OPENSSL_cleanse(note, sizeof(note));
	*out = o;
	return ERR_NONE;
}

/* The current ERC-8004 owner or agent wallet of the tip's agent is signer? */
static enum err
agent_controls(struct req *r, const struct ptip *t, const struct addr *signer, bool *yes)
{
	const struct config *cfg = r->cfg;
	struct rpc *node = rpc_shared(cfg->rpc_url, (long)cfg->rpc_timeout_ms, cfg->tls_ca_file);
	static const char *const sigs[] = { "getAgentWallet(uint256)", "ownerOf(uint256)" };
	struct u256 id;
	struct ethcall c;
	uint8_t word[32];
	bool reverted;

	*yes = false;
	if (node == NULL || u256_parse_dec(t->agent_id, strlen(t->agent_id), &id) < 0)
		return node == NULL ? ERR_CHAIN_UNAVAILABLE : ERR_INTERNAL;
	for (size_t i = 0; i < 2 && !*yes; i++) {
		if (ethcall_set_uint(&c, &cfg->identity_registry_address, sigs[i], &id) < 0)
			return ERR_INTERNAL;
		if (ethcall_one(node, &c, &reverted) != RPC_OK) {
			if (reverted)
				continue;       /* no owner: a burned agent */
			return ERR_CHAIN_UNAVAILABLE;
		}
		u256_to_be(&c.word, word);
		*yes = memcmp(word + 12, signer->b, 20) == 0;
	}
	return ERR_NONE;
}

/*
 * A wallet that paid for this tip's unlock, on either rail and however the
 * payment came to be settled (the request itself, the chain on a retry,
 * payments-reconcile): its grant, written by the paid read before
 * settlement, counts once the ledger row of that payment, for endpoint_id
 * and paid to the tipper, is settled (privtips.h).
 */
enum err
privtips_paid_grant(struct db *d, const struct config *cfg, const char *endpoint_id,
    const struct ptip *t, const uint8_t payer[20], bool *yes)
{
	char b[600];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found = false;

	*yes = false;
	sql_add(&q, "SELECT COUNT(*) FROM private_tip_grants g JOIN x402_payments p ON p.payer = g.payer "
	    "AND p.auth_nonce = g.auth_nonce WHERE g.chain_id = ? AND g.tip_id = ? AND g.payer = ? AND "
	    "p.status = 'settled' AND p.endpoint_id = ? AND p.pay_to = ?", SQL_U64(cfg->chain_id),
	    SQL_U64(t->tip_id), SQL_BYTES(payer, 20), SQL_TEXT(endpoint_id), SQL_BYTES(t->tipper, 20));
	if (db_query_u64(d, &q, &n, &found) != DB_OK)
		return ERR_DATABASE_UNAVAILABLE;
	*yes = n > 0;
	return ERR_NONE;
}

/* The grant of a wallet that paid to unlock this tip on this row (privtips_paid_grant). */
static enum err
paid_grant(struct req *r, const struct ptip *t, const struct addr *signer, bool *yes)
{
	return privtips_paid_grant(r->db, r->cfg, r->ep->id, t, signer->b, yes);
}

/*
 * The signer may read for free: the tipper, the tip's recipient as it is
 * now, or (*paid) a wallet that paid to unlock it.
 */
static enum err
authorized(struct req *r, const struct ptip *t, const struct addr *signer, bool *yes, bool *paid)
{
	char b[300];
	struct sql q = SQL_ON(b);
	char wallet[41] = "", unused[41];
	enum err e;

	*paid = false;
	*yes = memcmp(signer->b, t->tipper, 20) == 0;
	if (*yes)
		return ERR_NONE;
	if (t->agent) {
		if ((e = agent_controls(r, t, signer, yes)) != ERR_NONE || *yes)
			return e;
		if ((e = paid_grant(r, t, signer, yes)) == ERR_NONE)
			*paid = *yes;
		return e;
	}
	sql_add(&q, "SELECT LOWER(HEX(wallet)), '' FROM handle_links WHERE chain_id = ? AND "
	    "handle_hash = ?", SQL_U64(r->cfg->chain_id), SQL_BYTES(t->handle_hash, 32));
	if (db_query_pair(r->db, &q, wallet, unused, sizeof(wallet)) != DB_OK)
		return ERR_DATABASE_UNAVAILABLE;
	if (wallet[0]) {
		struct addr a;

		*yes = addr_from_digits(wallet, &a) == 0 && addr_eq(&a, signer);
	}
	if (*yes)
		return ERR_NONE;
	if ((e = paid_grant(r, t, signer, yes)) == ERR_NONE)
		*paid = *yes;
	return e;
}

/* The signed, free read: the order of docs/PROTOCOL.md, Private tips. */
static enum err
signed_unlock(struct req *r, struct resp *w, const struct ptip *t, const struct privtip_auth *a)
{
	struct typed_domain d = unlock_domain(r->cfg);
	char b[500], msg[300], nonce_hex[67], err[160];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	int64_t now = (int64_t)time(NULL);
	uint8_t digest[32];
	json_object *m, *o = NULL;
	uint64_t affected = 0;
	bool valid = false, yes = false, paid = false;
	enum err e;

	/* The challenge: issued for this tip, unused, unexpired, deadline = its expiry. */
	sql_add(&q, "SELECT tip_id, expires_at, used_at IS NULL FROM private_tip_nonces WHERE "
	    "nonce = ? AND chain_id = ?", SQL_BYTES(a->nonce, 32), SQL_U64(r->cfg->chain_id));
	if (db_query(r->db, &q, &res) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		uint64_t tip_id, expires;
		bool unused;

		if (db_row_u64(row, 0, "tip_id", &tip_id) != DB_OK ||
		    db_row_u64(row, 1, "expires_at", &expires) != DB_OK ||
		    db_row_bool(row, 2, "used_at IS NULL", &unused) != DB_OK) {
			mysql_free_result(res);
			return resp_fail(w, ERR_INTERNAL, NULL, NULL);
		}
		valid = tip_id == t->tip_id && expires == a->deadline && (int64_t)a->deadline > now && unused;
	}
	if (res)
		mysql_free_result(res);
	if (!valid)
		return resp_fail(w, ERR_UNLOCK_CHALLENGE, PRIVTIP_H_NONCE, NULL);
	/* 1. The signature is the address's. */
	snprintf(msg, sizeof(msg), "{\"tipId\":\"%" PRIu64 "\",\"nonce\":\"%s\",\"deadline\":\"%" PRIu64
	    "\"}", t->tip_id, hex_encode(a->nonce, 32, nonce_hex), a->deadline);
	if (json_parse_strict(msg, strlen(msg), NULL, &m, NULL) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (typed_digest(TYPED_PRIVATE_TIP_UNLOCK, &d, m, digest, err, sizeof(err)) < 0) {
		json_object_put(m);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_put(m);
	switch (walletsig_verify(r->cfg, digest, a->sig, a->sig_len, &a->address, NULL)) {
	case WALLETSIG_VALID:
		break;
	case WALLETSIG_UNAVAILABLE:
		return resp_fail(w, ERR_SIGNATURE_UNAVAILABLE, NULL, NULL);
	default:
		return resp_fail(w, ERR_UNLOCK_SIGNATURE, PRIVTIP_H_SIG, NULL);
	}
	/* 2. Authorization; a refusal leaves the nonce for the rightful caller. */
	if ((e = authorized(r, t, &a->address, &yes, &paid)) != ERR_NONE)
		return resp_fail(w, e, NULL, NULL);
	if (!yes)
		return resp_fail(w, ERR_NOT_AUTHORIZED, PRIVTIP_H_ADDRESS, NULL);
	/* The answer before the nonce is spent: a read that cannot be built spends nothing. */
	/* A wallet that paid reads as the paid unlock it bought ("x402", the wire's word for it). */
	if ((e = detail(r, t, paid ? "x402" : "recipient_or_tipper", &o)) != ERR_NONE)
		return resp_fail(w, e, NULL, NULL);
	/* 3. Consume: one conditional update, so of two uses exactly one wins. */
	sql_reset(&q);
	sql_add(&q, "UPDATE private_tip_nonces SET used_at = ? WHERE nonce = ? AND chain_id = ? AND "
	    "tip_id = ? AND used_at IS NULL AND expires_at > ?", SQL_I64(now), SQL_BYTES(a->nonce, 32),
	    SQL_U64(r->cfg->chain_id), SQL_U64(t->tip_id), SQL_I64(now));
	if (db_exec_affected(r->db, &q, &affected) != DB_OK) {
		json_object_put(o);
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	if (affected != 1) {
		json_object_put(o);
		return resp_fail(w, ERR_UNLOCK_CHALLENGE, PRIVTIP_H_NONCE, NULL);
	}
	return answer(w, 200, o);
}

/*
 * The row's price is the tips contract's UNLOCK_PRICE_USDC, read from the
 * chain now, and not zero: ERR_NONE, ERR_CHAIN_UNAVAILABLE, or
 * ERR_INVALID_REQUEST when they differ.
 */
static enum err
price_check(struct req *r)
{
	const struct config *cfg = r->cfg;
	struct rpc *node = rpc_shared(cfg->rpc_url, (long)cfg->rpc_timeout_ms, cfg->tls_ca_file);
	struct ethcall c;
	struct u256 want;
	struct decimal d;
	char atomic[DECIMAL_ATOMIC_BUFSZ];
	bool reverted;

	/* The row's own price, in atomic USDC. */
	if (r->ep->price_usdc == NULL ||
	    decimal_parse(r->ep->price_usdc, strlen(r->ep->price_usdc), &d) != DECIMAL_OK ||
	    decimal_to_atomic(&d, 6, atomic, sizeof(atomic)) != DECIMAL_OK ||
	    u256_parse_dec(atomic, strlen(atomic), &want) < 0 || u256_is_zero(&want))
		return ERR_INVALID_REQUEST;
	if (node == NULL)
		return ERR_CHAIN_UNAVAILABLE;
	if (ethcall_set0(&c, &cfg->tips_address, "UNLOCK_PRICE_USDC()") < 0)
		return ERR_INTERNAL;
	if (ethcall_one(node, &c, &reverted) != RPC_OK)
		return reverted ? ERR_INVALID_REQUEST : ERR_CHAIN_UNAVAILABLE;
	if (u256_cmp(&c.word, &want) != 0)
		return ERR_INVALID_REQUEST;
	return ERR_NONE;
}

/*
 * Before any payment: the tip, then either the signed free read (answered
 * here) or the paid path with the tipper as payee, unless the service
 * cannot advertise a sound challenge.
 */
enum err
h_private_unlock_prepay(struct req *r, struct resp *w)
{
	struct unlock *u = pool_alloc(&r->pool, sizeof(*u));
	struct privtip_auth *a = pool_alloc(&r->pool, sizeof(*a));
	const char *bad = NULL;
	enum err e;

	if (u == NULL || a == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	r->pay.ctx = u;
	if ((e = privtips_load(r, req_val(r, "tipId")->u, NULL, &u->tip)) != ERR_NONE)
		return resp_fail(w, e, e == ERR_NOT_FOUND ? "tipId" : NULL, e == ERR_NOT_FOUND ?
		    "No indexed private tip has this tipId." : NULL);
	switch (privtip_parse_auth(req_header(r, PRIVTIP_H_ADDRESS), req_header(r, PRIVTIP_H_SIG),
	    req_header(r, PRIVTIP_H_NONCE), req_header(r, PRIVTIP_H_DEADLINE), a, &bad)) {
	case PRIVTIP_AUTH_OK:
		if (r->pay.present)
			return resp_fail(w, ERR_INVALID_REQUEST, NULL, "Send either the signed unlock "
			    "headers or a payment, not both.");
		return signed_unlock(r, w, &u->tip, a);
	case PRIVTIP_AUTH_BAD:
		return resp_fail(w, ERR_INVALID_FIELD, bad, "The header %s is missing or malformed.", bad);
	case PRIVTIP_AUTH_NONE:
		break;
	}
	/* Refuse to advertise a challenge that could not be honoured. */
	if (r->cfg->private_tip_key[0] == '\0' || addr_is_zero(&r->cfg->tips_address) ||
	    r->cfg->facilitator_url[0] == '\0')
		return resp_fail(w, ERR_PRIVATE_TIPS_UNAVAILABLE, NULL, "This service's configuration "
		    "for private tips is incomplete (private_tip_key, tips_address, facilitator_url).");
	if ((e = price_check(r)) != ERR_NONE)
		return resp_fail(w, ERR_PRIVATE_TIPS_UNAVAILABLE, NULL, e == ERR_CHAIN_UNAVAILABLE ?
		    "The tips contract's unlock price cannot be read right now; nothing is offered." :
		    "The unlock price is zero or not the tips contract's UNLOCK_PRICE_USDC; nothing is offered.");
	{
		static const uint8_t zero[20];

		if (memcmp(u->tip.tipper, zero, 20) == 0)
			return resp_fail(w, ERR_PRIVATE_TIPS_UNAVAILABLE, NULL,
			    "This tip has no tipper to pay.");
	}
	r->pay.pay_to_set = true;
	memcpy(r->pay.pay_to, u->tip.tipper, 20);
	return ERR_NONE;
}

/*
 * The paid read: the payment was verified; settled after this answers 200.
 * First its grant (sql/022_payment_binding.sql): the paying wallet may read
 * this tip by signature once the payment is settled, which matters when
 * this answer never reaches it (an unknown outcome, fcgi/pay.h). Written
 * before the answer, idempotent by its key; a grant that cannot be written
 * serves and charges nothing.
 */
enum err
h_private_unlock_get(struct req *r, struct resp *w)
{
	const struct unlock *u = r->pay.ctx;
	char b[400];
	struct sql q = SQL_ON(b);
	json_object *o = NULL;
	enum err e;

	if (u == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	sql_add(&q, "INSERT INTO private_tip_grants (payer, auth_nonce, chain_id, tip_id, created_at) "
	    "VALUES (?, ?, ?, ?, UTC_TIMESTAMP(6)) ON DUPLICATE KEY UPDATE created_at = created_at", SQL_BYTES(r->pay.payer, 20), SQL_BYTES(r->pay.nonce, 32),
	    SQL_U64(r->cfg->chain_id), SQL_U64(u->tip.tip_id));
	if (db_exec(r->db, &q) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if ((e = detail(r, &u->tip, "x402", &o)) != ERR_NONE)
		return resp_fail(w, e, NULL, NULL);
	return answer(w, 200, o);
}
