/*
 * seal.h: authenticated encryption at rest (AES-256-GCM, OpenSSL EVP) of
 * small secrets the service keeps for others, such as private-tip notes
 * (docs/PROTOCOL.md, Private tips). A sealed value is ciphertext || a
 * 16-byte tag under a fresh random 12-byte IV; the associated data (e.g.
 * the commitment a blob answers) binds it to its row, so a sealed value
 * copied to another row does not open.
 *
 * Return conventions: actions 0/-1. The key is parsed per call from the
 * configuration's hex and wiped from the stack after use.
 */
#ifndef WAYMARK_SEAL_H
#define WAYMARK_SEAL_H

#include <stddef.h>
#include <stdint.h>

#define SEAL_KEY_HEX 64
#define SEAL_IV 12
#define SEAL_TAG 16

/*
 * Seal plain[0..n) under key_hex (64 hex digits) with aad[0..aad_len):
 * iv[SEAL_IV] gets a fresh random IV, out[0..n + SEAL_TAG) the ciphertext
 * and tag (cap must hold n + SEAL_TAG). -1 on a bad key, a short cap or
 * an OpenSSL failure.
 */
int seal_seal(const char *key_hex, const uint8_t *aad, size_t aad_len, const uint8_t *plain,
    size_t n, uint8_t iv[SEAL_IV], uint8_t *out, size_t cap);

/*
 * Open sealed[0..n) (ciphertext || tag) into out[0..n - SEAL_TAG) (cap
 * must hold that). -1 when the key is bad, the tag does not verify (wrong
 * key, aad or bytes) or n < SEAL_TAG; out then holds nothing usable.
 */
int seal_open(const char *key_hex, const uint8_t *aad, size_t aad_len,
    const uint8_t iv[SEAL_IV], const uint8_t *sealed, size_t n, uint8_t *out, size_t cap);

#endif
