/*
 * html.h: writing HTML for the website pages (handlers/pages*.c) into a
 * bounded buffer. Every piece of text that is not markup this program
 * wrote goes through html_esc, the one escaping helper: html_printf's
 * text conversions call it, and nothing else escapes HTML.
 *
 * Return conventions: actions 0, or -1 when the buffer hit its cap or
 * memory ran out (the buffer is then `full` and stays so; see buf.h), or
 * html_printf met a conversion it does not know.
 */
#ifndef WAYMARK_HTML_H
#define WAYMARK_HTML_H

#include <stddef.h>

#include "buf.h"

/*
 * Append len bytes of s escaped for HTML text and for a quoted attribute
 * value: & < > " ' become character references; bytes below 0x20 other
 * than tab, newline and carriage return, and 0x7f, are dropped.
 */
int html_esc(struct buf *b, const char *s, size_t len);

/*
 * Append fmt to b: its literal text as markup, and each conversion from
 * the arguments:
 *   %s  a string (const char *; NULL as ""), through html_esc
 *   %u  a URL path segment or query value (const char *; NULL as ""):
 *       every byte but the RFC 3986 unreserved ones percent-encoded
 *   %S  markup this program built itself (const char *), appended as is
 *   %d  an int, %U a uint64_t, %I an int64_t, in decimal
 *   %%  a percent sign
 * The argument types are not checked by the compiler: keep fmt literal.
 */
int html_printf(struct buf *b, const char *fmt, ...);

#endif
