/*
 * activity.c: profile activity evidence, identity and the activity review
 * statement (see activity.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity.h"
#include "buf.h"
#include "hex.h"
#include "json.h"
#include "sha256.h"
#include "utf8.h"
#include "banned.h"

const char *const activity_kind_names[ACTIVITY_KIND__MAX + 1] = {
	[ACTIVITY_X402_RECEIPT] = "x402_receipt",
	[ACTIVITY_USDC_TRANSFER] = "usdc_transfer",
	[ACTIVITY_CLIENT_SETTLEMENT] = "client_settlement",
	[ACTIVITY_KIND__MAX] = NULL,
};

const char *const activity_methods[] = { "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", NULL };

struct ctx {
	char *field;
	size_t fcap;
	char *why;
	size_t cap;
};

__attribute__((format(printf, 4, 5)))
static enum activity_parse
fail(struct ctx *c, enum activity_parse rc, const char *field, const char *fmt, ...)
{
	va_list ap;

	/* Both may quote a member name cut to fit: keep them UTF-8 (they reach error bodies). */
	utf8_copy(c->field, c->fcap, field);
	va_start(ap, fmt);
	utf8_vformat(c->why, c->cap, fmt, ap);
	va_end(ap);
	return rc;
}

/* Exactly the members of one kind. */
static enum activity_parse
members(struct ctx *c, json_object *o, const char *kind, const char *const *optional,
    const char *const *required)
{
	const char *bad = NULL;
	char f[96];

	switch (json_check_keys(o, optional, required, &bad)) {
	case JSON_KEYS_OK:
		return ACTIVITY_OK;
	case JSON_KEYS_UNKNOWN:
		snprintf(f, sizeof(f), "evidence.%s", bad);
		return fail(c, ACTIVITY_UNKNOWN_MEMBER, f, "evidence of kind %s has no member %.64s", kind, bad);
	default:
		snprintf(f, sizeof(f), "evidence.%s", bad ? bad : "?");
		return fail(c, ACTIVITY_MISSING_MEMBER, f, "evidence of kind %s needs the member %s", kind,
		    bad ? bad : "?");
	}
}

static enum activity_parse
get_method(struct ctx *c, json_object *o, struct activity_evidence *out)
{
	size_t n = 0;
	const char *s = json_member_string(o, "method", &n);

	for (size_t i = 0; s && activity_methods[i]; i++)
		if (strlen(activity_methods[i]) == n && memcmp(activity_methods[i], s, n) == 0) {
			memcpy(out->method, s, n + 1);
			return ACTIVITY_OK;
		}
	return fail(c, ACTIVITY_INVALID, "evidence.method", "evidence.method must be one of GET, POST, PUT, "
	    "PATCH, DELETE, HEAD or OPTIONS (uppercase)");
}

static enum activity_parse
get_tx(struct ctx *c, json_object *o, struct activity_evidence *out)
{
	size_t n = 0;
	const char *s = json_member_string(o, "transaction", &n);
	static const uint8_t zero[32] = { 0 };

	if (s == NULL || n != 66 || !hex_is_lower_prefixed(s, n, 64) ||
	    hex_decode_fixed(s, n, out->tx, 32, true) < 0 || memcmp(out->tx, zero, 32) == 0)
		return fail(c, ACTIVITY_INVALID, "evidence.transaction", "evidence.transaction must be a "
		    "transaction hash: 0x and 64 lowercase hex digits, not zero");
	return ACTIVITY_OK;
}

static enum activity_parse
get_log_index(struct ctx *c, json_object *o, struct activity_evidence *out)
{
	json_object *v = NULL;
	int64_t n;

	out->log_index = -1;
	if (!json_object_object_get_ex(o, "logIndex", &v))
		return ACTIVITY_OK;
	if (!json_object_is_type(v, json_type_int) || (n = json_object_get_int64(v)) < 0 ||
	    n > ACTIVITY_LOG_INDEX_MAX)
		return fail(c, ACTIVITY_INVALID, "evidence.logIndex", "evidence.logIndex must be an integer "
		    "from 0 to %d", ACTIVITY_LOG_INDEX_MAX);
	out->log_index = n;
	return ACTIVITY_OK;
}

/*
 * The route of (out->method, url): the public URL policy, then the route
 * ID and its normalized origin and path into out.
 */
