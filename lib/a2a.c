/*
 * a2a.c: the A2A 1.0 HTTP+JSON wire (a2a.h; docs/PROTOCOL.md, Agents: A2A
 * and ACP). Every member of an untrusted request is checked against the
 * proto's names and bounded before anything reads it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "a2a.h"
#include "brand.h"
#include "json.h"
#include "utf8.h"
#include "banned.h"

static const struct {
	const char *name;   /* ErrorInfo.reason */
	int http;
	const char *status; /* google.rpc code name */
} reasons[A2A__MAX] = {
	[A2A_INVALID_PARAMS] = { "INVALID_PARAMS", 400, "INVALID_ARGUMENT" },
	[A2A_PAYLOAD_TOO_LARGE] = { "PAYLOAD_TOO_LARGE", 413, "INVALID_ARGUMENT" },
	[A2A_CONTENT_TYPE_NOT_SUPPORTED] = { "CONTENT_TYPE_NOT_SUPPORTED", 415, "INVALID_ARGUMENT" },
	[A2A_VERSION_NOT_SUPPORTED] = { "VERSION_NOT_SUPPORTED", 400, "FAILED_PRECONDITION" },
	[A2A_UNSUPPORTED_OPERATION] = { "UNSUPPORTED_OPERATION", 400, "FAILED_PRECONDITION" },
	[A2A_PUSH_NOT_SUPPORTED] = { "PUSH_NOTIFICATION_NOT_SUPPORTED", 400, "FAILED_PRECONDITION" },
	[A2A_NOT_FOUND] = { "NOT_FOUND", 404, "NOT_FOUND" },
	[A2A_INTERNAL] = { "INTERNAL", 500, "INTERNAL" },
};

__attribute__((format(printf, 4, 5)))
static int
fail_at(struct a2a_fail *f, enum a2a_reason reason, const char *field, const char *fmt, ...)
{
	va_list ap;

	f->reason = reason;
	f->field = field;
	va_start(ap, fmt);
	utf8_vformat(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* A string member: absent is fine unless required; 1..max bytes of valid UTF-8. */
static int
get_string(json_object *o, const char *key, bool required, size_t max, const char **out,
    struct a2a_fail *f)
{
	json_object *v;
	size_t n;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v)) {
		if (required)
			return fail_at(f, A2A_INVALID_PARAMS, key, "The request needs %s.", key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return fail_at(f, A2A_INVALID_PARAMS, key, "%s must be a string.", key);
	n = (size_t)json_object_get_string_len(v);
	if (n == 0 || n > max)
		return fail_at(f, A2A_INVALID_PARAMS, key, "%s must be 1 to %zu bytes long.", key, max);
	if (memchr(json_object_get_string(v), '\0', n) != NULL)
		return fail_at(f, A2A_INVALID_PARAMS, key, "%s must not contain NUL.", key);
	*out = json_object_get_string(v);
	return 0;
}

/* An optional member that must be a JSON object of at most A2A_DATA_MAX bytes serialized. */
static int
get_object(json_object *o, const char *key, json_object **out, struct a2a_fail *f)
{
	json_object *v;
	size_t len = 0;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_object))
		return fail_at(f, A2A_INVALID_PARAMS, key, "%s must be a JSON object.", key);
	if (json_dump(v, &len) == NULL)
		return fail_at(f, A2A_INTERNAL, NULL, "Out of memory.");
	if (len > A2A_DATA_MAX)
		return fail_at(f, A2A_PAYLOAD_TOO_LARGE, key, "%s is larger than %d bytes.", key,
		    A2A_DATA_MAX);
	*out = v;
	return 0;
}

