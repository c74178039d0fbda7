/*
 * route.h: routeId against the deployed protocol's conformance vectors
 * (t/vectors/route-ids.json, read from the repository root), and the
 * inputs the deployed code rejects.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "keccak.h"
#include "hex.h"
#include "route.h"
#include "tap.h"
#include "url.h"
#include "banned.h"

#define VECTORS "t/vectors/route-ids.json"

static const char *
str_at(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, k1, &v))
		return NULL;
	if (k2 != NULL && !json_object_object_get_ex(v, k2, &v))
		return NULL;
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static void
check_vectors(void)
{
	static struct route_parts parts;
	struct json_object *root = json_object_from_file(VECTORS), *routes = NULL;
	size_t count;

	if (!ok(root != NULL && json_object_object_get_ex(root, "routes", &routes) &&
	    json_object_is_type(routes, json_type_array), "read %s", VECTORS)) {
		json_object_put(root);
		return;
	}
	count = json_object_array_length(routes);
	ok(count == 12, "12 route vectors to check (got %zu)", count);
	for (size_t i = 0; i < count; i++) {
		struct json_object *v = json_object_array_get_idx(routes, i);
		const char *name = str_at(v, "name", NULL);
		const char *url = str_at(v, "input", "publicEndpointUrl");
		const char *method = str_at(v, "input", "method");
		const char *want_id = str_at(v, "routeId", NULL);
		char id[ROUTE_ID_HEX_SIZE];
		enum route_err e;

		if (!ok(name && url && method && want_id, "vector %zu is complete", i))
			continue;
		e = route_id_hex(method, strlen(method), url, strlen(url), id, &parts);
		if (!ok(e == ROUTE_OK, "%s: accepted (%s)", name, route_strerror(e)))
			continue;
		is_str(parts.url.origin, str_at(v, "normalized", "origin"), "%s: origin", name);
		is_str(parts.method, str_at(v, "normalized", "method"), "%s: method", name);
		is_str(parts.url.path, str_at(v, "normalized", "publicPath"), "%s: publicPath", name);
		is_str(id, want_id, "%s: routeId", name);
	}
	json_object_put(root);
}

struct bad_case {
	const char *method;
	const char *url;
	enum route_err want;
	enum url_err want_url;
	const char *why;
};

static const struct bad_case bad_cases[] = {
	{ "GET", "http://api.example.com/v1", ROUTE_BAD_URL, URL_NOT_HTTPS, "http scheme" },
	{ "GET", "https://userinfo@api.example.com/v1", ROUTE_BAD_URL, URL_CREDENTIALS, "userinfo" },
	{ "GET", "https://user:pw@api.example.com/v1", ROUTE_BAD_URL, URL_CREDENTIALS, "user and password" },
	{ "GET", "https://xn--/v1", ROUTE_BAD_URL, URL_IDN_INVALID, "empty A-label" },
	{ "GET", "https://api.example.com:65536/v1", ROUTE_BAD_URL, URL_PORT_INVALID, "port 65536" },
	{ "GET", "https://api.example.com:70000/v1", ROUTE_BAD_URL, URL_PORT_INVALID, "port 70000" },
	{ "GET", "https://2001:db8::1/v1", ROUTE_BAD_URL, URL_PORT_INVALID, "unbracketed IPv6" },
	{ "GET", "https:///", ROUTE_BAD_URL, URL_HOST_EMPTY, "empty host" },
	{ "GET", "https://:8443/v1", ROUTE_BAD_URL, URL_HOST_EMPTY, "empty host before a port" },
	{ "GET", "https://b\xc3\xbc" "cher.example/caf\xc3\xa9", ROUTE_BAD_URL, URL_IDN_UNSUPPORTED,
	    "non-ASCII host" },
	{ "GET", "https://api.example.com/v1\xff", ROUTE_BAD_URL, URL_BAD_UTF8, "invalid UTF-8" },
	{ "GET", "https://api.example.com/bad%2", ROUTE_BAD_PATH, URL_OK, "bare '%' before one digit" },
	{ "GET", "https://api.example.com/a%", ROUTE_BAD_PATH, URL_OK, "bare '%' at the end" },
	{ "GET", "https://api.example.com/%zz/b", ROUTE_BAD_PATH, URL_OK, "'%' before non-hex" },
	{ "", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "empty method" },
	{ "GET POST", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "method with a space" },
	{ "G\xc3\x89T", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "non-ASCII method" },
	{ "GET\n", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "method with a newline" },
	{ "GET/1", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "method with a '/'" },
	{ "trace", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "TRACE (Fetch refuses it)" },
	{ "Connect", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "CONNECT (Fetch refuses it)" },
	{ "TRACK", "https://api.example.com/v1", ROUTE_BAD_METHOD, URL_OK, "TRACK (Fetch refuses it)" },
};

static void
check_bad(void)
{
	static struct route_parts parts;

	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		uint8_t id[ROUTE_ID_LEN];
		enum route_err e;

		memset(id, 0xa5, sizeof(id));
		e = route_id(c->method, strlen(c->method), c->url, strlen(c->url), id, &parts);
		ok(e == c->want && parts.url_err == c->want_url && id[0] == 0xa5 && id[31] == 0xa5,
		    "reject %s: %s (got %d/%d)", c->why, route_strerror(c->want), (int)e, (int)parts.url_err);
	}
}

/* The URL_MAX bound, on "https://api.example.com/aaa...". */
static void
check_lengths(void)
{
	static char big[URL_MAX + 2];
	static const char head[] = "https://api.example.com/";
	static struct route_parts parts;
	uint8_t id[ROUTE_ID_LEN];
	enum route_err e;

	memcpy(big, head, sizeof(head) - 1);
	memset(big + sizeof(head) - 1, 'a', sizeof(big) - sizeof(head));
	e = route_id("GET", 3, big, URL_MAX, id, &parts);
	ok(e == ROUTE_OK, "a %d-byte URL is accepted", URL_MAX);
	e = route_id("GET", 3, big, URL_MAX + 1, id, &parts);
	ok(e == ROUTE_BAD_URL && parts.url_err == URL_TOO_LONG, "a %d-byte URL is rejected", URL_MAX + 1);
}

