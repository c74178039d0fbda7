/* secp256k1 signatures the Ethereum way, on libsecp256k1 0.2.0. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include <secp256k1.h>
#include <secp256k1_recovery.h>

#include "hex.h"
#include "keccak.h"
#include "sig.h"
#include "banned.h"

static secp256k1_context *ctx;

/* The group order n and n/2 (rounded down), big-endian. */
static const uint8_t order_n[32] = {
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE,
	0xBA, 0xAE, 0xDC, 0xE6, 0xAF, 0x48, 0xA0, 0x3B, 0xBF, 0xD2, 0x5E, 0x8C, 0xD0, 0x36, 0x41, 0x41,
};
static const uint8_t half_n[32] = {
	0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	0x5D, 0x57, 0x6E, 0x73, 0x57, 0xA4, 0x50, 0x1D, 0xDF, 0xE9, 0x2F, 0x46, 0x68, 0x1B, 0x20, 0xA0,
};

static const char *const sig_errstr[SIG_ERR__MAX] = {
	[SIG_OK] = "no error",
	[SIG_BAD_LENGTH] = "signature must be 64 or 65 bytes",
	[SIG_BAD_V] = "signature v must be 0, 1, 27 or 28",
	[SIG_BAD_RS] = "signature r or s is zero or not below the curve order",
	[SIG_HIGH_S] = "signature s is in the upper half of the curve order (malleable)",
	[SIG_NO_RECOVERY] = "no public key can be recovered from this signature",
	[SIG_BAD_ENCODING] = "signature must be 0x-prefixed hexadecimal",
};