/* An optional array of at most max strings of 1..A2A_ID_MAX bytes. */
static int
check_string_array(json_object *o, const char *key, size_t max, struct a2a_fail *f)
{
	json_object *v;
	size_t n;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_array))
		return fail_at(f, A2A_INVALID_PARAMS, key, "%s must be an array of strings.", key);
	n = json_object_array_length(v);
	if (n > max)
		return fail_at(f, A2A_PAYLOAD_TOO_LARGE, key, "%s has more than %zu items.", key, max);
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(v, i);

		if (!json_object_is_type(s, json_type_string) || json_object_get_string_len(s) == 0 ||
		    (size_t)json_object_get_string_len(s) > 2048)
			return fail_at(f, A2A_INVALID_PARAMS, key,
			    "Each item of %s must be a string of 1 to 2048 bytes.", key);
	}
	return 0;
}

static int
check_keys(json_object *o, const char *what, const char *const allowed[],
    const char *const required[], struct a2a_fail *f)
{
	const char *bad = NULL;

	switch (json_check_keys(o, allowed, required, &bad)) {
	case JSON_KEYS_OK:
		return 0;
	case JSON_KEYS_NOT_OBJECT:
		return fail_at(f, A2A_INVALID_PARAMS, NULL, "%s must be a JSON object.", what);
	case JSON_KEYS_UNKNOWN:
		if (strcmp(bad, "kind") == 0)
			return fail_at(f, A2A_INVALID_PARAMS, bad,
			    "%s has the A2A 0.3 member kind; send A2A 1.0 (parts without kind, "
			    "role ROLE_USER).", what);
		return fail_at(f, A2A_INVALID_PARAMS, bad, "%s has the undeclared member %.64s.", what,
		    bad);
	default:
		return fail_at(f, A2A_INVALID_PARAMS, bad, "%s needs %s.", what, bad ? bad : "a member");
	}
}

static const char *const part_keys[] = { "text", "raw", "url", "data", "metadata", "filename",
	"mediaType", NULL };

/* One part: exactly one of text, raw, url, data; each bounded. */
static int
check_part(json_object *p, size_t i, struct a2a_fail *f)
{
	static const char *const kinds[] = { "text", "raw", "url", "data" };
	json_object *v, *meta;
	const char *s;
	size_t len = 0;
	int n = 0;

	if (!json_object_is_type(p, json_type_object))
		return fail_at(f, A2A_INVALID_PARAMS, "parts", "Part %zu must be a JSON object.", i);
	if (check_keys(p, "A part", part_keys, NULL, f) < 0)
		return -1;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		n += json_object_object_get_ex(p, kinds[k], NULL);
	if (n != 1)
		return fail_at(f, A2A_INVALID_PARAMS, "parts",
		    "Part %zu must have exactly one of text, raw, url and data.", i);
	if (json_object_object_get_ex(p, "text", &v)) {
		if (!json_object_is_type(v, json_type_string))
			return fail_at(f, A2A_INVALID_PARAMS, "text", "Part %zu: text must be a string.", i);
		if (json_object_get_string_len(v) > A2A_TEXT_MAX)
			return fail_at(f, A2A_PAYLOAD_TOO_LARGE, "text",
			    "Part %zu: a text part is at most %d bytes.", i, A2A_TEXT_MAX);
	}
	if (json_object_object_get_ex(p, "raw", &v) &&
	    (!json_object_is_type(v, json_type_string) || json_object_get_string_len(v) > A2A_DATA_MAX))
		return fail_at(f, json_object_is_type(v, json_type_string) ? A2A_PAYLOAD_TOO_LARGE :
		    A2A_INVALID_PARAMS, "raw", "Part %zu: raw must be base64 text of at most %d bytes.", i,
		    A2A_DATA_MAX);
	if (get_string(p, "url", false, 2048, &s, f) < 0 ||
	    get_string(p, "filename", false, 256, &s, f) < 0 ||
	    get_string(p, "mediaType", false, 256, &s, f) < 0 ||
	    get_object(p, "metadata", &meta, f) < 0)
		return -1;
	if (json_object_object_get_ex(p, "data", &v)) {
		if (json_dump(v, &len) == NULL)
			return fail_at(f, A2A_INTERNAL, NULL, "Out of memory.");
		if (len > A2A_DATA_MAX)
			return fail_at(f, A2A_PAYLOAD_TOO_LARGE, "data",
			    "Part %zu: a data part is at most %d bytes of JSON.", i, A2A_DATA_MAX);
	}
	return 0;
}

