/*
 * The cross-origin headers (lib/cors.h) of answers and preflights, over a
 * table of rows of every kind (vectors: row, what it exposes, what its
 * preflight allows), and the interface description's hold on the real
 * table (handlers/openapi.h): one operation per row, ids unique.
 */
#include <string.h>

#include "config.h"
#include "cors.h"
#include "demotable.h"
#include "openapi.h"
#include "table.h"
#include "tap.h"
#include "banned.h"

static const struct endpoint demo[] = {
	{ .id = "free", .method = HM_GET, .pattern = "/free", .handler = h_dummy },
	{ .id = "paid", .method = HM_GET, .pattern = "/both", .handler = h_dummy, .auth = AUTH_PAID,
	    .price_usdc = "0.01" },
	{ .id = "post", .method = HM_POST, .pattern = "/both", .handler = h_dummy, .body = BODY_JSON,
	    .body_max = 10 },
	{ .id = "siwx", .method = HM_PUT, .pattern = "/p/{id}", .handler = h_dummy, .auth = AUTH_SIWX },
	{ .id = "rpc", .method = HM_POST, .pattern = "/rpc", .handler = h_dummy, .flags = EP_JSONRPC },
	{ .id = "a2a", .method = HM_POST, .pattern = "/a2a", .handler = h_dummy, .flags = EP_A2A },
	{ .id = "unlock", .method = HM_GET, .pattern = "/u/{n}", .handler = h_dummy, .auth = AUTH_PAID,
	    .price_usdc = "1", .rate = RATE_UNLOCK },
};

/* The value of header name in w's header lines, into out[cap]; "" when absent. */
static const char *
hval(const struct resp *w, const char *name, char *out, size_t cap)
{
	const char *h = buf_str(&w->headers), *p;
	size_t n = strlen(name);

	out[0] = '\0';
	for (p = h; p && *p; p = strstr(p, "\r\n") ? strstr(p, "\r\n") + 2 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			const char *v = p + n + 2, *end = strstr(v, "\r\n");

			snprintf(out, cap, "%.*s", (int)(end ? end - v : (long)strlen(v)), v);
			break;
		}
	return out;
}

static void
test_answers(void)
{
	static const struct {
		const char *id, *expose;
	} v[] = {
		{ "free", "Retry-After" },
		{ "paid", "PAYMENT-REQUIRED, PAYMENT-RESPONSE, WWW-Authenticate, Payment-Receipt, Retry-After" },
		{ "siwx", "PAYMENT-REQUIRED, Retry-After" },
		{ "rpc", "Mcp-Session-Id, Retry-After" },
		{ "a2a", "A2A-Version, A2A-Extensions, Retry-After" },
	};
	char got[512];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct endpoint *ep = NULL;
		struct resp w;

		for (size_t k = 0; k < DEMO_ROWS(demo); k++)
			if (strcmp(demo[k].id, v[i].id) == 0)
				ep = &demo[k];
		resp_init(&w);
		ok(cors_answer(ep, &w) == 0, "%s: the headers fit", v[i].id);
		is_str(hval(&w, "Access-Control-Allow-Origin", got, sizeof(got)), "*", "%s: any origin",
		    v[i].id);
		is_str(hval(&w, "Access-Control-Expose-Headers", got, sizeof(got)), v[i].expose,
		    "%s: exposes its headers", v[i].id);
		resp_release(&w);
	}
}

static void
test_preflights(void)
{
	static const struct {
		const char *path;
		unsigned allow;
		const char *methods, *headers;
	} v[] = {
		{ "/free", 1u << HM_GET, "GET", "Content-Type, Accept" },
		{ "/both", (1u << HM_GET) | (1u << HM_POST), "GET, POST",
		    "Content-Type, Accept, PAYMENT-SIGNATURE, Authorization" },
		{ "/p/7", 1u << HM_PUT, "PUT", "Content-Type, Accept, SIGN-IN-WITH-X" },
		{ "/rpc", 1u << HM_POST, "POST", "Content-Type, Accept, Authorization, Mcp-Session-Id, "
		    "MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name" },
		{ "/a2a", 1u << HM_POST, "POST", "Content-Type, Accept, A2A-Version, A2A-Extensions" },
		{ "/u/1", 1u << HM_GET, "GET", "Content-Type, Accept, PAYMENT-SIGNATURE, Authorization, "
		    "x-boon-auth-address, x-boon-auth-sig, x-boon-auth-nonce, x-boon-auth-deadline" },
	};
	char got[512];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct resp w;

		resp_init(&w);
		ok(cors_preflight(demo, DEMO_ROWS(demo), v[i].path, v[i].allow, &w) == 0 && w.status == 204 &&
		    w.body.len == 0, "%s: preflight 204, no body", v[i].path);
		is_str(hval(&w, "Access-Control-Allow-Origin", got, sizeof(got)), "*", "%s: any origin",
		    v[i].path);
		is_str(hval(&w, "Access-Control-Allow-Methods", got, sizeof(got)), v[i].methods,
		    "%s: its rows' methods", v[i].path);
		is_str(hval(&w, "Access-Control-Allow-Headers", got, sizeof(got)), v[i].headers,
		    "%s: its rows' request headers, each once", v[i].path);
		is_str(hval(&w, "Access-Control-Max-Age", got, sizeof(got)), CORS_MAX_AGE,
		    "%s: may be cached", v[i].path);
		resp_release(&w);
	}
}

/* The real table's description: one operation per row under its pattern, ids unique. */
static void
test_openapi(void)
{
	struct config c;
	char err[256];
	json_object *doc, *paths, *item, *op;
	size_t found = 0, dup = 0;

	ok(config_load(&c, NULL, err, sizeof(err)) == 0, "the built-in configuration loads");
	doc = openapi_json(&c, endpoints, nendpoints);
	ok(doc && json_object_object_get_ex(doc, "paths", &paths), "the document has paths");
	for (size_t i = 0; doc && i < nendpoints; i++) {
		char m[16];

		snprintf(m, sizeof(m), "%s", http_method_name(endpoints[i].method));
		for (char *p = m; *p; p++)
			*p = (char)(*p - 'A' + 'a');
		if (json_object_object_get_ex(paths, endpoints[i].pattern, &item) &&
		    json_object_object_get_ex(item, m, &op) &&
		    strcmp(json_object_get_string(json_object_object_get(op, "operationId")),
		    endpoints[i].id) == 0)
			found++;
		for (size_t k = 0; k < i; k++)
			if (strcmp(endpoints[k].id, endpoints[i].id) == 0)
				dup++;
	}
	ok(found == nendpoints, "every row is its own operation (%zu of %zu)", found, nendpoints);
	ok(dup == 0, "row ids, the operationIds, are unique");
	json_object_put(doc);
}

int
main(void)
{
	test_answers();
	test_preflights();
	test_openapi();
	return done_testing();
}
