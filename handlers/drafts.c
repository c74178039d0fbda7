/*
 * drafts.c: POST /api/v1/x402/review-draft and POST
 * /api/v1/x402/review-prepare (docs/PROTOCOL.md, Free endpoints), and the
 * draft builders the MCP
 * tools share (drafts.h says what a draft is and is not).
 *
 * The gatekeeper has already checked the rows' fields (routeId is 0x + 64
 * hex, observation 1..2000 characters, outcome and schemaCheck from their
 * lists, nothing else in the body); the builders check the rest: the
 * observation's characters and the consistency of the facts.
 */
#include <stdio.h>
#include <string.h>

#include "drafts.h"
#include "hex.h"
#include "review.h"
#include "table.h"
#include "utf8.h"
#include "banned.h"

#define ELLIPSIS "\xe2\x80\xa6"       /* U+2026, three bytes */
#define WORD_CUT_WINDOW 80            /* bytes a cut may move back to a space */

const char *const draft_outcome_names[DRAFT_OUTCOME__MAX + 1] = {
	[DRAFT_RESPONSE_RECEIVED] = "response_received",
	[DRAFT_REQUEST_FAILED] = "request_failed",
	[DRAFT_OUTCOME__MAX] = NULL,
};

const char *const draft_check_names[DRAFT_CHECK__MAX + 1] = {
	[DRAFT_CHECK_PASSED] = "passed",
	[DRAFT_CHECK_FAILED] = "failed",
	[DRAFT_CHECK_NOT_CHECKED] = "not_checked",
	[DRAFT_CHECK__MAX] = NULL,
};

/*
 * The fixed review-prepare sentences, one per consistent pair of facts;
 * NULL marks the inconsistent pairs. They describe what the caller
 * reported, in the third person, and claim nothing the service saw.
 */
static const char *const prepare_texts[DRAFT_OUTCOME__MAX][DRAFT_CHECK__MAX] = {
	[DRAFT_RESPONSE_RECEIVED] = {
		[DRAFT_CHECK_PASSED] = "Technical observation: a request to this route received a "
		    "response, and the response passed the reporter's schema check.",
		[DRAFT_CHECK_FAILED] = "Technical observation: a request to this route received a "
		    "response, and the response failed the reporter's schema check.",
		[DRAFT_CHECK_NOT_CHECKED] = "Technical observation: a request to this route received a "
		    "response; the response was not checked against a schema.",
	},
	[DRAFT_REQUEST_FAILED] = {
		[DRAFT_CHECK_PASSED] = NULL,
		[DRAFT_CHECK_FAILED] = NULL,
		[DRAFT_CHECK_NOT_CHECKED] = "Technical observation: a request to this route failed "
		    "before any response was received, so no schema check was possible.",
	},
};

static const char *const field_of[DRAFT__MAX] = {
	[DRAFT_OK] = NULL,
	[DRAFT_E_LENGTH] = "observation",
	[DRAFT_E_UTF8] = "observation",
	[DRAFT_E_CONTROL] = "observation",
	[DRAFT_E_BLANK] = "observation",
	[DRAFT_E_FACT] = NULL,
	[DRAFT_E_INCONSISTENT] = "schemaCheck",
	[DRAFT_E_NOMEM] = NULL,
};

const char *
draft_err_field(enum draft_err e)
{
	return (unsigned)e < DRAFT__MAX ? field_of[e] : NULL;
}

/* ECMAScript WhiteSpace and LineTerminator: what String.prototype.trim removes. */
static bool
is_space(uint32_t c)
{
	switch (c) {
	case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x20: case 0xa0:
	case 0x1680: case 0x2028: case 0x2029: case 0x202f: case 0x205f: case 0x3000:
	case 0xfeff:
		return true;
	default:
		return c >= 0x2000 && c <= 0x200a;
	}
}

/* Characters the review text rules forbid (controls, DEL, C1, bidi). */
static bool
is_forbidden(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069);
}

bool
draft_text_ok(const char *s, size_t len)
{
	char why[160];

	return s != NULL && len <= DRAFT_TEXT_MAX && review_text_check(s, len, why, sizeof(why)) == 0;
}

