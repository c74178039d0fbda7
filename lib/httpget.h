/*
 * httpget.h: one bounded HTTP(S) GET over libcurl, for pulling untrusted
 * JSON from configured sources (the x402 catalog). Never follows
 * redirects, never fetches anything a response names.
 */
#ifndef WAYMARK_HTTPGET_H
#define WAYMARK_HTTPGET_H

#include <stddef.h>

#include "buf.h"

/*
 * GET url into out (whose cap bounds the body). Returns the HTTP status
 * (200...), or -1 with a reason in err[cap] for transport failures and
 * bodies over the cap.
 */
long httpget(const char *url, long timeout_ms, struct buf *out, char *err, size_t cap);

#endif