/* configuration: the output modes; a push configuration is refused. */
static int
check_configuration(json_object *c, struct a2a_send *out, struct a2a_fail *f)
{
	static const char *const keys[] = { "acceptedOutputModes", "historyLength",
		"returnImmediately", "taskPushNotificationConfig", NULL };
	json_object *v;
	size_t n;

	if (check_keys(c, "configuration", keys, NULL, f) < 0)
		return -1;
	if (json_object_object_get_ex(c, "taskPushNotificationConfig", &v) && v != NULL)
		return fail_at(f, A2A_PUSH_NOT_SUPPORTED, "taskPushNotificationConfig",
		    "Push notifications are not supported by this agent.");
	if (json_object_object_get_ex(c, "historyLength", &v) && !json_object_is_type(v, json_type_int))
		return fail_at(f, A2A_INVALID_PARAMS, "historyLength", "historyLength must be an integer.");
	if (json_object_object_get_ex(c, "returnImmediately", &v) &&
	    !json_object_is_type(v, json_type_boolean))
		return fail_at(f, A2A_INVALID_PARAMS, "returnImmediately",
		    "returnImmediately must be a boolean.");
	if (check_string_array(c, "acceptedOutputModes", 16, f) < 0)
		return -1;
	if (!json_object_object_get_ex(c, "acceptedOutputModes", &v) ||
	    (n = json_object_array_length(v)) == 0)
		return 0;
	out->accept_json = out->accept_text = false;
	for (size_t i = 0; i < n; i++) {
		const char *m = json_object_get_string(json_object_array_get_idx(v, i));

		if (strcmp(m, "*/*") == 0)
			out->accept_json = out->accept_text = true;
		else if (strcmp(m, "application/json") == 0 || strcmp(m, A2A_CONTENT_TYPE) == 0 ||
		    strcmp(m, "application/*") == 0)
			out->accept_json = true;
		else if (strcmp(m, "text/plain") == 0 || strcmp(m, "text/*") == 0)
			out->accept_text = true;
	}
	if (!out->accept_json && !out->accept_text)
		return fail_at(f, A2A_CONTENT_TYPE_NOT_SUPPORTED, "acceptedOutputModes",
		    "This agent answers application/json and text/plain only.");
	return 0;
}

/* The params member beside a skillId: absent (NULL) or an object. */
static int
params_of(json_object *o, json_object **out, struct a2a_fail *f)
{
	json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, "params", &v))
		return 0;
	if (!json_object_is_type(v, json_type_object))
		return fail_at(f, A2A_INVALID_PARAMS, "params", "params must be a JSON object.");
	*out = v;
	return 0;
}

/* skillId (and params) named in a metadata object, if any. */
static int
skill_in_metadata(json_object *meta, struct a2a_send *out, bool *found, struct a2a_fail *f)
{
	*found = false;
	if (meta == NULL || !json_object_object_get_ex(meta, "skillId", NULL))
		return 0;
	if (get_string(meta, "skillId", true, A2A_ID_MAX, &out->skill_id, f) < 0 ||
	    params_of(meta, &out->params, f) < 0)
		return -1;
	*found = true;
	return 0;
}

/* An agentRecognitionRequest (or the legacy agentSettlementRequest) under an extension URI. */
static json_object *
request_in_metadata(json_object *meta, const char *const *ext_uris)
{
	static const char *const keys[] = { BRAND_LOWER ".agentRecognitionRequest",
		BRAND_LOWER ".agentSettlementRequest" };
	json_object *ext, *req;

	for (size_t i = 0; meta && ext_uris && ext_uris[i]; i++) {
		if (!json_object_object_get_ex(meta, ext_uris[i], &ext) ||
		    !json_object_is_type(ext, json_type_object))
			continue;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (json_object_object_get_ex(ext, keys[k], &req) &&
			    json_object_is_type(req, json_type_object))
				return req;
	}
	return NULL;
}

