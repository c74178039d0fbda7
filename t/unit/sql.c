/* The statement builder (lib/sql.h): escaping, typed values, errors. */
#include <stdint.h>
#include <string.h>

#include "sql.h"
#include "tap.h"
#include "banned.h"

struct text_vec {
	const char *in;
	size_t n;
	const char *want;
};

static const struct text_vec texts[] = {
	{ "", 0, "''" },
	{ "plain", 5, "'plain'" },
	{ "a'b", 3, "'a\\'b'" },
	{ "a\"b", 3, "'a\\\"b'" },
	{ "a\\b", 3, "'a\\\\b'" },
	{ "a\nb", 3, "'a\\nb'" },
	{ "a\rb", 3, "'a\\rb'" },
	{ "a\x1a" "b", 3, "'a\\Zb'" },
	{ "a\0b", 3, "'a\\0b'" },
	{ "\\'", 2, "'\\\\\\''" },
	{ "' OR 1=1 -- ", 12, "'\\' OR 1=1 -- '" },
	{ "caf\xc3\xa9 \xf0\x9f\x98\x80", 10, "'caf\xc3\xa9 \xf0\x9f\x98\x80'" },
	{ "%_?", 3, "'%_?'" },
};

struct dec_vec {
	const char *in;
	bool good;
};

static const struct dec_vec decs[] = {
	{ "0", true }, { "12", true }, { "-12", true }, { "1.5", true }, { "-0.000001", true },
	{ "123456789012345678901234567890.123456", true },
	{ "", false }, { "-", false }, { ".5", false }, { "5.", false }, { "1.2.3", false },
	{ "1e5", false }, { "+1", false }, { " 1", false }, { "1 ", false }, { "0x10", false },
	{ "1;DROP TABLE x", false }, { "--1", false }, { "1-", false },
};

static int
one(const struct sqlv v, char *out, size_t cap)
{
	struct sql q;

	sql_on(&q, out, cap);
	return sql_add(&q, "?", v);
}

/* LIKE patterns: each metacharacter taken literally, then quoted for the statement. */
struct like_vec {
	const char *in;
	size_t n;
	bool contains;
	const char *want;
};

static const struct like_vec likes[] = {
	{ "abc", 3, true, "'%abc%'" },
	{ "abc", 3, false, "'abc%'" },
	{ "", 0, true, "'%%'" },
	{ "", 0, false, "'%'" },
	{ "50%", 3, true, "'%50\\\\%%'" },
	{ "a_b", 3, false, "'a\\\\_b%'" },
	{ "a\\b", 3, true, "'%a\\\\\\\\b%'" },
	{ "it's", 4, true, "'%it\\'s%'" },
	{ "%_\\'", 4, false, "'\\\\%\\\\_\\\\\\\\\\'%'" },
	{ "owner/re_po#", 12, true, "'%owner/re\\\\_po#%'" },
	{ "a\nb", 3, true, "'%a\\nb%'" },
	{ "a\0b", 3, true, "'%a\\0b%'" },
	{ "caf\xc3\xa9", 5, false, "'caf\xc3\xa9%'" },
};

