#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "addr.h"
#include "b64json.h"
#include "base64.h"
#include "hex.h"
#include "json.h"
#include "keccak.h"
#include "mpp.h"
#include "sha256.h"
#include "timefmt.h"
#include "banned.h"

#define METHOD "evm"
#define INTENT "charge"
#define MPP_CLOCK_SKEW 5        /* seconds an authorization may outlive its challenge */

/* The authority of an http(s) URL ("host[:port]") into out[cap]; 0 or -1. */
static int
url_authority(const char *url, char *out, size_t cap)
{
	const char *p = strstr(url, "://"), *end;
	size_t n;

	if (p == NULL)
		return -1;
	p += 3;
	end = p + strcspn(p, "/?#");
	n = (size_t)(end - p);
	if (n == 0 || n >= cap)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* Append s as a JSON string the way JCS (RFC 8785) writes it; 0 or -1. */
static int
jcs_string(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c == '\b') {
			buf_adds(b, "\\b");
		} else if (c == '\t') {
			buf_adds(b, "\\t");
		} else if (c == '\n') {
			buf_adds(b, "\\n");
		} else if (c == '\f') {
			buf_adds(b, "\\f");
		} else if (c == '\r') {
			buf_adds(b, "\\r");
		} else if (c < 0x20) {
			buf_printf(b, "\\u%04x", c);
		} else {
			buf_addc(b, (char)c);
		}
	}
	buf_addc(b, '"');
	return b->full ? -1 : 0;
}

/* base64url of text[0..len) into out[cap]; 0 or -1 (no room). */
static int
b64url_into(const char *text, size_t len, char *out, size_t cap)
{
	struct buf b;
	int rc = -1;

	buf_init(&b, cap);
	if (base64_encode(text, len, BASE64_URL, &b) == 0 && b.len < cap) {
		memcpy(out, buf_str(&b), b.len + 1);
		rc = 0;
	}
	buf_release(&b);
	return rc;
}

/* The id of a challenge with these auth-params, under secret: base64url HMAC into id[48]; 0 or -1. */
static int
challenge_id(const char *secret, const char *realm, const char *method, const char *intent,
    const char *request, const char *expires, const char *digest, const char *opaque, char id[48])
{
	struct buf in;
	uint8_t mac[32];
	int rc = -1;

	buf_init(&in, 4 * MPP_OPAQUE_MAX);
	buf_printf(&in, "%s|%s|%s|%s|%s|%s|%s", realm, method, intent, request, expires, digest, opaque);
	if (!in.full && hmac_sha256(secret, strlen(secret), in.p, in.len, mac) == 0 &&
	    b64url_into((const char *)mac, sizeof(mac), id, 48) == 0)
		rc = 0;
	OPENSSL_cleanse(mac, sizeof(mac));
	buf_release(&in);
	return rc;
}

