/*
 * EIP-712 hashing (lib/eip712.c) and the service's typed data (lib/typed.c):
 *  (a) the EIP-712 Mail example, (b) the Batch arrays example, a numeric
 *  and nested-array example cross-checked with viem, (c) the service-shaped
 *  Disclosure and PrivateTipUnlock vectors, (d) x402 Offer and Receipt,
 *  (e) TransferWithAuthorization on Base and Base Sepolia, (f) the
 *  typehashes of docs/PROTOCOL.md, Typed data, every vector of
 *  t/vectors/eip712-boon.json
 *  (viem), and (g) rejections. Run from the top of the tree (or set
 *  WAYMARK_TOP). Signature recovery of the recorded signatures is sig.c's
 *  test; here digests are enough.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "eip712.h"
#include "hex.h"
#include "typed.h"
#include "tap.h"
#include "banned.h"

#define VECTORS "t/vectors/eip712-boon.json"

static char err[256];

static const char *
hx(const uint8_t h[32])
{
	static char out[67];

	return hex_encode(h, 32, out);
}

static json_object *
parse(const char *s)
{
	json_object *o = json_tokener_parse(s);

	if (o == NULL)
		printf("# bad JSON in test: %s\n", s);
	return o;
}

static json_object *
get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static const char *
str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static struct addr
addr_of(const char *s)
{
	struct addr a;

	memset(&a, 0, sizeof(a));
	if (hex_decode_fixed(s, strlen(s), a.b, ADDR_LEN, true) < 0)
		memset(&a, 0xee, sizeof(a));
	return a;
}

/* ---- (a) the EIP-712 Mail example ---- */

#define MAIL_TYPES_BODY \
	"\"Person\":[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"wallet\",\"type\":\"address\"}]," \
	"\"Mail\":[{\"name\":\"from\",\"type\":\"Person\"},{\"name\":\"to\",\"type\":\"Person\"}," \
	"{\"name\":\"contents\",\"type\":\"string\"}]"
#define DOMAIN4 \
	"\"EIP712Domain\":[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"version\",\"type\":\"string\"}," \
	"{\"name\":\"chainId\",\"type\":\"uint256\"},{\"name\":\"verifyingContract\",\"type\":\"address\"}]"
#define MAIL_DOMAIN \
	"{\"name\":\"Ether Mail\",\"version\":\"1\",\"chainId\":1," \
	"\"verifyingContract\":\"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC\"}"
#define MAIL_MESSAGE \
	"{\"from\":{\"name\":\"Cow\",\"wallet\":\"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826\"}," \
	"\"to\":{\"name\":\"Bob\",\"wallet\":\"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB\"}," \
	"\"contents\":\"Hello, Bob!\"}"
#define MAIL_DIGEST "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"

static void
test_mail(void)
{
	json_object *types = parse("{" DOMAIN4 "," MAIL_TYPES_BODY "}");
	json_object *bare = parse("{" MAIL_TYPES_BODY "}");
	json_object *domain = parse(MAIL_DOMAIN);
	json_object *msg = parse(MAIL_MESSAGE);
	json_object *whole = parse("{\"types\":{" DOMAIN4 "," MAIL_TYPES_BODY "},\"primaryType\":\"Mail\","
				   "\"domain\":" MAIL_DOMAIN ",\"message\":" MAIL_MESSAGE "}");
	char et[256];
	uint8_t h[32];

	diag("(a) EIP-712 Mail");
	ok(eip712_encode_type(types, "Mail", et, sizeof(et), err, sizeof(err)) == EIP712_OK, "encodeType(Mail)");
	is_str(et, "Mail(Person from,Person to,string contents)Person(string name,address wallet)",
	    "encodeType(Mail) text");
	ok(eip712_type_hash(types, "Mail", h, err, sizeof(err)) == EIP712_OK, "typeHash(Mail)");
	is_str(hx(h), "0xa0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2", "typeHash(Mail) value");
	ok(eip712_type_hash(types, "EIP712Domain", h, err, sizeof(err)) == EIP712_OK, "typeHash(EIP712Domain)");
	is_str(hx(h), "0x8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f",
	    "typeHash(EIP712Domain name,version,chainId,verifyingContract)");
	ok(eip712_domain_separator(types, domain, h, err, sizeof(err)) == EIP712_OK, "domain separator");
	is_str(hx(h), "0xf2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f", "domain separator value");
	ok(eip712_hash_struct(types, "Mail", msg, h, err, sizeof(err)) == EIP712_OK, "hashStruct(Mail)");
	is_str(hx(h), "0xc52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e", "hashStruct value");
	ok(eip712_digest(whole, h, err, sizeof(err)) == EIP712_OK, "digest of the whole typed data");
	is_str(hx(h), MAIL_DIGEST, "Mail digest");
	memset(h, 0, 32);
	ok(eip712_digest_parts(bare, "Mail", domain, msg, h, err, sizeof(err)) == EIP712_OK,
	    "digest with EIP712Domain derived from the domain keys: %s", err);
	is_str(hx(h), MAIL_DIGEST, "derived domain gives the same digest");
	ok(eip712_encode_type(types, "Person", et, sizeof(et), err, sizeof(err)) == EIP712_OK &&
	    strcmp(et, "Person(string name,address wallet)") == 0, "encodeType(Person) has no dependencies");
	ok(eip712_encode_type(types, "Mail", et, 20, err, sizeof(err)) == EIP712_TOO_LONG,
	    "encodeType into a short buffer: %s", err);
	ok(eip712_type_hash(bare, "EIP712Domain", h, err, sizeof(err)) == EIP712_UNKNOWN_TYPE,
	    "no derived EIP712Domain without a domain");
	json_object_put(types);
	json_object_put(bare);
	json_object_put(domain);
	json_object_put(msg);
	json_object_put(whole);
}

/* ---- (b) arrays, bytes and nested struct arrays ---- */

#define BATCH_TYPES_BODY \
	"\"Batch\":[{\"name\":\"owner\",\"type\":\"address\"},{\"name\":\"ids\",\"type\":\"uint256[]\"}," \
	"{\"name\":\"items\",\"type\":\"Item[]\"},{\"name\":\"blob\",\"type\":\"bytes\"}," \
	"{\"name\":\"flag\",\"type\":\"bool\"}]," \
	"\"Item\":[{\"name\":\"id\",\"type\":\"uint256\"},{\"name\":\"tag\",\"type\":\"string\"}]"