static void
check_methods(void)
{
	char m[ROUTE_METHOD_MAX + 1];
	char g[ROUTE_METHOD_MAX + 2];

	ok(route_method_normalize("get", 3, m) == 0 && strcmp(m, "GET") == 0, "get -> GET");
	ok(route_method_normalize("x-Custom!~", 10, m) == 0 && strcmp(m, "X-CUSTOM!~") == 0,
	    "a token with punctuation is uppercased");
	ok(route_method_normalize("patch", 5, m) == 0 && strcmp(m, "PATCH") == 0, "patch -> PATCH");
	ok(route_method_normalize("TRACES", 6, m) == 0, "TRACES is not TRACE");
	memset(g, 'G', sizeof(g));
	ok(route_method_normalize(g, ROUTE_METHOD_MAX, m) == 0 && strlen(m) == ROUTE_METHOD_MAX,
	    "%d-character method accepted", ROUTE_METHOD_MAX);
	ok(route_method_normalize(g, ROUTE_METHOD_MAX + 1, m) < 0, "%d-character method rejected",
	    ROUTE_METHOD_MAX + 1);
	ok(route_method_normalize("GET\0", 4, m) < 0, "an embedded NUL is rejected");
	ok(route_method_normalize(NULL, 0, m) < 0, "NULL is rejected");
}

/* route_id on NUL-terminated strings. */
static enum route_err
rid(const char *method, const char *url, uint8_t out[ROUTE_ID_LEN], struct route_parts *parts)
{
	return route_id(method, strlen(method), url, strlen(url), out, parts);
}

static enum route_err
rid_hex(const char *method, const char *url, char out[ROUTE_ID_HEX_SIZE], struct route_parts *parts)
{
	return route_id_hex(method, strlen(method), url, strlen(url), out, parts);
}

int
main(void)
{
	uint8_t a[ROUTE_ID_LEN], b[ROUTE_ID_LEN];
	char hex[ROUTE_ID_HEX_SIZE];
	static struct route_parts parts;

	check_vectors();
	check_bad();
	check_lengths();
	check_methods();

	/* The preimage, spelled out once against the first vector. */
	{
		static const char pre[] = "boon:x402-route:v1\nGET\nhttps://api.example.com\n/search";

		keccak256(pre, sizeof(pre) - 1, a);
		hex_encode(a, sizeof(a), hex);
		is_str(hex, "0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73",
		    "preimage is \"%s\" METHOD ORIGIN PATH joined by newlines", ROUTE_DOMAIN);
	}

	ok(rid("get", "https://api.example.com/a/../b/", a, &parts) == ROUTE_OK &&
	    strcmp(parts.url.path, "/b/") == 0, "dot segments resolve and a trailing slash stays");
	ok(rid("GET", "https://api.example.com?q=private", a, &parts) == ROUTE_OK &&
	    strcmp(parts.url.path, "/") == 0 && strcmp(parts.url.origin, "https://api.example.com") == 0,
	    "a query-only URL has path /");
	ok(rid("GET", "https://api.example.com/search?x=1#y", b, NULL) == ROUTE_OK &&
	    rid("GET", "https://api.example.com/search", a, NULL) == ROUTE_OK &&
	    memcmp(a, b, sizeof(a)) == 0, "query and fragment do not change the routeId (parts NULL)");
	ok(rid("GET", "https://127.0.0.1:8443/v1/data", a, &parts) == ROUTE_OK &&
	    parts.url.host_kind == URL_HOST_IPV4, "IP literals are accepted for route IDs");
	ok(rid("POST", "https://api.example.com/v1", a, NULL) == ROUTE_OK &&
	    rid("GET", "https://api.example.com/v1", b, NULL) == ROUTE_OK &&
	    memcmp(a, b, sizeof(a)) != 0, "the method is part of the routeId");
	ok(rid_hex("GET", "https://api.example.com/v1", hex, NULL) == ROUTE_OK &&
	    hex_is_lower_prefixed(hex, strlen(hex), 64), "route_id_hex writes 0x + 64 lowercase digits");
	ok(strcmp(route_strerror(ROUTE_BAD_PATH), route_strerror(ROUTE_BAD_URL)) != 0 &&
	    route_strerror(ROUTE_ERR__MAX) != NULL, "route_strerror");
	return done_testing();
}
