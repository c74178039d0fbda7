#include "admit.h"
#include "banned.h"

void
admit_init(struct admit *a, unsigned cap)
{
	atomic_init(&a->held, 0);
	a->cap = cap;
}

bool
admit_enter(struct admit *a)
{
	unsigned n = atomic_load_explicit(&a->held, memory_order_relaxed);

	do {
		if (n >= a->cap)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(&a->held, &n, n + 1, memory_order_acq_rel,
	    memory_order_relaxed));
	return true;
}

void
admit_leave(struct admit *a)
{
	atomic_fetch_sub_explicit(&a->held, 1, memory_order_acq_rel);
}
