/*
 * score.c: POST /api/v1/score (docs/PROTOCOL.md, Paid reads), paid. The
 * handler gathers the
 * inputs and lib/score.h computes the suggestion (the formula is there and
 * in INSTALL "Score policy"): waymark's own deterministic, conservative
 * policy, labelled boon.recognition-score/v2 for compatibility and owned
 * by waymark, since the deployed formula is not public.
 *
 * Body {recipient, note?, serviceCostUsdc?}:
 *   recipient        a canonical handle (github:<name>, x:<name>,
 *                    agent:<N>; canonicalized), an EVM address (0x + 40
 *                    hex, lowercase or EIP-55), or a route ID (0x + 64 hex)
 *   note             the note a recognition would carry, at most 280 bytes
 *                    (BoonV3's MAX_NOTE_LEN); cost and artifact markers
 *   serviceCostUsdc  decimal USDC, at most 6 decimals and 12 integer
 *                    digits; when given, the note is not read for a cost
 * Every rule is checked before payment (h_score_check).
 *
 * History (counts only): an address counts the indexed routed
 * recognitions that funded it as endpoint or network payTo and their
 * distinct tippers; a route ID the route's recognitions and distinct
 * tippers; a handle the indexed tips it received (private ones included)
 * and their distinct tippers (handle_tip_stats), and the points it
 * received (boon.points/v1, handlers/tippoints.h), once the indexer follows
 * the tips contract (before that, source not_indexed and no component).
 *
 * 200 {version "1", policyVersion, policyOwner, policyNote, formulaVersion,
 *      recipient {kind handle|address|route, value}, suggestedAmountUsdc,
 *      suggestedAmountUsdcBaseUnits, usdcDecimals 6,
 *      serviceCost {source serviceCostUsdc|note|none, amountUsdc|null},
 *      history {source, recognitions, distinctRecognizers},
 *      components [{name, input|null, effect, value}], executesTransaction
 *      false, interpretation}
 * where each component's value is its signed change in USDC and the
 * values add up to suggestedAmountUsdc. Same input and same indexed data:
 * the same answer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts.h"
#include "config.h"
#include "db.h"
#include "dbfail.h"
#include "handle.h"
#include "hex.h"
#include "score.h"
#include "sql.h"
#include "table.h"
#include "tippoints.h"
#include "banned.h"

#define SCORE_VERSION "1"
#define SCORE_NOTE_MAX 280   /* bytes, BoonV3 MAX_NOTE_LEN */

enum recipient_kind { RCPT_HANDLE, RCPT_ADDRESS, RCPT_ROUTE, RCPT__MAX };

static const char *const recipient_kind_names[RCPT__MAX] = {
	[RCPT_HANDLE] = "handle", [RCPT_ADDRESS] = "address", [RCPT_ROUTE] = "route",
};

struct recipient {
	enum recipient_kind kind;
	struct handle h;
	struct addr a;
	uint8_t route[32];
};

/* Classify and parse the recipient text; 0 or -1. */
static int
recipient_parse(const char *s, size_t len, struct recipient *out)
{
	memset(out, 0, sizeof(*out));
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (len == 2 + 40 && addr_parse(s, len, &out->a) == 0) {
			out->kind = RCPT_ADDRESS;
			return 0;
		}
		if (len == 2 + 64 && hex_decode_fixed(s, len, out->route, 32, true) == 0) {
			out->kind = RCPT_ROUTE;
			return 0;
		}
		return -1;
	}
	if (handle_parse(s, len, &out->h) != HANDLE_OK)
		return -1;
	out->kind = RCPT_HANDLE;
	return 0;
}

