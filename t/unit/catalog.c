/*
 * Catalog items (lib/catalog.c) that t/fuzz/catalog found mishandled; the
 * inputs are in t/fuzz/corpus/catalog/ as well. The listing cases with
 * signed offers are in t/unit/receipt.c.
 */
#include <string.h>

#include <json-c/json.h>

#include "catalog.h"
#include "json.h"
#include "utf8.h"
#include "tap.h"
#include "banned.h"

static json_object *
parse(const char *s)
{
	json_object *o = NULL;
	struct json_error je;

	if (json_parse_strict(s, strlen(s), NULL, &o, &je) < 0)
		return NULL;
	return o;
}

#define ACCEPTS "\"accepts\":[{\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"amount\":\"10\"," \
	"\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x00000000000000000000000000000000000000AB\"}]"

/* The refusal of one item, as its wire name. */
static const char *
refusal_of(const char *text)
{
	static struct catalog_item it;
	char why[256];
	json_object *o = parse(text);
	int rc = o ? catalog_item_parse(o, &it, why, sizeof(why)) : 0;

	json_object_put(o);
	return rc < 0 ? catalog_refusal_code(it.refusal) : "stored";
}

int
main(void)
{
	static struct catalog_item it;
	char why[256];
	json_object *o;

	/* "type %.20s" cut the type inside U+202E: the reason was not UTF-8. */
	o = parse("{\"resource\":\"https://a.example.com/x\",\"type\":\"httpk\\u202e evil\\u0007 bell\\u0085 nel\","
	    "\"description\":\"d\"}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) < 0, "an item of another type is refused");
	ok(utf8_valid(why, strlen(why)) && strncmp(why, "type httpk", 10) == 0,
	    "its reason quotes the type cut to whole characters: %s", why);
	json_object_put(o);

	/* Found by the invariant that the URL kept is the URL checked: the
	 * parser trims spaces and drops tab and newlines before checking, so
	 * " https://a.example.com/x\n\ty " was stored and shown as listed. */
	o = parse("{\"resource\":\" https://a.example.com/x\\n\\ty \",\"description\":\"d\"}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) < 0 && strstr(why, "control") != NULL,
	    "a resource URL with spaces, a newline and a tab is refused");
	json_object_put(o);
	o = parse("{\"resource\":\"https://a.example.com/x\\u007f\",\"description\":\"d\"}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) < 0, "a resource URL with DEL is refused");
	json_object_put(o);
	o = parse("{\"resource\":\"https://A.example.com/x/../y?q=1\",\"description\":\"d\"," ACCEPTS "}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) == 0 &&
	    strcmp(it.url, "https://A.example.com/x/../y?q=1") == 0, "a listed URL that is only not normalized is kept as listed");
	json_object_put(o);

	/* Each refusal named (lib/catalog.h, enum catalog_refusal). */
	is_str(refusal_of("{\"resource\":\"http://a.example.com/x\",\"description\":\"d\"," ACCEPTS "}"), "not_https",
	    "plain http: not_https");
	is_str(refusal_of("{\"resource\":\"https://10.1.2.3/x\",\"description\":\"d\"," ACCEPTS "}"), "local_host",
	    "an IP literal: local_host");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/u/{id}\",\"description\":\"d\"," ACCEPTS "}"),
	    "route_template", "a {id} template: route_template");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/u/%7Bid%7D\",\"description\":\"d\"," ACCEPTS "}"),
	    "route_template", "its percent-encoded form too");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/u/:id/x\",\"description\":\"d\"," ACCEPTS "}"),
	    "route_template", "a :id segment too");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/u:1\",\"description\":\"d\"," ACCEPTS "}"),
	    "stored", "a colon inside a segment is no template");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/x\"," ACCEPTS "}"), "no_description", "no description");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/x\",\"description\":\"d\"}"), "no_accepts",
	    "no accepts");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/x\",\"description\":\"d\",\"accepts\":[{\"network\":"
	    "\"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp\",\"asset\":\"x\"}]}"), "unsupported_network", "Solana only");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/x\",\"description\":\"d\",\"accepts\":[{\"network\":"
	    "\"base\",\"asset\":\"USDC\"}]}"), "unsupported_asset", "an asset that is no token address");
	is_str(refusal_of("{\"resource\":\"https://a.example.com/x\",\"type\":\"mcp\",\"description\":\"d\"}"),
	    "not_http", "an MCP tool");

	/* The item served again and its filter facts. */
	o = parse("{\"resource\":\"https://w.example.com/v1/now\",\"type\":\"http\",\"x402Version\":1,"
	    "\"description\":\"Weather now\",\"lastUpdated\":1761955200,\"tags\":[\"weather\",7,\"  \",\"climate\"],"
	    "\"iconUrl\":\"http://w.example.com/i.png\",\"accepts\":[{\"scheme\":\"exact\",\"network\":\"base\","
	    "\"maxAmountRequired\":\"10\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":"
	    "\"0x00000000000000000000000000000000000000AB\",\"outputSchema\":{\"input\":{\"method\":\"GET\","
	    "\"queryParams\":{\"city\":{\"type\":\"string\",\"description\":\"City name\"}}}}},"
	    "{\"scheme\":\"upto\",\"network\":\"eip155:10\",\"asset\":\"0x0000000000000000000000000000000000000001\","
	    "\"payTo\":\"0x00000000000000000000000000000000000000AB\"}],\"extensions\":{\"bazaar\":{\"info\":{}},"
	    "\"offer-receipt\":{}}}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) == 0, "a full v1 item is stored");
	is_str(it.schemes, "exact,upto", "its schemes");
	is_str(it.networks, "eip155:8453,eip155:10", "its networks, as CAIP-2");
	is_str(it.pay_tos, "0x00000000000000000000000000000000000000ab", "its payTo addresses, once each, lower case");
	is_str(it.extension_keys, "bazaar,offer-receipt", "its extension keys");
	is_str(it.tags_text, "weather climate", "its tags, strings only, empty ones dropped");
	is_str(it.fields_text, "city City name", "its input field names and descriptions, not JSON Schema's words");
	{
		json_object *served = parse(it.item_json);

		is_str(json_member_string(served, "lastUpdated", NULL), "2025-11-01T00:00:00Z",
		    "lastUpdated served as an ISO 8601 string");
		ok(served && !json_object_object_get_ex(served, "iconUrl", NULL), "an icon URL that is not public HTTPS is dropped");
		ok(served && json_object_array_length(json_object_object_get(served, "accepts")) == 2, "every accepts entry served");
		json_object_put(served);
	}
	json_object_put(o);

	/* A page's total was passed on as given, -250 included. */
	{
		json_object *items = NULL;
		long long total = 0;

		o = parse("{\"items\":[],\"pagination\":{\"total\":-250}}");
		ok(o != NULL && catalog_page(o, &items, &total) == 0 && total == -1,
		    "a negative total is taken as unknown (-1)");
		json_object_put(o);
		o = parse("{\"resources\":[],\"pagination\":{\"total\":250}}");
		ok(o != NULL && catalog_page(o, &items, &total) == 0 && total == 250 &&
		    json_object_is_type(items, json_type_array), "a total of 250 is kept");
		json_object_put(o);
	}
	return done_testing();
}
