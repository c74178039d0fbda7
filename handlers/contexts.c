/*
 * contexts.c: POST /api/v1/x402/route-contexts (docs/PROTOCOL.md, Route
 * contexts) and the
 * route-context reads of contexts.h.
 *
 * A publication {noteJson, offerJson, signature} is verified by
 * lib/routenote.c for the configured chain (strict JSON, the offer bound to
 * the exact note bytes, the signature recovering to offer.payTo, nothing
 * expired). The signer must then be a participant of the route on that
 * chain in routed_boons: the tipper of a routed recognition of the route,
 * or its funded endpoint payTo (endpoint_usdc > 0) or funded network payTo
 * (network_usdc > 0); otherwise 403 not_a_participant. A participant has
 * one slot per route (route_contexts' primary key):
 *   201  the slot was empty: created;
 *   200  the stored note has an earlier createdAt: replaced;
 *   200  the stored publication has the same note, offer and signature
 *        bytes: unchanged (an identical retry is harmless; the body is the
 *        stored record with its original publishedAt);
 *   409  stale_publication: the stored note's createdAt is later, or equal
 *        with other bytes (to replace a context, date the new note later).
 * The decision is made by MariaDB in one INSERT ... ON DUPLICATE KEY
 * UPDATE whose assignments all depend on the stored createdAt, so
 * concurrent publications are safe on any number of workers; the read
 * that reports the outcome runs in the same transaction, while the row is
 * still locked. The exact note and offer strings are stored and returned
 * as received, never re-serialized.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brand.h"
#include "buf.h"
#include "contexts.h"
#include "dbfail.h"
#include "hex.h"
#include "json.h"
#include "routenote.h"
#include "table.h"
#include "timefmt.h"
#include "banned.h"

#define CONTEXT_VERSION BRAND_LOWER ".x402-route-context/v1"
#define SQL_MAX (1024 * 1024)     /* the upsert carries note and offer as hex */
#define AMOUNT_DIGITS_MAX 65      /* DECIMAL(65,0) */

enum role {
	ROLE_TIPPER = 0x1,
	ROLE_ENDPOINT = 0x2,
	ROLE_NETWORK = 0x4,
};

enum outcome {
	OUT_CREATED,
	OUT_REPLACED,
	OUT_UNCHANGED,
	OUT_STALE,
};

/* The columns of a record, in the order of enum col. */
#define RECORD_COLUMNS \
	"LOWER(HEX(route_id)), LOWER(HEX(publisher)), method, origin, public_path, " \
	"public_endpoint_url, intent, fit, limits, request_schema_uri, documentation_uri, " \
	"context_uris, note_created_at, note_expires_at, note_endpoint, offer_method, " \
	"LOWER(HEX(asset)), LOWER(HEX(pay_to)), amount_atomic, offer_expires_at, " \
	"LOWER(HEX(note_digest)), LENGTH(note_json), participant_roles, " \
	"DATE_FORMAT(published_at, '%Y-%m-%dT%H:%i:%sZ'), " \
	"DATE_FORMAT(published_at, '%Y-%m-%d %H:%i:%s.%f'), note_json, offer_json, " \
	"LOWER(HEX(signature))"

enum col {
	C_ROUTE, C_PUBLISHER, C_METHOD, C_ORIGIN, C_PATH,
	C_URL, C_INTENT, C_FIT, C_LIMITS, C_SCHEMA_URI, C_DOC_URI,
	C_CONTEXT_URIS, C_CREATED, C_EXPIRES, C_NOTE_ENDPOINT, C_OFFER_METHOD,
	C_ASSET, C_PAY_TO, C_AMOUNT, C_OFFER_EXPIRES,
	C_DIGEST, C_NOTE_BYTES, C_ROLES,
	C_PUBLISHED,
	C_STAMP, C_NOTE, C_OFFER,
	C_SIGNATURE,
	C__MAX
};

/*
 * The columns a publication writes after the key (chain_id, route_id,
 * publisher), in the order add_upsert writes their values. note_created_at
 * is last: every IF() before it reads the stored createdAt.
 */
