#define _GNU_SOURCE   /* F_OFD_SETLK */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "admit.h"
#include "banned.h"

/*
 * This thread's open file descriptions of the slot files, one per limit
 * (told apart by id), and whether each holds a place: a description may
 * hold several bytes, and relocking its own byte succeeds, so one place
 * per thread and limit at most. An entry not holding a place may be taken
 * over by another limit (its file closed first).
 */
struct slot_handle {
	unsigned id;          /* 0: unused */
	int fd;
	bool holding;
};

static _Thread_local struct slot_handle handles[ADMIT_PER_THREAD];
static atomic_uint next_id = 1;

int
admit_init(struct admit *a, unsigned cap, const char *path, char *err, size_t errcap)
{
	int fd;

	a->id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
	atomic_init(&a->held, 0);
	atomic_init(&a->next, (unsigned)getpid());
	a->cap = cap;
	a->path[0] = '\0';
	a->fds = NULL;
	a->nfds = 0;
	if (path == NULL)
		return 0;
	if (strlen(path) >= sizeof(a->path)) {
		snprintf(err, errcap, "slot file path too long: %s", path);
		return -1;
	}
	/* Create it now, so a folder we cannot write is known at start. */
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0) {
		snprintf(err, errcap, "cannot open the slot file %s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	memcpy(a->path, path, strlen(path) + 1);
	return 0;
}

int
admit_open_each(struct admit *a, size_t n, char *err, size_t errcap)
{
	if (a->path[0] == '\0' || n == 0)
		return 0;
	if ((a->fds = calloc(n, sizeof(*a->fds))) == NULL) {
		snprintf(err, errcap, "out of memory");
		a->path[0] = '\0';
		return -1;
	}
	a->nfds = n;
	for (size_t i = 0; i < n; i++)
		a->fds[i] = -1;
	for (size_t i = 0; i < n; i++) {
		if ((a->fds[i] = open(a->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)) < 0) {
			snprintf(err, errcap, "cannot open the slot file %s: %s", a->path, strerror(errno));
			admit_release(a);
			a->path[0] = '\0';
			return -1;
		}
	}
	return 0;
}

void
admit_release(struct admit *a)
{
	for (size_t i = 0; i < a->nfds; i++) {
		if (a->fds[i] >= 0)
			close(a->fds[i]);
	}
	free(a->fds);
	a->fds = NULL;
	a->nfds = 0;
}

static bool
lock_byte(int fd, short type, unsigned at)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = (off_t)at, .l_len = 1 };

	return fcntl(fd, F_OFD_SETLK, &fl) == 0;
}

static bool
count_enter(struct admit *a)
{
	unsigned n = atomic_load_explicit(&a->held, memory_order_relaxed);

	do {
		if (n >= a->cap)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(&a->held, &n, n + 1, memory_order_acq_rel,
	    memory_order_relaxed));
	return true;
}

/*
 * This thread's handle for a: its own, else an unused one, else one of
 * another limit that holds no place (taken over: a description opened
 * before root was given up cannot be opened again, so an unused entry
 * always goes first); NULL when none is free.
 */
static struct slot_handle *
handle_of(const struct admit *a)
{
	struct slot_handle *unused = NULL, *idle = NULL, *spare;

	for (size_t i = 0; i < ADMIT_PER_THREAD; i++) {
		if (handles[i].id == a->id)
			return &handles[i];
		if (handles[i].id == 0) {
			if (unused == NULL)
				unused = &handles[i];
		} else if (idle == NULL && !handles[i].holding) {
			idle = &handles[i];
		}
	}
	if ((spare = unused ? unused : idle) == NULL)
		return NULL;
	if (spare->id != 0)
		close(spare->fd);
	*spare = (struct slot_handle){ .id = a->id, .fd = -1 };
	return spare;
}

void
admit_thread_take(struct admit *a, size_t i)
{
	struct slot_handle *h;

	if (i >= a->nfds || a->fds[i] < 0 || (h = handle_of(a)) == NULL || h->holding)
		return;
	if (h->fd >= 0)
		close(h->fd);
	h->fd = a->fds[i];
	a->fds[i] = -1;
}

bool
admit_enter(struct admit *a, struct admit_ticket *t)
{
	struct slot_handle *h;
	unsigned start;

	t->slot = -1;
	if (a->path[0] == '\0')
		return count_enter(a);
	if ((h = handle_of(a)) == NULL || h->holding)
		return false;
	if (h->fd < 0 && (h->fd = open(a->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		/* The file went away under us: refuse rather than admit past a
		 * limit we can no longer see. */
		fprintf(stderr, "waymark: admission: cannot open %s: %s\n", a->path, strerror(errno));
		h->id = 0;
		return false;
	}
	/* Start each search somewhere else, so concurrent callers rarely try
	 * the same byte. */
	start = atomic_fetch_add_explicit(&a->next, 1, memory_order_relaxed);
	for (unsigned i = 0; i < a->cap; i++) {
		unsigned s = (start + i) % a->cap;

		if (lock_byte(h->fd, F_WRLCK, s)) {
			t->slot = (int)s;
			h->holding = true;
			return true;
		}
		if (errno != EAGAIN && errno != EACCES) {
			fprintf(stderr, "waymark: admission: lock on %s: %s\n", a->path, strerror(errno));
			return false;
		}
	}
	return false;
}

void
admit_leave(struct admit *a, struct admit_ticket *t)
{
	if (t->slot < 0) {
		if (a->path[0] == '\0')
			atomic_fetch_sub_explicit(&a->held, 1, memory_order_acq_rel);
	} else {
		for (size_t i = 0; i < ADMIT_PER_THREAD; i++)
			if (handles[i].id == a->id && handles[i].fd >= 0) {
				lock_byte(handles[i].fd, F_UNLCK, (unsigned)t->slot);
				handles[i].holding = false;
			}
	}
	t->slot = -1;
}

void
admit_thread_release(void)
{
	for (size_t i = 0; i < ADMIT_PER_THREAD; i++) {
		if (handles[i].id != 0 && handles[i].fd >= 0)
			close(handles[i].fd);
		handles[i] = (struct slot_handle){ .id = 0, .fd = -1 };
	}
}