enum draft_err
draft_review_text(const char *obs, size_t len, char *out, size_t cap, size_t *outlen,
    bool *truncated, char *msg, size_t msgcap)
{
	/* The collapsed observation is never longer than the input. */
	char norm[DRAFT_OBSERVATION_MAX * 4 + 1];
	const unsigned char *p = (const unsigned char *)obs;
	const size_t frame = sizeof(DRAFT_FRAME) - 1;
	size_t i = 0, n = 0, nchars = 0, keep;
	bool gap = false;
	long chars = utf8_length(obs, len);

	*outlen = 0;
	*truncated = false;
	if (cap <= DRAFT_TEXT_MAX) {
		snprintf(msg, msgcap, "The draft buffer is too small.");
		return DRAFT_E_NOMEM;
	}
	if (chars < 0) {
		snprintf(msg, msgcap, "Field observation must be valid UTF-8.");
		return DRAFT_E_UTF8;
	}
	if (chars < 1 || chars > DRAFT_OBSERVATION_MAX || len >= sizeof(norm)) {
		snprintf(msg, msgcap, "Field observation must be 1 to %d characters long.",
		    DRAFT_OBSERVATION_MAX);
		return DRAFT_E_LENGTH;
	}
	while (i < len) {
		uint32_t c;
		int k = utf8_decode(p + i, len - i, &c);

		nchars++;
		if (k < 0) {
			snprintf(msg, msgcap, "Field observation must be valid UTF-8.");
			return DRAFT_E_UTF8;
		}
		if (is_forbidden(c) && c != 0x09 && c != 0x0a && c != 0x0d) {
			snprintf(msg, msgcap, "Field observation contains U+%04X at character %zu: "
			    "control and bidirectional formatting characters are refused (tab, line "
			    "feed and carriage return are allowed).", (unsigned)c, nchars);
			return DRAFT_E_CONTROL;
		}
		if (is_space(c)) {
			gap = n > 0;
		} else {
			if (gap)
				norm[n++] = ' ';
			gap = false;
			memcpy(norm + n, p + i, (size_t)k);
			n += (size_t)k;
		}
		i += (size_t)k;
	}
	if (n == 0) {
		snprintf(msg, msgcap, "Field observation must contain something other than whitespace.");
		return DRAFT_E_BLANK;
	}
	keep = n;
	if (frame + n > DRAFT_TEXT_MAX) {
		size_t budget = DRAFT_TEXT_MAX - frame - (sizeof(ELLIPSIS) - 1);

		/* A character boundary at or below the budget, then a word boundary near it. */
		keep = budget;
		while (keep > 0 && ((unsigned char)norm[keep] & 0xc0) == 0x80)
			keep--;
		for (size_t k = keep; norm[keep] != ' ' && k > 0 && keep - k < WORD_CUT_WINDOW; k--)
			if (norm[k - 1] == ' ') {
				keep = k - 1;
				break;
			}
		while (keep > 0 && norm[keep - 1] == ' ')
			keep--;
		*truncated = true;
	}
	memcpy(out, DRAFT_FRAME, frame);
	memcpy(out + frame, norm, keep);
	*outlen = frame + keep;
	if (*truncated) {
		memcpy(out + *outlen, ELLIPSIS, sizeof(ELLIPSIS) - 1);
		*outlen += sizeof(ELLIPSIS) - 1;
	}
	out[*outlen] = '\0';
	if (!draft_text_ok(out, *outlen)) {
		/* Cannot happen for the inputs accepted above; never hand out a bad text. */
		snprintf(msg, msgcap, "Field observation could not be made into a valid review text.");
		return DRAFT_E_CONTROL;
	}
	return DRAFT_OK;
}

/* The members both drafts start with. */
static json_object *
draft_head(const uint8_t route_id[32])
{
	json_object *o = json_object_new_object();
	char hex[2 * 32 + 3];

	if (o == NULL)
		return NULL;
	json_object_object_add(o, "version", json_object_new_string(DRAFT_VERSION));
	json_object_object_add(o, "routeId", json_object_new_string(hex_encode(route_id, 32, hex)));
	json_object_object_add(o, "draft", json_object_new_boolean(1));
	json_object_object_add(o, "published", json_object_new_boolean(0));
	return o;
}

enum draft_err
draft_review(const uint8_t route_id[32], const char *obs, size_t len, json_object **out,
    char *msg, size_t msgcap)
{
	char text[DRAFT_TEXT_MAX + 1];
	size_t tlen;
	bool cut;
	enum draft_err e;
	json_object *o;

	*out = NULL;
	if ((e = draft_review_text(obs, len, text, sizeof(text), &tlen, &cut, msg, msgcap)) != DRAFT_OK)
		return e;
	if ((o = draft_head(route_id)) == NULL) {
		snprintf(msg, msgcap, "Out of memory.");
		return DRAFT_E_NOMEM;
	}
	json_object_object_add(o, "useClaim", json_object_new_boolean(0));
	json_object_object_add(o, "sanitized", json_object_new_boolean(0));
	json_object_object_add(o, "reviewText", json_object_new_string_len(text, (int)tlen));
	json_object_object_add(o, "reviewTextBytes", json_object_new_int64((int64_t)tlen));
	json_object_object_add(o, "truncated", json_object_new_boolean(cut));
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "A draft built deterministically by this service from the observation you sent: "
	    "whitespace collapsed into one paragraph, framed as an observation, and cut to at most "
	    "1000 UTF-8 bytes. It is not published, signed or stored, and it is not a claim that the "
	    "route was used. It is not a sanitizer of untrusted text: the observation is copied as "
	    "data, so read the draft before anyone signs or publishes it. Publishing a review is a "
	    "separate act that needs its own approval."));
	*out = o;
	return DRAFT_OK;
}

