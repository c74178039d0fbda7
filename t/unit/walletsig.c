/*
 * lib/walletsig: the parts that need no chain. ERC-6492 detection and
 * unwrapping (valid wrapper from viem's serializeErc6492Signature, then
 * each way a wrapper can be malformed), the isValidSignature and validator
 * calldata (expected bytes from viem's encodeFunctionData and
 * encodeAbiParameters), result decoding, bounds, the EOA fast path without
 * any RPC, and failing closed: no rpc_url, or an rpc_url nothing listens
 * on, is UNAVAILABLE and never VALID. The chain paths (ERC-1271, EIP-6492
 * on a real node) are in t/0920-smart-wallet-reviews.t.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "hex.h"
#include "sig.h"
#include "nodecap.h"
#include "walletsig.h"
#include "walletsig_validator.h"
#include "tap.h"
#include "banned.h"

/* viem: serializeErc6492Signature({address: 0x1111…1111, data: createWallet(0x7099…79C8, 7), signature: 0xab x 65}) */
static const char *WRAPPED =
    "0x0000000000000000000000001111111111111111111111111111111111111111"
    "0000000000000000000000000000000000000000000000000000000000000060"
    "00000000000000000000000000000000000000000000000000000000000000e0"
    "0000000000000000000000000000000000000000000000000000000000000044"
    "b20ca81800000000000000000000000070997970c51812dc3a010c7d01b50e0d"
    "17dc79c800000000000000000000000000000000000000000000000000000000"
    "0000000700000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000041"
    "abababababababababababababababababababababababababababababababab"
    "abababababababababababababababababababababababababababababababab"
    "ab00000000000000000000000000000000000000000000000000000000000000"
    "6492649264926492649264926492649264926492649264926492649264926492";

static const char *FACTORY_CALLDATA =
    "0xb20ca81800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8"
    "0000000000000000000000000000000000000000000000000000000000000007";

/* viem: encodeFunctionData isValidSignature(0x5a x 32, 0x0102) */
static const char *CALL_1271 =
    "0x1626ba7e5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"
    "0000000000000000000000000000000000000000000000000000000000000040"
    "0000000000000000000000000000000000000000000000000000000000000002"
    "0102000000000000000000000000000000000000000000000000000000000000";

/* viem: encodeAbiParameters([address, bytes32, bytes], [0x7099…79C8, 0x5a x 32, 0x0102]) */
static const char *VALIDATOR_ARGS =
    "00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8"
    "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"
    "0000000000000000000000000000000000000000000000000000000000000060"
    "0000000000000000000000000000000000000000000000000000000000000002"
    "0102000000000000000000000000000000000000000000000000000000000000";

static uint8_t w[1024];
static size_t wlen;

static void
load_wrapped(void)
{
	if (hex_decode(WRAPPED, strlen(WRAPPED), w, sizeof(w), &wlen) < 0)
		wlen = 0;
}

/* Unwrap a copy of the wrapper with byte i set to v (i past the end: as is). */
static int
unwrap_with(size_t i, uint8_t v, size_t len)
{
	uint8_t c[1024];
	struct walletsig_6492 p;

	memcpy(c, w, wlen);
	if (i < wlen)
		c[i] = v;
	return walletsig_unwrap_6492(c, len, &p);
}

