/*
 * x402 offer and receipt artifacts (docs/PROTOCOL.md, Test vectors; signed by
 * Anvil account 0) and the V2 (receipt_verified) review object and digest
 * (the viem vector of t/vectors/eip712-boon.json).
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "hex.h"
#include "json.h"
#include "receipt.h"
#include "review.h"
#include "sig.h"
#include "tap.h"
#include "utf8.h"
#include "banned.h"

#define ANVIL0 "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

#define OFFER_PAYLOAD "{\"version\":1,\"resourceUrl\":\"https://api.example.com/premium-data\"," \
	"\"scheme\":\"exact\",\"network\":\"eip155:8453\"," \
	"\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\"," \
	"\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"10000\"," \
	"\"validUntil\":1703123516}"
#define OFFER_SIG "0x57073060e55da4e8a97e47dd390e7c2db8ac1fb7f53bbe0dc253a08267b3a9097f595505f2c47421ede1cc84c1360eba670ccd4011933ace67e6482abea885971b"
#define RECEIPT_PAYLOAD "{\"version\":1,\"network\":\"eip155:8453\"," \
	"\"resourceUrl\":\"https://api.example.com/premium-data\"," \
	"\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123456," \
	"\"transaction\":\"\"}"
/* 65 bytes that recover no key: r and s zero. */
#define NOKEY_SIG "0x000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001b"
#define RECEIPT_SIG "0x4f98ad0be21e9eb48ec1aeb7a65f25100f7db10a8e1870aa4021cbd6985013d01451045373c2f5f74ac168e90cee435f13284beaa500f570ab7584cdde05e1021c"

static json_object *
parse(const char *s)
{
	json_object *o = NULL;
	struct json_error je;

	if (json_parse_strict(s, strlen(s), NULL, &o, &je) < 0)
		return NULL;
	return o;
}

