/*
 * admit.h: a non-blocking admission limit: at most `cap` holders at once,
 * and a caller past it is refused at once instead of waiting (the worker
 * answers 503 with Retry-After).
 *
 * The limit is shared by every process that opens the same slot file
 * (every worker process of a pool listens on one socket and uses the file
 * beside it), so it is a limit per host, whichever process the listening
 * socket happens to hand a request to. A holder owns one byte-range lock
 * on that file, taken through its own open file description (OFD lock), so
 * the kernel gives every place back when a process dies. Without a slot
 * file (a TCP socket, or a folder the worker cannot write), the limit is
 * an atomic count within the process. docs/ARCHITECTURE.md, "Worker".
 *
 * Each thread opens each limit's file once for itself (admit_thread_release
 * closes them when the thread ends) and holds at most one place of each
 * limit at a time: with the slot file, a second admit_enter on the same
 * limit before admit_leave is refused. Places of different limits are
 * independent, so a thread holding a payment place may take a place of
 * the signature-check limit too (up to ADMIT_PER_THREAD limits with slot
 * files in use by one thread at once).
 *
 * A worker opens one description of each limit's file for each thread at
 * start (admit_open_each), before it gives up root (lib/runas.h), so the
 * file and its folder need not be reachable by the user it becomes; each
 * thread takes its own (admit_thread_take). A thread given none opens the
 * file itself at its first admit_enter.
 *
 * Return conventions: admit_init is an action (0, or -1 with err set);
 * admit_enter is a predicate (true: admitted, and the caller must call
 * admit_leave once with the same ticket).
 */
#ifndef WAYMARK_ADMIT_H
#define WAYMARK_ADMIT_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define ADMIT_PER_THREAD 4   /* limits with a slot file one thread may use at once */

struct admit {
	unsigned id;              /* this limit, told apart in each thread's handles */
	atomic_uint held;         /* holders in this process (no slot file) */
	atomic_uint next;         /* where the next slot search starts */
	unsigned cap;             /* fixed before the threads start */
	char path[PATH_MAX];      /* the slot file; "" when the count is per process */
	int *fds;                 /* admit_open_each's descriptions, -1 once a thread took one */
	size_t nfds;
};

/* One admission: the slot held (-1 when counted in the process). */
struct admit_ticket {
	int slot;
};

/*
 * Set the cap, and share it through the slot file at path (created when
 * missing) when path is not NULL. -1 (err says why) when the file cannot
 * be opened: a then counts within the process, and stays usable.
 */
int admit_init(struct admit *a, unsigned cap, const char *path, char *err, size_t errcap);

/*
 * Open n descriptions of the slot file now, one per thread to come
 * (nothing to do without a slot file). -1 (err says why) when one cannot
 * be opened: a then counts within the process, as admit_init's does.
 */
int admit_open_each(struct admit *a, size_t n, char *err, size_t errcap);

/* The calling thread takes description i of admit_open_each's (if any) as its handle for a. */
void admit_thread_take(struct admit *a, size_t i);

/* Close the descriptions no thread took; a itself stays usable per process. */
void admit_release(struct admit *a);

/*
 * Take a place when fewer than cap are held; false (nothing taken)
 * otherwise, also when this thread already holds a place of a, or holds
 * places of ADMIT_PER_THREAD other limits with slot files.
 */
bool admit_enter(struct admit *a, struct admit_ticket *t);

/* Give back the place taken by admit_enter. */
void admit_leave(struct admit *a, struct admit_ticket *t);

/* Close this thread's handles on the slot files (at thread exit). */
void admit_thread_release(void);

#endif
