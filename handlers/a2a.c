/*
 * a2a.c: the A2A surface (docs/PROTOCOL.md, Agents: A2A and ACP): the
 * Agent Card, the interface descriptor, POST /a2a/message:send (the skills
 * are skills.h) and the operations this agent does not support. The A2A
 * rows answer errors as google.rpc.Status (lib/a2a.h).
 */
#include <stdio.h>
#include <string.h>

#include "a2a.h"
#include "brand.h"
#include "config.h"
#include "discovery.h"
#include "json.h"
#include "profiles.h"
#include "sha256.h"
#include "hex.h"
#include "skills.h"
#include "table.h"
#include "banned.h"

#define CARD_NAME BRAND_CAPITAL " Agent Recognition"
#define CARD_ORG "waymark"

/* A JSON answer with a content type of our choosing. */
static enum err
answer(struct resp *w, int status, json_object *o, const char *ctype)
{
	enum err e = ERR_NONE;

	if (o == NULL || resp_json(w, status, o) < 0)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
	else
		w->content_type = ctype;
	json_object_put(o);
	return e;
}

static json_object *
str(const char *s)
{
	return json_object_new_string(s);
}

/* ------------------------------------------------------------------ the card */

static json_object *
card_json(const struct config *cfg)
{
	json_object *o = json_object_new_object(), *prov = json_object_new_object(),
	    *ifs = json_object_new_array(), *itf = json_object_new_object(),
	    *caps = json_object_new_object(), *exts = json_object_new_array(),
	    *in = json_object_new_array(), *outm = json_object_new_array();
	char url[CONFIG_STR_MAX + 64], uri[CONFIG_STR_MAX + 80];

	skill_url(cfg, "/a2a", url, sizeof(url));
	json_object_object_add(o, "protocolVersion", str(A2A_PROTOCOL_VERSION));
	json_object_object_add(o, "name", str(CARD_NAME));
	json_object_object_add(o, "description", str("Post-service recognition for agents: "
	    "suggestions, recognition previews with the ERC-8004 payout wallet read from the chain, "
	    "recognition lookups and agent reputation, plus links to the paid graph, score and review "
	    "routes. Read-only: it never signs, pays, sends or publishes; every recognition needs a "
	    "person's approval and a payer client."));
	json_object_object_add(o, "version", str(AGENT_CARD_VERSION));
	json_object_object_add(o, "url", str(url));
	json_object_object_add(prov, "organization", str(CARD_ORG));
	json_object_object_add(prov, "url", str(cfg->app_url));
	json_object_object_add(o, "provider", prov);
	json_object_object_add(itf, "url", str(url));
	json_object_object_add(itf, "protocolBinding", str("HTTP+JSON"));
	json_object_object_add(itf, "protocolVersion", str(A2A_PROTOCOL_VERSION));
	json_object_array_add(ifs, itf);
	json_object_object_add(o, "supportedInterfaces", ifs);
	snprintf(uri, sizeof(uri), "%s/a2a", cfg->docs_url);
	json_object_object_add(o, "documentationUrl", str(uri));
	json_object_object_add(caps, "streaming", json_object_new_boolean(0));
	json_object_object_add(caps, "pushNotifications", json_object_new_boolean(0));
	for (int e = 0; e < EXT__MAX; e++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "uri", str(skill_ext_uri(cfg, (enum skill_ext)e, uri,
		    sizeof(uri))));
		json_object_object_add(x, "description", str(skill_ext_descriptions[e]));
		json_object_object_add(x, "required", json_object_new_boolean(0));
		json_object_array_add(exts, x);
	}
	json_object_object_add(caps, "extensions", exts);
	json_object_object_add(o, "capabilities", caps);
	json_object_array_add(in, str("application/json"));
	json_object_array_add(in, str("text/plain"));
	json_object_array_add(outm, str("application/json"));
	json_object_array_add(outm, str("text/plain"));
	json_object_object_add(o, "defaultInputModes", in);
	json_object_object_add(o, "defaultOutputModes", outm);
	json_object_object_add(o, "skills", skills_card_json());
	return o;
}

