/*
 * keccak.h: Keccak-256 (the Ethereum hash, pad byte 0x01), built on
 * nettle's Keccak-f[1600] permutation. OpenSSL 3.0 has no Keccak-256 and
 * its SHA3-256 pads differently, so it cannot stand in.
 *
 * Incremental: keccak_init, keccak_update any number of times, then
 * keccak_final. No allocation; the context lives on the caller's stack.
 */
#ifndef WAYMARK_KECCAK_H
#define WAYMARK_KECCAK_H

#include <stddef.h>
#include <stdint.h>

#define KECCAK_RATE 136

struct keccak_ctx {
	uint64_t lanes[25];
	uint8_t block[KECCAK_RATE];
	size_t fill;
};

void keccak_init(struct keccak_ctx *c);
void keccak_update(struct keccak_ctx *c, const void *data, size_t len);
void keccak_final(struct keccak_ctx *c, uint8_t out[32]);

/* One-shot Keccak-256 of in[0..len). */
void keccak256(const void *in, size_t len, uint8_t out[32]);

#endif
