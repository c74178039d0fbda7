/* The MCP surface without FastCGI: tools, schemas, JSON-RPC dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brand.h"
#include "config.h"
#include "drafts.h"
#include "json.h"
#include "mcp.h"
#include "tap.h"
#include "banned.h"

#define RID "\"0xE93032E57FAFBEA0F07DA4A8CF9AFF93D7C63835C1CABA6F6D5958572EC34F73\""

static struct config cfg;
static struct req r;

static void
req_reset(const char *version_header)
{
	pool_release(&r.pool);
	memset(&r, 0, sizeof(r));
	pool_init(&r.pool, 1 << 24);
	r.cfg = &cfg;
	if (version_header) {
		r.headers[0].name = "mcp-protocol-version";
		r.headers[0].value = version_header;
		r.nheaders = 1;
	}
}

/* Answer text with an optional protocol-version header; the status in *st. */
static json_object *
answer(const char *hv, const char *text, int *st)
{
	json_object *body = NULL, *out;

	req_reset(hv);
	if (json_parse_strict(text, strlen(text), NULL, &body, NULL) < 0) {
		*st = -1;
		return NULL;
	}
	out = mcp_answer(&r, body, st);
	json_object_put(body);
	return out;
}

/* The value at a dotted path ("result.tools"); array indexes as numbers. */
static json_object *
at(json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)strtoul(k, NULL, 10));
		else if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	}
	return o;
}

static const char *
s_at(json_object *o, const char *path)
{
	json_object *v = at(o, path);

	return v ? json_object_get_string(v) : NULL;
}

static int
code_of(json_object *o)
{
	json_object *v = at(o, "error.code");

	return v ? json_object_get_int(v) : 0;
}

/* A tools/call of name with arguments (JSON text, or NULL for none). */
static json_object *
call(const char *name, const char *args, int *st)
{
	char text[8192];

	if (args)
		snprintf(text, sizeof(text), "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
		    "\"params\":{\"name\":\"%s\",\"arguments\":%s}}", name, args);
	else
		snprintf(text, sizeof(text), "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
		    "\"params\":{\"name\":\"%s\"}}", name);
	return answer("2025-11-25", text, st);
}

static void
test_tools_list(void)
{
	json_object *tl = mcp_tools_json(), *t;
	int st;
	static const char *const names[] = { BRAND_LOWER "_discovery", BRAND_LOWER "_economics",
	    BRAND_LOWER "_draft_review", BRAND_LOWER "_prepare_review",
	    BRAND_LOWER "_suggest_recognition", BRAND_LOWER "_prepare_agent_recognition",
	    BRAND_LOWER "_lookup_recognition", BRAND_LOWER "_lookup_agent_reputation",
	    BRAND_LOWER "_claim_help" };
	int shapes = 0;

	ok(json_object_array_length(tl) == 9, "nine tools: four with an HTTP row, five agent skills");
	for (size_t i = 0; i < 9; i++) {
		t = json_object_array_get_idx(tl, i);
		is_str(s_at(t, "name"), names[i], "tool %zu is %s", i, names[i]);
		if (strcmp(s_at(t, "inputSchema.type"), "object") == 0 &&
		    json_object_is_type(at(t, "inputSchema.properties"), json_type_object) &&
		    json_object_is_type(at(t, "inputSchema.required"), json_type_array) &&
		    json_object_is_type(at(t, "inputSchema.additionalProperties"), json_type_boolean) &&
		    !json_object_get_boolean(at(t, "inputSchema.additionalProperties")) &&
		    json_object_object_length(at(t, "inputSchema")) == 4 &&
		    json_object_get_boolean(at(t, "annotations.readOnlyHint")) &&
		    s_at(t, "description") && strlen(s_at(t, "description")) > 40)
			shapes++;
	}
	ok(shapes == 9, "every inputSchema is {type object, properties, required, "
	    "additionalProperties false}; every tool read-only and described");
	t = json_object_array_get_idx(tl, 0);
	is_str(s_at(t, "inputSchema.properties.q.maxLength"), "400", "discovery q max 400");
	is_str(s_at(t, "inputSchema.properties.limit.type"), "integer", "limit is an integer");
	is_str(s_at(t, "inputSchema.properties.limit.minimum"), "1", "limit min 1");
	is_str(s_at(t, "inputSchema.properties.limit.maximum"), "20", "limit max 20");
	is_str(s_at(t, "inputSchema.properties.limit.default"), "10", "limit default 10");
	is_str(s_at(t, "inputSchema.properties.reviewer.pattern"), "^0x[0-9a-fA-F]{40}$",
	    "reviewer pattern");
	ok(json_object_array_length(at(t, "inputSchema.required")) == 0, "discovery: nothing required");
	t = json_object_array_get_idx(tl, 1);
	ok(json_object_object_length(at(t, "inputSchema.properties")) == 0,
	    "economics: no properties");
	t = json_object_array_get_idx(tl, 2);
	is_str(s_at(t, "inputSchema.required"), "[ \"routeId\", \"observation\" ]",
	    "draft_review requires routeId and observation");
	is_str(s_at(t, "inputSchema.properties.observation.maxLength"), "2000", "observation max");
	is_str(s_at(t, "inputSchema.properties.observation.minLength"), "1", "observation min");
	is_str(s_at(t, "inputSchema.properties.routeId.pattern"), "^0x[0-9a-fA-F]{64}$",
	    "routeId pattern");
	t = json_object_array_get_idx(tl, 3);
	is_str(s_at(t, "inputSchema.properties.outcome.enum"),
	    "[ \"response_received\", \"request_failed\" ]", "outcome enum");
	is_str(s_at(t, "inputSchema.properties.schemaCheck.enum"),
	    "[ \"passed\", \"failed\", \"not_checked\" ]", "schemaCheck enum");
	/* The skills' arguments are their params (handlers/skills.c). */
	t = json_object_array_get_idx(tl, 5);
	is_str(s_at(t, "inputSchema.required"), "[ \"recipient\" ]", "prepare_agent_recognition requires recipient");
	is_str(s_at(t, "inputSchema.properties.mintAttestation.type"), "boolean", "mintAttestation is a boolean");
	is_str(s_at(t, "inputSchema.properties.evidence.type"), "object", "evidence is an object");
	t = json_object_array_get_idx(tl, 6);
	is_str(s_at(t, "inputSchema.properties.txHash.pattern"), "^0x[0-9a-fA-F]{64}$", "lookup: txHash pattern");
	json_object_put(tl);

	t = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", &st);
	ok(st == 200 && json_object_array_length(at(t, "result.tools")) == 9,
	    "tools/list answers the same list");
	json_object_put(t);
}

