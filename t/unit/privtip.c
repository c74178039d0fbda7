/*
 * Private tips (docs/PROTOCOL.md, Private tips): the commitment
 * keccak256(salt || utf8(note)) against values computed with viem
 * (keccak256(concat([salt, toBytes(note)]))), the signed-unlock headers,
 * and the seal at rest (AES-256-GCM, lib/seal.h): round trip, and every
 * way a sealed blob must not open.
 */
#include <string.h>

#include "hex.h"
#include "privtip.h"
#include "seal.h"
#include "tap.h"
#include "banned.h"

#define SALT "0x1111111111111111111111111111111111111111111111111111111111111111"
#define KEY "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define ADDR "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
#define NONCE "0x0101010101010101010101010101010101010101010101010101010101010101"

static void
b32(const char *hex, uint8_t out[32])
{
	hex_decode_fixed(hex, 66, out, 32, true);
}

static void
commitments(void)
{
	static const struct {
		const char *note, *commitment;
	} v[] = {
		{ "thanks for the fast answer",
		    "0x9ef22ebcd4660f228b8af0de8b6f88e5e5b570a3171ff8a5da90723d7b7bce1f" },
		{ "merci, ça marche très bien €",
		    "0xa26c95471ef57937cd58ccdf99a394e17de6f1dfed4de384ec6ef3d7c65d1cfa" },
	};
	uint8_t salt[32], c[32];

	b32(SALT, salt);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		b32(v[i].commitment, c);
		ok(privtip_commitment_ok(c, salt, v[i].note, strlen(v[i].note)),
		    "commitment of \"%s\" (viem)", v[i].note);
		ok(!privtip_commitment_ok(c, salt, v[i].note, strlen(v[i].note) - 1),
		    "not the commitment of the note cut by one byte");
		salt[31] ^= 1;
		ok(!privtip_commitment_ok(c, salt, v[i].note, strlen(v[i].note)), "nor under another salt");
		salt[31] ^= 1;
	}
}

static void
headers(void)
{
	struct privtip_auth a;
	const char *bad = NULL;
	char sig[2 * 65 + 3];

	memset(sig, 'a', sizeof(sig) - 1);
	sig[0] = '0';
	sig[1] = 'x';
	sig[sizeof(sig) - 1] = '\0';
	ok(privtip_parse_auth(NULL, NULL, NULL, NULL, &a, &bad) == PRIVTIP_AUTH_NONE && bad == NULL,
	    "no header: the paid path");
	ok(privtip_parse_auth(ADDR, sig, NONCE, "1767225600", &a, &bad) == PRIVTIP_AUTH_OK,
	    "four well-formed headers");
	ok(a.sig_len == 65 && a.deadline == 1767225600 && a.nonce[0] == 1 && a.address.b[0] == 0x70,
	    "parsed into the signature, deadline, nonce and address");
	ok(privtip_parse_auth(ADDR, NULL, NONCE, "5", &a, &bad) == PRIVTIP_AUTH_BAD &&
	    strcmp(bad, PRIVTIP_H_SIG) == 0, "a missing signature is named");
	ok(privtip_parse_auth("0x70997970c51812dc3A010C7d01b50e0d17dc79C8", sig, NONCE, "5", &a, &bad) ==
	    PRIVTIP_AUTH_BAD && strcmp(bad, PRIVTIP_H_ADDRESS) == 0, "a broken checksum is refused");
	ok(privtip_parse_auth(ADDR, "0xabc", NONCE, "5", &a, &bad) == PRIVTIP_AUTH_BAD &&
	    strcmp(bad, PRIVTIP_H_SIG) == 0, "an odd-length signature is refused");
	ok(privtip_parse_auth(ADDR, "0x", NONCE, "5", &a, &bad) == PRIVTIP_AUTH_BAD,
	    "an empty signature is refused");
	ok(privtip_parse_auth(ADDR, sig, "0x0101", "5", &a, &bad) == PRIVTIP_AUTH_BAD &&
	    strcmp(bad, PRIVTIP_H_NONCE) == 0, "a short nonce is refused");
	ok(privtip_parse_auth(ADDR, sig, NONCE, "0123", &a, &bad) == PRIVTIP_AUTH_BAD &&
	    strcmp(bad, PRIVTIP_H_DEADLINE) == 0, "a deadline with a leading zero is refused");
	ok(privtip_parse_auth(ADDR, sig, NONCE, "0", &a, &bad) == PRIVTIP_AUTH_BAD,
	    "a zero deadline is refused");
	ok(privtip_parse_auth(ADDR, sig, NONCE, "9007199254740992", &a, &bad) == PRIVTIP_AUTH_BAD,
	    "a deadline past 2^53-1 is refused");
	ok(privtip_parse_auth(ADDR, sig, NONCE, "9007199254740991", &a, &bad) == PRIVTIP_AUTH_OK,
	    "2^53-1 is the largest deadline");
	ok(privtip_parse_auth(ADDR, sig, NONCE, "12a", &a, &bad) == PRIVTIP_AUTH_BAD,
	    "a deadline that is not decimal is refused");
}

static void
sealing(void)
{
	const char *plain = "a salt and a note, sealed";
	uint8_t aad[32] = { 7 }, iv[SEAL_IV], iv2[SEAL_IV], out[64], out2[64], back[64];
	size_t n = strlen(plain);

	ok(seal_seal(KEY, aad, 32, (const uint8_t *)plain, n, iv, out, sizeof(out)) == 0, "sealed");
	ok(seal_open(KEY, aad, 32, iv, out, n + SEAL_TAG, back, sizeof(back)) == 0 &&
	    memcmp(back, plain, n) == 0, "opens to the same bytes");
	ok(seal_seal(KEY, aad, 32, (const uint8_t *)plain, n, iv2, out2, sizeof(out2)) == 0 &&
	    (memcmp(iv, iv2, SEAL_IV) != 0 || memcmp(out, out2, n) != 0),
	    "a second seal takes a fresh IV");
	aad[0] ^= 1;
	ok(seal_open(KEY, aad, 32, iv, out, n + SEAL_TAG, back, sizeof(back)) < 0,
	    "not under another commitment (associated data)");
	aad[0] ^= 1;
	ok(seal_open("ff0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", aad, 32, iv, out,
	    n + SEAL_TAG, back, sizeof(back)) < 0, "not under another key");
	out[3] ^= 0x40;
	ok(seal_open(KEY, aad, 32, iv, out, n + SEAL_TAG, back, sizeof(back)) < 0,
	    "not with a flipped ciphertext byte");
	out[3] ^= 0x40;
	out[n + 2] ^= 1;
	ok(seal_open(KEY, aad, 32, iv, out, n + SEAL_TAG, back, sizeof(back)) < 0,
	    "not with a flipped tag byte");
	out[n + 2] ^= 1;
	ok(seal_open(KEY, aad, 32, iv, out, SEAL_TAG - 1, back, sizeof(back)) < 0, "not when shorter than a tag");
	ok(seal_seal("00", aad, 32, (const uint8_t *)plain, n, iv, out, sizeof(out)) < 0 &&
	    seal_seal("zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", aad, 32,
	    (const uint8_t *)plain, n, iv, out, sizeof(out)) < 0, "a key that is not 64 hex digits is refused");
	ok(seal_seal(KEY, aad, 32, (const uint8_t *)plain, n, iv, out, n + SEAL_TAG - 1) < 0,
	    "an output without room for the tag is refused");
}

int
main(void)
{
	commitments();
	headers();
	sealing();
	return done_testing();
}
