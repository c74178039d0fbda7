/*
 * addr.h: Ethereum addresses (20 bytes) and their EIP-55 text form.
 *
 * Parsing accepts "0x" + 40 hex digits that are all lowercase, all
 * uppercase, or correctly EIP-55 checksummed; a mixed-case string with a
 * wrong checksum is rejected (it is most likely a typo). Formatting
 * always produces the checksummed form.
 *
 * Return conventions: addr_parse is an action (0 or -1, *out untouched on
 * failure); the addr_is_* and addr_eq functions are predicates. Nothing
 * here allocates but addr_json_new, whose json-c string the caller owns.
 */
#ifndef WAYMARK_ADDR_H
#define WAYMARK_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define ADDR_LEN 20
#define ADDR_TEXT_LEN 42 /* "0x" + 40 digits, without the NUL */

struct addr {
	uint8_t b[ADDR_LEN];
};

/*
 * Parse s[0..slen) (no NUL needed) into out. 0 on success, -1 when s is
 * not an address as described above; out is then left unchanged.
 */
int addr_parse(const char *s, size_t slen, struct addr *out);

/*
 * Parse exactly 40 hex digits without "0x" (an address as the database
 * stores and HEX() prints it) into out; 0, or -1 (NULL or malformed).
 */
int addr_from_digits(const char *hex, struct addr *out);

/*
 * The EIP-55 form of 40 stored hex digits (see addr_from_digits) as a new
 * json-c string, or NULL (a JSON null) when they are not an address or
 * memory ran out. The caller owns the result (json_object_put).
 */
json_object *addr_json_new(const char *hex40);

/* True when s is "0x" + 40 hex digits with a valid EIP-55 checksum. */
bool addr_is_checksummed(const char *s, size_t slen);

/* Writes the EIP-55 form and a NUL into out[43]; returns out. */
char *addr_format(const struct addr *a, char out[ADDR_TEXT_LEN + 1]);

/* Writes the lowercase form and a NUL into out[43]; returns out. */
char *addr_format_lower(const struct addr *a, char out[ADDR_TEXT_LEN + 1]);

/* True when all 20 bytes are zero (the "no address" value). */
bool addr_is_zero(const struct addr *a);

/* True when a and b are the same address. */
bool addr_eq(const struct addr *a, const struct addr *b);

#endif
