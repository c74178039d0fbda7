/* catalog.c: Bazaar discovery listings into bounded records (catalog.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "catalog.h"
#include "decimal.h"
#include "receipt.h"
#include "route.h"
#include "timefmt.h"
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
const char *
catalog_network_caip2(const char *n)
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

long long
catalog_page_limit(json_object *page)
{
	json_object *p = get(get(page, "pagination"), "limit");
	long long v = p && json_object_is_type(p, json_type_int) ? json_object_get_int64(p) : -1;

	return v > 0 ? v : -1;
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

static const char *const refusal_codes[CR__MAX] = {
	[CR_NONE] = "none", [CR_MALFORMED] = "malformed", [CR_TYPE] = "not_http",
	[CR_NOT_HTTPS] = "not_https", [CR_LOCAL_HOST] = "local_host", [CR_URL] = "url_refused",
	[CR_TEMPLATE] = "route_template", [CR_NO_DESCRIPTION] = "no_description",
	[CR_NO_ACCEPTS] = "no_accepts", [CR_NETWORK] = "unsupported_network",
	[CR_ASSET] = "unsupported_asset", [CR_TOO_LARGE] = "too_large",
};

const char *
catalog_refusal_code(enum catalog_refusal r)
{
	return r < CR__MAX && refusal_codes[r] ? refusal_codes[r] : "malformed";
}

static int
refuse(struct catalog_item *out, enum catalog_refusal r, char *why, size_t cap, const char *text)
{
	out->refusal = r;
	snprintf(why, cap, "%s", text);
	utf8_repair(why);
	return -1;
}

/* An EVM network: CAIP-2 eip155:<digits>, or a v1 name this catalog maps (catalog_network_caip2()). */
static bool
evm_network(const char *n)
{
	n = catalog_network_caip2(n);
	return strncmp(n, "eip155:", 7) == 0 && all_digits(n + 7);
}

static bool
token_address(const char *a)
{
	if (a == NULL || strlen(a) != 42 || a[0] != '0' || (a[1] != 'x' && a[1] != 'X'))
		return false;
	for (size_t i = 2; i < 42; i++)
		if (!isxdigit((unsigned char)a[i]))
			return false;
	return true;
}

/* A route template in the URL: {name} (or its %7B form), or a :name path segment. */
static bool
route_template(const char *url)
{
	const char *path = strstr(url, "://");

	if (strpbrk(url, "{}"))
		return true;
	for (const char *p = strchr(url, '%'); p; p = strchr(p + 1, '%'))
		if (p[1] == '7' && strchr("bBdD", p[2]) && p[2])
			return true;
	path = path ? strchr(path + 3, '/') : NULL;
	for (const char *p = path; p && *p; p = strchr(p + 1, '/'))
		if (p[1] == ':')
			return true;
	return false;
}

/* Append s to a comma-separated list list[cap] unless it is there already or does not fit. */
static void
list_add(char *list, size_t cap, const char *s, bool lower)
{
	size_t n = strlen(list), len = strlen(s);
	char one[200];

	if (len == 0 || len >= sizeof(one) || strchr(s, ','))
		return;
	for (size_t i = 0; i <= len; i++)
		one[i] = lower ? (char)tolower((unsigned char)s[i]) : s[i];
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");

		if (l == len && strncmp(p, one, len) == 0)
			return;
		p += l;
		if (*p == ',')
			p++;
	}
	if (n + len + 2 > cap)
		return;
	if (n)
		list[n++] = ',';
	memcpy(list + n, one, len + 1);
}

/* Append cleaned text to a space-separated words[cap]. */
static void
words_add(char *words, size_t cap, const char *s)
{
	char t[400];
	size_t n = strlen(words), len;

	clean_text(s, 120, t, sizeof(t));
	len = strlen(t);
	if (len == 0 || n + len + 2 > cap)
		return;
	if (n)
		words[n++] = ' ';
	memcpy(words + n, t, len + 1);
}

/* JSON Schema's own words, which name no field of the endpoint. */
static bool
schema_keyword(const char *k)
{
	static const char *const kw[] = { "type", "properties", "required", "items", "description",
		"enum", "additionalProperties", "format", "default", "example", "examples", "title",
		"minimum", "maximum", "minLength", "maxLength", "pattern", "oneOf", "anyOf", "allOf",
		"$schema", "$id", "$ref", "$defs", "definitions", "const", "nullable", "input", "output",
		"info", "schema", "method", "bodyType", "queryParams", "body", "headers", "pathParams",
		"bodyFields", "minItems", "maxItems", "uniqueItems", NULL };

	for (size_t i = 0; kw[i]; i++)
		if (strcmp(k, kw[i]) == 0)
			return true;
	return false;
}

