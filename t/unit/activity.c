/*
 * Profile activity (docs/PROTOCOL.md, Profile activity): the evidence
 * parser's valid and invalid shapes, the evidence key, the activity ID and
 * the activity review statement against values recomputed outside C
 * (SHA-256 of the documented texts), and reading transaction receipts for
 * the one USDC Transfer from a wallet (lib/settlement).
 */
#include <stdio.h>
#include <string.h>

#include "activity.h"
#include "buf.h"
#include "hex.h"
#include "json.h"
#include "settlement.h"
#include "tap.h"
#include "sig.h"
#include "banned.h"

#define USDC "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
#define TX1 "0x1111111111111111111111111111111111111111111111111111111111111111"
#define FORECAST_GET "0x4fa0fcdb54475d7e8c02c5fd1e4ffac0f2b5997975e9be2988a1d5759f8e6af0"
/* An official offer and receipt (signed by Anvil account 0), as in the receipt unit test. */
#define OFFER "{\"format\":\"eip712\",\"acceptIndex\":0,\"payload\":{\"version\":1," \
	"\"resourceUrl\":\"https://api.example.com/premium-data\",\"scheme\":\"exact\"," \
	"\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\"," \
	"\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"10000\"," \
	"\"validUntil\":1703123516},\"signature\":\"0x57073060e55da4e8a97e47dd390e7c2db8ac1fb7f53bbe0dc2" \
	"53a08267b3a9097f595505f2c47421ede1cc84c1360eba670ccd4011933ace67e6482abea885971b\"}"
#define RECEIPT "{\"format\":\"eip712\",\"payload\":{\"version\":1,\"network\":\"eip155:8453\"," \
	"\"resourceUrl\":\"https://api.example.com/premium-data\"," \
	"\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123456," \
	"\"transaction\":\"\"},\"signature\":\"0x4f98ad0be21e9eb48ec1aeb7a65f25100f7db10a8e1870aa4021cbd6" \
	"985013d01451045373c2f5f74ac168e90cee435f13284beaa500f570ab7584cdde05e1021c\"}"

/* The same pair, each with a signature of 65 bytes that recovers no key (r and s zero). */
#define NOKEY_SIG "0x000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001b"
#define OFFER_NOKEY "{\"format\":\"eip712\",\"acceptIndex\":0,\"payload\":{\"version\":1," \
	"\"resourceUrl\":\"https://api.example.com/premium-data\",\"scheme\":\"exact\"," \
	"\"network\":\"eip155:8453\",\"asset\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\"," \
	"\"payTo\":\"0x209693Bc6afc0C5328bA36FaF03C514EF312287C\",\"amount\":\"10000\"," \
	"\"validUntil\":1703123516},\"signature\":\"" NOKEY_SIG "\"}"
#define RECEIPT_NOKEY "{\"format\":\"eip712\",\"payload\":{\"version\":1,\"network\":\"eip155:8453\"," \
	"\"resourceUrl\":\"https://api.example.com/premium-data\"," \
	"\"payer\":\"0x857b06519E91e3A54538791bDbb0E22373e36b66\",\"issuedAt\":1703123456," \
	"\"transaction\":\"\"},\"signature\":\"" NOKEY_SIG "\"}"

static json_object *
parse(const char *s)
{
	json_object *o = NULL;
	struct json_error je;

	if (json_parse_strict(s, strlen(s), NULL, &o, &je) < 0)
		return NULL;
	return o;
}

static struct activity_evidence ev;

static enum activity_parse
try(const char *text, char *field, size_t fcap)
{
	json_object *o = parse(text);
	char why[320];
	enum activity_parse rc;

	rc = activity_evidence_parse(o, &ev, field, fcap, why, sizeof(why));
	json_object_put(o);
	return rc;
}

