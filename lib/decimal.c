/* Strict decimal amounts and atomic units (see decimal.h). */
#include <stdbool.h>
#include <string.h>

#include "decimal.h"
#include "banned.h"

static const char *const decimal_errstr[DECIMAL_ERR__MAX] = {
	[DECIMAL_OK] = "The amount is valid.",
	[DECIMAL_SYNTAX] = "An amount is a plain decimal like 0.01, with no sign, exponent or leading zeros.",
	[DECIMAL_TOO_LONG] = "The amount has too many digits (at most 60 before and 18 after the point).",
	[DECIMAL_TOO_PRECISE] = "The amount has more decimal places than the token supports.",
	[DECIMAL_BAD_DECIMALS] = "The token has more decimals than this service supports.",
	[DECIMAL_NO_SPACE] = "The amount does not fit the output buffer.",
};

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "0" / [1-9]*DIGIT over s[0..n). */
static bool
is_natural(const char *s, size_t n)
{
	if (n == 0 || (s[0] == '0' && n > 1))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

static bool
all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

/* Leaves "" in out when it has room, so a failed call never shows garbage. */
static enum decimal_err
fail(enum decimal_err e, char *out, size_t outsz)
{
	if (out != NULL && outsz > 0)
		out[0] = '\0';
	return e;
}

/* Is *d what decimal_parse could have produced? */
static bool
well_formed(const struct decimal *d)
{
	return d->ilen <= DECIMAL_INT_MAX && d->flen <= DECIMAL_FRAC_MAX &&
	    is_natural(d->ipart, d->ilen) && all_digits(d->fpart, d->flen);
}

enum decimal_err
decimal_parse(const char *s, size_t slen, struct decimal *out)
{
	size_t ilen = 0, flen;

	if (s == NULL)
		return DECIMAL_SYNTAX;
	while (ilen < slen && is_digit(s[ilen]))
		ilen++;
	if (!is_natural(s, ilen))
		return DECIMAL_SYNTAX;
	if (ilen == slen) {
		flen = 0;
	} else {
		if (s[ilen] != '.')
			return DECIMAL_SYNTAX;
		flen = slen - ilen - 1;
		if (flen == 0 || !all_digits(s + ilen + 1, flen))
			return DECIMAL_SYNTAX;
	}
	if (ilen > DECIMAL_INT_MAX || flen > DECIMAL_FRAC_MAX)
		return DECIMAL_TOO_LONG;
	memcpy(out->ipart, s, ilen);
	out->ipart[ilen] = '\0';
	out->ilen = ilen;
	if (flen > 0)
		memcpy(out->fpart, s + ilen + 1, flen);
	out->fpart[flen] = '\0';
	out->flen = flen;
	return DECIMAL_OK;
}

void
decimal_trim(struct decimal *d)
{
	while (d->flen > 0 && d->fpart[d->flen - 1] == '0')
		d->flen--;
	d->fpart[d->flen] = '\0';
}

bool
decimal_is_zero(const struct decimal *d)
{
	if (!(d->ilen == 1 && d->ipart[0] == '0'))
		return false;
	for (size_t i = 0; i < d->flen; i++)
		if (d->fpart[i] != '0')
			return false;
	return true;
}

enum decimal_err
decimal_format(const struct decimal *d, char *out, size_t outsz)
{
	size_t need;

	if (!well_formed(d))
		return fail(DECIMAL_SYNTAX, out, outsz);
	need = d->ilen + (d->flen > 0 ? 1 + d->flen : 0) + 1;
	if (out == NULL || outsz < need)
		return fail(DECIMAL_NO_SPACE, out, outsz);
	memcpy(out, d->ipart, d->ilen);
	if (d->flen > 0) {
		out[d->ilen] = '.';
		memcpy(out + d->ilen + 1, d->fpart, d->flen);
	}
	out[need - 1] = '\0';
	return DECIMAL_OK;
}

enum decimal_err
decimal_to_atomic(const struct decimal *d, unsigned decimals, char *out, size_t outsz)
{
	char digits[DECIMAL_ATOMIC_MAX];
	size_t n, keep, lead = 0;

	if (!well_formed(d))
		return fail(DECIMAL_SYNTAX, out, outsz);
	if (decimals > DECIMAL_DECIMALS_MAX)
		return fail(DECIMAL_BAD_DECIMALS, out, outsz);
	keep = d->flen < decimals ? d->flen : decimals;
	for (size_t i = keep; i < d->flen; i++)
		if (d->fpart[i] != '0')
			return fail(DECIMAL_TOO_PRECISE, out, outsz);

	/* ipart || fpart[0..keep) || zeros up to `decimals` fraction digits. */
	memcpy(digits, d->ipart, d->ilen);
	memcpy(digits + d->ilen, d->fpart, keep);
	memset(digits + d->ilen + keep, '0', decimals - keep);
	n = d->ilen + decimals;
	while (lead + 1 < n && digits[lead] == '0')
		lead++;
	if (out == NULL || outsz < n - lead + 1)
		return fail(DECIMAL_NO_SPACE, out, outsz);
	memcpy(out, digits + lead, n - lead);
	out[n - lead] = '\0';
	return DECIMAL_OK;
}

enum decimal_err
decimal_from_atomic(const char *atomic, size_t alen, unsigned decimals, char *out, size_t outsz)
{
	size_t ilen, flen, pad, need, o = 0;
	const char *frac;

	if (atomic == NULL || !is_natural(atomic, alen))
		return fail(DECIMAL_SYNTAX, out, outsz);
	if (alen > DECIMAL_ATOMIC_MAX)
		return fail(DECIMAL_TOO_LONG, out, outsz);
	if (decimals > DECIMAL_DECIMALS_MAX)
		return fail(DECIMAL_BAD_DECIMALS, out, outsz);

	/*
	 * The last `decimals` digits are the fraction (left-padded with zeros
	 * when the number is shorter); the rest, or "0", the integer part.
	 */
	ilen = alen > decimals ? alen - decimals : 0;
	frac = atomic + ilen;
	flen = alen - ilen; /* digits present; decimals - flen zeros go first */
	while (flen > 0 && frac[flen - 1] == '0')
		flen--;
	pad = flen > 0 ? decimals - (alen - ilen) : 0;
	need = (ilen > 0 ? ilen : 1) + (flen > 0 ? 1 + pad + flen : 0) + 1;

	if (out == NULL || outsz < need)
		return fail(DECIMAL_NO_SPACE, out, outsz);
	if (ilen > 0) {
		memcpy(out, atomic, ilen);
		o = ilen;
	} else {
		out[o++] = '0';
	}
	if (flen > 0) {
		out[o++] = '.';
		memset(out + o, '0', pad);
		o += pad;
		memcpy(out + o, frac, flen);
		o += flen;
	}
	out[o] = '\0';
	return DECIMAL_OK;
}

const char *
decimal_strerror(enum decimal_err e)
{
	if ((unsigned)e >= DECIMAL_ERR__MAX)
		return "The amount is not valid.";
	return decimal_errstr[e];
}