static void
test_lifecycle(void)
{
	json_object *o;
	int st;

	o = answer(NULL, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
	    "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
	    "\"version\":\"1\"}}}", &st);
	ok(st == 200, "initialize: 200");
	is_str(s_at(o, "result.protocolVersion"), "2025-06-18", "a supported version is echoed");
	ok(at(o, "result.capabilities.tools") != NULL, "tools capability");
	is_str(s_at(o, "result.serverInfo.name"), "waymark", "serverInfo.name");
	is_str(s_at(o, "id"), "0", "id echoed");
	json_object_put(o);
	o = answer(NULL, "{\"jsonrpc\":\"2.0\",\"id\":\"a-1\",\"method\":\"initialize\",\"params\":"
	    "{\"protocolVersion\":\"2099-01-01\"}}", &st);
	is_str(s_at(o, "result.protocolVersion"), MCP_PROTOCOL_LATEST, "unknown version: our latest");
	is_str(s_at(o, "id"), "a-1", "string id echoed");
	json_object_put(o);
	o = answer("1999-01-01", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
	    "{\"protocolVersion\":\"2025-11-25\"}}", &st);
	ok(st == 200, "initialize is not refused for its header");
	json_object_put(o);
	o = answer(NULL, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}", &st);
	ok(st == 200 && code_of(o) == MCP_INVALID_PARAMS, "initialize without protocolVersion: -32602");
	json_object_put(o);

	o = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", &st);
	ok(o == NULL && st == 202, "notification: 202, no body");
	o = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", &st);
	ok(o == NULL && st == 202, "a client's response: 202, no body");
	o = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":2.50,\"method\":\"ping\"}", &st);
	ok(st == 200 && json_object_object_length(at(o, "result")) == 0, "ping: empty result");
	is_str(json_dump(at(o, "id"), NULL), "2.50", "a fractional id is echoed verbatim");
	json_object_put(o);
	o = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\"}", &st);
	ok(st == 200 && code_of(o) == MCP_METHOD_NOT_FOUND, "unknown method: 200 -32601");
	json_object_put(o);
	o = answer("2025-11-25", "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}", &st);
	ok(st == 400 && code_of(o) == MCP_INVALID_REQUEST, "jsonrpc 1.0: 400 -32600");
	json_object_put(o);
	o = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", &st);
	ok(st == 400 && code_of(o) == MCP_INVALID_REQUEST, "null id: 400 -32600");
	json_object_put(o);
	o = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":[]}",
	    &st);
	ok(st == 400 && code_of(o) == MCP_INVALID_REQUEST, "params array: 400 -32600");
	json_object_put(o);
	o = answer("2025-11-25", "\"ping\"", &st);
	ok(st == 400 && code_of(o) == MCP_INVALID_REQUEST && json_object_is_type(at(o, "id"),
	    json_type_null), "a JSON string: 400 -32600 with id null");
	json_object_put(o);
	o = answer("2099-01-01", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", &st);
	ok(st == 400 && code_of(o) == MCP_BAD_REQUEST && json_object_array_length(
	    at(o, "error.data.supported")) == 3, "unsupported MCP-Protocol-Version: 400 -32000");
	json_object_put(o);
	ok(strcmp(mcp_negotiate("2025-03-26"), "2025-03-26") == 0 &&
	    strcmp(mcp_negotiate("2024-11-05"), MCP_PROTOCOL_LATEST) == 0 &&
	    strcmp(mcp_negotiate(NULL), MCP_PROTOCOL_LATEST) == 0, "negotiation");

	o = answer(NULL, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
	    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}]", &st);
	ok(st == 200 && json_object_array_length(o) == 2 && code_of(json_object_array_get_idx(o, 1)) ==
	    MCP_METHOD_NOT_FOUND, "2025-03-26 (no header): a batch answers each request");
	json_object_put(o);
	o = answer("2025-03-26", "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]",
	    &st);
	ok(o == NULL && st == 202, "a batch of notifications: 202");
	o = answer(NULL, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
	    "{\"protocolVersion\":\"2025-03-26\"}}]", &st);
	ok(st == 200 && code_of(json_object_array_get_idx(o, 0)) == MCP_INVALID_REQUEST,
	    "initialize inside a batch: -32600");
	json_object_put(o);
	o = answer(NULL, "[]", &st);
	ok(st == 400 && code_of(o) == MCP_INVALID_REQUEST, "empty batch: 400 -32600");
	json_object_put(o);
	o = answer("2025-11-25", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", &st);
	ok(st == 400 && code_of(o) == MCP_INVALID_REQUEST, "2025-11-25: batches refused, 400 -32600");
	json_object_put(o);
}

