/* Decimal amounts: grammar tables, atomic conversion both ways, buffers. */
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "tap.h"
#include "banned.h"

#define D60 "123456789012345678901234567890123456789012345678901234567890"

static const struct {
	const char *in, *ipart, *fpart;
} valid[] = {
	{"0", "0", ""},
	{"1", "1", ""},
	{"10", "10", ""},
	{"0.01", "0", "01"},
	{"0.0", "0", "0"},
	{"1.50", "1", "50"},
	{"12345.678", "12345", "678"},
	{"0.000000000000000001", "0", "000000000000000001"}, /* 18 fraction digits */
	{"9.999999999999999999", "9", "999999999999999999"},
	{D60, D60, ""},
	{D60 ".123456789012345678", D60, "123456789012345678"},
};

static const struct {
	const char *in;
	enum decimal_err want;
} invalid[] = {
	{"", DECIMAL_SYNTAX},
	{"1e5", DECIMAL_SYNTAX},
	{"1E5", DECIMAL_SYNTAX},
	{"1.0e1", DECIMAL_SYNTAX},
	{"-1", DECIMAL_SYNTAX},
	{"+1", DECIMAL_SYNTAX},
	{"01", DECIMAL_SYNTAX},
	{"00", DECIMAL_SYNTAX},
	{"00.1", DECIMAL_SYNTAX},
	{"1.", DECIMAL_SYNTAX},
	{".5", DECIMAL_SYNTAX},
	{".", DECIMAL_SYNTAX},
	{" 1", DECIMAL_SYNTAX},
	{"1 ", DECIMAL_SYNTAX},
	{"1 .5", DECIMAL_SYNTAX},
	{"0x10", DECIMAL_SYNTAX},
	{"1,5", DECIMAL_SYNTAX},
	{"1.2.3", DECIMAL_SYNTAX},
	{"1..2", DECIMAL_SYNTAX},
	{"1_000", DECIMAL_SYNTAX},
	{"NaN", DECIMAL_SYNTAX},
	{"Infinity", DECIMAL_SYNTAX},
	{"１", DECIMAL_SYNTAX}, /* fullwidth digit one */
	{"1.0000000000000000001", DECIMAL_TOO_LONG}, /* 19 fraction digits */
	{"0.0000000000000000000", DECIMAL_TOO_LONG},
	{D60 "1", DECIMAL_TOO_LONG}, /* 61 integer digits */
};

static const struct {
	const char *in;
	unsigned dec;
	enum decimal_err want;
	const char *out;
} to_atomic[] = {
	{"0.01", 6, DECIMAL_OK, "10000"},
	{"1", 6, DECIMAL_OK, "1000000"},
	{"0", 6, DECIMAL_OK, "0"},
	{"0.0", 6, DECIMAL_OK, "0"},
	{"0.000001", 6, DECIMAL_OK, "1"},
	{"0.0000010", 6, DECIMAL_OK, "1"},          /* zero excess digit is fine */
	{"0.000001000000000000", 6, DECIMAL_OK, "1"},
	{"0.0000001", 6, DECIMAL_TOO_PRECISE, NULL}, /* nonzero excess digit */
	{"1.2345678", 6, DECIMAL_TOO_PRECISE, NULL},
	{"12.5", 6, DECIMAL_OK, "12500000"},
	{"1000000", 6, DECIMAL_OK, "1000000000000"},
	{"5", 0, DECIMAL_OK, "5"},
	{"5.0", 0, DECIMAL_OK, "5"},
	{"5.1", 0, DECIMAL_TOO_PRECISE, NULL},
	{"1", 18, DECIMAL_OK, "1000000000000000000"},
	{"0.000000000000000001", 18, DECIMAL_OK, "1"},
	{"1.5", 36, DECIMAL_OK, "1500000000000000000000000000000000000"},
	{"1", 37, DECIMAL_BAD_DECIMALS, NULL},
	{D60, 36, DECIMAL_OK, D60 "000000000000000000000000000000000000"},
};

