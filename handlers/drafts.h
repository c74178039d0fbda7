/*
 * drafts.h: review drafts the service builds and never publishes
 * (docs/PROTOCOL.md, Free endpoints: POST /api/v1/x402/review-draft and POST
 * /api/v1/x402/review-prepare).
 * The MCP tools boon_draft_review and boon_prepare_review (mcp.c) build
 * the same objects through the same functions.
 *
 * Both drafts are deterministic: the same input gives a byte-identical
 * object. Neither is stored, signed, sent or published, and neither is a
 * claim that the route was used.
 *
 * review-draft: the caller's observation (1..2000 characters) becomes one
 * paragraph: every run of whitespace (ECMAScript's WhiteSpace and
 * LineTerminator set, the one String.prototype.trim uses) is collapsed to
 * one space, the ends are trimmed, the fixed frame DRAFT_FRAME is put in
 * front, and the result is cut at a character boundary (preferring a word
 * boundary) with a trailing "…" when it would exceed DRAFT_TEXT_MAX bytes.
 * The observation may contain TAB, LF and CR; any other C0 control, DEL,
 * a C1 control or a bidi embedding/override/isolate (U+202A..U+202E,
 * U+2066..U+2069) makes it invalid: those are refused, not removed,
 * because this is not a sanitizer of untrusted text.
 *
 * review-prepare: a fixed technical sentence chosen from the caller's
 * facts (outcome, schemaCheck). request_failed with schemaCheck passed or
 * failed is inconsistent: there was no response to check.
 *
 * Every text produced passes draft_text_ok, the review text rules of the
 * x402 review policy (docs/PROTOCOL.md, Review text).
 *
 * Return conventions: builders return enum draft_err (DRAFT_OK is 0) with
 * a one-sentence reason for the caller's 400; draft_text_ok is a
 * predicate. Objects returned through *out belong to the caller (put them
 * with json_object_put).
 */
#ifndef WAYMARK_DRAFTS_H
#define WAYMARK_DRAFTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define DRAFT_OBSERVATION_MAX 2000 /* characters (Unicode scalar values) */
#define DRAFT_TEXT_MAX 1000        /* UTF-8 bytes of a review text */
#define DRAFT_FRAME "Observation (not a claim of use): "
#define DRAFT_VERSION "1"          /* version member of both draft objects */

enum draft_err {
	DRAFT_OK = 0,
	DRAFT_E_LENGTH,        /* observation not 1..2000 characters */
	DRAFT_E_UTF8,          /* observation not well-formed UTF-8 */
	DRAFT_E_CONTROL,       /* a control or bidi character other than TAB, LF, CR */
	DRAFT_E_BLANK,         /* observation holds nothing but whitespace */
	DRAFT_E_FACT,          /* outcome or schemaCheck out of range */
	DRAFT_E_INCONSISTENT,  /* request_failed with schemaCheck passed or failed */
	DRAFT_E_NOMEM,         /* out of memory */
	DRAFT__MAX
};

/* Facts of review-prepare; the enum values index the name lists below. */
enum draft_outcome {
	DRAFT_RESPONSE_RECEIVED,
	DRAFT_REQUEST_FAILED,
	DRAFT_OUTCOME__MAX
};

enum draft_check {
	DRAFT_CHECK_PASSED,
	DRAFT_CHECK_FAILED,
	DRAFT_CHECK_NOT_CHECKED,
	DRAFT_CHECK__MAX
};

/* Wire names, NULL-terminated, so they serve as VT_CHOICE lists. */
extern const char *const draft_outcome_names[DRAFT_OUTCOME__MAX + 1];
extern const char *const draft_check_names[DRAFT_CHECK__MAX + 1];

/* The request field an error concerns ("observation", "schemaCheck", ...). */
const char *draft_err_field(enum draft_err e);

/*
 * True when s[0..len) passes the review text rules of every review lane
 * (review_text_check, lib/review.h) and is at most DRAFT_TEXT_MAX bytes.
 */
bool draft_text_ok(const char *s, size_t len);

/*
 * The review-draft text for the observation obs[0..len) into out[cap]
 * (cap > DRAFT_TEXT_MAX), NUL-terminated, its length in *outlen and
 * whether it was cut in *truncated. On an invalid observation returns the
 * error with a one-sentence reason in msg[msgcap] naming the field.
 */
enum draft_err draft_review_text(const char *obs, size_t len, char *out, size_t cap,
    size_t *outlen, bool *truncated, char *msg, size_t msgcap);

/*
 * The review-draft object for route_id and the observation (see above):
 * {version, routeId, draft, published, useClaim, sanitized, reviewText,
 * reviewTextBytes, truncated, interpretation}. DRAFT_OK and *out, or an
 * error with msg filled.
 */
enum draft_err draft_review(const uint8_t route_id[32], const char *obs, size_t len,
    json_object **out, char *msg, size_t msgcap);

/* The fixed review-prepare text for consistent facts, or NULL. */
const char *draft_prepare_text(enum draft_outcome outcome, enum draft_check check);

/*
 * The review-prepare object: {version, routeId, facts, draft, published,
 * proofOfUse, proofOfQuality, reviewText, reviewTextBytes,
 * interpretation}. DRAFT_OK and *out, or DRAFT_E_FACT/DRAFT_E_INCONSISTENT
 * with msg filled.
 */
enum draft_err draft_prepare(const uint8_t route_id[32], enum draft_outcome outcome,
    enum draft_check check, json_object **out, char *msg, size_t msgcap);

#endif
