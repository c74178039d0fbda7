/*
 * eip712.h: EIP-712 hashing of typed structured data given as json-c
 * objects (docs/PROTOCOL.md, Typed data). Hashing only: signature
 * recovery is sig.h's job.
 *
 *   digest     = keccak256(0x19 0x01 || domainSeparator || hashStruct(message))
 *   hashStruct = keccak256(typeHash || encodeData)
 *   typeHash   = keccak256(encodeType)
 *
 * Inputs:
 *  - types: object, type name -> array of {"name": ..., "type": ...}
 *    (exactly those two keys). Type and field names are identifiers
 *    ([A-Za-z_$][A-Za-z0-9_$]*); field names are unique within a type;
 *    a struct may not be named like an atomic type; field types are an
 *    atomic type or a struct in `types`, followed by any number of "[]"
 *    or "[n]" (n >= 1) suffixes. The whole object is checked, including
 *    types the primary type does not use. Cyclic types are rejected; the
 *    limits below bound type nesting, array dimensions and the nesting of
 *    a value (so recursion and stack use stay small).
 *  - EIP712Domain: taken from `types` when present there; otherwise
 *    derived from the keys present in `domain`, in the order name
 *    (string), version (string), chainId (uint256), verifyingContract
 *    (address), salt (bytes32); any other domain key is then an error.
 *    Unlike viem, a present chainId is always included whatever its JSON
 *    type (a string chainId is a decimal or 0x uint256, never dropped).
 *  - Values: bool is a JSON boolean; address a "0x" + 40 hex digit string
 *    (any case: only the bytes are hashed, EIP-55 policy belongs to the
 *    caller's validators); uintN/intN (N = 8..256, step 8) a JSON integer
 *    strictly inside the int64 range, or a string, decimal (intN: with an
 *    optional leading '-', never "-0") or "0x" hex (non-negative), range-
 *    checked for N, negatives sign-extended; bytesN "0x" + exactly 2N hex
 *    digits, right-padded; string any JSON string (its UTF-8 bytes are
 *    hashed); bytes "0x" + an even number of hex digits ("0x" is empty);
 *    structs an object with exactly the type's fields; arrays a JSON array
 *    (T[n]: exactly n elements). JSON null is never a value.
 *  - primaryType "EIP712Domain" is rejected (viem and eth-sig-util would
 *    then hash the domain alone).
 *
 * Errors: functions return an enum eip712_err; on failure, when err is
 * not NULL, a one-line message naming the failing place is written into
 * err[0..errlen) (truncated, always NUL-terminated), e.g.
 * "message.items[1].id: not a uint256". Outputs are then unspecified.
 * Nothing returned needs freeing; json objects stay the caller's.
 */
#ifndef WAYMARK_EIP712_H
#define WAYMARK_EIP712_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define EIP712_MAX_DEPTH 16    /* struct types nested in struct types (type-graph height) */
#define EIP712_MAX_ARRAY_DIMS 8 /* "[]"/"[n]" suffixes on one field type */
#define EIP712_MAX_NESTING 48  /* struct and array levels of one value together */
#define EIP712_MAX_TYPES 64    /* entries in `types` */
#define EIP712_MAX_FIELDS 64   /* fields per struct type */
#define EIP712_MAX_NAME 128    /* bytes in a type or field name */

enum eip712_err {
	EIP712_OK = 0,
	EIP712_BAD_INPUT,     /* not an object, or a top-level key missing or unexpected */
	EIP712_BAD_TYPES,     /* malformed `types` (names, shapes, limits) */
	EIP712_UNKNOWN_TYPE,  /* a referenced type is neither atomic nor in `types` */
	EIP712_CYCLE,         /* a cyclic type, or nesting deeper than EIP712_MAX_DEPTH */
	EIP712_BAD_PRIMARY,   /* primaryType missing, not a string, or EIP712Domain */
	EIP712_MISSING_FIELD, /* a field of the type is absent from the value */
	EIP712_EXTRA_FIELD,   /* the value has a key that is not a field of the type */
	EIP712_BAD_VALUE,     /* a value of the wrong JSON type, syntax or range */
	EIP712_BAD_LENGTH,    /* a fixed-size array with the wrong number of elements */
	EIP712_TOO_LONG,      /* an output does not fit its buffer */
	EIP712_ERR__MAX
};

/* Short English name of an error code (static string). */
const char *eip712_strerror(enum eip712_err e);

/*
 * Digest of a whole typed-data object {types, primaryType, domain,
 * message} (no other keys), as eth_signTypedData_v4 takes it.
 */
enum eip712_err eip712_digest(json_object *typed, uint8_t out[32], char *err, size_t errlen);

/* Digest from the four parts separately; the same rules. */
enum eip712_err eip712_digest_parts(json_object *types, const char *primary, json_object *domain,
    json_object *message, uint8_t out[32], char *err, size_t errlen);

/* hashStruct(EIP712Domain, domain): the domain separator. */
enum eip712_err eip712_domain_separator(json_object *types, json_object *domain, uint8_t out[32],
    char *err, size_t errlen);

/* hashStruct(type, value) for any struct type in `types` (EIP712Domain included). */
enum eip712_err eip712_hash_struct(json_object *types, const char *type, json_object *value,
    uint8_t out[32], char *err, size_t errlen);

/*
 * encodeType(type) as text into out[0..cap), NUL-terminated; EIP712_TOO_LONG
 * when it does not fit. EIP712Domain is only found when it is in `types`.
 */
enum eip712_err eip712_encode_type(json_object *types, const char *type, char *out, size_t cap,
    char *err, size_t errlen);

/* keccak256(encodeType(type)). */
enum eip712_err eip712_type_hash(json_object *types, const char *type, uint8_t out[32], char *err,
    size_t errlen);

#endif