static int
parse_convenience(json_object *body, struct a2a_send *out, struct a2a_fail *f)
{
	static const char *const keys[] = { "params", NULL };
	static const char *const req[] = { "skillId", NULL };

	out->convenience = true;
	if (check_keys(body, "The convenience body", keys, req, f) < 0 ||
	    get_string(body, "skillId", true, A2A_ID_MAX, &out->skill_id, f) < 0 ||
	    params_of(body, &out->params, f) < 0)
		return -1;
	return 0;
}

/* Join the text parts with "\n" into the pool. */
static int
join_text(json_object *parts, struct pool *pool, struct a2a_send *out, struct a2a_fail *f)
{
	size_t n = json_object_array_length(parts), total = 0, at = 0;
	char *t;

	for (size_t i = 0; i < n; i++) {
		json_object *v;

		if (json_object_object_get_ex(json_object_array_get_idx(parts, i), "text", &v))
			total += (size_t)json_object_get_string_len(v) + 1;
	}
	if ((t = pool_alloc(pool, total + 1)) == NULL)
		return fail_at(f, A2A_INTERNAL, NULL, "Out of memory.");
	for (size_t i = 0; i < n; i++) {
		json_object *v;
		size_t len;

		if (!json_object_object_get_ex(json_object_array_get_idx(parts, i), "text", &v))
			continue;
		len = (size_t)json_object_get_string_len(v);
		if (at > 0)
			t[at++] = '\n';
		memcpy(t + at, json_object_get_string(v), len);
		at += len;
	}
	t[at] = '\0';
	out->text = t;
	return 0;
}

static int
parse_message(json_object *m, json_object *req_meta, const char *const *ext_uris,
    const char *prepare_skill, struct pool *pool, struct a2a_send *out, struct a2a_fail *f)
{
	static const char *const keys[] = { "contextId", "taskId", "metadata", "extensions",
		"referenceTaskIds", NULL };
	static const char *const req[] = { "messageId", "role", "parts", NULL };
	json_object *parts, *meta, *first_object = NULL;
	const char *role, *task;
	size_t n;
	bool found;

	if (check_keys(m, "message", keys, req, f) < 0 ||
	    get_string(m, "messageId", true, A2A_ID_MAX, &out->message_id, f) < 0 ||
	    get_string(m, "contextId", false, A2A_ID_MAX, &out->context_id, f) < 0 ||
	    get_string(m, "taskId", false, A2A_ID_MAX, &task, f) < 0 ||
	    get_string(m, "role", true, 32, &role, f) < 0 ||
	    get_object(m, "metadata", &meta, f) < 0 ||
	    check_string_array(m, "extensions", 16, f) < 0 ||
	    check_string_array(m, "referenceTaskIds", 16, f) < 0)
		return -1;
	if (strcmp(role, "ROLE_USER") != 0)
		return fail_at(f, A2A_INVALID_PARAMS, "role", "A message to this agent has role ROLE_USER.");
	json_object_object_get_ex(m, "parts", &parts);
	if (!json_object_is_type(parts, json_type_array) || (n = json_object_array_length(parts)) == 0)
		return fail_at(f, A2A_INVALID_PARAMS, "parts", "parts must be a non-empty array.");
	if (n > A2A_PARTS_MAX)
		return fail_at(f, A2A_PAYLOAD_TOO_LARGE, "parts", "A message has at most %d parts.",
		    A2A_PARTS_MAX);
	for (size_t i = 0; i < n; i++)
		if (check_part(json_object_array_get_idx(parts, i), i, f) < 0)
			return -1;
	if (join_text(parts, pool, out, f) < 0)
		return -1;

	/* The skill: a data part naming it, then metadata, then an extension request. */
	for (size_t i = 0; i < n; i++) {
		json_object *d, *v;

		if (!json_object_object_get_ex(json_object_array_get_idx(parts, i), "data", &d) ||
		    !json_object_is_type(d, json_type_object))
			continue;
		if (json_object_object_get_ex(d, "skillId", &v) && json_object_is_type(v, json_type_string)) {
			if (get_string(d, "skillId", true, A2A_ID_MAX, &out->skill_id, f) < 0 ||
			    params_of(d, &out->params, f) < 0)
				return -1;
			return 0;
		}
		if (first_object == NULL)
			first_object = d;
	}
	if (skill_in_metadata(meta, out, &found, f) < 0)
		return -1;
	if (!found && skill_in_metadata(req_meta, out, &found, f) < 0)
		return -1;
	if (found) {
		if (out->params == NULL)
			out->params = first_object;
		return 0;
	}
	if ((out->params = request_in_metadata(meta, ext_uris)) != NULL)
		out->skill_id = prepare_skill;
	return 0;
}

