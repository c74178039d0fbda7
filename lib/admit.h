/*
 * admit.h: a non-blocking admission counter shared by the threads of one
 * process: at most `cap` holders at once; a caller past it is refused at
 * once instead of waiting (the worker answers 503 with Retry-After). The
 * count is atomic; nothing else is shared.
 *
 * Return conventions: admit_enter is a predicate (true: admitted, and the
 * caller must call admit_leave once).
 */
#ifndef WAYMARK_ADMIT_H
#define WAYMARK_ADMIT_H

#include <stdatomic.h>
#include <stdbool.h>

struct admit {
	atomic_uint held;   /* current holders */
	unsigned cap;       /* fixed before the threads start */
};

/* Set the cap (before any thread uses a). */
void admit_init(struct admit *a, unsigned cap);

/* Take a place when fewer than cap are held; false (nothing taken) otherwise. */
bool admit_enter(struct admit *a);

/* Give back a place taken by admit_enter. */
void admit_leave(struct admit *a);

#endif