static void
test_6492(void)
{
	struct walletsig_6492 p;
	uint8_t fc[80], inner[65], zero[96] = { 0 };
	size_t fcl = 0, n = wlen - 32;

	ok(wlen == 384, "the viem wrapper decodes (384 bytes)");
	ok(walletsig_is_6492(w, wlen), "the 6492 suffix is detected");
	ok(!walletsig_is_6492(w, wlen - 1), "a suffix cut short is not detected");
	ok(!walletsig_is_6492(w + wlen - 31, 31), "31 bytes cannot hold the suffix");
	ok(!walletsig_is_6492(zero, sizeof(zero)), "zero bytes are not a wrapper");
	ok(!walletsig_is_6492(NULL, 0), "nothing is not a wrapper");
	memset(inner, 0xab, sizeof(inner));
	hex_decode(FACTORY_CALLDATA, strlen(FACTORY_CALLDATA), fc, sizeof(fc), &fcl);
	if (ok(walletsig_unwrap_6492(w, wlen, &p) == 0, "the viem wrapper unwraps")) {
		ok(p.factory.b[0] == 0x11 && p.factory.b[19] == 0x11, "factory 0x1111…1111");
		ok(p.factory_calldata_len == 68 && fcl == 68 && memcmp(p.factory_calldata, fc, 68) == 0,
		    "factoryCalldata is createWallet(owner, 7), 68 bytes");
		ok(p.inner_len == 65 && memcmp(p.inner, inner, 65) == 0, "the inner signature (65 bytes)");
	}
	ok(walletsig_unwrap_6492(w, wlen - 1, &p) < 0, "no suffix: not unwrapped");
	ok(unwrap_with(0, 1, wlen) < 0, "dirty upper bytes of the factory word");
	ok(unwrap_with(63, 0x80, wlen) < 0, "first offset not 0x60");
	ok(unwrap_with(95, 0xc0, wlen) < 0, "second offset not right after the first tail");
	ok(unwrap_with(64, 1, wlen) < 0, "a huge second offset");
	ok(unwrap_with(127, 0xff, wlen) < 0, "factoryCalldata length past the end");
	ok(unwrap_with(127, 0x64, wlen) < 0, "factoryCalldata longer than the gap to the second member");
	ok(unwrap_with(200, 1, wlen) < 0, "nonzero padding after factoryCalldata");
	ok(unwrap_with(255, 0x61, wlen) < 0, "inner length past the end");
	ok(unwrap_with(n - 1, 1, wlen) < 0, "nonzero padding after the inner signature");
	{
		/* 32 extra bytes before the suffix: trailing data after the last member. */
		uint8_t c[1024];

		memcpy(c, w, n);
		memset(c + n, 0, 32);
		memcpy(c + n + 32, w + n, 32);
		ok(walletsig_unwrap_6492(c, wlen + 32, &p) < 0, "trailing bytes after the inner signature");
	}
	ok(walletsig_unwrap_6492(w + n - 64, 96, &p) < 0, "a suffix with too short a head");
}

static void
test_calldata(void)
{
	uint8_t dg[32], two[2] = { 1, 2 }, big[WALLETSIG_MAX + 1];
	struct addr a;
	struct buf b;
	char *want;
	size_t wl;

	memset(dg, 0x5a, sizeof(dg));
	memset(big, 0x77, sizeof(big));
	hex_decode_fixed("0x70997970c51812dc3a010c7d01b50e0d17dc79c8", 42, a.b, 20, true);
	buf_init(&b, 64 * 1024);
	ok(walletsig_1271_calldata(dg, two, 2, &b) == 0, "isValidSignature calldata builds");
	is_str(buf_str(&b), CALL_1271, "isValidSignature(bytes32,bytes) calldata as viem encodes it");
	buf_reset(&b);
	ok(walletsig_validator_calldata(&a, dg, two, 2, &b) == 0, "validator calldata builds");
	wl = 2 + strlen(WALLETSIG_VALIDATOR_HEX) + strlen(VALIDATOR_ARGS);
	want = malloc(wl + 1);
	if (want) {
		memcpy(want, "0x", 2);
		memcpy(want + 2, WALLETSIG_VALIDATOR_HEX, strlen(WALLETSIG_VALIDATOR_HEX));
		memcpy(want + 2 + strlen(WALLETSIG_VALIDATOR_HEX), VALIDATOR_ARGS, strlen(VALIDATOR_ARGS) + 1);
	}
	is_str(buf_str(&b), want, "validator calldata: creation code || abi.encode(signer, hash, sig)");
	ok(strlen(WALLETSIG_VALIDATOR_HEX) == 2 * WALLETSIG_VALIDATOR_BYTES,
	    "the embedded creation code is %d bytes", WALLETSIG_VALIDATOR_BYTES);
	free(want);
	buf_reset(&b);
	ok(walletsig_1271_calldata(dg, big, WALLETSIG_MAX, &b) == 0 &&
	    b.len == 2 + 2 * (4 + 3 * 32 + WALLETSIG_MAX), "a 4096-byte signature fits (1271)");
	buf_reset(&b);
	ok(walletsig_validator_calldata(&a, dg, big, WALLETSIG_MAX, &b) == 0, "and fits the validator call");
	buf_reset(&b);
	ok(walletsig_1271_calldata(dg, big, WALLETSIG_MAX + 1, &b) < 0, "4097 bytes are refused (1271)");
	ok(walletsig_validator_calldata(&a, dg, big, WALLETSIG_MAX + 1, &b) < 0,
	    "4097 bytes are refused (validator)");
	buf_release(&b);
	buf_init(&b, 100);
	ok(walletsig_1271_calldata(dg, two, 2, &b) < 0, "a buffer too small for the calldata: -1");
	buf_release(&b);
}

