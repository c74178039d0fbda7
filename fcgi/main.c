/*
 * waymark-fcgi: the FastCGI worker. spawn-fcgi (or mod_fcgid) hands it a
 * listening socket on fd 0. It runs a fixed number of threads; each accepts
 * requests on that socket one at a time (FCGX_Accept_r), builds a struct
 * req, lets the gatekeeper and the dispatch table answer, writes the struct
 * resp and frees everything the request allocated. A thread owns its
 * request, its MariaDB connection and its keep-alive connections to the
 * facilitator and the chain RPC; what the threads share (the configuration,
 * the secp256k1 context, the dispatch table, the paid-request admission
 * count, the discovery corpus behind its lock) is read-only after start or
 * guarded. INSTALL section 4 describes the two pools this binary serves.
 * Started as root, it reads the configuration, opens the pool's slot file,
 * then becomes run_user (lib/runas.h) before its first thread starts: no
 * request is ever served as root.
 *
 * Usage: waymark-fcgi [-c config-file] [-s socket-path] [-p free|remote] [-t threads]
 *   -p the pool this process serves: its thread count is worker_threads
 *      (free, the default) or remote_threads (remote); -t overrides it.
 *   -s opens its own unix socket instead of using fd 0 (for debugging).
 * SIGTERM, SIGINT, SIGUSR1 (multiwatch's default "graceful" signal): every
 * thread finishes its current request, then the process exits 0. Under
 * multiwatch, TERM sent to the workers themselves is a rolling restart:
 * each is replaced as it exits.
 */
#define _GNU_SOURCE   /* accept4 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <fcgiapp.h>

#include "admit.h"
#include "cabundle.h"
#include "clock.h"
#include "config.h"
#include "db.h"
#include "nodecap.h"
#include "facilitator.h"
#include "gate.h"
#include "rpc.h"
#include "runas.h"
#include "sig.h"
#include "table.h"
#include "walletsig.h"
#include "banned.h"

#define REQ_POOL_MAX (32u * 1024 * 1024)

#define THREADS_MAX 1024

/* Interrupts a thread blocked in accept() at shutdown; does nothing else. */
static void
on_wake(int signo)
{
	(void)signo;
}

static long
fcgi_read(void *ctx, uint8_t *buf, size_t n)
{
	int k = FCGX_GetStr((char *)buf, n > INT32_MAX ? INT32_MAX : (int)n, ctx);

	return k < 0 ? -1 : k;
}

/* "HTTP_PAYMENT_SIGNATURE" -> "payment-signature" in the pool. */
static char *
header_name(struct pool *p, const char *env, size_t len)
{
	char *s = pool_alloc(p, len + 1);

	if (s == NULL)
		return NULL;
	for (size_t i = 0; i < len; i++)
		s[i] = env[i] == '_' ? '-' : (char)(env[i] >= 'A' && env[i] <= 'Z' ? env[i] + 32 : env[i]);
	s[len] = '\0';
	return s;
}

/* Fill r from the FastCGI parameters; -1 when the request is unusable. */
static int
req_from_env(struct req *r, FCGX_ParamArray envp)
{
	const char *uri = FCGX_GetParam("REQUEST_URI", envp);
	const char *m = FCGX_GetParam("REQUEST_METHOD", envp);
	const char *cl = FCGX_GetParam("CONTENT_LENGTH", envp);
	const char *q;

	r->method_text = m ? m : "";
	r->method = http_method_parse(r->method_text);
	if (uri == NULL)
		uri = FCGX_GetParam("SCRIPT_NAME", envp);
	if (uri == NULL || uri[0] != '/')
		uri = "/";
	q = strchr(uri, '?');
	r->path = q ? pool_strndup(&r->pool, uri, (size_t)(q - uri)) : uri;
	r->query = q ? q + 1 : "";
	if (r->path == NULL)
		return -1;
	r->remote_addr = FCGX_GetParam("REMOTE_ADDR", envp);
	r->content_type = FCGX_GetParam("CONTENT_TYPE", envp);
	if (r->content_type && r->content_type[0] == '\0')
		r->content_type = NULL;
	r->content_length = 0;
	if (cl && *cl) {
		char *end;

		errno = 0;
		r->content_length = strtoull(cl, &end, 10);
		if (errno || *end || *cl < '0' || *cl > '9')
			return -1;
	}
	for (char **e = envp; *e && r->nheaders < REQ_MAX_HEADERS; e++) {
		const char *eq;

		if (strncmp(*e, "HTTP_", 5) != 0 || (eq = strchr(*e, '=')) == NULL)
			continue;
		r->headers[r->nheaders].name = header_name(&r->pool, *e + 5, (size_t)(eq - *e - 5));
		r->headers[r->nheaders].value = eq + 1;
		if (r->headers[r->nheaders].name == NULL)
			return -1;
		r->nheaders++;
	}
	return 0;
}

