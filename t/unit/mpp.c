/*
 * MPP, the Payment HTTP authentication scheme (lib/mpp.h), and its base64
 * (lib/base64.h): RFC 4648 vectors of the URL-safe form and the lenient
 * decoder; the challenge a paid row issues (JCS charge request, opaque
 * binding, HMAC id, two challenges never alike); and the strict parse
 * and binding check of a credential made by the reference SDK (mppx,
 * t/mpp/gen-vectors.mjs: a challenge under a known secret answered with
 * anvil account #0's key), with each way a credential can be wrong as a
 * negative.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "config.h"
#include "hex.h"
#include "json.h"
#include "keccak.h"
#include "mpp.h"
#include "sig.h"
#include "tap.h"
#include "banned.h"

#define SECRET "waymark-unit-test-mpp-secret-0123456789"
#define URL_PATH "/api/v1/x402/routes/0xabababababababababababababababababababababababababababababababab"
#define EXPIRES 1893456000u     /* 2030-01-01T00:00:00Z */

/* The challenge mppx issued under SECRET (t/mpp/gen-vectors.mjs). */
static const char vec_id[] = "RHV_M82Cf5gyVGp0KyAj9WR4OLoDg_Ob5dJw3ABFJPg";
static const char vec_request[] =
	    "eyJhbW91bnQiOiIxMDAwMCIsImN1cnJlbmN5IjoiMHg4MzM1ODlmQ0Q2ZURiNkUwOGY0YzdDMzJENGY3MWI1NGJk"
	    "QTAyOTEzIiwibWV0aG9kRGV0YWlscyI6eyJjaGFpbklkIjo4NDUzLCJjcmVkZW50aWFsVHlwZXMiOlsiYXV0aG9y"
	    "aXphdGlvbiJdLCJkZWNpbWFscyI6Nn0sInJlY2lwaWVudCI6IjB4NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1"
	    "NTU1NTU1NTU1NTU1NSJ9";
/* mppx's answer to it, signed by anvil #0. */
static const char vec_credential[] =
	    "Payment eyJjaGFsbGVuZ2UiOnsiZXhwaXJlcyI6IjIwMzAtMDEtMDFUMDA6MDA6MDBaIiwiaWQiOiJSSFZfTTgy"
	    "Q2Y1Z3lWR3AwS3lBajlXUjRPTG9EZ19PYjVkSnczQUJGSlBnIiwiaW50ZW50IjoiY2hhcmdlIiwibWV0aG9kIjoi"
	    "ZXZtIiwicmVhbG0iOiJhcGkuZXhhbXBsZS5jb20iLCJvcGFxdWUiOiJleUp0WlhSb2IyUWlPaUpIUlZRaUxDSnVi"
	    "MjVqWlNJNklqQXdNVEV5TWpNek5EUTFOVFkyTnpjNE9EazVZV0ZpWW1OalpHUmxaV1ptSWl3aWRYSnNJam9pYUhS"
	    "MGNITTZMeTloY0drdVpYaGhiWEJzWlM1amIyMHZZWEJwTDNZeEwzZzBNREl2Y205MWRHVnpMekI0WVdKaFltRmlZ"
	    "V0poWW1GaVlXSmhZbUZpWVdKaFltRmlZV0poWW1GaVlXSmhZbUZpWVdKaFltRmlZV0poWW1GaVlXSmhZbUZpWVdK"
	    "aFltRmlZV0poWWlKOSIsInJlcXVlc3QiOiJleUpoYlc5MWJuUWlPaUl4TURBd01DSXNJbU4xY25KbGJtTjVJam9p"
	    "TUhnNE16TTFPRGxtUTBRMlpVUmlOa1V3T0dZMFl6ZERNekpFTkdZM01XSTFOR0prUVRBeU9URXpJaXdpYldWMGFH"
	    "OWtSR1YwWVdsc2N5STZleUpqYUdGcGJrbGtJam80TkRVekxDSmpjbVZrWlc1MGFXRnNWSGx3WlhNaU9sc2lZWFYw"
	    "YUc5eWFYcGhkR2x2YmlKZExDSmtaV05wYldGc2N5STZObjBzSW5KbFkybHdhV1Z1ZENJNklqQjROVFUxTlRVMU5U"
	    "VTFOVFUxTlRVMU5UVTFOVFUxTlRVMU5UVTFOVFUxTlRVMU5UVTFOVFUxTlNKOSJ9LCJwYXlsb2FkIjp7ImZyb20i"
	    "OiIweGYzOUZkNmU1MWFhZDg4RjZGNGNlNmFCODgyNzI3OWNmZkZiOTIyNjYiLCJub25jZSI6IjB4NDk0NDZjZjFm"
	    "NTUwMDllMjI4NzUyNzZjN2RlNjA3NDUxMWFjN2JlYmY4NmMwZjgzMDc0YjU1OTg2YTVhNDM0MSIsInNpZ25hdHVy"
	    "ZSI6IjB4NGNkOTAzYTRkYmQ1M2VmNWVkMzgyNjkwZTU2Y2YwMWY5NTE5ZDYzY2MwMjljZWVhYmRhNjc2MmQ4NGI0"
	    "YzExYjYxYzgyN2U5MTU2MDAxMWE0Yzk2Y2Q0NmVhZmRiYTQxZGYzZjg3NWFkMTNiNDVmOTM1ZWMxYTQxYmFiZjg4"
	    "OWExYiIsInRvIjoiMHg1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1IiwidHlwZSI6ImF1"
	    "dGhvcml6YXRpb24iLCJ2YWxpZEFmdGVyIjoiMCIsInZhbGlkQmVmb3JlIjoiMTg5MzQ1NjAwMCIsInZhbHVlIjoi"
	    "MTAwMDAifSwic291cmNlIjoiZGlkOnBraDplaXAxNTU6ODQ1MzoweGYzOUZkNmU1MWFhZDg4RjZGNGNlNmFCODgy"
	    "NzI3OWNmZkZiOTIyNjYifQ";