static const struct {
	const char *in;
	unsigned dec;
	enum decimal_err want;
	const char *out;
} from_atomic[] = {
	{"10000", 6, DECIMAL_OK, "0.01"},
	{"1000000", 6, DECIMAL_OK, "1"},
	{"0", 6, DECIMAL_OK, "0"},
	{"1", 6, DECIMAL_OK, "0.000001"},
	{"1234567", 6, DECIMAL_OK, "1.234567"},
	{"1200000", 6, DECIMAL_OK, "1.2"},
	{"12500000", 6, DECIMAL_OK, "12.5"},
	{"999999", 6, DECIMAL_OK, "0.999999"},
	{"100000", 6, DECIMAL_OK, "0.1"},
	{"5", 0, DECIMAL_OK, "5"},
	{"0", 0, DECIMAL_OK, "0"},
	{"1", 18, DECIMAL_OK, "0.000000000000000001"},
	{"1000000000000000000", 18, DECIMAL_OK, "1"},
	{"115792089237316195423570985008687907853269984665640564039457584007913129639935", 18, DECIMAL_OK,
	    "115792089237316195423570985008687907853269984665640564039457.584007913129639935"},
	{"", 6, DECIMAL_SYNTAX, NULL},
	{"01", 6, DECIMAL_SYNTAX, NULL},
	{"00", 6, DECIMAL_SYNTAX, NULL},
	{"-1", 6, DECIMAL_SYNTAX, NULL},
	{"1.5", 6, DECIMAL_SYNTAX, NULL},
	{"1 ", 6, DECIMAL_SYNTAX, NULL},
	{"0x10", 6, DECIMAL_SYNTAX, NULL},
	{"1", 37, DECIMAL_BAD_DECIMALS, NULL},
	{D60 D60, 6, DECIMAL_TOO_LONG, NULL},
};

static void
test_parse(void)
{
	struct decimal d;
	char out[DECIMAL_TEXT_BUFSZ];
	enum decimal_err e;

	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		const char *s = valid[i].in;

		e = decimal_parse(s, strlen(s), &d);
		if (!ok(e == DECIMAL_OK, "valid '%s' (%s)", s, decimal_strerror(e)))
			continue;
		ok(strcmp(d.ipart, valid[i].ipart) == 0 && d.ilen == strlen(valid[i].ipart) &&
		    strcmp(d.fpart, valid[i].fpart) == 0 && d.flen == strlen(valid[i].fpart),
		    "parts of '%s': '%s' . '%s'", s, d.ipart, d.fpart);
		ok(decimal_format(&d, out, sizeof(out)) == DECIMAL_OK && strcmp(out, s) == 0,
		    "'%s' formats back unchanged", s);
	}
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		const char *s = invalid[i].in;

		e = decimal_parse(s, strlen(s), &d);
		ok(e == invalid[i].want, "invalid '%s' -> %s (got: %s)", s, decimal_strerror(invalid[i].want),
		    decimal_strerror(e));
	}
	ok(decimal_parse("1.5xyz", 3, &d) == DECIMAL_OK && strcmp(d.fpart, "5") == 0, "slen bounds the input");
	ok(decimal_parse("1\0", 2, &d) == DECIMAL_SYNTAX, "embedded NUL rejected");
	ok(decimal_parse(NULL, 0, &d) == DECIMAL_SYNTAX, "NULL rejected");

	/* trim and zero */
	decimal_parse("1.500", 5, &d);
	decimal_trim(&d);
	ok(decimal_format(&d, out, sizeof(out)) == DECIMAL_OK && strcmp(out, "1.5") == 0, "trim 1.500 -> 1.5");
	decimal_parse("2.000", 5, &d);
	ok(!decimal_is_zero(&d), "2.000 is not zero");
	decimal_trim(&d);
	ok(decimal_format(&d, out, sizeof(out)) == DECIMAL_OK && strcmp(out, "2") == 0 && d.flen == 0,
	    "trim 2.000 -> 2");
	decimal_parse("0.000", 5, &d);
	ok(decimal_is_zero(&d), "0.000 is zero");
	decimal_trim(&d);
	ok(decimal_format(&d, out, sizeof(out)) == DECIMAL_OK && strcmp(out, "0") == 0, "trim 0.000 -> 0");
	decimal_parse("0.001", 5, &d);
	ok(!decimal_is_zero(&d), "0.001 is not zero");
	decimal_parse("10", 2, &d);
	decimal_trim(&d);
	ok(decimal_format(&d, out, sizeof(out)) == DECIMAL_OK && strcmp(out, "10") == 0,
	    "trim leaves integer zeros alone");

	/* format buffer bounds: "1.5" needs 4 bytes. */
	decimal_parse("1.5", 3, &d);
	ok(decimal_format(&d, out, 4) == DECIMAL_OK && strcmp(out, "1.5") == 0, "format fits exactly");
	ok(decimal_format(&d, out, 3) == DECIMAL_NO_SPACE && out[0] == '\0', "format one byte short");
	ok(decimal_format(&d, NULL, 0) == DECIMAL_NO_SPACE, "format to NULL");
}

