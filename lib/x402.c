#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "b64json.h"
#include "hex.h"
#include "json.h"
#include "rpc.h"
#include "sha256.h"
#include "sig.h"
#include "typed.h"
#include "u256.h"
#include "x402.h"
#include "banned.h"

#define USDC_DECIMALS 6
#define VALID_BEFORE_MARGIN 6     /* seconds the facilitator wants left, too */
#define CLOCK_SKEW 30             /* seconds a validAfter may lie ahead of us */

int
x402_requirements_init(struct x402_requirements *rq, const struct config *cfg,
    const char *price_usdc, const char *path, const char *query, const char *description,
    char *err, size_t cap)
{
	struct decimal d;
	int n;

	memset(rq, 0, sizeof(*rq));
	if (price_usdc == NULL || decimal_parse(price_usdc, strlen(price_usdc), &d) != DECIMAL_OK ||
	    decimal_is_zero(&d) ||
	    decimal_to_atomic(&d, USDC_DECIMALS, rq->amount, sizeof(rq->amount)) != DECIMAL_OK) {
		snprintf(err, cap, "the row's price is not a positive USDC amount");
		return -1;
	}
	snprintf(rq->network, sizeof(rq->network), "%s", cfg->network);
	rq->asset = cfg->usdc_address;
	rq->pay_to = cfg->pay_to;
	rq->token_name = strcmp(cfg->network, "eip155:8453") == 0 ? "USD Coin" : "USDC";
	n = snprintf(rq->url, sizeof(rq->url), "%s%s%s%s", cfg->public_base_url, path,
	    query && *query ? "?" : "", query ? query : "");
	if (n < 0 || (size_t)n >= sizeof(rq->url)) {
		snprintf(err, cap, "the resource URL is too long");
		return -1;
	}
	snprintf(rq->description, sizeof(rq->description), "%s", description ? description : "");
	return 0;
}

json_object *
x402_requirements_json(const struct x402_requirements *rq)
{
	json_object *o = json_object_new_object(), *extra = json_object_new_object();
	char a[ADDR_TEXT_LEN + 1];

	json_object_object_add(o, "scheme", json_object_new_string("exact"));
	json_object_object_add(o, "network", json_object_new_string(rq->network));
	json_object_object_add(o, "amount", json_object_new_string(rq->amount));
	json_object_object_add(o, "asset", json_object_new_string(addr_format(&rq->asset, a)));
	json_object_object_add(o, "payTo", json_object_new_string(addr_format(&rq->pay_to, a)));
	json_object_object_add(o, "maxTimeoutSeconds", json_object_new_int(X402_MAX_TIMEOUT_SECONDS));
	json_object_object_add(extra, "name", json_object_new_string(rq->token_name));
	json_object_object_add(extra, "version", json_object_new_string("2"));
	json_object_object_add(o, "extra", extra);
	return o;
}

json_object *
x402_payment_required_json(const struct x402_requirements *rq, const char *error)
{
	json_object *o = json_object_new_object(), *res = json_object_new_object();
	json_object *acc = json_object_new_array();

	json_object_object_add(o, "x402Version", json_object_new_int(X402_VERSION));
	json_object_object_add(o, "error", json_object_new_string(error ? error : "Payment required"));
	json_object_object_add(res, "url", json_object_new_string(rq->url));
	json_object_object_add(res, "description", json_object_new_string(rq->description));
	json_object_object_add(res, "mimeType", json_object_new_string("application/json"));
	json_object_object_add(o, "resource", res);
	json_object_array_add(acc, x402_requirements_json(rq));
	json_object_object_add(o, "accepts", acc);
	return o;
}