#define SLOT_COLUMNS \
	", method, origin, public_path, public_endpoint_url, note_json, offer_json" \
	", signature, note_digest, intent, fit, limits, limits_text, request_schema_uri" \
	", documentation_uri, context_uris, note_expires_at, note_endpoint, offer_method" \
	", asset, pay_to, amount_atomic, offer_expires_at, participant_roles" \
	", published_at, note_created_at"

/* Each slot column keeps its value unless the new note is later. */
#define SLOT_UPDATES \
	"method = IF(VALUES(note_created_at) > note_created_at, VALUES(method), method)" \
	", origin = IF(VALUES(note_created_at) > note_created_at, VALUES(origin), origin)" \
	", public_path = IF(VALUES(note_created_at) > note_created_at, VALUES(public_path), public_path)" \
	", public_endpoint_url = IF(VALUES(note_created_at) > note_created_at, VALUES(public_endpoint_url), public_endpoint_url)" \
	", note_json = IF(VALUES(note_created_at) > note_created_at, VALUES(note_json), note_json)" \
	", offer_json = IF(VALUES(note_created_at) > note_created_at, VALUES(offer_json), offer_json)" \
	", signature = IF(VALUES(note_created_at) > note_created_at, VALUES(signature), signature)" \
	", note_digest = IF(VALUES(note_created_at) > note_created_at, VALUES(note_digest), note_digest)" \
	", intent = IF(VALUES(note_created_at) > note_created_at, VALUES(intent), intent)" \
	", fit = IF(VALUES(note_created_at) > note_created_at, VALUES(fit), fit)" \
	", limits = IF(VALUES(note_created_at) > note_created_at, VALUES(limits), limits)" \
	", limits_text = IF(VALUES(note_created_at) > note_created_at, VALUES(limits_text), limits_text)" \
	", request_schema_uri = IF(VALUES(note_created_at) > note_created_at, VALUES(request_schema_uri), request_schema_uri)" \
	", documentation_uri = IF(VALUES(note_created_at) > note_created_at, VALUES(documentation_uri), documentation_uri)" \
	", context_uris = IF(VALUES(note_created_at) > note_created_at, VALUES(context_uris), context_uris)" \
	", note_expires_at = IF(VALUES(note_created_at) > note_created_at, VALUES(note_expires_at), note_expires_at)" \
	", note_endpoint = IF(VALUES(note_created_at) > note_created_at, VALUES(note_endpoint), note_endpoint)" \
	", offer_method = IF(VALUES(note_created_at) > note_created_at, VALUES(offer_method), offer_method)" \
	", asset = IF(VALUES(note_created_at) > note_created_at, VALUES(asset), asset)" \
	", pay_to = IF(VALUES(note_created_at) > note_created_at, VALUES(pay_to), pay_to)" \
	", amount_atomic = IF(VALUES(note_created_at) > note_created_at, VALUES(amount_atomic), amount_atomic)" \
	", offer_expires_at = IF(VALUES(note_created_at) > note_created_at, VALUES(offer_expires_at), offer_expires_at)" \
	", participant_roles = IF(VALUES(note_created_at) > note_created_at, VALUES(participant_roles), participant_roles)" \
	", published_at = IF(VALUES(note_created_at) > note_created_at, VALUES(published_at), published_at)" \
	", note_created_at = IF(VALUES(note_created_at) > note_created_at, VALUES(note_created_at), note_created_at)"

static const char *const role_names[] = { "tipper", "endpoint", "network" };

/* ---- records */

/* One of the JSON arrays this file stored, or NULL. */
static json_object *
list_new(const char *text)
{
	json_object *o = NULL;

	if (text == NULL || json_parse_strict(text, strlen(text), NULL, &o, NULL) < 0)
		return NULL;
	if (!json_object_is_type(o, json_type_array)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *
text_or_null(const char *s, unsigned long len)
{
	return s ? json_object_new_string_len(s, (int)len) : NULL;
}

static json_object *
prefixed_new(const char *hex)
{
	char t[2 + 2 * 65 + 1];

	snprintf(t, sizeof(t), "0x%s", hex);
	return json_object_new_string(t);
}

static json_object *
roles_new(const char *set)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < sizeof(role_names) / sizeof(role_names[0]); i++) {
		size_t n = strlen(role_names[i]);

		for (const char *s = set; s && *s;) {
			size_t k = strcspn(s, ",");

			if (k == n && memcmp(s, role_names[i], n) == 0)
				json_object_array_add(a, json_object_new_string(role_names[i]));
			s += k + (s[k] == ',');
		}
	}
	return a;
}

