/*
 * economics.c: GET /api/v1/x402/economics (docs/PROTOCOL.md: Scope,
 * Free endpoints, x402 payments). The current
 * payment recipients from the configuration, the prices of the paid rows
 * of the dispatch table (the same rows that charge), the fixed burn of a
 * routed recognition, and the status of the disabled experimental
 * token-credit and buyback features. economics.h has the shape.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "brand.h"
#include "decimal.h"
#include "economics.h"
#include "table.h"
#include "banned.h"

#define USDC_DECIMALS 6
#define BOON_DECIMALS 18

int
economics_origin(const char *url, char *out, size_t cap)
{
	const char *scheme, *rest, *host, *at, *def;
	size_t alen, hlen, dlen;
	int n;

	if (strncasecmp(url, "https://", 8) == 0) {
		scheme = "https";
		rest = url + 8;
		def = ":443";
	} else if (strncasecmp(url, "http://", 7) == 0) {
		scheme = "http";
		rest = url + 7;
		def = ":80";
	} else {
		return -1;
	}
	alen = strcspn(rest, "/?#\\");
	host = rest;
	while ((at = memchr(host, '@', alen - (size_t)(host - rest))) != NULL)
		host = at + 1;
	hlen = alen - (size_t)(host - rest);
	dlen = strlen(def);
	if (hlen > dlen && strncmp(host + hlen - dlen, def, dlen) == 0)
		hlen -= dlen;
	else if (hlen > 1 && host[hlen - 1] == ':')
		hlen--;
	if (hlen == 0 || host[0] == ':')
		return -1;
	for (size_t i = 0; i < hlen; i++)
		if ((unsigned char)host[i] <= ' ' || (unsigned char)host[i] >= 0x7f)
			return -1;
	n = snprintf(out, cap, "%s://%.*s", scheme, (int)hlen, host);
	if (n < 0 || (size_t)n >= cap)
		return -1;
	for (char *p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return 0;
}

/* {symbol, address (EIP-55), decimals} */
static json_object *
token(const char *symbol, const struct addr *a, int decimals)
{
	json_object *o = json_object_new_object();
	char t[ADDR_TEXT_LEN + 1];

	json_object_object_add(o, "symbol", json_object_new_string(symbol));
	json_object_object_add(o, "address", json_object_new_string(addr_format(a, t)));
	json_object_object_add(o, "decimals", json_object_new_int(decimals));
	return o;
}

static json_object *
address(const struct addr *a)
{
	char t[ADDR_TEXT_LEN + 1];

	return json_object_new_string(addr_format(a, t));
}

json_object *
economics_protocols(const struct config *cfg)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string("x402"));
	if (cfg->mpp_secret[0] != '\0')
		json_object_array_add(a, json_object_new_string("mpp"));
	return a;
}

int
economics_price_atomic(const char *price_usdc, char *out, size_t cap)
{
	struct decimal d;

	if (price_usdc == NULL || decimal_parse(price_usdc, strlen(price_usdc), &d) != DECIMAL_OK ||
	    decimal_to_atomic(&d, USDC_DECIMALS, out, cap) != DECIMAL_OK)
		return -1;
	return 0;
}

json_object *
economics_prices_json(const struct config *cfg, const struct endpoint *tab, size_t n)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		const struct endpoint *e = &tab[i];
		char atomic[DECIMAL_ATOMIC_BUFSZ];
		json_object *row, *price;

		if (e->auth != AUTH_PAID || economics_price_atomic(e->price_usdc, atomic, sizeof(atomic)) < 0)
			continue;
		row = json_object_new_object();
		json_object_object_add(row, "resourceId", json_object_new_string(e->id));
		json_object_object_add(row, "method", json_object_new_string(http_method_name(e->method)));
		json_object_object_add(row, "path", json_object_new_string(e->pattern));
		json_object_object_add(row, "protocols", economics_protocols(cfg));
		price = json_object_new_object();
		json_object_object_add(price, "usdc", json_object_new_string(e->price_usdc));
		json_object_object_add(price, "atomic", json_object_new_string(atomic));
		json_object_object_add(row, "price", price);
		json_object_array_add(arr, row);
	}
	return arr;
}

