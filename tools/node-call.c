/*
 * node-call: the `node` of the test suite (docs/ARCHITECTURE.md, Test suite).
 * tools/run-tests puts it first on the suite's PATH under the name node.
 * `node SCRIPT.mjs ARGS...` becomes a call of SCRIPT's main in the suite's
 * long-lived helper (tools/node-helper.mjs), which has the tools' modules
 * loaded already, and so does `node -e CODE ARGS...` (the helper runs the
 * code, or answers "run it yourself" for code it cannot run as a call);
 * anything else (node's other options, a script without a main, no helper
 * running) runs the real node, WAYMARK_NODE_REAL, as before. To its caller it is the process it replaces: the same output,
 * standard input when the tool reads it, and the same exit status.
 *
 * Environment: WAYMARK_NODE_HELPER (the helpers' socket path; helper K of
 * WAYMARK_NODE_HELPERS listens on PATH.K, and a call goes to the one its
 * process ID picks) and WAYMARK_NODE_REAL. The frames are the helper's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "banned.h"

extern char **environ;

struct out {
	char *p;
	size_t len, cap;
};

static void out_grow(struct out *o, size_t more)
{
	if (o->len + more <= o->cap)
		return;
	size_t cap = o->cap ? o->cap : 4096;
	while (cap < o->len + more)
		cap *= 2;
	char *p = realloc(o->p, cap);
	if (!p) {
		fputs("node-call: out of memory\n", stderr);
		exit(70);
	}
	o->p = p;
	o->cap = cap;
}

static void out_put(struct out *o, const void *s, size_t n)
{
	out_grow(o, n);
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

/* s as a JSON string. */
static void out_json(struct out *o, const char *s)
{
	out_put(o, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			out_put(o, e, 2);
		} else if (c < 0x20) {
			char e[8];
			int n = snprintf(e, sizeof e, "\\u%04x", c);
			out_put(o, e, (size_t)n);
		} else {
			out_put(o, s, 1);
		}
	}
	out_put(o, "\"", 1);
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;
	while (n > 0) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

static int send_frame(int fd, char type, const void *body, size_t n)
{
	unsigned char h[5] = { (unsigned char)type, (unsigned char)(n >> 24), (unsigned char)(n >> 16),
			       (unsigned char)(n >> 8), (unsigned char)n };
	if (write_all(fd, h, sizeof h) < 0)
		return -1;
	return n ? write_all(fd, body, n) : 0;
}

static void release_stop_signals(void);

static void run_real(char **argv)
{
	release_stop_signals();
	const char *real = getenv("WAYMARK_NODE_REAL");
	if (!real || !*real) {
		fputs("node-call: WAYMARK_NODE_REAL is not set\n", stderr);
		exit(127);
	}
	argv[0] = (char *)real;
	execv(real, argv);
	fprintf(stderr, "node-call: cannot run %s: %s\n", real, strerror(errno));
	exit(127);
}

/* The helper's socket for this process, or -1 when there is none. */
static int helper_connect(void)
{
	const char *base = getenv("WAYMARK_NODE_HELPER");
	const char *count = getenv("WAYMARK_NODE_HELPERS");
	if (!base || !*base)
		return -1;
	long n = 1;
	if (count && *count) {
		char *end;
		n = strtol(count, &end, 10);
		if (*end || n < 1 || n > 64)
			n = 1;
	}
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int w = snprintf(a.sun_path, sizeof a.sun_path, "%s.%ld", base, (long)getpid() % n);
	if (w < 0 || (size_t)w >= sizeof a.sun_path)
		return -1;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Stopped by a signal (SIGTERM, SIGINT, SIGHUP): the call's end of the socket
 * is shut for writing, which tells the helper its caller is gone (a server
 * there, such as the facilitator, closes: io.signal in tools/cli.mjs), and
 * node-call still reads until the helper has ended the call, so that when
 * its starter's kill and wait return the server no longer listens, as with
 * a process of its own. Then it dies of the same signal. A call that does
 * not end within STOP_GRACE_S seconds (a tool that does not look at
 * io.signal) is not waited for longer.
 */
#define STOP_GRACE_S 5
static volatile sig_atomic_t stop_signo;
static int call_fd = -1;

static void die_of_stop_signal(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigemptyset(&sa.sa_mask);
	sigaction(stop_signo, &sa, NULL);
	raise(stop_signo);
	_exit(128 + stop_signo);
}

static void on_stop(int signo)
{
	if (stop_signo)
		return;
	stop_signo = signo;
	shutdown(call_fd, SHUT_WR);
	alarm(STOP_GRACE_S);
}

static void on_alarm(int signo)
{
	if (!stop_signo)
		stop_signo = signo;
	die_of_stop_signal();
}

/*
 * The stop signals node-call catches, and what they were before. A signal
 * its starter ignores (bash's background jobs ignore SIGINT) stays ignored.
 */
static const int stop_signals[] = { SIGTERM, SIGINT, SIGHUP };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))
static struct sigaction stop_before[NSTOP];
static bool stop_caught[NSTOP], stop_installed;

