/* routenote.c: route notes, their offers and the publisher signature (see routenote.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "json.h"
#include "keccak.h"
#include "routenote.h"
#include "sig.h"
#include "typed.h"
#include "utf8.h"
#include "banned.h"

/* One sentence per error: the first %s is the field, a second one a detail. */
static const struct {
	const char *code;
	const char *fmt;
} rn_errors[RN__MAX] = {
	[RN_OK] = { "ok", "%s is valid." },
	[RN_TOO_LARGE] = { "too_large", "%s must be 1 to %s bytes long." },
	[RN_JSON] = { "invalid_json", "%s is not strict JSON: %s." },
	[RN_DUPLICATE_KEY] = { "duplicate_key", "%s repeats the member name \"%s\"." },
	[RN_NOT_OBJECT] = { "not_object", "%s must be a JSON object." },
	[RN_UNKNOWN_KEY] = { "unknown_key", "%s is not an accepted member." },
	[RN_MISSING_KEY] = { "missing_key", "%s is required." },
	[RN_VERSION] = { "invalid_version", "%s must be the string \"1\"." },
	[RN_NOT_STRING] = { "not_string", "%s must be a JSON string." },
	[RN_NOT_ARRAY] = { "not_array", "%s must be a JSON array." },
	[RN_NOT_STRING_OR_NULL] = { "not_string_or_null", "%s must be a JSON string or null." },
	[RN_METHOD] = { "invalid_method",
	    "%s must be an HTTP method: a token of 1 to 64 characters, not CONNECT, TRACE or TRACK." },
	[RN_ROUTE_URL] = { "invalid_route_url", "%s is not an accepted public HTTPS URL: %s." },
	[RN_TEXT_EMPTY] = { "text_empty", "%s is empty after trimming whitespace." },
	[RN_TEXT_TOO_LONG] = { "text_too_long", "%s is longer than 280 bytes." },
	[RN_TEXT_FORBIDDEN] = { "text_forbidden",
	    "%s contains a control character or a bidirectional formatting character "
	    "(U+202A to U+202E, U+2066 to U+2069)." },
	[RN_TOO_MANY_ITEMS] = { "too_many_items", "%s has more than 5 items." },
	[RN_TOO_MANY_URIS] = { "too_many_uris",
	    "%s holds more than 5 URIs in all (contextUris, requestSchemaUri and documentationUri)." },
	[RN_URI_TOO_LONG] = { "uri_too_long", "%s is longer than 2048 characters." },
	[RN_URI_SCHEME] = { "uri_scheme", "%s must be an https:, ipfs:// or ar:// URI." },
	[RN_URI_INVALID] = { "uri_invalid", "%s is not a well-formed URI: %s." },
	[RN_TIMESTAMP] = { "invalid_timestamp",
	    "%s must be a JSON integer of Unix seconds from 1 to 9007199254740991." },
	[RN_EXPIRY_ORDER] = { "expiry_order", "%s must be later than note.createdAt." },
	[RN_NOTE_ENDPOINT] = { "invalid_note_endpoint", "%s is not an accepted https URL: %s." },
	[RN_NETWORK] = { "invalid_network",
	    "%s must be eip155:<chain id>, a positive safe integer without leading zeros." },
	[RN_WRONG_CHAIN] = { "wrong_chain", "%s names another chain than the one this service serves (%s)." },
	[RN_ADDRESS] = { "invalid_address",
	    "%s must be an address: 0x and 40 hex digits (lowercase or EIP-55 checksummed)." },
	[RN_ZERO_ADDRESS] = { "zero_address", "%s must not be the zero address." },
	[RN_AMOUNT] = { "invalid_amount",
	    "%s must be a positive uint256 as a decimal string without leading zeros." },
	[RN_DIGEST_FORMAT] = { "invalid_digest", "%s must be 0x and 64 lowercase hex digits." },
	[RN_RESPONSE_BYTES] = { "invalid_response_bytes", "%s must be a JSON integer from 1 to 32768." },
	[RN_BYTES_MISMATCH] = { "response_bytes_mismatch",
	    "%s does not equal the byte length of noteJson (%s)." },
	[RN_DIGEST_MISMATCH] = { "response_digest_mismatch",
	    "%s does not equal keccak256 of the exact noteJson bytes (%s)." },
	[RN_OFFER_OUTLIVES] = { "offer_outlives_note", "%s is later than note.expiresAt." },
	[RN_SIGNATURE] = { "invalid_signature", "%s is not an accepted signature: %s." },
	[RN_SIGNER_MISMATCH] = { "signer_mismatch",
	    "%s recovers to %s, not to offer.payTo, over the RouteNoteOffer typed data." },
	[RN_NOTE_EXPIRED] = { "note_expired", "%s has passed: the note has expired." },
	[RN_OFFER_EXPIRED] = { "offer_expired", "%s has passed: the offer has expired." },
	[RN_CREATED_IN_FUTURE] = { "created_in_future", "%s is more than 300 seconds in the future." },
	[RN_INTERNAL] = { "internal", "%s could not be checked: %s." },
};

