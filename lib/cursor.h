/*
 * cursor.h: the page cursor of the paid route directory (docs/PROTOCOL.md,
 * Paid reads), text a client sends back untrusted:
 *
 *   "c2.<sort>.<context>.<tag>.<bb>.<bbr>.<usdc>.<block>.<route hex>"
 *
 * sort and context are one decimal digit each (indexes the caller bounds),
 * tag is the filter tag (16 lowercase hex digits), bb, bbr and block are
 * decimal uint64 values of at most 19 digits, usdc a decimal of at most 78
 * digits, and the route ID 64 lowercase hex digits; numbers have no
 * leading zero (but "0"). Nothing else parses: one text per cursor.
 *
 * Return conventions: 0 or -1.
 */
#ifndef WAYMARK_CURSOR_H
#define WAYMARK_CURSOR_H

#include <stddef.h>
#include <stdint.h>

#define CURSOR_TEXT_MAX 600   /* buffer for a cursor text (at most 512 characters are issued) */

struct cursor {
	int sort, ctx;
	char tag[17];
	uint64_t bb, bbr, block;
	char usdc[80];
	char rid[65];
};

/* Parse text into *c; -1 unless it is a cursor as above with sort < nsort and ctx < nctx. */
int cursor_parse(const char *text, int nsort, int nctx, struct cursor *c);

/* The text of c into out[cap]; -1 when c's fields are not of the forms above or it does not fit. */
int cursor_format(const struct cursor *c, char *out, size_t cap);

#endif