struct b64vec {
	const char *plain;
	size_t len;
	const char *url;
};

static const struct b64vec url_ok[] = {
	{ "", 0, "" },
	{ "f", 1, "Zg" },
	{ "fo", 2, "Zm8" },
	{ "foo", 3, "Zm9v" },
	{ "foobar", 6, "Zm9vYmFy" },
	{ "\xfb\xff", 2, "-_8" },
	{ "\xfb\xef\xbe", 3, "----" },
};

static void
test_base64(void)
{
	static const char *const lenient_ok[][2] = {
		{ "Zg==", "f" }, { "Zg", "f" }, { "+/8=", "\xfb\xff" }, { "-_8", "\xfb\xff" },
		{ "Zm8=", "fo" }, { "Zm9vYmFy", "foobar" },
	};
	static const char *const lenient_bad[] = { "Zg=", "Z", "Zh", "Zm9=", "Zm9v!", "Zg==Zg==", "Z===" };
	uint8_t out[16];
	size_t n;

	for (size_t i = 0; i < sizeof(url_ok) / sizeof(url_ok[0]); i++) {
		struct buf b;

		buf_init(&b, 64);
		ok(base64_encode(url_ok[i].plain, url_ok[i].len, BASE64_URL, &b) == 0 &&
		    strcmp(buf_str(&b), url_ok[i].url) == 0, "base64url of %zu bytes: \"%s\"", url_ok[i].len,
		    url_ok[i].url);
		ok(base64_decode(url_ok[i].url, strlen(url_ok[i].url), BASE64_URL, out, sizeof(out), &n) == 0 &&
		    n == url_ok[i].len && memcmp(out, url_ok[i].plain, n) == 0, "  and back");
		buf_release(&b);
	}
	for (size_t i = 0; i < sizeof(lenient_ok) / sizeof(lenient_ok[0]); i++)
		ok(base64_decode(lenient_ok[i][0], strlen(lenient_ok[i][0]), BASE64_URL, out, sizeof(out), &n) == 0 &&
		    n == strlen(lenient_ok[i][1]) && memcmp(out, lenient_ok[i][1], n) == 0,
		    "the lenient decoder takes \"%s\"", lenient_ok[i][0]);
	for (size_t i = 0; i < sizeof(lenient_bad) / sizeof(lenient_bad[0]); i++)
		ok(base64_decode(lenient_bad[i], strlen(lenient_bad[i]), BASE64_URL, out, sizeof(out), &n) < 0,
		    "the lenient decoder refuses \"%s\"", lenient_bad[i]);
	ok(base64_decode("-_8=", 4, BASE64_STD, out, sizeof(out), &n) < 0, "the standard decoder refuses '-' '_'");
	ok(base64_decode("Zm9vYmFy", 8, BASE64_URL, out, 5, &n) < 0, "no room: refused");
}

