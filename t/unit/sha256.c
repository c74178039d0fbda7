/* SHA-256 against the FIPS 180-4 example vectors (NIST's "abc" and two-block messages). */
#include <string.h>

#include "sha256.h"
#include "tap.h"
#include "banned.h"

static const struct {
	const char *in;
	const char *hex;
} vectors[] = {
	{ "", "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	    "0x248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
};

int
main(void)
{
	char hex[67];
	uint8_t md[32];

	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		ok(sha256_hex(vectors[i].in, strlen(vectors[i].in), hex) == 0, "vector %zu hashes", i);
		is_str(hex, vectors[i].hex, "vector %zu digest", i);
	}
	ok(sha256("abc", 3, md) == 0 && md[0] == 0xba && md[31] == 0xad, "raw digest bytes");
	return done_testing();
}
