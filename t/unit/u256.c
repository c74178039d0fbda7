/* u256: parsing, formatting, byte order and checked arithmetic at the edges. */
#include <stdint.h>
#include <string.h>

#include "hex.h"
#include "u256.h"
#include "tap.h"
#include "banned.h"

#define MAX_DEC "115792089237316195423570985008687907853269984665640564039457584007913129639935"
#define OVER_DEC "115792089237316195423570985008687907853269984665640564039457584007913129639936"

static const char *
dec(const struct u256 *a)
{
	static char out[U256_DEC_MAX + 1];

	return u256_format_dec(a, out);
}

static const char *
be_hex(const struct u256 *a)
{
	static char out[67];
	uint8_t b[32];

	u256_to_be(a, b);
	return hex_encode(b, 32, out);
}

static int
parse(const char *s, struct u256 *out)
{
	return u256_parse(s, strlen(s), out);
}

/* Decimal text round trip, and through 32 big-endian bytes. */
static void
round_trip(const char *s, const char *hex)
{
	struct u256 a, b;
	uint8_t be[32];

	if (!ok(parse(s, &a) == 0, "parse %.20s%s", s, strlen(s) > 20 ? "..." : ""))
		return;
	is_str(dec(&a), s, "format %.20s", s);
	is_str(be_hex(&a), hex, "big-endian bytes of %.20s", s);
	u256_to_be(&a, be);
	u256_from_be(&b, be);
	ok(u256_cmp(&a, &b) == 0, "from_be(to_be(x)) == x for %.20s", s);
}