static void
setup(struct config *cfg, struct x402_requirements *rq)
{
	char err[256];

	if (config_load(cfg, NULL, err, sizeof(err)) < 0) {
		printf("Bail out! config: %s\n", err);
		exit(1);
	}
	snprintf(cfg->network, sizeof(cfg->network), "eip155:8453");
	cfg->chain_id = 8453;
	addr_parse("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 42, &cfg->usdc_address);
	addr_parse("0x5555555555555555555555555555555555555555", 42, &cfg->pay_to);
	snprintf(cfg->public_base_url, sizeof(cfg->public_base_url), "https://api.example.com");
	snprintf(cfg->mpp_secret, sizeof(cfg->mpp_secret), "%s", SECRET);
	if (x402_requirements_init(rq, cfg, "0.01", URL_PATH, "", "paid read", err, sizeof(err)) < 0) {
		printf("Bail out! requirements: %s\n", err);
		exit(1);
	}
}

/* The decoded JSON text of a base64url value into out[cap]. */
static const char *
unb64(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	if (base64_decode(s, strlen(s), BASE64_URL, (uint8_t *)out, cap - 1, &n) < 0)
		n = 0;
	out[n] = '\0';
	return out;
}

static void
test_challenge(const struct config *cfg, const struct x402_requirements *rq)
{
	struct mpp_challenge a, b;
	struct buf h;
	char err[128], text[1024];
	struct config none = *cfg;

	ok(mpp_challenge_init(&a, cfg, rq, "GET", NULL, 0, EXPIRES - 300, err, sizeof(err)) == 0,
	    "a challenge for GET " URL_PATH);
	is_str(a.realm, "api.example.com", "realm: the public host");
	is_str(a.request, vec_request, "request: the JCS charge, as mppx writes it");
	is_str(a.expires, "2030-01-01T00:00:00Z", "expires: five minutes ahead");
	is_str(a.digest, "", "no body: no digest");
	ok(strncmp(unb64(a.opaque, text, sizeof(text)), "{\"method\":\"GET\",\"nonce\":\"", 25) == 0 &&
	    strstr(text, "\",\"url\":\"https://api.example.com" URL_PATH "\"}") != NULL,
	    "opaque: JCS {method, nonce, url}");
	ok(strlen(a.id) == 43, "id: base64url of a 32-byte HMAC");
	ok(mpp_challenge_init(&b, cfg, rq, "GET", NULL, 0, EXPIRES - 300, err, sizeof(err)) == 0 &&
	    strcmp(a.id, b.id) != 0 && strcmp(a.opaque, b.opaque) != 0,
	    "two challenges of the same second differ (their nonces)");
	ok(mpp_challenge_init(&b, cfg, rq, "POST", (const uint8_t *)"{}", 2, EXPIRES - 300, err,
	    sizeof(err)) == 0, "a challenge for a POST with a body");
	is_str(b.digest, "sha-256=:RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=:", "  its RFC 9530 digest of \"{}\"");
	buf_init(&h, 64 * 1024);
	ok(mpp_challenge_header(&a, &h) == 0, "the header is written");
	ok(strncmp(buf_str(&h), "Payment id=\"", 12) == 0 && strstr(buf_str(&h), ", method=\"evm\", intent=\"charge\", ") &&
	    strstr(buf_str(&h), ", expires=\"2030-01-01T00:00:00Z\", opaque=\"") && !strstr(buf_str(&h), "digest="),
	    "  Payment id, realm, method, intent, request, expires, opaque");
	buf_release(&h);
	none.mpp_secret[0] = '\0';
	ok(mpp_challenge_init(&b, &none, rq, "GET", NULL, 0, EXPIRES, err, sizeof(err)) < 0,
	    "no mpp_secret: no challenge");
	snprintf(none.mpp_secret, sizeof(none.mpp_secret), "%s", SECRET);
	snprintf(none.public_base_url, sizeof(none.public_base_url), "nohost");
	ok(mpp_challenge_init(&b, &none, rq, "GET", NULL, 0, EXPIRES, err, sizeof(err)) < 0,
	    "a public URL without a host: no challenge");
}

/* The want of the vector: the challenge this service would issue for the request now. */
static void
vec_want(struct mpp_challenge *w)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->realm, sizeof(w->realm), "api.example.com");
	snprintf(w->request, sizeof(w->request), "%s", vec_request);
	snprintf(w->method, sizeof(w->method), "GET");
}

