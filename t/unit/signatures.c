/*
 * Signatures over EIP-712 digests, end to end: every vector of
 * t/vectors/eip712-boon.json (the published ones and the Boon typed data
 * signed by viem) recovers to its signer with sig.c, and signing the Boon
 * vectors with the public Anvil key reproduces viem's signatures byte for
 * byte (both use RFC 6979 nonces and low s).
 */
#include <string.h>

#include <json-c/json.h>

#include "eip712.h"
#include "hex.h"
#include "sig.h"
#include "tap.h"
#include "banned.h"

static const char *
str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "";
}

static void
check_recovery(json_object *v, const char *label)
{
	uint8_t digest[32];
	struct sig s;
	struct addr got, want;
	char gtext[43];
	const char *d = str(v, "digest"), *sg = str(v, "signature"), *signer = str(v, "signer");

	if (!ok(hex_decode_fixed(d, strlen(d), digest, 32, true) == 0 &&
	    sig_parse_hex(sg, strlen(sg), &s) == SIG_OK && addr_parse(signer, strlen(signer), &want) == 0,
	    "%s: digest, signature and signer parse", label))
		return;
	ok(sig_recover(digest, &s, &got) == SIG_OK && addr_eq(&got, &want),
	    "%s: signature recovers to %s (got %s)", label, signer, addr_format(&got, gtext));
}

int
main(void)
{
	json_object *root = json_object_from_file("t/vectors/eip712-boon.json"), *arr, *signer;
	uint8_t key[32];
	const char *kh;
	size_t published = 0, vectors = 0;

	if (!ok(sig_init() == 0, "sig_init, once before anything recovers (lib/sig.h)"))
		return done_testing();
	if (!ok(root != NULL, "vector file loads"))
		return done_testing();
	json_object_object_get_ex(root, "signer", &signer);
	kh = str(signer, "privateKey");
	ok(hex_decode_fixed(kh, strlen(kh), key, 32, true) == 0, "Anvil key parses");

	json_object_object_get_ex(root, "published", &arr);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i), *td;
		uint8_t digest[32];
		char hexd[67], err[160];

		json_object_object_get_ex(v, "typedData", &td);
		ok(eip712_digest(td, digest, err, sizeof(err)) == EIP712_OK &&
		    strcmp(hex_encode(digest, 32, hexd), str(v, "digest")) == 0,
		    "%s: our EIP-712 digest of the typed data equals the published one", str(v, "name"));
		check_recovery(v, str(v, "name"));
		published++;
	}
	/* The file's counts: a vector lost from it (or a file cut short) fails here. */
	ok(published == 9, "9 published vectors checked (got %zu)", published);
	json_object_object_get_ex(root, "vectors", &arr);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i);
		uint8_t digest[32], out[65], viem[65];
		size_t n = 0;
		const char *d = str(v, "digest"), *sg = str(v, "signature");

		check_recovery(v, str(v, "kind"));
		ok(hex_decode_fixed(d, strlen(d), digest, 32, true) == 0 &&
		    hex_decode(sg, strlen(sg), viem, sizeof(viem), &n) == 0 && n == 65 &&
		    sig_sign(key, digest, out) == 0 && memcmp(out, viem, 65) == 0,
		    "%s: sig_sign reproduces viem's signature byte for byte", str(v, "kind"));
		vectors++;
	}
	ok(vectors == 7, "7 Boon vectors checked (got %zu)", vectors);
	explicit_bzero(key, sizeof(key));
	json_object_put(root);
	sig_release();
	return done_testing();
}