/*
 * The public record (contexts.h) of one row selected with record_columns,
 * with signedPayload when with_payload; NULL when the row does not parse.
 */
static json_object *
record_new(MYSQL_ROW row, const unsigned long *len, uint64_t chain_id, bool with_payload)
{
	json_object *rec, *note, *route, *offer, *ver, *limits, *uris, *pub, *asset, *pay_to;
	int64_t created, expires, offer_expires, nbytes;
	char t[32], net[32];

	for (int i = 0; i < C__MAX; i++)
		if (row[i] == NULL && i != C_SCHEMA_URI && i != C_DOC_URI)
			return NULL;
	if (db_row_i64(row, C_CREATED, "note_created_at", &created) != DB_OK ||
	    db_row_i64(row, C_EXPIRES, "note_expires_at", &expires) != DB_OK ||
	    db_row_i64(row, C_OFFER_EXPIRES, "offer_expires_at", &offer_expires) != DB_OK ||
	    db_row_i64(row, C_NOTE_BYTES, "LENGTH(note_json)", &nbytes) != DB_OK)
		return NULL;
	limits = list_new(row[C_LIMITS]);
	uris = list_new(row[C_CONTEXT_URIS]);
	pub = addr_json_new(row[C_PUBLISHER]);
	asset = addr_json_new(row[C_ASSET]);
	pay_to = addr_json_new(row[C_PAY_TO]);
	if (limits == NULL || uris == NULL || pub == NULL || asset == NULL || pay_to == NULL) {
		json_object_put(limits);
		json_object_put(uris);
		json_object_put(pub);
		json_object_put(asset);
		json_object_put(pay_to);
		return NULL;
	}
	snprintf(net, sizeof(net), "eip155:%" PRIu64, chain_id);

	rec = json_object_new_object();
	json_object_object_add(rec, "version", json_object_new_string(CONTEXT_VERSION));
	json_object_object_add(rec, "routeId", prefixed_new(row[C_ROUTE]));
	json_object_object_add(rec, "publisher", pub);
	json_object_object_add(rec, "participantRoles", roles_new(row[C_ROLES]));
	json_object_object_add(rec, "publishedAt", json_object_new_string(row[C_PUBLISHED]));
	json_object_object_add(rec, "expiresAt",
	    json_object_new_string(time_rfc3339((time_t)expires, t, sizeof(t))));
	json_object_object_add(rec, "publisherAccounts", json_object_new_array());

	note = json_object_new_object();
	route = json_object_new_object();
	json_object_object_add(route, "origin", json_object_new_string(row[C_ORIGIN]));
	json_object_object_add(route, "method", json_object_new_string(row[C_METHOD]));
	json_object_object_add(route, "publicPath", json_object_new_string(row[C_PATH]));
	json_object_object_add(route, "publicEndpointUrl", json_object_new_string(row[C_URL]));
	json_object_object_add(note, "version", json_object_new_string("1"));
	json_object_object_add(note, "route", route);
	json_object_object_add(note, "intent", text_or_null(row[C_INTENT], len[C_INTENT]));
	json_object_object_add(note, "fit", text_or_null(row[C_FIT], len[C_FIT]));
	json_object_object_add(note, "limits", limits);
	json_object_object_add(note, "requestSchemaUri", text_or_null(row[C_SCHEMA_URI], len[C_SCHEMA_URI]));
	json_object_object_add(note, "documentationUri", text_or_null(row[C_DOC_URI], len[C_DOC_URI]));
	json_object_object_add(note, "contextUris", uris);
	json_object_object_add(note, "createdAt", json_object_new_int64(created));
	json_object_object_add(note, "expiresAt", json_object_new_int64(expires));
	json_object_object_add(rec, "note", note);

	offer = json_object_new_object();
	json_object_object_add(offer, "version", json_object_new_string("1"));
	json_object_object_add(offer, "noteEndpoint",
	    text_or_null(row[C_NOTE_ENDPOINT], len[C_NOTE_ENDPOINT]));
	json_object_object_add(offer, "method", json_object_new_string(row[C_OFFER_METHOD]));
	json_object_object_add(offer, "network", json_object_new_string(net));
	json_object_object_add(offer, "asset", asset);
	json_object_object_add(offer, "payTo", pay_to);
	json_object_object_add(offer, "amountAtomic", json_object_new_string(row[C_AMOUNT]));
	json_object_object_add(offer, "responseDigest", prefixed_new(row[C_DIGEST]));
	json_object_object_add(offer, "responseBytes", json_object_new_int64(nbytes));
	json_object_object_add(offer, "expiresAt", json_object_new_int64(offer_expires));
	json_object_object_add(rec, "offer", offer);

	ver = json_object_new_object();
	json_object_object_add(ver, "publisherSignature", json_object_new_string("valid"));
	json_object_object_add(ver, "exactNoteBytes", json_object_new_string("valid"));
	json_object_object_add(ver, "challengeBinding", json_object_new_string("not_verified"));
	json_object_object_add(ver, "endpointFetched", json_object_new_boolean(0));
	json_object_object_add(rec, "verification", ver);

	if (with_payload) {
		json_object *sp = json_object_new_object();

		json_object_object_add(sp, "noteJson", text_or_null(row[C_NOTE], len[C_NOTE]));
		json_object_object_add(sp, "offerJson", text_or_null(row[C_OFFER], len[C_OFFER]));
		json_object_object_add(sp, "signature", prefixed_new(row[C_SIGNATURE]));
		json_object_object_add(rec, "signedPayload", sp);
	}
	return rec;
}

