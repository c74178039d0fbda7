/*
 * demotable.h: what the unit tests that build a small dispatch table of
 * their own (cors.c, economics.c, endpoint.c) share: the handler of rows
 * that are matched, priced or described but never called, and the count
 * of such a table's rows. A header, not a .c: each .c file here is one
 * test program (Makefile, UNIT_BIN), so a shared object would need a rule.
 */
#ifndef WAYMARK_DEMOTABLE_H
#define WAYMARK_DEMOTABLE_H

#include "endpoint.h"

/* A handler no test calls: writes nothing and returns ERR_NONE. */
static inline enum err
h_dummy(struct req *r, struct resp *w)
{
	(void)r;
	(void)w;
	return ERR_NONE;
}

/* The number of rows of the table t (an array, never a pointer). */
#define DEMO_ROWS(t) (sizeof(t) / sizeof((t)[0]))

#endif
