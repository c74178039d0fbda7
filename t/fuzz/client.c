/*
 * libFuzzer harness for paymeter_client (lib/paymeter.h), which reads the
 * REMOTE_ADDR the web server passes: any input is either refused or gives
 * a client of 4 bytes (IPv4, or IPv4-mapped IPv6) or 8 (an IPv6 /64);
 * and the canonical text of that address parses again to the same client.
 * (REMOTE_ADDR is a C string: the harness reads the input up to its first
 * NUL, as the worker would.)
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "paymeter.h"
#include "banned.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[128], again[INET6_ADDRSTRLEN];
	struct paymeter_client c, d;
	uint8_t v6[16] = { 0 };

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (paymeter_client(text, &c) < 0)
		return 0;
	CHECK(c.len == 4 || c.len == 8);
	if (c.len == 4) {
		CHECK(inet_ntop(AF_INET, c.b, again, sizeof(again)) != NULL);
	} else {
		memcpy(v6, c.b, 8);
		CHECK(inet_ntop(AF_INET6, v6, again, sizeof(again)) != NULL);
	}
	CHECK(paymeter_client(again, &d) == 0 && d.len == c.len && memcmp(d.b, c.b, c.len) == 0);
	return 0;
}
