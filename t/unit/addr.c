/* EIP-55 addresses: spec and reference-doc vectors, case flips, rejections. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "addr.h"
#include "tap.h"
#include "banned.h"

/* Checksummed addresses that must format byte for byte. */
static const char *const checksummed[] = {
	/* EIP-55 specification examples (the first two are "all caps"). */
	"0x52908400098527886E0F7030069857D2E4169EE7",
	"0x8617E340B3D01FA5F11F306F4090FD50E238070D",
	"0xde709f2102306220921060314715629080e2fb77",
	"0x27b1fdb04752bbc536007a920d24acb045561c26",
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
	"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
	"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
	/* Reference docs: USDC on Base, anvil0, cow, EIP-712 Bob/verifyingContract. */
	"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
	"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
	"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
	"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB",
	"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
	"0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
	"0x857b06519E91e3A54538791bDbb0E22373e36b66",
	"0x9D85ca56217D2bb651b00f15e694EB7E713637D4",
	"0xc95EB884FE852e241D409234bfC7045CB9E31BD7",
	"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23",
};

static const char *const malformed[] = {
	"",
	"0x",
	"5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",     /* no 0x */
	"005aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",   /* 42 chars, no 0x */
	"0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",   /* capital X */
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",    /* 39 digits */
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0",  /* 41 digits */
	"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg",   /* non-hex */
	"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae ",   /* trailing space */
	" 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",  /* leading space */
	"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ",  /* 43 chars */
	"0x+aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
};

static void
str_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static void
str_upper_digits(char *s)
{
	for (s += 2; *s; s++)
		*s = (char)toupper((unsigned char)*s);
}

