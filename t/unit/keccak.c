/* Keccak-256 and hex: published vectors, and block-boundary lengths. */
#include <string.h>

#include "hex.h"
#include "keccak.h"
#include "tap.h"
#include "banned.h"

static const char *
hash_hex(const void *in, size_t len)
{
	static char out[67];
	uint8_t h[32];

	keccak256(in, len, h);
	return hex_encode(h, 32, out);
}

int
main(void)
{
	uint8_t buf[600];
	struct keccak_ctx c;
	uint8_t one[32], inc[32];

	is_str(hash_hex("", 0), "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
	    "keccak256(\"\")");
	is_str(hash_hex("abc", 3), "0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
	    "keccak256(\"abc\")");
	{
		uint8_t h[32];

		keccak256("transfer(address,uint256)", 25, h);
		ok(h[0] == 0xa9 && h[1] == 0x05 && h[2] == 0x9c && h[3] == 0xbb,
		    "selector of transfer(address,uint256) is 0xa9059cbb");
	}

	/* Incremental hashing in odd-sized pieces equals one-shot at every length. */
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	int mismatches = 0;
	for (size_t len = 0; len <= sizeof(buf); len++) {
		keccak256(buf, len, one);
		keccak_init(&c);
		for (size_t off = 0; off < len;) {
			size_t step = (off % 13) + 1;

			if (step > len - off)
				step = len - off;
			keccak_update(&c, buf + off, step);
			off += step;
		}
		keccak_final(&c, inc);
		if (memcmp(one, inc, 32) != 0)
			mismatches++;
	}
	ok(mismatches == 0, "incremental equals one-shot for lengths 0..600 (%d mismatches)", mismatches);

	/* hex round trips and rejections */
	uint8_t b[4];
	size_t n = 0;
	ok(hex_decode("0xdeadBEEF", 10, b, sizeof(b), &n) == 0 && n == 4 && b[0] == 0xde && b[3] == 0xef,
	    "hex_decode mixed case");
	ok(hex_decode("0xabc", 5, b, sizeof(b), &n) < 0, "odd length rejected");
	ok(hex_decode("deadbeef", 8, b, sizeof(b), &n) < 0, "missing 0x rejected");
	ok(hex_decode("0xdeadbeef00", 12, b, sizeof(b), &n) < 0, "over capacity rejected");
	ok(hex_decode("0xzz", 4, b, sizeof(b), &n) < 0, "non-hex digit rejected");
	ok(hex_decode_fixed("0x00112233", 10, b, 4, true) == 0 && b[3] == 0x33, "fixed-length decode");
	ok(hex_decode_fixed("00112233", 8, b, 4, true) < 0, "fixed-length decode needs prefix when asked");
	ok(hex_is_lower_prefixed("0xab", 4, 2) && !hex_is_lower_prefixed("0xAb", 4, 2),
	    "lowercase-hex predicate");
	return done_testing();
}