enum err
h_agent_card_get(struct req *r, struct resp *w)
{
	json_object *o = card_json(r->cfg);
	uint8_t d[32];
	char etag[72], hx[67];
	size_t len = 0;
	const char *text;
	enum err e;

	if (o == NULL || (text = json_dump(o, &len)) == NULL) {
		json_object_put(o);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	sha256((const uint8_t *)text, len, d);
	hex_encode(d, 8, hx);
	snprintf(etag, sizeof(etag), "\"%s\"", hx + 2);
	e = answer(w, 200, o, "application/json");
	/* Cacheable only when it is the card (never an error built from a latched tree). */
	if (e == ERR_NONE && !json_alloc_latched()) {
		resp_header(w, "Cache-Control", "public, max-age=300");
		resp_header(w, "ETag", etag);
	}
	return e;
}

/* ------------------------------------------------------------------ the descriptor */

static const char *const unsupported_ops[] = { "SendStreamingMessage", "GetTask", "ListTasks",
	"CancelTask", "SubscribeToTask", "CreateTaskPushNotificationConfig",
	"GetTaskPushNotificationConfig", "ListTaskPushNotificationConfig",
	"DeleteTaskPushNotificationConfig", "GetExtendedAgentCard", NULL };

enum err
h_a2a_get(struct req *r, struct resp *w)
{
	json_object *o = json_object_new_object(), *ops = json_object_new_object(),
	    *sup = json_object_new_array(), *uns = json_object_new_array(),
	    *ids = json_object_new_array(), *aliases = json_object_new_object(),
	    *exts = json_object_new_array(), *ct = json_object_new_array();
	char url[CONFIG_STR_MAX + 64], uri[CONFIG_STR_MAX + 80];

	json_object_object_add(o, "protocolVersion", str(A2A_PROTOCOL_VERSION));
	json_object_object_add(o, "protocolBinding", str("HTTP+JSON"));
	json_object_object_add(o, "url", str(skill_url(r->cfg, "/a2a", url, sizeof(url))));
	json_object_object_add(o, "agentCardUrl", str(skill_url(r->cfg,
	    "/.well-known/agent-card.json", url, sizeof(url))));
	json_object_array_add(ct, str(A2A_CONTENT_TYPE));
	json_object_array_add(ct, str("application/json"));
	json_object_object_add(o, "contentTypes", ct);
	json_object_array_add(sup, str("SendMessage"));
	for (size_t i = 0; unsupported_ops[i]; i++)
		json_object_array_add(uns, str(unsupported_ops[i]));
	json_object_object_add(ops, "supported", sup);
	json_object_object_add(ops, "unsupported", uns);
	json_object_object_add(o, "operations", ops);
	for (size_t i = 0; i < nskills; i++) {
		json_object_array_add(ids, str(skills[i].id));
		if (skills[i].alias)
			json_object_object_add(aliases, skills[i].alias, str(skills[i].id));
	}
	json_object_object_add(o, "skills", ids);
	json_object_object_add(o, "aliases", aliases);
	for (int e = 0; e < EXT__MAX; e++)
		json_object_array_add(exts, str(skill_ext_uri(r->cfg, (enum skill_ext)e, uri,
		    sizeof(uri))));
	json_object_object_add(o, "extensions", exts);
	return answer(w, 200, o, "application/json");
}

enum err
h_a2a_unsupported(struct req *r, struct resp *w)
{
	(void)r;
	return a2a_fail_write(w, A2A_UNSUPPORTED_OPERATION, 0, NULL, "This agent supports "
	    "SendMessage only: tasks are answered at once and not stored (no get, list, cancel, "
	    "subscribe or streaming, no extended card).");
}

enum err
h_a2a_push_unsupported(struct req *r, struct resp *w)
{
	(void)r;
	return a2a_fail_write(w, A2A_PUSH_NOT_SUPPORTED, 0, NULL,
	    "Push notifications are not supported by this agent.");
}

/* ------------------------------------------------------------------ message:send */

static const char *const state_names[SKILL__MAX] = {
	[SKILL_COMPLETED] = "TASK_STATE_COMPLETED",
	[SKILL_INPUT_REQUIRED] = "TASK_STATE_INPUT_REQUIRED",
	[SKILL_REJECTED] = "TASK_STATE_REJECTED",
	[SKILL_FAILED] = "TASK_STATE_FAILED",
};

static json_object *
new_uuid(void)
{
	uint8_t u[16];
	char t[37];

	if (uuid_new(u) < 0) {
		json_alloc_failed();    /* no task goes out without its id */
		return NULL;
	}
	uuid_text(u, t);
	return str(t);
}

/* A copy of o; a copy that cannot be made sets the latch (lib/json.h), so no answer lacks it. */
static json_object *
copy(json_object *o)
{
	json_object *c = NULL;

	if (o == NULL)
		return NULL;
	if (json_object_deep_copy(o, &c, NULL) != 0) {
		json_alloc_failed();
		return NULL;
	}
	return c;
}

/* One artifact: data and text parts (as accepted), the extension metadata. */
static json_object *
artifact(const struct req *r, const struct a2a_send *m, const char *id, const char *key,
    const char *legacy_key, json_object *data, const char *req_key, const char *req_legacy_key,
    json_object *request, const char *text)
{
	json_object *a = json_object_new_object(), *parts = json_object_new_array(),
	    *exts = json_object_new_array(), *meta = json_object_new_object(),
	    *canon = json_object_new_object(), *legacy = json_object_new_object();
	char uri[CONFIG_STR_MAX + 80];

	json_object_object_add(a, "artifactId", str(id));
	json_object_object_add(a, "name", str(key));
	if (m->accept_json || !m->accept_text) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "data", copy(data));
		json_object_object_add(p, "mediaType", str("application/json"));
		json_object_array_add(parts, p);
	}
	if (m->accept_text) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "text", str(text));
		json_object_object_add(p, "mediaType", str("text/plain"));
		json_object_array_add(parts, p);
	}
	json_object_object_add(a, "parts", parts);
	json_object_array_add(exts, str(skill_ext_uri(r->cfg, EXT_RECOGNITION_V01, uri, sizeof(uri))));
	json_object_array_add(exts, str(skill_ext_uri(r->cfg, EXT_LEGACY_V01, uri, sizeof(uri))));
	json_object_object_add(a, "extensions", exts);
	if (request) {
		json_object_object_add(canon, req_key, copy(request));
		json_object_object_add(legacy, req_legacy_key, copy(request));
	}
	json_object_object_add(canon, key, copy(data));
	json_object_object_add(legacy, legacy_key ? legacy_key : key, copy(data));
	json_object_object_add(meta, skill_ext_uri(r->cfg, EXT_RECOGNITION_V01, uri, sizeof(uri)),
	    canon);
	json_object_object_add(meta, skill_ext_uri(r->cfg, EXT_LEGACY_V01, uri, sizeof(uri)), legacy);
	json_object_object_add(a, "metadata", meta);
	return a;
}