static const char *const input_names[RNI__MAX] = {
	[RNI_NOTE] = "noteJson",
	[RNI_OFFER] = "offerJson",
	[RNI_SIGNATURE] = "signature",
};

static const char *const note_keys[] = { "version", "route", "intent", "fit", "limits",
	"requestSchemaUri", "documentationUri", "contextUris", "createdAt", "expiresAt", NULL };
static const char *const route_keys[] = { "publicEndpointUrl", "method", NULL };
static const char *const offer_keys[] = { "version", "noteEndpoint", "method", "network", "asset",
	"payTo", "amountAtomic", "responseDigest", "responseBytes", "expiresAt", NULL };
static const char *const wrapper_keys[] = { "offer", NULL };

/* Scratch too large for the stack of every caller; one allocation per verify. */
struct work {
	struct route_parts rp;
	struct url u;
};

const char *
routenote_code(enum routenote_err e)
{
	return (unsigned)e < RN__MAX ? rn_errors[e].code : "unknown";
}

const char *
routenote_input_name(enum routenote_input i)
{
	return (unsigned)i < RNI__MAX ? input_names[i] : "unknown";
}

static enum routenote_err
fail(struct routenote_error *err, enum routenote_err code, const char *field, const char *detail)
{
	if (err == NULL)
		return code;
	err->code = code;
	if (strncmp(field, "offer", 5) == 0)
		err->input = RNI_OFFER;
	else if (strncmp(field, "signature", 9) == 0)
		err->input = RNI_SIGNATURE;
	else
		err->input = RNI_NOTE;
	snprintf(err->field, sizeof(err->field), "%s", field);
	snprintf(err->msg, sizeof(err->msg), rn_errors[code].fmt, err->field, detail ? detail : "");
	return code;
}

/*
 * prefix + "." + key into out[cap], the key cut at a character boundary
 * (with "...") when it does not fit, so messages stay valid UTF-8.
 */
static char *
join_key(char *out, size_t cap, const char *prefix, const char *key)
{
	size_t n = (size_t)snprintf(out, cap, "%s.", prefix), klen = strlen(key), i = 0;

	while (i < klen) {
		uint32_t cp;
		int k = utf8_decode((const unsigned char *)key + i, klen - i, &cp);

		if (k < 0 || n + (size_t)k + 4 > cap) {
			snprintf(out + n, cap - n, "...");
			return out;
		}
		memcpy(out + n, key + i, (size_t)k);
		n += (size_t)k;
		i += (size_t)k;
	}
	out[n] = '\0';
	return out;
}

