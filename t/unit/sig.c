/*
 * Signatures: EIP-191 digests, SIWE/SIWX messages, EIP-712 digests and
 * published signatures, v/r/s policy, EIP-2098, signing with known keys.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "addr.h"
#include "hex.h"
#include "keccak.h"
#include "sig.h"
#include "tap.h"
#include "banned.h"

#define COW "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
#define ANVIL0 "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
#define ANVIL0_KEY "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
#define WEB3_KEY "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

enum signer { NO_KEY, COW_KEY, ANVIL_KEY };

/* A digest, a published signature and the address it must recover to. */
struct vec {
	const char *name;
	const char *digest;
	const char *sig;
	const char *signer;
	enum signer key; /* the key is known: sig_sign must reproduce sig */
};

/* SIWE / SIWX messages: built from the exact text, hashed with EIP-191. */
struct msgvec {
	const char *name;
	const char *text;
	const char *digest; /* NULL when no published digest */
	const char *sig;
	const char *signer;
	enum signer key;
};

static const struct msgvec msgs[] = {
	{"protocols.md 5.5 SIWE with statement",
	    "svc.example wants you to sign in with your Ethereum account:\n" COW "\n\n"
	    "Sign in to svc\n\n"
	    "URI: https://svc.example/api/v1/x402/profiles\nVersion: 1\nChain ID: 8453\n"
	    "Nonce: a1b2c3d4e5f67890a1b2c3d4e5f67890\nIssued At: 2026-01-15T10:30:00.000Z\n"
	    "Expiration Time: 2026-01-15T10:35:00.000Z\nResources:\n"
	    "- https://svc.example/api/v1/x402/profiles",
	    "0x91c6e809091b2145a3c8c9012d4269c0ad50adada263c9d47ecd5fb5ceb7dde2",
	    "0xa22a22cbb36272065156098f4255b1726518f6ce331053a42751dc612d31066b"
	    "42f119c17316facd18081449abcd2b17564dca7f07987de3797fe46fbdf9f3251b",
	    COW, COW_KEY},
	{"protocols.md 5.5 SIWE without statement",
	    "svc.example wants you to sign in with your Ethereum account:\n" COW "\n\n\n"
	    "URI: https://svc.example/a\nVersion: 1\nChain ID: 8453\nNonce: abcdefgh12345678\n"
	    "Issued At: 2026-01-15T10:30:00Z",
	    "0xfb65944dc4bfec26696cebe23abe39a8ceaf1961fbf6a91e3d0a58b2e5129e72",
	    "0xc7a61c23658257ae79a2af75862e9052d6fcff8399dcf9b59bf0dcbeeb8702db"
	    "517f6da11f214646c4ac6a53bb7a6ab120b1caa8e736b62d1a66204b5b6fe9d41b",
	    COW, COW_KEY},
	{"x402.md 8.5 SIWX with statement",
	    "api.example.com wants you to sign in with your Ethereum account:\n" ANVIL0 "\n\n"
	    "Sign in to access premium data\n\n"
	    "URI: https://api.example.com/premium-data\nVersion: 1\nChain ID: 8453\n"
	    "Nonce: a1b2c3d4e5f67890a1b2c3d4e5f67890\nIssued At: 2024-01-15T10:30:00.000Z\n"
	    "Expiration Time: 2024-01-15T10:35:00.000Z\nResources:\n"
	    "- https://api.example.com/premium-data",
	    "0x458875571fdea978933d39ea26262328c556850721b3f04637399205263f684b",
	    "0x4c261c7acf140d1a136a34d486f56f787ce8c5a25624809f0aa6382aa842b8b6"
	    "5dab28ceb6f8b1f92c2738e0d5e8c09a09c09b6432d1c8fd904bac587a0b35d11c",
	    ANVIL0, ANVIL_KEY},
	{"x402.md 8.5 SIWX without statement",
	    "api.example.com wants you to sign in with your Ethereum account:\n" ANVIL0 "\n\n\n"
	    "URI: https://api.example.com/premium-data\nVersion: 1\nChain ID: 8453\n"
	    "Nonce: a1b2c3d4e5f67890a1b2c3d4e5f67890\nIssued At: 2024-01-15T10:30:00.000Z\n"
	    "Expiration Time: 2024-01-15T10:35:00.000Z\nResources:\n"
	    "- https://api.example.com/premium-data",
	    "0xf78f517fbb82b85d75ee2d573fa74424320dd53ded16da5367c07fd8fa99671c",
	    "0xc53e3c764e322a2a2e11f54cc942b51ef522a81240a9e00be714679b121a860d"
	    "15b58b4ec0d1557a0046e35816245947844196759259a3d44eeed90c37e224a31b",
	    ANVIL0, ANVIL_KEY},
	/* spruceid/siwe test/verification_positive.json */
	{"spruceid example message",
	    "login.xyz wants you to sign in with your Ethereum account:\n"
	    "0x9D85ca56217D2bb651b00f15e694EB7E713637D4\n\n"
	    "Sign-In With Ethereum Example Statement\n\n"
	    "URI: https://login.xyz\nVersion: 1\nChain ID: 1\nNonce: bTyXgcQxn2htgkjJn\n"
	    "Issued At: 2022-01-27T17:09:38.578Z\nExpiration Time: 2100-01-07T14:31:43.952Z",
	    "0x74dcf891d81129919bafbf454f2c1200230ee75ee618111277e5618a30c3bf7a",
	    "0xdc35c7f8ba2720df052e0092556456127f00f7707eaa8e3bbff7e56774e7f2e0"
	    "5a093cfc9e02964c33d86e8e066e221b7d153d27e5a2e97ccd5ca7d3f2ce06cb1b",
	    "0x9D85ca56217D2bb651b00f15e694EB7E713637D4", NO_KEY},
	{"spruceid recovery byte starting at 0 (tally, v=1)",
	    "www.tally.xyz wants you to sign in with your Ethereum account:\n"
	    "0xc95EB884FE852e241D409234bfC7045CB9E31BD7\n\n"
	    "Sign in with Ethereum to Tally\n\n"
	    "URI: https://tally.xyz\nVersion: 1\nChain ID: 1\nNonce: 15050747\n"
	    "Issued At: 2022-06-30T14:08:51.382Z",
	    "0x8a8ee8e7afb629079993f5fe2ea434ae79ab653661a39da5a75398d1d9c137aa",
	    "0x8c46b6eb8505939892d8e9b075f89f8277321b17b993151f37810cdda38cce6f"
	    "4a85909d2b53e6a14629c74c0ac38bf4becde78ee5b2529812bf6cceaf7b2a2501",
	    "0xc95EB884FE852e241D409234bfC7045CB9E31BD7", NO_KEY},
	{"spruceid not yet valid (Not Before line)",
	    "login.xyz wants you to sign in with your Ethereum account:\n"
	    "0xE6D3Aa1F561A215E5eb1f02Ba8705385F03fCaFB\n\n"
	    "Sign-In With Ethereum Example Statement\n\n"
	    "URI: https://login.xyz\nVersion: 1\nChain ID: 1\nNonce: lx2nx4so\n"
	    "Issued At: 2022-01-05T14:27:30.883Z\nNot Before: 2100-01-07T14:31:43.952Z",
	    NULL,
	    "0xc2539ace78f13c7eb8c0852d38d269a6f97bebd9f7872097d2e3137b541f8bf5"
	    "0176062a46eeea83086bd2721423fb5755a932ff6ccc046ed482d14e4576042f1c",
	    "0xE6D3Aa1F561A215E5eb1f02Ba8705385F03fCaFB", NO_KEY},
	{"spruceid expired message (time without ms)",
	    "login.xyz wants you to sign in with your Ethereum account:\n"
	    "0x2ecA0068307e706741445764A3D6A4402aC2A5a9\n\n"
	    "Sign-In With Ethereum Example Statement\n\n"
	    "URI: https://login.xyz\nVersion: 1\nChain ID: 1\nNonce: lx2nx4so\n"
	    "Issued At: 2022-01-05T14:27:30.883Z\nExpiration Time: 2021-01-05T00:00:00Z",
	    NULL,
	    "0x7337bc2826c7678cd6bc84f5b3b236efc969b0451f9feca2328b1d3401b030c1"
	    "13f19bdba359ba3f52762c66e9147311fa95fe598a1a4ec9bb383a7b4e3874241b",
	    "0x2ecA0068307e706741445764A3D6A4402aC2A5a9", NO_KEY},
	{"EIP-191 hello world (cow)", "hello world",
	    "0xd9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68",
	    "0xe1ffe99aa71b20a5a9bfe344aa88d410141149c2be44ab8ff3e4fa4cdc1e90dc"
	    "41ad65439332078f28538cd371b4bf9b216af7478cff49abda5ce04a3d603c6a1b",
	    COW, COW_KEY},
};

