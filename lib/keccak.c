#include <string.h>

#include <nettle/sha3.h>

#include "keccak.h"
#include "banned.h"

void
keccak_init(struct keccak_ctx *c)
{
	memset(c, 0, sizeof(*c));
}

/* XOR one full block into the state (lanes are little-endian) and permute. */
static void
absorb_block(struct keccak_ctx *c, const uint8_t *block)
{
	struct sha3_state st;

	for (size_t i = 0; i < KECCAK_RATE / 8; i++) {
		uint64_t w = 0;

		for (int b = 7; b >= 0; b--)
			w = (w << 8) | block[i * 8 + (size_t)b];
		c->lanes[i] ^= w;
	}
	memcpy(st.a, c->lanes, sizeof(st.a));
	sha3_permute(&st);
	memcpy(c->lanes, st.a, sizeof(st.a));
}

void
keccak_update(struct keccak_ctx *c, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (c->fill > 0) {
		size_t take = KECCAK_RATE - c->fill;

		if (take > len)
			take = len;
		memcpy(c->block + c->fill, p, take);
		c->fill += take;
		p += take;
		len -= take;
		if (c->fill < KECCAK_RATE)
			return;
		absorb_block(c, c->block);
		c->fill = 0;
	}
	while (len >= KECCAK_RATE) {
		absorb_block(c, p);
		p += KECCAK_RATE;
		len -= KECCAK_RATE;
	}
	if (len > 0) {
		memcpy(c->block, p, len);
		c->fill = len;
	}
}

void
keccak_final(struct keccak_ctx *c, uint8_t out[32])
{
	memset(c->block + c->fill, 0, KECCAK_RATE - c->fill);
	c->block[c->fill] ^= 0x01;
	c->block[KECCAK_RATE - 1] ^= 0x80;
	absorb_block(c, c->block);
	for (size_t i = 0; i < 32; i++)
		out[i] = (uint8_t)(c->lanes[i / 8] >> (8 * (i % 8)));
	memset(c, 0, sizeof(*c));
}

void
keccak256(const void *in, size_t len, uint8_t out[32])
{
	struct keccak_ctx c;

	keccak_init(&c);
	keccak_update(&c, in, len);
	keccak_final(&c, out);
}
