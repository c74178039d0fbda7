#include <string.h>

#include "hex.h"
#include "banned.h"

int
hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int
decode_body(const char *s, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_digit((unsigned char)s[2 * i]);
		int lo = hex_digit((unsigned char)s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static bool
has_prefix(const char *s, size_t slen)
{
	return slen >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

int
hex_decode_fixed(const char *s, size_t slen, uint8_t *out, size_t want, bool need_prefix)
{
	if (has_prefix(s, slen)) {
		s += 2;
		slen -= 2;
	} else if (need_prefix) {
		return -1;
	}
	if (slen != 2 * want)
		return -1;
	return decode_body(s, slen, out);
}

int
hex_decode(const char *s, size_t slen, uint8_t *out, size_t cap, size_t *outlen)
{
	if (!has_prefix(s, slen))
		return -1;
	s += 2;
	slen -= 2;
	if (slen % 2 != 0 || slen / 2 > cap)
		return -1;
	if (decode_body(s, slen, out) < 0)
		return -1;
	*outlen = slen / 2;
	return 0;
}

bool
hex_is_lower_prefixed(const char *s, size_t slen, size_t ndigits)
{
	if (slen != ndigits + 2 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < slen; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

char *
hex_encode(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	out[0] = '0';
	out[1] = 'x';
	for (size_t i = 0; i < len; i++) {
		out[2 + 2 * i] = digits[in[i] >> 4];
		out[3 + 2 * i] = digits[in[i] & 15];
	}
	out[2 + 2 * len] = '\0';
	return out;
}

char *
hex_digits(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
	return out;
}