/* EIP-712 digests with published signatures. */
static const struct vec digests[] = {
	{"EIP-712 Mail (v=28)", "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2",
	    "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d"
	    "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c",
	    COW, COW_KEY},
	{"TransferWithAuthorization Base mainnet",
	    "0x7e9613714edd92ad20fa5b252ec168245031911a3438dd20225f083b6a688f8a",
	    "0xa70a7d235fd4218a3ed6625525892efed6fd1ac6a193ba612bb9da921620bce7"
	    "4885a8f7f56d2dc2f46005b7d6a089ae3469455a911004b6c4a6ab600677f56c1c",
	    ANVIL0, ANVIL_KEY},
	{"TransferWithAuthorization Base Sepolia",
	    "0x50708d3bf7216e1aeabe7bf22081b9f36c7c287530f92510318f13a03d89dc86",
	    "0xdc53a4a579de989368a0fae2ef2172ff2f474b4297013f865d171239f17ef4c3"
	    "157b4b4030f1bebc53d55ace15c2377dff501a60e1e56c291f1000d6e78f082f1b",
	    ANVIL0, ANVIL_KEY},
	{"x402 offer", "0x080c2947f96376213d3de762c32b1f56ba5869acdeb87c7a44b7be5d33d397ea",
	    "0x57073060e55da4e8a97e47dd390e7c2db8ac1fb7f53bbe0dc253a08267b3a909"
	    "7f595505f2c47421ede1cc84c1360eba670ccd4011933ace67e6482abea885971b",
	    ANVIL0, ANVIL_KEY},
	{"x402 receipt", "0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b",
	    "0x4f98ad0be21e9eb48ec1aeb7a65f25100f7db10a8e1870aa4021cbd6985013d0"
	    "1451045373c2f5f74ac168e90cee435f13284beaa500f570ab7584cdde05e1021c",
	    ANVIL0, ANVIL_KEY},
};