static json_object *
agent_message(const char *text)
{
	json_object *m = json_object_new_object(), *parts = json_object_new_array(),
	    *p = json_object_new_object();

	json_object_object_add(m, "messageId", new_uuid());
	json_object_object_add(m, "role", str("ROLE_AGENT"));
	json_object_object_add(p, "text", str(text));
	json_object_array_add(parts, p);
	json_object_object_add(m, "parts", parts);
	return m;
}

/* The task around artifacts (taken). */
static json_object *
task_json(const struct a2a_send *m, enum skill_state st, const char *text, json_object *artifacts,
    json_object *meta)
{
	json_object *root = json_object_new_object(), *t = json_object_new_object(),
	    *status = json_object_new_object();
	char ts[40];

	json_object_object_add(t, "id", new_uuid());
	json_object_object_add(t, "contextId", m->context_id ? str(m->context_id) : new_uuid());
	json_object_object_add(status, "state", str(state_names[st]));
	json_object_object_add(status, "message", agent_message(text));
	json_object_object_add(status, "timestamp", str(a2a_timestamp(ts, sizeof(ts))));
	json_object_object_add(t, "status", status);
	json_object_object_add(t, "artifacts", artifacts);
	json_object_object_add(t, "metadata", meta);
	json_object_object_add(root, "task", t);
	return root;
}