static void
evidence(void)
{
	static const struct {
		const char *text;
		enum activity_parse rc;
		const char *field;
		const char *what;
	} bad[] = {
		{ "[]", ACTIVITY_INVALID, "evidence", "not an object" },
		{ "{}", ACTIVITY_MISSING_MEMBER, "evidence.kind", "no kind" },
		{ "{\"kind\":1}", ACTIVITY_INVALID, "evidence.kind", "a kind that is not a string" },
		{ "{\"kind\":\"erc20_history\"}", ACTIVITY_INVALID, "evidence.kind", "an unknown kind" },
		{ "{\"kind\":\"usdc_transfer\"}", ACTIVITY_MISSING_MEMBER, "evidence.transaction", "no transaction" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\",\"url\":\"https://a.example.com/\"}",
		    ACTIVITY_UNKNOWN_MEMBER, "evidence.url", "a url on a plain transfer" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\",\"from\":\"x\"}",
		    ACTIVITY_UNKNOWN_MEMBER, "evidence.from", "an undeclared member" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"0xAB11111111111111111111111111111111111111111111111111111111111111\"}",
		    ACTIVITY_INVALID, "evidence.transaction", "uppercase hex" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"0x1111\"}", ACTIVITY_INVALID, "evidence.transaction",
		    "a short hash" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"0x0000000000000000000000000000000000000000000000000000000000000000\"}",
		    ACTIVITY_INVALID, "evidence.transaction", "the zero hash" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\",\"logIndex\":-1}", ACTIVITY_INVALID,
		    "evidence.logIndex", "a negative logIndex" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\",\"logIndex\":1.5}", ACTIVITY_INVALID,
		    "evidence.logIndex", "a fractional logIndex" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\",\"logIndex\":\"2\"}", ACTIVITY_INVALID,
		    "evidence.logIndex", "a logIndex string" },
		{ "{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\",\"logIndex\":2147483648}", ACTIVITY_INVALID,
		    "evidence.logIndex", "a logIndex past 2^31-1" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"GET\"}",
		    ACTIVITY_MISSING_MEMBER, "evidence.url", "a client settlement without url" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"get\",\"url\":\"https://api.example.com/v1/forecast\"}",
		    ACTIVITY_INVALID, "evidence.method", "a lowercase method" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"TRACE\",\"url\":\"https://api.example.com/v1/forecast\"}",
		    ACTIVITY_INVALID, "evidence.method", "a method outside the candidate set" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"GET\",\"url\":\"http://api.example.com/v1/forecast\"}",
		    ACTIVITY_INVALID, "evidence.url", "http" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"GET\",\"url\":\"https://api.example.com/v1/forecast?x=1\"}",
		    ACTIVITY_INVALID, "evidence.url", "a query" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"GET\",\"url\":\"https://127.0.0.1/x\"}",
		    ACTIVITY_INVALID, "evidence.url", "an IP literal" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"GET\",\"url\":\"https://localhost/x\"}",
		    ACTIVITY_INVALID, "evidence.url", "a local host" },
		{ "{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"GET\",\"url\":\"https://u:p@api.example.com/x\"}",
		    ACTIVITY_INVALID, "evidence.url", "credentials" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"GET\",\"offer\":" OFFER "}", ACTIVITY_MISSING_MEMBER,
		    "evidence.receipt", "an offer without its receipt" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"GET\",\"offer\":" OFFER ",\"receipt\":" RECEIPT ",\"logIndex\":1}",
		    ACTIVITY_UNKNOWN_MEMBER, "evidence.logIndex", "a logIndex on a receipt" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"GET\",\"offer\":" RECEIPT ",\"receipt\":" RECEIPT "}",
		    ACTIVITY_INVALID, "evidence.offer.payload.payer", "a receipt given as the offer" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"GET\",\"offer\":" OFFER_NOKEY ",\"receipt\":" RECEIPT "}",
		    ACTIVITY_UNVERIFIED, "evidence.offer.signature", "an offer signature that recovers no key" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"GET\",\"offer\":" OFFER ",\"receipt\":" RECEIPT_NOKEY "}",
		    ACTIVITY_UNVERIFIED, "evidence.receipt.signature", "a receipt signature that recovers no key" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"GET\",\"offer\":" OFFER_NOKEY ",\"receipt\":" RECEIPT_NOKEY "}",
		    ACTIVITY_UNVERIFIED, "evidence.offer.signature", "neither recovers a key: the offer named first" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"GET\",\"offer\":" OFFER_NOKEY ",\"receipt\":" OFFER "}",
		    ACTIVITY_INVALID, "evidence.receipt.acceptIndex", "an offer that recovers no key, a malformed receipt: 400 first" },
		{ "{\"kind\":\"x402_receipt\",\"method\":\"TRACE\",\"offer\":" OFFER_NOKEY ",\"receipt\":" RECEIPT "}",
		    ACTIVITY_INVALID, "evidence.method", "an offer that recovers no key, a bad method: 400 first" },
	};
	char field[96], hx[67];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		enum activity_parse rc = try(bad[i].text, field, sizeof(field));

		ok(rc == bad[i].rc && strcmp(field, bad[i].field) == 0, "evidence refused: %s (%s, got %s rc %d)",
		    bad[i].what, bad[i].field, field, (int)rc);
	}
	ok(try("{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\"}", field, sizeof(field)) == ACTIVITY_OK &&
	    ev.kind == ACTIVITY_USDC_TRANSFER && ev.log_index == -1, "usdc_transfer without logIndex");
	ok(try("{\"transaction\":\"" TX1 "\",\"logIndex\":7,\"kind\":\"usdc_transfer\"}", field,
	    sizeof(field)) == ACTIVITY_OK && ev.log_index == 7 && ev.tx[0] == 0x11, "usdc_transfer with logIndex 7");
	ok(try("{\"kind\":\"client_settlement\",\"transaction\":\"" TX1 "\",\"method\":\"GET\","
	    "\"url\":\"https://API.example.com:443/v1/./forecast\"}", field, sizeof(field)) == ACTIVITY_OK,
	    "client_settlement with a URL that normalizes");
	is_str(hex_encode(ev.route_id, 32, hx), FORECAST_GET, "  its route ID is GET https://api.example.com/v1/forecast's");
	is_str(ev.origin, "https://api.example.com", "  normalized origin");
	is_str(ev.path, "/v1/forecast", "  normalized path");
	ok(try("{\"kind\":\"x402_receipt\",\"method\":\"POST\",\"offer\":" OFFER ",\"receipt\":" RECEIPT "}", field,
	    sizeof(field)) == ACTIVITY_OK && ev.kind == ACTIVITY_X402_RECEIPT, "x402_receipt with an official pair");
	is_str(ev.path, "/premium-data", "  its route's path comes from the receipt's resourceUrl");
	is_str(ev.method, "POST", "  and the method from the evidence");
}