int
sig_init(void)
{
	uint8_t seed[32];
	int rc = -1;

	if (ctx != NULL)
		return 0;
	ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
	if (ctx == NULL)
		return -1;
	if (getrandom(seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
		goto out;
	if (!secp256k1_context_randomize(ctx, seed))
		goto out;
	rc = 0;
out:
	explicit_bzero(seed, sizeof(seed));
	if (rc < 0) {
		secp256k1_context_destroy(ctx);
		ctx = NULL;
	}
	return rc;
}

void
sig_release(void)
{
	if (ctx != NULL)
		secp256k1_context_destroy(ctx);
	ctx = NULL;
}

const char *
sig_strerror(enum sig_err e)
{
	if ((unsigned)e >= SIG_ERR__MAX)
		return "unknown signature error";
	return sig_errstr[e];
}

static bool
is_zero32(const uint8_t x[32])
{
	uint8_t acc = 0;

	for (size_t i = 0; i < 32; i++)
		acc |= x[i];
	return acc == 0;
}

/* Policy on an already split signature: r, s in [1, n-1], s <= n/2. */
static enum sig_err
check_rs(const struct sig *s)
{
	if (s->recid > 1)
		return SIG_BAD_V;
	if (is_zero32(s->r) || memcmp(s->r, order_n, 32) >= 0)
		return SIG_BAD_RS;
	if (is_zero32(s->s) || memcmp(s->s, order_n, 32) >= 0)
		return SIG_BAD_RS;
	if (memcmp(s->s, half_n, 32) > 0)
		return SIG_HIGH_S;
	return SIG_OK;
}

enum sig_err
sig_parse(const uint8_t *raw, size_t len, struct sig *out)
{
	if (raw == NULL || (len != 64 && len != 65))
		return SIG_BAD_LENGTH;
	memcpy(out->r, raw, 32);
	memcpy(out->s, raw + 32, 32);
	if (len == 65) {
		uint8_t v = raw[64];

		if (v == 0 || v == 1)
			out->recid = v;
		else if (v == 27 || v == 28)
			out->recid = (uint8_t)(v - 27);
		else
			return SIG_BAD_V;
	} else {
		/* EIP-2098: the top bit of the second word is yParity. */
		out->recid = (uint8_t)(out->s[0] >> 7);
		out->s[0] &= 0x7F;
	}
	return check_rs(out);
}

enum sig_err
sig_parse_hex(const char *hex, size_t hexlen, struct sig *out)
{
	uint8_t raw[65];
	size_t n;

	if (hex == NULL || hexlen < 2 || hex[0] != '0' || (hex[1] != 'x' && hex[1] != 'X'))
		return SIG_BAD_ENCODING;
	for (size_t i = 2; i < hexlen; i++)
		if (hex_digit((unsigned char)hex[i]) < 0)
			return SIG_BAD_ENCODING;
	if (hexlen != 2 + 2 * 64 && hexlen != 2 + 2 * 65)
		return SIG_BAD_LENGTH;
	if (hex_decode(hex, hexlen, raw, sizeof(raw), &n) < 0)
		return SIG_BAD_ENCODING;
	return sig_parse(raw, n, out);
}

/* Ethereum address of a public key: last 20 bytes of keccak(X || Y). */
static int
pubkey_address(const secp256k1_pubkey *pub, struct addr *out)
{
	uint8_t ser[65], h[32];
	size_t serlen = sizeof(ser);

	if (!secp256k1_ec_pubkey_serialize(ctx, ser, &serlen, pub, SECP256K1_EC_UNCOMPRESSED))
		return -1;
	if (serlen != 65 || ser[0] != 0x04)
		return -1;
	keccak256(ser + 1, 64, h);
	memcpy(out->b, h + 12, ADDR_LEN);
	return 0;
}

enum sig_err
sig_recover(const uint8_t digest[32], const struct sig *s, struct addr *out)
{
	secp256k1_ecdsa_recoverable_signature rsig;
	secp256k1_pubkey pub;
	uint8_t rs[64];
	enum sig_err e;

	if ((e = check_rs(s)) != SIG_OK)
		return e;
	if (ctx == NULL)
		return SIG_NO_RECOVERY;   /* sig_init has not run: fail closed */
	memcpy(rs, s->r, 32);
	memcpy(rs + 32, s->s, 32);
	if (!secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &rsig, rs, s->recid))
		return SIG_BAD_RS;
	if (!secp256k1_ecdsa_recover(ctx, &pub, &rsig, digest))
		return SIG_NO_RECOVERY;
	if (pubkey_address(&pub, out) < 0)
		return SIG_NO_RECOVERY;
	return SIG_OK;
}

void
sig_personal_digest(const void *msg, size_t len, uint8_t out[32])
{
	static const char prefix[] = "\x19" "Ethereum Signed Message:\n";
	char num[24];
	int n;
	struct keccak_ctx c;

	/* A size_t has at most 20 decimal digits, so this cannot truncate. */
	n = snprintf(num, sizeof(num), "%zu", len);
	keccak_init(&c);
	keccak_update(&c, prefix, sizeof(prefix) - 1);
	if (n > 0 && (size_t)n < sizeof(num))
		keccak_update(&c, num, (size_t)n);
	keccak_update(&c, msg, len);
	keccak_final(&c, out);
}

int
sig_sign(const uint8_t key[32], const uint8_t digest[32], uint8_t out[65])
{
	secp256k1_ecdsa_recoverable_signature rsig;
	int recid = -1;

	if (ctx == NULL)
		return -1;
	if (!secp256k1_ec_seckey_verify(ctx, key))
		return -1;
	if (!secp256k1_ecdsa_sign_recoverable(ctx, &rsig, digest, key, NULL, NULL))
		return -1;
	if (!secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, out, &recid, &rsig))
		return -1;
	if (recid != 0 && recid != 1)
		return -1;
	out[64] = (uint8_t)(27 + recid);
	return 0;
}

int
sig_key_address(const uint8_t key[32], struct addr *out)
{
	secp256k1_pubkey pub;

	if (ctx == NULL)
		return -1;
	if (!secp256k1_ec_seckey_verify(ctx, key))
		return -1;
	if (!secp256k1_ec_pubkey_create(ctx, &pub, key))
		return -1;
	return pubkey_address(&pub, out);
}

void
sig_serialize(const struct sig *s, uint8_t out[65])
{
	memcpy(out, s->r, 32);
	memcpy(out + 32, s->s, 32);
	out[64] = (uint8_t)(27 + s->recid);
}
