/*
 * lib/siwx against the reference client: t/vectors/siwx.json holds proofs
 * made by @x402/extensions' sign-in-with-x client (t/tools/gen-siwx-vectors.mjs)
 * with the EIP-4361 text it signed. Each must parse, rebuild that text byte
 * for byte, verify to its signer without any RPC, and answer its challenge;
 * then every way a proof can be wrong is refused with its own code: shape,
 * domain, URI, chain, nonce, times; a changed field under the signature,
 * another signer and a contract-wallet signature are never valid (with no
 * RPC configured they fail closed as unavailable; the answers of a real
 * chain are the stack tests' part). The challenge object is checked too.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base64.h"
#include "buf.h"
#include "config.h"
#include "json.h"
#include "siwx.h"
#include "timefmt.h"
#include "x402.h"
#include "tap.h"
#include "sig.h"
#include "banned.h"

static struct config cfg;

/* base64 of the JSON text of o, into out (reset first). */
static const char *
encode(json_object *o, struct buf *out)
{
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	buf_reset(out);
	if (base64_encode(t, strlen(t), BASE64_STD, out) < 0)
		return "";
	return buf_str(out);
}

static enum siwx_rc
parse_text(const char *json, char *msg, size_t cap)
{
	struct buf b;
	struct siwx_proof p;
	enum siwx_rc rc;

	buf_init(&b, 1 << 16);
	if (base64_encode(json, strlen(json), BASE64_STD, &b) < 0)
		return SIWX_RC__MAX;
	rc = siwx_parse(buf_str(&b), &p, msg, cap);
	siwx_proof_release(&p);
	buf_release(&b);
	return rc;
}

/* The vector's proof with member name set to value (a JSON text), or removed when value is NULL. */
static enum siwx_rc
parse_changed(json_object *proof, const char *name, const char *value, struct siwx_proof *p, char *msg, size_t cap)
{
	json_object *o = NULL;
	struct buf b;
	enum siwx_rc rc;

	json_object_deep_copy(proof, &o, NULL);
	if (value)
		json_object_object_add(o, name, json_tokener_parse(value));
	else
		json_object_object_del(o, name);
	buf_init(&b, 1 << 16);
	rc = siwx_parse(encode(o, &b), p, msg, cap);
	buf_release(&b);
	json_object_put(o);
	return rc;
}

static void
test_vectors(void)
{
	json_object *root = json_object_from_file("t/vectors/siwx.json"), *arr = NULL;
	size_t n = 0;

	if (!ok(root && json_object_object_get_ex(root, "vectors", &arr), "t/vectors/siwx.json loads"))
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i), *f;
		const char *name, *hdr, *text, *signer;
		struct siwx_proof p;
		struct buf m;
		char msg[256], addr[ADDR_TEXT_LEN + 1];
		enum walletsig_kind kind = WALLETSIG_KIND__MAX;
		struct siwx_expect want;

		json_object_object_get_ex(v, "name", &f);
		name = json_object_get_string(f);
		json_object_object_get_ex(v, "header", &f);
		hdr = json_object_get_string(f);
		json_object_object_get_ex(v, "message", &f);
		text = json_object_get_string(f);
		json_object_object_get_ex(v, "signer", &f);
		signer = json_object_get_string(f);
		if (!ok(siwx_parse(hdr, &p, msg, sizeof(msg)) == SIWX_OK, "%s: parses (%s)", name, msg)) {
			continue;
		}
		buf_init(&m, 1 << 16);
		siwx_message(&p, &m);
		is_str(buf_str(&m), text, "%s: the rebuilt EIP-4361 text is the client's", name);
		buf_release(&m);
		is_str(addr_format(&p.address, addr), signer, "%s: address", name);
		ok(siwx_verify(&cfg, &p, &kind, msg, sizeof(msg)) == SIWX_OK && kind == WALLETSIG_EOA,
		    "%s: the signature is the signer's, checked locally", name);
		want = (struct siwx_expect){ .domain = p.domain, .uri = p.uri, .nonce = p.nonce, .chain_id = 8453,
			.now = p.issued_at_s + 10 };
		ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_OK, "%s: answers its challenge", name);
		siwx_proof_release(&p);
		n++;
	}
	ok(n == 4, "4 reference-client vectors checked (got %zu)", n);
	json_object_put(root);
}