static void
identity(void)
{
	static const uint8_t pid[16] = { 0x01, 0x23, 0xab, 0xcd, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xab, 0xcd };
	uint8_t key[32], id[32], dg[32], b32[32];
	char hx[67], field[96];
	json_object *st;
	struct buf b;
	struct activity_review_in in;

	ok(try("{\"kind\":\"usdc_transfer\",\"transaction\":\"" TX1 "\"}", field, sizeof(field)) == ACTIVITY_OK,
	    "a transfer to key");
	ok(activity_evidence_key(&ev, "eip155:8453", 3, key) == 0, "evidence key");
	is_str(hex_encode(key, 32, hx), "0xdc3abdbcde380d47c17dcca216ea9fa11a0520d443586c6209cc9ed6204864f0",
	    "  = SHA-256 of the documented text (kind, network, transaction, log index)");
	ok(activity_id(pid, key, id) == 0, "activity ID");
	is_str(hex_encode(id, 32, hx), "0x5c9e28ee2dcb37d75a318edb1b0e2d47c24df570e0ec0c1f505de11c874ed5b7",
	    "  = SHA-256 of the documented text (profile UUID, key)");
	ok(activity_evidence_key(&ev, "eip155:8453", 4, b32) == 0 && memcmp(b32, key, 32) != 0,
	    "another log index is another key");
	ok(activity_evidence_key(&ev, "eip155:84532", 3, b32) == 0 && memcmp(b32, key, 32) != 0,
	    "another network is another key");
	ev.kind = ACTIVITY_CLIENT_SETTLEMENT;
	ok(activity_evidence_key(&ev, "eip155:8453", 3, b32) == 0 && memcmp(b32, key, 32) != 0,
	    "the same settlement attested for a route is another fact than the paid settlement");

	memset(b32, 0x22, 32);
	memset(id, 0x33, 32);
	memset(key, 0x11, 32);
	in = (struct activity_review_in){ .profile_id = "0123abcd-0000-4000-8000-00000000abcd", .activity_id = b32,
		.route_id = id, .network = "eip155:8453", .tx = key, .log_index = 3,
		.reviewer = "eip155:8453:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		.text = "Fast answer, matched the docs \xe2\x80\x94 \xe2\x80\x9cok\xe2\x80\x9d.",
		.created_at = 1700000000 };
	in.text_len = strlen(in.text);
	st = activity_review_statement(&in, dg);
	ok(st != NULL, "review statement");
	buf_init(&b, 4096);
	json_canonical(st, &b);
	is_str(buf_str(&b), "{\"activityId\":\"0x2222222222222222222222222222222222222222222222222222222222222222\","
	    "\"createdAt\":1700000000,\"profileId\":\"0123abcd-0000-4000-8000-00000000abcd\",\"reviewText\":"
	    "\"Fast answer, matched the docs \xe2\x80\x94 \xe2\x80\x9cok\xe2\x80\x9d.\",\"reviewer\":"
	    "\"eip155:8453:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\",\"routeId\":"
	    "\"0x3333333333333333333333333333333333333333333333333333333333333333\",\"settlement\":{\"logIndex\":3,"
	    "\"network\":\"eip155:8453\",\"transaction\":"
	    "\"0x1111111111111111111111111111111111111111111111111111111111111111\"},\"version\":\"1\"}",
	    "  its canonical JSON binds profile, activity, route, settlement, signer, text and time");
	buf_release(&b);
	is_str(hex_encode(dg, 32, hx), "0xfe33e70ac89af3d7d70e0737af6f1247befd631b636a92a8f45f3edfce768ce5",
	    "  its digest is SHA-256 of that text");
	json_object_put(st);
	in.created_at = 1700000001;
	st = activity_review_statement(&in, b32);
	ok(st != NULL && memcmp(b32, dg, 32) != 0, "another createdAt, another digest");
	json_object_put(st);
}