enum db_rc
contexts_for_route(struct db *db, const struct config *cfg, const uint8_t route_id[32],
    json_object *out_array)
{
	char b[2048];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	sql_add(&q, "SELECT " RECORD_COLUMNS " FROM route_contexts WHERE chain_id = ? AND route_id = ? "
	    "AND note_expires_at > ? ORDER BY published_at DESC, publisher LIMIT ?", SQL_U64(cfg->chain_id),
	    SQL_BYTES(route_id, 32), SQL_I64((int64_t)time(NULL)), SQL_U64(CONTEXTS_ROUTE_MAX));
	rc = db_query(db, &q, &res);
	while (rc == DB_OK && res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *rec = record_new(row, mysql_fetch_lengths(res), cfg->chain_id, true);

		if (rec == NULL) {
			snprintf(db->err, sizeof(db->err), "route_contexts: a stored row does not parse");
			rc = DB_ERROR;
			break;
		}
		json_object_array_add(out_array, rec);
	}
	if (res)
		mysql_free_result(res);
	return rc;
}

/* ---- publication */

/* UTF-8 text goes in through hex, so no byte needs escaping: CONVERT(? USING utf8mb4). */
static struct sqlv
text_hex(const char *s, size_t n)
{
	return SQL_BYTES(s ? s : "", s ? n : 0);
}