int
mpp_challenge_init(struct mpp_challenge *c, const struct config *cfg,
    const struct x402_requirements *rq, const char *method, const uint8_t *body, size_t body_len,
    uint64_t now, char *err, size_t cap)
{
	char asset[ADDR_TEXT_LEN + 1], pay_to[ADDR_TEXT_LEN + 1], text[512], salt_hex[33];
	uint8_t salt[16];
	struct buf op;
	int n, rc = -1;

	memset(c, 0, sizeof(*c));
	if (cfg->mpp_secret[0] == '\0') {
		snprintf(err, cap, "no mpp_secret is configured");
		return -1;
	}
	/* No '|' in what is issued, so the HMAC input splits one way only. */
	if (url_authority(cfg->public_base_url, c->realm, sizeof(c->realm)) < 0 || strchr(c->realm, '|')) {
		snprintf(err, cap, "public_base_url has no host to name the realm");
		return -1;
	}
	if (strlen(rq->url) > MPP_URL_MAX) {
		snprintf(err, cap, "the resource URL is longer than %d bytes", MPP_URL_MAX);
		return -1;
	}
	/* The charge request, written in JCS order (keys sorted, no spaces). */
	n = snprintf(text, sizeof(text), "{\"amount\":\"%s\",\"currency\":\"%s\",\"methodDetails\":"
	    "{\"chainId\":%" PRIu64 ",\"credentialTypes\":[\"authorization\"],\"decimals\":6},"
	    "\"recipient\":\"%s\"}", rq->amount, addr_format(&rq->asset, asset), cfg->chain_id,
	    addr_format(&rq->pay_to, pay_to));
	if (n < 0 || (size_t)n >= sizeof(text) ||
	    b64url_into(text, (size_t)n, c->request, sizeof(c->request)) < 0) {
		snprintf(err, cap, "the charge request does not fit");
		return -1;
	}
	/* A nonce of the challenge's own: two challenges are never the same,
	 * so neither are the EIP-3009 nonces of their authorizations. */
	if (RAND_bytes(salt, sizeof(salt)) != 1) {
		snprintf(err, cap, "no random bytes for the challenge");
		return -1;
	}
	snprintf(c->method, sizeof(c->method), "%s", method);
	buf_init(&op, MPP_OPAQUE_MAX);
	buf_adds(&op, "{\"method\":");
	jcs_string(&op, method);
	buf_printf(&op, ",\"nonce\":\"%s\",\"url\":", hex_digits(salt, sizeof(salt), salt_hex));
	jcs_string(&op, rq->url);
	buf_addc(&op, '}');
	if (op.full || b64url_into(op.p, op.len, c->opaque, sizeof(c->opaque)) < 0) {
		snprintf(err, cap, "the resource URL is too long to bind");
		goto out;
	}
	if (body && body_len > 0) {
		uint8_t md[32];
		struct buf d;

		buf_init(&d, sizeof(c->digest));
		buf_adds(&d, "sha-256=:");
		if (sha256(body, body_len, md) < 0 || base64_encode(md, sizeof(md), BASE64_STD, &d) < 0 ||
		    buf_addc(&d, ':') < 0 || d.len >= sizeof(c->digest)) {
			buf_release(&d);
			snprintf(err, cap, "the body digest could not be computed");
			goto out;
		}
		memcpy(c->digest, buf_str(&d), d.len + 1);
		buf_release(&d);
	}
	c->expires_at = now + MPP_CHALLENGE_SECONDS;
	if (time_rfc3339((time_t)c->expires_at, c->expires, sizeof(c->expires))[0] == '\0' ||
	    challenge_id(cfg->mpp_secret, c->realm, METHOD, INTENT, c->request, c->expires, c->digest,
	    c->opaque, c->id) < 0) {
		snprintf(err, cap, "the challenge id could not be computed");
		goto out;
	}
	rc = 0;
out:
	buf_release(&op);
	return rc;
}

int
mpp_challenge_header(const struct mpp_challenge *c, struct buf *out)
{
	/* Every value is base64url, RFC 3339 or a digest: no quoting needed. */
	buf_printf(out, "Payment id=\"%s\", realm=\"%s\", method=\"" METHOD "\", intent=\"" INTENT "\", "
	    "request=\"%s\", expires=\"%s\"", c->id, c->realm, c->request, c->expires);
	if (c->digest[0])
		buf_printf(out, ", digest=\"%s\"", c->digest);
	buf_printf(out, ", opaque=\"%s\"", c->opaque);
	return out->full ? -1 : 0;
}

bool
mpp_is_credential(const char *v)
{
	return v && strncasecmp(v, "Payment", 7) == 0 && (v[7] == ' ' || v[7] == '\t');
}

/* Every member of o in keys is a string and every one of required is present; 0 or -1 naming it. */
static int
check_object(json_object *o, const char *what, const char *const keys[], const char *const required[],
    char *msg, size_t cap)
{
	const char *bad = NULL;

	switch (json_check_keys(o, keys, required, &bad)) {
	case JSON_KEYS_OK:
		break;
	case JSON_KEYS_NOT_OBJECT:
		snprintf(msg, cap, "The credential's %s is not a JSON object.", what);
		return -1;
	case JSON_KEYS_UNKNOWN:
		snprintf(msg, cap, "The credential's %s has a member this server does not define.", what);
		return -1;
	default:
		snprintf(msg, cap, "The credential's %s lacks its member %s.", what, bad ? bad : "?");
		return -1;
	}
	json_object_object_foreach(o, k, v) {
		if (!json_object_is_type(v, json_type_string) ||
		    strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v)) {
			snprintf(msg, cap, "The credential's %s member %s is not a string without NUL.", what, k);
			return -1;
		}
	}
	return 0;
}

static const char *const top_keys[] = { "challenge", "payload", "source", NULL };
static const char *const top_required[] = { "challenge", "payload", NULL };
static const char *const ch_keys[] = { "id", "realm", "method", "intent", "request", "expires", "digest",
	"opaque", "description", NULL };
