/*
 * receipt.c: x402 offer and receipt artifacts (see receipt.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "json.h"
#include "receipt.h"
#include "sig.h"
#include "typed.h"
#include "url.h"
#include "utf8.h"
#include "banned.h"

#define SAFE_INT 9007199254740991LL

struct ctx {
	char *field;
	size_t fcap;
	char *why;
	size_t cap;
};

__attribute__((format(printf, 3, 4)))
static int
fail(struct ctx *c, const char *field, const char *fmt, ...)
{
	va_list ap;

	/* Both may quote a member name cut to fit: keep them UTF-8 (they reach error bodies). */
	utf8_copy(c->field, c->fcap, field);
	va_start(ap, fmt);
	utf8_vformat(c->why, c->cap, fmt, ap);
	va_end(ap);
	return -1;
}

static int
keys(struct ctx *c, json_object *o, const char *prefix, const char *const *allowed,
    const char *const *required)
{
	const char *bad = NULL;
	char f[64];

	switch (json_check_keys(o, allowed, required, &bad)) {
	case JSON_KEYS_OK:
		return 0;
	case JSON_KEYS_NOT_OBJECT:
		return fail(c, *prefix ? prefix : "", "%s must be a JSON object",
		    *prefix ? prefix : "the artifact");
	case JSON_KEYS_UNKNOWN:
		snprintf(f, sizeof(f), "%s%s%s", prefix, *prefix ? "." : "", bad);
		return fail(c, f, "%s is not a member of this artifact", bad);
	default:
		snprintf(f, sizeof(f), "%s%s%s", prefix, *prefix ? "." : "", bad ? bad : "?");
		return fail(c, f, "the member %s is missing", bad ? bad : "?");
	}
}

/* The string member key of o (bounded by max bytes) into out[max + 1]. */
static int
get_str(struct ctx *c, json_object *o, const char *key, const char *fname, char *out, size_t max,
    bool empty_ok)
{
	json_object *v = NULL;
	size_t n;

	json_object_object_get_ex(o, key, &v);
	if (!json_object_is_type(v, json_type_string))
		return fail(c, fname, "%s must be a string", key);
	n = (size_t)json_object_get_string_len(v);
	if (n > max || (n == 0 && !empty_ok) || memchr(json_object_get_string(v), '\0', n))
		return fail(c, fname, "%s must be a non-empty string of at most %zu bytes", key, max);
	memcpy(out, json_object_get_string(v), n);
	out[n] = '\0';
	return 0;
}

static int
get_uint(struct ctx *c, json_object *o, const char *key, const char *fname, uint64_t *out)
{
	json_object *v = NULL;
	long long x;

	json_object_object_get_ex(o, key, &v);
	if (!json_object_is_type(v, json_type_int) || (x = json_object_get_int64(v)) < 0 || x > SAFE_INT)
		return fail(c, fname, "%s must be an integer from 0 to 2^53-1", key);
	*out = (uint64_t)x;
	return 0;
}

static int
check_version(struct ctx *c, json_object *payload)
{
	uint64_t v = 0;

	if (get_uint(c, payload, "version", "payload.version", &v) < 0 || v != 1)
		return fail(c, "payload.version", "version must be the number 1");
	return 0;
}

static int
check_url(struct ctx *c, const char *s)
{
	static _Thread_local struct url u;  /* about 29 KB: one per thread, off the stack */
	enum url_err e = url_check_public(s, strlen(s), 0, &u);

	if (e != URL_OK)
		return fail(c, "payload.resourceUrl", "resourceUrl must be a public https URL without "
		    "credentials, query or fragment (%s)", url_strerror(e));
	return 0;
}

static int
check_network(struct ctx *c, const char *s)
{
	const char *p = s + 7;

	if (strncmp(s, "eip155:", 7) != 0 || *p < '1' || *p > '9' || strspn(p, "0123456789") !=
	    strlen(p) || strlen(p) > 15)
		return fail(c, "payload.network", "network must be a CAIP-2 EVM network such as "
		    "eip155:8453");
	return 0;
}

