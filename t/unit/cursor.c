/*
 * The directory's page cursor (lib/cursor.c): the issued form parses and
 * formats back to itself; every other text is refused.
 */
#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "tap.h"
#include "banned.h"

#define TAG "0123456789abcdef"
#define RID "abababababababababababababababababababababababababababababababab"

int
main(void)
{
	static const char *const bad[] = {
		"", "c1.0.0." TAG ".3.2.10000.77." RID, "c2.2.0." TAG ".3.2.10000.77." RID,
		"c2.0.3." TAG ".3.2.10000.77." RID, "c2.0.0." TAG ".03.2.10000.77." RID,
		"c2.0.0.0123456789ABCDEF.3.2.10000.77." RID, "c2.0.0." TAG ".3.2.10000.77." RID ".x",
		"c2.0.0." TAG ".18446744073709551615.2.1.7." RID, "c2.0.0." TAG ".3.2.1.5e3." RID,
		"c2........", "c2.0.0." TAG ".3.2.-1.77." RID,
	};
	const char *good = "c2.1.2." TAG ".9999999999999999999.0.10000.77." RID;
	struct cursor c;
	char out[CURSOR_TEXT_MAX];

	ok(cursor_parse(good, 2, 3, &c) == 0 && c.sort == 1 && c.ctx == 2 && c.bb == 9999999999999999999u &&
	    c.bbr == 0 && strcmp(c.usdc, "10000") == 0 && c.block == 77 && strcmp(c.tag, TAG) == 0 &&
	    strcmp(c.rid, RID) == 0, "an issued cursor parses into its fields");
	ok(cursor_format(&c, out, sizeof(out)) == 0 && strcmp(out, good) == 0,
	    "and formats back to the same text");
	ok(cursor_format(&c, out, 40) < 0, "a buffer too small is an error, not a cut cursor");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(cursor_parse(bad[i], 2, 3, &c) < 0, "refused: \"%.40s\"", bad[i]);
	c.usdc[0] = '0';
	c.usdc[1] = '1';
	ok(cursor_format(&c, out, sizeof(out)) < 0, "a field with a leading zero does not format");
	return done_testing();
}
