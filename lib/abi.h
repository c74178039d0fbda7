/*
 * abi.h: the Solidity contract ABI, as much of it as waymark needs.
 *
 * Encoding: abi.encode of one top-level tuple of uint256, address,
 * bytes32, bool, string and bytes values (static types give one head word;
 * string and bytes give a head offset and a tail of length word plus
 * zero-padded contents), function selectors and calldata. Build the
 * argument list with the abi_<type>() constructors; string and bytes
 * arguments point at the caller's memory, which must outlive the call.
 * Output goes into a caller-supplied buffer of fixed capacity; nothing
 * here allocates.
 *
 * Decoding: readers of single words and of a dynamic bytes/string value
 * in event data or an eth_call result, with bounds checks against the
 * data length. Offsets are in bytes from the start of the data.
 *
 * Return conventions: actions return 0, or -1 when the output does not
 * fit or the input is malformed or out of bounds (outputs are then
 * unspecified except where stated).
 */
#ifndef WAYMARK_ABI_H
#define WAYMARK_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "u256.h"

#define ABI_WORD 32
#define ABI_SELECTOR_LEN 4

enum abi_type {
	ABI_UINT256,
	ABI_ADDRESS,
	ABI_BYTES32,
	ABI_BOOL,
	ABI_STRING,
	ABI_BYTES,
	ABI_TYPE__MAX
};

/* One argument: static types carry their encoded word, dynamic ones a pointer. */
struct abi_arg {
	enum abi_type type;
	uint8_t word[ABI_WORD];
	const uint8_t *data; /* string/bytes contents; not owned */
	size_t len;
};

/* Argument constructors (values are copied except string/bytes contents). */
struct abi_arg abi_uint256(const struct u256 *v);
struct abi_arg abi_uint64(uint64_t v);
struct abi_arg abi_address(const struct addr *a);
struct abi_arg abi_bytes32(const uint8_t b[32]);
struct abi_arg abi_bool(bool v);
struct abi_arg abi_string(const char *s, size_t len);
struct abi_arg abi_bytes(const uint8_t *p, size_t len);

/* Bytes abi.encode(args[0..n)) takes: 0 for an empty tuple, and 0 on size_t overflow or an invalid type. */
size_t abi_encoded_len(const struct abi_arg *args, size_t n);

/*
 * abi.encode(args[0..n)) into out[0..cap); *outlen gets the length.
 * -1 when it does not fit (or an argument type is invalid).
 */
int abi_encode(const struct abi_arg *args, size_t n, uint8_t *out, size_t cap, size_t *outlen);

/* keccak256(abi.encode(args)) without an intermediate buffer; 0 or -1. */
int abi_encode_hash(const struct abi_arg *args, size_t n, uint8_t out[32]);

/* First 4 bytes of keccak256 of the signature text, e.g. "transfer(address,uint256)". */
void abi_selector(const char *signature, uint8_t out[ABI_SELECTOR_LEN]);

/* selector(signature) || abi.encode(args) into out[0..cap); 0 or -1 as abi_encode. */
int abi_calldata(const char *signature, const struct abi_arg *args, size_t n, uint8_t *out, size_t cap,
    size_t *outlen);

/* The word at data[off..off+32) as a uint256; -1 when out of bounds. */
int abi_read_uint256(const uint8_t *data, size_t len, size_t off, struct u256 *out);

/* The word at off as a uint64; -1 when out of bounds or the value is >= 2^64. */
int abi_read_uint64(const uint8_t *data, size_t len, size_t off, uint64_t *out);

/* The word at off as an address; -1 when out of bounds or its upper 12 bytes are not zero. */
int abi_read_address(const uint8_t *data, size_t len, size_t off, struct addr *out);

/* The word at off as a bool; -1 when out of bounds or the word is not 0 or 1. */
int abi_read_bool(const uint8_t *data, size_t len, size_t off, bool *out);

/* The word at off copied as bytes32; -1 when out of bounds. */
int abi_read_bytes32(const uint8_t *data, size_t len, size_t off, uint8_t out[32]);

/*
 * The dynamic bytes/string whose head word (its offset) is at data[head]:
 * *p points into data (not a copy, not NUL-terminated) and *plen is its
 * length. -1 when the offset, the length word or the contents fall outside
 * data[0..len).
 */
int abi_read_dynamic(const uint8_t *data, size_t len, size_t head, const uint8_t **p, size_t *plen);

#endif