/* The one conditional upsert of a publication (see the top of this file). */
static int
add_upsert(struct sql *q, const struct routenote_pub *p, const struct value *note,
    const struct value *offer, uint64_t chain_id, unsigned roles, const char *stamp)
{
	const struct routenote_note *n = &p->note;
	const struct routenote_offer *o = &p->offer;
	json_object *limits = json_object_new_array(), *uris = json_object_new_array();
	struct buf lt;
	char rl[64] = "";
	size_t rn = 0, ln = 0, un = 0;
	const char *ls, *us;
	int rc = -1;

	buf_init(&lt, 8 * (ROUTENOTE_TEXT_MAX + 1));
	for (size_t i = 0; i < n->nlimits; i++) {
		json_object_array_add(limits,
		    json_object_new_string_len(n->limits[i].s, (int)n->limits[i].len));
		if (i)
			buf_addc(&lt, '\n');
		buf_add(&lt, n->limits[i].s, n->limits[i].len);
	}
	for (size_t i = 0; i < n->ncontext_uris; i++)
		json_object_array_add(uris,
		    json_object_new_string_len(n->context_uris[i].s, (int)n->context_uris[i].len));
	for (size_t i = 0; i < sizeof(role_names) / sizeof(role_names[0]); i++)
		if (roles & (1u << i))
			rn += (size_t)snprintf(rl + rn, sizeof(rl) - rn, "%s%s", rn ? "," : "", role_names[i]);
	ls = json_dump(limits, &ln);
	us = json_dump(uris, &un);
	if (ls == NULL || us == NULL || lt.full)
		goto out;   /* out of memory */
	sql_add(q, "INSERT INTO route_contexts (chain_id, route_id, publisher" SLOT_COLUMNS ") VALUES (?, ?, ?, "
	    "CONVERT(? USING utf8mb4), CONVERT(? USING utf8mb4), CONVERT(? USING utf8mb4), "
	    "CONCAT(CONVERT(? USING utf8mb4), CONVERT(? USING utf8mb4)), ?, ?, ?, ?, "
	    "CONVERT(? USING utf8mb4), CONVERT(? USING utf8mb4), CONVERT(? USING utf8mb4), "
	    "CONVERT(? USING utf8mb4), ",
	    SQL_U64(chain_id), SQL_BYTES(n->route_id, 32), SQL_BYTES(p->signer.b, ADDR_LEN),
	    text_hex(n->method, strlen(n->method)), text_hex(n->origin, strlen(n->origin)),
	    text_hex(n->path, strlen(n->path)), text_hex(n->origin, strlen(n->origin)),
	    text_hex(n->path, strlen(n->path)), SQL_BYTES(note->text, note->len),
	    SQL_BYTES(offer->text, offer->len), SQL_BYTES(p->sig, p->sig_len), SQL_BYTES(n->digest, 32),
	    text_hex(n->intent.s, n->intent.len), text_hex(n->fit.s, n->fit.len), text_hex(ls, ln),
	    text_hex(lt.p ? lt.p : "", lt.len));
	if (n->request_schema_uri.s)
		sql_add(q, "CONVERT(? USING utf8mb4), ", text_hex(n->request_schema_uri.s, n->request_schema_uri.len));
	else
		sql_add(q, "NULL, ");
	if (n->documentation_uri.s)
		sql_add(q, "CONVERT(? USING utf8mb4), ", text_hex(n->documentation_uri.s, n->documentation_uri.len));
	else
		sql_add(q, "NULL, ");
	sql_add(q, "CONVERT(? USING utf8mb4), ?, CONVERT(? USING utf8mb4), CONVERT(? USING utf8mb4), ?, ?, ?, ?, "
	    "?, ?, ?) ON DUPLICATE KEY UPDATE " SLOT_UPDATES,
	    text_hex(us, un), SQL_I64(n->expires_at), text_hex(o->note_endpoint.s, o->note_endpoint.len),
	    text_hex(o->method, strlen(o->method)), SQL_BYTES(o->asset.b, ADDR_LEN),
	    SQL_BYTES(o->pay_to.b, ADDR_LEN), SQL_DEC(o->amount_dec), SQL_I64(o->expires_at), SQL_TEXT(rl),
	    SQL_TEXT(stamp), SQL_I64(n->created_at));
	rc = q->bad ? -1 : 0;
out:
	buf_release(&lt);
	json_object_put(limits);
	json_object_put(uris);
	return rc;
}