static const char *const ch_required[] = { "id", "realm", "method", "intent", "request", "expires",
	"opaque", NULL };
static const char *const pl_keys[] = { "type", "from", "to", "value", "validAfter", "validBefore", "nonce",
	"signature", NULL };

/* Add member k of o: the new value v (NULL: out of memory); 0, or -1 with v put. */
static int
add(json_object *o, const char *k, json_object *v)
{
	if (v == NULL || json_object_object_add(o, k, v) != 0) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

/* The x402 v2 payload equivalent to the authorization pl, for rq; NULL when out of memory. */
static json_object *
x402_equivalent(json_object *pl, const struct x402_requirements *rq)
{
	static const char *const fields[] = { "from", "to", "value", "validAfter", "validBefore", "nonce" };
	json_object *o = json_object_new_object(), *res = json_object_new_object();
	json_object *inner = json_object_new_object(), *auth = json_object_new_object();
	int bad = !o || !res || !inner || !auth;

	for (size_t i = 0; !bad && i < sizeof(fields) / sizeof(fields[0]); i++)
		bad = add(auth, fields[i], json_object_new_string(json_member_string(pl, fields[i], NULL)));
	if (!bad)
		bad = add(res, "url", json_object_new_string(rq->url)) ||
		    add(inner, "signature", json_object_new_string(json_member_string(pl, "signature", NULL)));
	if (!bad) {
		bad = add(inner, "authorization", auth);
		auth = NULL;
	}
	if (!bad) {
		bad = add(o, "resource", res) | add(o, "payload", inner);
		res = inner = NULL;
	}
	if (!bad)
		bad = add(o, "x402Version", json_object_new_int(X402_VERSION)) ||
		    add(o, "accepted", x402_requirements_json(rq));
	json_object_put(res);
	json_object_put(inner);
	json_object_put(auth);
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Decode the token of an Authorization: Payment value into strict JSON; NULL with msg. */
static json_object *
decode(const char *v, enum x402_parse *rc, char *msg, size_t cap)
{
	struct json_limits lim = { .max_depth = 4, .max_length = MPP_HEADER_MAX,
		.max_string = MPP_HEADER_MAX, .max_members = 32 };
	struct json_error je;
	const char *tok = v + 7;
	size_t tlen;
	char *t;
	json_object *o = NULL;

	*rc = X402_PARSE_MALFORMED;
	tok += strspn(tok, " \t");
	tlen = strcspn(tok, " \t");
	if (tlen == 0 || tlen > MPP_HEADER_MAX || tok[tlen + strspn(tok + tlen, " \t")] != '\0') {
		snprintf(msg, cap, "Authorization: Payment must carry one token of at most %d characters.",
		    MPP_HEADER_MAX);
		return NULL;
	}
	if ((t = strndup(tok, tlen)) == NULL) {
		*rc = X402_PARSE_NOMEM;
		snprintf(msg, cap, "The credential could not be read.");
		return NULL;
	}
	switch (b64json_decode(t, BASE64_URL, MPP_HEADER_MAX, &lim, &o, &je)) {
	case B64JSON_OK:
		break;
	case B64JSON_NOMEM:
		*rc = X402_PARSE_NOMEM;
		snprintf(msg, cap, "The credential could not be read.");
		break;
	case B64JSON_JSON:
		/* The code's text only: the parser's message may quote the credential. */
		snprintf(msg, cap, "The Payment credential does not decode to strict JSON (%s).",
		    json_strerror(je.code));
		break;
	default:
		snprintf(msg, cap, "The Payment credential is not base64url.");
		break;
	}
	free(t);
	return o;
}

/*
 * Whether an opaque this service issued (its HMAC held) binds method and
 * url: base64url of JCS {"method", "nonce", "url"}.
 */
static bool
opaque_binds(const char *opaque, const char *method, const char *url)
{
	static const char *const keys[] = { "method", "nonce", "url", NULL };
	struct json_limits lim = { .max_depth = 1, .max_length = MPP_OPAQUE_MAX,
		.max_string = MPP_OPAQUE_MAX, .max_members = 3 };
	size_t len = strlen(opaque), n = 0;
	uint8_t *raw = malloc(len + 1);
	json_object *o = NULL;
	bool same = false;

	if (raw && base64_decode(opaque, len, BASE64_URL, raw, len, &n) == 0 &&
	    json_parse_strict((const char *)raw, n, &lim, &o, NULL) == 0 &&
	    json_check_keys(o, keys, keys, NULL) == JSON_KEYS_OK && json_member_string(o, "method", NULL) &&
	    json_member_string(o, "url", NULL))
		same = strcmp(json_member_string(o, "method", NULL), method) == 0 && strcmp(json_member_string(o, "url", NULL), url) == 0;
	json_object_put(o);
	free(raw);
	return same;
}

static enum x402_parse
check_challenge(json_object *ch, const struct mpp_challenge *want, const char *url,
    const struct config *cfg, uint64_t now, char id[48], uint64_t *expires_at, char *msg, size_t cap)
{
	const char *digest = json_member_string(ch, "digest", NULL) ? json_member_string(ch, "digest", NULL) : "";
	char mac_id[48];
	int64_t exp_s = 0;
	uint32_t ns;
	const char *exp = json_member_string(ch, "expires", NULL);

	bool issued = false;

	/* Issued under the secret, or under the one before a rotation. */
	for (int k = 0; k < 2 && !issued; k++) {
		const char *secret = k ? cfg->mpp_secret_previous : cfg->mpp_secret;

		if (secret[0] == '\0')
			continue;
		if (challenge_id(secret, json_member_string(ch, "realm", NULL), json_member_string(ch, "method", NULL),
		    json_member_string(ch, "intent", NULL), json_member_string(ch, "request", NULL), exp, digest,
		    json_member_string(ch, "opaque", NULL), mac_id) < 0) {
			snprintf(msg, cap, "The credential's challenge is too large to check.");
			return X402_PARSE_MALFORMED;
		}
		issued = strlen(json_member_string(ch, "id", NULL)) == strlen(mac_id) &&
		    CRYPTO_memcmp(json_member_string(ch, "id", NULL), mac_id, strlen(mac_id)) == 0;
	}
	if (!issued) {
		snprintf(msg, cap, "The credential's challenge was not issued by this service, or was "
		    "altered; pay the fresh challenge.");
		return X402_PARSE_MALFORMED;
	}
	memcpy(id, mac_id, sizeof(mac_id));
	if (strcmp(json_member_string(ch, "method", NULL), METHOD) != 0 || strcmp(json_member_string(ch, "intent", NULL), INTENT) != 0) {
		snprintf(msg, cap, "The credential answers a challenge of another payment method or intent.");
		return X402_PARSE_MISMATCH;
	}
	if (strcmp(json_member_string(ch, "realm", NULL), want->realm) != 0 ||
	    !opaque_binds(json_member_string(ch, "opaque", NULL), want->method, url)) {
		snprintf(msg, cap, "The credential answers a challenge for another resource or method "
		    "than this request's.");
		return X402_PARSE_MISMATCH;
	}
	if (strcmp(json_member_string(ch, "request", NULL), want->request) != 0) {
		snprintf(msg, cap, "The credential answers a challenge for another price, payee, asset or "
		    "network than this endpoint's.");
		return X402_PARSE_MISMATCH;
	}
	if (strcmp(digest, want->digest) != 0) {
		snprintf(msg, cap, "The credential answers a challenge issued for another request body.");
		return X402_PARSE_MISMATCH;
	}
	if (time_parse_rfc3339(exp, strlen(exp), &exp_s, &ns) < 0 || exp_s < 0) {
		snprintf(msg, cap, "The credential's challenge has no valid expiry.");
		return X402_PARSE_MALFORMED;
	}
	*expires_at = (uint64_t)exp_s;
	if ((uint64_t)exp_s < now) {
		snprintf(msg, cap, "The credential answers a challenge that expired; pay the fresh challenge.");
		return X402_PARSE_EXPIRED;
	}
	return X402_PARSE_OK;
}

enum x402_parse
mpp_credential_parse(const char *v, const struct mpp_challenge *want, const struct config *cfg,
    const struct x402_requirements *rq, uint64_t now, struct x402_payment *out,
    char challenge_id_out[48], char *msg, size_t cap)
{
	json_object *o, *ch = NULL, *pl = NULL, *x = NULL, *src = NULL;
	enum x402_parse rc, bind;
	uint8_t nonce[32], want_nonce[32];
	const char *s;
	char pre[48 + sizeof(want->realm)];
	uint64_t expires_at = 0;
	int n;

	memset(out, 0, sizeof(*out));
	challenge_id_out[0] = '\0';
	if (!mpp_is_credential(v)) {
		snprintf(msg, cap, "The Authorization header does not use the Payment scheme.");
		return X402_PARSE_MALFORMED;
	}
	if ((o = decode(v, &rc, msg, cap)) == NULL)
		return rc;
	rc = X402_PARSE_MALFORMED;
	switch (json_check_keys(o, top_keys, top_required, NULL)) {
	case JSON_KEYS_OK:
		break;
	default:
		snprintf(msg, cap, "The Payment credential must be an object of challenge, payload and "
		    "optional source.");
		goto out;
	}
	json_object_object_get_ex(o, "challenge", &ch);
	json_object_object_get_ex(o, "payload", &pl);
	if (json_object_object_get_ex(o, "source", &src) && !json_object_is_type(src, json_type_string)) {
		snprintf(msg, cap, "The credential's source is not a string.");
		goto out;
	}
	if (check_object(ch, "challenge", ch_keys, ch_required, msg, cap) < 0 ||
	    check_object(pl, "payload", pl_keys, pl_keys, msg, cap) < 0)
		goto out;
	bind = check_challenge(ch, want, rq->url, cfg, now, challenge_id_out, &expires_at, msg, cap);
	if (bind != X402_PARSE_OK && bind != X402_PARSE_EXPIRED) {
		rc = bind;
		goto out;
	}
	if (strcmp(json_member_string(pl, "type", NULL), "authorization") != 0) {
		snprintf(msg, cap, "The credential's payload type must be \"authorization\" (EIP-3009).");
		goto out;
	}
	/* The EIP-3009 nonce of an EVM charge is the challenge's hash. */
	n = snprintf(pre, sizeof(pre), "%s%s", json_member_string(ch, "id", NULL), json_member_string(ch, "realm", NULL));
	keccak256(pre, n > 0 && (size_t)n < sizeof(pre) ? (size_t)n : 0, want_nonce);
	s = json_member_string(pl, "nonce", NULL);
	if (n < 0 || (size_t)n >= sizeof(pre) || hex_decode_fixed(s, strlen(s), nonce, 32, true) < 0 ||
	    memcmp(nonce, want_nonce, 32) != 0) {
		snprintf(msg, cap, "The authorization's nonce is not keccak256 of the challenge's id and "
		    "realm.");
		goto out;
	}
	if ((x = x402_equivalent(pl, rq)) == NULL) {
		rc = X402_PARSE_NOMEM;
		snprintf(msg, cap, "The credential could not be read.");
		goto out;
	}
	rc = x402_payment_check(x, rq, now, out, msg, cap);
	/* The authorization lives no longer than its challenge (mppx signs
	 * validBefore = expires), so it cannot outlive its binding on the
	 * x402 rail either. */
	if ((rc == X402_PARSE_OK || rc == X402_PARSE_EXPIRED) &&
	    out->valid_before > expires_at + MPP_CLOCK_SKEW) {
		x402_payment_release(out);
		snprintf(msg, cap, "The authorization's validBefore lies beyond its challenge's expiry.");
		rc = X402_PARSE_MISMATCH;
		goto out;
	}
	if ((rc == X402_PARSE_OK || rc == X402_PARSE_EXPIRED) && bind == X402_PARSE_EXPIRED) {
		/* Bound here but too late to pay with: what it paid, if anything, the caller finds. */
		x402_payment_release(out);
		snprintf(msg, cap, "The credential answers a challenge that expired; pay the fresh challenge.");
		rc = X402_PARSE_EXPIRED;
	}
out:
	json_object_put(o);
	return rc;
}

int
mpp_receipt_header(const char *challenge_id, const char *tx, const struct config *cfg, uint64_t now,
    struct buf *out)
{
	json_object *o = json_object_new_object();
	char ts[32];
	const char *s;
	size_t len;
	int rc = -1;

	if (o == NULL || time_rfc3339((time_t)now, ts, sizeof(ts))[0] == '\0')
		goto out;
	json_object_object_add(o, "status", json_object_new_string("success"));
	json_object_object_add(o, "method", json_object_new_string(METHOD));
	json_object_object_add(o, "timestamp", json_object_new_string(ts));
	json_object_object_add(o, "reference", json_object_new_string(tx ? tx : ""));
	json_object_object_add(o, "challengeId", json_object_new_string(challenge_id));
	json_object_object_add(o, "chainId", json_object_new_int64((int64_t)cfg->chain_id));
	if ((s = json_dump(o, &len)) != NULL)
		rc = base64_encode(s, len, BASE64_URL, out);
out:
	json_object_put(o);
	return rc;
}
