/*
 * a2a.h: the A2A 1.0 HTTP+JSON wire (docs/PROTOCOL.md, Agents: A2A and
 * ACP): the parser of an untrusted SendMessageRequest (or the
 * convenience body {skillId, params}), the A2A-Version rule, and the
 * google.rpc.Status error body the A2A rows answer with. It knows no
 * skill: handlers/skills.h runs them.
 *
 * Return conventions: a2a_parse_send 0 or -1 (with *fail filled);
 * predicates bool; writers return the enum err the gatekeeper logs by.
 */
#ifndef WAYMARK_A2A_H
#define WAYMARK_A2A_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "err.h"
#include "http.h"
#include "pool.h"

#define A2A_CONTENT_TYPE "application/a2a+json"
#define A2A_TEXT_MAX 4096        /* bytes of one text part */
#define A2A_DATA_MAX 16384       /* bytes of one data part or metadata object, serialized */
#define A2A_PARTS_MAX 16
#define A2A_ID_MAX 128           /* bytes of messageId, contextId, taskId, skillId */
#define A2A_QUERY_TEXT_MAX 400   /* characters of the text that becomes a discovery query */

/* The A2A error reasons the service answers (ErrorInfo.reason). */
enum a2a_reason {
	A2A_INVALID_PARAMS,             /* 400 INVALID_ARGUMENT */
	A2A_PAYLOAD_TOO_LARGE,          /* 413 INVALID_ARGUMENT */
	A2A_CONTENT_TYPE_NOT_SUPPORTED, /* 415 for the request body; 400 for output modes */
	A2A_VERSION_NOT_SUPPORTED,      /* 400 FAILED_PRECONDITION */
	A2A_UNSUPPORTED_OPERATION,      /* 400 FAILED_PRECONDITION */
	A2A_PUSH_NOT_SUPPORTED,         /* 400 FAILED_PRECONDITION */
	A2A_NOT_FOUND,                  /* 404 NOT_FOUND */
	A2A_INTERNAL,                   /* 500 INTERNAL (503 UNAVAILABLE) */
	A2A__MAX
};

/* What a SendMessage asks, once parsed. Strings point into pool or into body. */
struct a2a_send {
	bool convenience;           /* the body was {skillId, params?} */
	const char *skill_id;       /* the skill named, NULL when none */
	json_object *params;        /* borrowed from body; NULL when none */
	const char *message_id;     /* NULL for the convenience body */
	const char *context_id;     /* NULL when absent */
	const char *text;           /* the text parts joined by "\n" (pool); "" when none */
	bool accept_json;           /* acceptedOutputModes allows application/json (or is absent) */
	bool accept_text;           /* ... text/plain */
};

struct a2a_fail {
	enum a2a_reason reason;
	const char *field;          /* borrowed, or NULL */
	char msg[256];
};

/*
 * Parse body (a strictly parsed JSON value) into out. ext_uris
 * (NULL-terminated) are the extension URIs under which message metadata
 * may carry an agentRecognitionRequest (or agentSettlementRequest),
 * prepare_skill the skill id such a request selects. -1 with *fail
 * (A2A_INVALID_PARAMS, A2A_PAYLOAD_TOO_LARGE, A2A_PUSH_NOT_SUPPORTED,
 * A2A_CONTENT_TYPE_NOT_SUPPORTED for output modes that allow neither
 * JSON nor text, A2A_INTERNAL when the pool is full).
 */
int a2a_parse_send(json_object *body, const char *const *ext_uris, const char *prepare_skill,
    struct pool *pool, struct a2a_send *out, struct a2a_fail *fail);

/* Whether an A2A-Version value (header or query; NULL or "" when absent) is served: 1.0 or 1.0.N. */
bool a2a_version_ok(const char *v);

/*
 * Write the google.rpc.Status error body for reason with the HTTP status
 * http (0: the reason's own), our error code (NULL: none), field (NULL:
 * none) and message. Content-Type application/a2a+json. Returns the enum
 * err the gatekeeper logs by (ERR_INTERNAL for 5xx, else ERR_INVALID_REQUEST).
 */
__attribute__((format(printf, 5, 6)))
enum err a2a_fail_write(struct resp *w, enum a2a_reason reason, int http, const char *field,
    const char *fmt, ...);

/*
 * Rewrite the REST error body {error, message, field?} in w (written by
 * resp_fail for e) as the A2A error body; a body that is not that shape
 * is left alone. Called by the gatekeeper for the A2A rows.
 */
void a2a_error_from_rest(struct resp *w, enum err e);

/* The A2A time form: "YYYY-MM-DDTHH:MM:SS.sssZ" of the clock now, into out[cap]; out. */
char *a2a_timestamp(char *out, size_t cap);

#endif
