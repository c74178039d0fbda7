/*
 * libFuzzer harness for url.c and route.c: any input must either be
 * rejected or normalize to an origin + path that parses again to exactly
 * itself (normalization is idempotent) when that form is within the input
 * limit, and route_id must agree with the route ID of the normalized form.
 * The public policy (url_check_public) agrees with url_parse, never
 * accepts what its rules refuse (IP hosts, queries unless allowed,
 * fragments, over 2048 bytes), and with URL_EXACT accepts only an input
 * equal to its own normalized form; the output is valid UTF-8 ASCII in
 * origin and path.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "route.h"
#include "url.h"
#include "banned.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct url a, b, c;
	static char again[URL_ORIGIN_SIZE + URL_PATH_SIZE];
	uint8_t id1[32], id2[32];

	enum url_err pe = url_parse((const char *)data, size, &a);

	for (unsigned flags = 0; flags < 4; flags++) {
		enum url_err ce = url_check_public((const char *)data, size, flags, &c);

		CHECK(ce >= URL_OK && ce < URL_ERR__MAX && url_strerror(ce) != NULL);
		/* The policy only adds rules to the parser (its length rule comes first). */
		if (pe != URL_OK)
			CHECK(ce != URL_OK);
		if (ce != URL_OK)
			continue;
		CHECK(pe == URL_OK && size <= URL_PUBLIC_MAX && c.host_kind == URL_HOST_DOMAIN);
		CHECK(!c.has_fragment && (!c.has_query || (flags & URL_ALLOW_QUERY)));
		CHECK(c.origin_len == a.origin_len && memcmp(c.origin, a.origin, a.origin_len) == 0);
		CHECK(c.path_len == a.path_len && memcmp(c.path, a.path, a.path_len) == 0);
		if (flags & URL_EXACT)
			CHECK(size >= c.origin_len + c.path_len &&
			    memcmp(data, c.origin, c.origin_len) == 0 &&
			    memcmp(data + c.origin_len, c.path, c.path_len) == 0 &&
			    (size == c.origin_len + c.path_len || data[c.origin_len + c.path_len] == '?'));
	}
	if (pe != URL_OK)
		return 0;
	for (size_t i = 0; i < a.origin_len; i++)
		CHECK((unsigned char)a.origin[i] > 0x20 && (unsigned char)a.origin[i] < 0x7f);
	for (size_t i = 0; i < a.path_len; i++)
		CHECK((unsigned char)a.path[i] > 0x20 && (unsigned char)a.path[i] < 0x7f);
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