static void
test_to_atomic(void)
{
	struct decimal d;
	char out[DECIMAL_ATOMIC_BUFSZ];
	enum decimal_err e;

	for (size_t i = 0; i < sizeof(to_atomic) / sizeof(to_atomic[0]); i++) {
		const char *s = to_atomic[i].in;

		if (!ok(decimal_parse(s, strlen(s), &d) == DECIMAL_OK, "to_atomic input '%s' parses", s))
			continue;
		e = decimal_to_atomic(&d, to_atomic[i].dec, out, sizeof(out));
		if (to_atomic[i].want == DECIMAL_OK)
			ok(e == DECIMAL_OK && strcmp(out, to_atomic[i].out) == 0, "('%s', %u) -> %s (got '%s', %s)",
			    s, to_atomic[i].dec, to_atomic[i].out, out, decimal_strerror(e));
		else
			ok(e == to_atomic[i].want && out[0] == '\0', "('%s', %u) -> %s (got %s)", s,
			    to_atomic[i].dec, decimal_strerror(to_atomic[i].want), decimal_strerror(e));
	}

	/* Output buffer: "10000" needs 6 bytes. */
	decimal_parse("0.01", 4, &d);
	ok(decimal_to_atomic(&d, 6, out, 6) == DECIMAL_OK && strcmp(out, "10000") == 0, "to_atomic fits exactly");
	ok(decimal_to_atomic(&d, 6, out, 5) == DECIMAL_NO_SPACE && out[0] == '\0', "to_atomic one byte short");
	ok(decimal_to_atomic(&d, 6, NULL, 0) == DECIMAL_NO_SPACE, "to_atomic to NULL");

	/* A hand-built struct that breaks the grammar is refused. */
	decimal_parse("1.5", 3, &d);
	d.ipart[0] = 'x';
	ok(decimal_to_atomic(&d, 6, out, sizeof(out)) == DECIMAL_SYNTAX, "non-digit ipart refused");
	decimal_parse("1.5", 3, &d);
	d.flen = DECIMAL_FRAC_MAX + 1;
	ok(decimal_to_atomic(&d, 6, out, sizeof(out)) == DECIMAL_SYNTAX, "oversized flen refused");
	decimal_parse("10", 2, &d);
	d.ipart[0] = '0';
	ok(decimal_to_atomic(&d, 6, out, sizeof(out)) == DECIMAL_SYNTAX, "leading zero refused");
}

