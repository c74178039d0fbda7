/*
 * libFuzzer target for the Bazaar search cursor (lib/bazaar.c), text a
 * client sends back, and the network names the Bazaar filters map
 * (lib/catalog.c). A parsed cursor formats back to exactly the input (one
 * text per cursor) and parses again to the same offset and tag; a cursor
 * made from fuzzed fields either fails to format or round-trips; a mapped
 * network is the input or one of the CAIP-2 names it maps to.
 */
#include "bazaar.h"
#include "catalog.h"
#include "fuzz.h"
#include "banned.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), out[BAZAAR_CURSOR_MAX], tag[17], tag2[17];
	const char *net;
	uint32_t off, off2;

	if (bazaar_cursor_parse(text, &off, tag) == 0) {
		CHECK(off <= BAZAAR_OFFSET_MAX && strlen(tag) == 16);
		CHECK(bazaar_cursor_format(off, tag, out, sizeof(out)) == 0);
		CHECK(strcmp(out, text) == 0);
		CHECK(bazaar_cursor_parse(out, &off2, tag2) == 0 && off2 == off && strcmp(tag, tag2) == 0);
	}
	/* The input as raw fields: an offset and a tag. */
	if (size >= 4 + 16) {
		memcpy(&off, data, 4);
		memcpy(tag, data + 4, 16);
		tag[16] = '\0';
		if (bazaar_cursor_format(off, tag, out, sizeof(out)) == 0)
			CHECK(bazaar_cursor_parse(out, &off2, tag2) == 0 && off2 == off && strcmp(tag, tag2) == 0);
		else
			CHECK(off > BAZAAR_OFFSET_MAX || strspn(tag, "0123456789abcdef") != 16);
	}
	{
		const char *parts[2] = { text, NULL };

		bazaar_query_tag(parts, 2, tag);
		CHECK(strlen(tag) == 16 && strspn(tag, "0123456789abcdef") == 16);
	}
	net = catalog_network_caip2(text);
	CHECK(net == text || strncmp(net, "eip155:", 7) == 0);
	free(text);
	return 0;
}