/* Which roles `who` plays in the route's routed recognitions on chain_id. */
static enum db_rc
roles_of(struct db *db, uint64_t chain_id, const uint8_t route_id[32], const struct addr *who,
    unsigned *roles)
{
	char b[1024];
	struct sql q = SQL_ON(b);
	const struct sqlv c = SQL_U64(chain_id), r = SQL_BYTES(route_id, 32), a = SQL_BYTES(who->b, ADDR_LEN);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*roles = 0;
	sql_add(&q, "SELECT EXISTS(SELECT 1 FROM routed_boons WHERE chain_id = ? AND route_id = ? "
	    "AND tipper = ?), "
	    "EXISTS(SELECT 1 FROM routed_boons WHERE chain_id = ? AND route_id = ? "
	    "AND endpoint_pay_to = ? AND endpoint_usdc > 0), "
	    "EXISTS(SELECT 1 FROM routed_boons WHERE chain_id = ? AND route_id = ? "
	    "AND network_pay_to = ? AND network_usdc > 0)", c, r, a, c, r, a, c, r, a);
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL)
		for (unsigned i = 0; i < 3; i++)
			if (row[i] && strcmp(row[i], "1") == 0)
				*roles |= 1u << i;
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

/* What the upsert did, from its affected-row count and the row it left. */
static enum outcome
outcome_of(MYSQL_ROW row, const unsigned long *len, const struct routenote_pub *p,
    const struct value *note, const struct value *offer, const char *stamp, uint64_t affected)
{
	char sig[2 + 2 * 65 + 1];
	bool same;

	/* CLIENT_FOUND_ROWS: 1 inserted or left as it was, 2 updated. */
	if (affected == 2)
		return OUT_REPLACED;
	same = len[C_NOTE] == note->len && memcmp(row[C_NOTE], note->text, note->len) == 0 &&
	    len[C_OFFER] == offer->len && memcmp(row[C_OFFER], offer->text, offer->len) == 0 &&
	    strcmp(row[C_SIGNATURE], hex_encode(p->sig, p->sig_len, sig) + 2) == 0;
	if (!same)
		return OUT_STALE;
	return strcmp(row[C_STAMP], stamp) == 0 ? OUT_CREATED : OUT_UNCHANGED;
}

static enum err
fail_note(struct resp *w, const struct routenote_error *re)
{
	enum err e;

	switch (re->code) {
	case RN_DUPLICATE_KEY:
		e = ERR_DUPLICATE_KEY;
		break;
	case RN_UNKNOWN_KEY:
		e = ERR_UNKNOWN_FIELD;
		break;
	case RN_MISSING_KEY:
		e = ERR_MISSING_FIELD;
		break;
	case RN_INTERNAL:
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	default:
		e = ERR_INVALID_FIELD;
		break;
	}
	return resp_fail(w, e, routenote_input_name(re->input), "%s", re->msg);
}

static void
pub_release(void *p)
{
	routenote_release(p);
}

/* "YYYY-MM-DD HH:MM:SS.ffffff" (UTC) of ts, as DATETIME(6) stores it. */
static char *
stamp_of(const struct timespec *ts, char *out, size_t cap)
{
	struct tm tm;
	size_t n;

	out[0] = '\0';
	if (gmtime_r(&ts->tv_sec, &tm) == NULL || (n = strftime(out, cap, "%Y-%m-%d %H:%M:%S", &tm)) == 0)
		return out;
	snprintf(out + n, cap - n, ".%06ld", ts->tv_nsec / 1000);
	return out;
}

/* The upsert and the row it left, in one transaction (db_txn may run it again). */
struct upsert {
	struct req *r;
	const struct routenote_pub *p;
	char *buf;
	struct sql upsert;
	uint64_t affected;
	MYSQL_RES *res;
};

static enum db_rc
upsert_body(struct db *db, void *arg)
{
	struct upsert *u = arg;
	char b[2048];
	struct sql q = SQL_ON(b);
	enum db_rc rc;

	if (u->res) {
		mysql_free_result(u->res);
		u->res = NULL;
	}
	if ((rc = db_exec(db, &u->upsert)) != DB_OK)
		return rc;
	u->affected = (uint64_t)mysql_affected_rows(db->my);
	sql_add(&q, "SELECT " RECORD_COLUMNS " FROM route_contexts WHERE chain_id = ? AND route_id = ? "
	    "AND publisher = ?", SQL_U64(u->r->cfg->chain_id), SQL_BYTES(u->p->note.route_id, 32),
	    SQL_BYTES(u->p->signer.b, ADDR_LEN));
	return db_query(db, &q, &u->res);
}