static void
offers(void)
{
	static const struct { const char *payload; const char *field; const char *what; } bad[] = {
		{ "{\"version\":2,\"resourceUrl\":\"https://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1\",\"validUntil\":0}", "payload.version", "version 2" },
		{ "{\"version\":1,\"resourceUrl\":\"https://a.example.com/x?q=1\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1\",\"validUntil\":0}", "payload.resourceUrl", "a query" },
		{ "{\"version\":1,\"resourceUrl\":\"http://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1\",\"validUntil\":0}", "payload.resourceUrl", "http" },
		{ "{\"version\":1,\"resourceUrl\":\"https://u:p@a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1\",\"validUntil\":0}", "payload.resourceUrl", "credentials" },
		{ "{\"version\":1,\"resourceUrl\":\"https://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"base\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1\",\"validUntil\":0}", "payload.network", "a v1 network name" },
		{ "{\"version\":1,\"resourceUrl\":\"https://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"0\",\"validUntil\":0}", "payload.amount", "a zero amount" },
		{ "{\"version\":1,\"resourceUrl\":\"https://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1.5\",\"validUntil\":0}", "payload.amount", "a decimal amount" },
		{ "{\"version\":1,\"resourceUrl\":\"https://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x0000000000000000000000000000000000000000\",\"amount\":\"1\",\"validUntil\":0}", "payload.payTo", "a zero payTo" },
		{ "{\"version\":1,\"resourceUrl\":\"https://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1\"}", "payload.validUntil", "no validUntil" },
		{ "{\"version\":1,\"resourceUrl\":\"https://a.example.com/x\",\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"1\",\"validUntil\":0,\"extra\":1}", "payload.extra", "an undeclared member" },
	};
	struct receipt_offer of;
	struct addr anvil0;
	char field[64], why[256], js[2048], hx[67];
	json_object *o;

	addr_parse(ANVIL0, strlen(ANVIL0), &anvil0);
	o = parse("{\"format\":\"eip712\",\"acceptIndex\":0,\"payload\":" OFFER_PAYLOAD ",\"signature\":\""
	    OFFER_SIG "\"}");
	ok(o && receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) == 0,
	    "the vector offer parses (%s)", why);
	is_str(hex_encode(of.digest, 32, hx),
	    "0x080c2947f96376213d3de762c32b1f56ba5869acdeb87c7a44b7be5d33d397ea", "offer digest");
	ok(addr_eq(&of.signer, &anvil0), "the offer signature recovers to Anvil account 0");
	ok(strcmp(of.pay_to, "0x209693Bc6afc0C5328bA36FaF03C514EF312287C") == 0 && of.valid_until ==
	    1703123516 && strcmp(of.amount, "10000") == 0, "offer members kept as sent");
	json_object_put(o);

	o = parse("{\"format\":\"eip712\",\"payload\":" OFFER_PAYLOAD ",\"signature\":\"" OFFER_SIG "\"}");
	ok(o && receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) == 0,
	    "acceptIndex is optional");
	json_object_put(o);
	/* payTo lowercased: the same address, but a different signed string. */
	{
		char pl[sizeof(OFFER_PAYLOAD)];
		char *p;

		snprintf(pl, sizeof(pl), "%s", OFFER_PAYLOAD);
		p = strstr(pl, "0x209693Bc6afc");
		for (size_t i = 0; i < 42; i++)
			if (p[i] >= 'A' && p[i] <= 'F')
				p[i] = (char)(p[i] - 'A' + 'a');
		snprintf(js, sizeof(js), "{\"format\":\"eip712\",\"payload\":%s,\"signature\":\"%s\"}", pl,
		    OFFER_SIG);
		o = parse(js);
		ok(o && receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) == 0 &&
		    !addr_eq(&of.signer, &anvil0), "strings are hashed as sent: a recased payTo recovers "
		    "to another signer");
		json_object_put(o);
	}
	o = parse("{\"format\":\"jws\",\"payload\":" OFFER_PAYLOAD ",\"signature\":\"" OFFER_SIG "\"}");
	ok(receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) < 0 &&
	    strcmp(field, "format") == 0, "format jws refused");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":" OFFER_PAYLOAD ",\"signature\":\"0x1234\"}");
	ok(receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) == -1 &&
	    strcmp(field, "signature") == 0, "a short signature refused (-1, malformed)");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":" OFFER_PAYLOAD ",\"signature\":\"" NOKEY_SIG "\"}");
	ok(receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) == RECEIPT_UNRECOVERED &&
	    strcmp(field, "signature") == 0 && strcmp(of.resource_url, "https://api.example.com/premium-data") == 0,
	    "65 bytes that recover no key: RECEIPT_UNRECOVERED, the payload read");
	json_object_put(o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(js, sizeof(js), "{\"format\":\"eip712\",\"payload\":%s,\"signature\":\"%s\"}",
		    bad[i].payload, OFFER_SIG);
		o = parse(js);
		ok(o && receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) < 0 &&
		    strcmp(field, bad[i].field) == 0, "offer with %s refused naming %s (got %s: %s)",
		    bad[i].what, bad[i].field, field, why);
		json_object_put(o);
	}
	/* An undeclared member whose name, quoted in field[64], is cut inside a
	 * 2-byte character (t/fuzz/corpus/receipt/crash-utf8-field). */
	o = parse("{\"format\":\"eip712\",\"payload\":{\"" "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\":1},\"signature\":\"0x\"}");
	ok(o && receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) < 0 &&
	    strncmp(field, "payload.", 8) == 0 && utf8_valid(field, strlen(field)) &&
	    utf8_valid(why, strlen(why)), "a long undeclared member name is cut at a character boundary");
	json_object_put(o);
}

