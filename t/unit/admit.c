/*
 * The admission limit: counted in the process, and shared through a slot
 * file by threads and by processes, with a dead process's places given
 * back by the kernel.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "admit.h"
#include "tap.h"
#include "banned.h"

/* ok() with both numbers shown when they differ. */
#define is_int(got, want, msg) do { \
	long g_ = (long)(got), w_ = (long)(want); \
	if (!ok(g_ == w_, "%s", msg)) \
		printf("#   got %ld, want %ld\n", g_, w_); \
} while (0)
#define BAIL_OUT(what) do { printf("Bail out! %s\n", what); exit(1); } while (0)

static struct admit shared;

/* A thread that takes one place, reports, and holds it until told. */
struct holder {
	pthread_t tid;
	bool admitted;
	pthread_mutex_t *mu;
	pthread_cond_t *cv;
	int *phase;          /* 0: take; 1: taken (all); 2: leave */
	int *taken;
};

static void *
hold(void *arg)
{
	struct holder *h = arg;
	struct admit_ticket t;

	h->admitted = admit_enter(&shared, &t);
	pthread_mutex_lock(h->mu);
	(*h->taken)++;
	pthread_cond_broadcast(h->cv);
	while (*h->phase < 2)
		pthread_cond_wait(h->cv, h->mu);
	pthread_mutex_unlock(h->mu);
	if (h->admitted)
		admit_leave(&shared, &t);
	admit_thread_release();
	return NULL;
}

/* Start n holder threads; wait until each has tried. Returns how many got in. */
static int
start_holders(struct holder *hs, int n, pthread_mutex_t *mu, pthread_cond_t *cv, int *phase, int *taken)
{
	int in = 0;

	*phase = 0;
	*taken = 0;
	for (int i = 0; i < n; i++) {
		hs[i] = (struct holder){ .mu = mu, .cv = cv, .phase = phase, .taken = taken };
		pthread_create(&hs[i].tid, NULL, hold, &hs[i]);
	}
	pthread_mutex_lock(mu);
	while (*taken < n)
		pthread_cond_wait(cv, mu);
	pthread_mutex_unlock(mu);
	for (int i = 0; i < n; i++)
		in += hs[i].admitted;
	return in;
}

static void
stop_holders(struct holder *hs, int n, pthread_mutex_t *mu, pthread_cond_t *cv, int *phase)
{
	pthread_mutex_lock(mu);
	*phase = 2;
	pthread_cond_broadcast(cv);
	pthread_mutex_unlock(mu);
	for (int i = 0; i < n; i++)
		pthread_join(hs[i].tid, NULL);
}

