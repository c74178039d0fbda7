/*
 * libFuzzer target for the directory's page cursor (lib/cursor.c), text a
 * client sends back. A parsed cursor has fields of the documented forms
 * and formats back to exactly the input (one text per cursor), which
 * parses again to the same fields; any cursor built from fuzzed fields
 * either fails to format or round-trips through the parser.
 */
#include "cursor.h"
#include "fuzz.h"
#include "banned.h"

static bool
same(const struct cursor *a, const struct cursor *b)
{
	return a->sort == b->sort && a->ctx == b->ctx && strcmp(a->tag, b->tag) == 0 && a->bb == b->bb &&
	    a->bbr == b->bbr && a->block == b->block && strcmp(a->usdc, b->usdc) == 0 &&
	    strcmp(a->rid, b->rid) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), out[CURSOR_TEXT_MAX];
	struct cursor c, d;

	if (cursor_parse(text, 2, 3, &c) == 0) {
		CHECK(c.sort >= 0 && c.sort < 2 && c.ctx >= 0 && c.ctx < 3);
		CHECK(strlen(c.tag) == 16 && strlen(c.rid) == 64 && strlen(c.usdc) >= 1);
		CHECK(cursor_format(&c, out, sizeof(out)) == 0);
		CHECK(strcmp(out, text) == 0 && strlen(out) <= 512);
		CHECK(cursor_parse(out, 2, 3, &d) == 0 && same(&c, &d));
	}
	/* The input as raw fields. */
	if (size >= sizeof(c)) {
		memcpy(&c, data, sizeof(c));
		if (cursor_format(&c, out, sizeof(out)) == 0) {
			CHECK(strlen(out) <= 512);
			CHECK(cursor_parse(out, 10, 10, &d) == 0 && same(&c, &d));
		}
	}
	free(text);
	return 0;
}
