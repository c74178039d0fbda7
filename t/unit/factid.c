/*
 * Fact IDs and the activity feed's cursor (lib/factid.c): each form parses
 * into its parts and formats back to the same text; every other text is
 * refused.
 */
#include <stdio.h>
#include <string.h>

#include "factid.h"
#include "tap.h"
#include "banned.h"

#define H "abababababababababababababababababababababababababababababababab"
#define H1 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

int
main(void)
{
	static const struct {
		const char *text;
		enum fact_src src;
		unsigned char key0;
		uint32_t log_index;
	} good[] = {
		{ "0x" H1, FACT_STORED, 0x01, 0 },
		{ "recognized-0x" H "-0", FACT_RECOGNIZED, 0xab, 0 },
		{ "recognized-0x" H1 "-4294967295", FACT_RECOGNIZED, 0x01, 4294967295u },
		{ "reviewed-0x" H, FACT_REVIEW, 0xab, 0 },
		{ "reviewed-activity-0x" H1, FACT_ACTIVITY_REVIEW, 0x01, 0 },
	};
	static const char *const bad[] = {
		"", "0x", "0x" H "00", "0X" H, "0x" "ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB",
		"0x" H "-1", "recognized-0x" H, "recognized-0x" H "-", "recognized-0x" H "-01",
		"recognized-0x" H "-4294967296", "recognized-0x" H "-1-2", "recognized-0x" H "- 1",
		"reviewed-0x" H "-1", "reviewed-" H, "reviewed-activity-0x" H "x", "reviewed-activity-",
		"Reviewed-0x" H, "used-0x" H, "recognized-0xab-1", "reviewed-0x" H "\n",
	};
	static const char *const bad_cursors[] = {
		"", "f1", "f1.", "f1.1", "f1.1.", "f2.1.0x" H1, "f1.01.0x" H1, "f1.-1.0x" H1,
		"f1.99999999999999999999.0x" H1, "f1.1.0x" H1 ".x", "f1.1.0x" H "0", "F1.1.0x" H1,
		"f1.1.reviewed-0x" H "-3", "f1..0x" H1,
	};
	struct fact_id id;
	struct feed_cursor c, d;
	char out[FACTID_TEXT_MAX], cur[FEEDCURSOR_TEXT_MAX];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ok(factid_parse(good[i].text, strlen(good[i].text), &id) == 0 && id.src == good[i].src &&
		    id.key[0] == good[i].key0 && id.log_index == good[i].log_index,
		    "fact ID parses: %.30s", good[i].text);
		ok(factid_format(&id, out, sizeof(out)) == 0 && strcmp(out, good[i].text) == 0,
		    "and formats back: %.30s", good[i].text);
	}
	ok(factid_format(&id, out, 40) < 0, "a buffer too small is an error, not a cut ID");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(factid_parse(bad[i], strlen(bad[i]), &id) < 0, "fact ID refused: \"%.40s\"", bad[i]);
	ok(factid_parse("0x" H1 "zz", 66, &id) == 0, "only the given length is read");

	ok(feedcursor_parse("f1.1712345678.recognized-0x" H "-7", &c) == 0 && c.at == 1712345678 &&
	    c.id.src == FACT_RECOGNIZED && c.id.log_index == 7, "a cursor parses into occurredAt and a fact ID");
	ok(feedcursor_format(&c, cur, sizeof(cur)) == 0 && strcmp(cur, "f1.1712345678.recognized-0x" H "-7") == 0,
	    "and formats back");
	ok(feedcursor_parse("f1.9999999999999999999.reviewed-activity-0x" H, &d) == 0 &&
	    d.at == 9999999999999999999u && d.id.src == FACT_ACTIVITY_REVIEW, "nineteen digits of occurredAt");
	c.at = 10000000000000000000u;
	ok(feedcursor_format(&c, cur, sizeof(cur)) < 0, "a twenty-digit occurredAt does not format");
	for (size_t i = 0; i < sizeof(bad_cursors) / sizeof(bad_cursors[0]); i++)
		ok(feedcursor_parse(bad_cursors[i], &c) < 0, "cursor refused: \"%.40s\"", bad_cursors[i]);
	return done_testing();
}
