/*
 * sha256.h: SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), through
 * OpenSSL: the checksums of applied migrations, the contentDigest of an
 * exported report, the body digest of an MPP challenge and its HMAC-bound
 * id (lib/mpp.h).
 *
 * Return conventions: actions, 0 or -1 (OpenSSL could not compute the
 * digest; out is then unspecified). Nothing here allocates.
 */
#ifndef WAYMARK_SHA256_H
#define WAYMARK_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* The SHA-256 of data[0..len) into out; 0, or -1. */
int sha256(const void *data, size_t len, uint8_t out[32]);

/* The same as "0x" + 64 lowercase hex digits and a NUL into out[67]; 0, or -1. */
int sha256_hex(const void *data, size_t len, char out[67]);

/* HMAC-SHA256 of data[0..len) under key[0..klen) into out; 0, or -1. */
int hmac_sha256(const void *key, size_t klen, const void *data, size_t len, uint8_t out[32]);

#endif
