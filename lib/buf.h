/*
 * buf.h: the one growable byte buffer, always with a hard size cap.
 *
 * Invariants: p is NULL or points to cap bytes; len < cap when p is set
 * and p[len] == '\0', so the contents are always a C string as well as a
 * (p, len) byte range; len never exceeds max. A buffer that hit its cap is
 * marked `full` and stays unchanged by later adds, so a writer can check
 * once at the end.
 *
 * Actions return 0, or -1 when the cap would be exceeded or memory ran
 * out. buf_release frees the storage; the struct can be reused after
 * buf_init again.
 */
#ifndef WAYMARK_BUF_H
#define WAYMARK_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct buf {
	char *p;
	size_t len;
	size_t cap;
	size_t max;
	bool full;
};

/* Empty buffer that will never hold more than max bytes. */
void buf_init(struct buf *b, size_t max);

int buf_add(struct buf *b, const void *data, size_t len);
int buf_adds(struct buf *b, const char *s);
int buf_addc(struct buf *b, char c);

__attribute__((format(printf, 2, 3)))
int buf_printf(struct buf *b, const char *fmt, ...);
int buf_vprintf(struct buf *b, const char *fmt, va_list ap);

/*
 * A write callback in the shape of libcurl's CURLOPT_WRITEFUNCTION that
 * appends size * n bytes at p to the struct buf at b. Returns size * n,
 * or 0 when the buffer's cap is reached (curl then stops the transfer).
 */
size_t buf_sink(char *p, size_t size, size_t n, void *b);

/* Forget the contents, keep the storage. */
void buf_reset(struct buf *b);

/* Free the storage. */
void buf_release(struct buf *b);

/* The contents as a C string ("" when nothing was ever added). */
const char *buf_str(const struct buf *b);

#endif