/*
 * libfcgi closes each connection gracefully: shutdown, then wait for the
 * peer's EOF, so late client bytes never turn into a reset that destroys
 * the response. On a unix socket nginx has sent the whole request before
 * the worker answers, so reading what is left of the body (a request
 * rejected before its body was read) makes a plain close safe: closing
 * with unread bytes would reset the socket and nginx would lose the
 * answer. A detached request then skips the three-syscall drain.
 */
/*
 * Whether fd listens on a Unix socket; its file's path goes to path[cap]
 * ("" for an abstract or unnamed one, or one too long for path).
 */
static bool
listens_on_unix_socket(int fd, char *path, size_t cap)
{
	struct sockaddr_un su;
	socklen_t len = sizeof(su);
	size_t n;

	path[0] = '\0';
	memset(&su, 0, sizeof(su));
	if (getsockname(fd, (struct sockaddr *)&su, &len) != 0 || su.sun_family != AF_UNIX)
		return false;
	n = strnlen(su.sun_path, sizeof(su.sun_path));
	if (su.sun_path[0] != '\0' && n < cap) {
		memcpy(path, su.sun_path, n);
		path[n] = '\0';
	}
	return true;
}

/* Header block with snprintf (FCGX_FPrintF has no %zu), then the body. */
static void
write_resp(FCGX_Stream *out, const struct resp *w, bool head_only)
{
	char head[512];
	int n = snprintf(head, sizeof(head), "Status: %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n",
	    w->status, err_reason_phrase(w->status), w->content_type, w->body.len);

	if (n < 0 || (size_t)n >= sizeof(head))
		return;
	FCGX_PutStr(head, n, out);
	if (w->headers.len)
		FCGX_PutStr(w->headers.p, (int)w->headers.len, out);
	FCGX_PutStr("\r\n", 2, out);
	if (!head_only && w->body.len)
		FCGX_PutStr(w->body.p, (int)w->body.len, out);
}

/* What one serving thread owns; the shared parts are pointers. */
struct server {
	pthread_t tid;
	size_t index;                   /* of this thread in the process */
	bool started;
	atomic_bool in_accept;          /* blocked (or about to block) waiting for a request */
	atomic_bool done;
	int fd;                         /* the listening socket (shared) */
	int epfd;                       /* the thread's own epoll set, or -1: libfcgi's accept */
	bool unix_sock;
	const struct config *cfg;
	struct admit *pay_admit;        /* shared by the process's threads */
	struct admit *sig_admit;        /* the signature-check cap (lib/walletsig.h) */
};

static atomic_bool stopping;
static atomic_bool accept_failed;   /* a thread's accept() failed: exit 1 */

/*
 * The remote pool's accept order. The kernel wakes the thread that has
 * waited longest in accept(), which spreads a light load over every
 * thread, so that each keep-alive connection to the facilitator and the
 * chain node idles past the server's timeout and every payment opens a new
 * one. Instead, each thread of the remote pool waits in an epoll set of its
 * own holding the listening socket with EPOLLEXCLUSIVE: the kernel then
 * wakes the first waiting thread in the order the sets were registered
 * (this process's threads in order, then the processes started after it).
 * A light load keeps using the same few threads and their warm
 * connections, and no thread wakes another to pass a turn on. The socket
 * itself stays blocking (other processes share its flags): a thread woken
 * for a connection that another took meanwhile waits in accept() for the
 * next one, which is rare and harmless. The free pool keeps no remote
 * connection: its threads block in libfcgi's accept(), in the kernel's
 * order (ARCHITECTURE.md, Worker threads).
 */
static int
accept_order_init(struct server *sv, size_t n, int listen_fd)
{
	for (size_t i = 0; i < n; i++) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLEXCLUSIVE };

		if ((sv[i].epfd = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
		    epoll_ctl(sv[i].epfd, EPOLL_CTL_ADD, listen_fd, &ev) < 0)
			return -1;
	}
	return 0;
}

