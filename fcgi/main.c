/*
 * waymark-fcgi: the FastCGI worker. spawn-fcgi (or mod_fcgid) hands it a
 * listening socket on fd 0; it accepts requests one at a time, builds a
 * struct req, lets the gatekeeper and the dispatch table answer, writes
 * the struct resp and frees everything the request allocated.
 *
 * Usage: waymark-fcgi [-c config-file] [-s socket-path]
 *   -s opens its own unix socket instead of using fd 0 (for debugging).
 * SIGTERM, SIGINT, SIGUSR1 (multiwatch's default "graceful" signal): finish
 * the current request, then exit 0. Under multiwatch, TERM sent to the
 * workers themselves is a rolling restart: each is replaced as it exits.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "config.h"
#include "db.h"
#include "gate.h"
#include "sig.h"
#include "table.h"
#include "banned.h"

#define REQ_POOL_MAX (32u * 1024 * 1024)

static void
on_term(int signo)
{
	(void)signo;
	FCGX_ShutdownPending();
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
static bool
listens_on_unix_socket(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	return getsockname(fd, (struct sockaddr *)&ss, &len) == 0 && ss.ss_family == AF_UNIX;
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

int
main(int argc, char **argv)
{
	const char *conf = getenv("WAYMARK_CONFIG"), *sock = NULL;
	struct config cfg;
	struct db db;
	struct gate g;
	FCGX_Request fr;
	struct sigaction sa;
	char err[512];
	int opt, fd = 0;
	bool unix_sock;

	while ((opt = getopt(argc, argv, "c:s:")) != -1) {
		switch (opt) {
		case 'c': conf = optarg; break;
		case 's': sock = optarg; break;
		default:
			fprintf(stderr, "usage: waymark-fcgi [-c config] [-s socket]\n");
			return 2;
		}
	}
	if (config_load(&cfg, conf, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark-fcgi: %s\n", err);
		return 2;
	}
	if (sig_init() < 0 || FCGX_Init() != 0) {
		fprintf(stderr, "waymark-fcgi: initialisation failed\n");
		return 1;
	}
	if (sock && (fd = FCGX_OpenSocket(sock, 128)) < 0) {
		fprintf(stderr, "waymark-fcgi: cannot listen on %s\n", sock);
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;   /* no SA_RESTART: accept() must return */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	db_init(&db, &cfg);
	g = (struct gate){ .table = endpoints, .ntable = nendpoints, .cfg = &cfg, .db = &db,
	    .read_body = fcgi_read };
	unix_sock = listens_on_unix_socket(fd);
	FCGX_InitRequest(&fr, fd, 0);
	while (FCGX_Accept_r(&fr) >= 0) {
		struct req r;
		struct resp w;

		memset(&r, 0, sizeof(r));
		pool_init(&r.pool, REQ_POOL_MAX);
		resp_init(&w);
		g.read_ctx = fr.in;
		if (req_from_env(&r, fr.envp) < 0)
			resp_fail(&w, ERR_INVALID_REQUEST, NULL, "The request could not be read.");
		else
			gate_run(&g, &r, &w);
		write_resp(fr.out, &w, r.method == HM_HEAD);
		if (unix_sock) {
			char rest[4096];

			while (FCGX_GetStr(rest, sizeof(rest), fr.in) > 0)
				;
			FCGX_Detach(&fr);
		}
		FCGX_Finish_r(&fr);
		resp_release(&w);
		pool_release(&r.pool);
	}
	FCGX_Free(&fr, 1);
	db_close(&db);
	mysql_library_end();
	sig_release();
	return 0;
}