int
main(void)
{
	char b[256], small[8];
	struct sql q = SQL_ON(b);
	size_t n;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		ok(one(SQL_TEXTN(texts[i].in, texts[i].n), b, sizeof(b)) == 0 &&
		    strcmp(b, texts[i].want) == 0, "text vector %zu escapes to %s", i, texts[i].want);
	}
	ok(one(SQL_TEXT("it's"), b, sizeof(b)) == 0 && strcmp(b, "'it\\'s'") == 0,
	    "SQL_TEXT takes a C string");
	ok(one(SQL_TEXT(NULL), b, sizeof(b)) == 0 && strcmp(b, "NULL") == 0, "SQL_TEXT(NULL) is NULL");
	/* Every byte 0..255 alone: only the seven specials change. */
	n = 0;
	for (unsigned c = 0; c < 256; c++) {
		char in = (char)c;
		bool special = c == 0 || c == '\n' || c == '\r' || c == '\\' || c == '\'' || c == '"' ||
		    c == 0x1a;

		if (one(SQL_TEXTN(&in, 1), b, sizeof(b)) == 0 && b[0] == '\'' &&
		    strlen(b) == (special ? 4u : 3u) && (special ? b[1] == '\\' : b[1] == in))
			n++;
	}
	ok(n == 256, "each of the 256 bytes quotes as expected (%zu)", n);

	{
		const unsigned char h[] = { 0x00, 0x01, 0xab, 0xff };

		ok(one(SQL_BYTES(h, 4), b, sizeof(b)) == 0 && strcmp(b, "X'0001abff'") == 0, "bytes as hex");
		ok(one(SQL_BYTES(h, 0), b, sizeof(b)) == 0 && strcmp(b, "''") == 0, "no bytes as ''");
		ok(one(SQL_BYTES(NULL, 32), b, sizeof(b)) == 0 && strcmp(b, "NULL") == 0,
		    "SQL_BYTES(NULL, n) is NULL");
		ok(one(SQL_TEXTN(NULL, 3), b, sizeof(b)) == 0 && strcmp(b, "NULL") == 0,
		    "SQL_TEXTN(NULL, n) is NULL");
	}
	ok(one(SQL_HEX("00aBff"), b, sizeof(b)) == 0 && strcmp(b, "X'00aBff'") == 0, "hex text as X'..'");
	ok(one(SQL_HEX(""), b, sizeof(b)) == 0 && strcmp(b, "''") == 0, "no hex as ''");
	ok(one(SQL_HEX("abc"), b, sizeof(b)) < 0, "an odd count of hex digits is refused");
	ok(one(SQL_HEX("0x00"), b, sizeof(b)) < 0, "a 0x prefix is refused");
	ok(one(SQL_HEX("00' OR '1"), b, sizeof(b)) < 0, "a non-hex character is refused");
	ok(one(SQL_HEX(NULL), b, sizeof(b)) < 0, "a NULL hex is refused");
	ok(one(SQL_U64(UINT64_MAX), b, sizeof(b)) == 0 && strcmp(b, "18446744073709551615") == 0, "u64");
	ok(one(SQL_I64(INT64_MIN), b, sizeof(b)) == 0 && strcmp(b, "-9223372036854775808") == 0, "i64");
	ok(one(SQL_BOOL(true), b, sizeof(b)) == 0 && strcmp(b, "TRUE") == 0, "bool true");
	ok(one(SQL_BOOL(false), b, sizeof(b)) == 0 && strcmp(b, "FALSE") == 0, "bool false");
	ok(one(SQL_NULL, b, sizeof(b)) == 0 && strcmp(b, "NULL") == 0, "NULL");
	for (size_t i = 0; i < sizeof(decs) / sizeof(decs[0]); i++) {
		int r = one(SQL_DEC(decs[i].in), b, sizeof(b));

		ok(decs[i].good ? r == 0 && strcmp(b, decs[i].in) == 0 : r < 0 && strcmp(b, "") == 0,
		    "decimal '%s' is %s", decs[i].in, decs[i].good ? "taken" : "refused");
	}
	ok(one(SQL_DEC(NULL), b, sizeof(b)) < 0, "a NULL decimal is refused");

	for (size_t i = 0; i < sizeof(likes) / sizeof(likes[0]); i++) {
		struct sqlv v = likes[i].contains ? SQL_LIKE_CONTAINS(likes[i].in, likes[i].n) :
		    SQL_LIKE_PREFIX(likes[i].in, likes[i].n);

		ok(one(v, b, sizeof(b)) == 0 && strcmp(b, likes[i].want) == 0, "like vector %zu is %s (got %s)",
		    i, likes[i].want, b);
	}
	ok(one(SQL_LIKE_CONTAINS(NULL, 3), b, sizeof(b)) == 0 && strcmp(b, "NULL") == 0,
	    "SQL_LIKE_CONTAINS(NULL, n) is NULL");
	{
		char tiny[8];

		ok(one(SQL_LIKE_CONTAINS("a%b", 3), tiny, sizeof(tiny)) < 0,
		    "a pattern that does not fit is refused, not cut short");
	}

	/* Counts. */
	sql_reset(&q);
	ok(sql_add(&q, "SELECT ? + ?", SQL_U64(1)) < 0 && q.bad && q.len == 0, "too few values");
	sql_reset(&q);
	ok(sql_add(&q, "SELECT ?", SQL_U64(1), SQL_U64(2)) < 0 && q.bad, "too many values");
	sql_reset(&q);
	ok(sql_add(&q, "SELECT 1") == 0 && !q.bad && strcmp(sql_str(&q), "SELECT 1") == 0,
	    "no placeholders, no values");
	sql_reset(&q);
	ok(sql_add(&q, "SELECT ?", SQL_DEC("1e9")) < 0 && q.bad, "a bad value marks the statement bad");

	/* Composition, and bad is sticky. */
	sql_reset(&q);
	sql_add(&q, "SELECT id FROM t WHERE a = ?", SQL_TEXT("x"));
	sql_add(&q, " AND b IN (");
	for (int i = 0; i < 3; i++)
		if (i)
			sql_add(&q, ", ?", SQL_U64((uint64_t)i));
		else
			sql_add(&q, "?", SQL_U64(0));
	sql_add(&q, ") AND c = ? AND d = ?", SQL_BYTES("\x12", 1), SQL_DEC("-1.25"));
	ok(!q.bad && strcmp(sql_str(&q),
	    "SELECT id FROM t WHERE a = 'x' AND b IN (0, 1, 2) AND c = X'12' AND d = -1.25") == 0,
	    "pieces compose: %s", sql_str(&q));
	n = q.len;
	ok(sql_add(&q, " AND e = ?") < 0 && q.bad && q.len == n && strlen(q.p) == n,
	    "a failed piece leaves the statement as it was, marked bad");
	ok(sql_add(&q, " LIMIT 1") < 0 && q.len == n, "bad is sticky: later pieces fail too");
	sql_reset(&q);
	ok(!q.bad && q.len == 0 && strcmp(sql_str(&q), "") == 0, "reset clears");

	/* Overflow at exactly the capacity (cap counts the NUL). */
	{
		struct sql s = SQL_ON(small);

		ok(s.cap == 8, "SQL_ON takes the array's size");
		ok(sql_add(&s, "1234567") == 0 && s.len == 7 && strcmp(small, "1234567") == 0,
		    "cap - 1 bytes fit");
		sql_on(&s, small, sizeof(small));
		ok(sql_add(&s, "12345678") < 0 && s.bad && s.len == 0 && small[0] == '\0',
		    "cap bytes do not fit");
		sql_on(&s, small, sizeof(small));
		ok(sql_add(&s, "12?", SQL_TEXT("ab")) == 0 && strcmp(small, "12'ab'") == 0 &&
		    sql_add(&s, "?", SQL_U64(7)) == 0 && s.len == 7, "a value fills to cap - 1");
		sql_on(&s, small, sizeof(small));
		ok(sql_add(&s, "12?", SQL_TEXT("a'b")) < 0 && s.bad && small[0] == '\0',
		    "an escape that crosses the cap fails");
		sql_on(&s, small, sizeof(small));
		ok(sql_add(&s, "?", SQL_BYTES("\x01\x02\x03", 3)) < 0 && s.bad && small[0] == '\0',
		    "hex of 3 bytes (9 characters) does not fit 8");
	}
	{
		struct sql s;

		sql_on(&s, NULL, 0);
		ok(sql_add(&s, "SELECT 1") < 0 && s.bad, "no buffer is bad");
	}
	return done_testing();
}