/* The fixed burn of one routed recognition. */
static json_object *
burn(const struct config *cfg)
{
	json_object *o = json_object_new_object();
	char atomic[DECIMAL_ATOMIC_BUFSZ];
	struct decimal d;
	struct addr sink;

	if (decimal_parse(ECONOMICS_BURN_BOON, strlen(ECONOMICS_BURN_BOON), &d) != DECIMAL_OK ||
	    decimal_to_atomic(&d, BOON_DECIMALS, atomic, sizeof(atomic)) != DECIMAL_OK)
		snprintf(atomic, sizeof(atomic), "?");
	if (addr_parse(ECONOMICS_BURN_SINK, strlen(ECONOMICS_BURN_SINK), &sink) < 0)
		memset(&sink, 0, sizeof(sink));
	json_object_object_add(o, "token", token(BRAND_UPPER, &cfg->boon_address, BOON_DECIMALS));
	json_object_object_add(o, "amount", json_object_new_string(ECONOMICS_BURN_BOON));
	json_object_object_add(o, "atomic", json_object_new_string(atomic));
	json_object_object_add(o, "to", address(&sink));
	json_object_object_add(o, "per", json_object_new_string("routed_recognition"));
	json_object_object_add(o, "fixed", json_object_new_boolean(1));
	return o;
}

/* {status, <flag>: false} for one experimental feature. */
static json_object *
feature(const char *status, const char *flag)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "status", json_object_new_string(status));
	json_object_object_add(o, flag, json_object_new_boolean(0));
	return o;
}

json_object *
economics_json(const struct config *cfg)
{
	json_object *o = json_object_new_object(), *pay, *fac, *rec, *ex;
	char origin[CONFIG_STR_MAX];

	json_object_object_add(o, "version", json_object_new_string(ECONOMICS_VERSION));
	json_object_object_add(o, "network", json_object_new_string(cfg->network));
	json_object_object_add(o, "asset", token("USDC", &cfg->usdc_address, USDC_DECIMALS));
	pay = json_object_new_object();
	json_object_object_add(pay, "paidReads", address(&cfg->pay_to));
	json_object_object_add(pay, "paidReviewPublication", address(&cfg->pay_to));
	json_object_object_add(o, "payTo", pay);
	fac = json_object_new_object();
	json_object_object_add(fac, "origin",
	    economics_origin(cfg->facilitator_url, origin, sizeof(origin)) == 0 ?
	    json_object_new_string(origin) : NULL);
	json_object_object_add(o, "facilitator", fac);
	json_object_object_add(o, "prices", economics_prices_json(cfg, endpoints, nendpoints));

	rec = json_object_new_object();
	json_object_object_add(rec, "companionContract", address(&cfg->companion_address));
	json_object_object_add(rec, "gratuities", json_object_new_string(
	    "chosen by the sender: a nonzero USDC gratuity to the endpoint and optionally one to a "
	    "discovery network, paid through the companion contract; optional, after use, and never "
	    "the endpoint's price"));
	json_object_object_add(rec, "burn", burn(cfg));
	json_object_object_add(o, "recognitions", rec);

	ex = json_object_new_object();
	json_object_object_add(ex, "tokenCredits", feature("disabled", "sold"));
	json_object_object_add(ex, "buybacks", feature("disabled", "executed"));
	json_object_object_add(ex, "fixedBurns", feature("unchanged", "changed"));
	json_object_object_add(o, "experimental", ex);

	json_object_object_add(o, "interpretation", json_object_new_string(
	    "Current payment recipients from this deployment's configuration and prices from its "
	    "endpoint table, to inspect before any optional purchase. Neither a payment authorization "
	    "nor a ledger: it authorizes, records and pays nothing. The live 402 challenge of each paid "
	    "call is authoritative for price, network, asset and payTo; never sign a cached or "
	    "hard-coded recipient. Token credits are not sold, buybacks are not executed, and the "
	    "fixed burn per routed recognition is unchanged."));
	return o;
}

/* GET /api/v1/x402/economics: 200 with economics_json; 500 only when out of memory. */
enum err
h_economics_get(struct req *r, struct resp *w)
{
	json_object *o = economics_json(r->cfg);
	int rc = resp_json(w, 200, o);

	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