int
main(void)
{
	struct admit local, second;
	struct admit_ticket t1, t2, t3;
	struct holder hs[5];
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	int phase, taken, ready[2], go[2];
	char dir[] = "/tmp/admit-XXXXXX", path[256], path2[256], moved[256], err[256], c;
	pid_t child;

	/* Counted in the process. */
	ok(admit_init(&local, 2, NULL, err, sizeof(err)) == 0, "a per-process limit needs no file");
	ok(admit_enter(&local, &t1) && admit_enter(&local, &t2), "two places of two");
	ok(!admit_enter(&local, &t3), "the third caller is refused");
	admit_leave(&local, &t1);
	ok(admit_enter(&local, &t3), "a place given back is taken again");
	admit_leave(&local, &t2);
	admit_leave(&local, &t3);

	/* Shared through the slot file, by threads. */
	if (mkdtemp(dir) == NULL)
		BAIL_OUT("mkdtemp");
	snprintf(path, sizeof(path), "%s/pool.sock.slots", dir);
	ok(admit_init(&shared, 3, path, err, sizeof(err)) == 0, "the slot file is created");
	is_int(start_holders(hs, 5, &mu, &cv, &phase, &taken), 3, "five threads at once: three get a place");
	stop_holders(hs, 5, &mu, &cv, &phase);
	is_int(start_holders(hs, 3, &mu, &cv, &phase, &taken), 3, "places given back are free for three more");
	stop_holders(hs, 3, &mu, &cv, &phase);
	ok(admit_enter(&shared, &t1), "one place for this thread");
	ok(!admit_enter(&shared, &t2), "a second place for the same thread is refused");
	/* Another limit with its own slot file (a signature check inside a
	 * payment): independent of the first. */
	snprintf(path2, sizeof(path2), "%s/pool.sock.sigcheck.slots", dir);
	ok(admit_init(&second, 1, path2, err, sizeof(err)) == 0, "a second limit's slot file is created");
	ok(admit_enter(&second, &t2), "a thread holding a place of one limit takes a place of another");
	ok(!admit_enter(&second, &t3), "but still only one of each");
	admit_leave(&second, &t2);
	ok(admit_enter(&second, &t3), "the second limit's place is given back on its own");
	admit_leave(&second, &t3);
	admit_leave(&shared, &t1);
	ok(admit_enter(&shared, &t1), "and the first limit's place too");
	admit_leave(&shared, &t1);
	admit_thread_release();
	unlink(path2);

	/* Shared by processes: another process holding two places leaves one. */
	if (pipe(ready) != 0 || pipe(go) != 0)
		BAIL_OUT("pipe");
	fflush(stdout);
	if ((child = fork()) == 0) {
		struct admit other;
		struct holder ch[2];
		int cphase, ctaken, n;

		if (admit_init(&other, 3, path, err, sizeof(err)) != 0)
			_exit(2);
		shared = other;
		n = start_holders(ch, 2, &mu, &cv, &cphase, &ctaken);
		c = (char)('0' + n);
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		(void)!read(go[0], &c, 1);   /* held until killed */
		_exit(0);
	}
	is_int(read(ready[0], &c, 1), 1, "the other process reports");
	is_int(c - '0', 2, "the other process holds two places");
	is_int(start_holders(hs, 3, &mu, &cv, &phase, &taken), 1, "this process then gets the one place left");
	stop_holders(hs, 3, &mu, &cv, &phase);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	is_int(start_holders(hs, 3, &mu, &cv, &phase, &taken), 3, "the killed process's places came back");
	stop_holders(hs, 3, &mu, &cv, &phase);

	/* A folder we cannot use: the limit falls back to the process. */
	ok(admit_init(&local, 1, "/nonexistent-dir/x.slots", err, sizeof(err)) < 0 && strstr(err, "x.slots"),
	    "an unusable slot file is an error naming it");
	ok(admit_enter(&local, &t1) && !admit_enter(&local, &t2), "and the limit still holds per process");
	admit_leave(&local, &t1);

	/* Descriptions opened at start (before a worker gives up root) serve
	 * threads that could no longer open the file by its path. */
	snprintf(moved, sizeof(moved), "%s/moved", dir);
	ok(admit_init(&local, 1, path, err, sizeof(err)) == 0 && admit_open_each(&local, 2, err, sizeof(err)) == 0,
	    "a description per thread is opened at start");
	if (rename(path, moved) != 0)
		BAIL_OUT("rename");
	ok(!admit_enter(&local, &t1), "a thread without one cannot open a file gone from its path");
	admit_thread_take(&local, 1);
	ok(admit_enter(&local, &t1), "a thread that took one needs no path");
	ok(!admit_enter(&local, &t2), "and still holds one place at most");
	admit_leave(&local, &t1);
	admit_thread_release();
	admit_release(&local);
	{
		/* Two limits taken by one thread keep both descriptions: a
		 * worker's payment and signature-check caps after it gave up
		 * root, neither file reachable by its path any more. */
		static struct admit pay, sig;
		struct admit_ticket tp, ts;
		char p1[300], p2[300];

		snprintf(p1, sizeof(p1), "%s/pay.slots", dir);
		snprintf(p2, sizeof(p2), "%s/sig.slots", dir);
		ok(admit_init(&pay, 1, p1, err, sizeof(err)) == 0 && admit_open_each(&pay, 1, err, sizeof(err)) == 0 &&
		    admit_init(&sig, 1, p2, err, sizeof(err)) == 0 && admit_open_each(&sig, 1, err, sizeof(err)) == 0,
		    "two limits open a description each for one thread");
		unlink(p1);
		unlink(p2);
		admit_thread_take(&pay, 0);
		admit_thread_take(&sig, 0);
		ok(admit_enter(&pay, &tp), "the thread takes a payment place through its description");
		ok(admit_enter(&sig, &ts), "and a signature place through the other one, taken second");
		admit_leave(&sig, &ts);
		admit_leave(&pay, &tp);
		admit_thread_release();
		admit_release(&pay);
		admit_release(&sig);
	}
	ok(admit_init(&local, 1, "/nonexistent-dir/x.slots", err, sizeof(err)) < 0 &&
	    admit_open_each(&local, 2, err, sizeof(err)) == 0, "without a slot file there is nothing to open");
	admit_release(&local);

	unlink(moved);
	rmdir(dir);
	return done_testing();
}