static void
test_from_atomic(void)
{
	char out[DECIMAL_TEXT_BUFSZ];
	enum decimal_err e;

	for (size_t i = 0; i < sizeof(from_atomic) / sizeof(from_atomic[0]); i++) {
		const char *s = from_atomic[i].in;

		e = decimal_from_atomic(s, strlen(s), from_atomic[i].dec, out, sizeof(out));
		if (from_atomic[i].want == DECIMAL_OK)
			ok(e == DECIMAL_OK && strcmp(out, from_atomic[i].out) == 0, "('%s', %u) -> %s (got '%s', %s)",
			    s, from_atomic[i].dec, from_atomic[i].out, out, decimal_strerror(e));
		else
			ok(e == from_atomic[i].want && out[0] == '\0', "('%s', %u) -> %s (got %s)", s,
			    from_atomic[i].dec, decimal_strerror(from_atomic[i].want), decimal_strerror(e));
	}
	/* "0.000001" needs 9 bytes. */
	ok(decimal_from_atomic("1", 1, 6, out, 9) == DECIMAL_OK && strcmp(out, "0.000001") == 0,
	    "from_atomic fits exactly");
	ok(decimal_from_atomic("1", 1, 6, out, 8) == DECIMAL_NO_SPACE && out[0] == '\0',
	    "from_atomic one byte short");
	ok(decimal_from_atomic("0", 1, 6, out, 2) == DECIMAL_OK && strcmp(out, "0") == 0, "\"0\" needs 2 bytes");
	ok(decimal_from_atomic("0", 1, 6, NULL, 0) == DECIMAL_NO_SPACE, "from_atomic to NULL");
	ok(decimal_from_atomic(NULL, 0, 6, out, sizeof(out)) == DECIMAL_SYNTAX, "NULL atomic refused");

	/* The advertised buffer sizes hold the largest outputs. */
	{
		char big[DECIMAL_ATOMIC_MAX + 1];
		char txt[DECIMAL_TEXT_BUFSZ];

		memset(big, '9', DECIMAL_ATOMIC_MAX);
		big[DECIMAL_ATOMIC_MAX] = '\0';
		ok(decimal_from_atomic(big, DECIMAL_ATOMIC_MAX, DECIMAL_DECIMALS_MAX, txt, sizeof(txt)) ==
		    DECIMAL_OK && strlen(txt) == DECIMAL_ATOMIC_MAX + 1, "largest atomic, most decimals fits");
		ok(decimal_from_atomic("1", 1, DECIMAL_DECIMALS_MAX, txt, sizeof(txt)) == DECIMAL_OK &&
		    strlen(txt) == 2 + DECIMAL_DECIMALS_MAX, "smallest nonzero, most decimals fits");
	}
}

/* Round trips: display -> atomic -> display and atomic -> display -> atomic. */
static void
test_round_trip(void)
{
	static const unsigned decs[] = {0, 2, 6, 8, 18};
	int bad = 0, runs = 0;
	char a[DECIMAL_ATOMIC_BUFSZ], t[DECIMAL_TEXT_BUFSZ], a2[DECIMAL_ATOMIC_BUFSZ];
	struct decimal d;

	for (size_t k = 0; k < sizeof(decs) / sizeof(decs[0]); k++) {
		unsigned dec = decs[k];
		unsigned long long x = 1;

		/* atomic values 0, 1, 7, 49, ... and their neighbours */
		for (int i = 0; i < 60; i++, x = x * 7 + (unsigned long long)i) {
			for (int off = -1; off <= 1; off++) {
				unsigned long long v = x + (unsigned long long)(long long)off;
				int n = snprintf(a, sizeof(a), "%llu", v);

				runs++;
				if (n < 0 || (size_t)n >= sizeof(a) ||
				    decimal_from_atomic(a, (size_t)n, dec, t, sizeof(t)) != DECIMAL_OK ||
				    decimal_parse(t, strlen(t), &d) != DECIMAL_OK ||
				    decimal_to_atomic(&d, dec, a2, sizeof(a2)) != DECIMAL_OK || strcmp(a, a2) != 0) {
					bad++;
					printf("# round trip failed: %s dec=%u -> '%s' -> '%s'\n", a, dec, t, a2);
				}
				/* The display form is already trimmed. */
				decimal_trim(&d);
				if (d.flen > 0 && d.fpart[d.flen - 1] == '0')
					bad++;
			}
		}
	}
	ok(bad == 0, "%d round trips atomic -> display -> atomic (%d failures)", runs, bad);
}

static void
test_strerror(void)
{
	int distinct = 1;

	for (int i = 0; i < DECIMAL_ERR__MAX; i++) {
		const char *m = decimal_strerror((enum decimal_err)i);

		if (m == NULL || m[0] == '\0')
			distinct = 0;
		for (int j = 0; j < i && distinct; j++)
			if (strcmp(m, decimal_strerror((enum decimal_err)j)) == 0)
				distinct = 0;
	}
	ok(distinct, "decimal_strerror: one distinct sentence per code");
	ok(decimal_strerror(DECIMAL_ERR__MAX) != NULL, "decimal_strerror out of range is not NULL");
}

int
main(void)
{
	test_parse();
	test_to_atomic();
	test_from_atomic();
	test_round_trip();
	test_strerror();
	return done_testing();
}
