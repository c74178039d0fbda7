/*
 * facilitator.h: the client of an x402 facilitator (docs/PROTOCOL.md,
 * Facilitator): POST {facilitator_url}/verify and /settle with
 * {x402Version: 2, paymentPayload (as received), paymentRequirements},
 * over libcurl, with the configured timeout and an optional
 * Authorization header (facilitator_auth_header, a secret). Each thread
 * keeps one curl handle, so its connection to the facilitator stays open
 * between calls (and a TLS session is reused); tls_ca_file, when set, is
 * the CA bundle that https URLs are checked against (from memory when the
 * program loaded it at its start: lib/cabundle.h).
 *
 * A reply that is JSON carrying isValid (verify) or success (settle) is an
 * answer, whatever its HTTP status (CDP answers 400 for invalid payments);
 * anything else (no connection, timeout, another body) is FAC_UNAVAILABLE.
 * Nothing here logs: err[] is for the operator's log only and never holds
 * the payload or the auth header.
 *
 * Return conventions: enum fac_rc (FAC_OK is 0).
 */
#ifndef WAYMARK_FACILITATOR_H
#define WAYMARK_FACILITATOR_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "config.h"

#define FAC_REPLY_MAX (256 * 1024)
#define FAC_REASON_MAX 96

enum fac_rc {
	FAC_OK = 0,       /* valid (verify) or settled (settle) */
	FAC_REFUSED,      /* the facilitator said invalid / not settled; see reason */
	FAC_UNAVAILABLE,  /* unreachable, timed out, or not a facilitator reply */
};

struct fac_result {
	char reason[FAC_REASON_MAX];   /* invalidReason / errorReason code, "" when none */
	json_object *reply;            /* the parsed reply (owned), NULL when unavailable */
	char err[256];                 /* operator log line for FAC_UNAVAILABLE */
};

/*
 * POST /verify (settle false) or /settle (settle true) for payload and
 * requirements (both stay the caller's). *res is filled either way;
 * release it with fac_result_release.
 */
enum fac_rc facilitator_call(const struct config *cfg, bool settle, json_object *payload,
    json_object *requirements, struct fac_result *res);

/* Release what facilitator_call stored. */
void fac_result_release(struct fac_result *res);

/* Close the calling thread's facilitator connection, if any (thread exit). */
void facilitator_thread_release(void);

#endif