static json_object *
member(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static enum routenote_err
check_keys(json_object *o, const char *prefix, const char *const keys[], struct routenote_error *err)
{
	const char *bad = NULL;
	char f[96];

	switch (json_check_keys(o, NULL, keys, &bad)) {
	case JSON_KEYS_OK:
		return RN_OK;
	case JSON_KEYS_UNKNOWN:
		return fail(err, RN_UNKNOWN_KEY, join_key(f, sizeof(f), prefix, bad), NULL);
	case JSON_KEYS_MISSING:
		return fail(err, RN_MISSING_KEY, join_key(f, sizeof(f), prefix, bad), NULL);
	default:
		return fail(err, RN_NOT_OBJECT, prefix, NULL);
	}
}

/* Parse s[0..len) strictly, at most max bytes; an object or array, never null. */
static enum routenote_err
parse_json(const char *s, size_t len, size_t max, const char *what, json_object **out,
    struct routenote_error *err)
{
	struct json_limits lim = json_limits_default;
	struct json_error je;
	char d[192];

	*out = NULL;
	if (len == 0 || len > max) {
		snprintf(d, sizeof(d), "%zu", max);
		return fail(err, RN_TOO_LARGE, what, d);
	}
	lim.max_length = max;
	if (json_parse_strict(s, len, &lim, out, &je) < 0) {
		if (je.code == JSON_E_DUPLICATE)
			return fail(err, RN_DUPLICATE_KEY, what, je.name);
		if (je.code == JSON_E_NOMEM)
			return fail(err, RN_INTERNAL, what, "out of memory");
		snprintf(d, sizeof(d), "%s at byte %zu", je.msg, je.offset);
		return fail(err, RN_JSON, what, d);
	}
	if (!json_object_is_type(*out, json_type_object))
		return fail(err, RN_NOT_OBJECT, what, NULL);
	return RN_OK;
}

/* What String.prototype.trim removes: WhiteSpace and LineTerminator. */
static bool
is_js_space(uint32_t c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0xa0 || c == 0x1680 ||
	    (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
	    c == 0x205f || c == 0x3000 || c == 0xfeff;
}

/* C0 except TAB, LF and CR; DEL and C1; the bidirectional embeddings and isolates. */
static bool
is_forbidden(uint32_t c)
{
	return (c <= 0x1f && c != 0x09 && c != 0x0a && c != 0x0d) || (c >= 0x7f && c <= 0x9f) ||
	    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* intent, fit or a limit: trimmed, 1..280 bytes, no forbidden character. */
static enum routenote_err
check_text(json_object *v, const char *field, struct routenote_str *out, struct routenote_error *err)
{
	const unsigned char *s;
	size_t n, start = 0, end = 0;
	bool seen = false;

	if (!json_object_is_type(v, json_type_string))
		return fail(err, RN_NOT_STRING, field, NULL);
	s = (const unsigned char *)json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_decode(s + i, n - i, &cp);

		if (k < 0)
			return fail(err, RN_TEXT_FORBIDDEN, field, NULL);
		if (!is_js_space(cp)) {
			if (!seen)
				start = i;
			seen = true;
			end = i + (size_t)k;
		}
		i += (size_t)k;
	}
	if (!seen)
		return fail(err, RN_TEXT_EMPTY, field, NULL);
	if (end - start > ROUTENOTE_TEXT_MAX)
		return fail(err, RN_TEXT_TOO_LONG, field, NULL);
	for (size_t i = start; i < end;) {
		uint32_t cp;
		int k = utf8_decode(s + i, end - i, &cp);

		if (k < 0 || is_forbidden(cp))
			return fail(err, RN_TEXT_FORBIDDEN, field, NULL);
		i += (size_t)k;
	}
	out->s = (const char *)s + start;
	out->len = end - start;
	return RN_OK;
}

/* RFC 3986 characters the deployed check accepts after ipfs:// and ar://. */
static bool
is_uri_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr("._~:/?#[]@!$&'()*+,;=%-", c) != NULL);
}

/* One inert URI (never fetched): https, ipfs:// or ar://. */
static enum routenote_err
check_uri(struct work *w, json_object *v, const char *field, struct routenote_str *out,
    struct routenote_error *err)
{
	const char *s;
	size_t n, units = 0, plen = 0;
	bool bad = false;
	enum url_err ue;

