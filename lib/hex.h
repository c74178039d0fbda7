/*
 * hex.h: hexadecimal text <-> bytes.
 *
 * Return conventions: hex_decode* return 0 on success and -1 on any
 * malformed input; they never write past the given capacity.
 */
#ifndef WAYMARK_HEX_H
#define WAYMARK_HEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Value of one hex digit, or -1. */
int hex_digit(int c);

/*
 * Decode "0x"-prefixed hex (prefix required when need_prefix) of exactly
 * `want` bytes into out. Upper- and lowercase digits are accepted.
 */
int hex_decode_fixed(const char *s, size_t slen, uint8_t *out, size_t want, bool need_prefix);

/*
 * Decode "0x"-prefixed hex of any even length up to cap bytes; *outlen gets
 * the byte count. "0x" alone decodes to zero bytes.
 */
int hex_decode(const char *s, size_t slen, uint8_t *out, size_t cap, size_t *outlen);

/* True when s is "0x" followed by exactly ndigits lowercase hex digits. */
bool hex_is_lower_prefixed(const char *s, size_t slen, size_t ndigits);

/*
 * Write "0x" + lowercase hex of in[0..len) and a NUL into out, which must
 * hold 2*len + 3 bytes. Returns out.
 */
char *hex_encode(const uint8_t *in, size_t len, char *out);

/* The same digits without "0x": out must hold 2*len + 1 bytes. Returns out. */
char *hex_digits(const uint8_t *in, size_t len, char *out);

#endif