/* Check an object's keys; msg names the first problem with the prefix given. */
static int
check_shape(json_object *o, const char *what, const char *const allowed[],
    const char *const required[], char *msg, size_t cap)
{
	const char *bad = NULL;

	switch (json_check_keys(o, allowed, required, &bad)) {
	case JSON_KEYS_OK:
		return 0;
	case JSON_KEYS_NOT_OBJECT:
		snprintf(msg, cap, "The payment's %s is not a JSON object.", what);
		return -1;
	case JSON_KEYS_UNKNOWN:
		snprintf(msg, cap, "The payment's %s has a member that x402 v2 does not define.", what);
		return -1;
	default:
		snprintf(msg, cap, "The payment's %s lacks its member %s.", what, bad ? bad : "?");
		return -1;
	}
}

/* A decimal uint256 string member without leading zeros; 0 or -1. */
static int
uint_member(json_object *o, const char *name, struct u256 *v)
{
	size_t len = 0;
	const char *s = json_member_string(o, name, &len);

	if (s == NULL || len == 0 || len > U256_DEC_MAX || (s[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	return u256_parse_dec(s, len, v);
}

static const char *const top_keys[] = { "x402Version", "resource", "accepted", "payload", "extensions", NULL };
static const char *const top_required[] = { "x402Version", "resource", "accepted", "payload", NULL };
static const char *const resource_keys[] = { "url", "description", "mimeType", "serviceName", "tags",
	"iconUrl", NULL };
static const char *const resource_required[] = { "url", NULL };
static const char *const payload_keys[] = { "signature", "authorization", NULL };
static const char *const auth_keys[] = { "from", "to", "value", "validAfter", "validBefore", "nonce", NULL };

/*
 * The v2 exact-EVM shape and value syntax; fills p, and m with the
 * authorization's fields (the whole signed message, check_signature's).
 * -1 with msg on a malformed payload, -2 when out of memory.
 */
static int
parse_shape(json_object *o, struct x402_payment *p, struct typed_transfer *m, char *msg, size_t cap)
{
	json_object *v = NULL, *res = NULL, *pl = NULL, *auth = NULL, *acc = NULL, *ext = NULL;
	const char *s;
	size_t len;
	uint8_t sigbuf[X402_SIG_MAX];

	if (check_shape(o, "payload object", top_keys, top_required, msg, cap) < 0)
		return -1;
	json_object_object_get_ex(o, "x402Version", &v);
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) != X402_VERSION) {
		snprintf(msg, cap, "x402Version must be the number 2.");
		return -1;
	}
	json_object_object_get_ex(o, "resource", &res);
	if (check_shape(res, "resource", resource_keys, resource_required, msg, cap) < 0)
		return -1;
	if (json_member_string(res, "url", NULL) == NULL) {
		snprintf(msg, cap, "resource.url must be a string.");
		return -1;
	}
	json_object_object_get_ex(o, "accepted", &acc);
	if (!json_object_is_type(acc, json_type_object)) {
		snprintf(msg, cap, "accepted must be a JSON object.");
		return -1;
	}
	if (json_object_object_get_ex(o, "extensions", &ext) && !json_object_is_type(ext, json_type_object)) {
		snprintf(msg, cap, "extensions must be a JSON object.");
		return -1;
	}
	json_object_object_get_ex(o, "payload", &pl);
	if (check_shape(pl, "payload", payload_keys, payload_keys, msg, cap) < 0)
		return -1;
	json_object_object_get_ex(pl, "authorization", &auth);
	if (check_shape(auth, "authorization", auth_keys, auth_keys, msg, cap) < 0)
		return -1;
	s = json_member_string(pl, "signature", &len);
	if (s == NULL || hex_decode(s, len, sigbuf, sizeof(sigbuf), &len) < 0 || len < 64) {
		snprintf(msg, cap, "payload.signature must be 0x-prefixed hex of at least 64 bytes.");
		return -1;
	}
	if (sha256(sigbuf, len, p->sig_digest) < 0) {
		snprintf(msg, cap, "The payment could not be read.");
		return -2;      /* out of memory: nothing is known about the payment */
	}
	s = json_member_string(auth, "from", &len);
	if (s == NULL || addr_parse(s, len, &p->from) < 0 || addr_is_zero(&p->from)) {
		snprintf(msg, cap, "authorization.from must be a nonzero address.");
		return -1;
	}
	s = json_member_string(auth, "to", &len);
	if (s == NULL || addr_parse(s, len, &p->to) < 0) {
		snprintf(msg, cap, "authorization.to must be an address.");
		return -1;
	}
	s = json_member_string(auth, "nonce", &len);
	if (s == NULL || hex_decode_fixed(s, len, p->nonce, 32, true) < 0) {
		snprintf(msg, cap, "authorization.nonce must be 0x followed by 64 hex digits.");
		return -1;
	}
	if (uint_member(auth, "value", &m->value) < 0) {
		snprintf(msg, cap, "authorization.value must be a decimal integer string.");
		return -1;
	}
	u256_format_dec(&m->value, p->value);
	if (uint_member(auth, "validAfter", &m->valid_after) < 0 ||
	    u256_to_u64(&m->valid_after, &p->valid_after) < 0) {
		snprintf(msg, cap, "authorization.validAfter must be a decimal integer string.");
		return -1;
	}
	if (uint_member(auth, "validBefore", &m->valid_before) < 0 ||
	    u256_to_u64(&m->valid_before, &p->valid_before) < 0) {
		snprintf(msg, cap, "authorization.validBefore must be a decimal integer string.");
		return -1;
	}
	m->from = p->from;
	m->to = p->to;
	memcpy(m->nonce, p->nonce, sizeof(m->nonce));
	return 0;
}

/* An EOA signature (65 bytes, or 64 EIP-2098) must recover to from under the token's domain. */
static int
check_signature(json_object *o, const struct x402_requirements *rq, const struct x402_payment *p,
    const struct typed_transfer *m, char *msg, size_t cap)
{
	json_object *pl = NULL;
	const char *s;
	size_t len;
	struct sig sg;
	struct addr who;
	uint8_t digest[32];
	uint64_t chain_id;
	char *end;
	struct typed_domain d = { .name = rq->token_name, .version = "2",
		.verifying_contract = &rq->asset };

	json_object_object_get_ex(o, "payload", &pl);
	s = json_member_string(pl, "signature", &len);
	if (len != 2 + 2 * 65 && len != 2 + 2 * 64)
		return 0;   /* a smart-wallet signature: the facilitator decides */
	chain_id = strtoull(rq->network + strlen("eip155:"), &end, 10);
	d.chain_id = chain_id;
	if (typed_transfer_digest(&d, m, digest) < 0) {
		snprintf(msg, cap, "The authorization cannot be hashed as an EIP-3009 transfer.");
		return -1;
	}
	if (sig_parse_hex(s, len, &sg) != SIG_OK || sig_recover(digest, &sg, &who) != SIG_OK ||
	    !addr_eq(&who, &p->from)) {
		snprintf(msg, cap, "payload.signature is not authorization.from's signature of this "
		    "authorization (the payment was altered or signed for another token).");
		return -1;
	}
	return 0;
}

/* The binding check: this resource, these requirements, this payee and amount, now. */
static enum x402_parse
check_binding(json_object *o, const struct x402_requirements *rq, const struct x402_payment *p,
    uint64_t now, char *msg, size_t cap)
{
	json_object *res = NULL, *acc = NULL, *want;
	bool same;

	json_object_object_get_ex(o, "resource", &res);
	if (strcmp(json_member_string(res, "url", NULL), rq->url) != 0) {
		snprintf(msg, cap, "The payment was made for another resource URL than this request's.");
		return X402_PARSE_MISMATCH;
	}
	json_object_object_get_ex(o, "accepted", &acc);
	want = x402_requirements_json(rq);
	same = want && json_object_equal(acc, want);
	json_object_put(want);
	if (!same) {
		snprintf(msg, cap, "The payment's accepted requirements differ from this endpoint's "
		    "(price, network, asset, payTo or timeout).");
		return X402_PARSE_MISMATCH;
	}
	if (!addr_eq(&p->to, &rq->pay_to)) {
		snprintf(msg, cap, "authorization.to is not this endpoint's payTo.");
		return X402_PARSE_MISMATCH;
	}
	if (strcmp(p->value, rq->amount) != 0) {
		snprintf(msg, cap, "authorization.value is not this endpoint's price of %s atomic USDC.",
		    rq->amount);
		return X402_PARSE_MISMATCH;
	}
	if (p->valid_after > now + CLOCK_SKEW) {
		snprintf(msg, cap, "authorization.validAfter lies in the future.");
		return X402_PARSE_MISMATCH;
	}
	if (p->valid_before < now + VALID_BEFORE_MARGIN) {
		snprintf(msg, cap, "authorization.validBefore has passed or is too close; sign a new payment.");
		return X402_PARSE_EXPIRED;
	}
	return X402_PARSE_OK;
}

enum x402_parse
x402_payment_parse(const char *hdr, const struct x402_requirements *rq, uint64_t now,
    struct x402_payment *out, char *msg, size_t cap)
{
	struct json_limits lim = { .max_depth = 8, .max_length = X402_HEADER_MAX,
		.max_string = X402_HEADER_MAX, .max_members = 64 };
	struct json_error je;
	json_object *o = NULL;
	enum x402_parse rc;

	memset(out, 0, sizeof(*out));
	switch (b64json_decode(hdr, BASE64_STD, X402_HEADER_MAX, &lim, &o, &je)) {
	case B64JSON_OK:
		break;
	case B64JSON_SIZE:
		snprintf(msg, cap, "PAYMENT-SIGNATURE is empty or longer than %d characters.", X402_HEADER_MAX);
		return X402_PARSE_MALFORMED;
	case B64JSON_BASE64:
		snprintf(msg, cap, "PAYMENT-SIGNATURE is not standard base64 with padding.");
		return X402_PARSE_MALFORMED;
	case B64JSON_JSON:
		snprintf(msg, cap, "PAYMENT-SIGNATURE does not decode to strict JSON: %s.", je.msg);
		return X402_PARSE_MALFORMED;
	case B64JSON_NOMEM:
	default:
		snprintf(msg, cap, "The payment could not be read.");
		return X402_PARSE_NOMEM;
	}
	rc = x402_payment_check(o, rq, now, out, msg, cap);
	/* An x402 authorization lives at most maxTimeoutSeconds (the client
	 * signs validBefore = now + maxTimeoutSeconds): a longer one would keep
	 * a late settlement servable, and its row worth reconciling, for as
	 * long as its signer chose. (MPP's bound is its challenge's expiry.) */
	if (rc == X402_PARSE_OK && out->valid_before > now + X402_MAX_TIMEOUT_SECONDS + CLOCK_SKEW) {
		snprintf(msg, cap, "authorization.validBefore lies more than maxTimeoutSeconds (%d) ahead; "
		    "sign a payment that expires sooner.", X402_MAX_TIMEOUT_SECONDS);
		x402_payment_release(out);
		return X402_PARSE_MISMATCH;
	}
	return rc;
}

enum x402_parse
x402_payment_check(json_object *o, const struct x402_requirements *rq, uint64_t now,
    struct x402_payment *out, char *msg, size_t cap)
{
	struct typed_transfer m;
	enum x402_parse rc = X402_PARSE_MALFORMED;

	memset(out, 0, sizeof(*out));
	switch (parse_shape(o, out, &m, msg, cap)) {
	case 0:
		break;
	case -2:
		rc = X402_PARSE_NOMEM;
		goto out;
	default:
		goto out;
	}
	if (check_signature(o, rq, out, &m, msg, cap) < 0)
		goto out;
	rc = check_binding(o, rq, out, now, msg, cap);
	if (rc == X402_PARSE_OK) {
		out->payload = o;
		o = NULL;
	}
out:
	json_object_put(o);
	return rc;
}

void
x402_payment_release(struct x402_payment *p)
{
	json_object_put(p->payload);
	p->payload = NULL;
}

/* The 0x-hex string result of method(params), into out[cap]; 0 or -1. */
static int
rpc_string(struct rpc *node, const char *method, const char *params, char *out, size_t cap)
{
	json_object *res = NULL;
	int rc = -1;

	if (rpc_call(node, method, params, &res) != RPC_OK) {
		fprintf(stderr, "waymark: %s: %s\n", method, node->err);
		return -1;
	}
	if (json_object_is_type(res, json_type_string) &&
	    (size_t)json_object_get_string_len(res) < cap) {
		snprintf(out, cap, "%s", json_object_get_string(res));
		rc = 0;
	}
	json_object_put(res);
	return rc;
}

/* A 32-byte topic equal to the address a (any case of hex)? */
static bool
topic_is_addr(json_object *t, const struct addr *a)
{
	char want[67], h[2 * ADDR_LEN + 3];

	if (!json_object_is_type(t, json_type_string) || json_object_get_string_len(t) != 66)
		return false;
	hex_encode(a->b, ADDR_LEN, h);
	snprintf(want, sizeof(want), "0x000000000000000000000000%s", h + 2);
	return strcasecmp(json_object_get_string(t), want) == 0;
}

/* The token's AuthorizationCanceled(address,bytes32) event. */
static const char canceled_topic[] =
    "0x1cdd46ff242716cdaa72d159d339a485b3438398348d68f09d7c8c0a59353d81";

int
x402_receipt_transfer(json_object *rcpt, const struct addr *token, const struct x402_payment *p)
{
	static const char transfer[] = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
	json_object *logs = NULL;
	char amount[67];
	struct u256 v;
	uint8_t be[32];
	int found = 0;

	if (u256_parse_dec(p->value, strlen(p->value), &v) < 0)
		return -1;
	u256_to_be(&v, be);
	hex_encode(be, 32, amount);
	if (!json_object_object_get_ex(rcpt, "logs", &logs) || !json_object_is_type(logs, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(logs) && !found; i++) {
		json_object *l = json_object_array_get_idx(logs, i), *ad = NULL, *tp = NULL, *d = NULL, *t0;
		struct addr from_log;
		const char *as;

		if (!json_object_object_get_ex(l, "address", &ad) || !json_object_object_get_ex(l, "topics", &tp) ||
		    !json_object_object_get_ex(l, "data", &d) || !json_object_is_type(tp, json_type_array) ||
		    json_object_array_length(tp) != 3 || !json_object_is_type(ad, json_type_string))
			continue;
		as = json_object_get_string(ad);
		if (addr_parse(as, strlen(as), &from_log) < 0 || !addr_eq(&from_log, token))
			continue;
		/* Any member may be of another type (a JSON null has no string). */
		t0 = json_object_array_get_idx(tp, 0);
		found = json_object_is_type(t0, json_type_string) &&
		    strcasecmp(json_object_get_string(t0), transfer) == 0 &&
		    topic_is_addr(json_object_array_get_idx(tp, 1), &p->from) &&
		    topic_is_addr(json_object_array_get_idx(tp, 2), &p->to) &&
		    json_object_is_type(d, json_type_string) &&
		    strcasecmp(json_object_get_string(d), amount) == 0;
	}
	return found;
}

/* Does the receipt of tx carry token's Transfer(p->from, p->to, p->value)? -1 when unknown. */
static int
transfer_in(struct rpc *node, const struct addr *token, const char *tx, const struct x402_payment *p)
{
	char params[128];
	json_object *rcpt = NULL;
	int found = -1;

	snprintf(params, sizeof(params), "[\"%s\"]", tx);
	if (rpc_call(node, "eth_getTransactionReceipt", params, &rcpt) == RPC_OK)
		found = x402_receipt_transfer(rcpt, token, p);
	json_object_put(rcpt);
	return found;
}

int
x402_auth_logs(json_object *logs, char tx[67])
{
	json_object *first, *topics = NULL, *t0, *h = NULL;
	uint8_t hash[32];

	tx[0] = '\0';
	/* No log: used too long ago to look up. */
	if (!json_object_is_type(logs, json_type_array) || json_object_array_length(logs) == 0)
		return -1;
	first = json_object_array_get_idx(logs, 0);
	if (json_object_object_get_ex(first, "topics", &topics) &&
	    json_object_is_type(topics, json_type_array) && json_object_array_length(topics) > 0 &&
	    json_object_is_type((t0 = json_object_array_get_idx(topics, 0)), json_type_string) &&
	    strcasecmp(json_object_get_string(t0), canceled_topic) == 0)
		return 0;      /* the payer canceled it: it never pays */
	if (!json_object_object_get_ex(first, "transactionHash", &h) ||
	    !json_object_is_type(h, json_type_string) || json_object_get_string_len(h) != 66 ||
	    hex_decode_fixed(json_object_get_string(h), 66, hash, 32, true) < 0)
		return -1;
	hex_encode(hash, 32, tx);   /* "0x" and lowercase, whatever case the node wrote */
	return 1;
}

enum x402_auth_state
x402_authorization_state(const struct config *cfg, const struct x402_payment *p, uint8_t tx_out[32])
{
	static const char used_topic[] =
	    "0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5";
	struct rpc *node = rpc_shared(cfg->rpc_url, (long)cfg->rpc_timeout_ms, cfg->tls_ca_file);
	char params[768], token[ADDR_TEXT_LEN + 1], from[ADDR_TEXT_LEN + 1], nonce[67], out[80], tx[67];
	json_object *logs = NULL;
	uint64_t head = 0;
	enum x402_auth_state st = X402_AUTH_UNKNOWN;
	int t;

	if (node == NULL)
		return X402_AUTH_UNKNOWN;
	addr_format_lower(&cfg->usdc_address, token);
	addr_format_lower(&p->from, from);
	hex_encode(p->nonce, 32, nonce);
	/* authorizationState(address,bytes32): selector 0xe94a0102. */
	snprintf(params, sizeof(params), "[{\"to\":\"%s\",\"data\":\"0xe94a0102000000000000000000000000"
	    "%s%s\"},\"latest\"]", token, from + 2, nonce + 2);
	if (rpc_string(node, "eth_call", params, out, sizeof(out)) < 0 || strlen(out) != 66 ||
	    strspn(out + 2, "0") < 63)
		return X402_AUTH_UNKNOWN;
	if (out[65] == '0')
		return X402_AUTH_UNUSED;
	if (out[65] != '1' || rpc_string(node, "eth_blockNumber", "[]", out, sizeof(out)) < 0 ||
	    rpc_hex_u64(out, &head) < 0)
		return X402_AUTH_UNKNOWN;
	/* Used: by this very transfer, by another authorization, or canceled? */
	snprintf(params, sizeof(params), "[{\"address\":\"%s\",\"fromBlock\":\"0x%" PRIx64 "\","
	    "\"toBlock\":\"latest\",\"topics\":[[\"%s\",\"%s\"],\"0x000000000000000000000000%s\","
	    "\"%s\"]}]", token, head > X402_AUTH_LOOKBACK ? head - X402_AUTH_LOOKBACK : 0, used_topic,
	    canceled_topic, from + 2, nonce);
	if (rpc_call(node, "eth_getLogs", params, &logs) != RPC_OK) {
		json_object_put(logs);
		return X402_AUTH_UNKNOWN;
	}
	t = x402_auth_logs(logs, tx);
	json_object_put(logs);
	if (t == 0)
		return X402_AUTH_VOID;      /* the payer canceled it: it never pays */
	if (t == 1 && (t = transfer_in(node, &cfg->usdc_address, tx, p)) >= 0)
		st = t ? X402_AUTH_USED : X402_AUTH_VOID;
	/* x402_auth_logs wrote 0x and 64 hex digits. */
	if (st == X402_AUTH_USED && tx_out && hex_decode_fixed(tx, 66, tx_out, 32, true) < 0)
		st = X402_AUTH_UNKNOWN;
	return st;
}