	if (!json_object_is_type(v, json_type_string))
		return fail(err, RN_NOT_STRING, field, NULL);
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);

		if (k < 0)
			return fail(err, RN_TEXT_FORBIDDEN, field, NULL);
		units += cp >= 0x10000 ? 2 : 1;
		bad = bad || is_forbidden(cp);
		i += (size_t)k;
	}
	if (units > ROUTENOTE_URI_MAX)
		return fail(err, RN_URI_TOO_LONG, field, NULL);
	if (bad)
		return fail(err, RN_TEXT_FORBIDDEN, field, NULL);
	if (n >= 7 && memcmp(s, "ipfs://", 7) == 0)
		plen = 7;
	else if (n >= 5 && memcmp(s, "ar://", 5) == 0)
		plen = 5;
	if (plen) {
		if (n == plen)
			return fail(err, RN_URI_INVALID, field, "nothing follows the scheme");
		for (size_t i = plen; i < n; i++)
			if (!is_uri_char((unsigned char)s[i]))
				return fail(err, RN_URI_INVALID, field,
				    "only URI characters may follow ipfs:// or ar://");
	} else if ((ue = url_parse(s, n, &w->u)) != URL_OK) {
		if (ue == URL_NOT_HTTPS)
			return fail(err, RN_URI_SCHEME, field, NULL);
		return fail(err, RN_URI_INVALID, field, url_strerror(ue));
	}
	out->s = s;
	out->len = n;
	return RN_OK;
}

static enum routenote_err
check_optional_uri(struct work *w, json_object *o, const char *key, const char *field,
    struct routenote_str *out, struct routenote_error *err)
{
	json_object *v = member(o, key);

	out->s = NULL;
	out->len = 0;
	if (v == NULL)
		return RN_OK;
	if (!json_object_is_type(v, json_type_string))
		return fail(err, RN_NOT_STRING_OR_NULL, field, NULL);
	return check_uri(w, v, field, out, err);
}

static enum routenote_err
check_time(json_object *v, const char *field, int64_t *out, struct routenote_error *err)
{
	int64_t t;

	if (!json_object_is_type(v, json_type_int))
		return fail(err, RN_TIMESTAMP, field, NULL);
	t = json_object_get_int64(v);
	if (t <= 0 || t > ROUTENOTE_SAFE_MAX)
		return fail(err, RN_TIMESTAMP, field, NULL);
	*out = t;
	return RN_OK;
}

