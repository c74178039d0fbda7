/*
 * tipreads.c: the tip reads of one transaction, one attestation and one
 * handle (docs/PROTOCOL.md, Tip reads), from the indexed `tips` and
 * `tip_attestations` (the indexer's, docs/ARCHITECTURE.md, Indexer):
 *
 *   GET /api/v1/receipts/{txHash}                                  free
 *     {version, txHash, tip (the first of tips), tips [record +
 *      {senderPoints, recipientPoints, pointsPolicyVersion}],
 *      interpretation}
 *     every tip the transaction created or settled (a claim or a refund),
 *     by log index; a transaction that touched no indexed tip is 404
 *     not_found (it may not be confirmed yet). Each tip's
 *     points are what it adds, undecayed, to its tipper's sentPoints and
 *     its handle's receivedPoints (tippoints_tips), as scaled-integer
 *     strings; a private tip's too, which depend on no amount.
 *   GET /api/v1/attestations/{tipId}                               free
 *     ERC-721 metadata {name, description, image, external_url,
 *      attributes [{trait_type, value, display_type?}]}: Tip ID, Recipient
 *      Wallet, Agent ID (agent tips), <BRAND> Burned (whole tokens), Minted
 *      At (display_type date, Unix seconds); never a note or an amount.
 *      404 when no attestation of that tip is indexed, or it was burned.
 *   GET /api/v1/handles/{handle}/<brand>s?limit=1..100 (25)&cursor  paid
 *     {version, handle, counts {tips, privateTips}, items [record],
 *      pagination {limit, nextCursor|null, hasMore}, interpretation}
 *     the tips the handle received, newest first (by tip id), paged with
 *     the cursor of lib/gratitude.h; private tips are listed and counted
 *     without amount or note.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "brand.h"
#include "addr.h"
#include "buf.h"
#include "dbfail.h"
#include "gratitude.h"
#include "hex.h"
#include "points.h"
#include "sql.h"
#include "table.h"
#include "tippoints.h"
#include "tipreads.h"
#include "x402.h"
#include "banned.h"

#define RECEIPT_TIPS_MAX 300   /* above the contract's 256 escrow entries a handle can hold */

static const char *const tip_interpretation =
    "Onchain tips as indexed past the confirmation depth. They prove the recorded wallets, "
    "amounts, handle, time and burn only, not the quality of any work. A private tip shows its "
    "existence, handle, tipper and status, never its amount or note.";

static json_object *
dec_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *
hash_or_null(const char *hex64)
{
	char t[2 + 64 + 1];

	if (hex64 == NULL)
		return NULL;
	snprintf(t, sizeof(t), "0x%s", hex64);
	return json_object_new_string(t);
}

json_object *
tip_record(MYSQL_ROW row)
{
	json_object *o;
	bool priv, mint;
	char st[16];
	size_t i;

	if (db_row_bool_or(row, 2, "is_private", false, &priv) != DB_OK ||
	    db_row_bool_or(row, 9, "mint_attestation", false, &mint) != DB_OK)
		return NULL;
	o = json_object_new_object();

	json_object_object_add(o, "tipId", json_object_new_string(row[0]));
	json_object_object_add(o, "contract", addr_json_new(row[18]));
	json_object_object_add(o, "kind", json_object_new_string(row[1]));
	json_object_object_add(o, "handle", json_object_new_string(row[3]));
	json_object_object_add(o, "agentId", dec_or_null(row[4]));
	json_object_object_add(o, "tipper", addr_json_new(row[5]));
	json_object_object_add(o, "recipient", row[6] ? addr_json_new(row[6]) : NULL);
	for (i = 0; row[11][i] && i + 1 < sizeof(st); i++)
		st[i] = (char)(row[11][i] >= 'a' && row[11][i] <= 'z' ? row[11][i] - 'a' + 'A' : row[11][i]);
	st[i] = '\0';
	json_object_object_add(o, "status", json_object_new_string(st));
	json_object_object_add(o, "private", json_object_new_boolean(priv));
	/* A private tip shows its amount and note only as its tipper disclosed them. */
	if (priv) {
		bool disclosed = row[19] != NULL;

		json_object_object_add(o, "amountUsdc", disclosed ? dec_or_null(row[19]) : NULL);
		json_object_object_add(o, "note", disclosed ? dec_or_null(row[20]) : NULL);
		json_object_object_add(o, "disclosed", json_object_new_boolean(disclosed));
	} else {
		json_object_object_add(o, "amountUsdc", dec_or_null(row[7]));
		json_object_object_add(o, "note", dec_or_null(row[8]));
		json_object_object_add(o, "disclosed", json_object_new_boolean(0));
	}
	json_object_object_add(o, "mintAttestation", json_object_new_boolean(mint));
	json_object_object_add(o, BRAND_LOWER "Burned", json_object_new_string(row[10]));
	json_object_object_add(o, "txHash", hash_or_null(row[12]));
	json_object_object_add(o, "logIndex", json_object_new_string(row[13]));
	json_object_object_add(o, "blockNumber", json_object_new_string(row[14]));
	json_object_object_add(o, "blockTimestamp", json_object_new_string(row[15]));
	json_object_object_add(o, "settledTxHash", hash_or_null(row[16]));
	json_object_object_add(o, "settledBlockTimestamp", dec_or_null(row[17]));
	return o;
}