enum err
h_score_check(struct req *r, struct resp *w)
{
	const struct value *rv = req_val(r, "recipient"), *nv = req_val(r, "note");
	const struct value *cv = req_val(r, "serviceCostUsdc");
	struct recipient rc;
	uint64_t v;

	if (recipient_parse(rv->text, rv->len, &rc) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "recipient",
		    "Field recipient must be a canonical handle (github:<name>, x:<name> or agent:<N>), "
		    "an address (0x and 40 hex digits, lowercase or EIP-55) or a route ID (0x and 64 "
		    "hex digits).");
	if (nv != NULL && nv->len > SCORE_NOTE_MAX)
		return resp_fail(w, ERR_INVALID_FIELD, "note",
		    "Field note must be at most %d bytes of UTF-8 (a recognition note's limit).",
		    SCORE_NOTE_MAX);
	if (cv != NULL && score_usdc_parse(cv->text, cv->len, &v) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "serviceCostUsdc",
		    "Field serviceCostUsdc must be a USDC amount with at most 6 decimals and %d integer "
		    "digits, as a string.", SCORE_USDC_INT_MAX);
	return ERR_NONE;
}

/* The recipient's indexed history (counts) into *in; DB_OK. */
static enum db_rc
history_load(struct req *r, const struct recipient *rc, struct score_input *in, const char **source)
{
	char b[768];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc e;

	*source = "not_indexed";
	if (rc->kind == RCPT_HANDLE) {
		const char *resolution;
		struct tippoints tp;
		uint8_t hh[32];

		if ((e = accounts_resolution(r->db, r->cfg, &resolution)) != DB_OK)
			return e;
		if (strcmp(resolution, "complete") != 0)
			return DB_OK;
		handle_hash(&rc->h, hh);
		/* A handle without tips has no row: counts of zero. */
		sql_add(&q, "SELECT COALESCE(SUM(tips_received), 0), COALESCE(SUM(tipper_count), 0) "
		    "FROM handle_tip_stats WHERE chain_id = ? AND handle_hash = ?",
		    SQL_U64(r->cfg->chain_id), SQL_BYTES(hh, 32));
		*source = "tips_received";
		if ((e = tippoints_handle(r->db, r->cfg->chain_id, rc->h.text, hh, &tp)) != DB_OK)
			return e;
		in->has_points = true;
		in->points = tp.received.points;
	} else if (rc->kind == RCPT_ADDRESS) {
		sql_add(&q, "SELECT COUNT(*), COUNT(DISTINCT tipper) FROM routed_boons WHERE "
		    "chain_id = ? AND ((endpoint_pay_to = ? AND endpoint_usdc > 0) OR "
		    "(network_pay_to = ? AND network_usdc > 0))", SQL_U64(r->cfg->chain_id),
		    SQL_BYTES(rc->a.b, ADDR_LEN), SQL_BYTES(rc->a.b, ADDR_LEN));
		*source = "routed_recognitions_received";
	} else {
		sql_add(&q, "SELECT COALESCE(SUM(recognition_count), 0), "
		    "COALESCE(SUM(tipper_count), 0) FROM route_recognition_stats WHERE chain_id = ? "
		    "AND route_id = ?", SQL_U64(r->cfg->chain_id), SQL_BYTES(rc->route, 32));
		*source = "route_recognitions";
	}
	if ((e = db_query(r->db, &q, &res)) != DB_OK)
		return e;
	in->has_history = true;
	if (res && (row = mysql_fetch_row(res)) != NULL &&
	    (e = db_row_u64_or(row, 0, "recognitions", 0, &in->recognitions)) == DB_OK)
		e = db_row_u64_or(row, 1, "recognizers", 0, &in->recognizers);
	if (res)
		mysql_free_result(res);
	return e;
}

static json_object *
recipient_new(const struct recipient *rc)
{
	json_object *o = json_object_new_object();
	char t[2 + 64 + 1];

	json_object_object_add(o, "kind", json_object_new_string(recipient_kind_names[rc->kind]));
	if (rc->kind == RCPT_HANDLE)
		json_object_object_add(o, "value", json_object_new_string(rc->h.text));
	else if (rc->kind == RCPT_ADDRESS)
		json_object_object_add(o, "value", json_object_new_string(addr_format(&rc->a, t)));
	else
		json_object_object_add(o, "value", json_object_new_string(hex_encode(rc->route, 32, t)));
	return o;
}

