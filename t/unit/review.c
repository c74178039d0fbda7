/* Review text rules, the publication window, and the V1 and V3 objects and digests. */
#include <string.h>

#include "hex.h"
#include "json.h"
#include "review.h"
#include "sig.h"
#include "tap.h"
#include "banned.h"

struct text_case {
	const char *text;
	int ok;
	const char *what;
};

static const struct text_case texts[] = {
	{ "Fast and correct.", 1, "plain ASCII" },
	{ "Très rapide — 東京 ✓", 1, "non-ASCII letters and symbols" },
	{ "a", 1, "one character" },
	{ "", 0, "empty" },
	{ " leading", 0, "leading space" },
	{ "trailing ", 0, "trailing space" },
	{ "\xc2\xa0nbsp", 0, "leading no-break space (JavaScript trims it)" },
	{ "nbsp\xe3\x80\x80", 0, "trailing ideographic space" },
	{ "inner  spaces are fine", 1, "inner spaces" },
	{ "two\nlines", 0, "line feed" },
	{ "tab\there", 0, "tab" },
	{ "cr\rhere", 0, "carriage return" },
	{ "del\x7fhere", 0, "DEL" },
	{ "c1\xc2\x85here", 0, "C1 next line" },
	{ "bidi\xe2\x80\xaehere", 0, "right-to-left override" },
	{ "iso\xe2\x81\xa6here", 0, "left-to-right isolate" },
	{ "ls\xe2\x80\xa8here", 0, "U+2028 line separator inside the text (a line break)" },
	{ "ps\xe2\x80\xa9here", 0, "U+2029 paragraph separator inside the text (a line break)" },
	{ "bad\xffutf8", 0, "invalid UTF-8" },
	{ "lone\xed\xa0\x80surrogate", 0, "UTF-8 surrogate" },
};

/* V3: the viem vector of t/vectors/eip712-boon.json (X402SelfReportedReview). */
static void
v3_cases(void)
{
	static const char *const head = "{\"version\":\"3\",\"policyVersion\":\"boon.x402-review-policy/v3\","
	    "\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",";
	static const struct { const char *rest; const char *field; } bad[] = {
		{ "\"reviewer\":\"0x0000000000000000000000000000000000000000\",\"reviewText\":\"x\",\"createdAt\":1}", "review.reviewer" },
		{ "\"reviewer\":\"0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226\",\"reviewText\":\"x\",\"createdAt\":1}", "review.reviewer" },
		{ "\"reviewer\":\"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\",\"reviewText\":\"a\\nb\",\"createdAt\":1}", "review.reviewText" },
		{ "\"reviewer\":\"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\",\"reviewText\":\"x\",\"createdAt\":0}", "review.createdAt" },
		{ "\"reviewer\":\"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\",\"reviewText\":\"x\"}", "review.createdAt" },
		{ "\"reviewer\":\"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\",\"reviewText\":\"x\",\"createdAt\":1,\"recognitionTxHash\":\"0x\"}", "review.recognitionTxHash" },
	};
	const char *good = "{\"version\":\"3\",\"policyVersion\":\"boon.x402-review-policy/v3\","
	    "\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\","
	    "\"reviewer\":\"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\","
	    "\"reviewText\":\"Tr\\u00e8s bien: caf\\u00e9, \\u6771\\u4eac and emoji \\ud83d\\ude80 all hash as UTF-8.\","
	    "\"createdAt\":1767225600}";
	const char *sighex = "0xe145cade853826a22f18eb6fb4dcb088ffd0199c4ea5bd2ab674965b51598c0676c997958348b3bbbbffad29422d24a4e3c83415c5c4915fe4c19f1141744ad51b";
	char why[256], field[64], hexd[67], js[512];
	struct review_v3 v;
	struct addr companion, signer;
	struct json_error je;
	struct sig sg;
	json_object *o = NULL;
	uint8_t d[32];

	addr_parse("0xb7f990Ef5C59a6A50Fb226f0687D3FB43cF1Cd66", 42, &companion);
	if (!ok(json_parse_strict(good, strlen(good), NULL, &o, &je) == 0, "V3 vector body parses"))
		return;
	ok(review_v3_parse(o, &v, field, sizeof(field), why, sizeof(why)) == 0 && v.created_at == 1767225600,
	    "V3 object parses (%s)", why);
	ok(review_v3_digest(&v, 8453, &companion, d) == 0 &&
	    strcmp(hex_encode(d, 32, hexd), "0x448149a13e8f7ae73eca5260a9853247da4f28f3612eeb1354e13af505fe2a7a") == 0,
	    "the V3 digest equals viem's (got %s)", hexd);
	ok(sig_init() == 0 && sig_parse_hex(sighex, strlen(sighex), &sg) == SIG_OK &&
	    sig_recover(d, &sg, &signer) == SIG_OK && addr_eq(&signer, &v.reviewer),
	    "viem's signature recovers to the reviewer");
	json_object_put(o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(js, sizeof(js), "%s%s", head, bad[i].rest);
		o = NULL;
		json_parse_strict(js, strlen(js), NULL, &o, &je);
		ok(review_v3_parse(o, &v, field, sizeof(field), why, sizeof(why)) < 0 &&
		    strcmp(field, bad[i].field) == 0, "V3 refused, naming %s (got %s: %s)", bad[i].field, field, why);
		json_object_put(o);
	}
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_int(3));
	ok(review_v3_parse(o, &v, field, sizeof(field), why, sizeof(why)) < 0, "V3 refuses a partial object");
	json_object_put(o);
}