/* Answer o (taken) with status 200. */
static enum err
answer(struct resp *w, json_object *o)
{
	enum err e = resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;

	json_object_put(o);
	return e;
}

/* Add the points of tip record o, of tip tip_id, as want[0..n) judged them. */
static void
add_points(json_object *o, uint64_t tip_id, const struct tippoints_tip *want, size_t n)
{
	const struct tippoints_tip *f = tippoints_tip_find(want, n, tip_id);
	char s[24], t[24];

	snprintf(s, sizeof(s), "%" PRIu64, f ? points_weight(POINTS_SENT, f->rank) : 0);
	snprintf(t, sizeof(t), "%" PRIu64, f ? points_weight(POINTS_RECEIVED, f->rank) : 0);
	json_object_object_add(o, "senderPoints", json_object_new_string(s));
	json_object_object_add(o, "recipientPoints", json_object_new_string(t));
	json_object_object_add(o, "pointsPolicyVersion", json_object_new_string(POINTS_POLICY));
}

enum err
h_receipt_get(struct req *r, struct resp *w)
{
	const struct value *tx = req_val(r, "txHash");
	char b[1024], th[67];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *tips = NULL, *first;
	struct tippoints_tip *want;
	uint64_t *ids;          /* ids[i]: the tip of tips[i] */
	size_t n = 0, nt;
	enum db_rc rc;
	enum err e;

	want = calloc(RECEIPT_TIPS_MAX, sizeof(*want));
	ids = calloc(RECEIPT_TIPS_MAX, sizeof(*ids));
	if (want == NULL || ids == NULL) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	/* Created in the transaction, or settled by it; one row either way. */
	sql_add(&q, "SELECT " TIP_COLUMNS ", IF(t.tx_hash = ?, t.log_index, t.settled_log_index) AS li, "
	    "LOWER(HEX(t.handle_hash)) FROM tips t WHERE t.chain_id = ? AND (t.tx_hash = ? OR "
	    "t.settled_tx_hash = ?) ORDER BY li, t.tip_id LIMIT ?", SQL_BYTES(tx->b32, 32),
	    SQL_U64(r->cfg->chain_id), SQL_BYTES(tx->b32, 32), SQL_BYTES(tx->b32, 32),
	    SQL_U64(RECEIPT_TIPS_MAX));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK) {
		e = db_fail(w, rc);
		goto out;
	}
	tips = json_object_new_array();
	for (size_t i = 0; res && i < RECEIPT_TIPS_MAX && (row = mysql_fetch_row(res)) != NULL; i++) {
		json_object *rec = tip_record(row);

		if (rec == NULL || db_row_u64(row, 0, "tipId", &ids[i]) != DB_OK) {
			json_object_put(rec);
			mysql_free_result(res);
			e = db_fail(w, DB_ERROR);
			goto out;
		}
		json_object_array_add(tips, rec);
		if (hex_decode_fixed(row[5], strlen(row[5]), want[n].tipper, 20, false) == 0 &&
		    hex_decode_fixed(row[TIP_NCOLUMNS + 1], strlen(row[TIP_NCOLUMNS + 1]), want[n].handle,
		    32, false) == 0)
			want[n++].tip_id = ids[i];
	}
	if (res)
		mysql_free_result(res);
	nt = json_object_is_type(tips, json_type_array) ? json_object_array_length(tips) : 0;
	if (nt == 0) {
		e = resp_fail(w, ERR_NOT_FOUND, NULL, "No indexed tip was created or settled by this "
		    "transaction: it may not be confirmed or indexed yet, or it is not a tip transaction. "
		    "Not a negative finding.");
		goto out;
	}
	/* Each tip's points, judged as the points totals judge it. */
	if ((rc = tippoints_tips(r->db, r->cfg->chain_id, want, n)) != DB_OK) {
		e = db_fail(w, rc);
		goto out;
	}
	for (size_t i = 0; i < nt; i++)
		add_points(json_object_array_get_idx(tips, i), ids[i], want, n);
	first = json_object_get(json_object_array_get_idx(tips, 0));
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(TIP_VERSION));
	json_object_object_add(o, "txHash", json_object_new_string(hex_encode(tx->b32, 32, th)));
	json_object_object_add(o, "tip", first);
	json_object_object_add(o, "tips", tips);   /* taken */
	tips = NULL;
	json_object_object_add(o, "interpretation", json_object_new_string(tip_interpretation));
	e = answer(w, o);