static void
test_refusals(void)
{
	json_object *root = json_object_from_file("t/vectors/siwx.json"), *arr, *v, *proof, *f;
	struct siwx_proof p, q;
	struct siwx_expect want;
	char msg[256];
	const char *hdr;

	json_object_object_get_ex(root, "vectors", &arr);
	v = json_object_array_get_idx(arr, 2);   /* every optional field present */
	json_object_object_get_ex(v, "proof", &proof);
	json_object_object_get_ex(v, "header", &f);
	hdr = json_object_get_string(f);
	if (!ok(siwx_parse(hdr, &p, msg, sizeof(msg)) == SIWX_OK, "the full vector parses"))
		return;
	want = (struct siwx_expect){ .domain = p.domain, .uri = p.uri, .nonce = p.nonce, .chain_id = 8453,
		.now = p.issued_at_s + 10 };

	/* The challenge binding, one field at a time. */
	want.domain = "127.0.0.1:8081";
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_WRONG_DOMAIN, "another domain: %s", msg);
	want.domain = p.domain;
	want.uri = "http://127.0.0.1:8080/api/v1/x402/profiles/p3";
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_WRONG_URI, "another operation URI: %s", msg);
	want.uri = p.uri;
	want.chain_id = 84532;
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_WRONG_CHAIN, "another chain: %s", msg);
	want.chain_id = 8453;
	want.nonce = "ffffffffffffffffffffffffffffffee";
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_WRONG_NONCE, "a nonce we did not issue: %s", msg);
	want.nonce = NULL;
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_WRONG_NONCE, "no nonce issued at all");
	want.nonce = p.nonce;
	want.now = p.issued_at_s - SIWX_SKEW_S - 1;
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_STALE, "issued in the future: %s", msg);
	want.now = p.expiration_s;
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_STALE, "at its expiration time: %s", msg);
	want.now = p.not_before_s - SIWX_SKEW_S - 1;
	ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_STALE, "before its notBefore: %s", msg);
	siwx_proof_release(&p);

	/* Older than five minutes (no expiry in vector 1). */
	json_object_object_get_ex(json_object_array_get_idx(arr, 1), "header", &f);
	if (siwx_parse(json_object_get_string(f), &p, msg, sizeof(msg)) == SIWX_OK) {
		want = (struct siwx_expect){ .domain = p.domain, .uri = p.uri, .nonce = p.nonce, .chain_id = 8453,
			.now = p.issued_at_s + SIWX_MAX_AGE_S + 1 };
		ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_STALE, "issued more than 5 minutes ago: %s", msg);
		want.now = p.issued_at_s + SIWX_MAX_AGE_S;
		ok(siwx_check(&p, &want, msg, sizeof(msg)) == SIWX_OK, "exactly 5 minutes old still answers");
		siwx_proof_release(&p);
	} else {
		ok(0, "vector 1 parses");
	}

	/*
	 * A changed signed field keeps the shape but the signature no longer
	 * recovers to the address. The address might then be a contract
	 * wallet, which only the chain can answer for: with no RPC that is
	 * "unavailable", never valid (t/ stack tests ask a real chain).
	 */
	ok(parse_changed(proof, "statement", "\"Another line.\"", &q, msg, sizeof(msg)) == SIWX_OK &&
	    siwx_verify(&cfg, &q, NULL, msg, sizeof(msg)) == SIWX_UNAVAILABLE, "a changed statement is not valid: %s", msg);
	siwx_proof_release(&q);
	ok(parse_changed(proof, "uri", "\"http://127.0.0.1:8080/api/v1/x402/profiles/p9\"", &q, msg, sizeof(msg)) ==
	    SIWX_OK && siwx_verify(&cfg, &q, NULL, msg, sizeof(msg)) == SIWX_UNAVAILABLE,
	    "a changed URI under the same signature is not valid");
	siwx_proof_release(&q);
	ok(parse_changed(proof, "address", "\"0x70997970C51812dc3A010C7d01b50e0d17dc79C8\"", &q, msg, sizeof(msg)) ==
	    SIWX_OK && siwx_verify(&cfg, &q, NULL, msg, sizeof(msg)) == SIWX_UNAVAILABLE,
	    "another wallet claiming the signature is not valid");
	siwx_proof_release(&q);
	ok(parse_changed(proof, "address", "\"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\"", &q, msg, sizeof(msg)) ==
	    SIWX_OK && siwx_verify(&cfg, &q, NULL, msg, sizeof(msg)) == SIWX_OK,
	    "a lowercase address is checksummed in the text, as the client does");
	siwx_proof_release(&q);
	/* A signature that is not ECDSA needs the chain: no rpc_url fails closed. */
	ok(parse_changed(proof, "signature", "\"0x0102030405\"", &q, msg, sizeof(msg)) == SIWX_OK &&
	    siwx_verify(&cfg, &q, NULL, msg, sizeof(msg)) == SIWX_UNAVAILABLE,
	    "a contract-wallet signature without a chain RPC: unavailable, never valid (%s)", msg);
	siwx_proof_release(&q);

	/* Shape. */
	static const struct {
		const char *name, *value, *why;
	} bad[] = {
		{ "statement", "\"two\\nlines\"", "a line break in the statement" },
		{ "statement", "\"\"", "an empty statement" },
		{ "statement", "\"tab\\there\"", "a control character in the statement" },
		{ "domain", "\"a.example\\nURI: x\"", "a line break in the domain" },
		{ "uri", "\"http://x/ y\"", "a space in the URI" },
		{ "requestId", "\"a\\rb\"", "a carriage return in the request id" },
		{ "resources", "[\"ok\",\"two\\nlines\"]", "a line break in a resource" },
		{ "resources", "\"http://x\"", "resources not an array" },
		{ "resources", "[1]", "a resource not a string" },
		{ "version", "\"2\"", "version 2" },
		{ "type", "\"ed25519\"", "a Solana proof" },
		{ "signatureScheme", "\"siws\"", "an unknown signature scheme" },
		{ "chainId", "\"eip155:08453\"", "a chain id with a leading zero" },
		{ "chainId", "\"8453\"", "a chain id without its namespace" },
		{ "chainId", "\"eip155:\"", "an empty chain reference" },
		{ "chainId", "\"eip155:99999999999999999999\"", "a chain id out of range" },
		{ "address", "\"0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266\"", "a wrong checksum" },
		{ "address", "\"0x1234\"", "a short address" },
		{ "nonce", "\"abc\"", "a nonce of 3 characters" },
		{ "nonce", "\"abcd-efgh-ijkl\"", "a nonce with dashes" },
		{ "issuedAt", "\"yesterday\"", "issuedAt not a date-time" },
		{ "expirationTime", "\"2026-02-30T00:00:00Z\"", "an expiration on 30 February" },
		{ "notBefore", "1", "notBefore a number" },
		{ "signature", "\"8d3a\"", "a signature without 0x" },
		{ "signature", "\"0x8d3\"", "a signature of odd length" },
		{ "signature", "\"0x\"", "an empty signature" },
		{ "nonsense", "1", "an unknown field" },
		{ "domain", NULL, "no domain" },
		{ "signature", NULL, "no signature" },
		{ "issuedAt", NULL, "no issuedAt" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		ok(parse_changed(proof, bad[i].name, bad[i].value, &q, msg, sizeof(msg)) == SIWX_MALFORMED &&
		    strstr(msg, "SIGN-IN-WITH-X") != NULL, "%s: malformed (%s)", bad[i].why, msg);
		siwx_proof_release(&q);
	}
	ok(parse_text("[1]", msg, sizeof(msg)) == SIWX_MALFORMED, "a JSON array: %s", msg);
	ok(parse_text("{\"domain\":1", msg, sizeof(msg)) == SIWX_MALFORMED, "truncated JSON: %s", msg);
	ok(siwx_parse("not base64!", &q, msg, sizeof(msg)) == SIWX_MALFORMED, "not base64: %s", msg);
	ok(siwx_parse("", &q, msg, sizeof(msg)) == SIWX_MALFORMED, "empty: %s", msg);
	{
		static char big[SIWX_HEADER_MAX + 2];

		memset(big, 'A', sizeof(big) - 1);
		ok(siwx_parse(big, &q, msg, sizeof(msg)) == SIWX_MALFORMED, "longer than the limit: %s", msg);
	}
	is_str(siwx_rc_code(SIWX_WRONG_URI), "siwx_wrong_uri", "codes name the refusal");
	json_object_put(root);
}

