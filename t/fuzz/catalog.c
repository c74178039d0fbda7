/*
 * libFuzzer target for listings of the wider x402 network (lib/catalog.c):
 * the input is one page of a Bazaar-compatible discovery API as a remote
 * catalog sends it. Each item of the page (or the input itself, when it is
 * not a page) goes through catalog_item_parse, which must refuse it with a
 * reason or give a bounded record that is safe to show and to store:
 * - every text field is NUL-terminated inside its array and valid UTF-8;
 * - description and service name are within their character bounds, with
 *   no control, bidirectional or line-separator character, no leading,
 *   trailing or doubled space, and a non-empty description;
 * - the URL, kept as listed, passes the public-URL policy again and holds
 *   no space or control character (which the URL parser would have
 *   trimmed or dropped before checking it), and a route ID, when
 *   there is one, is the route ID of (method, URL);
 * - the amount is empty or atomic digits; a USDC price appears only for
 *   a known USDC asset and converts back to the amount.
 */
#include <json-c/json.h>

#include "catalog.h"
#include "decimal.h"
#include "fuzz.h"
#include "json.h"
#include "route.h"
#include "url.h"
#include "utf8.h"
#include "banned.h"

/* No character a listing's text may not show, and spaces only single and inside. */
static void
check_text(const char *s, size_t maxchars)
{
	size_t n = strlen(s), chars = 0;

	CHECK(fuzz_utf8_ok(s, n));
	if (n == 0)
		return;
	CHECK(s[0] != ' ' && s[n - 1] != ' ' && strstr(s, "  ") == NULL);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);

		CHECK(k > 0);
		CHECK(cp >= 0x20 && !(cp >= 0x7f && cp <= 0x9f) && !(cp >= 0x202a && cp <= 0x202e) &&
		    !(cp >= 0x2066 && cp <= 0x2069) && cp != 0x2028 && cp != 0x2029);
		chars++;
		i += (size_t)k;
	}
	CHECK(chars <= maxchars);
}

static void
check_item(json_object *it)
{
	static struct catalog_item c;
	static struct url u;
	char why[256] = "", back[100];
	struct decimal d;
	uint8_t id[32];
	size_t n;

	if (catalog_item_parse(it, &c, why, sizeof(why)) < 0) {
		CHECK(why[0] != '\0' && fuzz_cstr_ok(why, sizeof(why)));
		CHECK(c.refusal > CR_NONE && c.refusal < CR__MAX);
		CHECK(strcmp(catalog_refusal_code(c.refusal), "none") != 0);
		return;
	}
	CHECK(c.refusal == CR_NONE);
	/* The item served again is JSON within its bound, an http resource at the URL kept. */
	{
		json_object *served = NULL;
		struct json_error je;
		size_t sl = strlen(c.item_json);

		CHECK(sl > 0 && sl <= CATALOG_ITEM_JSON_MAX);
		CHECK(json_parse_strict(c.item_json, sl, NULL, &served, &je) == 0);
		CHECK(strcmp(json_member_string(served, "resource", NULL), c.url) == 0);
		CHECK(strcmp(json_member_string(served, "type", NULL), "http") == 0);
		json_object_put(served);
	}
	CHECK(fuzz_cstr_ok(c.schemes, sizeof(c.schemes)) && fuzz_cstr_ok(c.networks, sizeof(c.networks)));
	CHECK(fuzz_cstr_ok(c.pay_tos, sizeof(c.pay_tos)) && fuzz_cstr_ok(c.extension_keys, sizeof(c.extension_keys)));
	CHECK(fuzz_cstr_ok(c.tags_text, sizeof(c.tags_text)) && fuzz_cstr_ok(c.fields_text, sizeof(c.fields_text)));
	CHECK(strlen(c.fields_text) <= CATALOG_FIELDS_MAX);
	CHECK(fuzz_cstr_ok(c.url, sizeof(c.url)) && fuzz_cstr_ok(c.method, sizeof(c.method)));
	CHECK(fuzz_cstr_ok(c.description, sizeof(c.description)));
	CHECK(fuzz_cstr_ok(c.service_name, sizeof(c.service_name)));
	CHECK(fuzz_cstr_ok(c.network, sizeof(c.network)) && fuzz_cstr_ok(c.asset, sizeof(c.asset)));
	CHECK(fuzz_cstr_ok(c.pay_to, sizeof(c.pay_to)) && fuzz_cstr_ok(c.amount, sizeof(c.amount)));
	CHECK(fuzz_cstr_ok(c.price_usdc, sizeof(c.price_usdc)));
	CHECK(fuzz_cstr_ok(c.last_updated, sizeof(c.last_updated)));
	check_text(c.description, CATALOG_DESCRIPTION_MAX);
	CHECK(c.description[0] != '\0');
	check_text(c.service_name, CATALOG_SERVICE_MAX);
	CHECK(url_check_public(c.url, strlen(c.url), URL_ALLOW_QUERY, &u) == URL_OK);
	for (const char *p = c.url; *p; p++)
		CHECK((unsigned char)*p > ' ' && *p != 0x7f);
	if (c.method[0] != '\0') {
		char norm[ROUTE_METHOD_MAX + 1];

		CHECK(route_method_normalize(c.method, strlen(c.method), norm) == 0 &&
		    strcmp(norm, c.method) == 0);
	}
	CHECK(!c.has_route || c.method[0] != '\0');
	if (c.has_route)
		CHECK(route_id(c.method, strlen(c.method), c.url, strlen(c.url), id, NULL) == ROUTE_OK &&
		    memcmp(id, c.route_id, 32) == 0);
	n = strlen(c.amount);
	CHECK(n <= 78 && strspn(c.amount, "0123456789") == n);
	if (c.price_usdc[0] != '\0') {
		CHECK(n > 0);
		CHECK(strcmp(c.network, "eip155:8453") == 0 || strcmp(c.network, "eip155:84532") == 0);
		/* The display price is the atomic amount in USDC's 6 decimals
		 * (decimal.h: it parses again up to 66 atomic digits). */
		if (decimal_parse(c.price_usdc, strlen(c.price_usdc), &d) == DECIMAL_OK) {
			CHECK(decimal_to_atomic(&d, 6, back, sizeof(back)) == DECIMAL_OK);
			CHECK(strcmp(back, c.amount) == 0);
		} else {
			CHECK(n > 66);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct json_limits lim = {
		.max_depth = 32, .max_length = 1 << 20, .max_string = 1 << 16, .max_members = 4096,
	};
	json_object *page = NULL, *items = NULL;
	struct json_error je;
	long long total = 0;

	if (json_parse_strict((const char *)data, size, &lim, &page, &je) < 0)
		return 0;
	if (catalog_page(page, &items, &total) == 0) {
		CHECK(json_object_is_type(items, json_type_array) && total >= -1);
		for (size_t i = 0; i < json_object_array_length(items) && i < 64; i++)
			check_item(json_object_array_get_idx(items, i));
	} else {
		check_item(page);
	}
	json_object_put(page);
	return 0;
}
