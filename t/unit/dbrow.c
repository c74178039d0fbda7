/*
 * Typed reads of a result row (lib/db.h, db_row_*): every value a column
 * can hold, and every text that is not one, which must fail (never 0).
 */
#include <stdint.h>
#include <string.h>

#include "db.h"
#include "u256.h"
#include "tap.h"
#include "banned.h"

struct u64_vec {
	const char *in;
	bool good;
	uint64_t want;
};

static const struct u64_vec u64s[] = {
	{ "0", true, 0 }, { "1", true, 1 }, { "42", true, 42 },
	{ "18446744073709551615", true, UINT64_MAX },
	{ "18446744073709551616", false, 0 }, { "99999999999999999999", false, 0 },
	{ "", false, 0 }, { "-1", false, 0 }, { "+1", false, 0 }, { "01", false, 0 },
	{ " 1", false, 0 }, { "1 ", false, 0 }, { "1.0", false, 0 }, { "1e3", false, 0 },
	{ "0x10", false, 0 }, { "abc", false, 0 },
};

struct i64_vec {
	const char *in;
	bool good;
	int64_t want;
};

static const struct i64_vec i64s[] = {
	{ "0", true, 0 }, { "7", true, 7 }, { "-7", true, -7 },
	{ "1700000000", true, 1700000000 },
	{ "9223372036854775807", true, INT64_MAX },
	{ "-9223372036854775808", true, INT64_MIN },
	{ "9223372036854775808", false, 0 }, { "-9223372036854775809", false, 0 },
	{ "-0", false, 0 }, { "-", false, 0 }, { "", false, 0 }, { "--1", false, 0 },
	{ "+7", false, 0 }, { "7.5", false, 0 }, { "-07", false, 0 },
};

static const char *const bools_bad[] = { "", "2", "01", "10", "true", "-1", " 1" };

int
main(void)
{
	char *cols[4];
	MYSQL_ROW row = cols;
	uint64_t u;
	int64_t s;
	bool b;
	struct u256 w;
	char dec[U256_DEC_MAX + 1], text[6];

	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++) {
		cols[0] = (char *)u64s[i].in;
		u = 12345;
		if (u64s[i].good)
			ok(db_row_u64(row, 0, "v", &u) == DB_OK && u == u64s[i].want, "u64 '%s'", u64s[i].in);
		else
			ok(db_row_u64(row, 0, "v", &u) == DB_ERROR && u == 12345,
			    "u64 '%s' refused, out unchanged", u64s[i].in);
	}
	for (size_t i = 0; i < sizeof(i64s) / sizeof(i64s[0]); i++) {
		cols[0] = (char *)i64s[i].in;
		s = 12345;
		if (i64s[i].good)
			ok(db_row_i64(row, 0, "v", &s) == DB_OK && s == i64s[i].want, "i64 '%s'", i64s[i].in);
		else
			ok(db_row_i64(row, 0, "v", &s) == DB_ERROR && s == 12345,
			    "i64 '%s' refused, out unchanged", i64s[i].in);
	}

	cols[0] = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
	ok(db_row_u256(row, 0, "amount", &w) == DB_OK && w.w[0] == UINT64_MAX && w.w[3] == UINT64_MAX,
	    "u256 2^256-1");
	cols[0] = "1000000";
	ok(db_row_u256(row, 0, "amount", &w) == DB_OK, "u256 1000000");
	is_str(u256_format_dec(&w, dec), "1000000", "u256 round trip");
	cols[0] = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
	ok(db_row_u256(row, 0, "amount", &w) == DB_ERROR, "u256 2^256 refused");
	cols[0] = "1.5";
	ok(db_row_u256(row, 0, "amount", &w) == DB_ERROR, "u256 with a fraction refused");
	cols[0] = "-1";
	ok(db_row_u256(row, 0, "amount", &w) == DB_ERROR, "u256 negative refused");

	cols[0] = "1";
	ok(db_row_bool(row, 0, "flag", &b) == DB_OK && b, "bool 1");
	cols[0] = "0";
	ok(db_row_bool(row, 0, "flag", &b) == DB_OK && !b, "bool 0");
	for (size_t i = 0; i < sizeof(bools_bad) / sizeof(bools_bad[0]); i++) {
		cols[0] = (char *)bools_bad[i];
		b = true;
		ok(db_row_bool(row, 0, "flag", &b) == DB_ERROR && b, "bool '%s' refused", bools_bad[i]);
	}

	cols[0] = "abcde";
	ok(db_row_text(row, 0, "name", text, sizeof(text)) == DB_OK && strcmp(text, "abcde") == 0,
	    "text that fits");
	cols[0] = "abcdef";
	memcpy(text, "xyz", 4);
	ok(db_row_text(row, 0, "name", text, sizeof(text)) == DB_ERROR && strcmp(text, "xyz") == 0,
	    "text that does not fit is refused, not cut short");
	cols[0] = "";
	ok(db_row_text(row, 0, "name", text, sizeof(text)) == DB_OK && text[0] == '\0', "empty text");

	/* SQL NULL: an error for the plain forms, the default for the _or forms. */
	cols[1] = NULL;
	ok(db_row_null(row, 1) && !db_row_null(row, 0), "db_row_null");
	ok(!db_row_null(NULL, 0), "db_row_null without a row");
	u = 9;
	ok(db_row_u64(row, 1, "v", &u) == DB_ERROR && u == 9, "u64 NULL refused");
	s = 9;
	ok(db_row_i64(row, 1, "v", &s) == DB_ERROR && s == 9, "i64 NULL refused");
	ok(db_row_u256(row, 1, "v", &w) == DB_ERROR, "u256 NULL refused");
	ok(db_row_bool(row, 1, "v", &b) == DB_ERROR, "bool NULL refused");
	ok(db_row_text(row, 1, "v", text, sizeof(text)) == DB_ERROR, "text NULL refused");
	ok(db_row_u64_or(row, 1, "v", 7, &u) == DB_OK && u == 7, "u64_or NULL gives the default");
	ok(db_row_i64_or(row, 1, "v", -7, &s) == DB_OK && s == -7, "i64_or NULL gives the default");
	ok(db_row_bool_or(row, 1, "v", true, &b) == DB_OK && b, "bool_or NULL gives the default");
	cols[2] = "x";
	ok(db_row_u64_or(row, 2, "v", 7, &u) == DB_ERROR, "u64_or still refuses a bad value");
	ok(db_row_i64_or(row, 2, "v", 7, &s) == DB_ERROR, "i64_or still refuses a bad value");
	ok(db_row_bool_or(row, 2, "v", false, &b) == DB_ERROR, "bool_or still refuses a bad value");
	cols[2] = "5";
	ok(db_row_u64_or(row, 2, "v", 7, &u) == DB_OK && u == 5, "u64_or reads a value");
	ok(db_row_i64_or(row, 2, "v", 7, &s) == DB_OK && s == 5, "i64_or reads a value");

	/* No row at all is an error, never a default. */
	ok(db_row_u64(NULL, 0, "v", &u) == DB_ERROR, "u64 without a row refused");
	ok(db_row_i64_or(NULL, 0, "v", 0, &s) == DB_ERROR, "i64_or without a row refused");
	return done_testing();
}
