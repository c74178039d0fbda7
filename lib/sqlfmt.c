#include <stdarg.h>
#include <stdio.h>

#include "sqlfmt.h"
#include "banned.h"

int
sql_format(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (cap == 0)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(out, cap, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}