enum err
h_score_post(struct req *r, struct resp *w)
{
	const struct value *rv = req_val(r, "recipient"), *nv = req_val(r, "note");
	const struct value *cv = req_val(r, "serviceCostUsdc");
	const char *note = nv ? nv->text : "", *hsrc;
	size_t nlen = nv ? nv->len : 0;
	struct recipient rc;
	struct score_input in;
	struct score_result res;
	json_object *o, *sc, *hist, *comps;
	char a[SCORE_USDC_TEXT];
	enum db_rc e;

	if (recipient_parse(rv->text, rv->len, &rc) < 0)  /* checked before payment */
		return resp_fail(w, ERR_INVALID_FIELD, "recipient", NULL);
	memset(&in, 0, sizeof(in));
	if (cv != NULL) {
		if (score_usdc_parse(cv->text, cv->len, &in.cost) < 0)
			return resp_fail(w, ERR_INVALID_FIELD, "serviceCostUsdc", NULL);
		in.cost_source = SCORE_COST_FIELD;
	} else if (score_note_cost(note, nlen, &in.cost) == 0) {
		in.cost_source = SCORE_COST_NOTE;
	}
	in.nmarkers = score_note_markers(note, nlen, in.markers, SCORE_MARKERS_MAX);
	if ((e = history_load(r, &rc, &in, &hsrc)) != DB_OK)
		return db_fail(w, e);
	score_compute(&in, &res);

	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(SCORE_VERSION));
	json_object_object_add(o, "policyVersion", json_object_new_string(SCORE_POLICY));
	json_object_object_add(o, "policyOwner", json_object_new_string(SCORE_POLICY_OWNER));
	json_object_object_add(o, "policyNote", json_object_new_string(
	    "waymark's own deterministic, conservative policy under the " SCORE_POLICY " label; the "
	    "deployed service's formula is not public, so this is not its score. The formula is "
	    "documented in INSTALL (Score policy)."));
	json_object_object_add(o, "formulaVersion", json_object_new_string(SCORE_FORMULA));
	json_object_object_add(o, "recipient", recipient_new(&rc));
	json_object_object_add(o, "suggestedAmountUsdc",
	    json_object_new_string(score_usdc_format((int64_t)res.amount, a, sizeof(a))));
	snprintf(a, sizeof(a), "%" PRIu64, res.amount);
	json_object_object_add(o, "suggestedAmountUsdcBaseUnits", json_object_new_string(a));
	json_object_object_add(o, "usdcDecimals", json_object_new_int(6));
	sc = json_object_new_object();
	json_object_object_add(sc, "source", json_object_new_string(
	    in.cost_source == SCORE_COST_FIELD ? "serviceCostUsdc" :
	    in.cost_source == SCORE_COST_NOTE ? "note" : "none"));
	json_object_object_add(sc, "amountUsdc", in.cost_source == SCORE_COST_NONE ? NULL :
	    json_object_new_string(score_usdc_format((int64_t)in.cost, a, sizeof(a))));
	json_object_object_add(o, "serviceCost", sc);
	hist = json_object_new_object();
	json_object_object_add(hist, "source", json_object_new_string(hsrc));
	json_object_object_add(hist, "recognitions", in.has_history ?
	    json_object_new_int64((int64_t)in.recognitions) : NULL);
	json_object_object_add(hist, "distinctRecognizers", in.has_history ?
	    json_object_new_int64((int64_t)in.recognizers) : NULL);
	json_object_object_add(o, "history", hist);
	comps = json_object_new_array();
	for (size_t i = 0; i < res.ncomponents; i++) {
		const struct score_component *c = &res.components[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "name", json_object_new_string(c->name));
		json_object_object_add(j, "input", c->input[0] ? json_object_new_string(c->input) : NULL);
		json_object_object_add(j, "effect", json_object_new_string(c->effect));
		json_object_object_add(j, "value",
		    json_object_new_string(score_usdc_format(c->delta, a, sizeof(a))));
		json_object_array_add(comps, j);
	}
	json_object_object_add(o, "components", comps);
	json_object_object_add(o, "executesTransaction", json_object_new_boolean(0));
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "A suggested size for an optional recognition, not a quality score: it ranks nothing, "
	    "proves nothing about the service, and pays nothing. Sending a recognition is a "
	    "separate act that needs its own approval."));
	{
		enum err out = resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;

		json_object_put(o);
		return out;
	}
}