/* A string member (n: its length); NULL when it is not a JSON string. */
static const char *
string_of(json_object *v, size_t *n)
{
	if (!json_object_is_type(v, json_type_string))
		return NULL;
	*n = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

static enum routenote_err
check_version(json_object *o, const char *field, struct routenote_error *err)
{
	size_t n = 0;
	const char *s = string_of(member(o, "version"), &n);

	if (s == NULL || n != 1 || s[0] != '1')
		return fail(err, RN_VERSION, field, NULL);
	return RN_OK;
}

static enum routenote_err
parse_route(struct work *w, json_object *route, struct routenote_note *n, struct routenote_error *err)
{
	const char *m, *u;
	size_t mlen = 0, ulen = 0;
	enum url_err ue;
	enum route_err re;
	enum routenote_err rc;

	if ((rc = check_keys(route, "note.route", route_keys, err)) != RN_OK)
		return rc;
	if ((m = string_of(member(route, "method"), &mlen)) == NULL)
		return fail(err, RN_NOT_STRING, "note.route.method", NULL);
	if (memchr(m, '\0', mlen) || route_method_normalize(m, mlen, n->method) < 0)
		return fail(err, RN_METHOD, "note.route.method", NULL);
	if ((u = string_of(member(route, "publicEndpointUrl"), &ulen)) == NULL)
		return fail(err, RN_NOT_STRING, "note.route.publicEndpointUrl", NULL);
	if ((ue = url_check_public(u, ulen, 0, &w->u)) != URL_OK)
		return fail(err, RN_ROUTE_URL, "note.route.publicEndpointUrl", url_strerror(ue));
	re = route_id(n->method, strlen(n->method), u, ulen, n->route_id, &w->rp);
	if (re != ROUTE_OK)
		return fail(err, RN_ROUTE_URL, "note.route.publicEndpointUrl", route_strerror(re));
	if (w->rp.url.origin_len >= sizeof(n->origin) || w->rp.url.path_len >= sizeof(n->path))
		return fail(err, RN_ROUTE_URL, "note.route.publicEndpointUrl", "the URL is too long");
	memcpy(n->origin, w->rp.url.origin, w->rp.url.origin_len + 1);
	memcpy(n->path, w->rp.url.path, w->rp.url.path_len + 1);
	return RN_OK;
}

static enum routenote_err
parse_note(struct work *w, const char *s, size_t len, struct routenote_note *n,
    struct routenote_error *err)
{
	json_object *root, *a;
	char f[64];
	size_t nuris;
	enum routenote_err rc;

	if ((rc = parse_json(s, len, ROUTENOTE_NOTE_MAX, "note", &n->root, err)) != RN_OK)
		return rc;
	root = n->root;
	if ((rc = check_keys(root, "note", note_keys, err)) != RN_OK ||
	    (rc = check_version(root, "note.version", err)) != RN_OK ||
	    (rc = parse_route(w, member(root, "route"), n, err)) != RN_OK ||
	    (rc = check_text(member(root, "intent"), "note.intent", &n->intent, err)) != RN_OK ||
	    (rc = check_text(member(root, "fit"), "note.fit", &n->fit, err)) != RN_OK)
		return rc;

	a = member(root, "limits");
	if (!json_object_is_type(a, json_type_array))
		return fail(err, RN_NOT_ARRAY, "note.limits", NULL);
	if (json_object_array_length(a) > ROUTENOTE_ITEMS_MAX)
		return fail(err, RN_TOO_MANY_ITEMS, "note.limits", NULL);
	n->nlimits = json_object_array_length(a);
	for (size_t i = 0; i < n->nlimits; i++) {
		snprintf(f, sizeof(f), "note.limits[%zu]", i);
		if ((rc = check_text(json_object_array_get_idx(a, i), f, &n->limits[i], err)) != RN_OK)
			return rc;
	}

	if ((rc = check_optional_uri(w, root, "requestSchemaUri", "note.requestSchemaUri",
	    &n->request_schema_uri, err)) != RN_OK ||
	    (rc = check_optional_uri(w, root, "documentationUri", "note.documentationUri",
	    &n->documentation_uri, err)) != RN_OK)
		return rc;
	a = member(root, "contextUris");
	if (!json_object_is_type(a, json_type_array))
		return fail(err, RN_NOT_ARRAY, "note.contextUris", NULL);
	if (json_object_array_length(a) > ROUTENOTE_ITEMS_MAX)
		return fail(err, RN_TOO_MANY_ITEMS, "note.contextUris", NULL);
	n->ncontext_uris = json_object_array_length(a);
	for (size_t i = 0; i < n->ncontext_uris; i++) {
		snprintf(f, sizeof(f), "note.contextUris[%zu]", i);
		rc = check_uri(w, json_object_array_get_idx(a, i), f, &n->context_uris[i], err);
		if (rc != RN_OK)
			return rc;
	}
	nuris = n->ncontext_uris + (n->request_schema_uri.s != NULL) + (n->documentation_uri.s != NULL);
	if (nuris > ROUTENOTE_ITEMS_MAX)
		return fail(err, RN_TOO_MANY_URIS, "note", NULL);

	if ((rc = check_time(member(root, "createdAt"), "note.createdAt", &n->created_at, err)) != RN_OK ||
	    (rc = check_time(member(root, "expiresAt"), "note.expiresAt", &n->expires_at, err)) != RN_OK)
		return rc;
	if (n->expires_at <= n->created_at)
		return fail(err, RN_EXPIRY_ORDER, "note.expiresAt", NULL);
	n->bytes = len;
	keccak256(s, len, n->digest);
	return RN_OK;
}

/*
 * True when s[0..n) is exactly the WHATWG serialization of u without a
 * fragment: origin, path, and "?" + query when there is one, the query
 * holding nothing the serializer would percent-encode.
 */
static bool
is_serialized(const char *s, size_t n, const struct url *u)
{
	size_t o = u->origin_len, p = u->path_len;

	if (u->has_fragment || n < o + p || memcmp(s, u->origin, o) != 0 ||
	    memcmp(s + o, u->path, p) != 0)
		return false;
	if (!u->has_query)
		return n == o + p;
	if (n != o + p + 1 + u->query_len || s[o + p] != '?' ||
	    memcmp(s + o + p + 1, u->query, u->query_len) != 0)
		return false;
	for (size_t i = 0; i < u->query_len; i++) {
		unsigned char c = (unsigned char)u->query[i];

		if (c <= 0x20 || c >= 0x7f || c == '"' || c == '#' || c == '<' || c == '>' || c == '\'')
			return false;
	}
	return true;
}

static enum routenote_err
check_address(json_object *o, const char *key, const char *field, struct addr *out,
    struct routenote_error *err)
{
	size_t n = 0;
	const char *s = string_of(member(o, key), &n);

	if (s == NULL)
		return fail(err, RN_NOT_STRING, field, NULL);
	if (addr_parse(s, n, out) < 0)
		return fail(err, RN_ADDRESS, field, NULL);
	if (addr_is_zero(out))
		return fail(err, RN_ZERO_ADDRESS, field, NULL);
	return RN_OK;
}

/* "eip155:" + a positive safe integer without leading zeros. */
static int
parse_network(const char *s, size_t n, uint64_t *chain)
{
	uint64_t v = 0;

	if (n < 8 || n > 7 + 16 || memcmp(s, "eip155:", 7) != 0 || s[7] < '1' || s[7] > '9')
		return -1;
	for (size_t i = 7; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > (uint64_t)ROUTENOTE_SAFE_MAX)
		return -1;
	*chain = v;
	return 0;
}

static enum routenote_err
parse_offer(struct work *w, const char *s, size_t len, struct routenote_offer *o,
    struct routenote_error *err)
{
	json_object *obj, *v;
	const char *t;
	size_t n = 0;
	uint8_t scratch[ROUTE_ID_LEN];
	enum route_err re;
	enum routenote_err rc;

	if ((rc = parse_json(s, len, ROUTENOTE_OFFER_MAX, "offer", &o->root, err)) != RN_OK)
		return rc;
	obj = o->root;
	if (json_object_object_get_ex(obj, "offer", NULL)) {
		/* the wrapped form {"offer": {...}} */
		if ((rc = check_keys(obj, "offer", wrapper_keys, err)) != RN_OK)
			return rc;
		obj = member(obj, "offer");
	}
	if ((rc = check_keys(obj, "offer", offer_keys, err)) != RN_OK ||
	    (rc = check_version(obj, "offer.version", err)) != RN_OK)
		return rc;

	if ((t = string_of(member(obj, "method"), &n)) == NULL)
		return fail(err, RN_NOT_STRING, "offer.method", NULL);
	if (memchr(t, '\0', n) || route_method_normalize(t, n, o->method) < 0)
		return fail(err, RN_METHOD, "offer.method", NULL);
	if ((t = string_of(member(obj, "noteEndpoint"), &n)) == NULL)
		return fail(err, RN_NOT_STRING, "offer.noteEndpoint", NULL);
	re = route_id(o->method, strlen(o->method), t, n, scratch, &w->rp);
	if (re == ROUTE_BAD_URL)
		return fail(err, RN_NOTE_ENDPOINT, "offer.noteEndpoint", url_strerror(w->rp.url_err));
	if (re != ROUTE_OK)
		return fail(err, RN_NOTE_ENDPOINT, "offer.noteEndpoint", route_strerror(re));
	if (w->rp.url.has_fragment)
		return fail(err, RN_NOTE_ENDPOINT, "offer.noteEndpoint", url_strerror(URL_FRAGMENT));
	if (!is_serialized(t, n, &w->rp.url))
		return fail(err, RN_NOTE_ENDPOINT, "offer.noteEndpoint",
		    "it must be written in its normalized (WHATWG-serialized) form, as signed");
	o->note_endpoint.s = t;
	o->note_endpoint.len = n;

	if ((t = string_of(member(obj, "network"), &n)) == NULL)
		return fail(err, RN_NOT_STRING, "offer.network", NULL);
	if (parse_network(t, n, &o->chain_id) < 0)
		return fail(err, RN_NETWORK, "offer.network", NULL);
	if ((rc = check_address(obj, "asset", "offer.asset", &o->asset, err)) != RN_OK ||
	    (rc = check_address(obj, "payTo", "offer.payTo", &o->pay_to, err)) != RN_OK)
		return rc;

	if ((t = string_of(member(obj, "amountAtomic"), &n)) == NULL)
		return fail(err, RN_NOT_STRING, "offer.amountAtomic", NULL);
	if (n == 0 || n > U256_DEC_MAX || t[0] < '1' || t[0] > '9' ||
	    u256_parse_dec(t, n, &o->amount) < 0)
		return fail(err, RN_AMOUNT, "offer.amountAtomic", NULL);
	u256_format_dec(&o->amount, o->amount_dec);

	if ((t = string_of(member(obj, "responseDigest"), &n)) == NULL)
		return fail(err, RN_NOT_STRING, "offer.responseDigest", NULL);
	if (!hex_is_lower_prefixed(t, n, 64) || hex_decode_fixed(t, n, o->response_digest, 32, true) < 0)
		return fail(err, RN_DIGEST_FORMAT, "offer.responseDigest", NULL);

	v = member(obj, "responseBytes");
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 1 ||
	    json_object_get_int64(v) > ROUTENOTE_NOTE_MAX)
		return fail(err, RN_RESPONSE_BYTES, "offer.responseBytes", NULL);
	o->response_bytes = (uint32_t)json_object_get_int64(v);
	return check_time(member(obj, "expiresAt"), "offer.expiresAt", &o->expires_at, err);
}