/* The next connection on sv's socket (remote pool); -1 when stopping or on an error. */
static int
next_connection(struct server *sv)
{
	struct epoll_event ev;

	for (;;) {
		int fd;

		if (atomic_load(&stopping))
			return -1;
		if (epoll_wait(sv->epfd, &ev, 1, -1) < 0) {
			if (errno != EINTR)
				return -1;
			continue;
		}
		if ((fd = accept4(sv->fd, NULL, NULL, SOCK_CLOEXEC)) >= 0)
			return fd;
		/* Interrupted, or a connection that went away before it was
		 * accepted: wait again. */
		if (errno != EINTR && errno != ECONNABORTED && errno != EPROTO)
			return -1;
	}
}

/* Wait for the next request into fr; false when stopping or accepting failed. */
static bool
next_request(struct server *sv, FCGX_Request *fr)
{
	int fd;

	if (sv->epfd >= 0) {
		if ((fd = next_connection(sv)) < 0)
			return false;
		/* FCGX_Accept_r reads the request from a connection already in
		 * ipcFd; keepConnection stops its opening FCGX_Finish_r (of the
		 * previous request, already finished) from closing it. The
		 * request's own FCGI_KEEP_CONN flag replaces it once read. A
		 * connection that brings no request is closed, and libfcgi
		 * accepts the next one itself. */
		fr->ipcFd = fd;
		fr->keepConnection = 1;
	}
	return FCGX_Accept_r(fr) >= 0;
}

/* Serve one request on fr with g; everything it allocated is freed. */
static void
serve_one(struct server *sv, struct gate *g, FCGX_Request *fr)
{
	struct req r;
	struct resp w;

	memset(&r, 0, sizeof(r));
	r.started_ms = clock_ms();
	pool_init(&r.pool, REQ_POOL_MAX);
	resp_init(&w);
	g->read_ctx = fr->in;
	if (req_from_env(&r, fr->envp) < 0)
		resp_fail(&w, ERR_INVALID_REQUEST, NULL, "The request could not be read.");
	else
		gate_run(g, &r, &w);
	write_resp(fr->out, &w, r.method == HM_HEAD);
	if (sv->unix_sock) {
		char rest[4096];

		while (FCGX_GetStr(rest, sizeof(rest), fr->in) > 0)
			;
		FCGX_Detach(fr);
	}
	FCGX_Finish_r(fr);
	resp_release(&w);
	pool_release(&r.pool);
}

static void *
serve(void *arg)
{
	struct server *sv = arg;
	struct db db;
	struct gate g;
	FCGX_Request fr;

	mysql_thread_init();
	admit_thread_take(sv->pay_admit, sv->index);
	admit_thread_take(sv->sig_admit, sv->index);
	db_init(&db, sv->cfg);
	g = (struct gate){ .table = endpoints, .ntable = nendpoints, .cfg = sv->cfg, .db = &db,
	    .read_body = fcgi_read, .pay_admit = sv->pay_admit };
	FCGX_InitRequest(&fr, sv->fd, FCGI_FAIL_ACCEPT_ON_INTR);
	for (;;) {
		bool accepted;

		atomic_store(&sv->in_accept, true);
		accepted = !atomic_load(&stopping) && next_request(sv, &fr);
		atomic_store(&sv->in_accept, false);
		if (!accepted)
			break;
		serve_one(sv, &g, &fr);
	}
	atomic_store(&sv->in_accept, false);
	if (!atomic_load(&stopping)) {
		/* accept() failed for good: stop the whole process, as the
		 * single-threaded worker did, so its supervisor replaces it
		 * rather than keep a process that serves on fewer threads. */
		atomic_store(&accept_failed, true);
		kill(getpid(), SIGTERM);
	}
	FCGX_Free(&fr, 0);
	db_close(&db);
	facilitator_thread_release();
	rpc_thread_release();
	admit_thread_release();
	mysql_thread_end();
	atomic_store(&sv->done, true);
	return NULL;
}

/*
 * Wait for TERM, INT or USR1, then stop: no thread accepts another request,
 * a thread inside a request finishes it, and a thread blocked in accept()
 * is woken with SIGUSR2 (repeated until it has left, since a signal that
 * arrives just before accept() is entered wakes nothing).
 */
