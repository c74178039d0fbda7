/*
 * seal.c: AES-256-GCM at rest (seal.h).
 */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "hex.h"
#include "seal.h"
#include "banned.h"

static int
key_of(const char *key_hex, uint8_t key[32])
{
	if (key_hex == NULL || strlen(key_hex) != SEAL_KEY_HEX)
		return -1;
	return hex_decode_fixed(key_hex, SEAL_KEY_HEX, key, 32, false);
}

int
seal_seal(const char *key_hex, const uint8_t *aad, size_t aad_len, const uint8_t *plain,
    size_t n, uint8_t iv[SEAL_IV], uint8_t *out, size_t cap)
{
	EVP_CIPHER_CTX *c = NULL;
	uint8_t key[32];
	int len = 0, fin = 0, rc = -1;

	if (n > (size_t)INT32_MAX - SEAL_TAG || cap < n + SEAL_TAG || key_of(key_hex, key) < 0 ||
	    aad_len > (size_t)INT32_MAX)
		goto out;
	if (RAND_bytes(iv, SEAL_IV) != 1 || (c = EVP_CIPHER_CTX_new()) == NULL ||
	    EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, SEAL_IV, NULL) != 1 ||
	    EVP_EncryptInit_ex(c, NULL, NULL, key, iv) != 1 ||
	    (aad_len && EVP_EncryptUpdate(c, NULL, &len, aad, (int)aad_len) != 1) ||
	    EVP_EncryptUpdate(c, out, &len, plain, (int)n) != 1 ||
	    EVP_EncryptFinal_ex(c, out + len, &fin) != 1 ||
	    (size_t)(len + fin) != n ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, SEAL_TAG, out + n) != 1)
		goto out;
	rc = 0;
out:
	OPENSSL_cleanse(key, sizeof(key));
	EVP_CIPHER_CTX_free(c);
	return rc;
}

int
seal_open(const char *key_hex, const uint8_t *aad, size_t aad_len,
    const uint8_t iv[SEAL_IV], const uint8_t *sealed, size_t n, uint8_t *out, size_t cap)
{
	EVP_CIPHER_CTX *c = NULL;
	uint8_t key[32], tag[SEAL_TAG];
	size_t m;
	int len = 0, fin = 0, rc = -1;

	if (n < SEAL_TAG || n > (size_t)INT32_MAX || cap < n - SEAL_TAG ||
	    aad_len > (size_t)INT32_MAX || key_of(key_hex, key) < 0)
		goto out;
	m = n - SEAL_TAG;
	memcpy(tag, sealed + m, SEAL_TAG);
	if ((c = EVP_CIPHER_CTX_new()) == NULL ||
	    EVP_DecryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, SEAL_IV, NULL) != 1 ||
	    EVP_DecryptInit_ex(c, NULL, NULL, key, iv) != 1 ||
	    (aad_len && EVP_DecryptUpdate(c, NULL, &len, aad, (int)aad_len) != 1) ||
	    EVP_DecryptUpdate(c, out, &len, sealed, (int)m) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, SEAL_TAG, tag) != 1 ||
	    EVP_DecryptFinal_ex(c, out + len, &fin) != 1 || (size_t)(len + fin) != m) {
		if (cap)
			OPENSSL_cleanse(out, m < cap ? m : cap);
		goto out;
	}
	rc = 0;
out:
	OPENSSL_cleanse(key, sizeof(key));
	EVP_CIPHER_CTX_free(c);
	return rc;
}