static const uint8_t order_n[32] = {
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE,
	0xBA, 0xAE, 0xDC, 0xE6, 0xAF, 0x48, 0xA0, 0x3B, 0xBF, 0xD2, 0x5E, 0x8C, 0xD0, 0x36, 0x41, 0x41,
};

/* Decode known-good hex of exactly n bytes; aborts the test run loudly if not. */
static void
h2b(const char *hex, uint8_t *out, size_t n)
{
	if (hex_decode_fixed(hex, strlen(hex), out, n, true) < 0) {
		ok(0, "test vector hex is malformed: %s", hex);
		memset(out, 0, n);
	}
}

static const char *
addr_str(const struct addr *a)
{
	static char buf[4][ADDR_TEXT_LEN + 1];
	static int i;

	i = (i + 1) % 4;
	return addr_format(a, buf[i]);
}

/* out = n - x (x in [1, n-1]), big-endian. */
static void
order_minus(const uint8_t x[32], uint8_t out[32])
{
	int borrow = 0;

	for (int i = 31; i >= 0; i--) {
		int d = order_n[i] - x[i] - borrow;

		borrow = d < 0;
		out[i] = (uint8_t)(d + (borrow ? 256 : 0));
	}
}

static void
key_of(enum signer k, uint8_t key[32])
{
	if (k == COW_KEY)
		keccak256("cow", 3, key);
	else
		h2b(ANVIL0_KEY, key, 32);
}