static void
test_calls(void)
{
	json_object *o, *text = NULL;
	const char *s;
	int st;

	o = call(BRAND_LOWER "_economics", "{}", &st);
	ok(st == 200 && !json_object_get_boolean(at(o, "result.isError")), "economics: a result");
	is_str(s_at(o, "result.content.0.type"), "text", "content is one text block");
	s = s_at(o, "result.content.0.text");
	ok(s && json_parse_strict(s, strlen(s), NULL, &text, NULL) == 0 &&
	    json_object_equal(text, at(o, "result.structuredContent")),
	    "the text is the structuredContent as JSON");
	json_object_put(text);
	is_str(s_at(o, "result.structuredContent.version"), "1", "economics version");
	json_object_put(o);
	o = call(BRAND_LOWER "_economics", NULL, &st);
	ok(st == 200 && !json_object_get_boolean(at(o, "result.isError")), "arguments may be absent");
	json_object_put(o);
	o = call(BRAND_LOWER "_economics", "{\"x\":1}", &st);
	ok(json_object_get_boolean(at(o, "result.isError")), "an undeclared argument: isError");
	is_str(s_at(o, "result.structuredContent.error"), "unknown_field", "unknown_field");
	is_str(s_at(o, "result.structuredContent.field"), "x", "naming it");
	json_object_put(o);

	o = call(BRAND_LOWER "_draft_review", "{\"routeId\":" RID ",\"observation\":\"Slow\\n but "
	    "correct.\"}", &st);
	ok(st == 200 && !json_object_get_boolean(at(o, "result.isError")), "draft_review: a result");
	is_str(s_at(o, "result.structuredContent.reviewText"), DRAFT_FRAME "Slow but correct.",
	    "draft text");
	is_str(s_at(o, "result.structuredContent.routeId"),
	    "0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73", "routeId lowercase");
	json_object_put(o);
	o = call(BRAND_LOWER "_draft_review", "{\"routeId\":" RID ",\"observation\":\" \\t \"}", &st);
	ok(json_object_get_boolean(at(o, "result.isError")), "blank observation: isError");
	is_str(s_at(o, "result.structuredContent.error"), "invalid_field", "invalid_field");
	is_str(s_at(o, "result.structuredContent.field"), "observation", "naming observation");
	json_object_put(o);
	o = call(BRAND_LOWER "_draft_review", "{\"routeId\":" RID ",\"observation\":\"\"}", &st);
	is_str(s_at(o, "result.structuredContent.error"), "invalid_field", "empty observation");
	json_object_put(o);
	o = call(BRAND_LOWER "_draft_review", "{\"routeId\":\"0x12\",\"observation\":\"x\"}", &st);
	is_str(s_at(o, "result.structuredContent.field"), "routeId", "short routeId: isError");
	json_object_put(o);
	o = call(BRAND_LOWER "_draft_review", "{\"observation\":\"x\"}", &st);
	is_str(s_at(o, "result.structuredContent.error"), "missing_field", "missing routeId");
	json_object_put(o);
	o = call(BRAND_LOWER "_draft_review", "{\"routeId\":" RID ",\"observation\":null}", &st);
	is_str(s_at(o, "result.structuredContent.error"), "invalid_field", "null observation");
	json_object_put(o);
	o = call(BRAND_LOWER "_draft_review", "{\"routeId\":" RID ",\"observation\":5}", &st);
	is_str(s_at(o, "result.structuredContent.error"), "invalid_field", "number observation");
	json_object_put(o);

	o = call(BRAND_LOWER "_prepare_review", "{\"routeId\":" RID ",\"outcome\":\"request_failed\","
	    "\"schemaCheck\":\"not_checked\"}", &st);
	ok(!json_object_get_boolean(at(o, "result.isError")) &&
	    strstr(s_at(o, "result.structuredContent.reviewText"), "failed"), "prepare_review");
	json_object_put(o);
	o = call(BRAND_LOWER "_prepare_review", "{\"routeId\":" RID ",\"outcome\":\"request_failed\","
	    "\"schemaCheck\":\"passed\"}", &st);
	ok(json_object_get_boolean(at(o, "result.isError")), "inconsistent facts: isError");
	is_str(s_at(o, "result.structuredContent.field"), "schemaCheck", "naming schemaCheck");
	json_object_put(o);
	o = call(BRAND_LOWER "_prepare_review", "{\"routeId\":" RID ",\"outcome\":\"ok\","
	    "\"schemaCheck\":\"passed\"}", &st);
	is_str(s_at(o, "result.structuredContent.field"), "outcome", "outcome outside its list");
	json_object_put(o);

	o = call(BRAND_LOWER "_discovery", "{\"limit\":21}", &st);
	is_str(s_at(o, "result.structuredContent.field"), "limit", "discovery limit 21: isError");
	json_object_put(o);
	o = call(BRAND_LOWER "_discovery", "{\"limit\":\"5\"}", &st);
	is_str(s_at(o, "result.structuredContent.field"), "limit", "limit as a string: isError");
	json_object_put(o);
	o = call(BRAND_LOWER "_discovery", "{\"reviewer\":\"0xF39fd6e51aad88f6f4ce6ab8827279cfffb92266\"}",
	    &st);
	is_str(s_at(o, "result.structuredContent.field"), "reviewer", "bad checksum: isError");
	json_object_put(o);
	o = call(BRAND_LOWER "_discovery", "{}", &st);
	is_str(s_at(o, "result.structuredContent.error"), "database_unavailable",
	    "discovery without a database: an error result, never an empty success");
	json_object_put(o);

	o = call("nope", "{}", &st);
	ok(st == 200 && code_of(o) == MCP_INVALID_PARAMS, "unknown tool: -32602");
	json_object_put(o);
	o = call(BRAND_LOWER "_economics", "[1]", &st);
	ok(code_of(o) == MCP_INVALID_PARAMS, "arguments not an object: -32602");
	json_object_put(o);
	o = answer("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}", &st);
	ok(code_of(o) == MCP_INVALID_PARAMS, "tools/call without params: -32602");
	json_object_put(o);
}

int
main(void)
{
	char err[256] = "";

	unsetenv("WAYMARK_CONFIG");
	if (!ok(config_load(&cfg, NULL, err, sizeof(err)) == 0, "configuration loads: %s", err))
		return done_testing();
	pool_init(&r.pool, 1 << 24);
	test_tools_list();
	test_lifecycle();
	test_calls();
	pool_release(&r.pool);
	return done_testing();
}
