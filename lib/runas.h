/*
 * runas.h: the one place a program started as root gives root up. The
 * workers and the indexer call it once, after reading the configuration
 * and opening what needs root (the slot file beside the FastCGI socket),
 * before their first thread starts or their first request is served
 * (INSTALL sections 4 and 11, docs/ARCHITECTURE.md, Worker).
 *
 * Order, as OpenBSD's daemons do it: supplementary groups to the user's
 * primary group alone, then the group ids, then the user ids (real,
 * effective and saved), then a check that none of them can be taken back.
 *
 * Return convention: an action, 0 or -1 with the reason in err[cap]. A
 * process that is not root at all (a real, effective or saved uid of 0)
 * has nothing to give up: 0, unchanged.
 */
#ifndef WAYMARK_RUNAS_H
#define WAYMARK_RUNAS_H

#include <stddef.h>

/* Become `user` (not root) when running as root; 0, or -1 with err set. */
int runas_drop(const char *user, char *err, size_t cap);

#endif