/*
 * The field names of an input or output description (object keys that are
 * not JSON Schema keywords) and its "description" texts, depth-first.
 */
static void
field_words(json_object *o, int depth, char *out, size_t cap)
{
	if (o == NULL || depth > 6)
		return;
	if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);

		for (size_t i = 0; i < n && i < 16; i++)
			field_words(json_object_array_get_idx(o, i), depth + 1, out, cap);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v) {
		if (strcmp(k, "description") == 0 && json_object_is_type(v, json_type_string))
			words_add(out, cap, json_object_get_string(v));
		else if (!schema_keyword(k))
			words_add(out, cap, k);
		field_words(v, depth + 1, out, cap);
	}
}

/* Cleaned text under key of src into dst, when src has a non-empty string there. */
static void
add_clean(json_object *dst, const char *key, json_object *src, const char *skey, size_t maxchars)
{
	const char *v = json_member_string(src, skey, NULL);
	char t[4 * CATALOG_DESCRIPTION_MAX + 1];

	if (v == NULL)
		return;
	clean_text(v, maxchars, t, sizeof(t));
	if (*t)
		json_object_object_add(dst, key, json_object_new_string(t));
}

/*
 * The item as served again (catalog.h, item_json) and its filter facts.
 * -1 when it is over a bound.
 */
static int
served_item(json_object *item, json_object *accepts, struct catalog_item *out)
{
	static _Thread_local struct url iu;
	json_object *o = json_object_new_object(), *acc = json_object_new_array(), *ext, *tags, *icon;
	size_t n = json_object_array_length(accepts), len;
	const char *txt;
	int rc = -1;
	char lu[48];

	json_object_object_add(o, "resource", json_object_new_string(out->url));
	json_object_object_add(o, "type", json_object_new_string("http"));
	json_object_object_add(o, "x402Version", json_object_new_int(out->x402_version ? out->x402_version : 1));
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(accepts, i);
		const char *v;

		if (!json_object_is_type(e, json_type_object))
			continue;
		json_object_array_add(acc, json_object_get(e));
		if ((v = json_member_string(e, "scheme", NULL)) != NULL)
			list_add(out->schemes, sizeof(out->schemes), v, false);
		if ((v = json_member_string(e, "network", NULL)) != NULL)
			list_add(out->networks, sizeof(out->networks), catalog_network_caip2(v), false);
		if ((v = json_member_string(e, "payTo", NULL)) != NULL)
			list_add(out->pay_tos, sizeof(out->pay_tos), v, true);
	}
	json_object_object_add(o, "accepts", acc);
	/* lastUpdated: an ISO 8601 string, as the Bazaar clients type it. */
	if (all_digits(out->last_updated) && strlen(out->last_updated) <= 11) {
		time_t t = (time_t)strtoll(out->last_updated, NULL, 10);

		if (time_rfc3339(t, lu, sizeof(lu)) == NULL)
			lu[0] = '\0';
	} else
		snprintf(lu, sizeof(lu), "%s", out->last_updated);
	json_object_object_add(o, "lastUpdated", json_object_new_string(lu));
	json_object_object_add(o, "description", json_object_new_string(out->description));
	json_object_object_add(o, "serviceName", json_object_new_string(out->service_name));
	add_clean(o, "mimeType", item, "mimeType", 100);
	tags = get(item, "tags");
	if (json_object_is_type(tags, json_type_array)) {
		json_object *kept = json_object_new_array();

		for (size_t i = 0; i < json_object_array_length(tags) &&
		    json_object_array_length(kept) < CATALOG_TAGS_MAX; i++) {
			json_object *t = json_object_array_get_idx(tags, i);
			char c[4 * 40 + 1];

			if (!json_object_is_type(t, json_type_string))
				continue;
			clean_text(json_object_get_string(t), 40, c, sizeof(c));
			if (*c == '\0')
				continue;
			json_object_array_add(kept, json_object_new_string(c));
			words_add(out->tags_text, sizeof(out->tags_text), c);
		}
		json_object_object_add(o, "tags", kept);
	}
	icon = get(item, "iconUrl");
	txt = icon && json_object_is_type(icon, json_type_string) ? json_object_get_string(icon) : NULL;
	if (txt && url_check_public(txt, strlen(txt), URL_ALLOW_QUERY, &iu) == URL_OK && !strpbrk(txt, " \t\r\n"))
		json_object_object_add(o, "iconUrl", json_object_new_string(txt));
	ext = get(item, "extensions");
	if (json_object_is_type(ext, json_type_object)) {
		json_object_object_add(o, "extensions", json_object_get(ext));
		json_object_object_foreach(ext, k, v) {
			(void)v;
			list_add(out->extension_keys, sizeof(out->extension_keys), k, false);
		}
		field_words(get(get(ext, "bazaar"), "info"), 0, out->fields_text, sizeof(out->fields_text));
	}
	for (size_t i = 0; i < n; i++)
		field_words(get(json_object_array_get_idx(accepts, i), "outputSchema"), 0, out->fields_text,
		    sizeof(out->fields_text));
	txt = json_dump(o, &len);
	if (txt && len <= CATALOG_ITEM_JSON_MAX) {
		memcpy(out->item_json, txt, len + 1);
		rc = 0;
	}
	json_object_put(o);
	return rc;
}