out:
	json_object_put(tips);
	free(want);
	free(ids);
	return e;
}

/* Whole tokens of an 18-decimal atomic amount s ("3000000", "0.5") into out[cap]. */
static char *
tokens_text(const char *s, char *out, size_t cap)
{
	char p[96];
	size_t n = strlen(s), k = 0, len;

	if (n == 0 || n > 78 || cap < 96) {
		snprintf(out, cap, "0");
		return out;
	}
	while (n + k < 19)      /* at least one integer digit */
		p[k++] = '0';
	memcpy(p + k, s, n + 1);
	len = n + k;
	snprintf(out, cap, "%.*s.%s", (int)(len - 18), p, p + len - 18);
	k = strlen(out);
	while (out[k - 1] == '0')
		out[--k] = '\0';
	if (out[k - 1] == '.')
		out[--k] = '\0';
	return out;
}

static json_object *
attribute_new(const char *trait, json_object *value, const char *display)
{
	json_object *a = json_object_new_object();

	json_object_object_add(a, "trait_type", json_object_new_string(trait));
	json_object_object_add(a, "value", value);
	if (display)
		json_object_object_add(a, "display_type", json_object_new_string(display));
	return a;
}

/* A self-contained SVG picture of the attestation as a data: URI; NULL when out of memory. */
static json_object *
image_new(const char *tip_id)
{
	char svg[768];
	struct buf b;
	json_object *j = NULL;

	snprintf(svg, sizeof(svg), "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"512\" "
	    "height=\"512\" viewBox=\"0 0 512 512\"><rect width=\"512\" height=\"512\" fill=\"#14213d\"/>"
	    "<text x=\"256\" y=\"230\" font-family=\"sans-serif\" font-size=\"34\" fill=\"#fca311\" "
	    "text-anchor=\"middle\">" BRAND_CAPITAL " Gratitude</text><text x=\"256\" y=\"290\" "
	    "font-family=\"sans-serif\" font-size=\"30\" fill=\"#e5e5e5\" text-anchor=\"middle\">"
	    "#%.78s</text></svg>", tip_id);
	buf_init(&b, 2048);
	if (buf_adds(&b, "data:image/svg+xml;base64,") == 0 &&
	    base64_encode(svg, strlen(svg), BASE64_STD, &b) == 0)
		j = json_object_new_string(buf_str(&b));
	buf_release(&b);
	return j;
}

enum err
h_attestation_get(struct req *r, struct resp *w)
{
	uint64_t id = req_val(r, "tipId")->u;
	char b[1024], t[256], url[CONFIG_STR_MAX + 128], idt[24];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *attrs;
	bool burned = false;
	int64_t minted = 0;
	enum db_rc rc;

	sql_add(&q, "SELECT LOWER(HEX(a.recipient)), a.minted_at, a.burned, t.agent_id, t.boon_burned, "
	    "LOWER(HEX(a.tx_hash)) FROM tip_attestations a JOIN tips t ON t.chain_id = a.chain_id AND "
	    "t.tip_id = a.tip_id WHERE a.chain_id = ? AND a.tip_id = ?", SQL_U64(r->cfg->chain_id),
	    SQL_U64(id));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return db_fail(w, rc);
	row = res ? mysql_fetch_row(res) : NULL;
	if (row != NULL && (db_row_bool(row, 2, "burned", &burned) != DB_OK ||
	    db_row_i64(row, 1, "minted_at", &minted) != DB_OK)) {
		mysql_free_result(res);
		return db_fail(w, DB_ERROR);
	}
	if (row == NULL || burned) {
		burned = row != NULL;
		if (res)
			mysql_free_result(res);
		return resp_fail(w, ERR_NOT_FOUND, "tipId", burned ?
		    "The attestation of this tip was burned by its holder." :
		    "No attestation of this tip is indexed.");
	}
	snprintf(idt, sizeof(idt), "%" PRIu64, id);
	o = json_object_new_object();
	snprintf(t, sizeof(t), BRAND_CAPITAL " Gratitude Attestation #%s", idt);
	json_object_object_add(o, "name", json_object_new_string(t));
	json_object_object_add(o, "description", json_object_new_string(
	    "A soulbound (non-transferable) attestation of an onchain tip of gratitude, minted to the "
	    "wallet the tip reached. It records that the tip happened, not the tip's amount or note, "
	    "and is no measure of quality."));
	json_object_object_add(o, "image", image_new(idt));
	snprintf(url, sizeof(url), "%s/b/0x%s", r->cfg->app_url, row[5]);
	json_object_object_add(o, "external_url", json_object_new_string(url));
	attrs = json_object_new_array();
	json_object_array_add(attrs, attribute_new("Tip ID", json_object_new_string(idt), NULL));
	json_object_array_add(attrs, attribute_new("Recipient Wallet", addr_json_new(row[0]), NULL));
	if (row[3])
		json_object_array_add(attrs, attribute_new("Agent ID", json_object_new_string(row[3]), NULL));
	json_object_array_add(attrs, attribute_new(BRAND_UPPER " Burned",
	    json_object_new_string(tokens_text(row[4], t, sizeof(t))), NULL));
	json_object_array_add(attrs, attribute_new("Minted At",
	    json_object_new_int64(minted), "date"));
	json_object_object_add(o, "attributes", attrs);
	mysql_free_result(res);
	return answer(w, o);
}

