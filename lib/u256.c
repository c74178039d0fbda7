#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hex.h"
#include "u256.h"
#include "banned.h"

void
u256_from_u64(struct u256 *out, uint64_t v)
{
	out->w[0] = v;
	out->w[1] = out->w[2] = out->w[3] = 0;
}

int
u256_to_u64(const struct u256 *a, uint64_t *out)
{
	if (a->w[1] != 0 || a->w[2] != 0 || a->w[3] != 0)
		return -1;
	*out = a->w[0];
	return 0;
}

bool
u256_is_zero(const struct u256 *a)
{
	return (a->w[0] | a->w[1] | a->w[2] | a->w[3]) == 0;
}

int
u256_cmp(const struct u256 *a, const struct u256 *b)
{
	for (int i = 3; i >= 0; i--) {
		if (a->w[i] < b->w[i])
			return -1;
		if (a->w[i] > b->w[i])
			return 1;
	}
	return 0;
}

int
u256_add(struct u256 *out, const struct u256 *a, const struct u256 *b)
{
	struct u256 r;
	uint64_t carry = 0;

	for (int i = 0; i < 4; i++) {
		uint64_t s = a->w[i] + carry;
		uint64_t c1 = s < carry;

		r.w[i] = s + b->w[i];
		carry = c1 | (r.w[i] < s);
	}
	if (carry)
		return -1;
	*out = r;
	return 0;
}

int
u256_sub(struct u256 *out, const struct u256 *a, const struct u256 *b)
{
	struct u256 r;
	uint64_t borrow = 0;

	for (int i = 0; i < 4; i++) {
		uint64_t d = a->w[i] - b->w[i];
		uint64_t b1 = a->w[i] < b->w[i];

		r.w[i] = d - borrow;
		borrow = b1 | (d < borrow);
	}
	if (borrow)
		return -1;
	*out = r;
	return 0;
}

/* 64 x 64 -> 128 bits without compiler extensions: *hi:*lo = a * b. */
static void
mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t al = a & 0xffffffffu, ah = a >> 32;
	uint64_t bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	*lo = (mid << 32) | (ll & 0xffffffffu);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

int
u256_mul_u64(struct u256 *out, const struct u256 *a, uint64_t m)
{
	struct u256 r;
	uint64_t carry = 0;

	for (int i = 0; i < 4; i++) {
		uint64_t hi, lo;

		mul64(a->w[i], m, &hi, &lo);
		r.w[i] = lo + carry;
		carry = hi + (r.w[i] < lo); /* hi <= 2^64-2, so no wrap */
	}
	if (carry)
		return -1;
	*out = r;
	return 0;
}

void
u256_neg(struct u256 *out, const struct u256 *a)
{
	uint64_t carry = 1;

	/* ~a + 1, wrapping modulo 2^256. */
	for (int i = 0; i < 4; i++) {
		uint64_t v = ~a->w[i] + carry;

		carry = carry && v == 0;
		out->w[i] = v;
	}
}

unsigned
u256_bits(const struct u256 *a)
{
	for (int i = 3; i >= 0; i--) {
		if (a->w[i] != 0) {
			unsigned n = 0;

			for (uint64_t v = a->w[i]; v != 0; v >>= 1)
				n++;
			return (unsigned)i * 64 + n;
		}
	}
	return 0;
}

int
u256_parse_dec(const char *s, size_t slen, struct u256 *out)
{
	struct u256 r;

	if (slen == 0 || slen > U256_DEC_MAX)
		return -1;
	if (s[0] == '0' && slen > 1)
		return -1;
	u256_from_u64(&r, 0);
	for (size_t i = 0; i < slen; i++) {
		struct u256 d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		u256_from_u64(&d, (uint64_t)(s[i] - '0'));
		if (u256_mul_u64(&r, &r, 10) < 0 || u256_add(&r, &r, &d) < 0)
			return -1;
	}
	*out = r;
	return 0;
}

int
u256_parse_hex(const char *s, size_t slen, struct u256 *out)
{
	struct u256 r;

	if (slen < 3 || slen > 66 || s[0] != '0' || s[1] != 'x')
		return -1;
	u256_from_u64(&r, 0);
	for (size_t i = 2; i < slen; i++) {
		int d = hex_digit((unsigned char)s[i]);
		size_t bit = (slen - 1 - i) * 4;

		if (d < 0)
			return -1;
		r.w[bit / 64] |= (uint64_t)d << (bit % 64);
	}
	*out = r;
	return 0;
}

int
u256_parse(const char *s, size_t slen, struct u256 *out)
{
	if (slen >= 2 && s[0] == '0' && s[1] == 'x')
		return u256_parse_hex(s, slen, out);
	return u256_parse_dec(s, slen, out);
}

/* a = a / d, returning the remainder; d < 2^32 keeps every step in 64 bits. */
static uint32_t
divmod_small(struct u256 *a, uint32_t d)
{
	uint64_t rem = 0;

	for (int i = 3; i >= 0; i--) {
		uint64_t hi = (rem << 32) | (a->w[i] >> 32);
		uint64_t qh = hi / d;
		uint64_t lo;

		rem = hi % d;
		lo = (rem << 32) | (a->w[i] & 0xffffffffu);
		rem = lo % d;
		a->w[i] = (qh << 32) | (lo / d);
	}
	return (uint32_t)rem;
}

char *
u256_format_dec(const struct u256 *a, char out[U256_DEC_MAX + 1])
{
	char tmp[U256_DEC_MAX];
	size_t n = 0;
	struct u256 v = *a;

	do {
		tmp[n++] = (char)('0' + divmod_small(&v, 10));
	} while (!u256_is_zero(&v) && n < sizeof(tmp));
	for (size_t i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
	return out;
}

void
u256_to_be(const struct u256 *a, uint8_t out[32])
{
	for (int i = 0; i < 32; i++)
		out[31 - i] = (uint8_t)(a->w[i / 8] >> (8 * (i % 8)));
}

void
u256_from_be(struct u256 *out, const uint8_t in[32])
{
	u256_from_u64(out, 0);
	for (int i = 0; i < 32; i++)
		out->w[i / 8] |= (uint64_t)in[31 - i] << (8 * (i % 8));
}