static enum activity_parse
route_of(struct ctx *c, const char *field, const char *url, size_t len, struct activity_evidence *out)
{
	struct route_parts *parts = malloc(sizeof(*parts));
	enum url_err ue;
	enum activity_parse rc = ACTIVITY_OK;

	if (parts == NULL)
		return fail(c, ACTIVITY_INVALID, field, "the service ran out of memory reading %s", field);
	if ((ue = url_check_public(url, len, 0, &parts->url)) != URL_OK)
		rc = fail(c, ACTIVITY_INVALID, field, "%s must be a public https URL without query or fragment: %s",
		    field, url_strerror(ue));
	else if (route_id(out->method, strlen(out->method), url, len, out->route_id, parts) != ROUTE_OK ||
	    parts->url.origin_len > URL_PUBLIC_MAX || parts->url.path_len > URL_PUBLIC_MAX)
		rc = fail(c, ACTIVITY_INVALID, field, "%s does not give a route ID with this method", field);
	else {
		memcpy(out->origin, parts->url.origin, parts->url.origin_len + 1);
		memcpy(out->path, parts->url.path, parts->url.path_len + 1);
	}
	free(parts);
	return rc;
}

static enum activity_parse
parse_receipt(struct ctx *c, json_object *o, struct activity_evidence *out)
{
	static const char *const req[] = { "kind", "method", "offer", "receipt", NULL };
	json_object *x = NULL;
	char f[64], w[256], name[96];
	const char *unrecovered = NULL;      /* the first signature that recovers no key */
	enum activity_parse rc;
	int prc;

	if ((rc = members(c, o, "x402_receipt", NULL, req)) != ACTIVITY_OK ||
	    (rc = get_method(c, o, out)) != ACTIVITY_OK)
		return rc;
	/* A signature that recovers no key fails verification, after every shape has passed. */
	json_object_object_get_ex(o, "offer", &x);
	if ((prc = receipt_offer_parse(x, &out->offer, f, sizeof(f), w, sizeof(w))) == RECEIPT_UNRECOVERED) {
		unrecovered = "evidence.offer.signature";
	} else if (prc < 0) {
		snprintf(name, sizeof(name), "evidence.offer%s%s", f[0] ? "." : "", f);
		return fail(c, ACTIVITY_INVALID, name, "invalid evidence.offer: %s", w);
	}
	json_object_object_get_ex(o, "receipt", &x);
	if ((prc = receipt_parse(x, &out->receipt, f, sizeof(f), w, sizeof(w))) == RECEIPT_UNRECOVERED) {
		if (unrecovered == NULL)
			unrecovered = "evidence.receipt.signature";
	} else if (prc < 0) {
		snprintf(name, sizeof(name), "evidence.receipt%s%s", f[0] ? "." : "", f);
		return fail(c, ACTIVITY_INVALID, name, "invalid evidence.receipt: %s", w);
	}
	if ((rc = route_of(c, "evidence.receipt.payload.resourceUrl", out->receipt.resource_url,
	    strlen(out->receipt.resource_url), out)) != ACTIVITY_OK)
		return rc;
	if (unrecovered)
		return fail(c, ACTIVITY_UNVERIFIED, unrecovered, "%s recovers no key: it is not a valid "
		    "secp256k1 signature (r and s nonzero and below the curve order, a low s, v 0, 1, 27 or 28) "
		    "of this artifact", unrecovered);
	return ACTIVITY_OK;
}

static enum activity_parse
parse_transfer(struct ctx *c, json_object *o, struct activity_evidence *out, bool attested)
{
	static const char *const opt[] = { "logIndex", NULL };
	static const char *const req_transfer[] = { "kind", "transaction", NULL };
	static const char *const req_client[] = { "kind", "transaction", "method", "url", NULL };
	const char *url;
	size_t n = 0;
	enum activity_parse rc;

	if ((rc = members(c, o, activity_kind_names[out->kind], opt,
	    attested ? req_client : req_transfer)) != ACTIVITY_OK ||
	    (rc = get_tx(c, o, out)) != ACTIVITY_OK || (rc = get_log_index(c, o, out)) != ACTIVITY_OK)
		return rc;
	if (!attested)
		return ACTIVITY_OK;
	if ((rc = get_method(c, o, out)) != ACTIVITY_OK)
		return rc;
	if ((url = json_member_string(o, "url", &n)) == NULL || n == 0 || n > URL_PUBLIC_MAX || memchr(url, '\0', n))
		return fail(c, ACTIVITY_INVALID, "evidence.url", "evidence.url must be a public https URL of "
		    "at most %d bytes", URL_PUBLIC_MAX);
	return route_of(c, "evidence.url", url, n, out);
}