/*
 * POST /api/v1/x402/route-contexts: verify, check participation, take the
 * signer's slot (see the top of this file). Everything it allocates hangs
 * off the request pool or is released before it returns.
 */
enum err
h_route_contexts_post(struct req *r, struct resp *w)
{
	const struct value *note = req_val(r, "noteJson"), *offer = req_val(r, "offerJson");
	const struct value *sig = req_val(r, "signature");
	struct routenote_pub *p = pool_alloc(&r->pool, sizeof(*p));
	struct routenote_error re;
	struct timespec ts;
	struct upsert u = { .r = r, .p = p };
	MYSQL_ROW row;
	unsigned long *len;
	unsigned roles = 0;
	char stamp[40], rid[67], who[ADDR_TEXT_LEN + 1];
	json_object *rec = NULL;
	enum outcome oc;
	enum db_rc rc;
	enum err e = ERR_NONE;

	if (note == NULL || offer == NULL || sig == NULL || p == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	clock_gettime(CLOCK_REALTIME, &ts);
	if (routenote_verify(note->text, note->len, offer->text, offer->len, sig->text, sig->len,
	    r->cfg->chain_id, (int64_t)ts.tv_sec, p, &re) != RN_OK)
		return fail_note(w, &re);
	if (pool_defer(&r->pool, pub_release, p) < 0) {
		routenote_release(p);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	if (strlen(p->offer.amount_dec) > AMOUNT_DIGITS_MAX)
		return resp_fail(w, ERR_INVALID_FIELD, "offerJson",
		    "offer.amountAtomic has more than %d digits, more than this service stores.",
		    AMOUNT_DIGITS_MAX);
	if ((rc = roles_of(r->db, r->cfg->chain_id, p->note.route_id, &p->signer, &roles)) != DB_OK)
		return db_fail(w, rc);
	hex_encode(p->note.route_id, 32, rid);
	if (roles == 0)
		return resp_fail(w, ERR_NOT_A_PARTICIPANT, "signature",
		    "The signer %s is not a tipper, nor a funded endpoint or network payTo, of a routed "
		    "recognition of route %s on eip155:%" PRIu64 ".",
		    addr_format(&p->signer, who), rid, r->cfg->chain_id);

	stamp_of(&ts, stamp, sizeof(stamp));
	if ((u.buf = malloc(SQL_MAX)) == NULL) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	sql_on(&u.upsert, u.buf, SQL_MAX);
	if (add_upsert(&u.upsert, p, note, offer, r->cfg->chain_id, roles, stamp) < 0) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	if ((rc = db_txn(r->db, upsert_body, &u)) != DB_OK) {
		e = db_fail(w, rc);
		goto out;
	}
	if (u.res == NULL || (row = mysql_fetch_row(u.res)) == NULL ||
	    (len = mysql_fetch_lengths(u.res)) == NULL || row[C_NOTE] == NULL || row[C_OFFER] == NULL ||
	    row[C_SIGNATURE] == NULL || row[C_STAMP] == NULL) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	oc = outcome_of(row, len, p, note, offer, stamp, u.affected);
	if (oc == OUT_STALE) {
		e = resp_fail(w, ERR_STALE_PUBLICATION, "noteJson",
		    "This wallet's current context for route %s has a note created at %s, not earlier "
		    "than this one (%" PRId64 "); sign a note with a later createdAt to replace it.",
		    rid, row[C_CREATED] ? row[C_CREATED] : "?", p->note.created_at);
		goto out;
	}
	if ((rec = record_new(row, len, r->cfg->chain_id, false)) == NULL ||
	    resp_json(w, oc == OUT_CREATED ? 201 : 200, rec) < 0)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
out:
	json_object_put(rec);
	if (u.res)
		mysql_free_result(u.res);
	free(u.buf);
	return e;
}