static int
check_addr(struct ctx *c, const char *s, const char *fname, struct addr *out)
{
	if (addr_parse(s, strlen(s), out) < 0 || addr_is_zero(out))
		return fail(c, fname, "%s must be a nonzero 0x address", fname + 8);
	return 0;
}

/*
 * format "eip712", the 65-byte signature recovered over digest;
 * RECEIPT_UNRECOVERED when those bytes recover no key.
 */
static int
check_signature(struct ctx *c, json_object *o, const uint8_t digest[32], struct addr *signer)
{
	char fmt[16], s[140];
	uint8_t raw[65];
	struct sig sg;

	if (get_str(c, o, "format", "format", fmt, sizeof(fmt) - 1, false) < 0)
		return -1;
	if (strcmp(fmt, "eip712") != 0)
		return fail(c, "format", "format must be \"eip712\" (JWS artifacts are not accepted)");
	if (get_str(c, o, "signature", "signature", s, sizeof(s) - 1, false) < 0 ||
	    hex_decode_fixed(s, strlen(s), raw, 65, true) < 0)
		return fail(c, "signature", "signature must be 0x and 130 hex digits (65 bytes)");
	if (sig_parse(raw, 65, &sg) != SIG_OK || sig_recover(digest, &sg, signer) != SIG_OK) {
		fail(c, "signature", "signature is not a valid secp256k1 signature with a low s");
		return RECEIPT_UNRECOVERED;
	}
	return 0;
}

int
receipt_offer_parse(json_object *o, struct receipt_offer *out, char *field, size_t fcap,
    char *why, size_t cap)
{
	static const char *const top_req[] = { "format", "payload", "signature", NULL };
	static const char *const top_opt[] = { "acceptIndex", NULL };
	static const char *const pl_req[] = { "version", "resourceUrl", "scheme", "network", "asset",
		"payTo", "amount", "validUntil", NULL };
	struct ctx c = { field, fcap, why, cap };
	struct typed_domain d = { 0 };
	struct addr asset;
	json_object *pl = NULL, *ai = NULL, *m;
	char num[32], err[160];
	int rc;

	memset(out, 0, sizeof(*out));
	if (keys(&c, o, "", top_opt, top_req) < 0)
		return -1;
	if (json_object_object_get_ex(o, "acceptIndex", &ai) && (!json_object_is_type(ai,
	    json_type_int) || json_object_get_int64(ai) < 0 || json_object_get_int64(ai) > 255))
		return fail(&c, "acceptIndex", "acceptIndex must be an integer from 0 to 255");
	json_object_object_get_ex(o, "payload", &pl);
	if (keys(&c, pl, "payload", NULL, pl_req) < 0 || check_version(&c, pl) < 0 ||
	    get_str(&c, pl, "resourceUrl", "payload.resourceUrl", out->resource_url,
	    RECEIPT_URL_MAX, false) < 0 || check_url(&c, out->resource_url) < 0 ||
	    get_str(&c, pl, "scheme", "payload.scheme", out->scheme, sizeof(out->scheme) - 1, false) < 0 ||
	    get_str(&c, pl, "network", "payload.network", out->network, sizeof(out->network) - 1,
	    false) < 0 || check_network(&c, out->network) < 0)
		return -1;
	if (get_str(&c, pl, "asset", "payload.asset", out->asset, ADDR_TEXT_LEN, false) < 0 ||
	    check_addr(&c, out->asset, "payload.asset", &asset) < 0 ||
	    get_str(&c, pl, "payTo", "payload.payTo", out->pay_to, ADDR_TEXT_LEN, false) < 0 ||
	    check_addr(&c, out->pay_to, "payload.payTo", &out->pay_to_addr) < 0 ||
	    get_str(&c, pl, "amount", "payload.amount", out->amount, sizeof(out->amount) - 1, false) < 0 ||
	    get_uint(&c, pl, "validUntil", "payload.validUntil", &out->valid_until) < 0)
		return -1;
	if (strspn(out->amount, "0123456789") != strlen(out->amount) || out->amount[0] == '0')
		return fail(&c, "payload.amount", "amount must be a positive decimal integer of atomic "
		    "units without leading zeros");
	m = json_object_new_object();
	json_object_object_add(m, "version", json_object_new_string("1"));
	json_object_object_add(m, "resourceUrl", json_object_new_string(out->resource_url));
	json_object_object_add(m, "scheme", json_object_new_string(out->scheme));
	json_object_object_add(m, "network", json_object_new_string(out->network));
	json_object_object_add(m, "asset", json_object_new_string(out->asset));
	json_object_object_add(m, "payTo", json_object_new_string(out->pay_to));
	json_object_object_add(m, "amount", json_object_new_string(out->amount));
	snprintf(num, sizeof(num), "%" PRIu64, out->valid_until);
	json_object_object_add(m, "validUntil", json_object_new_string(num));
	rc = typed_digest(TYPED_X402_OFFER, &d, m, out->digest, err, sizeof(err));
	json_object_put(m);
	if (rc < 0)
		return fail(&c, "payload", "the offer cannot be hashed (%s)", err);
	return check_signature(&c, o, out->digest, &out->signer);
}