int
main(void)
{
	char why[256], field[64], big[1100];
	struct review_v1 v;
	json_object *o = NULL;
	struct json_error je;
	uint8_t d[32];
	struct addr companion;
	const char *body = "{\"version\":\"1\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\","
	    "\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\","
	    "\"recognitionLogIndex\":7,\"reviewText\":\"Fast, accurate weather data; paid once and it just worked.\","
	    "\"createdAt\":1767225600}";

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		ok((review_text_check(texts[i].text, strlen(texts[i].text), why, sizeof(why)) == 0) == texts[i].ok,
		    "text %s: %s", texts[i].ok ? "accepted" : "refused", texts[i].what);
	memset(big, 'x', 1000);
	ok(review_text_check(big, 1000, why, sizeof(why)) == 0, "1000 bytes accepted");
	ok(review_text_check(big, 1001, why, sizeof(why)) < 0, "1001 bytes refused");

	ok(review_window_check(1000000, 1000000, why, sizeof(why)) == 0, "signed now");
	ok(review_window_check(1000000 - 86400, 1000000, why, sizeof(why)) == 0, "signed exactly 24 h ago");
	ok(review_window_check(1000000 - 86401, 1000000, why, sizeof(why)) < 0, "signed 24 h and 1 s ago");
	ok(review_window_check(1000000 + 300, 1000000, why, sizeof(why)) == 0, "5 minutes of clock skew");
	ok(review_window_check(1000000 + 301, 1000000, why, sizeof(why)) < 0, "further in the future");

	/* The viem vector of t/vectors/eip712-boon.json (X402Review) has this digest. */
	if (!ok(json_parse_strict(body, strlen(body), NULL, &o, &je) == 0, "vector body parses"))
		return done_testing();
	ok(review_v1_parse(o, &v, field, sizeof(field), why, sizeof(why)) == 0 && v.log_index == 7 &&
	    v.created_at == 1767225600, "V1 object parses");
	addr_parse("0xb7f990Ef5C59a6A50Fb226f0687D3FB43cF1Cd66", 42, &companion);
	{
		char hexd[67];

		ok(review_v1_digest(&v, 8453, &companion, d) == 0 &&
		    strcmp(hex_encode(d, 32, hexd), "0x7159404f0fbe8e5b3d50df5e1a36ae37bb48da8ad0e6c1160c7db656a0d96255") == 0,
		    "the digest equals viem's for the same review (got %s)", hexd);
	}
	json_object_put(o);
	{
		static const struct { const char *json; const char *field; } bad[] = {
			{ "{\"version\":\"2\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":7,\"reviewText\":\"x\",\"createdAt\":1}", "review.version" },
			{ "{\"version\":\"1\",\"routeId\":\"0x0000000000000000000000000000000000000000000000000000000000000000\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":7,\"reviewText\":\"x\",\"createdAt\":1}", "review.routeId" },
			{ "{\"version\":\"1\",\"routeId\":\"0xE93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":7,\"reviewText\":\"x\",\"createdAt\":1}", "review.routeId" },
			{ "{\"version\":\"1\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":\"7\",\"reviewText\":\"x\",\"createdAt\":1}", "review.recognitionLogIndex" },
			{ "{\"version\":\"1\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":7,\"reviewText\":\"x\",\"createdAt\":0}", "review.createdAt" },
			{ "{\"version\":\"1\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":7,\"reviewText\":\"x\",\"createdAt\":9007199254740992}", "review.createdAt" },
			{ "{\"version\":\"1\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":7,\"reviewText\":\"x\"}", "review.createdAt" },
			{ "{\"version\":\"1\",\"routeId\":\"0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73\",\"recognitionTxHash\":\"0xabababababababababababababababababababababababababababababababab\",\"recognitionLogIndex\":7,\"reviewText\":\"x\",\"createdAt\":1,\"more\":1}", "review.more" },
			{ "[1]", "review" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			o = NULL;
			json_parse_strict(bad[i].json, strlen(bad[i].json), NULL, &o, &je);
			ok(review_v1_parse(o, &v, field, sizeof(field), why, sizeof(why)) < 0 &&
			    strcmp(field, bad[i].field) == 0, "refused, naming %s (got %s: %s)", bad[i].field, field, why);
			json_object_put(o);
		}
	}
	v3_cases();
	return done_testing();
}
