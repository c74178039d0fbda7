/* Whole-string UTF-8 checks on top of utf8_decode (see utf8.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"
#include "banned.h"

long
utf8_length(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	long count = 0;

	while (i < len) {
		uint32_t cp;
		int k;

		if (p[i] < 0x80) {
			i++;
		} else {
			if ((k = utf8_decode(p + i, len - i, &cp)) < 0)
				return -1;
			i += (size_t)k;
		}
		count++;
	}
	return count;
}

bool
utf8_valid(const char *s, size_t len)
{
	return utf8_length(s, len) >= 0;
}

size_t
utf8_repair(char *s)
{
	size_t len = strlen(s), i = 0;
	uint32_t cp;
	int n;

	while (i < len) {
		if ((n = utf8_decode((const unsigned char *)s + i, len - i, &cp)) > 0) {
			i += (size_t)n;
			continue;
		}
		/* A sequence cut off by the end (truncation) goes; any other bad byte becomes '?'. */
		if (len - i < 4 && (unsigned char)s[i] >= 0xc2 && (unsigned char)s[i] <= 0xf4) {
			bool tail = true;

			for (size_t k = i + 1; k < len; k++)
				tail = tail && ((unsigned char)s[k] & 0xc0) == 0x80;
			if (tail) {
				s[i] = '\0';
				return i;
			}
		}
		s[i++] = '?';
	}
	return len;
}

bool
utf8_is_js_space(uint32_t cp)
{
	switch (cp) {
	case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
	case 0x00a0: case 0x1680: case 0x2028: case 0x2029: case 0x202f: case 0x205f:
	case 0x3000: case 0xfeff:
		return true;
	default:
		return cp >= 0x2000 && cp <= 0x200a;
	}
}

size_t
utf8_vformat(char *out, size_t cap, const char *fmt, va_list ap)
{
	if (cap == 0)
		return 0;
	vsnprintf(out, cap, fmt, ap);
	return utf8_repair(out);
}

size_t
utf8_copy(char *out, size_t cap, const char *s)
{
	if (cap == 0)
		return 0;
	snprintf(out, cap, "%s", s);
	return utf8_repair(out);
}
