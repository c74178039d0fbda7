#include <string.h>

#include "base64.h"
#include "banned.h"

static const char alphabet[BASE64__MAX][65] = {
	[BASE64_STD] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	[BASE64_URL] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
};

int
base64_encode(const void *p, size_t n, enum base64_form f, struct buf *out)
{
	const uint8_t *s = p;
	const char *a = alphabet[f];

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16;
		char q[4];
		size_t k = 4;

		if (i + 1 < n)
			v |= (uint32_t)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		q[0] = a[v >> 18 & 63];
		q[1] = a[v >> 12 & 63];
		q[2] = i + 1 < n ? a[v >> 6 & 63] : '=';
		q[3] = i + 2 < n ? a[v & 63] : '=';
		if (f == BASE64_URL)    /* no padding */
			k = i + 2 < n ? 4 : i + 1 < n ? 3 : 2;
		if (buf_add(out, q, k) < 0)
			return -1;
	}
	return out->full ? -1 : 0;
}

/* The 6-bit value of c in form f (the URL form's decoder takes both alphabets), or -1. */
static int
digit(char c, enum base64_form f)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || (f == BASE64_URL && c == '-'))
		return 62;
	if (c == '/' || (f == BASE64_URL && c == '_'))
		return 63;
	return -1;
}

int
base64_decode(const char *s, size_t slen, enum base64_form f, uint8_t *out, size_t cap,
    size_t *outlen)
{
	size_t j = 0, n = slen, pad;

	if (f == BASE64_URL) {          /* padding optional: drop it, then count the tail */
		while (n > 0 && s[n - 1] == '=' && slen - n < 2)
			n--;
		if (n < slen && (slen % 4) != 0)
			return -1;      /* padded, then padded wrongly */
	} else if (slen % 4 != 0) {
		return -1;
	} else {
		while (n > 0 && s[n - 1] == '=' && slen - n < 2)
			n--;
	}
	if (n % 4 == 1)
		return -1;
	pad = n % 4 == 0 ? 0 : 4 - n % 4;
	for (size_t i = 0; i < n; i += 4) {
		size_t have = n - i < 4 ? n - i : 4;
		uint32_t w = 0;

		for (size_t k = 0; k < 4; k++) {
			int v = 0;

			if (k < have && (v = digit(s[i + k], f)) < 0)
				return -1;
			w = w << 6 | (uint32_t)v;
		}
		if (have < 4) {
			/* Nonzero bits under the padding would give two encodings of one value. */
			if ((pad == 2 && (w & 0xffff)) || (pad == 1 && (w & 0xff)))
				return -1;
		}
		if (j + have - 1 > cap)
			return -1;
		out[j++] = (uint8_t)(w >> 16);
		if (have > 2)
			out[j++] = (uint8_t)(w >> 8);
		if (have > 3)
			out[j++] = (uint8_t)w;
	}
	*outlen = j;
	return 0;
}