/* Recover from (digest, sig hex) and compare with want; also re-sign when the key is known. */
static void
check_vec(const char *name, const uint8_t digest[32], const char *sighex, const char *want,
    enum signer k)
{
	struct sig s;
	struct addr a;
	enum sig_err e;

	e = sig_parse_hex(sighex, strlen(sighex), &s);
	if (!ok(e == SIG_OK, "%s: signature parses (%s)", name, sig_strerror(e)))
		return;
	e = sig_recover(digest, &s, &a);
	ok(e == SIG_OK, "%s: recovers (%s)", name, sig_strerror(e));
	if (e == SIG_OK)
		is_str(addr_str(&a), want, "%s: signer", name);
	if (k != NO_KEY) {
		uint8_t key[32], mine[65], theirs[65];

		key_of(k, key);
		h2b(sighex, theirs, 65);
		ok(sig_sign(key, digest, mine) == 0 && memcmp(mine, theirs, 65) == 0,
		    "%s: sig_sign reproduces the published signature byte for byte", name);
		explicit_bzero(key, sizeof(key));
	}
}

static void
test_personal(void)
{
	static const struct {
		const char *msg, *digest;
	} pd[] = {
		{"hello world", "0xd9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68"},
		{"hello", "0x50b2c43fd39106bafbba0da34fc430e1f91e3c96ea2acee2bc34119f92b37750"},
		{"Some data", "0x1da44b586eb0729ff70a73c326926f6ed5a25f5b056e7f47fbc6e58d86871655"},
	};
	uint8_t d[32];
	char hex[67];

	for (size_t i = 0; i < sizeof(pd) / sizeof(pd[0]); i++) {
		sig_personal_digest(pd[i].msg, strlen(pd[i].msg), d);
		is_str(hex_encode(d, 32, hex), pd[i].digest, "personal digest of \"%s\"", pd[i].msg);
	}
	/* The length prefix is the decimal byte count: compare with a hand-built preimage. */
	{
		char big[1000], pre[1100];
		uint8_t want[32];
		int n;

		memset(big, 'a', sizeof(big));
		sig_personal_digest(big, sizeof(big), d);
		n = snprintf(pre, sizeof(pre), "\x19" "Ethereum Signed Message:\n1000");
		memcpy(pre + n, big, sizeof(big));
		keccak256(pre, (size_t)n + sizeof(big), want);
		ok(memcmp(d, want, 32) == 0, "personal digest of 1000 bytes uses \"1000\" as the length");
		sig_personal_digest("", 0, d);
		static const char empty_pre[] = "\x19" "Ethereum Signed Message:\n0";
		keccak256(empty_pre, sizeof(empty_pre) - 1, want);
		ok(memcmp(d, want, 32) == 0, "personal digest of the empty message uses \"0\"");
	}

	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		const struct msgvec *m = &msgs[i];

		sig_personal_digest(m->text, strlen(m->text), d);
		if (m->digest != NULL)
			is_str(hex_encode(d, 32, hex), m->digest, "%s: digest", m->name);
		check_vec(m->name, d, m->sig, m->signer, m->key);
	}
	ok(strlen(msgs[0].text) == 364, "protocols.md SIWE message is 364 bytes (%zu)", strlen(msgs[0].text));
}

static void
test_digests(void)
{
	uint8_t d[32];

	for (size_t i = 0; i < sizeof(digests) / sizeof(digests[0]); i++) {
		h2b(digests[i].digest, d, 32);
		check_vec(digests[i].name, d, digests[i].sig, digests[i].signer, digests[i].key);
	}
}

