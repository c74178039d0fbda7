#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "catalog.h"
#include "decimal.h"
#include "receipt.h"
#include "route.h"
#include "url.h"
#include "utf8.h"
#include "json.h"
#include "banned.h"

static json_object *
get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (o == NULL || !json_object_is_type(o, json_type_object))
		return NULL;
	json_object_object_get_ex(o, key, &v);
	return v;
}

/*
 * Copy untrusted text: at most max characters, control, bidi and
 * line-separator characters turned into spaces, runs of spaces collapsed,
 * trimmed. Invalid UTF-8 ends the text.
 */
static void
clean_text(const char *s, size_t maxchars, char *out, size_t cap)
{
	size_t j = 0, chars = 0, len = strlen(s);
	bool space = true;

	for (size_t i = 0; i < len && chars < maxchars;) {
		uint32_t cp;
		int k = utf8_decode((const unsigned char *)s + i, len - i, &cp);

		if (k < 0)
			break;
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 || cp == ' ') {
			if (!space && j + 1 < cap) {
				out[j++] = ' ';
				chars++;
			}
			space = true;
		} else {
			if (j + (size_t)k >= cap)
				break;
			memcpy(out + j, s + i, (size_t)k);
			j += (size_t)k;
			chars++;
			space = false;
		}
		i += (size_t)k;
	}
	while (j > 0 && out[j - 1] == ' ')
		j--;
	out[j] = '\0';
}

static void
copy_bounded(const char *s, char *out, size_t cap)
{
	size_t n = s ? strlen(s) : 0;

	if (n >= cap)
		n = 0; /* over-long machine fields are dropped, not cut */
	if (n)
		memcpy(out, s, n);
	out[n] = '\0';
}

static const char *
known_usdc(const char *network)
{
	if (strcmp(network, "eip155:8453") == 0)
		return "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
	if (strcmp(network, "eip155:84532") == 0)
		return "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
	return NULL;
}

/* v1 network names to CAIP-2. */
static const char *
caip2(const char *n)
{
	if (strcmp(n, "base") == 0)
		return "eip155:8453";
	if (strcmp(n, "base-sepolia") == 0)
		return "eip155:84532";
	return n;
}