const char *
draft_prepare_text(enum draft_outcome outcome, enum draft_check check)
{
	if ((unsigned)outcome >= DRAFT_OUTCOME__MAX || (unsigned)check >= DRAFT_CHECK__MAX)
		return NULL;
	return prepare_texts[outcome][check];
}

enum draft_err
draft_prepare(const uint8_t route_id[32], enum draft_outcome outcome, enum draft_check check,
    json_object **out, char *msg, size_t msgcap)
{
	const char *text;
	json_object *o, *facts;

	*out = NULL;
	if ((unsigned)outcome >= DRAFT_OUTCOME__MAX || (unsigned)check >= DRAFT_CHECK__MAX) {
		snprintf(msg, msgcap, "Fields outcome and schemaCheck must be one of their listed "
		    "values.");
		return DRAFT_E_FACT;
	}
	if ((text = draft_prepare_text(outcome, check)) == NULL) {
		snprintf(msg, msgcap, "Field schemaCheck must be not_checked when outcome is %s: "
		    "there was no response to check.", draft_outcome_names[outcome]);
		return DRAFT_E_INCONSISTENT;
	}
	if ((o = draft_head(route_id)) == NULL) {
		snprintf(msg, msgcap, "Out of memory.");
		return DRAFT_E_NOMEM;
	}
	facts = json_object_new_object();
	json_object_object_add(facts, "outcome", json_object_new_string(draft_outcome_names[outcome]));
	json_object_object_add(facts, "schemaCheck", json_object_new_string(draft_check_names[check]));
	json_object_object_add(facts, "source", json_object_new_string("caller_supplied"));
	json_object_object_add(facts, "verified", json_object_new_boolean(0));
	json_object_object_add(o, "facts", facts);
	json_object_object_add(o, "proofOfUse", json_object_new_boolean(0));
	json_object_object_add(o, "proofOfQuality", json_object_new_boolean(0));
	json_object_object_add(o, "reviewText", json_object_new_string(text));
	json_object_object_add(o, "reviewTextBytes", json_object_new_int64((int64_t)strlen(text)));
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "A fixed technical draft chosen from the facts you supplied. The service did not verify "
	    "them: the draft is not proof that the route was used, nor of the quality of any "
	    "response, and it is not published, signed or stored. Publishing a review is a separate "
	    "act that needs its own approval."));
	*out = o;
	return DRAFT_OK;
}

/* Answer a builder's result: 200 with the draft, or the central 400. */
static enum err
reply(struct resp *w, enum draft_err de, json_object *o, const char *msg)
{
	int rc;

	if (de == DRAFT_E_NOMEM)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (de != DRAFT_OK)
		return resp_fail(w, ERR_INVALID_FIELD, draft_err_field(de), "%s", msg);
	rc = resp_json(w, 200, o);
	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

/* POST /api/v1/x402/review-draft: 200 with the draft, or the 400 naming the field. */
enum err
h_review_draft_post(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId"), *obs = req_val(r, "observation");
	json_object *o = NULL;
	char msg[256];
	enum draft_err de;

	if (rid == NULL || obs == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	de = draft_review(rid->b32, obs->text, obs->len, &o, msg, sizeof(msg));
	return reply(w, de, o, msg);
}

/* POST /api/v1/x402/review-prepare: 200 with the fixed draft, or 400 (inconsistent facts). */
enum err
h_review_prepare_post(struct req *r, struct resp *w)
{
	const struct value *rid = req_val(r, "routeId"), *oc = req_val(r, "outcome"),
	    *sc = req_val(r, "schemaCheck");
	json_object *o = NULL;
	char msg[256];
	enum draft_err de;

	if (rid == NULL || oc == NULL || sc == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	de = draft_prepare(rid->b32, (enum draft_outcome)oc->choice, (enum draft_check)sc->choice,
	    &o, msg, sizeof(msg));
	return reply(w, de, o, msg);
}