/* The vector credential with its decoded JSON changed by edit(o); a new string the caller frees. */
static char *
vec_edited(void (*edit)(json_object *o))
{
	char raw[8192];
	json_object *o;
	struct buf b;
	const char *s;
	char *out;

	o = json_tokener_parse(unb64(vec_credential + 8, raw, sizeof(raw)));
	edit(o);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	buf_init(&b, 16384);
	buf_adds(&b, "Payment ");
	base64_encode(s, strlen(s), BASE64_URL, &b);
	out = strdup(buf_str(&b));
	buf_release(&b);
	json_object_put(o);
	return out;
}

static json_object *
member(json_object *o, const char *a, const char *b)
{
	json_object *x = NULL, *y = NULL;

	json_object_object_get_ex(o, a, &x);
	if (b == NULL)
		return x;
	json_object_object_get_ex(x, b, &y);
	return y;
}

static void set_amount(json_object *o) { json_object_object_add(member(o, "challenge", NULL), "request",
	json_object_new_string("eyJhbW91bnQiOiIxIn0")); }
static void add_member(json_object *o) { json_object_object_add(member(o, "challenge", NULL), "extra",
	json_object_new_string("x")); }
static void set_value(json_object *o) { json_object_object_add(member(o, "payload", NULL), "value",
	json_object_new_string("10001")); }
static void set_type(json_object *o) { json_object_object_add(member(o, "payload", NULL), "type",
	json_object_new_string("transaction")); }
static void drop_sig(json_object *o) { json_object_object_del(member(o, "payload", NULL), "signature"); }
static void int_value(json_object *o) { json_object_object_add(member(o, "payload", NULL), "value",
	json_object_new_int(10000)); }
static void set_nonce(json_object *o) { json_object_object_add(member(o, "payload", NULL), "nonce",
	json_object_new_string("0x0000000000000000000000000000000000000000000000000000000000000001")); }

struct edit_case {
	void (*edit)(json_object *o);
	enum x402_parse want;
	const char *what;
};

