#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "banned.h"

struct pool_chunk {
	struct pool_chunk *next;
	alignas(max_align_t) unsigned char data[];
};

struct pool_cleanup {
	struct pool_cleanup *next;
	void (*fn)(void *);
	void *arg;
};

void
pool_init(struct pool *p, size_t max)
{
	p->chunks = NULL;
	p->cleanups = NULL;
	p->used = 0;
	p->max = max;
}

void *
pool_alloc(struct pool *p, size_t n)
{
	struct pool_chunk *c;

	if (n > p->max - p->used)
		return NULL;
	c = calloc(1, sizeof(*c) + n);
	if (c == NULL)
		return NULL;
	c->next = p->chunks;
	p->chunks = c;
	p->used += n;
	return c->data;
}

char *
pool_strndup(struct pool *p, const char *s, size_t n)
{
	char *d = pool_alloc(p, n + 1);

	if (d == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

int
pool_defer(struct pool *p, void (*fn)(void *), void *arg)
{
	/* The record counts against the cap like any other allocation. */
	struct pool_cleanup *c = pool_alloc(p, sizeof(*c));

	if (c == NULL)
		return -1;
	c->fn = fn;
	c->arg = arg;
	c->next = p->cleanups;
	p->cleanups = c;
	return 0;
}

void
pool_release(struct pool *p)
{
	while (p->cleanups) {
		struct pool_cleanup *c = p->cleanups;

		p->cleanups = c->next;
		c->fn(c->arg);
	}
	while (p->chunks) {
		struct pool_chunk *c = p->chunks;

		p->chunks = c->next;
		free(c);
	}
	p->used = 0;
}
