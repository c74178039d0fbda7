/*
 * sha256.h: SHA-256 (FIPS 180-4), through OpenSSL's EVP interface: the
 * checksums of applied migrations and the contentDigest of an exported
 * report.
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

#endif
