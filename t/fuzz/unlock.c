/*
 * libFuzzer target for the signed private-tip unlock headers
 * (lib/privtip.c, privtip_parse_auth): the input is the four header values
 * x-<brand>-auth-address, -sig, -nonce and -deadline separated by NUL
 * bytes; a part that is exactly "-" stands for an absent header.
 *
 * NONE exactly when all four are absent. OK only with four present: the
 * address parses again to the same bytes, the signature is 1..4096 bytes
 * whose hex is the header (any case), the nonce 32 bytes whose hex is the
 * header, the deadline 1..2^53-1 printing back as the header. BAD names
 * one of the four headers.
 */
#include <inttypes.h>
#include <strings.h>

#include "fuzz.h"
#include "hex.h"
#include "privtip.h"
#include "banned.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { PRIVTIP_H_ADDRESS, PRIVTIP_H_SIG, PRIVTIP_H_NONCE,
		PRIVTIP_H_DEADLINE };
	char *part[4], *copy;
	size_t len[4];
	const char *h[4], *bad = NULL;
	struct privtip_auth a;
	enum privtip_auth_rc rc;
	char hx[2 * PRIVTIP_SIG_MAX + 3], dl[24];
	struct addr again;
	int absent = 0;

	copy = fuzz_split_n(data, size, 4, part, len);
	for (int i = 0; i < 4; i++) {
		h[i] = strcmp(part[i], "-") == 0 ? NULL : part[i];
		absent += h[i] == NULL;
	}
	rc = privtip_parse_auth(h[0], h[1], h[2], h[3], &a, &bad);
	if (rc == PRIVTIP_AUTH_NONE) {
		CHECK(absent == 4 && bad == NULL);
	} else if (rc == PRIVTIP_AUTH_OK) {
		CHECK(absent == 0 && bad == NULL);
		CHECK(addr_parse(h[0], strlen(h[0]), &again) == 0 && addr_eq(&again, &a.address));
		CHECK(a.sig_len >= 1 && a.sig_len <= PRIVTIP_SIG_MAX);
		hex_encode(a.sig, a.sig_len, hx);
		CHECK(strcasecmp(hx + 2, h[1] + 2) == 0 && strlen(h[1]) == 2 + 2 * a.sig_len);
		hex_encode(a.nonce, 32, hx);
		CHECK(strcasecmp(hx + 2, h[2] + 2) == 0 && strlen(h[2]) == 66);
		CHECK(a.deadline >= 1 && a.deadline <= PRIVTIP_DEADLINE_MAX);
		snprintf(dl, sizeof(dl), "%" PRIu64, a.deadline);
		CHECK(strcmp(dl, h[3]) == 0);
	} else {
		CHECK(rc == PRIVTIP_AUTH_BAD && bad != NULL);
		CHECK(strcmp(bad, names[0]) == 0 || strcmp(bad, names[1]) == 0 ||
		    strcmp(bad, names[2]) == 0 || strcmp(bad, names[3]) == 0);
	}
	free(copy);
	return 0;
}