/* The RouteNoteOffer message exactly as signed; caller frees; NULL when out of memory. */
static json_object *
offer_message(const struct routenote_offer *o)
{
	json_object *m = json_object_new_object();
	char net[32], a[ADDR_TEXT_LEN + 1], d[67];

	if (m == NULL)
		return NULL;
	snprintf(net, sizeof(net), "eip155:%" PRIu64, o->chain_id);
	json_object_object_add(m, "noteEndpoint",
	    json_object_new_string_len(o->note_endpoint.s, (int)o->note_endpoint.len));
	json_object_object_add(m, "method", json_object_new_string(o->method));
	json_object_object_add(m, "network", json_object_new_string(net));
	json_object_object_add(m, "asset", json_object_new_string(addr_format_lower(&o->asset, a)));
	json_object_object_add(m, "payTo", json_object_new_string(addr_format_lower(&o->pay_to, a)));
	json_object_object_add(m, "amountAtomic", json_object_new_string(o->amount_dec));
	json_object_object_add(m, "responseDigest",
	    json_object_new_string(hex_encode(o->response_digest, 32, d)));
	json_object_object_add(m, "responseBytes", json_object_new_int64(o->response_bytes));
	json_object_object_add(m, "expiresAt", json_object_new_int64(o->expires_at));
	return m;
}