static void
test_policy(void)
{
	uint8_t d[32], raw[66], c64[64];
	struct sig s;
	struct addr base, a;
	enum sig_err e;
	const struct vec *mail = &digests[0];

	h2b(mail->digest, d, 32);
	h2b(mail->sig, raw, 65);
	ok(sig_parse(raw, 65, &s) == SIG_OK && s.recid == 1 && sig_recover(d, &s, &base) == SIG_OK,
	    "Mail signature with v=28 recovers");

	/* v: 27/28 and 0/1 are the same; anything else is SIG_BAD_V. */
	raw[64] = 1;
	ok(sig_parse(raw, 65, &s) == SIG_OK && sig_recover(d, &s, &a) == SIG_OK && addr_eq(&a, &base),
	    "v=1 recovers the same address as v=28");
	raw[64] = 27;
	ok(sig_parse(raw, 65, &s) == SIG_OK && sig_recover(d, &s, &a) == SIG_OK && !addr_eq(&a, &base),
	    "v=27 (other parity) recovers a different address");
	raw[64] = 0;
	ok(sig_parse(raw, 65, &s) == SIG_OK && sig_recover(d, &s, &a) == SIG_OK && !addr_eq(&a, &base),
	    "v=0 equals v=27 (different address)");
	{
		struct addr a27;

		raw[64] = 27;
		ok(sig_parse(raw, 65, &s) == SIG_OK && sig_recover(d, &s, &a27) == SIG_OK && addr_eq(&a, &a27),
		    "v=0 and v=27 recover the same address");
	}
	static const uint8_t bad_v[] = {2, 3, 26, 29, 35, 36, 37, 38, 255};
	for (size_t i = 0; i < sizeof(bad_v); i++) {
		raw[64] = bad_v[i];
		e = sig_parse(raw, 65, &s);
		ok(e == SIG_BAD_V, "v=%u rejected with SIG_BAD_V (%s)", bad_v[i], sig_strerror(e));
	}
	raw[64] = 28;

	/* EIP-2098 compact form: r || (yParity << 255 | s). */
	memcpy(c64, raw, 64);
	c64[32] |= 0x80; /* recid 1 */
	e = sig_parse(c64, 64, &s);
	ok(e == SIG_OK && s.recid == 1 && sig_recover(d, &s, &a) == SIG_OK && addr_eq(&a, &base),
	    "EIP-2098 64-byte form (yParity 1) recovers the same address");
	{
		uint8_t back[65];

		sig_serialize(&s, back);
		ok(memcmp(back, raw, 65) == 0, "sig_serialize of the 2098 form gives the 65-byte form");
	}
	c64[32] &= 0x7F;
	ok(sig_parse(c64, 64, &s) == SIG_OK && s.recid == 0 && sig_recover(d, &s, &a) == SIG_OK &&
	    !addr_eq(&a, &base), "EIP-2098 with yParity 0 recovers another address");

	/* A 2098 form from a recid-0 signature (anvil0 offer: v=27). */
	{
		uint8_t d2[32], r2[65];
		struct addr want;

		h2b(digests[3].digest, d2, 32);
		h2b(digests[3].sig, r2, 65);
		addr_parse(ANVIL0, ADDR_TEXT_LEN, &want);
		ok(r2[64] == 27 && sig_parse(r2, 64, &s) == SIG_OK && s.recid == 0 &&
		    sig_recover(d2, &s, &a) == SIG_OK && addr_eq(&a, &want),
		    "EIP-2098 form of a v=27 signature (first 64 bytes) recovers anvil0");
	}

	/* High s: s' = n - s with the parity flipped is the same key, but rejected. */
	{
		uint8_t hi[65];

		memcpy(hi, raw, 65);
		order_minus(raw + 32, hi + 32);
		hi[64] = raw[64] == 28 ? 27 : 28;
		e = sig_parse(hi, 65, &s);
		ok(e == SIG_HIGH_S, "high-s twin rejected with SIG_HIGH_S (%s)", sig_strerror(e));

		/* A hand-built struct gets the same policy in sig_recover. */
		memcpy(s.r, hi, 32);
		memcpy(s.s, hi + 32, 32);
		s.recid = 0;
		e = sig_recover(d, &s, &a);
		ok(e == SIG_HIGH_S, "sig_recover re-checks s (%s)", sig_strerror(e));
		s.recid = 2;
		memcpy(s.s, raw + 32, 32);
		ok(sig_recover(d, &s, &a) == SIG_BAD_V, "sig_recover rejects recid 2");
	}

	/* s exactly n/2 is allowed, n/2 + 1 is high. */
	{
		uint8_t t[65];
		static const uint8_t half[32] = {
			0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
			0x5D, 0x57, 0x6E, 0x73, 0x57, 0xA4, 0x50, 0x1D, 0xDF, 0xE9, 0x2F, 0x46, 0x68, 0x1B, 0x20, 0xA0,
		};

		memcpy(t, raw, 65);
		memcpy(t + 32, half, 32);
		ok(sig_parse(t, 65, &s) == SIG_OK, "s = n/2 accepted");
		t[63] = 0xA1;
		ok(sig_parse(t, 65, &s) == SIG_HIGH_S, "s = n/2 + 1 rejected with SIG_HIGH_S");
		/* EIP-2098 can carry s in (n/2, 2^255): still high. */
		memcpy(c64, t, 64);
		ok(sig_parse(c64, 64, &s) == SIG_HIGH_S, "EIP-2098 with s = n/2 + 1, yParity 0: SIG_HIGH_S");
		c64[32] |= 0x80;
		ok(sig_parse(c64, 64, &s) == SIG_HIGH_S, "EIP-2098 with s = n/2 + 1, yParity 1: SIG_HIGH_S");
		memset(c64 + 32, 0, 32);
		c64[32] = 0x80;
		ok(sig_parse(c64, 64, &s) == SIG_BAD_RS, "EIP-2098 with s = 0, yParity 1: SIG_BAD_RS");
		memset(t + 32, 0xFF, 32);
		ok(sig_parse(t, 65, &s) == SIG_BAD_RS, "s = 2^256 - 1 rejected with SIG_BAD_RS");
		memcpy(t + 32, order_n, 32);
		ok(sig_parse(t, 65, &s) == SIG_BAD_RS, "s = n rejected with SIG_BAD_RS");
		memset(t + 32, 0, 32);
		ok(sig_parse(t, 65, &s) == SIG_BAD_RS, "s = 0 rejected with SIG_BAD_RS");
		memcpy(t, raw, 65);
		memset(t, 0, 32);
		ok(sig_parse(t, 65, &s) == SIG_BAD_RS, "r = 0 rejected with SIG_BAD_RS");
		memcpy(t, order_n, 32);
		ok(sig_parse(t, 65, &s) == SIG_BAD_RS, "r = n rejected with SIG_BAD_RS");
		memset(t, 0xFF, 32);
		ok(sig_parse(t, 65, &s) == SIG_BAD_RS, "r = 2^256 - 1 rejected with SIG_BAD_RS");
		memset(t, 0, 32);
		t[31] = 5; /* x = 5 is not on secp256k1 */
		ok(sig_parse(t, 65, &s) == SIG_OK && sig_recover(d, &s, &a) == SIG_NO_RECOVERY,
		    "r = 5 (not an x coordinate) gives SIG_NO_RECOVERY");
	}

	/* Lengths. */
	memset(raw + 65, 0, 1);
	ok(sig_parse(raw, 63, &s) == SIG_BAD_LENGTH, "63 bytes rejected");
	ok(sig_parse(raw, 66, &s) == SIG_BAD_LENGTH, "66 bytes rejected");
	ok(sig_parse(raw, 0, &s) == SIG_BAD_LENGTH, "0 bytes rejected");
	ok(sig_parse(NULL, 65, &s) == SIG_BAD_LENGTH, "NULL rejected");

	/* Hex form. */
	{
		char hex[200];
		size_t n = strlen(mail->sig);

		snprintf(hex, sizeof(hex), "%s", mail->sig);
		ok(sig_parse_hex(hex, n, &s) == SIG_OK, "hex 65 bytes");
		hex[1] = 'X';
		ok(sig_parse_hex(hex, n, &s) == SIG_OK, "0X prefix accepted");
		for (size_t i = 2; i < n; i++)
			if (hex[i] >= 'a' && hex[i] <= 'f')
				hex[i] = (char)(hex[i] - 'a' + 'A');
		ok(sig_parse_hex(hex, n, &s) == SIG_OK, "uppercase hex accepted");
		ok(sig_parse_hex(mail->sig + 2, n - 2, &s) == SIG_BAD_ENCODING, "missing 0x is SIG_BAD_ENCODING");
		ok(sig_parse_hex(mail->sig, n - 4, &s) == SIG_BAD_LENGTH, "63 bytes as hex is SIG_BAD_LENGTH");
		ok(sig_parse_hex(mail->sig, n - 1, &s) == SIG_BAD_LENGTH, "odd digit count is SIG_BAD_LENGTH");
		ok(sig_parse_hex(mail->sig, 2 + 128, &s) == SIG_OK, "first 64 bytes as hex parse as EIP-2098");
		snprintf(hex, sizeof(hex), "%s00", mail->sig);
		ok(sig_parse_hex(hex, n + 2, &s) == SIG_BAD_LENGTH, "66 bytes as hex is SIG_BAD_LENGTH");
		snprintf(hex, sizeof(hex), "%s", mail->sig);
		hex[10] = 'g';
		ok(sig_parse_hex(hex, n, &s) == SIG_BAD_ENCODING, "non-hex digit is SIG_BAD_ENCODING");
		hex[10] = ' ';
		ok(sig_parse_hex(hex, n, &s) == SIG_BAD_ENCODING, "space is SIG_BAD_ENCODING");
		ok(sig_parse_hex("", 0, &s) == SIG_BAD_ENCODING, "empty is SIG_BAD_ENCODING");
		ok(sig_parse_hex("0x", 2, &s) == SIG_BAD_LENGTH, "bare 0x is SIG_BAD_LENGTH");
	}

	/* A tampered digest recovers someone else. */
	d[0] ^= 1;
	h2b(mail->sig, raw, 65);
	ok(sig_parse(raw, 65, &s) == SIG_OK && sig_recover(d, &s, &a) == SIG_OK && !addr_eq(&a, &base),
	    "tampered digest recovers a different address (%s)", addr_str(&a));
}