static void
receipts(void)
{
	struct receipt rc;
	struct addr anvil0;
	char field[64], why[256], hx[67];
	json_object *o;

	addr_parse(ANVIL0, strlen(ANVIL0), &anvil0);
	o = parse("{\"format\":\"eip712\",\"payload\":" RECEIPT_PAYLOAD ",\"signature\":\"" RECEIPT_SIG
	    "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) == 0,
	    "the vector receipt parses (%s)", why);
	is_str(hex_encode(rc.digest, 32, hx),
	    "0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b",
	    "receipt digest (= receiptDigest)");
	ok(addr_eq(&rc.signer, &anvil0), "the receipt signature recovers to Anvil account 0");
	ok(rc.issued_at == 1703123456 && rc.transaction[0] == '\0', "receipt members");
	json_object_put(o);

	/* An absent transaction is signed as "": same digest. */
	o = parse("{\"format\":\"eip712\",\"payload\":{\"version\":1,\"network\":\"eip155:8453\","
	    "\"resourceUrl\":\"https://api.example.com/premium-data\","
	    "\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123456},"
	    "\"signature\":\"" RECEIPT_SIG "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) == 0 &&
	    strcmp(hex_encode(rc.digest, 32, hx),
	    "0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b") == 0 &&
	    addr_eq(&rc.signer, &anvil0), "an absent transaction hashes as \"\"");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":{\"version\":1,\"network\":\"eip155:8453\","
	    "\"resourceUrl\":\"https://api.example.com/premium-data\","
	    "\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123457,"
	    "\"transaction\":\"\"},\"signature\":\"" RECEIPT_SIG "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) == 0 &&
	    !addr_eq(&rc.signer, &anvil0), "a tampered issuedAt no longer recovers to the signer");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":{\"version\":1,\"network\":\"eip155:8453\","
	    "\"resourceUrl\":\"https://api.example.com/premium-data\","
	    "\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123456,"
	    "\"transaction\":\"0x12\"},\"signature\":\"" RECEIPT_SIG "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) < 0 &&
	    strcmp(field, "payload.transaction") == 0, "a malformed transaction refused");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":{\"version\":1,\"network\":\"eip155:8453\","
	    "\"resourceUrl\":\"https://api.example.com/premium-data#frag\","
	    "\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123456},"
	    "\"signature\":\"" RECEIPT_SIG "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) < 0 &&
	    strcmp(field, "payload.resourceUrl") == 0, "a fragment refused");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":{\"version\":1,\"network\":\"eip155:8453\","
	    "\"resourceUrl\":\"https://api.example.com/premium-data\","
	    "\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":0},"
	    "\"signature\":\"" RECEIPT_SIG "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) < 0 &&
	    strcmp(field, "payload.issuedAt") == 0, "issuedAt 0 refused");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"acceptIndex\":0,\"payload\":" RECEIPT_PAYLOAD
	    ",\"signature\":\"" RECEIPT_SIG "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) < 0 &&
	    strcmp(field, "acceptIndex") == 0, "a receipt has no acceptIndex");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":" RECEIPT_PAYLOAD ",\"signature\":\"" NOKEY_SIG "\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) == RECEIPT_UNRECOVERED &&
	    strcmp(field, "signature") == 0, "a receipt signature that recovers no key: RECEIPT_UNRECOVERED");
	json_object_put(o);
	o = parse("{\"format\":\"eip712\",\"payload\":" RECEIPT_PAYLOAD ",\"signature\":\""
	    "0x4f98ad0be21e9eb48ec1aeb7a65f25100f7db10a8e1870aa4021cbd6985013d01451045373c2f5f74ac168e90cee435f13284beaa500f570ab7584cdde05e1021d\"}");
	ok(o && receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) == RECEIPT_UNRECOVERED,
	    "the vector's signature with v 29: RECEIPT_UNRECOVERED");
	json_object_put(o);
}

static void
review_v2(void)
{
	const char *good = "{\"version\":\"2\",\"policyVersion\":\"boon.x402-review-policy/v2\","
	    "\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\","
	    "\"receiptDigest\":\"0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b\","
	    "\"reviewText\":\"Receipt-backed: the premium endpoint answered within a second.\","
	    "\"createdAt\":1767225600}";
	const char *sighex = "0xd8710555784bc0fbf8ac88999209d4f3f91aa16efc1a3fcb82fdd6ebd027dac1001a831bd5ec065af9674d6fe7ef8969e1fe5bf3614659b2532162b6698d080e1c";
	static const struct { const char *json; const char *field; } bad[] = {
		{ "{\"version\":\"3\",\"policyVersion\":\"boon.x402-review-policy/v2\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"receiptDigest\":\"0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b\",\"reviewText\":\"x\",\"createdAt\":1}", "review.version" },
		{ "{\"version\":\"2\",\"policyVersion\":\"boon.x402-review-policy/v3\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"receiptDigest\":\"0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b\",\"reviewText\":\"x\",\"createdAt\":1}", "review.policyVersion" },
		{ "{\"version\":\"2\",\"policyVersion\":\"boon.x402-review-policy/v2\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"receiptDigest\":\"0x060DBCFB87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b\",\"reviewText\":\"x\",\"createdAt\":1}", "review.receiptDigest" },
		{ "{\"version\":\"2\",\"policyVersion\":\"boon.x402-review-policy/v2\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"receiptDigest\":\"0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b\",\"reviewText\":\" x\",\"createdAt\":1}", "review.reviewText" },
		{ "{\"version\":\"2\",\"policyVersion\":\"boon.x402-review-policy/v2\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"receiptDigest\":\"0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b\",\"reviewText\":\"x\",\"createdAt\":1,\"reviewer\":\"0x\"}", "review.reviewer" },
	};
	struct review_v2 v;
	struct addr companion, signer, anvil0;
	struct sig sg;
	char field[64], why[256], hx[67];
	uint8_t d[32];
	json_object *o = parse(good);

	addr_parse("0xb7f990Ef5C59a6A50Fb226f0687D3FB43cF1Cd66", 42, &companion);
	addr_parse(ANVIL0, strlen(ANVIL0), &anvil0);
	ok(o && review_v2_parse(o, &v, field, sizeof(field), why, sizeof(why)) == 0 &&
	    v.created_at == 1767225600, "V2 object parses (%s)", why);
	ok(review_v2_digest(&v, 8453, &companion, d) == 0 && strcmp(hex_encode(d, 32, hx),
	    "0x1fdc9a34a9c36405b829aed4b8834951a27740608ea435047bb568393a71f040") == 0,
	    "the V2 digest equals viem's (got %s)", hx);
	ok(sig_parse_hex(sighex, strlen(sighex), &sg) == SIG_OK && sig_recover(d, &sg, &signer) ==
	    SIG_OK && addr_eq(&signer, &anvil0), "viem's V2 signature recovers to its signer");
	json_object_put(o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = parse(bad[i].json);
		ok(o && review_v2_parse(o, &v, field, sizeof(field), why, sizeof(why)) < 0 &&
		    strcmp(field, bad[i].field) == 0, "V2 refused naming %s (got %s: %s)", bad[i].field,
		    field, why);
		json_object_put(o);
	}
}