static void
wait_and_stop(struct server *sv, size_t n, const sigset_t *stopset)
{
	int signo = 0;

	while (sigwait(stopset, &signo) != 0)
		;
	atomic_store(&stopping, true);
	FCGX_ShutdownPending();
	for (;;) {
		size_t left = 0;
		struct timespec tick = { 0, 20 * 1000 * 1000 };

		for (size_t i = 0; i < n; i++) {
			if (!sv[i].started || atomic_load(&sv[i].done))
				continue;
			left++;
			if (atomic_load(&sv[i].in_accept))
				pthread_kill(sv[i].tid, SIGUSR2);
		}
		if (left == 0)
			break;
		nanosleep(&tick, NULL);
	}
}

int
main(int argc, char **argv)
{
	const char *conf = getenv("WAYMARK_CONFIG"), *sock = NULL, *pool = "free";
	struct config cfg;
	struct admit pay_admit, sig_admit;
	struct server *sv = NULL;
	struct sigaction sa;
	sigset_t stopset;
	char err[512], sock_path[PATH_MAX], slot_base[PATH_MAX] = "", slot_path[PATH_MAX] = "",
	    sig_slot_path[PATH_MAX] = "";
	int opt, fd = 0, rc = 0;
	long threads = 0;
	bool unix_sock, remote;
	size_t n;

	while ((opt = getopt(argc, argv, "c:s:p:t:")) != -1) {
		switch (opt) {
		case 'c': conf = optarg; break;
		case 's': sock = optarg; break;
		case 'p': pool = optarg; break;
		case 't':
			threads = strtol(optarg, NULL, 10);
			if (threads < 1 || threads > THREADS_MAX) {
				fprintf(stderr, "waymark-fcgi: -t takes 1..%d\n", THREADS_MAX);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: waymark-fcgi [-c config] [-s socket] [-p free|remote] [-t threads]\n");
			return 2;
		}
	}
	if (strcmp(pool, "free") != 0 && strcmp(pool, "remote") != 0) {
		fprintf(stderr, "waymark-fcgi: -p takes free or remote\n");
		return 2;
	}
	if (config_load(&cfg, conf, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark-fcgi: %s\n", err);
		return 2;
	}
	remote = strcmp(pool, "remote") == 0;
	/* The free pool's reads need not wait for the cluster (db_sync_wait_free,
	 * docs/ARCHITECTURE.md, Failover between nodes); set before any thread starts. */
	if (!remote)
		cfg.db_sync_wait = cfg.db_sync_wait_free;
	n = threads ? (size_t)threads : (size_t)(remote ? cfg.remote_threads : cfg.worker_threads);
	/* Everything the threads share is set up here, before they start. */
	if (sig_init() < 0 || FCGX_Init() != 0 || mysql_library_init(0, NULL, NULL) != 0 ||
	    curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "waymark-fcgi: initialisation failed\n");
		return 1;
	}
	/* Read while still root: run_user need not be able to read it (lib/cabundle.h). */
	if (cabundle_load(cfg.tls_ca_file, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark-fcgi: %s\n", err);
		return 2;
	}
	if (sock && (fd = FCGX_OpenSocket(sock, 128)) < 0) {
		fprintf(stderr, "waymark-fcgi: cannot listen on %s\n", sock);
		return 1;
	}
	/* The payment cap holds for the whole pool on this host: its
	 * processes share the slot file beside their unix socket, or, on a
	 * TCP socket, <slot_dir>/<pool> (INSTALL section 12). */
	unix_sock = listens_on_unix_socket(fd, sock_path, sizeof(sock_path));
	if (sock_path[0] || cfg.slot_dir[0]) {
		int k = sock_path[0] ? snprintf(slot_base, sizeof(slot_base), "%s", sock_path) :
		    snprintf(slot_base, sizeof(slot_base), "%s/%s", cfg.slot_dir, pool);

		if (k < 0 || (size_t)k >= sizeof(slot_base))
			slot_base[0] = '\0';
	}
	if (slot_base[0]) {
		int k = snprintf(slot_path, sizeof(slot_path), "%s.slots", slot_base);

		if (k < 0 || (size_t)k >= sizeof(slot_path))
			slot_path[0] = '\0';   /* too long: count per process */
	}
	if (admit_init(&pay_admit, (unsigned)cfg.payment_max_in_flight, slot_path[0] ? slot_path : NULL,
	    err, sizeof(err)) < 0 || !slot_path[0])
		fprintf(stderr, "waymark-fcgi: payment_max_in_flight counts per process here%s%s\n",
		    slot_path[0] ? ": " : " (no unix socket or slot_dir to share it in)", slot_path[0] ? err : "");
	else if (admit_open_each(&pay_admit, n, err, sizeof(err)) < 0)
		fprintf(stderr, "waymark-fcgi: payment_max_in_flight counts per process here: %s\n", err);
	/* So does the cap on free requests' chain calls (lib/nodecap.h:
	 * contract-wallet signature checks, agent previews), through a slot
	 * file of its own: a paid row may check a signature while it holds a
	 * payment place. */
	if (slot_path[0]) {
		int k = snprintf(sig_slot_path, sizeof(sig_slot_path), "%s.sigcheck.slots", slot_base);

		if (k < 0 || (size_t)k >= sizeof(sig_slot_path))
			sig_slot_path[0] = '\0';
	}
	if (admit_init(&sig_admit, (unsigned)cfg.sigcheck_max_in_flight, sig_slot_path[0] ?
	    sig_slot_path : NULL, err, sizeof(err)) < 0 || !sig_slot_path[0])
		fprintf(stderr, "waymark-fcgi: sigcheck_max_in_flight counts per process here%s%s\n",
		    sig_slot_path[0] ? ": " : " (no unix socket or slot_dir to share it in)", sig_slot_path[0] ? err : "");
	else if (admit_open_each(&sig_admit, n, err, sizeof(err)) < 0)
		fprintf(stderr, "waymark-fcgi: sigcheck_max_in_flight counts per process here: %s\n", err);
	nodecap_limit(&sig_admit);
	/* Root is given up here: the configuration is read, each thread's
	 * descriptions of the slot files are open, and no thread has started. */
	if (runas_drop(cfg.run_user, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark-fcgi: %s\n", err);
		rc = 1;
		goto out;
	}
	/* TERM, INT and USR1 are taken by sigwait in this thread only; USR2
	 * (no SA_RESTART) interrupts a serving thread's accept() at shutdown. */
	sigemptyset(&stopset);
	sigaddset(&stopset, SIGTERM);
	sigaddset(&stopset, SIGINT);
	sigaddset(&stopset, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &stopset, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake;
	sigaction(SIGUSR2, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if ((sv = calloc(n, sizeof(*sv))) == NULL) {
		fprintf(stderr, "waymark-fcgi: out of memory\n");
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		sv[i].index = i;
		sv[i].fd = fd;
		sv[i].epfd = -1;
		sv[i].unix_sock = unix_sock;
		sv[i].cfg = &cfg;
		sv[i].pay_admit = &pay_admit;
		sv[i].sig_admit = &sig_admit;
		atomic_init(&sv[i].in_accept, false);
		atomic_init(&sv[i].done, false);
	}
	/* libfcgi's own accept checks FCGI_WEB_SERVER_ADDRS on a TCP socket:
	 * with it set, the remote pool keeps that accept (kernel order). */
	if (remote && getenv("FCGI_WEB_SERVER_ADDRS") == NULL && accept_order_init(sv, n, fd) < 0) {
		fprintf(stderr, "waymark-fcgi: cannot set up the accept order: %s\n", strerror(errno));
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (pthread_create(&sv[i].tid, NULL, serve, &sv[i]) != 0) {
			fprintf(stderr, "waymark-fcgi: cannot start thread %zu of %zu\n", i + 1, n);
			rc = 1;
			pthread_kill(pthread_self(), SIGTERM);   /* stop the ones that started */
			break;
		}
		sv[i].started = true;
	}
	wait_and_stop(sv, n, &stopset);
	for (size_t i = 0; i < n; i++) {
		if (sv[i].started)
			pthread_join(sv[i].tid, NULL);
	}
	if (atomic_load(&accept_failed))
		rc = 1;
out:
	for (size_t i = 0; sv && i < n; i++) {
		if (sv[i].epfd >= 0)
			close(sv[i].epfd);
	}
	free(sv);
	nodecap_limit(NULL);
	admit_release(&sig_admit);
	admit_release(&pay_admit);
	cabundle_release();
	curl_global_cleanup();
	mysql_library_end();
	sig_release();
	return rc;
}