static void
test_sign(void)
{
	uint8_t key[32], d[32], out[65], want[65];
	struct sig s;
	struct addr a;

	/* web3.js accounts.sign('Some data', key) docs vector. */
	h2b(WEB3_KEY, key, 32);
	sig_personal_digest("Some data", 9, d);
	h2b("0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd"
	    "6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c", want, 65);
	ok(sig_sign(key, d, out) == 0, "sig_sign with the web3.js key");
	ok(memcmp(out, want, 65) == 0, "r||s||v byte-identical to the web3.js docs vector");
	ok(sig_parse(out, 65, &s) == SIG_OK && sig_recover(d, &s, &a) == SIG_OK, "our signature recovers");
	is_str(addr_str(&a), "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23", "recovered web3.js address");
	ok(sig_key_address(key, &a) == 0, "sig_key_address web3.js key");
	is_str(addr_str(&a), "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23", "address of the web3.js key");
	explicit_bzero(key, sizeof(key));

	key_of(ANVIL_KEY, key);
	ok(sig_key_address(key, &a) == 0, "sig_key_address anvil0");
	is_str(addr_str(&a), ANVIL0, "address of the Anvil key");
	key_of(COW_KEY, key);
	ok(sig_key_address(key, &a) == 0, "sig_key_address cow");
	is_str(addr_str(&a), COW, "address of keccak256(\"cow\")");
	explicit_bzero(key, sizeof(key));

	/* Invalid keys: zero, n, above n. Output untouched on the address call. */
	memset(key, 0, 32);
	memset(&a, 0xAA, sizeof(a));
	ok(sig_sign(key, d, out) < 0, "zero key cannot sign");
	ok(sig_key_address(key, &a) < 0, "zero key has no address");
	memcpy(key, order_n, 32);
	ok(sig_sign(key, d, out) < 0, "key = n cannot sign");
	ok(sig_key_address(key, &a) < 0, "key = n has no address");
	memset(key, 0xFF, 32);
	ok(sig_sign(key, d, out) < 0, "key = 2^256 - 1 cannot sign");
	ok(sig_key_address(key, &a) < 0, "key = 2^256 - 1 has no address");
	memcpy(key, order_n, 32);
	key[31] -= 1; /* n - 1 is the largest valid key */
	ok(sig_key_address(key, &a) == 0, "key = n - 1 is valid");
	ok(sig_sign(key, d, out) == 0 && sig_parse(out, 65, &s) == SIG_OK,
	    "signature by key n - 1 passes the low-s policy");
	explicit_bzero(key, sizeof(key));

	/* Every signature we make is low-s: sign many digests with one key. */
	{
		int high = 0, bad = 0;
		struct addr want_a;

		key_of(ANVIL_KEY, key);
		addr_parse(ANVIL0, ADDR_TEXT_LEN, &want_a);
		for (int i = 0; i < 64; i++) {
			uint8_t m[4] = {(uint8_t)i, 1, 2, 3};

			keccak256(m, sizeof(m), d);
			if (sig_sign(key, d, out) < 0) {
				bad++;
				continue;
			}
			enum sig_err e = sig_parse(out, 65, &s);
			if (e == SIG_HIGH_S)
				high++;
			else if (e != SIG_OK || sig_recover(d, &s, &a) != SIG_OK || !addr_eq(&a, &want_a))
				bad++;
		}
		explicit_bzero(key, sizeof(key));
		ok(high == 0 && bad == 0, "64 fresh signatures: all low-s and recover anvil0 (%d high, %d bad)",
		    high, bad);
	}
}