/* A catalog listing whose challenge carries the signed vector offer. */
static void
catalog_offers(void)
{
	static const char *const item_fmt = "{\"resource\":\"https://api.example.com/premium-data\","
	    "\"type\":\"http\",\"x402Version\":2,\"description\":\"Premium data\","
	    "\"accepts\":[{\"scheme\":\"exact\",\"network\":\"eip155:8453\",\"amount\":\"%s\","
	    "\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\","
	    "\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\"}],"
	    "\"extensions\":{\"bazaar\":{\"info\":{\"input\":{\"method\":\"GET\"}}},"
	    "\"offer-receipt\":{\"info\":{\"offers\":[%s{\"format\":\"eip712\",\"acceptIndex\":0,"
	    "\"payload\":" OFFER_PAYLOAD ",\"signature\":\"%s\"}]}}}}";
	struct catalog_item it;
	struct addr anvil0;
	char js[4096], why[256];
	json_object *o;

	addr_parse(ANVIL0, strlen(ANVIL0), &anvil0);
	snprintf(js, sizeof(js), item_fmt, "10000", "", OFFER_SIG);
	o = parse(js);
	ok(o && catalog_item_parse(o, &it, why, sizeof(why)) == 0 && it.has_route &&
	    it.has_offer_signer && addr_eq(&it.offer_signer, &anvil0),
	    "a catalog challenge with a matching signed offer gives its signer (%s)", why);
	json_object_put(o);
	snprintf(js, sizeof(js), item_fmt, "10000", "{\"format\":\"jws\"},", OFFER_SIG);
	o = parse(js);
	ok(o && catalog_item_parse(o, &it, why, sizeof(why)) == 0 && it.has_offer_signer &&
	    addr_eq(&it.offer_signer, &anvil0), "an unusable offer before it is skipped");
	json_object_put(o);
	snprintf(js, sizeof(js), item_fmt, "20000", "", OFFER_SIG);
	o = parse(js);
	ok(o && catalog_item_parse(o, &it, why, sizeof(why)) == 0 && !it.has_offer_signer,
	    "an offer whose amount differs from the challenge pins nothing");
	json_object_put(o);
	snprintf(js, sizeof(js), item_fmt, "10000", "",
	    "0x57073060e55da4e8a97e47dd390e7c2db8ac1fb7f53bbe0dc253a08267b3a909"
	    "7f595505f2c47421ede1cc84c1360eba670ccd4011933ace67e6482abea88597");
	o = parse(js);
	ok(o && catalog_item_parse(o, &it, why, sizeof(why)) == 0 && !it.has_offer_signer,
	    "an offer with a malformed signature pins nothing");
	json_object_put(o);
}

int
main(void)
{
	if (sig_init() < 0)
		return 1;
	offers();
	receipts();
	review_v2();
	catalog_offers();
	sig_release();
	return done_testing();
}
