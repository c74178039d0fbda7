#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "hex.h"
#include "sha256.h"
#include "banned.h"

int
sha256(const void *data, size_t len, uint8_t out[32])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1 || mdlen != 32)
		return -1;
	memcpy(out, md, 32);
	return 0;
}

int
sha256_hex(const void *data, size_t len, char out[67])
{
	uint8_t md[32];

	if (sha256(data, len, md) < 0)
		return -1;
	hex_encode(md, 32, out);
	return 0;
}

int
hmac_sha256(const void *key, size_t klen, const void *data, size_t len, uint8_t out[32])
{
	unsigned int mdlen = 0;

	if (klen > (size_t)INT32_MAX ||
	    HMAC(EVP_sha256(), key, (int)klen, data, len, out, &mdlen) == NULL || mdlen != 32)
		return -1;
	return 0;
}
