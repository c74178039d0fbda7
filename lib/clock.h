/*
 * clock.h: the monotonic clock, for intervals (a cache's age, a timeout);
 * never a date (time(2) and timefmt.h are for those). Cannot fail.
 */
#ifndef WAYMARK_CLOCK_H
#define WAYMARK_CLOCK_H

#include <stdint.h>

/* Milliseconds of CLOCK_MONOTONIC: only differences between two readings mean anything. */
uint64_t clock_ms(void);

#endif