static void
test_decode(void)
{
	const char *magic = "0x1626ba7e00000000000000000000000000000000000000000000000000000000";

	ok(walletsig_decode_1271(magic) == WALLETSIG_VALID, "1271: magic word: valid");
	ok(walletsig_decode_1271("0x1626BA7E00000000000000000000000000000000000000000000000000000000")
	    == WALLETSIG_VALID, "1271: uppercase hex: valid");
	ok(walletsig_decode_1271("0x1626ba7e000000000000000000000000000000000000000000000000000000")
	    == WALLETSIG_INVALID, "1271: magic in 31 bytes: invalid");
	ok(walletsig_decode_1271("0x1626ba7f00000000000000000000000000000000000000000000000000000000")
	    == WALLETSIG_INVALID, "1271: another word: invalid");
	ok(walletsig_decode_1271("0x") == WALLETSIG_INVALID, "1271: empty result: invalid");
	ok(walletsig_decode_1271("0x1626ba7e0") == WALLETSIG_UNAVAILABLE, "1271: odd hex: unavailable");
	ok(walletsig_decode_1271("1626ba7e") == WALLETSIG_UNAVAILABLE, "1271: no 0x: unavailable");
	ok(walletsig_decode_1271(NULL) == WALLETSIG_UNAVAILABLE, "1271: no result: unavailable");
	ok(walletsig_decode_validator("0x01") == WALLETSIG_VALID, "validator 0x01: valid");
	ok(walletsig_decode_validator("0x00") == WALLETSIG_INVALID, "validator 0x00: invalid");
	ok(walletsig_decode_validator("0x02") == WALLETSIG_UNAVAILABLE, "validator 0x02: unavailable");
	ok(walletsig_decode_validator("0x") == WALLETSIG_UNAVAILABLE, "validator empty: unavailable");
	ok(walletsig_decode_validator("0x0001") == WALLETSIG_UNAVAILABLE, "validator 2 bytes: unavailable");
	ok(walletsig_decode_validator("0xzz") == WALLETSIG_UNAVAILABLE, "validator not hex: unavailable");
	is_str(walletsig_kind_column(WALLETSIG_EOA), "eoa", "kind column: eoa");
	is_str(walletsig_kind_column(WALLETSIG_ERC1271), "erc1271", "kind column: erc1271");
	is_str(walletsig_kind_column(WALLETSIG_ERC6492), "erc1271", "kind column: 6492 is stored as erc1271");
}