int
main(void)
{
	struct u256 a, b, c, one, max, zero;
	uint64_t v;

	round_trip("0", "0x0000000000000000000000000000000000000000000000000000000000000000");
	round_trip("1", "0x0000000000000000000000000000000000000000000000000000000000000001");
	round_trip("18446744073709551616",
	    "0x0000000000000000000000000000000000000000000000010000000000000000");
	round_trip("18446744073709551615",
	    "0x000000000000000000000000000000000000000000000000ffffffffffffffff");
	round_trip(MAX_DEC, "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
	round_trip("1000000000000000000000000", /* 1e24 */
	    "0x00000000000000000000000000000000000000000000d3c21bcecceda1000000");

	/* hex forms */
	ok(parse("0x0", &a) == 0 && u256_is_zero(&a), "0x0 is zero");
	ok(parse("0x00000000000000000000000000000000000000000000000000000000000000ff", &a) == 0 &&
	    a.w[0] == 255, "64 hex digits with leading zeros");
	ok(parse("0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", &a) == 0 &&
	    strcmp(dec(&a), MAX_DEC) == 0, "uppercase hex 2^256-1");
	ok(parse("0x10000000000000000", &a) == 0 && strcmp(dec(&a), "18446744073709551616") == 0,
	    "0x10000000000000000 is 2^64");
	ok(parse("0x1000000000000000000000000000000000000000000000000000000000000000", &a) == 0 &&
	    a.w[3] == 0x1000000000000000ull, "hex 2^252");

	/* rejections */
	struct u256 keep;

	u256_from_u64(&keep, 77);
	a = keep;
	ok(parse(OVER_DEC, &a) < 0, "2^256 decimal rejected");
	ok(parse("0x10000000000000000000000000000000000000000000000000000000000000000", &a) < 0,
	    "65 hex digits rejected");
	ok(parse("1157920892373161954235709850086879078532699846656405640394575840079131296399350", &a) < 0,
	    "79 digits rejected");
	ok(parse("999999999999999999999999999999999999999999999999999999999999999999999999999999", &a) < 0,
	    "78 nines (above 2^256-1) rejected");
	ok(parse("", &a) < 0, "empty rejected");
	ok(parse("0x", &a) < 0, "bare 0x rejected");
	ok(parse("00", &a) < 0, "00 rejected");
	ok(parse("01", &a) < 0, "leading zero rejected");
	ok(parse("-1", &a) < 0, "sign rejected");
	ok(parse("+1", &a) < 0, "plus sign rejected");
	ok(parse(" 1", &a) < 0 && parse("1 ", &a) < 0, "spaces rejected");
	ok(parse("1e3", &a) < 0 && parse("1.0", &a) < 0, "exponent and fraction rejected");
	ok(parse("0X1", &a) < 0, "0X prefix rejected");
	ok(parse("0xg", &a) < 0, "non-hex digit rejected");
	ok(u256_cmp(&a, &keep) == 0, "output unchanged after failures");
	ok(u256_parse("12", 1, &a) == 0 && a.w[0] == 1, "length bounds the input");
	ok(u256_parse_dec("0x1", 3, &a) < 0, "dec parser rejects hex");
	ok(u256_parse_hex("1", 1, &a) < 0, "hex parser requires 0x");

	/* arithmetic */
	u256_from_u64(&zero, 0);
	u256_from_u64(&one, 1);
	parse(MAX_DEC, &max);
	ok(u256_add(&c, &max, &one) < 0, "max + 1 overflows");
	ok(u256_add(&c, &max, &zero) == 0 && u256_cmp(&c, &max) == 0, "max + 0 = max");
	ok(u256_sub(&c, &zero, &one) < 0, "0 - 1 underflows");
	ok(u256_sub(&c, &max, &max) == 0 && u256_is_zero(&c), "max - max = 0");
	u256_from_u64(&a, UINT64_MAX);
	ok(u256_add(&c, &a, &one) == 0 && strcmp(dec(&c), "18446744073709551616") == 0,
	    "carry across a limb");
	ok(u256_sub(&c, &c, &one) == 0 && u256_cmp(&c, &a) == 0, "borrow across a limb (aliased out)");
	parse("0x100000000000000000000000000000000", &a); /* 2^128 */
	ok(u256_sub(&c, &a, &one) == 0 &&
	    strcmp(be_hex(&c), "0x00000000000000000000000000000000ffffffffffffffffffffffffffffffff") == 0,
	    "borrow across two limbs");
	ok(u256_mul_u64(&c, &max, 1) == 0 && u256_cmp(&c, &max) == 0, "max * 1 = max");
	ok(u256_mul_u64(&c, &max, 2) < 0, "max * 2 overflows");
	ok(u256_mul_u64(&c, &max, 0) == 0 && u256_is_zero(&c), "max * 0 = 0");
	u256_from_u64(&a, UINT64_MAX);
	ok(u256_mul_u64(&c, &a, UINT64_MAX) == 0 &&
	    strcmp(dec(&c), "340282366920938463426481119284349108225") == 0, "(2^64-1)^2");
	parse("0x8000000000000000000000000000000000000000000000000000000000000000", &a); /* 2^255 */
	ok(u256_mul_u64(&c, &a, 2) < 0, "2^255 * 2 overflows");
	parse("0x4000000000000000000000000000000000000000000000000000000000000000", &a);
	ok(u256_mul_u64(&c, &a, 2) == 0 && c.w[3] == 0x8000000000000000ull, "2^254 * 2 = 2^255");
	parse("1000000000000000000", &a);
	ok(u256_mul_u64(&a, &a, 100000) == 0 && strcmp(dec(&a), "100000000000000000000000") == 0,
	    "1e18 * 1e5 = 1e23 (aliased)");

	/* comparison, bits, negation, u64 */
	u256_from_u64(&a, 5);
	u256_from_u64(&b, 6);
	ok(u256_cmp(&a, &b) == -1 && u256_cmp(&b, &a) == 1 && u256_cmp(&a, &a) == 0, "cmp small");
	parse("0x10000000000000000", &b);
	u256_from_u64(&a, UINT64_MAX);
	ok(u256_cmp(&a, &b) == -1, "cmp across limbs");
	ok(u256_bits(&zero) == 0 && u256_bits(&one) == 1 && u256_bits(&max) == 256 && u256_bits(&b) == 65,
	    "bit lengths");
	u256_neg(&c, &one);
	ok(u256_cmp(&c, &max) == 0, "-1 is 2^256-1");
	u256_neg(&c, &zero);
	ok(u256_is_zero(&c), "-0 is 0");
	u256_neg(&c, &max);
	ok(u256_cmp(&c, &one) == 0, "-(2^256-1) is 1");
	u256_from_u64(&a, 128);
	u256_neg(&c, &a);
	ok(strcmp(be_hex(&c), "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff80") == 0,
	    "-128 sign-extends");
	ok(u256_to_u64(&b, &v) < 0, "2^64 does not fit in u64");
	ok(u256_to_u64(&a, &v) == 0 && v == 128, "128 fits in u64");
	ok(!u256_is_zero(&one) && u256_is_zero(&zero), "is_zero");
	return done_testing();
}