static void
test_batch(void)
{
	json_object *types = parse("{" BATCH_TYPES_BODY "}");
	json_object *types2 = parse("{\"EIP712Domain\":[{\"name\":\"name\",\"type\":\"string\"},"
				    "{\"name\":\"chainId\",\"type\":\"uint256\"}]," BATCH_TYPES_BODY "}");
	json_object *domain = parse("{\"name\":\"Example\",\"chainId\":8453}");
	json_object *msg = parse("{\"owner\":\"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826\",\"ids\":[1,\"2\",\"0x3\"],"
				 "\"items\":[{\"id\":1,\"tag\":\"a\"},{\"id\":\"2\",\"tag\":\"b\"}],"
				 "\"blob\":\"0xdeadbeef\",\"flag\":true}");
	json_object *bad = parse("{\"owner\":\"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826\",\"ids\":[],"
				 "\"items\":[{\"id\":1,\"tag\":\"a\"},{\"id\":\"x\",\"tag\":\"b\"}],"
				 "\"blob\":\"0x\",\"flag\":false}");
	char et[256];
	uint8_t h[32];

	diag("(b) Batch: arrays, bytes, nested struct arrays, derived domain");
	ok(eip712_encode_type(types, "Batch", et, sizeof(et), err, sizeof(err)) == EIP712_OK, "encodeType(Batch)");
	is_str(et, "Batch(address owner,uint256[] ids,Item[] items,bytes blob,bool flag)Item(uint256 id,string tag)",
	    "array suffix stripped when collecting Item");
	ok(eip712_type_hash(types2, "EIP712Domain", h, err, sizeof(err)) == EIP712_OK, "EIP712Domain(name,chainId)");
	is_str(et, "Batch(address owner,uint256[] ids,Item[] items,bytes blob,bool flag)Item(uint256 id,string tag)",
	    "(unchanged)");
	ok(eip712_domain_separator(types, domain, h, err, sizeof(err)) == EIP712_OK, "derived domain separator");
	is_str(hx(h), "0xed418f4c6c481aae93fb5c4c87db728b0eaef610ebe25d4bb791b690b2138d54", "separator value");
	ok(eip712_domain_separator(types2, domain, h, err, sizeof(err)) == EIP712_OK &&
	    strcmp(hx(h), "0xed418f4c6c481aae93fb5c4c87db728b0eaef610ebe25d4bb791b690b2138d54") == 0,
	    "explicit EIP712Domain(string name,uint256 chainId) gives the same separator");
	ok(eip712_hash_struct(types, "Batch", msg, h, err, sizeof(err)) == EIP712_OK, "hashStruct(Batch): %s", err);
	is_str(hx(h), "0xf92204203e64433b30db970d2469a436751b1a2ffdc979dbcc3c19ec237132d7", "hashStruct value");
	ok(eip712_digest_parts(types, "Batch", domain, msg, h, err, sizeof(err)) == EIP712_OK, "Batch digest");
	is_str(hx(h), "0x76b4364db9adaf09a06ecd61edfc7914a01a92d14c4e485860409f55c7dc6164", "Batch digest value");
	ok(eip712_digest_parts(types, "Batch", domain, bad, h, err, sizeof(err)) == EIP712_BAD_VALUE,
	    "bad element inside an array of structs");
	is_str(err, "message.items[1].id: not a uint256", "the error names the element");
	json_object_put(types);
	json_object_put(types2);
	json_object_put(domain);
	json_object_put(msg);
	json_object_put(bad);
}

/* ---- signed integers, fixed and nested arrays, salt (digests from viem 2.57.20) ---- */

static void
test_numbers(void)
{
	json_object *types = parse(
	    "{\"Numbers\":[{\"name\":\"a\",\"type\":\"int8\"},{\"name\":\"b\",\"type\":\"int256\"},"
	    "{\"name\":\"c\",\"type\":\"uint8\"},{\"name\":\"d\",\"type\":\"int16\"},{\"name\":\"e\",\"type\":\"bytes1\"},"
	    "{\"name\":\"f\",\"type\":\"bytes32\"},{\"name\":\"g\",\"type\":\"uint256[2][]\"},"
	    "{\"name\":\"h\",\"type\":\"string[]\"},{\"name\":\"i\",\"type\":\"bool[3]\"},"
	    "{\"name\":\"j\",\"type\":\"Pair[][2]\"},{\"name\":\"k\",\"type\":\"int256\"},"
	    "{\"name\":\"l\",\"type\":\"uint64\"},{\"name\":\"m\",\"type\":\"bytes\"}],"
	    "\"Pair\":[{\"name\":\"x\",\"type\":\"int32\"},{\"name\":\"who\",\"type\":\"address\"}]}");
	json_object *domain = parse("{\"name\":\"Numbers\",\"version\":\"1\",\"chainId\":1,"
				    "\"verifyingContract\":\"0x1111111111111111111111111111111111111111\","
				    "\"salt\":\"0x4242424242424242424242424242424242424242424242424242424242424242\"}");
	json_object *msg = parse(
	    "{\"a\":-128,\"b\":\"-1\",\"c\":\"0xff\",\"d\":32767,\"e\":\"0xff\","
	    "\"f\":\"0x0000000000000000000000000000000000000000000000000000000000000001\","
	    "\"g\":[[1,\"2\"],[\"3\",\"0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\"]],"
	    "\"h\":[\"\",\"x\",\"\u6771\u4eac\"],\"i\":[true,false,true],"
	    "\"j\":[[{\"x\":\"-2147483648\",\"who\":\"0x0000000000000000000000000000000000000001\"}],[]],"
	    "\"k\":\"-57896044618658097711785492504343953926634992332820282019728792003956564819968\","
	    "\"l\":\"18446744073709551615\",\"m\":\"0x\"}");
	uint8_t h[32];

	diag("intN, nested and fixed arrays, salt (cross-checked with viem)");
	ok(eip712_domain_separator(types, domain, h, err, sizeof(err)) == EIP712_OK, "separator with salt");
	is_str(hx(h), "0xa60642f8c262168b65c36fb03b909994a063a2e7438ffbb59a5dff28e37b0910", "separator value");
	ok(eip712_hash_struct(types, "Numbers", msg, h, err, sizeof(err)) == EIP712_OK, "hashStruct(Numbers): %s",
	    err);
	is_str(hx(h), "0x677b1c77495858f86b24dcb7980f419fb784e6899971bccbb75a65713bc9e771", "hashStruct value");
	ok(eip712_digest_parts(types, "Numbers", domain, msg, h, err, sizeof(err)) == EIP712_OK, "digest");
	is_str(hx(h), "0xa2c50c409961e4549aebdaf061adec1ec8d6675ab3a42026783ead671567bfcf", "digest value");
	json_object_put(types);
	json_object_put(domain);
	json_object_put(msg);
}

/* ---- (c) (d) (e) the service's fixed typed data against the references ---- */

static void
check_typed(const char *what, enum typed_kind kind, const struct typed_domain *d, const char *message,
    const char *sep, const char *st, const char *digest)
{
	json_object *msg = parse(message);
	json_object *types = typed_types_new(kind);
	uint8_t h[32];

	if (sep != NULL) {
		ok(typed_domain_separator(kind, d, h, err, sizeof(err)) == 0, "%s: domain separator: %s", what, err);
		is_str(hx(h), sep, "%s: domain separator value", what);
	}
	if (st != NULL) {
		ok(eip712_hash_struct(types, typed_primary(kind), msg, h, err, sizeof(err)) == EIP712_OK,
		    "%s: hashStruct", what);
		is_str(hx(h), st, "%s: hashStruct value", what);
	}
	memset(h, 0, 32);
	ok(typed_digest(kind, d, msg, h, err, sizeof(err)) == 0, "%s: digest: %s", what, err);
	is_str(hx(h), digest, "%s: digest value", what);
	json_object_put(msg);
	json_object_put(types);
}

