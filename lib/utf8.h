/*
 * utf8.h: strict UTF-8 decoding, the one decoder every parser uses.
 *
 * Well-formed means Unicode table 3-7: no overlong forms (C0, C1, E0 80..9F,
 * F0 80..8F), no surrogates U+D800..U+DFFF (ED A0..BF), nothing above
 * U+10FFFF (F4 90.., F5..FF), no sequence cut short by the end of the range
 * or by a byte that is not a continuation byte, no stray continuation bytes.
 *
 * Inputs are byte ranges: no NUL is needed and U+0000 is an ordinary
 * character. s may be NULL when len is 0.
 *
 * utf8_decode is defined here, inline: the JSON parser calls it for every
 * non-ASCII character of every string, and an out-of-line call made such
 * text about 40% slower to parse.
 *
 * Return conventions: utf8_decode returns a length or -1; utf8_valid is a
 * predicate; utf8_length returns a count or -1. Nothing here allocates.
 */
#ifndef WAYMARK_UTF8_H
#define WAYMARK_UTF8_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Decode the one code point at the start of s[0..len) into *cp. Returns
 * its length in bytes (1 to 4), or -1 when s does not begin with a
 * well-formed sequence (len 0 included); *cp is then left unchanged.
 */
static inline int
utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c, lo = 0x80, hi = 0xbf;
	uint32_t v;
	size_t n;

	if (len == 0)
		return -1;
	c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	/*
	 * Lead bytes C2..F4 only: 80..BF are continuation bytes, C0 and C1
	 * could only start overlong forms, F5..FF only values above U+10FFFF.
	 * The second byte's range narrows for E0, ED, F0 and F4 (table 3-7).
	 */
	if (c < 0xc2 || c > 0xf4)
		return -1;
	if (c < 0xe0) {
		n = 2;
		v = c & 0x1f;
	} else if (c < 0xf0) {
		n = 3;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;      /* below: overlong */
		else if (c == 0xed)
			hi = 0x9f;      /* above: surrogates */
	} else {
		n = 4;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;      /* below: overlong */
		else if (c == 0xf4)
			hi = 0x8f;      /* above: beyond U+10FFFF */
	}
	if (len < n || s[1] < lo || s[1] > hi)
		return -1;
	v = v << 6 | (s[1] & 0x3f);
	for (size_t i = 2; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		v = v << 6 | (s[i] & 0x3f);
	}
	*cp = v;
	return (int)n;
}

/* True when all of s[0..len) is well-formed UTF-8. */
bool utf8_valid(const char *s, size_t len);

/*
 * Number of Unicode scalar values (characters) in s[0..len), or -1 when
 * s is not well-formed UTF-8.
 */
long utf8_length(const char *s, size_t len);

/*
 * Make the NUL-terminated s well-formed UTF-8 in place, for text that
 * quotes untrusted input after a bounded snprintf: a sequence cut off at
 * the end is removed, any other ill-formed byte becomes '?'. Returns the
 * new length.
 */
size_t utf8_repair(char *s);

/*
 * For messages and field names that quote untrusted input cut to fit:
 * vsnprintf into out[cap], or a copy of s cut to out[cap], then
 * utf8_repair. Both return the new length.
 */
size_t utf8_vformat(char *out, size_t cap, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
size_t utf8_copy(char *out, size_t cap, const char *s);

/*
 * True for the characters JavaScript's String.prototype.trim removes
 * (WhiteSpace and LineTerminator): the deployed protocol trims handles and
 * review text with it, so both sides must agree.
 */
bool utf8_is_js_space(uint32_t cp);

#endif