int
a2a_parse_send(json_object *body, const char *const *ext_uris, const char *prepare_skill,
    struct pool *pool, struct a2a_send *out, struct a2a_fail *f)
{
	static const char *const keys[] = { "tenant", "configuration", "metadata", NULL };
	static const char *const req[] = { "message", NULL };
	json_object *m, *c, *meta;
	const char *tenant;

	memset(out, 0, sizeof(*out));
	memset(f, 0, sizeof(*f));
	out->text = "";
	out->accept_json = out->accept_text = true;
	if (!json_object_is_type(body, json_type_object))
		return fail_at(f, A2A_INVALID_PARAMS, NULL,
		    "Send a SendMessageRequest {message, configuration?} or {skillId, params}.");
	if (json_object_object_get_ex(body, "skillId", NULL) &&
	    !json_object_object_get_ex(body, "message", NULL))
		return parse_convenience(body, out, f);
	if (check_keys(body, "The SendMessageRequest", keys, req, f) < 0 ||
	    get_string(body, "tenant", false, A2A_ID_MAX, &tenant, f) < 0 ||
	    get_object(body, "metadata", &meta, f) < 0)
		return -1;
	if (json_object_object_get_ex(body, "configuration", &c) &&
	    (!json_object_is_type(c, json_type_object) || check_configuration(c, out, f) < 0))
		return f->msg[0] ? -1 : fail_at(f, A2A_INVALID_PARAMS, "configuration",
		    "configuration must be a JSON object.");
	json_object_object_get_ex(body, "message", &m);
	if (!json_object_is_type(m, json_type_object))
		return fail_at(f, A2A_INVALID_PARAMS, "message", "message must be a JSON object.");
	return parse_message(m, meta, ext_uris, prepare_skill, pool, out, f);
}

bool
a2a_version_ok(const char *v)
{
	size_t i;

	if (v == NULL || *v == '\0' || strcmp(v, "1.0") == 0)
		return true;
	if (strncmp(v, "1.0.", 4) != 0 || v[4] == '\0')
		return false;
	for (i = 4; v[i]; i++)
		if (v[i] < '0' || v[i] > '9' || i > 12)
			return false;
	return true;
}

static const char *
grpc_status(int http)
{
	switch (http) {
	case 404:
		return "NOT_FOUND";
	case 500:
		return "INTERNAL";
	case 503:
		return "UNAVAILABLE";
	default:
		return NULL;
	}
}

