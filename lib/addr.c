/* EIP-55 addresses: parse (lower, upper or checksummed) and format. */
#include <stdbool.h>
#include <string.h>

#include "addr.h"
#include "hex.h"
#include "keccak.h"
#include "banned.h"

/*
 * The EIP-55 form of a: hex digit i is uppercased when nibble i of
 * keccak256(lowercase hex without "0x") is 8 or more.
 */
static void
checksum_form(const struct addr *a, char out[ADDR_TEXT_LEN + 1])
{
	uint8_t h[32];

	addr_format_lower(a, out);
	keccak256(out + 2, 2 * ADDR_LEN, h);
	for (size_t i = 0; i < 2 * ADDR_LEN; i++) {
		unsigned nib = (i % 2 == 0) ? h[i / 2] >> 4 : h[i / 2] & 15u;
		char *c = &out[2 + i];

		if (*c >= 'a' && *c <= 'f' && nib >= 8)
			*c = (char)(*c - 'a' + 'A');
	}
}

/* "0x" + 40 hex digits; counts letters of each case. */
static bool
shape_ok(const char *s, size_t slen, bool *has_lower, bool *has_upper)
{
	*has_lower = *has_upper = false;
	if (s == NULL || slen != ADDR_TEXT_LEN || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < slen; i++) {
		char c = s[i];

		if (c >= 'a' && c <= 'f')
			*has_lower = true;
		else if (c >= 'A' && c <= 'F')
			*has_upper = true;
		else if (!(c >= '0' && c <= '9'))
			return false;
	}
	return true;
}

int
addr_parse(const char *s, size_t slen, struct addr *out)
{
	bool lower, upper;
	struct addr a;
	char want[ADDR_TEXT_LEN + 1];

	if (!shape_ok(s, slen, &lower, &upper))
		return -1;
	if (hex_decode_fixed(s, slen, a.b, ADDR_LEN, true) < 0)
		return -1;
	if (lower && upper) {
		checksum_form(&a, want);
		if (memcmp(want, s, ADDR_TEXT_LEN) != 0)
			return -1;
	}
	*out = a;
	return 0;
}

int
addr_from_digits(const char *hex, struct addr *out)
{
	if (hex == NULL || strlen(hex) != 2 * ADDR_LEN)
		return -1;
	return hex_decode_fixed(hex, 2 * ADDR_LEN, out->b, ADDR_LEN, false);
}

json_object *
addr_json_new(const char *hex40)
{
	char t[ADDR_TEXT_LEN + 1];
	struct addr a;

	return addr_from_digits(hex40, &a) < 0 ? NULL : json_object_new_string(addr_format(&a, t));
}

bool
addr_is_checksummed(const char *s, size_t slen)
{
	bool lower, upper;
	struct addr a;
	char want[ADDR_TEXT_LEN + 1];

	if (!shape_ok(s, slen, &lower, &upper))
		return false;
	if (hex_decode_fixed(s, slen, a.b, ADDR_LEN, true) < 0)
		return false;
	checksum_form(&a, want);
	return memcmp(want, s, ADDR_TEXT_LEN) == 0;
}

char *
addr_format(const struct addr *a, char out[ADDR_TEXT_LEN + 1])
{
	checksum_form(a, out);
	return out;
}

char *
addr_format_lower(const struct addr *a, char out[ADDR_TEXT_LEN + 1])
{
	return hex_encode(a->b, ADDR_LEN, out);
}

bool
addr_is_zero(const struct addr *a)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < ADDR_LEN; i++)
		acc |= a->b[i];
	return acc == 0;
}

bool
addr_eq(const struct addr *a, const struct addr *b)
{
	return memcmp(a->b, b->b, ADDR_LEN) == 0;
}