/* typed_transfer_digest of the (e) vectors' message, decoded, under d. */
static void
check_transfer(const char *what, const struct typed_domain *d, const char *digest)
{
	struct typed_transfer m = { .from = addr_of("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
		.to = addr_of("0x209693Bc6afc0C5328bA36FaF03C514EF312287C") };
	uint8_t h[32] = { 0 };

	u256_from_u64(&m.value, 10000);
	u256_from_u64(&m.valid_after, 1740672089);
	u256_from_u64(&m.valid_before, 1740672154);
	hex_decode_fixed("0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480", 66, m.nonce, 32,
	    true);
	ok(typed_transfer_digest(d, &m, h) == 0, "%s: the direct TransferWithAuthorization digest", what);
	is_str(hx(h), digest, "%s: direct digest value (the same as the JSON engine's)", what);
}

/*
 * The direct digest refuses the domains typed_digest refuses, and agrees
 * with the JSON engine on values that fill whole words.
 */
static void
check_transfer_domains(const struct typed_domain *base)
{
	struct addr zero = { { 0 } };
	struct typed_domain d;
	struct typed_transfer m = { .from = addr_of("0xffffffffffffffffffffffffffffffffffffffff"),
		.to = addr_of("0x0000000000000000000000000000000000000001") };
	json_object *msg;
	uint8_t a[32], b[32];

	d = *base; d.name = NULL;
	ok(typed_transfer_digest(&d, &m, a) < 0, "direct digest: no domain name, refused");
	d = *base; d.version = NULL;
	ok(typed_transfer_digest(&d, &m, a) < 0, "direct digest: no version, refused");
	d = *base; d.chain_id = 0;
	ok(typed_transfer_digest(&d, &m, a) < 0, "direct digest: chain id 0, refused");
	d = *base; d.chain_id = TYPED_MAX_CHAIN_ID + 1;
	ok(typed_transfer_digest(&d, &m, a) < 0, "direct digest: chain id past 2^53-1, refused");
	d = *base; d.verifying_contract = &zero;
	ok(typed_transfer_digest(&d, &m, a) < 0, "direct digest: zero verifyingContract, refused");
	d = *base; d.verifying_contract = NULL;
	ok(typed_transfer_digest(&d, &m, a) < 0, "direct digest: no verifyingContract, refused");
	/* Largest values: every byte of every word set. */
	u256_parse_dec("115792089237316195423570985008687907853269984665640564039457584007913129639935", 78,
	    &m.value);
	u256_from_u64(&m.valid_after, UINT64_MAX);
	u256_from_u64(&m.valid_before, UINT64_MAX - 1);
	memset(m.nonce, 0xee, 32);
	msg = parse("{\"from\":\"0xffffffffffffffffffffffffffffffffffffffff\","
	    "\"to\":\"0x0000000000000000000000000000000000000001\","
	    "\"value\":\"115792089237316195423570985008687907853269984665640564039457584007913129639935\","
	    "\"validAfter\":\"18446744073709551615\",\"validBefore\":\"18446744073709551614\","
	    "\"nonce\":\"0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\"}");
	d = *base; d.chain_id = TYPED_MAX_CHAIN_ID;
	ok(typed_transfer_digest(&d, &m, a) == 0 &&
	    typed_digest(TYPED_TRANSFER_WITH_AUTHORIZATION, &d, msg, b, err, sizeof(err)) == 0,
	    "largest values: both digests computed");
	ok(memcmp(a, b, 32) == 0, "largest values: the direct digest equals the JSON engine's (%s)", hx(a));
	json_object_put(msg);
}

static void
test_service_vectors(void)
{
	struct addr ex = addr_of("0x1111111111111111111111111111111111111111");
	struct addr usdc = addr_of("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
	struct addr usdc_sepolia = addr_of("0x036CbD53842c5426634e7929541eC2318f3dCF7e");
	struct typed_domain example = { .name = "Example", .version = "1", .chain_id = 8453, .verifying_contract = &ex };
	struct typed_domain none = { 0 };
	struct typed_domain base = { .name = "USD Coin", .version = "2", .chain_id = 8453, .verifying_contract = &usdc };
	struct typed_domain sepolia = { .name = "USDC", .version = "2", .chain_id = 84532,
		.verifying_contract = &usdc_sepolia };
	const char *twa = "{\"from\":\"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\","
			  "\"to\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"value\":\"10000\","
			  "\"validAfter\":\"1740672089\",\"validBefore\":\"1740672154\","
			  "\"nonce\":\"0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480\"}";

	diag("(c) Disclosure and PrivateTipUnlock, example domain (protocols.md 5.2)");
	check_typed("Disclosure", TYPED_DISCLOSURE, &example,
	    "{\"txHash\":\"0xabababababababababababababababababababababababababababababababab\","
	    "\"action\":\"publish\"}",
	    "0x81f205214a920d795f8c62aa61c7c5b94e19f4e0593740a275351b745314a0cd",
	    "0x7c215ac69d0d2d4fe3ec8a05ec9ecc8ea030b4e44e614dc48a4fcefc37fcf699",
	    "0x9fe4b34520dce4275eb4961ca60c60e25bd1ef919a46d38b76172810bace3b92");
	check_typed("PrivateTipUnlock", TYPED_PRIVATE_TIP_UNLOCK, &example,
	    "{\"tipId\":42,\"nonce\":\"0x0101010101010101010101010101010101010101010101010101010101010101\","
	    "\"deadline\":\"1767225600\"}",
	    NULL, "0x79cf3ffd3bc0a267cccb9d86181d079ddd77bc6ce4bd0ede57c1af1ef288afae",
	    "0xdfdd3ec6573cafd30f828558007d0a5717eb02c672d8b7dcb84693b80429e5c5");

	diag("(d) x402 Offer and Receipt (x402.md 8.4)");
	check_typed("Offer", TYPED_X402_OFFER, &none,
	    "{\"version\":1,\"resourceUrl\":\"https://api.example.com/premium-data\",\"scheme\":\"exact\","
	    "\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\","
	    "\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"10000\","
	    "\"validUntil\":1703123516}",
	    "0x5dc92544087ab60aa57c539b9543f9282416b0dcf2c2ae0d4d0051052a9e61b6", NULL,
	    "0x080c2947f96376213d3de762c32b1f56ba5869acdeb87c7a44b7be5d33d397ea");
	check_typed("Receipt", TYPED_X402_RECEIPT, &none,
	    "{\"version\":1,\"network\":\"eip155:8453\",\"resourceUrl\":\"https://api.example.com/premium-data\","
	    "\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123456,\"transaction\":\"\"}",
	    "0xfd7f8c81cdd24b25c99ba22e191cee41d8809abbc12e8fdbd42fddfa5bb9e406", NULL,
	    "0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b");

	diag("(e) TransferWithAuthorization (x402.md 8.3)");
	check_typed("TWA Base", TYPED_TRANSFER_WITH_AUTHORIZATION, &base, twa,
	    "0x02fa7265e7c5d81118673727957699e4d68f74cd74b7db77da710fe8a2c7834f", NULL,
	    "0x7e9613714edd92ad20fa5b252ec168245031911a3438dd20225f083b6a688f8a");
	check_typed("TWA Base Sepolia", TYPED_TRANSFER_WITH_AUTHORIZATION, &sepolia, twa,
	    "0x71f17a3b2ff373b803d70a5a07c046c1a2bc8e89c09ef722fcb047abe94c9818", NULL,
	    "0x50708d3bf7216e1aeabe7bf22081b9f36c7c287530f92510318f13a03d89dc86");
	check_transfer("TWA Base", &base, "0x7e9613714edd92ad20fa5b252ec168245031911a3438dd20225f083b6a688f8a");
	check_transfer("TWA Base Sepolia", &sepolia,
	    "0x50708d3bf7216e1aeabe7bf22081b9f36c7c287530f92510318f13a03d89dc86");
	check_transfer_domains(&base);
}

/* ---- (f) typehashes ---- */

static void
typehash_is(enum typed_kind kind, const char *prefix, const char *suffix)
{
	uint8_t h[32];
	const char *got;

	if (!ok(typed_type_hash(kind, h) == 0, "typeHash(%s)", typed_primary(kind)))
		return;
	got = hx(h);
	ok(strncmp(got, prefix, strlen(prefix)) == 0 && strlen(got) >= strlen(suffix) &&
	    strcmp(got + strlen(got) - strlen(suffix), suffix) == 0,
	    "typeHash(%s) = %s matches %s...%s", typed_primary(kind), got, prefix, suffix);
}

static void
test_typehashes(void)
{
	diag("(f) typehashes");
	typehash_is(TYPED_LINK, "0x57adf8fd5e3b468f27ce027a0299e71636fd6c65e768f9de6c140266bf5d4711", "");
	typehash_is(TYPED_X402_REVIEW, "0x046d9dd4", "996972");
	typehash_is(TYPED_X402_RECEIPT_REVIEW, "0x6aa469a3", "97de7d");
	typehash_is(TYPED_X402_SELF_REPORTED_REVIEW, "0x0d72d33d", "46fe60");
	typehash_is(TYPED_DISCLOSURE, "0x0c6d4052e11879c5ca8b9e8afc990f17fca6c2c29372fa071cd902a5062c476a", "");
	typehash_is(TYPED_PRIVATE_TIP_UNLOCK, "0x95d3ac1bfd0b47061eced90786f0e788afd43bdf18df5b139f1a1c83da362723", "");
	typehash_is(TYPED_X402_OFFER, "0x85143d3249b5e62ed5edd3d59a352d4e1181c775ff4f762f9c8a617f6bf1e97d", "");
	typehash_is(TYPED_X402_RECEIPT, "0x616944bc4bb51b3d5fcbba8c559f76d57a93ac1e0d6659f1abbe95f92300c06f", "");
	typehash_is(TYPED_TRANSFER_WITH_AUTHORIZATION,
	    "0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267", "");
	ok(typed_type_hash(TYPED__MAX, (uint8_t[32]){ 0 }) < 0, "out-of-range kind rejected");
}

/* ---- the viem-generated vector file ---- */

/* struct typed_domain from a JSON domain; *vc holds the contract. */
static void
domain_from_json(json_object *dom, struct typed_domain *d, struct addr *vc)
{
	memset(d, 0, sizeof(*d));
	d->name = get(dom, "name") ? str(dom, "name") : NULL;
	d->version = get(dom, "version") ? str(dom, "version") : NULL;
	d->chain_id = (uint64_t)json_object_get_int64(get(dom, "chainId"));
	if (get(dom, "verifyingContract") != NULL) {
		*vc = addr_of(str(dom, "verifyingContract"));
		d->verifying_contract = vc;
	}
}

static json_object *
load(const char *rel)
{
	const char *top = getenv("WAYMARK_TOP");
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s%s%s", top ? top : "", top ? "/" : "", rel);

	if (n < 0 || (size_t)n >= sizeof(path))
		return NULL;
	return json_object_from_file(path);
}

static void
test_vector_file(void)
{
	json_object *root = load(VECTORS), *list;
	size_t i;

	diag("viem vectors (" VECTORS ")");
	if (!ok(root != NULL, "load " VECTORS))
		return;
	ok(strlen(str(root, "viem")) > 0, "viem version recorded: %s", str(root, "viem"));
	list = get(root, "vectors");
	ok(json_object_array_length(list) == 7, "7 Boon vectors");
	for (i = 0; i < json_object_array_length(list); i++) {
		json_object *v = json_object_array_get_idx(list, i);
		const char *kname = str(v, "kind");
		enum typed_kind kind;
		struct typed_domain d;
		struct addr vc;
		uint8_t h[32];
		char et[512];
		json_object *types, *td;

		if (!ok(typed_kind_from_primary(kname, &kind) == 0, "kind %s known", kname))
			continue;
		domain_from_json(get(v, "domain"), &d, &vc);
		memset(h, 0, 32);
		ok(typed_digest(kind, &d, get(v, "message"), h, err, sizeof(err)) == 0, "%s: digest: %s", kname, err);
		is_str(hx(h), str(v, "digest"), "%s: digest equals viem's", kname);
		ok(typed_domain_separator(kind, &d, h, err, sizeof(err)) == 0 &&
		    strcmp(hx(h), str(v, "domainSeparator")) == 0, "%s: domain separator equals viem's", kname);
		types = typed_types_new(kind);
		ok(eip712_hash_struct(types, kname, get(v, "message"), h, err, sizeof(err)) == EIP712_OK &&
		    strcmp(hx(h), str(v, "hashStruct")) == 0, "%s: hashStruct equals viem's", kname);
		ok(eip712_encode_type(types, kname, et, sizeof(et), err, sizeof(err)) == EIP712_OK &&
		    strcmp(et, str(v, "encodeType")) == 0, "%s: encodeType equals viem's", kname);
		ok(typed_type_hash(kind, h) == 0 && strcmp(hx(h), str(v, "typeHash")) == 0, "%s: typeHash", kname);
		/* The challenge object a client would sign hashes to the same digest. */
		td = typed_data_new(kind, &d, get(v, "message"), err, sizeof(err));
		ok(td != NULL && eip712_digest(td, h, err, sizeof(err)) == EIP712_OK &&
		    strcmp(hx(h), str(v, "digest")) == 0, "%s: typed_data_new round trip", kname);
		ok(strlen(str(v, "signature")) == 132, "%s: signature recorded", kname);
		json_object_put(td);
		json_object_put(types);
	}

	list = get(root, "published");
	ok(json_object_array_length(list) == 9, "9 published vectors to check");
	for (i = 0; i < json_object_array_length(list); i++) {
		json_object *v = json_object_array_get_idx(list, i);
		json_object *td = get(v, "typedData");
		const char *name = str(v, "name");
		uint8_t h[32];
		char et[512];

		memset(h, 0, 32);
		ok(eip712_digest(td, h, err, sizeof(err)) == EIP712_OK && strcmp(hx(h), str(v, "digest")) == 0,
		    "%s: generic digest equals viem's %s", name, err);
		ok(eip712_domain_separator(get(td, "types"), get(td, "domain"), h, err, sizeof(err)) == EIP712_OK &&
		    strcmp(hx(h), str(v, "domainSeparator")) == 0, "%s: domain separator", name);
		ok(eip712_hash_struct(get(td, "types"), str(td, "primaryType"), get(td, "message"), h, err,
		       sizeof(err)) == EIP712_OK && strcmp(hx(h), str(v, "hashStruct")) == 0, "%s: hashStruct", name);
		ok(eip712_encode_type(get(td, "types"), str(td, "primaryType"), et, sizeof(et), err, sizeof(err)) ==
		    EIP712_OK && strcmp(et, str(v, "encodeType")) == 0, "%s: encodeType", name);
		if (get(v, "kind") != NULL) {
			enum typed_kind kind;
			struct typed_domain d;
			struct addr vc;

			domain_from_json(get(td, "domain"), &d, &vc);
			memset(h, 0, 32);
			ok(typed_kind_from_primary(str(v, "kind"), &kind) == 0 &&
			    typed_digest(kind, &d, get(td, "message"), h, err, sizeof(err)) == 0 &&
			    strcmp(hx(h), str(v, "digest")) == 0, "%s: typed_digest (%s) %s", name, str(v, "kind"), err);
		}
	}
	json_object_put(root);
}

/* ---- (g) rejections ---- */

/* Expect code e (and, when want is set, that exact error text) for digest of the given parts. */
static void
rejects(const char *what, const char *types, const char *primary, const char *domain, const char *message,
    enum eip712_err e, const char *want)
{
	json_object *t = parse(types), *d = domain ? parse(domain) : NULL, *m = message ? parse(message) : NULL;
	uint8_t h[32];
	enum eip712_err got = eip712_digest_parts(t, primary, d, m, h, err, sizeof(err));

	ok(got == e, "%s: %s (%s)", what, eip712_strerror(got), err);
	if (want != NULL)
		is_str(err, want, "%s: message", what);
	json_object_put(t);
	json_object_put(d);
	json_object_put(m);
}

#define T1(fields) "{\"T\":[" fields "]}"
#define FLD(n, t) "{\"name\":\"" n "\",\"type\":\"" t "\"}"
#define D1 "{\"chainId\":1}"

static void
test_rejections(void)
{
	diag("(g) rejections");
	rejects("unknown field type", "{" MAIL_TYPES_BODY ",\"X\":[" FLD("p", "Persn") "]}", "Mail", MAIL_DOMAIN,
	    MAIL_MESSAGE, EIP712_UNKNOWN_TYPE, "types.X[0]: unknown type \"Persn\"");
	rejects("unknown primary type", "{" MAIL_TYPES_BODY "}", "Letter", MAIL_DOMAIN, MAIL_MESSAGE,
	    EIP712_UNKNOWN_TYPE, "primaryType: unknown type \"Letter\"");
	rejects("missing field", "{" MAIL_TYPES_BODY "}", "Mail", MAIL_DOMAIN,
	    "{\"from\":{\"name\":\"Cow\",\"wallet\":\"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826\"},"
	    "\"to\":{\"name\":\"Bob\",\"wallet\":\"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB\"}}",
	    EIP712_MISSING_FIELD, "message.contents: missing (string)");
	rejects("missing nested field", "{" MAIL_TYPES_BODY "}", "Mail", MAIL_DOMAIN,
	    "{\"from\":{\"name\":\"Cow\"},\"to\":{\"name\":\"Bob\",\"wallet\":\"0x0000000000000000000000000000000000000001\"},"
	    "\"contents\":\"x\"}",
	    EIP712_MISSING_FIELD, "message.from.wallet: missing (address)");
	rejects("extra field", "{" MAIL_TYPES_BODY "}", "Mail", MAIL_DOMAIN,
	    "{\"from\":{\"name\":\"Cow\",\"wallet\":\"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826\"},"
	    "\"to\":{\"name\":\"Bob\",\"wallet\":\"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB\"},"
	    "\"contents\":\"Hello, Bob!\",\"cc\":\"Eve\"}",
	    EIP712_EXTRA_FIELD, "message.cc: not a field of Mail");
	rejects("extra domain key (derived domain)", "{" MAIL_TYPES_BODY "}", "Mail",
	    "{\"name\":\"Ether Mail\",\"chain\":1}", MAIL_MESSAGE, EIP712_EXTRA_FIELD,
	    "domain.chain: not a field of EIP712Domain");
	rejects("extra domain key (explicit domain)", "{" DOMAIN4 "," MAIL_TYPES_BODY "}", "Mail",
	    "{\"name\":\"Ether Mail\",\"version\":\"1\",\"chainId\":1,"
	    "\"verifyingContract\":\"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC\",\"salt\":\"0x00\"}",
	    MAIL_MESSAGE, EIP712_EXTRA_FIELD, "domain.salt: not a field of EIP712Domain");
	rejects("missing domain field (explicit domain)", "{" DOMAIN4 "," MAIL_TYPES_BODY "}", "Mail",
	    "{\"name\":\"Ether Mail\",\"version\":\"1\",\"chainId\":1}", MAIL_MESSAGE, EIP712_MISSING_FIELD,
	    "domain.verifyingContract: missing (address)");
	rejects("primaryType EIP712Domain", "{" DOMAIN4 "," MAIL_TYPES_BODY "}", "EIP712Domain", MAIL_DOMAIN,
	    MAIL_DOMAIN, EIP712_BAD_PRIMARY, NULL);
	rejects("missing primaryType", "{" MAIL_TYPES_BODY "}", NULL, MAIL_DOMAIN, MAIL_MESSAGE,
	    EIP712_BAD_PRIMARY, NULL);

	rejects("bytes32 of 31 bytes", T1(FLD("h", "bytes32")), "T", D1,
	    "{\"h\":\"0xababababababababababababababababababababababababababababababab\"}",
	    EIP712_BAD_VALUE, "message.h: not a bytes32 (0x and 64 hex digits)");
	rejects("bytes32 of 33 bytes", T1(FLD("h", "bytes32")), "T", D1,
	    "{\"h\":\"0xababababababababababababababababababababababababababababababababab\"}", EIP712_BAD_VALUE, NULL);
	rejects("bytes4 without 0x", T1(FLD("h", "bytes4")), "T", D1, "{\"h\":\"deadbeef\"}", EIP712_BAD_VALUE, NULL);
	rejects("uint8 256", T1(FLD("n", "uint8")), "T", D1, "{\"n\":256}", EIP712_BAD_VALUE,
	    "message.n: out of range for uint8");
	rejects("uint8 \"0x100\"", T1(FLD("n", "uint8")), "T", D1, "{\"n\":\"0x100\"}", EIP712_BAD_VALUE, NULL);
	rejects("uint8 -1", T1(FLD("n", "uint8")), "T", D1, "{\"n\":-1}", EIP712_BAD_VALUE, NULL);
	rejects("uint256 \"-1\"", T1(FLD("n", "uint256")), "T", D1, "{\"n\":\"-1\"}", EIP712_BAD_VALUE,
	    "message.n: not a uint256");
	rejects("int8 128", T1(FLD("n", "int8")), "T", D1, "{\"n\":128}", EIP712_BAD_VALUE,
	    "message.n: out of range for int8");
	rejects("int8 -129", T1(FLD("n", "int8")), "T", D1, "{\"n\":\"-129\"}", EIP712_BAD_VALUE, NULL);
	rejects("int256 below -2^255", T1(FLD("n", "int256")), "T", D1,
	    "{\"n\":\"-57896044618658097711785492504343953926634992332820282019728792003956564819969\"}",
	    EIP712_BAD_VALUE, NULL);
	rejects("int256 2^255", T1(FLD("n", "int256")), "T", D1,
	    "{\"n\":\"57896044618658097711785492504343953926634992332820282019728792003956564819968\"}",
	    EIP712_BAD_VALUE, NULL);
	rejects("uint256 2^256", T1(FLD("n", "uint256")), "T", D1,
	    "{\"n\":\"115792089237316195423570985008687907853269984665640564039457584007913129639936\"}",
	    EIP712_BAD_VALUE, NULL);
	rejects("uint256 as a double", T1(FLD("n", "uint256")), "T", D1, "{\"n\":1.5}", EIP712_BAD_VALUE, NULL);
	rejects("uint256 as 1e3", T1(FLD("n", "uint256")), "T", D1, "{\"n\":1e3}", EIP712_BAD_VALUE, NULL);
	rejects("uint256 saturated JSON integer", T1(FLD("n", "uint256")), "T", D1,
	    "{\"n\":115792089237316195423570985008687907853269984665640564039457584007913129639935}",
	    EIP712_BAD_VALUE, NULL);
	rejects("int64 max as a JSON integer (ambiguous)", T1(FLD("n", "uint256")), "T", D1,
	    "{\"n\":9223372036854775807}", EIP712_BAD_VALUE, NULL);
	rejects("uint256 with a leading zero", T1(FLD("n", "uint256")), "T", D1, "{\"n\":\"01\"}", EIP712_BAD_VALUE,
	    NULL);
	rejects("int256 \"-0\"", T1(FLD("n", "int256")), "T", D1, "{\"n\":\"-0\"}", EIP712_BAD_VALUE, NULL);
	rejects("uint256 as a bool", T1(FLD("n", "uint256")), "T", D1, "{\"n\":true}", EIP712_BAD_VALUE, NULL);
	rejects("bool as a string", T1(FLD("b", "bool")), "T", D1, "{\"b\":\"true\"}", EIP712_BAD_VALUE,
	    "message.b: not a bool");
	rejects("bool as 1", T1(FLD("b", "bool")), "T", D1, "{\"b\":1}", EIP712_BAD_VALUE, NULL);
	rejects("address of 39 digits", T1(FLD("a", "address")), "T", D1,
	    "{\"a\":\"0x000000000000000000000000000000000000001\"}", EIP712_BAD_VALUE, "message.a: not an address");
	rejects("string as a number", T1(FLD("s", "string")), "T", D1, "{\"s\":1}", EIP712_BAD_VALUE, NULL);
	rejects("null value", T1(FLD("s", "string")), "T", D1, "{\"s\":null}", EIP712_BAD_VALUE, NULL);
	rejects("bytes with an odd digit count", T1(FLD("b", "bytes")), "T", D1, "{\"b\":\"0xabc\"}",
	    EIP712_BAD_VALUE, NULL);
	rejects("bytes with a non-hex digit", T1(FLD("b", "bytes")), "T", D1, "{\"b\":\"0xzz\"}", EIP712_BAD_VALUE,
	    NULL);
	rejects("struct value not an object", "{\"T\":[" FLD("p", "P") "],\"P\":[" FLD("x", "uint8") "]}", "T", D1,
	    "{\"p\":[1]}", EIP712_BAD_VALUE, "message.p: not an object (P)");
	rejects("array value not an array", T1(FLD("a", "uint8[]")), "T", D1, "{\"a\":1}", EIP712_BAD_VALUE, NULL);
	rejects("fixed array too short", T1(FLD("i", "bool[3]")), "T", D1, "{\"i\":[true,false]}",
	    EIP712_BAD_LENGTH, "message.i: 2 elements, bool[3] needs 3");
	rejects("fixed array too long", T1(FLD("i", "bool[1]")), "T", D1, "{\"i\":[true,false]}",
	    EIP712_BAD_LENGTH, NULL);
	rejects("inner fixed array mismatch", T1(FLD("g", "uint8[2][]")), "T", D1, "{\"g\":[[1,2],[3]]}",
	    EIP712_BAD_LENGTH, "message.g[1]: 1 elements, uint8[2] needs 2");
	rejects("message not an object", T1(FLD("n", "uint8")), "T", D1, "[1]", EIP712_BAD_VALUE, NULL);
	rejects("domain not an object", T1(FLD("n", "uint8")), "T", "[]", "{\"n\":1}", EIP712_BAD_INPUT, NULL);
	rejects("no domain at all", T1(FLD("n", "uint8")), "T", NULL, "{\"n\":1}", EIP712_BAD_INPUT,
	    "domain: not an object");
	rejects("no domain with an explicit EIP712Domain",
	    "{\"EIP712Domain\":[" FLD("chainId", "uint256") "],\"T\":[" FLD("n", "uint8") "]}", "T", NULL,
	    "{\"n\":1}", EIP712_BAD_VALUE, "domain: not an object (EIP712Domain)");
	rejects("no message", T1(FLD("n", "uint8")), "T", D1, NULL, EIP712_BAD_VALUE, "message: not an object (T)");
	rejects("int8 as text", T1(FLD("n", "int8")), "T", D1, "{\"n\":\"x\"}", EIP712_BAD_VALUE,
	    "message.n: not an int8");

	/* malformed and cyclic types */
	rejects("cyclic pair of types", "{\"A\":[" FLD("b", "B") "],\"B\":[" FLD("a", "A") "]}", "A", D1, "{}",
	    EIP712_CYCLE, NULL);
	rejects("self-referencing type through an array", "{\"Node\":[" FLD("kids", "Node[]") "]}", "Node", D1,
	    "{\"kids\":[]}", EIP712_CYCLE, "types.Node: cyclic type");
	rejects("cycle in an unused type", "{\"T\":[" FLD("n", "uint8") "],\"U\":[" FLD("u", "U") "]}", "T", D1,
	    "{\"n\":1}", EIP712_CYCLE, NULL);
	rejects("field without a type", T1("{\"name\":\"n\"}"), "T", D1, "{\"n\":1}", EIP712_BAD_TYPES, NULL);
	rejects("field with an extra key", T1("{\"name\":\"n\",\"type\":\"uint8\",\"x\":1}"), "T", D1, "{\"n\":1}",
	    EIP712_BAD_TYPES, NULL);
	rejects("duplicate field names", T1(FLD("n", "uint8") "," FLD("n", "uint16")), "T", D1, "{\"n\":1}",
	    EIP712_BAD_TYPES, "types.T[1]: duplicate field name \"n\"");
	rejects("bad type name", "{\"T x\":[" FLD("n", "uint8") "]}", "T x", D1, "{\"n\":1}", EIP712_BAD_TYPES, NULL);
	rejects("struct named like an atomic type", "{\"uint256\":[" FLD("n", "uint8") "]}", "uint256", D1,
	    "{\"n\":1}", EIP712_BAD_TYPES, NULL);
	rejects("bad field name", T1(FLD("a,b", "uint8")), "T", D1, "{}", EIP712_BAD_TYPES, NULL);
	rejects("zero-length array type", T1(FLD("a", "uint8[0]")), "T", D1, "{\"a\":[]}", EIP712_BAD_TYPES, NULL);
	rejects("array length with a leading zero", T1(FLD("a", "uint8[01]")), "T", D1, "{\"a\":[1]}",
	    EIP712_BAD_TYPES, NULL);
	rejects("unclosed array suffix", T1(FLD("a", "uint8[")), "T", D1, "{\"a\":[1]}", EIP712_BAD_TYPES, NULL);
	rejects("uint7", T1(FLD("a", "uint7")), "T", D1, "{\"a\":1}", EIP712_UNKNOWN_TYPE, NULL);
	rejects("uint264", T1(FLD("a", "uint264")), "T", D1, "{\"a\":1}", EIP712_UNKNOWN_TYPE, NULL);
	rejects("bytes33", T1(FLD("a", "bytes33")), "T", D1, "{\"a\":\"0x00\"}", EIP712_UNKNOWN_TYPE, NULL);
	rejects("bare uint", T1(FLD("a", "uint")), "T", D1, "{\"a\":1}", EIP712_UNKNOWN_TYPE, NULL);
	rejects("types not an object", "[]", "T", D1, "{}", EIP712_BAD_INPUT, NULL);
	rejects("fields not an array", "{\"T\":{}}", "T", D1, "{}", EIP712_BAD_TYPES, NULL);

	/* nesting depth: a chain of 16 structs is fine, 17 is not */
	{
		char types[2048];
		size_t len = 0;
		int levels[2] = { 16, 17 };

		for (int k = 0; k < 2; k++) {
			len = 0;
			types[len++] = '{';
			for (int i = 0; i < levels[k]; i++) {
				int n = i + 1 < levels[k]
				    ? snprintf(types + len, sizeof(types) - len,
					  "%s\"S%02d\":[{\"name\":\"x\",\"type\":\"S%02d\"}]", i ? "," : "", i, i + 1)
				    : snprintf(types + len, sizeof(types) - len,
					  "%s\"S%02d\":[{\"name\":\"x\",\"type\":\"uint8\"}]", i ? "," : "", i);
				if (n > 0)
					len += (size_t)n;
			}
			snprintf(types + len, sizeof(types) - len, "}");
			json_object *t = parse(types);
			uint8_t h[32];
			enum eip712_err e = eip712_type_hash(t, "S00", h, err, sizeof(err));

			ok(k == 0 ? e == EIP712_OK : e == EIP712_CYCLE, "chain of %d nested structs: %s", levels[k],
			    eip712_strerror(e));
			json_object_put(t);
		}
	}

	/* array dimensions: 8 suffixes are fine, 9 are not */
	rejects("9 array dimensions", T1(FLD("a", "uint8[][][][][][][][][]")), "T", D1, "{\"a\":[]}",
	    EIP712_BAD_TYPES, NULL);
	{
		json_object *t = parse(T1(FLD("a", "uint8[][][][][][][][]")));
		uint8_t h[32];

		ok(eip712_type_hash(t, "T", h, err, sizeof(err)) == EIP712_OK, "8 array dimensions accepted");
		json_object_put(t);
	}

	/* value nesting: 13 structs each under three array levels, filled all the way down */
	{
		char types[4096], msg[4096];
		size_t tl = 0, ml = 0;
		int n;

		types[tl++] = '{';
		for (int i = 0; i < 13; i++) {
			n = i < 12 ? snprintf(types + tl, sizeof(types) - tl,
					 "%s\"S%02d\":[{\"name\":\"x\",\"type\":\"S%02d[][][]\"}]", i ? "," : "", i, i + 1)
				   : snprintf(types + tl, sizeof(types) - tl,
					 "%s\"S%02d\":[{\"name\":\"x\",\"type\":\"uint8\"}]", i ? "," : "", i);
			tl += n > 0 ? (size_t)n : 0;
		}
		snprintf(types + tl, sizeof(types) - tl, "}");
		for (int i = 0; i < 12; i++) {
			n = snprintf(msg + ml, sizeof(msg) - ml, "{\"x\":[[[");
			ml += n > 0 ? (size_t)n : 0;
		}
		n = snprintf(msg + ml, sizeof(msg) - ml, "{\"x\":1}");
		ml += n > 0 ? (size_t)n : 0;
		for (int i = 0; i < 12; i++) {
			n = snprintf(msg + ml, sizeof(msg) - ml, "]]]}");
			ml += n > 0 ? (size_t)n : 0;
		}
		json_object *t = parse(types);
		json_tokener *tok = json_tokener_new_ex(128);
		json_object *m = json_tokener_parse_ex(tok, msg, (int)ml);
		json_object *shallow = parse("{\"x\":[[[]]]}");
		uint8_t h[32];

		ok(m != NULL, "deep message parses (json-c depth 128)");
		ok(eip712_hash_struct(t, "S00", shallow, h, err, sizeof(err)) == EIP712_OK,
		    "a shallow value of a deep type is fine");
		ok(eip712_hash_struct(t, "S00", m, h, err, sizeof(err)) == EIP712_CYCLE, "value nested 49 levels: %s",
		    err);
		json_object_put(t);
		json_object_put(m);
		json_object_put(shallow);
		json_tokener_free(tok);
	}

	/* whole-object input */
	{
		json_object *o = parse("{\"types\":{},\"primaryType\":\"T\",\"domain\":{},\"message\":{},\"x\":1}");
		json_object *o2 = parse("{\"types\":{},\"primaryType\":1,\"domain\":{},\"message\":{}}");
		json_object *o3 = parse("{\"types\":{},\"domain\":{},\"message\":{}}");
		uint8_t h[32];

		ok(eip712_digest(o, h, err, sizeof(err)) == EIP712_BAD_INPUT, "unexpected top-level key (%s)", err);
		ok(eip712_digest(o2, h, err, sizeof(err)) == EIP712_BAD_PRIMARY, "primaryType not a string");
		ok(eip712_digest(o3, h, err, sizeof(err)) == EIP712_BAD_INPUT, "missing primaryType (%s)", err);
		ok(eip712_digest(NULL, h, err, sizeof(err)) == EIP712_BAD_INPUT, "NULL typed data");
		ok(eip712_digest(o, h, NULL, 0) == EIP712_BAD_INPUT, "NULL error buffer is allowed");
		json_object_put(o);
		json_object_put(o2);
		json_object_put(o3);
	}
	ok(strcmp(eip712_strerror(EIP712_CYCLE), "cyclic or too deeply nested type") == 0 &&
	    strcmp(eip712_strerror(EIP712_ERR__MAX), "unknown error") == 0, "strerror");
}

/* Domain rules of the fixed kinds. */
static void
test_typed_domains(void)
{
	struct addr c = addr_of("0xb7f990Ef5C59a6A50Fb226f0687D3FB43cF1Cd66");
	struct addr zero = { { 0 } };
	json_object *msg = parse("{\"txHash\":\"0xabababababababababababababababababababababababababababababababab\","
				 "\"action\":\"publish\"}");
	json_object *review = parse("{\"routeId\":\"0x01\"}");
	uint8_t h[32];
	struct typed_domain d;
	json_object *o;

	diag("typed domains");
	d = (struct typed_domain){ .chain_id = 8453, .verifying_contract = &c };
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) == 0, "review domain from defaults");
	d.name = "Boon X402 Review";
	d.version = "1";
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) == 0, "review: the fixed values may be restated");
	d.version = "2";
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) < 0, "review: another version rejected");
	is_str(err, "domain.version: fixed for this kind", "review version message");
	d = (struct typed_domain){ .name = "Other", .chain_id = 8453, .verifying_contract = &c };
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) < 0, "review: another name rejected");
	d = (struct typed_domain){ .chain_id = 8453 };
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) < 0,
	    "review: verifyingContract required");
	d = (struct typed_domain){ .chain_id = 8453, .verifying_contract = &zero };
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) < 0, "zero verifyingContract rejected");
	d = (struct typed_domain){ .verifying_contract = &c };
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) < 0, "chainId required");
	d = (struct typed_domain){ .chain_id = TYPED_MAX_CHAIN_ID + 1, .verifying_contract = &c };
	ok(typed_domain_separator(TYPED_X402_REVIEW, &d, h, err, sizeof(err)) < 0, "chainId above 2^53-1 rejected");
	d = (struct typed_domain){ .chain_id = 8453, .verifying_contract = &c };
	ok(typed_domain_separator(TYPED_ROUTE_NOTE_OFFER, &d, h, err, sizeof(err)) < 0,
	    "route note offer: no verifyingContract");
	is_str(err, "domain.verifyingContract: not part of this domain", "route note offer message");
	d = (struct typed_domain){ .chain_id = 8453 };
	ok(typed_domain_separator(TYPED_X402_OFFER, &d, h, err, sizeof(err)) < 0, "x402 offer: chainId is fixed at 1");
	d = (struct typed_domain){ .chain_id = 1 };
	ok(typed_domain_separator(TYPED_X402_OFFER, &d, h, err, sizeof(err)) == 0, "x402 offer: chainId 1 accepted");
	d = (struct typed_domain){ .version = "2", .chain_id = 8453, .verifying_contract = &c };
	ok(typed_domain_separator(TYPED_TRANSFER_WITH_AUTHORIZATION, &d, h, err, sizeof(err)) < 0,
	    "EIP-3009: the token name is required");
	is_str(err, "domain.name: required", "EIP-3009 name message");
	ok(typed_domain_separator(TYPED__MAX, &d, h, err, sizeof(err)) < 0, "out-of-range kind");
	d = (struct typed_domain){ .chain_id = 8453, .verifying_contract = &c };
	ok(typed_digest(TYPED_DISCLOSURE, &d, msg, h, err, sizeof(err)) == 0, "Disclosure under its default domain");
	o = typed_domain_new(TYPED_DISCLOSURE, &d, err, sizeof(err));
	ok(o != NULL && strcmp(str(o, "name"), "Boon Disclosure") == 0 && strcmp(str(o, "version"), "1") == 0 &&
	    json_object_is_type(get(o, "chainId"), json_type_int) &&
	    strcmp(str(o, "verifyingContract"), "0xb7f990ef5c59a6a50fb226f0687d3fb43cf1cd66") == 0,
	    "domain object: default name, JSON-number chainId, lowercase contract");
	json_object_put(o);
	ok(typed_digest(TYPED_X402_REVIEW, &d, review, h, err, sizeof(err)) < 0, "message checked against the kind");
	is_str(err, "message.routeId: not a bytes32 (0x and 64 hex digits)", "message error text");
	ok(typed_digest(TYPED_LINK, &d, msg, h, err, sizeof(err)) < 0, "a Disclosure message is not a Link");
	ok(typed_data_new(TYPED_LINK, &d, NULL, err, sizeof(err)) == NULL, "typed_data_new needs a message");

	/* the table */
	int good = 0;
	for (int k = 0; k < TYPED__MAX; k++) {
		enum typed_kind back;
		json_object *t = typed_types_new((enum typed_kind)k);

		if (t != NULL && typed_primary((enum typed_kind)k) != NULL && get(t, "EIP712Domain") != NULL &&
		    get(t, typed_primary((enum typed_kind)k)) != NULL &&
		    typed_kind_from_primary(typed_primary((enum typed_kind)k), &back) == 0 && (int)back == k)
			good++;
		json_object_put(t);
	}
	ok(good == TYPED__MAX, "every kind has parseable types with EIP712Domain (%d/%d)", good, TYPED__MAX);
	ok(typed_primary(TYPED__MAX) == NULL && typed_types_json(TYPED__MAX) == NULL, "out-of-range lookups");
	enum typed_kind k;
	ok(typed_kind_from_primary("Mail", &k) < 0 && typed_kind_from_primary(NULL, &k) < 0, "unknown primary");
	json_object_put(msg);
	json_object_put(review);
}

int
main(void)
{
	test_mail();
	test_batch();
	test_numbers();
	test_service_vectors();
	test_typehashes();
	test_vector_file();
	test_rejections();
	test_typed_domains();
	return done_testing();
}