/* The body; 0 or -1 (then w is unchanged). */
static int
write_status(struct resp *w, enum a2a_reason reason, int http, const char *code,
    const char *field, const char *msg)
{
	json_object *o = json_object_new_object(), *e = json_object_new_object(),
	    *details = json_object_new_array(), *info = json_object_new_object(),
	    *meta = json_object_new_object();
	const char *st;
	int rc = -1;

	if (reason >= A2A__MAX)
		reason = A2A_INTERNAL;
	if (http == 0)
		http = reasons[reason].http;
	st = grpc_status(http) ? grpc_status(http) : reasons[reason].status;
	if (o && e && details && info && meta) {
		if (code)
			json_object_object_add(meta, "error", json_object_new_string(code));
		if (field)
			json_object_object_add(meta, "field", json_object_new_string(field));
		json_object_object_add(info, "@type",
		    json_object_new_string("type.googleapis.com/google.rpc.ErrorInfo"));
		json_object_object_add(info, "reason", json_object_new_string(reasons[reason].name));
		json_object_object_add(info, "domain", json_object_new_string("a2a-protocol.org"));
		json_object_object_add(info, "metadata", meta);
		meta = NULL;
		json_object_array_add(details, info);
		info = NULL;
		json_object_object_add(e, "code", json_object_new_int(http));
		json_object_object_add(e, "status", json_object_new_string(st));
		json_object_object_add(e, "message", json_object_new_string(msg));
		json_object_object_add(e, "details", details);
		details = NULL;
		json_object_object_add(o, "error", e);
		e = NULL;
		if (!json_alloc_latched() && resp_json(w, http, o) == 0) {
			w->content_type = A2A_CONTENT_TYPE;
			rc = 0;
		}
	}
	json_object_put(o);
	json_object_put(e);
	json_object_put(details);
	json_object_put(info);
	json_object_put(meta);
	return rc;
}

enum err
a2a_fail_write(struct resp *w, enum a2a_reason reason, int http, const char *field,
    const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int status;

	va_start(ap, fmt);
	utf8_vformat(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (write_status(w, reason, http, NULL, field, msg) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	status = w->status;
	return status >= 500 ? ERR_INTERNAL : ERR_INVALID_REQUEST;
}

void
a2a_error_from_rest(struct resp *w, enum err e)
{
	struct json_limits lim = json_limits_default;
	struct json_error je;
	json_object *o = NULL, *code, *msg, *field;
	enum a2a_reason reason;
	char c[64], m[512], fl[256];

	if (w->status < 400 || w->body.len == 0)
		return;
	/* Our own body: a parse that fails ran out of memory, and so may the rewrite below;
	 * then the answer is the allocation-free internal error. */
	if (json_parse_strict(buf_str(&w->body), w->body.len, &lim, &o, &je) < 0 || o == NULL) {
		resp_fail(w, ERR_INTERNAL, NULL, NULL);
		return;
	}
	if (!json_object_object_get_ex(o, "error", &code) ||
	    !json_object_is_type(code, json_type_string) ||
	    !json_object_object_get_ex(o, "message", &msg) ||
	    !json_object_is_type(msg, json_type_string)) {
		json_object_put(o);
		return;
	}
	utf8_copy(c, sizeof(c), json_object_get_string(code));
	utf8_copy(m, sizeof(m), json_object_get_string(msg));
	fl[0] = '\0';
	if (json_object_object_get_ex(o, "field", &field) && json_object_is_type(field, json_type_string))
		utf8_copy(fl, sizeof(fl), json_object_get_string(field));
	json_object_put(o);
	switch (e) {
	case ERR_UNSUPPORTED_MEDIA_TYPE:
		reason = A2A_CONTENT_TYPE_NOT_SUPPORTED;
		break;
	case ERR_BODY_TOO_LARGE:
		reason = A2A_PAYLOAD_TOO_LARGE;
		break;
	case ERR_NOT_FOUND:
		reason = A2A_NOT_FOUND;
		break;
	default:
		reason = w->status >= 500 ? A2A_INTERNAL : A2A_INVALID_PARAMS;
		break;
	}
	if (write_status(w, reason, w->status, c, fl[0] ? fl : NULL, m) < 0)
		resp_fail(w, ERR_INTERNAL, NULL, NULL);
}

char *
a2a_timestamp(char *out, size_t cap)
{
	struct timespec ts;
	struct tm tm;
	char day[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	if (gmtime_r(&ts.tv_sec, &tm) == NULL ||
	    strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(day, sizeof(day), "1970-01-01T00:00:00");
	snprintf(out, cap, "%s.%03ldZ", day, (long)(ts.tv_nsec / 1000000));
	return out;
}