static enum routenote_err
check_signature(const char *sig, size_t slen, struct routenote_pub *p, struct routenote_error *err)
{
	struct typed_domain d = { .chain_id = p->offer.chain_id };
	json_object *m;
	struct sig s;
	enum sig_err se;
	char why[160], who[ADDR_TEXT_LEN + 1];
	int rc;

	if ((se = sig_parse_hex(sig, slen, &s)) != SIG_OK)
		return fail(err, RN_SIGNATURE, "signature", sig_strerror(se));
	if (hex_decode(sig, slen, p->sig, sizeof(p->sig), &p->sig_len) < 0)
		return fail(err, RN_SIGNATURE, "signature", sig_strerror(SIG_BAD_ENCODING));
	if ((m = offer_message(&p->offer)) == NULL)
		return fail(err, RN_INTERNAL, "signature", "out of memory");
	rc = typed_digest(TYPED_ROUTE_NOTE_OFFER, &d, m, p->offer_digest, why, sizeof(why));
	json_object_put(m);
	if (rc < 0)
		return fail(err, RN_INTERNAL, "signature", why);
	if ((se = sig_recover(p->offer_digest, &s, &p->signer)) != SIG_OK)
		return fail(err, RN_SIGNATURE, "signature", sig_strerror(se));
	if (!addr_eq(&p->signer, &p->offer.pay_to))
		return fail(err, RN_SIGNER_MISMATCH, "signature", addr_format(&p->signer, who));
	return RN_OK;
}

