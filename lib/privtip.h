/*
 * privtip.h: the private-tip wire (docs/PROTOCOL.md, Private tips): the
 * commitment a tipper puts on chain, keccak256(salt || utf8(note)), and the
 * four x-<brand>-auth-* headers of a signed unlock, parsed from untrusted
 * text into typed values. Business rules (who may unlock, nonces) are the
 * handlers' (handlers/privtips.c).
 *
 * Return conventions: predicates bool; privtip_parse_auth an enum (each
 * header's fault is named).
 */
#ifndef WAYMARK_PRIVTIP_H
#define WAYMARK_PRIVTIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "brand.h"

#define PRIVTIP_SALT 32
#define PRIVTIP_NOTE_MAX 1000          /* bytes, the review text rules */
#define PRIVTIP_SIG_MAX 4096           /* bytes of an unlock signature (contract wallets too) */
#define PRIVTIP_DEADLINE_MAX 9007199254740991ull

#define PRIVTIP_H_ADDRESS "x-" BRAND_LOWER "-auth-address"
#define PRIVTIP_H_SIG "x-" BRAND_LOWER "-auth-sig"
#define PRIVTIP_H_NONCE "x-" BRAND_LOWER "-auth-nonce"
#define PRIVTIP_H_DEADLINE "x-" BRAND_LOWER "-auth-deadline"

/* keccak256(salt || note) == commitment. */
bool privtip_commitment_ok(const uint8_t commitment[32], const uint8_t salt[PRIVTIP_SALT],
    const char *note, size_t note_len);

struct privtip_auth {
	struct addr address;
	uint8_t sig[PRIVTIP_SIG_MAX];
	size_t sig_len;
	uint8_t nonce[32];
	uint64_t deadline;
};

enum privtip_auth_rc {
	PRIVTIP_AUTH_NONE,      /* none of the four headers: the paid path */
	PRIVTIP_AUTH_OK,
	PRIVTIP_AUTH_BAD,       /* *bad names the header missing or malformed */
};

/*
 * The four header values (NULL when absent) into *out. With all four
 * absent, PRIVTIP_AUTH_NONE; with all four well-formed, PRIVTIP_AUTH_OK:
 * address 0x + 40 hex (any case; a mixed-case one must be EIP-55), sig 0x
 * + an even number of hex digits (1..PRIVTIP_SIG_MAX bytes), nonce 0x + 64
 * hex, deadline a decimal integer 1..2^53-1 without leading zeros;
 * otherwise PRIVTIP_AUTH_BAD with *bad the first header at fault.
 */
enum privtip_auth_rc privtip_parse_auth(const char *address, const char *sig, const char *nonce,
    const char *deadline, struct privtip_auth *out, const char **bad);

#endif