int
catalog_item_parse(json_object *item, struct catalog_item *out, char *why, size_t cap)
{
	static _Thread_local struct url u;  /* large: one per thread, off the stack */
	json_object *accepts = get(item, "accepts"), *acc = NULL, *lu;
	const char *url = json_member_string(item, "resource", NULL), *m, *d,
	    *type = json_member_string(item, "type", NULL);
	enum url_err ue;
	char t[160];
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(item, json_type_object))
		return refuse(out, CR_MALFORMED, why, cap, "item is not an object");
	if (type && strcmp(type, "http") != 0) {
		/* The type is quoted cut to fit: the reason stays UTF-8. */
		snprintf(t, sizeof(t), "type %.20s is not http", type);
		return refuse(out, CR_TYPE, why, cap, t);
	}
	if (url == NULL)
		return refuse(out, CR_MALFORMED, why, cap, "resource URL refused: missing");
	if (route_template(url))
		return refuse(out, CR_TEMPLATE, why, cap,
		    "resource URL refused: a route template ({id} or :id), not a payable URL");
	if ((ue = url_check_public(url, strlen(url), URL_ALLOW_QUERY, &u)) != URL_OK) {
		snprintf(t, sizeof(t), "resource URL refused: %s", url_strerror(ue));
		return refuse(out, ue == URL_NOT_HTTPS ? CR_NOT_HTTPS : ue == URL_IP_LITERAL ||
		    ue == URL_LOCAL_HOST ? CR_LOCAL_HOST : CR_URL, why, cap, t);
	}
	/* The URL is stored and shown as listed: the parser's leniency (spaces
	 * and controls trimmed, tab and newlines dropped) must not reach it. */
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return refuse(out, CR_URL, why, cap,
			    "resource URL refused: it has a space or control character");
	copy_bounded(url, out->url, sizeof(out->url));
	n = json_object_is_type(accepts, json_type_array) ? json_object_array_length(accepts) : 0;
	if (n > CATALOG_ACCEPTS_MAX) {
		snprintf(t, sizeof(t), "%zu accepts entries, more than %d", n, CATALOG_ACCEPTS_MAX);
		return refuse(out, CR_TOO_LARGE, why, cap, t);
	}
	/* The entry on Base, else the first on another EVM network. */
	for (size_t i = 0; i < n; i++) {
		const char *net = json_member_string(json_object_array_get_idx(accepts, i), "network", NULL);

		if (net && strcmp(catalog_network_caip2(net), "eip155:8453") == 0) {
			acc = json_object_array_get_idx(accepts, i);
			break;
		}
		if (net && acc == NULL && evm_network(net))
			acc = json_object_array_get_idx(accepts, i);
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
	if (out->description[0] == '\0')
		return refuse(out, CR_NO_DESCRIPTION, why, cap, "no description");
	if (n == 0)
		return refuse(out, CR_NO_ACCEPTS, why, cap, "no payment requirements (accepts)");
	if (acc == NULL)
		return refuse(out, CR_NETWORK, why, cap, "no accepts entry on an EVM (eip155) network");
	{
		const char *net = json_member_string(acc, "network", NULL), *usdc,
		    *amt = json_member_string(acc, "amount", NULL);

		if (!token_address(json_member_string(acc, "asset", NULL)))
			return refuse(out, CR_ASSET, why, cap, "the accepts entry's asset is not a token address");
		if (amt == NULL)
			amt = json_member_string(acc, "maxAmountRequired", NULL);
		copy_bounded(net ? catalog_network_caip2(net) : "", out->network, sizeof(out->network));
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
	if (served_item(item, accepts, out) < 0) {
		snprintf(t, sizeof(t), "the item is over %d bytes", CATALOG_ITEM_JSON_MAX);
		return refuse(out, CR_TOO_LARGE, why, cap, t);
	}
	return 0;
}