static void
test_challenge(void)
{
	struct siwx_challenge c = { .domain = "127.0.0.1:8080", .uri = "http://127.0.0.1:8080/api/v1/x402/profiles",
		.nonce = "a1b2c3d4e5f67890a1b2c3d4e5f67890", .statement = "Sign in to manage your profile.",
		.issued_at = 1795429800, .expires_at = 1795430100, .chain_id = 8453 };
	json_object *ext = siwx_challenge_json(&c), *info, *f, *chains;
	int64_t t;

	if (!ok(ext != NULL, "a challenge is built"))
		return;
	ok(json_object_object_get_ex(ext, "info", &info) && json_object_object_get_ex(ext, "supportedChains", &chains) &&
	    json_object_object_get_ex(ext, "schema", &f), "info, supportedChains and schema");
	json_object_object_get_ex(info, "issuedAt", &f);
	is_str(json_object_get_string(f), "2026-11-23T10:30:00.000Z", "issuedAt as toISOString writes it");
	ok(time_parse_rfc3339(json_object_get_string(f), json_object_get_string_len(f), &t, NULL) == 0 &&
	    t == c.issued_at, "and it reads back");
	json_object_object_get_ex(info, "expirationTime", &f);
	is_str(json_object_get_string(f), "2026-11-23T10:35:00.000Z", "expirationTime five minutes later");
	json_object_object_get_ex(info, "version", &f);
	is_str(json_object_get_string(f), "1", "version 1");
	ok(json_object_object_get_ex(info, "chainId", &f) == 0, "no chainId in info: chains are listed apart");
	is_str(json_object_to_json_string_ext(chains, JSON_C_TO_STRING_PLAIN),
	    "[{\"chainId\":\"eip155:8453\",\"type\":\"eip191\"}]", "Base, eip191");
	json_object_object_get_ex(info, "resources", &f);
	is_str(json_object_get_string(json_object_array_get_idx(f, 0)), c.uri, "resources: the operation URI");
	json_object_put(ext);
}

