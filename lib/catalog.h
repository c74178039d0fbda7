/*
 * catalog.h: items of a Bazaar-compatible x402 discovery API (the "wider
 * x402 network"), v1 and v2 shapes, turned into bounded records. Listings
 * are untrusted: text is cut to its bounds, control and bidirectional
 * characters become spaces, URLs must pass the public-URL policy and hold
 * no space or control character (they are kept as listed), and nothing an
 * item names is ever fetched.
 *
 * Field mapping (docs/PROTOCOL.md, Network catalog): URL = resource; method =
 * extensions.bazaar.info.input.method, else accepts[0].outputSchema.input
 * .method, else unknown; description = description, else the accepts
 * entry's; service name = serviceName, else the URL host; price = the
 * first accepts entry on Base (v2 amount, v1 maxAmountRequired), shown in
 * USDC only when its asset is that network's USDC.
 */
#ifndef WAYMARK_CATALOG_H
#define WAYMARK_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"

#define CATALOG_DESCRIPTION_MAX 1000   /* characters */
#define CATALOG_SERVICE_MAX 160        /* characters */
#define CATALOG_OFFERS_MAX 8           /* signed offers looked at per item */

struct catalog_item {
	char url[2049];
	char method[16];               /* "" when the listing does not say */
	bool has_route;
	uint8_t route_id[32];
	char description[4 * CATALOG_DESCRIPTION_MAX + 1];
	char service_name[4 * CATALOG_SERVICE_MAX + 1];
	char network[65];
	char asset[65];
	char pay_to[65];
	bool has_offer_signer;         /* a signed x402 offer matched the challenge */
	struct addr offer_signer;
	char amount[80];               /* atomic units as listed, "" when none */
	char price_usdc[100];          /* display USDC, "" unless the asset is USDC */
	int x402_version;
	char last_updated[41];
};

/*
 * Parse one listing item. When the item carries the offer-receipt
 * extension (extensions["offer-receipt"].info.offers[]), the first eip712
 * offer that matches the chosen challenge (same resource URL, network,
 * scheme, asset, payTo and amount, as x402's own helpers match them) and
 * whose signature recovers gives offer_signer. Returns 0, or -1 with a reason in why[cap] when
 * the item is not a usable http resource (wrong type, URL refused by the
 * public policy, malformed).
 */
int catalog_item_parse(json_object *item, struct catalog_item *out, char *why, size_t cap);

/*
 * The items array and paging of one page: {items|resources: [...],
 * pagination?{total}}. *items is borrowed from page; *total is -1 when
 * the page does not say (or gives a negative count). 0 or -1.
 */
int catalog_page(json_object *page, json_object **items, long long *total);

#endif
