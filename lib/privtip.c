/*
 * privtip.c: the private-tip commitment and unlock headers (privtip.h).
 */
#include <string.h>

#include "hex.h"
#include "keccak.h"
#include "privtip.h"
#include "banned.h"

bool
privtip_commitment_ok(const uint8_t commitment[32], const uint8_t salt[PRIVTIP_SALT],
    const char *note, size_t note_len)
{
	struct keccak_ctx k;
	uint8_t h[32];

	keccak_init(&k);
	keccak_update(&k, salt, PRIVTIP_SALT);
	keccak_update(&k, note, note_len);
	keccak_final(&k, h);
	return memcmp(h, commitment, 32) == 0;
}

static bool
decimal_u53(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = strlen(s);

	if (n == 0 || n > 16 || s[0] == '0' || strspn(s, "0123456789") != n)
		return false;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	if (v > PRIVTIP_DEADLINE_MAX)
		return false;
	*out = v;
	return true;
}

enum privtip_auth_rc
privtip_parse_auth(const char *address, const char *sig, const char *nonce, const char *deadline,
    struct privtip_auth *out, const char **bad)
{
	size_t n;

	memset(out, 0, sizeof(*out));
	*bad = NULL;
	if (!address && !sig && !nonce && !deadline)
		return PRIVTIP_AUTH_NONE;
	if (address == NULL || addr_parse(address, strlen(address), &out->address) < 0) {
		*bad = PRIVTIP_H_ADDRESS;
		return PRIVTIP_AUTH_BAD;
	}
	n = sig ? strlen(sig) : 0;
	if (sig == NULL || n < 4 || n % 2 != 0 || n > 2 + 2 * PRIVTIP_SIG_MAX || sig[0] != '0' ||
	    (sig[1] != 'x' && sig[1] != 'X') ||
	    hex_decode(sig, n, out->sig, sizeof(out->sig), &out->sig_len) < 0 ||
	    out->sig_len == 0) {
		*bad = PRIVTIP_H_SIG;
		return PRIVTIP_AUTH_BAD;
	}
	if (nonce == NULL || strlen(nonce) != 66 ||
	    hex_decode_fixed(nonce, 66, out->nonce, 32, true) < 0) {
		*bad = PRIVTIP_H_NONCE;
		return PRIVTIP_AUTH_BAD;
	}
	if (deadline == NULL || !decimal_u53(deadline, &out->deadline)) {
		*bad = PRIVTIP_H_DEADLINE;
		return PRIVTIP_AUTH_BAD;
	}
	return PRIVTIP_AUTH_OK;
}
