/*
 * pool.h: per-request memory. Everything a request allocates hangs off its
 * pool and is released once, after the response, by pool_release: plain
 * allocations and registered cleanups (json-c objects, result sets) alike.
 *
 * The pool has a hard cap on its total size; an allocation past the cap
 * returns NULL like an out-of-memory malloc. The record of a cleanup is
 * such an allocation too. Cleanups run in reverse order of registration,
 * before any allocation is freed.
 */
#ifndef WAYMARK_POOL_H
#define WAYMARK_POOL_H

#include <stddef.h>

struct pool_chunk;
struct pool_cleanup;

struct pool {
	struct pool_chunk *chunks;
	struct pool_cleanup *cleanups;
	size_t used;
	size_t max;
};

void pool_init(struct pool *p, size_t max);

/* n zeroed bytes, aligned for any type, or NULL. Freed by pool_release. */
void *pool_alloc(struct pool *p, size_t n);

/* A NUL-terminated copy of s[0..n), or NULL. */
char *pool_strndup(struct pool *p, const char *s, size_t n);

/*
 * Run fn(arg) at release. 0, or -1 when the cleanup could not be recorded:
 * then nothing was run or freed, and arg is still the caller's to clean up.
 */
int pool_defer(struct pool *p, void (*fn)(void *), void *arg);

/* Run the cleanups and free every allocation; the pool is empty again. */
void pool_release(struct pool *p);

#endif
