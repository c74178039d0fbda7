/*
 * httpget.h: bounded HTTP(S) GETs over libcurl, for pulling untrusted
 * JSON from configured sources (the x402 catalog). Never follows
 * redirects, never fetches anything a response names.
 */
#ifndef WAYMARK_HTTPGET_H
#define WAYMARK_HTTPGET_H

#include <stddef.h>

#include "buf.h"

/*
 * A client for several GETs to one source: its connection is kept between
 * them (one TLS handshake for a whole listing). One owner, one thread.
 */
struct httpget {
	void *curl;
	long retry_after_s;     /* the last answer's Retry-After in seconds, 0 when none */
};

/* 0, or -1 with a reason in err[cap]. */
int httpget_open(struct httpget *h, char *err, size_t cap);

/*
 * GET url into out (whose cap bounds the body). Returns the HTTP status
 * (200...), or -1 with a reason in err[cap] for transport failures and
 * bodies over the cap. Sets h->retry_after_s.
 */
long httpget_fetch(struct httpget *h, const char *url, long timeout_ms, struct buf *out, char *err,
    size_t cap);

void httpget_close(struct httpget *h);

/* One GET with a client of its own (httpget_fetch). */
long httpget(const char *url, long timeout_ms, struct buf *out, char *err, size_t cap);

#endif
