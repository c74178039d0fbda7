/* Whole-string UTF-8 checks on top of utf8_decode (see utf8.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
