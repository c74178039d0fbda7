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
#define CATALOG_ACCEPTS_MAX 8          /* accepts entries an item may list */
#define CATALOG_ITEM_JSON_MAX 16384    /* bytes of the item as served again */
#define CATALOG_TAGS_MAX 10            /* tags kept, each up to 40 characters */
#define CATALOG_FIELDS_MAX 2000        /* bytes of field words kept */

/*
 * Why a listing was refused (catalog_refusal_code() names it on the wire
 * and in `waymark catalog status`).
 */
enum catalog_refusal {
	CR_NONE,
	CR_MALFORMED,          /* not an object, or no resource */
	CR_TYPE,               /* a type other than http */
	CR_NOT_HTTPS,
	CR_LOCAL_HOST,         /* an IP literal, or a local or private host */
	CR_URL,                /* any other refusal of the public URL policy */
	CR_TEMPLATE,           /* a route template ({id}, :id) instead of a payable URL */
	CR_NO_DESCRIPTION,
	CR_NO_ACCEPTS,         /* no payment requirements */
	CR_NETWORK,            /* no accepts entry on an EVM (eip155) network */
	CR_ASSET,              /* the chosen entry's asset is not a token address */
	CR_TOO_LARGE,          /* more accepts entries, or a bigger item, than the bounds */
	CR__MAX
};

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
	enum catalog_refusal refusal;  /* CR_NONE for a stored item */
	/*
	 * The item as GET /discovery/resources serves it again (resource,
	 * type, x402Version, accepts, lastUpdated, description, serviceName,
	 * tags, iconUrl, mimeType, extensions), cleaned and bounded; and the
	 * facts its filters read, comma-separated.
	 */
	char item_json[CATALOG_ITEM_JSON_MAX + 1];
	char schemes[200], networks[600], pay_tos[600], extension_keys[300];
	char tags_text[4 * 40 * CATALOG_TAGS_MAX + CATALOG_TAGS_MAX];   /* space-separated */
	char fields_text[CATALOG_FIELDS_MAX + 1];   /* Bazaar input/output field names and descriptions */
};

/*
 * Parse one listing item. When the item carries the offer-receipt
 * extension (extensions["offer-receipt"].info.offers[]), the first eip712
 * offer that matches the chosen challenge (same resource URL, network,
 * scheme, asset, payTo and amount, as x402's own helpers match them) and
 * whose signature recovers gives offer_signer. Returns 0, or -1 with a
 * reason in why[cap] and out->refusal set when the item is not a usable
 * http resource (enum catalog_refusal).
 */
int catalog_item_parse(json_object *item, struct catalog_item *out, char *why, size_t cap);

/* A network as CAIP-2: v1 names ("base", "base-sepolia") mapped, anything else as given. */
const char *catalog_network_caip2(const char *n);

/* The wire name of a refusal ("not_https", ...). */
const char *catalog_refusal_code(enum catalog_refusal r);

/*
 * The items array and paging of one page: {items|resources: [...],
 * pagination?{total}}. *items is borrowed from page; *total is -1 when
 * the page does not say (or gives a negative count). 0 or -1.
 */
int catalog_page(json_object *page, json_object **items, long long *total);

/* The page's pagination.limit (what the source gave per page), or -1 when it does not say. */
long long catalog_page_limit(json_object *page);

#endif
