/*
 * skills.h: the agent skills (docs/PROTOCOL.md, Agents: A2A and ACP), one
 * engine for the A2A message:send row (a2a.c), the ACP rows (acp.c) and
 * the /mcp tools (mcp.c). A skill validates its params with the
 * gatekeeper's field check (lib/fields.h) and answers one result object;
 * none pays, signs, sends, publishes or fetches a URL.
 *
 * Ownership: a struct skill_result owns its json objects until
 * skill_result_release.
 */
#ifndef WAYMARK_SKILLS_H
#define WAYMARK_SKILLS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "brand.h"
#include "err.h"
#include "http.h"
#include "valid.h"

#define SKILL_PREPARE BRAND_LOWER ".prepare_agent_recognition"
#define AGENT_CARD_VERSION "0.1.0"
#define A2A_PROTOCOL_VERSION "1.0"

/* The extension URIs, under the configured docs_url. */
enum skill_ext {
	EXT_RECOGNITION_V01,   /* canonical */
	EXT_RECOGNITION_V02,   /* recognition targets */
	EXT_LEGACY_V01,        /* boon-agent-payments: Stage 1 duplicates */
	EXT_LEGACY_V02,
	EXT__MAX
};

enum skill_state {
	SKILL_COMPLETED,
	SKILL_INPUT_REQUIRED,  /* a preview without the payer wallet (docs/PROTOCOL.md, Agents: A2A and ACP) */
	SKILL_REJECTED,        /* unknown skill, params refused: err, field, msg */
	SKILL_FAILED,          /* the database or the chain cannot answer; nothing found */
	SKILL__MAX
};

struct skill_result {
	enum skill_state state;
	const char *key;          /* the artifact key, e.g. "<brand>.recognitionPreview" */
	const char *legacy_key;   /* its Stage 1 name, or NULL: key is used under both URIs */
	json_object *data;        /* the answer (owned); NULL when rejected or failed */
	json_object *request;     /* prepare: the normalized agentRecognitionRequest (owned) */
	const char *request_key, *request_legacy_key;
	char text[700];           /* one paragraph for people */
	enum err err;             /* rejected or failed: the service's error */
	uint64_t retry_after_s;   /* failed because too many requests read the chain on this
	                           * host (lib/nodecap.h): the caller answers its protocol's
	                           * error with Retry-After */
	const char *field;
	char msg[256];
};

struct skill;
typedef void (*skill_fn)(struct req *r, const struct skill *s, const struct value *v,
    struct skill_result *out);

struct skill {
	const char *id;              /* canonical id */
	const char *alias;           /* deprecated alias, or NULL */
	const char *name;
	const char *description;
	const char *const *tags;     /* NULL-terminated */
	const char *example;
	const struct field *params;  /* NULL: takes no params */
	const char *row_id;          /* route handoffs: the dispatch table row's id */
	const char *tool;            /* the /mcp tool name for free skills, else NULL */
	bool needs_db;
	skill_fn run;
};

extern const struct skill skills[];
extern const size_t nskills;

/* The skill whose id or alias is id, or NULL; *alias tells which matched. */
const struct skill *skill_find(const char *id, bool *alias);

/* The skill whose /mcp tool is name, or NULL. */
const struct skill *skill_by_tool(const char *name);

/*
 * Validate params (an object, or NULL for none) against s->params and run
 * s. out is always filled; release it with skill_result_release.
 */
void skill_run(struct req *r, const struct skill *s, json_object *params, struct skill_result *out);

/* The rejected result of an unknown skill id. */
void skill_unknown(const char *id, struct skill_result *out);

void skill_result_release(struct skill_result *res);

/* The extension's path under docs_url ("/a2a/extensions/..."), or NULL; and its description. */
const char *skill_ext_path(enum skill_ext e);
extern const char *const skill_ext_descriptions[EXT__MAX];

/* The configured extension URI into out[cap]; out ("" when it does not fit). */
char *skill_ext_uri(const struct config *cfg, enum skill_ext e, char *out, size_t cap);

/* {base}/path into out[cap]; out. */
char *skill_url(const struct config *cfg, const char *path, char *out, size_t cap);

/* The fields of the recognition-suggestion request (the ACP row's fields too). */
extern const struct field suggestion_fields[];

/*
 * The suggestion for validated suggestion_fields values v (recipient
 * already checked to be agent:<N> or not): ERR_NONE with *out, or the
 * error with field and msg[cap] (the ACP row answers it as 400).
 */
enum err suggestion_build(struct req *r, const struct value *v, json_object **out,
    const char **field, char *msg, size_t cap);

/* The agent card's skills array. */
json_object *skills_card_json(void);

#endif
