/*
 * u256.h: unsigned 256-bit integers (Solidity's uint256).
 *
 * Representation: four 64-bit limbs, least significant first (w[0] holds
 * bits 0..63). Values are plain structs, copied freely; nothing here
 * allocates. Text forms: decimal (no sign, no leading zeros except "0",
 * at most 78 digits) and "0x" hex of 1..64 digits (either case, leading
 * zeros allowed). json-c integers saturate at 64 bits, so uint256 values
 * travel as JSON strings and are parsed here.
 *
 * Return conventions: actions return 0, or -1 on malformed input,
 * overflow or underflow (the output is then left unchanged); predicates
 * return bool; u256_cmp returns -1, 0 or 1.
 */
#ifndef WAYMARK_U256_H
#define WAYMARK_U256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define U256_DEC_MAX 78 /* digits of 2^256-1 */

struct u256 {
	uint64_t w[4]; /* little-endian limbs */
};

/* The value v. */
void u256_from_u64(struct u256 *out, uint64_t v);

/* 0, or -1 when a does not fit in 64 bits. */
int u256_to_u64(const struct u256 *a, uint64_t *out);

/* Decimal text s[0..slen) as described above; 0 or -1 (also above 2^256-1). */
int u256_parse_dec(const char *s, size_t slen, struct u256 *out);

/* "0x" + 1..64 hex digits; 0 or -1. */
int u256_parse_hex(const char *s, size_t slen, struct u256 *out);

/* Either form: "0x" selects hex, anything else is decimal; 0 or -1. */
int u256_parse(const char *s, size_t slen, struct u256 *out);

/* Decimal text and a NUL into out[U256_DEC_MAX + 1]; returns out. */
char *u256_format_dec(const struct u256 *a, char out[U256_DEC_MAX + 1]);

/* 32 bytes big-endian (the ABI word) to and from the value. */
void u256_to_be(const struct u256 *a, uint8_t out[32]);
void u256_from_be(struct u256 *out, const uint8_t in[32]);

/* out = a + b; -1 on overflow past 2^256-1. out may alias a or b. */
int u256_add(struct u256 *out, const struct u256 *a, const struct u256 *b);

/* out = a - b; -1 when b > a. out may alias a or b. */
int u256_sub(struct u256 *out, const struct u256 *a, const struct u256 *b);

/* out = a * m; -1 on overflow. out may alias a. */
int u256_mul_u64(struct u256 *out, const struct u256 *a, uint64_t m);

/* out = 2^256 - a (two's complement negation, wrapping; 0 stays 0). */
void u256_neg(struct u256 *out, const struct u256 *a);

/* Number of significant bits: 0 for zero, 256 for values >= 2^255. */
unsigned u256_bits(const struct u256 *a);

/* -1, 0 or 1 as a is below, equal to or above b. */
int u256_cmp(const struct u256 *a, const struct u256 *b);

/* True when a is 0. */
bool u256_is_zero(const struct u256 *a);

#endif