static json_object *
error_body(const struct skill_result *res)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "error", str(err_info(res->err)->code));
	json_object_object_add(e, "message", str(res->msg));
	if (res->field)
		json_object_object_add(e, "field", str(res->field));
	return e;
}

/* No skill named: discovery for the text, and the skill list. */
static json_object *
no_skill(struct req *r, const struct a2a_send *m)
{
	json_object *arts = json_object_new_array(), *meta = json_object_new_object(),
	    *list = json_object_new_array(), *snap = NULL;
	char q[A2A_QUERY_TEXT_MAX * 4 + 1], text[700];
	size_t chars = 0, i = 0;
	struct resp scratch;

	/* The first 400 characters of the text, on a UTF-8 boundary. */
	while (m->text[i] && chars < A2A_QUERY_TEXT_MAX && i < sizeof(q) - 5) {
		size_t n = 1;

		while ((m->text[i + n] & 0xc0) == 0x80)
			n++;
		memcpy(q + i, m->text + i, n);
		i += n;
		chars++;
	}
	q[i] = '\0';
	for (size_t k = 0; k < nskills; k++) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "id", str(skills[k].id));
		json_object_object_add(s, "name", str(skills[k].name));
		json_object_object_add(s, "description", str(skills[k].description));
		json_object_array_add(list, s);
	}
	json_object_array_add(arts, artifact(r, m, "skills", BRAND_LOWER ".skills", NULL, list, NULL,
	    NULL, NULL, "The skills this agent answers; name one as skillId in a data part, in the "
	    "message metadata, or in the convenience body {skillId, params}."));
	if (q[0] && r->db) {
		resp_init(&scratch);
		if (discovery_snapshot(r, &scratch, q, DISCOVERY_LIMIT_DEFAULT, NULL, &snap) != ERR_NONE)
			snap = NULL;
		resp_release(&scratch);
	}
	if (snap) {
		json_object *c = json_object_object_get(snap, "candidates");
		size_t n = json_object_is_type(c, json_type_array) ? json_object_array_length(c) : 0;

		snprintf(text, sizeof(text), "Discovery for your text found %zu candidate endpoint%s "
		    "(free, dated evidence; unknown coverage is not a negative finding). Calling, "
		    "reviewing and recognizing each need their own approval.", n, n == 1 ? "" : "s");
		json_object_array_add(arts, artifact(r, m, "discovery", BRAND_LOWER ".discovery", NULL,
		    snap, NULL, NULL, NULL, text));
		json_object_put(snap);
	} else {
		snprintf(text, sizeof(text), q[0] ? "Discovery could not be read just now; the skill "
		    "list is attached." : "No skill was named; the skill list is attached.");
	}
	json_object_put(list);
	json_object_object_add(meta, "skillId", NULL);
	return task_json(m, SKILL_COMPLETED, text, arts, meta);
}

/* Whether the comma-separated list (spaces around items allowed) has item exactly. */
static bool
list_has(const char *list, const char *item)
{
	size_t n = strlen(item);

	while (*list) {
		const char *end;
		size_t len;

		while (*list == ' ' || *list == '\t' || *list == ',')
			list++;
		end = list;
		while (*end && *end != ',')
			end++;
		len = (size_t)(end - list);
		while (len && (list[len - 1] == ' ' || list[len - 1] == '\t'))
			len--;
		if (len == n && memcmp(list, item, n) == 0)
			return true;
		list = end;
	}
	return false;
}