static void
test_strerror(void)
{
	int distinct = 1;

	for (int i = 0; i < SIG_ERR__MAX; i++) {
		const char *m = sig_strerror((enum sig_err)i);

		if (m == NULL || m[0] == '\0')
			distinct = 0;
		for (int j = 0; j < i && distinct; j++)
			if (strcmp(m, sig_strerror((enum sig_err)j)) == 0)
				distinct = 0;
	}
	ok(distinct, "sig_strerror: every code has its own message");
	ok(sig_strerror(SIG_ERR__MAX) != NULL && sig_strerror((enum sig_err)-1) != NULL,
	    "sig_strerror out of range is not NULL");
}

int
main(void)
{
	if (!ok(sig_init() == 0, "sig_init"))
		return done_testing();
	ok(sig_init() == 0, "sig_init is idempotent");
	test_personal();
	test_digests();
	test_policy();
	test_sign();
	test_strerror();
	sig_release();
	sig_release();
	/* Without the context nothing creates it lazily: each call fails closed; sig_init again works. */
	{
		uint8_t key[32], digest[32] = { 1 }, out[65];
		struct addr a;
		struct sig s;

		key_of(ANVIL_KEY, key);
		ok(sig_key_address(key, &a) == -1 && sig_sign(key, digest, out) == -1,
		    "after sig_release, sig_key_address and sig_sign fail rather than create the context");
		memset(&s, 0, sizeof(s));
		s.r[31] = s.s[31] = 1;
		ok(sig_recover(digest, &s, &a) == SIG_NO_RECOVERY, "and sig_recover answers no recovery");
		ok(sig_init() == 0 && sig_key_address(key, &a) == 0 && strcmp(addr_str(&a), ANVIL0) == 0,
		    "sig_init after sig_release makes them work again");
		explicit_bzero(key, sizeof(key));
		sig_release();
	}
	return done_testing();
}
