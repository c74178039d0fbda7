/* timefmt.h: RFC 3339 UTC timestamps ("2026-11-21T23:30:56Z"). */
#ifndef WAYMARK_TIMEFMT_H
#define WAYMARK_TIMEFMT_H

#include <stddef.h>
#include <time.h>

/* Format t as RFC 3339 UTC with Z into out[cap] (21+ bytes); returns out,
 * or "" on failure. */
char *time_rfc3339(time_t t, char *out, size_t cap);

#endif