enum err
h_handle_tips_check(struct req *r, struct resp *w)
{
	const struct value *h = req_val(r, "handle"), *c = req_val(r, "cursor");
	uint64_t id;

	if (c != NULL && gratitude_cursor_parse(c->text, c->len, h->hash, &id) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "cursor",
		    "The cursor is not one this service issued for this handle; start again without it.");
	return ERR_NONE;
}

enum err
h_handle_tips_get(struct req *r, struct resp *w)
{
	const struct value *h = req_val(r, "handle"), *c = req_val(r, "cursor");
	uint64_t limit = req_val(r, "limit")->u, below = 0, last = 0;
	char b[1024], cur[GRATITUDE_CURSOR_MAX];
	uint64_t total = 0, priv = 0;
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *items, *counts, *pg, *rec;
	size_t n = 0;
	bool more = false;
	enum db_rc rc;

	if (c != NULL && gratitude_cursor_parse(c->text, c->len, h->hash, &below) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "cursor", NULL);  /* checked before payment */
	sql_add(&q, "SELECT tips_received, private_received FROM handle_tip_stats WHERE chain_id = ? "
	    "AND handle_hash = ?", SQL_U64(r->cfg->chain_id), SQL_BYTES(h->hash, 32));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return db_fail(w, rc);
	if (res && (row = mysql_fetch_row(res)) != NULL &&
	    (rc = db_row_u64(row, 0, "tips_received", &total)) == DB_OK)
		rc = db_row_u64(row, 1, "private_received", &priv);
	if (res)
		mysql_free_result(res);
	res = NULL;
	if (rc != DB_OK)
		return db_fail(w, rc);
	sql_reset(&q);
	sql_add(&q, "SELECT " TIP_COLUMNS " FROM tips t WHERE t.chain_id = ? AND t.handle_hash = ?",
	    SQL_U64(r->cfg->chain_id), SQL_BYTES(h->hash, 32));
	if (c != NULL)
		sql_add(&q, " AND t.tip_id < ?", SQL_U64(below));
	sql_add(&q, " ORDER BY t.tip_id DESC LIMIT ?", SQL_U64(limit + 1));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return db_fail(w, rc);
	items = json_object_new_array();
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		if (n == limit) {
			more = true;
			break;
		}
		if ((rec = tip_record(row)) == NULL || db_row_u64(row, 0, "tipId", &last) != DB_OK) {
			json_object_put(rec);
			json_object_put(items);
			mysql_free_result(res);
			return db_fail(w, DB_ERROR);
		}
		json_object_array_add(items, rec);
		n++;
	}
	if (res)
		mysql_free_result(res);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(TIP_VERSION));
	json_object_object_add(o, "handle", json_object_new_string(h->text));
	counts = json_object_new_object();
	json_object_object_add(counts, "tips", json_object_new_int64((int64_t)total));
	json_object_object_add(counts, "privateTips", json_object_new_int64((int64_t)priv));
	json_object_object_add(o, "counts", counts);
	json_object_object_add(o, "items", items);
	pg = json_object_new_object();
	json_object_object_add(pg, "limit", json_object_new_int64((int64_t)limit));
	json_object_object_add(pg, "nextCursor", more && gratitude_cursor_format(h->hash, last, cur,
	    sizeof(cur)) == 0 ? json_object_new_string(cur) : NULL);
	json_object_object_add(pg, "hasMore", json_object_new_boolean(more));
	json_object_object_add(o, "pagination", pg);
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "The tips this handle received, newest first; follow pagination.nextCursor for older "
	    "ones. Onchain tips prove the recorded wallets, amounts, time and burn only. A private "
	    "tip is listed and counted without its amount or note."));
	return answer(w, o);
}
