/*
 * libFuzzer harness for url.c and route.c: any input must either be
 * rejected or normalize to an origin + path that parses again to exactly
 * itself (normalization is idempotent) when that form is within the input
 * limit, and route_id must agree with the route ID of the normalized form.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"
#include "url.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct url a, b;
	static char again[URL_ORIGIN_SIZE + URL_PATH_SIZE];
	uint8_t id1[32], id2[32];

	if (url_parse((const char *)data, size, &a) != URL_OK)
		return 0;
	/* Percent-encoding can triple the length: a normalized form over the
	 * input limit is rightly refused as input, so it cannot be re-parsed. */
	if (a.origin_len + a.path_len > URL_MAX)
		return 0;
	memcpy(again, a.origin, a.origin_len);
	memcpy(again + a.origin_len, a.path, a.path_len);
	if (url_parse(again, a.origin_len + a.path_len, &b) != URL_OK ||
	    b.origin_len != a.origin_len || memcmp(a.origin, b.origin, a.origin_len) != 0 ||
	    b.path_len != a.path_len || memcmp(a.path, b.path, a.path_len) != 0)
		abort();
	if (route_id("GET", 3, (const char *)data, size, id1, NULL) == ROUTE_OK &&
	    (route_id("GET", 3, again, a.origin_len + a.path_len, id2, NULL) != ROUTE_OK ||
	    memcmp(id1, id2, 32) != 0))
		abort();
	return 0;
}