int
receipt_parse(json_object *o, struct receipt *out, char *field, size_t fcap, char *why, size_t cap)
{
	static const char *const top_req[] = { "format", "payload", "signature", NULL };
	static const char *const pl_req[] = { "version", "network", "resourceUrl", "payer", "issuedAt",
		NULL };
	static const char *const pl_opt[] = { "transaction", NULL };
	struct ctx c = { field, fcap, why, cap };
	struct typed_domain d = { 0 };
	json_object *pl = NULL, *tx = NULL, *m;
	char num[32], err[160];
	int rc;

	memset(out, 0, sizeof(*out));
	if (keys(&c, o, "", NULL, top_req) < 0)
		return -1;
	json_object_object_get_ex(o, "payload", &pl);
	if (keys(&c, pl, "payload", pl_opt, pl_req) < 0 || check_version(&c, pl) < 0 ||
	    get_str(&c, pl, "network", "payload.network", out->network, sizeof(out->network) - 1,
	    false) < 0 || check_network(&c, out->network) < 0 ||
	    get_str(&c, pl, "resourceUrl", "payload.resourceUrl", out->resource_url,
	    RECEIPT_URL_MAX, false) < 0 || check_url(&c, out->resource_url) < 0 ||
	    get_str(&c, pl, "payer", "payload.payer", out->payer, ADDR_TEXT_LEN, false) < 0 ||
	    check_addr(&c, out->payer, "payload.payer", &out->payer_addr) < 0 ||
	    get_uint(&c, pl, "issuedAt", "payload.issuedAt", &out->issued_at) < 0)
		return -1;
	if (out->issued_at == 0)
		return fail(&c, "payload.issuedAt", "issuedAt must be a positive Unix time");
	if (json_object_object_get_ex(pl, "transaction", &tx)) {
		if (get_str(&c, pl, "transaction", "payload.transaction", out->transaction,
		    sizeof(out->transaction) - 1, true) < 0)
			return fail(&c, "payload.transaction", "transaction must be \"\" or 0x and 64 hex "
			    "digits");
		if (out->transaction[0] && (strlen(out->transaction) != 66 ||
		    !hex_is_lower_prefixed(out->transaction, 66, 64)))
			return fail(&c, "payload.transaction", "transaction must be \"\" or 0x and 64 "
			    "lowercase hex digits");
	}
	m = json_object_new_object();
	json_object_object_add(m, "version", json_object_new_string("1"));
	json_object_object_add(m, "network", json_object_new_string(out->network));
	json_object_object_add(m, "resourceUrl", json_object_new_string(out->resource_url));
	json_object_object_add(m, "payer", json_object_new_string(out->payer));
	snprintf(num, sizeof(num), "%" PRIu64, out->issued_at);
	json_object_object_add(m, "issuedAt", json_object_new_string(num));
	json_object_object_add(m, "transaction", json_object_new_string(out->transaction));
	rc = typed_digest(TYPED_X402_RECEIPT, &d, m, out->digest, err, sizeof(err));
	json_object_put(m);
	if (rc < 0)
		return fail(&c, "payload", "the receipt cannot be hashed (%s)", err);
	return check_signature(&c, o, out->digest, &out->signer);
}
