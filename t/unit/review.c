/* Review text rules, the publication window, and the V1 object and digest. */
#include <string.h>

#include "hex.h"
#include "json.h"
#include "review.h"
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
	{ "ls\xe2\x80\xa8here", 1, "U+2028 inside the text (only trimming applies)" },
	{ "bad\xffutf8", 0, "invalid UTF-8" },
	{ "lone\xed\xa0\x80surrogate", 0, "UTF-8 surrogate" },
};

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
	return done_testing();
}