static void catch_stop_signals(int fd)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	call_fd = fd;
	for (size_t i = 0; i < NSTOP; i++) {
		if (sigaction(stop_signals[i], NULL, &stop_before[i]) < 0 ||
		    stop_before[i].sa_handler == SIG_IGN)
			continue;
		stop_caught[i] = sigaction(stop_signals[i], &sa, NULL) == 0;
	}
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	stop_installed = true;
}

/*
 * Before the real node replaces node-call: the signals as they were, no
 * alarm (it would survive the exec), and a stop that already came is
 * obeyed; one that comes meanwhile waits (blocked) for the old disposition.
 */
static void release_stop_signals(void)
{
	sigset_t set, old;
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	if (!stop_installed)
		return;
	sigemptyset(&set);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	alarm(0);
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGALRM, &dfl, NULL);
	for (size_t i = 0; i < NSTOP; i++)
		if (stop_caught[i])
			sigaction(stop_signals[i], &stop_before[i], NULL);
	if (stop_signo)
		die_of_stop_signal();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * Standard input, to the end, as I frames and an E. Stopped meanwhile, it
 * reads no more (the helper gives the tool what came) and sends nothing:
 * the call's end is then read as usual.
 */
static int send_stdin(int fd)
{
	char buf[65536];
	for (;;) {
		ssize_t r = read(0, buf, sizeof buf);
		if (stop_signo)
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (send_frame(fd, 'I', buf, (size_t)r) < 0)
			return -1;
	}
	return send_frame(fd, 'E', NULL, 0);
}

int main(int argc, char **argv)
{
	/* node's own options (but -e CODE), and a bare node: the real one. */
	bool eval = argc >= 3 && strcmp(argv[1], "-e") == 0;
	if (argc < 2 || (argv[1][0] == '-' && !eval))
		run_real(argv);
	size_t alen = strlen(argv[1]);
	if (!eval && (alen < 4 || strcmp(argv[1] + alen - 4, ".mjs") != 0))
		run_real(argv);
	int fd = helper_connect();
	if (fd < 0)
		run_real(argv);
	signal(SIGPIPE, SIG_IGN);
	catch_stop_signals(fd);

	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		run_real(argv);
	struct out req = { 0 };
	out_put(&req, "{\"argv\":[", 9);
	for (int i = 1; i < argc; i++) {
		if (i > 1)
			out_put(&req, ",", 1);
		out_json(&req, argv[i]);
	}
	out_put(&req, "],\"cwd\":", 8);
	out_json(&req, cwd);
	out_put(&req, ",\"env\":{", 8);
	int first = 1;
	for (char **e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		char *name = strndup(*e, (size_t)(eq - *e));
		if (!name)
			exit(70);
		if (!first)
			out_put(&req, ",", 1);
		first = 0;
		out_json(&req, name);
		out_put(&req, ":", 1);
		out_json(&req, eq + 1);
		free(name);
	}
	out_put(&req, "}}", 2);
	if (send_frame(fd, 'R', req.p, req.len) < 0) {
		if (stop_signo)
			die_of_stop_signal();
		run_real(argv);   /* nothing was run yet */
	}
	free(req.p);

	struct out body = { 0 };
	int ran = 0;
	for (;;) {
		unsigned char h[5];
		if (read_all(fd, h, sizeof h) < 0)
			break;
		size_t n = (size_t)h[1] << 24 | (size_t)h[2] << 16 | (size_t)h[3] << 8 | h[4];
		body.len = 0;
		out_grow(&body, n + 1);
		if (n && read_all(fd, body.p, n) < 0)
			break;
		switch (h[0]) {
		case 'F':
			if (ran || stop_signo)
				goto lost;
			close(fd);
			free(body.p);
			run_real(argv);
			break;
		case 'O':
			ran = 1;
			if (write_all(1, body.p, n) < 0 && errno != EPIPE)
				goto lost;
			break;
		case 'X':
			ran = 1;
			(void)write_all(2, body.p, n);
			break;
		case 'S':
			ran = 1;
			if (send_stdin(fd) < 0)
				goto lost;
			break;
		case 'C':
			if (n != 4)
				goto lost;
			{
				uint32_t u = (uint32_t)(unsigned char)body.p[0] << 24 |
					     (uint32_t)(unsigned char)body.p[1] << 16 |
					     (uint32_t)(unsigned char)body.p[2] << 8 | (unsigned char)body.p[3];
				free(body.p);
				if (stop_signo)
					die_of_stop_signal();
				return (int)(u & 0xff);
			}
		default:
			goto lost;
		}
	}
lost:
	free(body.p);
	if (stop_signo)
		die_of_stop_signal();
	fprintf(stderr, "node-call: the helper ended the call of %s without an exit status\n", argv[1]);
	return 70;
}