enum activity_parse
activity_evidence_parse(json_object *o, struct activity_evidence *out, char *field, size_t fcap, char *why,
    size_t cap)
{
	struct ctx c = { field, fcap, why, cap };
	size_t n = 0;
	const char *kind;

	memset(out, 0, sizeof(*out));
	out->log_index = -1;
	field[0] = why[0] = '\0';
	if (!json_object_is_type(o, json_type_object))
		return fail(&c, ACTIVITY_INVALID, "evidence", "evidence must be a JSON object");
	if ((kind = json_member_string(o, "kind", &n)) == NULL) {
		if (!json_object_object_get_ex(o, "kind", NULL))
			return fail(&c, ACTIVITY_MISSING_MEMBER, "evidence.kind", "evidence needs a kind: "
			    "x402_receipt, usdc_transfer or client_settlement");
		kind = "";
	}
	for (int k = 0; k < ACTIVITY_KIND__MAX; k++) {
		if (strlen(activity_kind_names[k]) != n || memcmp(activity_kind_names[k], kind, n) != 0)
			continue;
		out->kind = (enum activity_kind)k;
		if (out->kind == ACTIVITY_X402_RECEIPT)
			return parse_receipt(&c, o, out);
		return parse_transfer(&c, o, out, out->kind == ACTIVITY_CLIENT_SETTLEMENT);
	}
	return fail(&c, ACTIVITY_INVALID, "evidence.kind", "evidence.kind must be x402_receipt, "
	    "usdc_transfer or client_settlement");
}

int
activity_evidence_key(const struct activity_evidence *e, const char *network, uint64_t log_index,
    uint8_t out[32])
{
	char hx[67], text[256];
	int n;

	if (e->kind == ACTIVITY_X402_RECEIPT)
		n = snprintf(text, sizeof(text), ACTIVITY_EVIDENCE_DOMAIN "\n%s\n%s\n%s",
		    activity_kind_names[e->kind], network, hex_encode(e->receipt.digest, 32, hx));
	else
		n = snprintf(text, sizeof(text), ACTIVITY_EVIDENCE_DOMAIN "\n%s\n%s\n%s\n%" PRIu64,
		    activity_kind_names[e->kind], network, hex_encode(e->tx, 32, hx), log_index);
	if (n < 0 || (size_t)n >= sizeof(text))
		return -1;
	return sha256(text, (size_t)n, out);
}

int
activity_id(const uint8_t profile_id[16], const uint8_t key[32], uint8_t out[32])
{
	static const char hx16[] = "0123456789abcdef";
	char uuid[37], hx[67], text[160];
	size_t k = 0;
	int n;

	for (size_t i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			uuid[k++] = '-';
		uuid[k++] = hx16[profile_id[i] >> 4];
		uuid[k++] = hx16[profile_id[i] & 15];
	}
	uuid[k] = '\0';
	n = snprintf(text, sizeof(text), ACTIVITY_ID_DOMAIN "\n%s\n%s", uuid, hex_encode(key, 32, hx));
	if (n < 0 || (size_t)n >= sizeof(text))
		return -1;
	return sha256(text, (size_t)n, out);
}

json_object *
activity_review_statement(const struct activity_review_in *in, uint8_t digest[32])
{
	json_object *o = json_object_new_object(), *s = json_object_new_object();
	char hx[67];
	struct buf b;
	int rc = 0;

	if (o == NULL || s == NULL || in->log_index > ACTIVITY_LOG_INDEX_MAX ||
	    in->created_at > 9007199254740991ULL) {
		json_object_put(o);
		json_object_put(s);
		return NULL;
	}
	rc |= json_object_object_add(o, "version", json_object_new_string(ACTIVITY_REVIEW_VERSION));
	rc |= json_object_object_add(o, "profileId", json_object_new_string(in->profile_id));
	rc |= json_object_object_add(o, "activityId", json_object_new_string(hex_encode(in->activity_id, 32, hx)));
	rc |= json_object_object_add(o, "routeId", json_object_new_string(hex_encode(in->route_id, 32, hx)));
	rc |= json_object_object_add(s, "network", json_object_new_string(in->network));
	rc |= json_object_object_add(s, "transaction", json_object_new_string(hex_encode(in->tx, 32, hx)));
	rc |= json_object_object_add(s, "logIndex", json_object_new_int64((int64_t)in->log_index));
	rc |= json_object_object_add(o, "settlement", s);
	rc |= json_object_object_add(o, "reviewer", json_object_new_string(in->reviewer));
	rc |= json_object_object_add(o, "reviewText", json_object_new_string_len(in->text, (int)in->text_len));
	rc |= json_object_object_add(o, "createdAt", json_object_new_int64((int64_t)in->created_at));
	if (rc != 0) {
		json_object_put(o);
		return NULL;
	}
	if (digest) {
		buf_init(&b, 16 * 1024);
		rc = json_canonical(o, &b) < 0 || sha256(b.p, b.len, digest) < 0 ? -1 : 0;
		buf_release(&b);
		if (rc != 0) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}