static bool
all_digits(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int
catalog_page(json_object *page, json_object **items, long long *total)
{
	json_object *p;

	*items = get(page, "items");
	if (*items == NULL)
		*items = get(page, "resources");
	if (*items == NULL || !json_object_is_type(*items, json_type_array))
		return -1;
	p = get(get(page, "pagination"), "total");
	*total = p && json_object_is_type(p, json_type_int) ? json_object_get_int64(p) : -1;
	if (*total < 0)
		*total = -1;    /* a negative count says nothing */
	return 0;
}

/* Strings equal, both present. */
static bool
same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* The signer of the first signed offer matching the challenge acc. */
static void
match_offer(json_object *item, json_object *acc, struct catalog_item *out)
{
	json_object *offers = get(get(get(get(item, "extensions"), "offer-receipt"), "info"), "offers");
	struct receipt_offer of;
	char field[64], why[160];
	const char *amt = json_member_string(acc, "amount", NULL);
	size_t n;

	if (!json_object_is_type(offers, json_type_array))
		return;
	if (amt == NULL)
		amt = json_member_string(acc, "maxAmountRequired", NULL);
	n = json_object_array_length(offers);
	for (size_t i = 0; i < n && i < CATALOG_OFFERS_MAX; i++) {
		if (receipt_offer_parse(json_object_array_get_idx(offers, i), &of, field, sizeof(field),
		    why, sizeof(why)) < 0)
			continue;
		if (same(of.resource_url, out->url) && same(of.network, out->network) &&
		    same(of.scheme, json_member_string(acc, "scheme", NULL)) &&
		    same(of.asset, json_member_string(acc, "asset", NULL)) &&
		    same(of.pay_to, json_member_string(acc, "payTo", NULL)) && same(of.amount, amt)) {
			out->has_offer_signer = true;
			out->offer_signer = of.signer;
			return;
		}
	}
}

int
catalog_item_parse(json_object *item, struct catalog_item *out, char *why, size_t cap)
{
	static _Thread_local struct url u;  /* large: one per thread, off the stack */
	json_object *accepts = get(item, "accepts"), *acc = NULL, *lu;
	const char *url = json_member_string(item, "resource", NULL), *m, *d,
	    *type = json_member_string(item, "type", NULL);
	enum url_err ue;

	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(item, json_type_object)) {
		snprintf(why, cap, "item is not an object");
		return -1;
	}
	if (type && strcmp(type, "http") != 0) {
		/* The type is quoted cut to fit: the reason stays UTF-8. */
		snprintf(why, cap, "type %.20s is not http", type);
		utf8_repair(why);
		return -1;
	}
	if (url == NULL || (ue = url_check_public(url, strlen(url), URL_ALLOW_QUERY, &u)) != URL_OK) {
		snprintf(why, cap, "resource URL refused: %s", url ? url_strerror(ue) : "missing");
		return -1;
	}
	/* The URL is stored and shown as listed: the parser's leniency (spaces
	 * and controls trimmed, tab and newlines dropped) must not reach it. */
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f) {
			snprintf(why, cap, "resource URL refused: it has a space or control character");
			return -1;
		}
	copy_bounded(url, out->url, sizeof(out->url));
	if (json_object_is_type(accepts, json_type_array)) {
		size_t n = json_object_array_length(accepts);

		acc = n ? json_object_array_get_idx(accepts, 0) : NULL;
		for (size_t i = 0; i < n; i++) {
			const char *net = json_member_string(json_object_array_get_idx(accepts, i), "network", NULL);

			if (net && strncmp(caip2(net), "eip155:8453", 11) == 0) {
				acc = json_object_array_get_idx(accepts, i);
				break;
			}
		}
	}
	m = json_member_string(get(get(get(get(item, "extensions"), "bazaar"), "info"), "input"), "method", NULL);
	if (m == NULL)
		m = json_member_string(get(get(acc, "outputSchema"), "input"), "method", NULL);
	if (m && strlen(m) < sizeof(out->method)) {
		char norm[ROUTE_METHOD_MAX + 1];

		if (route_method_normalize(m, strlen(m), norm) == 0 && strlen(norm) < sizeof(out->method)) {
			memcpy(out->method, norm, strlen(norm) + 1);
			out->has_route = route_id(out->method, strlen(out->method), url, strlen(url),
			    out->route_id, NULL) == ROUTE_OK;
		}
	}
	d = json_member_string(item, "description", NULL);
	if (d == NULL || *d == '\0')
		d = json_member_string(acc, "description", NULL);
	clean_text(d ? d : "", CATALOG_DESCRIPTION_MAX, out->description, sizeof(out->description));
	m = json_member_string(item, "serviceName", NULL);
	clean_text(m && *m ? m : u.host, CATALOG_SERVICE_MAX, out->service_name,
	    sizeof(out->service_name));
	if (acc) {
		const char *net = json_member_string(acc, "network", NULL), *usdc,
		    *amt = json_member_string(acc, "amount", NULL);

		if (amt == NULL)
			amt = json_member_string(acc, "maxAmountRequired", NULL);
		copy_bounded(net ? caip2(net) : "", out->network, sizeof(out->network));
		copy_bounded(json_member_string(acc, "asset", NULL), out->asset, sizeof(out->asset));
		copy_bounded(json_member_string(acc, "payTo", NULL), out->pay_to, sizeof(out->pay_to));
		if (amt && all_digits(amt) && strlen(amt) <= 78)
			copy_bounded(amt, out->amount, sizeof(out->amount));
		usdc = known_usdc(out->network);
		if (usdc && out->amount[0] && strcasecmp(usdc, out->asset) == 0 &&
		    decimal_from_atomic(out->amount, strlen(out->amount), 6, out->price_usdc,
		    sizeof(out->price_usdc)) != DECIMAL_OK)
			out->price_usdc[0] = '\0';
	}
	if (acc)
		match_offer(item, acc, out);
	{
		json_object *v = get(item, "x402Version");

		out->x402_version = v && json_object_is_type(v, json_type_int) ?
		    (int)json_object_get_int64(v) : 0;
	}
	lu = get(item, "lastUpdated");
	if (lu && json_object_is_type(lu, json_type_string))
		copy_bounded(json_object_get_string(lu), out->last_updated, sizeof(out->last_updated));
	else if (lu && json_object_is_type(lu, json_type_int))
		snprintf(out->last_updated, sizeof(out->last_updated), "%lld",
		    (long long)json_object_get_int64(lu));
	if (out->description[0] == '\0') {
		snprintf(why, cap, "no description");
		return -1;
	}
	return 0;
}