static void
test_verify(void)
{
	/* anvil #1, a public test key */
	uint8_t key[32], dg[32], s[65], big[WALLETSIG_MAX + 1];
	struct addr me, other;
	struct config cfg;
	enum walletsig_kind k = WALLETSIG_KIND__MAX;

	memset(&cfg, 0, sizeof(cfg));
	cfg.rpc_timeout_ms = 2000;
	cfg.sigcheck_timeout_ms = 2000;
	hex_decode_fixed("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d", 66, key, 32, true);
	memset(dg, 0x42, sizeof(dg));
	sig_key_address(key, &me);
	sig_sign(key, dg, s);
	memset(key, 0, sizeof(key));
	memset(&other, 0x99, sizeof(other));
	memset(big, 0, sizeof(big));

	ok(walletsig_verify(&cfg, dg, s, 65, &me, &k) == WALLETSIG_VALID && k == WALLETSIG_EOA,
	    "an EOA signature is valid locally, without any rpc_url");
	s[64] -= 27;
	ok(walletsig_verify(&cfg, dg, s, 65, &me, &k) == WALLETSIG_VALID, "v = 0/1 is accepted");
	s[64] += 27;
	ok(walletsig_verify(&cfg, dg, s, 65, &other, &k) == WALLETSIG_UNAVAILABLE && k == WALLETSIG_ERC1271,
	    "someone else's signature with no rpc_url: the 1271 check is unavailable, never valid");
	ok(walletsig_verify(&cfg, dg, w, wlen, &me, &k) == WALLETSIG_UNAVAILABLE && k == WALLETSIG_ERC6492,
	    "a 6492 signature with no rpc_url: unavailable");
	w[0] = 1;
	ok(walletsig_verify(&cfg, dg, w, wlen, &me, &k) == WALLETSIG_INVALID && k == WALLETSIG_ERC6492,
	    "a malformed 6492 wrapper: invalid without asking the chain");
	w[0] = 0;
	ok(walletsig_verify(&cfg, dg, big, WALLETSIG_MAX + 1, &me, &k) == WALLETSIG_INVALID,
	    "4097 bytes: invalid");
	ok(walletsig_verify(&cfg, dg, s, 0, &me, &k) == WALLETSIG_INVALID, "no bytes: invalid");
	/* A real transport failure: nothing listens on port 1. */
	snprintf(cfg.rpc_url, sizeof(cfg.rpc_url), "http://127.0.0.1:1/");
	ok(walletsig_verify(&cfg, dg, s, 65, &other, &k) == WALLETSIG_UNAVAILABLE,
	    "an unreachable node: the code lookup fails closed (unavailable)");
	ok(walletsig_verify(&cfg, dg, w, wlen, &me, &k) == WALLETSIG_UNAVAILABLE,
	    "an unreachable node: the 6492 validator call fails closed");
	ok(walletsig_verify(&cfg, dg, s, 65, &me, &k) == WALLETSIG_VALID,
	    "the EOA fast path still works with the node down");
	/* The cap on checks that call the RPC: full, it gates only those. */
	{
		struct admit cap;
		struct admit_ticket t;
		char err[128];

		admit_init(&cap, 1, NULL, err, sizeof(err));
		nodecap_limit(&cap);
		ok(admit_enter(&cap, &t), "the one place is taken");
		ok(walletsig_verify(&cfg, dg, s, 65, &me, &k) == WALLETSIG_VALID,
		    "a full cap: an EOA signature is still checked locally");
		w[0] = 1;
		ok(walletsig_verify(&cfg, dg, w, wlen, &me, &k) == WALLETSIG_INVALID,
		    "a full cap: a malformed 6492 wrapper is still refused locally");
		w[0] = 0;
		ok(walletsig_verify(&cfg, dg, w, wlen, &me, &k) == WALLETSIG_UNAVAILABLE,
		    "a full cap: a check that needs the RPC is unavailable");
		ok(atomic_load(&cap.held) == 1, "and took no place");
		admit_leave(&cap, &t);
		ok(walletsig_verify(&cfg, dg, s, 65, &other, &k) == WALLETSIG_UNAVAILABLE,
		    "a free place: the check calls the (unreachable) node");
		ok(atomic_load(&cap.held) == 0, "and gives its place back");
		nodecap_limit(NULL);
	}
}

int
main(void)
{
	if (!ok(sig_init() == 0, "sig_init, once before anything recovers (lib/sig.h)"))
		return done_testing();
	load_wrapped();
	test_6492();
	test_calldata();
	test_decode();
	test_verify();
	done_testing();
}