static void
test_credential(const struct config *cfg, const struct x402_requirements *rq)
{
	static const struct edit_case edits[] = {
		{ set_amount, X402_PARSE_MALFORMED, "the echoed request altered (HMAC)" },
		{ add_member, X402_PARSE_MALFORMED, "an undeclared member in the challenge" },
		{ set_value, X402_PARSE_MALFORMED, "the authorization's value altered (signature)" },
		{ set_type, X402_PARSE_MALFORMED, "a credential type other than authorization" },
		{ drop_sig, X402_PARSE_MALFORMED, "no signature" },
		{ int_value, X402_PARSE_MALFORMED, "a number where a string belongs" },
		{ set_nonce, X402_PARSE_MALFORMED, "a nonce that is not the challenge's hash" },
	};
	struct mpp_challenge want;
	struct x402_payment p;
	struct config other = *cfg;
	struct x402_requirements rq2 = *rq;
	char id[48], msg[256], hx[67];
	uint8_t nonce[32];
	char pre[128];
	uint64_t now = EXPIRES - 100;

	vec_want(&want);
	ok(mpp_credential_parse(vec_credential, &want, cfg, rq, now, &p, id, msg, sizeof(msg)) == X402_PARSE_OK,
	    "mppx's credential parses and binds (%s)", msg);
	is_str(id, vec_id, "  the challenge id it answered");
	is_str(addr_format(&p.from, hx), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "  from: anvil #0");
	is_str(p.value, "10000", "  value: 0.01 USDC");
	ok(p.valid_after == 0 && p.valid_before == EXPIRES, "  valid from 0 until the challenge's expiry");
	snprintf(pre, sizeof(pre), "%sapi.example.com", vec_id);
	keccak256(pre, strlen(pre), nonce);
	ok(memcmp(p.nonce, nonce, 32) == 0, "  nonce: keccak256(id || realm)");
	ok(p.payload != NULL, "  the equivalent x402 payload, for the facilitator");
	x402_payment_release(&p);

	ok(mpp_credential_parse(vec_credential, &want, cfg, rq, EXPIRES + 1, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_EXPIRED && strstr(msg, "expired") && p.payload == NULL,
	    "past the challenge's expiry: EXPIRED, no payload");
	ok(memcmp(p.nonce, nonce, 32) == 0, "  still naming the payment, to find its earlier outcome");
	snprintf(other.mpp_secret, sizeof(other.mpp_secret), "another-secret-of-another-deployment-xyz");
	ok(mpp_credential_parse(vec_credential, &want, &other, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MALFORMED && id[0] == '\0', "another secret: MALFORMED (not ours), no id");
	/* A rotation: the old secret as mpp_secret_previous still accepts its challenges. */
	snprintf(other.mpp_secret_previous, sizeof(other.mpp_secret_previous), "%s", SECRET);
	ok(mpp_credential_parse(vec_credential, &want, &other, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_OK && id[0] != '\0', "rotated: the old secret as mpp_secret_previous still accepts (%s)", msg);
	x402_payment_release(&p);
	snprintf(other.mpp_secret_previous, sizeof(other.mpp_secret_previous), "yet-another-secret-that-is-not-it");
	ok(mpp_credential_parse(vec_credential, &want, &other, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MALFORMED, "  a previous secret that is not the issuer's: MALFORMED");
	other.mpp_secret_previous[0] = '\0';
	snprintf(rq2.url, sizeof(rq2.url), "https://api.example.com/api/v1/x402/routes");
	ok(mpp_credential_parse(vec_credential, &want, cfg, &rq2, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MISMATCH && strstr(msg, "another resource"), "another resource URL: MISMATCH");
	snprintf(want.method, sizeof(want.method), "POST");
	ok(mpp_credential_parse(vec_credential, &want, cfg, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MISMATCH, "another HTTP method: MISMATCH");
	vec_want(&want);
	snprintf(want.request, sizeof(want.request), "eyJhbW91bnQiOiI1MDAwMCJ9");
	ok(mpp_credential_parse(vec_credential, &want, cfg, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MISMATCH && strstr(msg, "price, payee, asset or network"), "another price: MISMATCH");
	vec_want(&want);
	snprintf(want.digest, sizeof(want.digest), "sha-256=:RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=:");
	ok(mpp_credential_parse(vec_credential, &want, cfg, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MISMATCH && strstr(msg, "body"), "a request with a body the challenge did not bind: MISMATCH");
	vec_want(&want);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		char *c = vec_edited(edits[i].edit);

		ok(mpp_credential_parse(c, &want, cfg, rq, now, &p, id, msg, sizeof(msg)) == edits[i].want &&
		    p.payload == NULL, "%s: refused (%s)", edits[i].what, msg);
		free(c);
	}
	ok(mpp_credential_parse("Bearer abc", &want, cfg, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MALFORMED, "another scheme: MALFORMED");
	ok(mpp_credential_parse("Payment !!!", &want, cfg, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MALFORMED, "not base64url: MALFORMED");
	ok(mpp_credential_parse("Payment e30", &want, cfg, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MALFORMED, "{}: MALFORMED");
	ok(mpp_credential_parse("Payment a b", &want, cfg, rq, now, &p, id, msg, sizeof(msg)) ==
	    X402_PARSE_MALFORMED, "two tokens: MALFORMED");
	ok(mpp_is_credential("payment abc") && mpp_is_credential("Payment\tabc") && !mpp_is_credential("Payments x") &&
	    !mpp_is_credential(NULL), "the scheme name is case-insensitive and whole");
}

static void
test_receipt(const struct config *cfg)
{
	struct buf b;
	char text[1024];
	json_object *o;

	buf_init(&b, 4096);
	ok(mpp_receipt_header(vec_id, "0x" "1212121212121212121212121212121212121212121212121212121212121212", cfg, EXPIRES, &b) == 0, "a receipt is written");
	o = json_tokener_parse(unb64(buf_str(&b), text, sizeof(text)));
	is_str(json_object_get_string(member(o, "status", NULL)), "success", "  status success");
	is_str(json_object_get_string(member(o, "method", NULL)), "evm", "  method evm");
	is_str(json_object_get_string(member(o, "timestamp", NULL)), "2030-01-01T00:00:00Z", "  timestamp");
	is_str(json_object_get_string(member(o, "reference", NULL)), "0x" "1212121212121212121212121212121212121212121212121212121212121212", "  reference: the transaction");
	is_str(json_object_get_string(member(o, "challengeId", NULL)), vec_id, "  challengeId");
	ok(json_object_get_int64(member(o, "chainId", NULL)) == 8453, "  chainId, a number");
	json_object_put(o);
	buf_release(&b);
}

int
main(void)
{
	struct config cfg;
	struct x402_requirements rq;

	if (!ok(sig_init() == 0, "sig_init, once before anything recovers (lib/sig.h)"))
		return done_testing();
	test_base64();
	setup(&cfg, &rq);
	test_challenge(&cfg, &rq);
	test_credential(&cfg, &rq);
	test_receipt(&cfg);
	return done_testing();
}