int
main(void)
{
	size_t n = sizeof(checksummed) / sizeof(checksummed[0]);
	char out[ADDR_TEXT_LEN + 1], buf[ADDR_TEXT_LEN + 1];
	struct addr a, b;

	for (size_t i = 0; i < n; i++) {
		const char *s = checksummed[i];

		if (!ok(addr_parse(s, strlen(s), &a) == 0, "parse %s", s))
			continue;
		is_str(addr_format(&a, out), s, "format round trip %s", s);
		ok(addr_is_checksummed(s, strlen(s)), "is_checksummed %s", s);

		snprintf(buf, sizeof(buf), "%s", s);
		str_lower(buf);
		ok(addr_parse(buf, strlen(buf), &b) == 0 && addr_eq(&a, &b), "lowercase parses: %s", buf);
		is_str(addr_format_lower(&a, out), buf, "format_lower %s", s);

		snprintf(buf, sizeof(buf), "%s", s);
		str_upper_digits(buf);
		ok(addr_parse(buf, strlen(buf), &b) == 0 && addr_eq(&a, &b), "all-uppercase parses: %s", buf);

		/* Flip the case of each letter in turn; every flip must be rejected. */
		int letters = 0, flips_rejected = 0;
		for (size_t j = 2; j < ADDR_TEXT_LEN; j++) {
			if (!isalpha((unsigned char)s[j]))
				continue;
			letters++;
			snprintf(buf, sizeof(buf), "%s", s);
			buf[j] = (char)(islower((unsigned char)buf[j]) ? toupper((unsigned char)buf[j])
			                                                : tolower((unsigned char)buf[j]));
			/* A flip that yields all-lower or all-upper is a legal spelling. */
			int lo = 0, up = 0;
			for (size_t k = 2; k < ADDR_TEXT_LEN; k++) {
				lo += islower((unsigned char)buf[k]) != 0;
				up += isupper((unsigned char)buf[k]) != 0;
			}
			if (lo == 0 || up == 0) {
				flips_rejected++;
				continue;
			}
			if (addr_parse(buf, strlen(buf), &b) < 0 && !addr_is_checksummed(buf, strlen(buf)))
				flips_rejected++;
		}
		ok(flips_rejected == letters, "every one-letter case flip rejected (%d/%d) for %s",
		    flips_rejected, letters, s);
	}

	/* The named single flip from the brief. */
	ok(addr_parse("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", 42, &a) < 0,
	    "0x5aAeb...BeAeD (last letter flipped) rejected");
	/*
	 * The MPP spec's example recipient (docs/PROTOCOL.md, Test vectors) is mixed
	 * case with a
	 * wrong checksum; its EIP-55 form is 0xC04193c50cd2e6A1C79593E46364496Fe5fCd9B6.
	 */
	ok(addr_parse("0xc04193C50cD2E6a1C79593e46364496Fe5fcd9b6", 42, &a) < 0,
	    "MPP spec example recipient (bad checksum) rejected");
	ok(addr_parse("0xC04193c50cd2e6A1C79593E46364496Fe5fCd9B6", 42, &a) == 0 &&
	    strcmp(addr_format(&a, out), "0xC04193c50cd2e6A1C79593E46364496Fe5fCd9B6") == 0,
	    "its correct checksum form parses and round-trips");
	ok(!addr_is_checksummed("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", 42),
	    "lowercase form is not 'checksummed' when the checksum has capitals");
	ok(addr_is_checksummed("0xde709f2102306220921060314715629080e2fb77", 42),
	    "lowercase form is checksummed when the checksum has no capitals");

	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		const char *s = malformed[i];

		memset(&a, 0xAA, sizeof(a));
		ok(addr_parse(s, strlen(s), &a) < 0 && a.b[0] == 0xAA && !addr_is_checksummed(s, strlen(s)),
		    "malformed rejected, output untouched: '%s'", s);
	}
	/* Length is taken from slen, not from a NUL. */
	ok(addr_parse("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedXYZ", 42, &a) == 0,
	    "slen bounds the input (trailing bytes ignored)");
	ok(addr_parse("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", 41, &a) < 0, "short slen rejected");
	ok(addr_parse("0x5aaeb6053f3e94c9b9a09f33669435e7ef1be\0ed", 42, &a) < 0, "embedded NUL rejected");

	memset(&a, 0, sizeof(a));
	ok(addr_is_zero(&a), "zero address is zero");
	is_str(addr_format(&a, out), "0x0000000000000000000000000000000000000000", "zero address formats");
	a.b[19] = 1;
	ok(!addr_is_zero(&a), "non-zero address is not zero");
	ok(!addr_eq(&a, &b), "addr_eq distinguishes");
	{
		struct addr d, want;
		char t[ADDR_TEXT_LEN + 1];

		addr_parse("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", 42, &want);
		ok(addr_from_digits("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", &d) == 0 && addr_eq(&d, &want) &&
		    strcmp(addr_format(&d, t), "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed") == 0,
		    "40 stored hex digits parse (lowercase)");
		ok(addr_from_digits("5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", &d) == 0 && addr_eq(&d, &want),
		    "40 stored hex digits parse (HEX() prints uppercase)");
		ok(addr_from_digits("0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea", &d) < 0, "a 0x prefix is refused");
		ok(addr_from_digits("5aaeb6053f3e94c9b9a09f33669435e7ef1bea", &d) < 0, "38 digits refused");
		ok(addr_from_digits("5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg", &d) < 0, "a non-hex digit refused");
		ok(addr_from_digits(NULL, &d) < 0, "NULL (a SQL NULL column) refused");
	}
	{
		json_object *j = addr_json_new("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");

		ok(j && json_object_is_type(j, json_type_string) &&
		    strcmp(json_object_get_string(j), "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed") == 0,
		    "addr_json_new: the EIP-55 string of stored digits");
		json_object_put(j);
		ok(addr_json_new("5aaeb6053f3e94c9b9a09f33669435e7ef1bea") == NULL && addr_json_new(NULL) == NULL,
		    "addr_json_new: JSON null for digits that are not an address");
	}
	return done_testing();
}