static enum routenote_err
verify(struct work *w, const char *note, size_t nlen, const char *offer, size_t olen, const char *sig,
    size_t slen, uint64_t chain_id, int64_t now, struct routenote_pub *p, struct routenote_error *err)
{
	struct routenote_note *n = &p->note;
	struct routenote_offer *o = &p->offer;
	char d[80];
	enum routenote_err rc;

	if ((rc = parse_note(w, note, nlen, n, err)) != RN_OK ||
	    (rc = parse_offer(w, offer, olen, o, err)) != RN_OK)
		return rc;
	if (o->chain_id != chain_id) {
		snprintf(d, sizeof(d), "eip155:%" PRIu64, chain_id);
		return fail(err, RN_WRONG_CHAIN, "offer.network", d);
	}
	if (o->response_bytes != n->bytes) {
		snprintf(d, sizeof(d), "%zu bytes", n->bytes);
		return fail(err, RN_BYTES_MISMATCH, "offer.responseBytes", d);
	}
	if (memcmp(o->response_digest, n->digest, 32) != 0)
		return fail(err, RN_DIGEST_MISMATCH, "offer.responseDigest", hex_encode(n->digest, 32, d));
	if (o->expires_at > n->expires_at)
		return fail(err, RN_OFFER_OUTLIVES, "offer.expiresAt", NULL);
	if ((rc = check_signature(sig, slen, p, err)) != RN_OK)
		return rc;
	if (n->expires_at <= now)
		return fail(err, RN_NOTE_EXPIRED, "note.expiresAt", NULL);
	if (o->expires_at <= now)
		return fail(err, RN_OFFER_EXPIRED, "offer.expiresAt", NULL);
	if (n->created_at > now + ROUTENOTE_FUTURE_SKEW)
		return fail(err, RN_CREATED_IN_FUTURE, "note.createdAt", NULL);
	return RN_OK;
}

enum routenote_err
routenote_verify(const char *note, size_t nlen, const char *offer, size_t olen, const char *sig,
    size_t slen, uint64_t chain_id, int64_t now, struct routenote_pub *out,
    struct routenote_error *err)
{
	struct work *w = malloc(sizeof(*w));
	enum routenote_err rc;

	memset(out, 0, sizeof(*out));
	if (err)
		memset(err, 0, sizeof(*err));
	if (w == NULL)
		return fail(err, RN_INTERNAL, "note", "out of memory");
	rc = verify(w, note ? note : "", note ? nlen : 0, offer ? offer : "", offer ? olen : 0,
	    sig ? sig : "", sig ? slen : 0, chain_id, now, out, err);
	free(w);
	if (rc != RN_OK) {
		routenote_release(out);
		memset(out, 0, sizeof(*out));
	}
	return rc;
}

void
routenote_release(struct routenote_pub *p)
{
	if (p == NULL)
		return;
	json_object_put(p->note.root);
	json_object_put(p->offer.root);
	p->note.root = NULL;
	p->offer.root = NULL;
}