/* The Request ID of a body: 0x + SHA-256 of its canonical JSON (digests from t/tools/jcs-digest.mjs). */
static void
test_body_request_id(void)
{
	static const struct {
		const char *body, *want;   /* want NULL: no canonical form */
		const char *what;
	} v[] = {
		{ "{\"controllerAccount\":\"eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79C8\"}",
		    "0x3b0a1fdd5520250220f2c67dd04ff3e3d50f083e036636793ba9168eafed3ab7", "a profile create body" },
		{ " {\"controllerAccount\" :\n \"eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79C8\" } ",
		    "0x3b0a1fdd5520250220f2c67dd04ff3e3d50f083e036636793ba9168eafed3ab7", "the same with spacing" },
		{ "{\"evidence\":{\"transaction\":\"0x01\",\"logIndex\":3,\"kind\":\"usdc_transfer\"},"
		    "\"accountId\":\"a\\u00e9\\/\"}",
		    "0x4f0996ca2ae53c4d32ffce114897260e2c453a93768d04713df4f1a29693f720",
		    "members sorted at every depth, escapes undone" },
		{ "{\"evidence\":{\"kind\":\"usdc_transfer\",\"logIndex\":3,\"transaction\":\"0x01\"},"
		    "\"accountId\":\"a\xc3\xa9/\"}",
		    "0x4f0996ca2ae53c4d32ffce114897260e2c453a93768d04713df4f1a29693f720", "the same JSON written otherwise" },
		{ "{\"accountId\":\"a\xc3\xa9/\",\"evidence\":{\"kind\":\"usdc_transfer\",\"logIndex\":4,"
		    "\"transaction\":\"0x01\"}}", "", "another logIndex: another digest" },
		{ "{\"logIndex\":1.5}", NULL, "a fraction: no canonical form" },
		{ "{\"logIndex\":1e2}", NULL, "an exponent: no canonical form" },
		{ "{\"logIndex\":9007199254740992}", NULL, "2^53: no canonical form" },
		{ "{\"logIndex\":-9007199254740991}", "0x", "-(2^53 - 1) has one" },
	};
	char out[SIWX_REQUEST_ID_LEN + 1];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		json_object *o = NULL;
		int rc;

		if (!ok(json_parse_strict(v[i].body, strlen(v[i].body), NULL, &o, NULL) == 0, "%s: parses", v[i].what))
			continue;
		rc = siwx_body_request_id(o, out);
		if (v[i].want == NULL)
			ok(rc == -1, "%s (-1)", v[i].what);
		else if (v[i].want[0] == '\0')
			ok(rc == 0 && strlen(out) == SIWX_REQUEST_ID_LEN && strcmp(out, v[2].want) != 0, "%s", v[i].what);
		else if (strcmp(v[i].want, "0x") == 0)
			ok(rc == 0 && strlen(out) == SIWX_REQUEST_ID_LEN && strncmp(out, "0x", 2) == 0, "%s", v[i].what);
		else
			ok(rc == 0 && strcmp(out, v[i].want) == 0, "%s: %s", v[i].what, out);
		json_object_put(o);
	}
}

int
main(void)
{
	if (!ok(sig_init() == 0, "sig_init, once before anything recovers (lib/sig.h)"))
		return done_testing();
	memset(&cfg, 0, sizeof(cfg));   /* no rpc_url: contract wallets fail closed */
	cfg.rpc_timeout_ms = 1000;
	cfg.sigcheck_timeout_ms = 1000;
	test_vectors();
	test_refusals();
	test_challenge();
	test_body_request_id();
	return done_testing();
}
