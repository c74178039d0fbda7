/*
 * libFuzzer target for profile activity fact IDs and the activity feed's
 * cursor (lib/factid.c), text a client sends in a path or back in a query.
 * A parsed ID or cursor formats back to exactly the input (one text each),
 * which parses again to the same value; an ID or cursor built from fuzzed
 * fields either fails to format or round-trips through the parser.
 */
#include "factid.h"
#include "fuzz.h"
#include "banned.h"

static bool
same_id(const struct fact_id *a, const struct fact_id *b)
{
	return a->src == b->src && memcmp(a->key, b->key, 32) == 0 &&
	    (a->src != FACT_RECOGNIZED || a->log_index == b->log_index);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), out[FEEDCURSOR_TEXT_MAX];
	struct fact_id id, id2;
	struct feed_cursor c, d;

	if (factid_parse(text, size, &id) == 0) {
		CHECK(id.src < FACT__MAX && size <= 300);
		CHECK(factid_format(&id, out, sizeof(out)) == 0);
		CHECK(strlen(out) == size && memcmp(out, data, size) == 0);
		CHECK(factid_parse(out, strlen(out), &id2) == 0 && same_id(&id, &id2));
	}
	if (feedcursor_parse(text, &c) == 0) {
		CHECK(feedcursor_format(&c, out, sizeof(out)) == 0);
		CHECK(strcmp(out, text) == 0 && strlen(out) <= 512);
		CHECK(feedcursor_parse(out, &d) == 0 && d.at == c.at && same_id(&c.id, &d.id));
	}
	/* The input as raw fields. */
	if (size >= sizeof(c)) {
		memcpy(&c, data, sizeof(c));
		if (feedcursor_format(&c, out, sizeof(out)) == 0) {
			CHECK(strlen(out) <= 512);
			CHECK(feedcursor_parse(out, &d) == 0 && d.at == c.at && same_id(&c.id, &d.id));
		}
	}
	free(text);
	return 0;
}
