/*
 * html.c: HTML escaping and the page template of html.h.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "banned.h"

int
html_esc(struct buf *b, const char *s, size_t len)
{
	size_t run = 0;

	for (size_t i = 0; s && i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *ref = NULL;

		switch (c) {
		case '&': ref = "&amp;"; break;
		case '<': ref = "&lt;"; break;
		case '>': ref = "&gt;"; break;
		case '"': ref = "&quot;"; break;
		case '\'': ref = "&#39;"; break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
				ref = "";
			break;
		}
		if (ref == NULL)
			continue;
		/* Flush the plain run before this byte, then its replacement. */
		buf_add(b, s + run, i - run);
		buf_adds(b, ref);
		run = i + 1;
	}
	if (s)
		buf_add(b, s + run, len - run);
	return b->full ? -1 : 0;
}

/* Percent-encode s for a path segment or a query value, then append it. */
static void
html_url_part(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~') {
			buf_addc(b, (char)c);
		} else {
			buf_addc(b, '%');
			buf_addc(b, hex[c >> 4]);
			buf_addc(b, hex[c & 15]);
		}
	}
}

int
html_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	const char *lit = fmt, *s;
	int bad = 0;

	va_start(ap, fmt);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		buf_add(b, lit, (size_t)(p - lit));
		switch (*++p) {
		case 's':
			s = va_arg(ap, const char *);
			html_esc(b, s, s ? strlen(s) : 0);
			break;
		case 'u':
			html_url_part(b, va_arg(ap, const char *));
			break;
		case 'S':
			s = va_arg(ap, const char *);
			if (s)
				buf_adds(b, s);
			break;
		case 'd':
			buf_printf(b, "%d", va_arg(ap, int));
			break;
		case 'U':
			buf_printf(b, "%" PRIu64, va_arg(ap, uint64_t));
			break;
		case 'I':
			buf_printf(b, "%" PRId64, va_arg(ap, int64_t));
			break;
		case '%':
			buf_addc(b, '%');
			break;
		default:
			/* An unknown conversion (or a '%' at the end) is a programming error. */
			bad = 1;
			p--;
			break;
		}
		lit = p + 1;
		if (bad)
			break;
	}
	if (!bad)
		buf_adds(b, lit);
	va_end(ap);
	return bad || b->full ? -1 : 0;
}
