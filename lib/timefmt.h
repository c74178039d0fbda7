/* timefmt.h: RFC 3339 UTC timestamps ("2026-11-21T23:30:56Z"). */
#ifndef WAYMARK_TIMEFMT_H
#define WAYMARK_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Format t as RFC 3339 UTC with Z into out[cap] (21+ bytes); returns out,
 * or "" on failure. */
char *time_rfc3339(time_t t, char *out, size_t cap);

/*
 * Parse an RFC 3339 date-time s[0..len) (the JSON Schema "date-time"
 * format): YYYY-MM-DD, "T" (or "t"), hh:mm:ss, an optional fraction of one
 * or more digits, then "Z" (or "z") or an offset +hh:mm / -hh:mm. Dates are
 * checked against the month's length (leap years included); a leap second
 * (ss = 60) is refused. On success stores the instant in UTC as Unix
 * seconds in *secs and the fraction, cut to nanoseconds, in *nanos (either
 * pointer may be NULL) and returns 0; -1 when s is not such a date-time.
 */
int time_parse_rfc3339(const char *s, size_t len, int64_t *secs, uint32_t *nanos);

#endif