/* A receipt with the given status and logs (a JSON array text). */
static json_object *
receipt_of(const char *status, const char *logs)
{
	char text[8192];

	snprintf(text, sizeof(text), "{\"transactionHash\":\"" TX1 "\",\"blockNumber\":\"0x2a\",\"blockHash\":"
	    "\"0x4444444444444444444444444444444444444444444444444444444444444444\",\"status\":\"%s\","
	    "\"logs\":%s}", status, logs);
	return parse(text);
}

#define TOPIC_T "\"0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef\""
#define WALLET "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
#define T_WALLET "\"0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8\""
#define T_PAYEE "\"0x0000000000000000000000005555555555555555555555555555555555555555\""
#define T_OTHER "\"0x0000000000000000000000009999999999999999999999999999999999999999\""
#define V10000 "\"0x0000000000000000000000000000000000000000000000000000000000002710\""
#define LOG(addr, t1, t2, data, idx) "{\"address\":\"" addr "\",\"topics\":[" TOPIC_T "," t1 "," t2 "]," \
	"\"data\":" data ",\"logIndex\":\"" idx "\",\"removed\":false}"

static void
settlements(void)
{
	struct settlement_want w = { .log_index = -1 };
	struct settlement s;
	struct addr payee, other;
	struct u256 v;
	json_object *r;
	char a[ADDR_TEXT_LEN + 1];
	static const struct {
		const char *status, *logs;
		int64_t log_index;
		enum settlement_rc rc;
		const char *what;
	} cases[] = {
		{ "0x1", "[" LOG(USDC, T_WALLET, T_PAYEE, V10000, "0x3") "]", -1, SETTLEMENT_OK, "one USDC Transfer from the wallet" },
		{ "0x0", "[" LOG(USDC, T_WALLET, T_PAYEE, V10000, "0x3") "]", -1, SETTLEMENT_FAILED, "a failed transaction" },
		{ "0x2", "[]", -1, SETTLEMENT_BAD_REPLY, "a status that is neither 0 nor 1" },
		{ "0x1", "[" LOG("0x5Bec0bD17D16641660D66d82da4cF78b46B9EBA3", T_WALLET, T_PAYEE, V10000, "0x3") "]", -1,
		    SETTLEMENT_NO_TRANSFER, "a Transfer of another token" },
		{ "0x1", "[" LOG(USDC, T_OTHER, T_PAYEE, V10000, "0x3") "]", -1, SETTLEMENT_NO_TRANSFER,
		    "a Transfer from another wallet" },
		{ "0x1", "[" LOG(USDC, T_OTHER, T_WALLET, V10000, "0x3") "]", -1, SETTLEMENT_NO_TRANSFER,
		    "a Transfer to the wallet" },
		{ "0x1", "[" LOG(USDC, T_WALLET, T_PAYEE, V10000, "0x3") "," LOG(USDC, T_WALLET, T_OTHER, V10000, "0x5") "]",
		    -1, SETTLEMENT_AMBIGUOUS, "two Transfers from the wallet, no logIndex" },
		{ "0x1", "[" LOG(USDC, T_WALLET, T_PAYEE, V10000, "0x3") "," LOG(USDC, T_WALLET, T_OTHER, V10000, "0x5") "]",
		    5, SETTLEMENT_OK, "two Transfers, logIndex 5 names one" },
		{ "0x1", "[" LOG(USDC, T_OTHER, T_PAYEE, V10000, "0x3") "," LOG(USDC, T_WALLET, T_OTHER, V10000, "0x5") "]",
		    3, SETTLEMENT_NO_TRANSFER, "logIndex names someone else's Transfer" },
		{ "0x1", "[" LOG(USDC, T_WALLET, T_PAYEE, V10000, "0x3") "]", 4, SETTLEMENT_NO_TRANSFER, "logIndex of no log" },
		{ "0x1", "[{\"address\":\"" USDC "\",\"topics\":[" TOPIC_T "," T_WALLET "," T_PAYEE "],\"data\":" V10000
		    ",\"logIndex\":\"0x3\",\"removed\":true}]", -1, SETTLEMENT_NO_TRANSFER, "a removed log" },
		{ "0x1", "[" LOG(USDC, T_WALLET, T_PAYEE, "\"0x0000000000000000000000000000000000000000000000000000000000000000\"",
		    "0x3") "]", -1, SETTLEMENT_ZERO, "a zero-value Transfer" },
		{ "0x1", "[" LOG(USDC, T_WALLET, T_PAYEE, "\"0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\"",
		    "0x3") "]", -1, SETTLEMENT_TOO_LARGE, "a value past DECIMAL(65)" },
		{ "0x1", "[" LOG(USDC, "\"0x0000000000000000000000010000000000000000000000000000000000000001\"", T_PAYEE,
		    V10000, "0x3") "]", -1, SETTLEMENT_NO_TRANSFER, "a topic with dirty upper bytes" },
		{ "0x1", "[{\"address\":\"" USDC "\",\"topics\":[" TOPIC_T "," T_WALLET "],\"data\":" V10000
		    ",\"logIndex\":\"0x3\"}]", -1, SETTLEMENT_NO_TRANSFER, "a Transfer without its payee topic" },
		{ "0x1", "[null, 1, \"x\"]", -1, SETTLEMENT_NO_TRANSFER, "logs of other types" },
		{ "0x1", "[" LOG(USDC, T_WALLET, T_PAYEE, V10000, "0x80000000") "]", -1, SETTLEMENT_NO_TRANSFER,
		    "a log index past 2^31-1" },
	};

	addr_parse(WALLET, strlen(WALLET), &w.from);
	addr_parse(USDC, strlen(USDC), &w.token);
	hex_decode_fixed(TX1, 66, w.tx, 32, true);
	addr_parse("0x5555555555555555555555555555555555555555", 42, &payee);
	addr_parse("0x9999999999999999999999999999999999999999", 42, &other);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum settlement_rc rc;

		r = receipt_of(cases[i].status, cases[i].logs);
		w.log_index = cases[i].log_index;
		rc = settlement_read(r, &w, &s);
		ok(r != NULL && rc == cases[i].rc, "receipt: %s (rc %d)", cases[i].what, (int)rc);
		if (i == 0) {
			is_str(s.amount, "10000", "  amount");
			is_str(addr_format(&s.to, a), "0x5555555555555555555555555555555555555555", "  payee");
			ok(s.log_index == 3 && s.block_number == 42 && s.block_hash[0] == 0x44, "  log index and block");
		}
		if (i == 7)
			ok(addr_eq(&s.to, &other) && s.log_index == 5, "  the Transfer at logIndex 5");
		json_object_put(r);
	}
	w.log_index = -1;
	ok(settlement_read(NULL, &w, &s) == SETTLEMENT_UNKNOWN_TX, "no receipt: an unknown transaction");
	r = parse("null");
	ok(settlement_read(r, &w, &s) == SETTLEMENT_UNKNOWN_TX, "a JSON null receipt: unknown");
	r = parse("{\"transactionHash\":\"0x2222222222222222222222222222222222222222222222222222222222222222\","
	    "\"blockNumber\":\"0x2a\",\"blockHash\":\"0x4444444444444444444444444444444444444444444444444444444444444444\","
	    "\"status\":\"0x1\",\"logs\":[]}");
	ok(settlement_read(r, &w, &s) == SETTLEMENT_BAD_REPLY, "a receipt of another transaction: a bad reply");
	json_object_put(r);
	/* A receipt's own settlement: payee and value given, equal candidates take the first. */
	r = receipt_of("0x1", "[" LOG(USDC, T_WALLET, T_OTHER, V10000, "0x1") "," LOG(USDC, T_WALLET, T_PAYEE,
	    V10000, "0x2") "," LOG(USDC, T_WALLET, T_PAYEE, V10000, "0x3") "]");
	u256_from_u64(&v, 10000);
	w.to = &payee;
	w.value = &v;
	ok(settlement_read(r, &w, &s) == SETTLEMENT_OK && s.log_index == 2, "payee and value given: the first match");
	u256_from_u64(&v, 9999);
	ok(settlement_read(r, &w, &s) == SETTLEMENT_NO_TRANSFER, "another value: no match");
	json_object_put(r);
	for (int rc = 0; rc < SETTLEMENT_RC__MAX; rc++)
		ok(settlement_strerror((enum settlement_rc)rc)[0] != '\0', "a sentence for rc %d", rc);
}

int
main(void)
{
	if (!ok(sig_init() == 0, "sig_init, once before anything recovers (lib/sig.h)"))
		return done_testing();
	evidence();
	identity();
	settlements();
	return done_testing();
}
