/*
 * sig.h: secp256k1 ECDSA signatures as Ethereum uses them: signer
 * recovery from a 32-byte digest, EIP-191 personal-message digests, and
 * (for tests and the local demo seed only) signing with a private key.
 *
 * Accepted signature encodings (sig_parse):
 *  - 65 bytes r || s || v with v in {0, 1, 27, 28};
 *  - 64 bytes EIP-2098 compact r || (yParity << 255 | s).
 * Policy, the same as OpenZeppelin's ECDSA.recover: r and s must be in
 * [1, n-1] and s must be in the lower half (s <= n/2); a high-s signature
 * is malleable and is rejected with SIG_HIGH_S.
 *
 * The library context is created once per process (sig_init) and is
 * read-only afterwards, so it can be shared. Every program calls sig_init
 * once at start, before any thread (fcgi/main.c, tools/waymark.c, the
 * tests); nothing creates it lazily from a request, where two threads
 * could race to. Before it, sig_recover answers SIG_NO_RECOVERY and
 * sig_sign and sig_key_address -1.
 *
 * Return conventions: parsing and recovery return enum sig_err (callers
 * tell the reasons apart); sig_init, sig_sign and sig_key_address are
 * actions returning 0 or -1. Nothing here allocates except the context.
 */
#ifndef WAYMARK_SIG_H
#define WAYMARK_SIG_H

#include <stddef.h>
#include <stdint.h>

#include "addr.h"

enum sig_err {
	SIG_OK = 0,
	SIG_BAD_LENGTH,   /* not 64 or 65 bytes */
	SIG_BAD_V,        /* v not in {0,1,27,28} */
	SIG_BAD_RS,       /* r or s zero or not below the group order */
	SIG_HIGH_S,       /* s > n/2 */
	SIG_NO_RECOVERY,  /* no public key recovers from this digest */
	SIG_BAD_ENCODING, /* sig_parse_hex: not "0x" + hex digits */
	SIG_ERR__MAX
};

struct sig {
	uint8_t r[32];
	uint8_t s[32];
	uint8_t recid; /* 0 or 1 */
};

/*
 * Creates the shared secp256k1 context and randomizes it for signing
 * (side-channel blinding, seeded from getrandom). 0 or -1 (out of memory,
 * no entropy). Idempotent.
 */
int sig_init(void);

/* Frees the shared context (at process exit). Safe to call twice. */
void sig_release(void);

/* Short English reason for an error code (static string, never NULL). */
const char *sig_strerror(enum sig_err e);

/*
 * Parse raw signature bytes (64 or 65) and check them against the policy
 * above. On failure *out is unspecified.
 */
enum sig_err sig_parse(const uint8_t *raw, size_t len, struct sig *out);

/*
 * Parse "0x"-prefixed hex (either case) of 64 or 65 bytes, then as
 * sig_parse. SIG_BAD_ENCODING when it is not hex, SIG_BAD_LENGTH when it
 * is hex of another length.
 */
enum sig_err sig_parse_hex(const char *hex, size_t hexlen, struct sig *out);

/*
 * Recover the signing address of digest into out. Checks r, s and recid
 * again (a struct sig built by hand gets the same policy); SIG_NO_RECOVERY
 * when no key recovers or the context cannot be created.
 */
enum sig_err sig_recover(const uint8_t digest[32], const struct sig *s, struct addr *out);

/*
 * EIP-191 personal_sign digest:
 * keccak256("\x19Ethereum Signed Message:\n" + decimal(len) + msg),
 * len being the byte count. Cannot fail.
 */
void sig_personal_digest(const void *msg, size_t len, uint8_t out[32]);

/*
 * Sign digest with a 32-byte private key (RFC 6979 nonce, low-s).
 * Writes 65 bytes r || s || v (v = 27 or 28). 0 or -1 (invalid key).
 * The caller wipes the key when done. For tests and the demo seed.
 */
int sig_sign(const uint8_t key[32], const uint8_t digest[32], uint8_t out[65]);

/* Address of a private key; 0 or -1 (invalid key). The caller wipes the key. */
int sig_key_address(const uint8_t key[32], struct addr *out);

/* Writes s as 65 bytes r || s || v with v = 27 + recid. */
void sig_serialize(const struct sig *s, uint8_t out[65]);

#endif