static bool
alias_id(const char *id)
{
	bool alias = false;

	return skill_find(id, &alias) && alias;
}

enum err
h_a2a_send_post(struct req *r, struct resp *w)
{
	const char *uris[EXT__MAX + 1];
	char uribuf[EXT__MAX][CONFIG_STR_MAX + 80], echo[4 * (CONFIG_STR_MAX + 82)];
	const char *ver = req_header(r, "a2a-version"), *want = req_header(r, "a2a-extensions");
	struct a2a_send m;
	struct a2a_fail f;
	struct skill_result res;
	const struct skill *s;
	json_object *arts, *meta, *root;
	bool alias = false;
	size_t at = 0;

	if (ver == NULL && req_val(r, "A2A-Version"))
		ver = req_val(r, "A2A-Version")->text;
	if (!a2a_version_ok(ver))
		return a2a_fail_write(w, A2A_VERSION_NOT_SUPPORTED, 0, "A2A-Version",
		    "This agent speaks A2A 1.0; A2A-Version %.16s is not supported.", ver);
	for (int e = 0; e < EXT__MAX; e++)
		uris[e] = skill_ext_uri(r->cfg, (enum skill_ext)e, uribuf[e], sizeof(uribuf[e]));
	uris[EXT__MAX] = NULL;
	if (a2a_parse_send(r->json, uris, SKILL_PREPARE, &r->pool, &m, &f) < 0)
		return a2a_fail_write(w, f.reason, f.reason == A2A_CONTENT_TYPE_NOT_SUPPORTED ? 400 : 0,
		    f.field, "%s", f.msg);
	/* The extensions the client asked for that this agent has, echoed. */
	echo[0] = '\0';
	for (int e = 0; want && e < EXT__MAX; e++)
		if (uris[e][0] && list_has(want, uris[e])) {
			int n = snprintf(echo + at, sizeof(echo) - at, "%s%s", at ? ", " : "", uris[e]);

			if (n > 0 && (size_t)n < sizeof(echo) - at)
				at += (size_t)n;
		}
	if (echo[0])
		resp_header(w, "A2A-Extensions", echo);
	if (m.skill_id == NULL)
		return answer(w, 200, no_skill(r, &m), A2A_CONTENT_TYPE);

	if ((s = skill_find(m.skill_id, &alias)) == NULL)
		skill_unknown(m.skill_id, &res);
	else
		skill_run(r, s, m.params, &res);
	if (res.retry_after_s) {
		/* The chain's cap on this host is full: the A2A error, not a failed task. */
		char after[24];
		enum err busy;

		snprintf(after, sizeof(after), "%" PRIu64, res.retry_after_s);
		resp_header(w, "Retry-After", after);
		busy = a2a_fail_write(w, A2A_INTERNAL, 503, NULL, "%s", res.msg);
		skill_result_release(&res);
		return busy;
	}
	arts = json_object_new_array();
	meta = json_object_new_object();
	json_object_object_add(meta, "skillId", s ? str(s->id) : NULL);
	json_object_object_add(meta, "requestedSkillId", str(m.skill_id));
	if (s && alias_id(m.skill_id))
		json_object_object_add(meta, "deprecatedAlias", json_object_new_boolean(1));
	if (res.data)
		json_object_array_add(arts, artifact(r, &m, "result", res.key, res.legacy_key, res.data,
		    res.request_key, res.request_legacy_key, res.request, res.text));
	if (res.state == SKILL_REJECTED || res.state == SKILL_FAILED)
		json_object_object_add(meta, "error", error_body(&res));
	root = task_json(&m, res.state, res.text, arts, meta);
	skill_result_release(&res);
	return answer(w, 200, root, A2A_CONTENT_TYPE);
}
