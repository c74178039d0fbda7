#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "banned.h"

void
buf_init(struct buf *b, size_t max)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->full = false;
}

/* Make room for `more` bytes plus the NUL, within max. */
static int
grow(struct buf *b, size_t more)
{
	size_t need, ncap;
	char *np;

	if (b->full)
		return -1;
	if (more > b->max - b->len) {
		b->full = true;
		return -1;
	}
	need = b->len + more + 1;
	if (need <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 256;
	while (ncap < need)
		ncap *= 2;
	if (ncap > b->max + 1)
		ncap = b->max + 1;
	np = realloc(b->p, ncap);
	if (np == NULL) {
		b->full = true;
		return -1;
	}
	b->p = np;
	b->cap = ncap;
	return 0;
}

int
buf_add(struct buf *b, const void *data, size_t len)
{
	if (grow(b, len) < 0)
		return -1;
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	b->p[b->len] = '\0';
	return 0;
}

int
buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int
buf_addc(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

int
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || grow(b, (size_t)n) < 0)
		return -1;
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

size_t
buf_sink(char *p, size_t size, size_t n, void *b)
{
	if (n != 0 && size > (size_t)-1 / n)
		return 0;
	return buf_add(b, p, size * n) < 0 ? 0 : size * n;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	b->full = false;
	if (b->p)
		b->p[0] = '\0';
}

void
buf_release(struct buf *b)
{
	free(b->p);
	buf_init(b, b->max);
}

const char *
buf_str(const struct buf *b)
{
	return b->p ? b->p : "";
}
