/* Economics: the facilitator origin, prices from the table, the object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demotable.h"
#include "economics.h"
#include "json.h"
#include "table.h"
#include "tap.h"
#include "banned.h"

static const struct endpoint demo[] = {
	{ .id = "free", .method = HM_GET, .pattern = "/free", .handler = h_dummy },
	{ .id = "paid.read", .method = HM_GET, .pattern = "/api/v1/x402/routes/{routeId}",
	    .handler = h_dummy, .auth = AUTH_PAID, .price_usdc = "0.01" },
	{ .id = "siwx", .method = HM_GET, .pattern = "/siwx", .handler = h_dummy, .auth = AUTH_SIWX },
	{ .id = "paid.review", .method = HM_POST, .pattern = "/api/v1/x402/reviews/self-reported",
	    .handler = h_dummy, .auth = AUTH_PAID, .price_usdc = "0.05" },
};

static int
origin_is(const char *url, const char *want)
{
	char out[256];

	if (economics_origin(url, out, sizeof(out)) < 0)
		return want == NULL;
	return want != NULL && strcmp(out, want) == 0;
}

/* The string at a dotted path of o ("a.b.c"), or NULL. */
static const char *
str_at(json_object *o, const char *path)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	return o ? json_object_get_string(o) : NULL;
}

int
main(void)
{
	struct config cfg;
	char err[256], out[8];
	json_object *o, *prices, *row;
	size_t npaid = 0;

	ok(origin_is("https://api.cdp.coinbase.com/platform/v2/x402", "https://api.cdp.coinbase.com"),
	    "origin drops the path");
	ok(origin_is("http://127.0.0.1:4022/", "http://127.0.0.1:4022"), "keeps a non-default port");
	ok(origin_is("https://user:secret@Fac.Example:443/v?x#y", "https://fac.example"),
	    "drops credentials, the default port, query and fragment; lowercases");
	ok(origin_is("HTTP://H.example:80", "http://h.example"), "http default port dropped");
	ok(origin_is("https://h.example:", "https://h.example"), "empty port dropped");
	ok(origin_is("https://a@b@c.example/x", "https://c.example"), "every userinfo '@' dropped");
	ok(origin_is("https://h.example?q", "https://h.example"), "query right after the host");
	ok(origin_is("ftp://h.example", NULL), "ftp refused");
	ok(origin_is("https://", NULL) && origin_is("https:///x", NULL), "no host refused");
	ok(origin_is("https://:443/", NULL), "port only refused");
	ok(origin_is("https://h .example/", NULL), "space in host refused");
	ok(economics_origin("https://long.example", out, sizeof(out)) < 0, "too small a buffer");

	memset(&cfg, 0, sizeof(cfg));
	prices = economics_prices_json(&cfg, demo, DEMO_ROWS(demo));
	ok(json_object_array_length(prices) == 2, "two paid rows priced, free and SIWX rows not");
	row = json_object_array_get_idx(prices, 0);
	is_str(str_at(row, "resourceId"), "paid.read", "table order kept");
	is_str(str_at(row, "price.usdc"), "0.01", "display price");
	is_str(str_at(row, "price.atomic"), "10000", "atomic USDC");
	is_str(str_at(row, "method"), "GET", "method");
	is_str(str_at(row, "path"), "/api/v1/x402/routes/{routeId}", "path pattern");
	is_str(json_object_get_string(json_object_array_get_idx(
	    json_object_object_get(row, "protocols"), 0)), "x402", "protocol x402");
	ok(json_object_array_length(json_object_object_get(row, "protocols")) == 1,
	    "without an mpp_secret, x402 only");
	is_str(str_at(json_object_array_get_idx(prices, 1), "price.atomic"), "50000",
	    "0.05 USDC is 50000 atomic");
	json_object_put(prices);

	snprintf(cfg.mpp_secret, sizeof(cfg.mpp_secret), "%s", "0123456789abcdef0123456789abcdef");
	prices = economics_prices_json(&cfg, endpoints, nendpoints);
	for (size_t i = 0; i < nendpoints; i++)
		if (endpoints[i].auth == AUTH_PAID)
			npaid++;
	ok(json_object_array_length(prices) == npaid,
	    "every paid row of the real table is listed (%zu)", npaid);
	is_str(json_object_get_string(json_object_array_get_idx(json_object_object_get(
	    json_object_array_get_idx(prices, 0), "protocols"), 1)), "mpp", "with an mpp_secret, mpp too");
	json_object_put(prices);

	unsetenv("WAYMARK_CONFIG");
	unsetenv("WAYMARK_FACILITATOR_URL");
	unsetenv("WAYMARK_PAY_TO");
	unsetenv("WAYMARK_USDC_ADDRESS");
	unsetenv("WAYMARK_NETWORK");
	unsetenv("WAYMARK_COMPANION_ADDRESS");
	unsetenv("WAYMARK_BOON_ADDRESS");
	unsetenv("WAYMARK_CHAIN_ID");
	if (!ok(config_load(&cfg, NULL, err, sizeof(err)) == 0, "default configuration loads"))
		return done_testing();
	o = economics_json(&cfg);
	is_str(str_at(o, "version"), ECONOMICS_VERSION, "version");
	is_str(str_at(o, "network"), "eip155:8453", "network");
	is_str(str_at(o, "asset.address"), "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
	    "USDC address, EIP-55");
	is_str(str_at(o, "payTo.paidReads"), "0x9eD16E6E1c0eA4f3739d1cF23041ed7aA782c08F",
	    "payTo of paid reads, EIP-55");
	is_str(str_at(o, "payTo.paidReviewPublication"), "0x9eD16E6E1c0eA4f3739d1cF23041ed7aA782c08F",
	    "payTo of paid review publication");
	is_str(str_at(o, "facilitator.origin"), "https://api.cdp.coinbase.com",
	    "facilitator origin only");
	is_str(str_at(o, "recognitions.companionContract"),
	    "0xb7f990Ef5C59a6A50Fb226f0687D3FB43cF1Cd66", "companion contract");
	is_str(str_at(o, "recognitions.burn.amount"), "100000", "burn 100000 BOON");
	is_str(str_at(o, "recognitions.burn.atomic"), "100000000000000000000000", "burn atomic 1e23");
	is_str(str_at(o, "recognitions.burn.to"), "0x000000000000000000000000000000000000dEaD",
	    "burned to 0x...dEaD (EIP-55)");
	is_str(str_at(o, "recognitions.burn.token.address"),
	    "0x5Bec0bD17D16641660D66d82da4cF78b46B9EBA3", "BOON token");
	is_str(str_at(o, "recognitions.burn.fixed"), "true", "the burn is fixed");
	is_str(str_at(o, "experimental.tokenCredits.sold"), "false", "token credits not sold");
	is_str(str_at(o, "experimental.tokenCredits.status"), "disabled", "token credits disabled");
	is_str(str_at(o, "experimental.buybacks.executed"), "false", "buybacks not executed");
	is_str(str_at(o, "experimental.fixedBurns.changed"), "false", "fixed burns unchanged");
	ok(str_at(o, "interpretation") && strstr(str_at(o, "interpretation"), "ledger") &&
	    strstr(str_at(o, "interpretation"), "authoritative"), "interpretation");
	json_object_put(o);

	snprintf(cfg.facilitator_url, sizeof(cfg.facilitator_url), "ftp://nowhere");
	o = economics_json(&cfg);
	ok(json_object_object_get_ex(json_object_object_get(o, "facilitator"), "origin", &row) &&
	    row == NULL, "an unreadable facilitator URL gives origin null");
	json_object_put(o);
	return done_testing();
}
