/*
 * libFuzzer target for the x402 offer-receipt artifacts (lib/receipt.c):
 * the input, parsed strictly as JSON, is read both as a signed offer and
 * as a signed receipt. A refusal names a member and gives a sentence, both
 * NUL-terminated UTF-8 (they reach API error bodies). An acceptance holds
 * bounded, NUL-terminated fields of the documented shapes: an https
 * resource URL of at most 2048 bytes, an eip155 network, a positive atomic
 * amount, a transaction that is empty or a 32-byte hash, safe integers.
 */
#include <strings.h>

#include <json-c/json.h>

#include "fuzz.h"
#include "json.h"
#include "receipt.h"
#include "banned.h"

static void
why_ok(const char *field, size_t fcap, const char *why, size_t cap)
{
	CHECK(fuzz_cstr_ok(field, fcap));
	CHECK(fuzz_cstr_ok(why, cap) && why[0] != '\0');
}

static void
url_ok(const char *u, size_t cap)
{
	size_t n = strnlen(u, cap);

	CHECK(n < cap && n <= RECEIPT_URL_MAX && strncasecmp(u, "https:", 6) == 0);
	CHECK(strpbrk(u, "?#") == NULL);
}

static void
network_ok(const char *s, size_t cap)
{
	CHECK(strnlen(s, cap) < cap && strncmp(s, "eip155:", 7) == 0 && s[7] >= '1' && s[7] <= '9');
	CHECK(strspn(s + 7, "0123456789") == strlen(s + 7));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct receipt_offer of;
	static struct receipt rc;
	json_object *o = NULL;
	struct json_error je;
	char field[64], why[256];

	if (json_parse_strict((const char *)data, size, NULL, &o, &je) < 0)
		return 0;
	memset(field, 0x55, sizeof(field));
	memset(why, 0x55, sizeof(why));
	if (receipt_offer_parse(o, &of, field, sizeof(field), why, sizeof(why)) < 0) {
		why_ok(field, sizeof(field), why, sizeof(why));
	} else {
		url_ok(of.resource_url, sizeof(of.resource_url));
		network_ok(of.network, sizeof(of.network));
		CHECK(strnlen(of.scheme, sizeof(of.scheme)) < sizeof(of.scheme) && of.scheme[0] != '\0');
		CHECK(strnlen(of.amount, sizeof(of.amount)) < sizeof(of.amount) && of.amount[0] >= '1' &&
		    of.amount[0] <= '9' && strspn(of.amount, "0123456789") == strlen(of.amount));
		CHECK(strlen(of.asset) == ADDR_TEXT_LEN && strlen(of.pay_to) == ADDR_TEXT_LEN);
		CHECK(!addr_is_zero(&of.pay_to_addr) && of.valid_until <= 9007199254740991ULL);
	}
	memset(field, 0x55, sizeof(field));
	memset(why, 0x55, sizeof(why));
	if (receipt_parse(o, &rc, field, sizeof(field), why, sizeof(why)) < 0) {
		why_ok(field, sizeof(field), why, sizeof(why));
	} else {
		url_ok(rc.resource_url, sizeof(rc.resource_url));
		network_ok(rc.network, sizeof(rc.network));
		CHECK(strlen(rc.payer) == ADDR_TEXT_LEN && rc.issued_at <= 9007199254740991ULL);
		CHECK(rc.transaction[0] == '\0' || (strlen(rc.transaction) == 66 &&
		    strncmp(rc.transaction, "0x", 2) == 0 &&
		    strspn(rc.transaction + 2, "0123456789abcdefABCDEF") == 64));
	}
	json_object_put(o);
	return 0;
}
