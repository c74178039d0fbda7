/*
 * base64.h: base64 (RFC 4648) in the two forms the payment rails use:
 * standard ('+' '/', '=' padded: x402 headers, strict) and URL-safe ('-'
 * '_', no padding: the MPP "Payment" scheme, docs/PROTOCOL.md, MPP payments). The
 * decoder of the URL-safe form is lenient as the MPP scheme asks: either
 * alphabet, padding or none. Both decoders refuse nonzero bits under the
 * padding, so a value has one encoding per form.
 *
 * Return conventions: actions, 0 or -1. Nothing here allocates except
 * through the caller's struct buf.
 */
#ifndef WAYMARK_BASE64_H
#define WAYMARK_BASE64_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

enum base64_form {
	BASE64_STD,     /* encode: '+' '/' and '=' padding; decode: exactly that */
	BASE64_URL,     /* encode: '-' '_' without padding; decode: either alphabet, padding optional */
	BASE64__MAX
};

/* Append the encoding of p[0..n) to out; 0, or -1 when out is full. */
int base64_encode(const void *p, size_t n, enum base64_form f, struct buf *out);

/* Decode s[0..slen) into out[cap]; *outlen gets the byte count. 0, or -1 on bad input or no room. */
int base64_decode(const char *s, size_t slen, enum base64_form f, uint8_t *out, size_t cap,
    size_t *outlen);

#endif
