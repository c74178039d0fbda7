/*
 * decimal.h: strict decimal amounts ("0.01") and their conversion to and
 * from a token's atomic units ("10000" for USDC, which has 6 decimals).
 *
 * Grammar (the spec's "decimal string up to 18 fractional digits, no
 * exponent, no sign"):
 *     amount = ( "0" / [1-9] *DIGIT ) [ "." 1*18DIGIT ]
 * with at most 60 integer digits. No sign, exponent, spaces, hex, leading
 * or trailing '.', or leading zeros. Parsing keeps the digits as written:
 * "1.50" stays "1.50" until decimal_trim is called.
 *
 * Conversions never round. Converting to atomic units accepts fractional
 * digits beyond the token's decimals only when they are all zeros
 * ("0.0000010" with 6 decimals is "1"); a nonzero digit there
 * ("0.0000001") is DECIMAL_TOO_PRECISE. Atomic amounts are digit strings
 * "0" / [1-9]*DIGIT, so any size fits (uint256 needs 78 digits).
 *
 * Return conventions: everything that can fail returns enum decimal_err,
 * so a caller can tell a malformed amount from one too precise for the
 * token. Nothing allocates; outputs go to caller buffers with a size, and
 * on failure such a buffer holds "" (when it has room for the NUL).
 */
#ifndef WAYMARK_DECIMAL_H
#define WAYMARK_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>

#define DECIMAL_INT_MAX 60      /* integer digits of an amount */
#define DECIMAL_FRAC_MAX 18     /* fractional digits of an amount */
#define DECIMAL_DECIMALS_MAX 36 /* token decimals the conversions accept */
#define DECIMAL_ATOMIC_MAX (DECIMAL_INT_MAX + DECIMAL_DECIMALS_MAX) /* atomic digits */

/* Buffer sizes (with the NUL) that always suffice for the outputs below. */
#define DECIMAL_ATOMIC_BUFSZ (DECIMAL_ATOMIC_MAX + 1)
#define DECIMAL_TEXT_BUFSZ (DECIMAL_ATOMIC_MAX + 2)

enum decimal_err {
	DECIMAL_OK = 0,
	DECIMAL_SYNTAX,        /* not the grammar above (or not an atomic digit string) */
	DECIMAL_TOO_LONG,      /* too many integer, fraction or atomic digits */
	DECIMAL_TOO_PRECISE,   /* nonzero digits beyond the token's decimals */
	DECIMAL_BAD_DECIMALS,  /* token decimals above DECIMAL_DECIMALS_MAX */
	DECIMAL_NO_SPACE,      /* the output buffer is too small */
	DECIMAL_ERR__MAX
};

/* An amount as written: integer digits and fractional digits. */
struct decimal {
	char ipart[DECIMAL_INT_MAX + 1];  /* "0" or no leading zero; NUL-terminated */
	size_t ilen;
	char fpart[DECIMAL_FRAC_MAX + 1]; /* "" when there was no '.' */
	size_t flen;
};

/*
 * Parse s[0..slen) (no NUL needed) into *out. DECIMAL_SYNTAX or
 * DECIMAL_TOO_LONG on bad input; *out is then unspecified.
 */
enum decimal_err decimal_parse(const char *s, size_t slen, struct decimal *out);

/* Drop trailing fractional zeros: "1.50" -> "1.5", "2.000" -> "2". */
void decimal_trim(struct decimal *d);

/* True when the amount is zero ("0", "0.000"). */
bool decimal_is_zero(const struct decimal *d);

/*
 * Write d as text ("ipart" or "ipart.fpart") into out[outsz].
 * DECIMAL_NO_SPACE when it does not fit (80 bytes always do).
 */
enum decimal_err decimal_format(const struct decimal *d, char *out, size_t outsz);

/*
 * Atomic units of d for a token with `decimals` decimals, as a digit string
 * without leading zeros ("0" for zero) in out[outsz]:
 * ("0.01", 6) -> "10000", ("1", 6) -> "1000000".
 * DECIMAL_TOO_PRECISE, DECIMAL_BAD_DECIMALS, DECIMAL_NO_SPACE, or
 * DECIMAL_SYNTAX when *d was not made by decimal_parse.
 */
enum decimal_err decimal_to_atomic(const struct decimal *d, unsigned decimals, char *out,
    size_t outsz);

/*
 * Display form of an atomic amount atomic[0..alen) ("0" / [1-9]*DIGIT, at
 * most DECIMAL_ATOMIC_MAX digits) for a token with `decimals` decimals,
 * trailing fractional zeros trimmed, into out[outsz]:
 * ("10000", 6) -> "0.01", ("1000000", 6) -> "1", ("0", 6) -> "0".
 * The result parses again with decimal_parse when decimals <= 18 and
 * alen <= 60 + decimals.
 */
enum decimal_err decimal_from_atomic(const char *atomic, size_t alen, unsigned decimals,
    char *out, size_t outsz);

/* One English sentence for an error code (static string, never NULL). */
const char *decimal_strerror(enum decimal_err e);

#endif
