/*
 * tools/wmsh.c: wm_http, a bash builtin for the test suite
 * (docs/ARCHITECTURE.md, Test suite), loaded by t/lib/tap.sh with
 * `enable -f`. A stack test makes thousands of plain HTTP requests to its
 * own nginx and chain; as commands each is a curl process, and a process
 * costs tens of milliseconds of CPU on the machines the suite runs on. As
 * a builtin the request runs inside the test's own shell, with no fork,
 * and keeps its connection from one call to the next.
 *
 *   wm_http METHOD URL [CURL-OPTION...]
 *       One HTTP/1.1 request as `curl -s -X METHOD URL ...` sends it: Host,
 *       User-Agent and Accept: star/star first (a -H of the same name
 *       replaces them), then the -H headers in their order, and with data
 *       Content-Length (and curl's form Content-Type unless one is given).
 *       Sets $status (the answer's status, 000 when none came), $body and
 *       $headers (the status line and header lines as curl -D writes them,
 *       without CR; both as `$(<file)` would read them: without trailing
 *       newlines). Options: -H NAME:VALUE, -d/--data/--data-raw/
 *       --data-binary TEXT, --data-binary @FILE, --interface ADDRESS,
 *       --path-as-is, -m/--max-time SECONDS, -s. Exit status 0, 7 when no
 *       connection could be made, 28 on a timeout, 56 when the answer broke
 *       off (curl's numbers), and 125 for what it does not do as curl does
 *       (another URL scheme or option, a path with dot segments or bytes
 *       curl would change, a header without a value, data over 1 MiB,
 *       which curl sends with Expect): the caller then runs curl itself.
 *
 * It links nothing but libc on purpose: a library mapped into the shell
 * makes every later fork of it dearer (libcurl and its TLS stack doubled
 * the cost of a `$(...)` here), and the tests fork often. The answers it
 * reads are nginx's and anvil's: Content-Length, chunked, or until close.
 *
 * A connection belongs to the process that opened it: in a subshell (a
 * fork) the builtin opens its own and leaves the parent's alone, so a
 * request in `$(...)` or in a background job never shares a socket. Its
 * socket is above the descriptors a script names itself (0 to 9, as in
 * `exec 3<>/dev/tcp/...`, which would otherwise close a kept connection
 * under it) and closes on exec, so no command inherits it.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <loadables.h>

#include "banned.h"

#define FD_MIN 10                     /* 0..9 are the script's */
#define DATA_MAX (1024 * 1024)        /* curl adds Expect: 100-continue above this */
#define UNSUPPORTED 125
#define E_CONNECT 7
#define E_TIMEOUT 28
#define E_RECV 56

/* A growing byte buffer. */
struct wbuf {
	char *p;
	size_t len, cap;
	bool failed;
};

static void
wbuf_add(struct wbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
wbuf_str(struct wbuf *b, const char *s)
{
	wbuf_add(b, s, strlen(s));
}

static void
wbuf_free(struct wbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* The text as bash's $(<file) reads it: NUL bytes dropped, trailing newlines removed; CRs too when strip_cr. */
static char *
shell_text(const char *p, size_t len, bool strip_cr)
{
	char *out = malloc(len + 1);
	size_t n = 0;

	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < len; i++)
		if (p[i] != '\0' && !(strip_cr && p[i] == '\r'))
			out[n++] = p[i];
	while (n > 0 && out[n - 1] == '\n')
		n--;
	out[n] = '\0';
	return out;
}

/* The whole file into b; -1 when it cannot be read. */
static int
read_file(const char *path, struct wbuf *b)
{
	char chunk[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		wbuf_add(b, chunk, (size_t)n);
	close(fd);
	return n < 0 || b->failed ? -1 : 0;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the kept connection ---- */

static struct {
	int fd;                 /* -1: none */
	pid_t owner;
	struct sockaddr_in to;
	char iface[64];
} conn = { .fd = -1 };

static void
conn_drop(void)
{
	if (conn.fd >= 0 && conn.owner == getpid())
		close(conn.fd);
	conn.fd = -1;
}

/* A connection to `to` from `iface` ("" for any), kept or new; *reused says which. -1 when none could be made. */
static int
conn_get(const struct sockaddr_in *to, const char *iface, bool *reused)
{
	struct sockaddr_in from;
	int fd, high, one = 1;

	if (conn.fd >= 0 && conn.owner != getpid())
		conn.fd = -1;   /* the parent's, through fork: left to it */
	if (conn.fd >= 0 && memcmp(&conn.to, to, sizeof(*to)) == 0 && strcmp(conn.iface, iface) == 0) {
		*reused = true;
		return conn.fd;
	}
	conn_drop();
	*reused = false;
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return -1;
	high = fcntl(fd, F_DUPFD_CLOEXEC, FD_MIN);
	close(fd);
	if ((fd = high) < 0)
		return -1;
	if (iface[0] != '\0') {
		memset(&from, 0, sizeof(from));
		from.sin_family = AF_INET;
		if (inet_pton(AF_INET, iface, &from.sin_addr) != 1 ||
		    bind(fd, (struct sockaddr *)&from, sizeof(from)) < 0) {
			close(fd);
			return -1;
		}
	}
	if (connect(fd, (const struct sockaddr *)to, sizeof(*to)) < 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	conn.fd = fd;
	conn.owner = getpid();
	conn.to = *to;
	snprintf(conn.iface, sizeof(conn.iface), "%s", iface);
	return fd;
}

/* ---- the answer ---- */

struct reader {
	int fd;
	double deadline;
	struct wbuf in;          /* bytes read, from pos on not taken yet */
	size_t pos;
	bool eof;
	int err;                 /* E_TIMEOUT or E_RECV once reading failed */
};

/* More bytes into r->in; 0, or -1 at the end or on failure (r->eof, r->err). */
static int
fill(struct reader *r)
{
	char chunk[16384];
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	ssize_t n;

	for (;;) {
		int ms = (int)((r->deadline - now_s()) * 1000);

		if (ms <= 0) {
			r->err = E_TIMEOUT;
			return -1;
		}
		if (poll(&p, 1, ms) < 0) {
			if (errno == EINTR)
				continue;
			r->err = E_RECV;
			return -1;
		}
		if (p.revents == 0)
			continue;
		n = recv(r->fd, chunk, sizeof(chunk), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r->err = E_RECV;
			return -1;
		}
		if (n == 0) {
			r->eof = true;
			return -1;
		}
		wbuf_add(&r->in, chunk, (size_t)n);
		return r->in.failed ? -1 : 0;
	}
}

/* The next line (CRLF or LF ended, without it) into *line and *len; -1 when none came whole. */
static int
get_line(struct reader *r, const char **line, size_t *len)
{
	for (;;) {
		char *start = r->in.p ? r->in.p + r->pos : NULL;
		char *nl = start ? memchr(start, '\n', r->in.len - r->pos) : NULL;

		if (nl != NULL) {
			*line = start;
			*len = (size_t)(nl - start);
			if (*len > 0 && start[*len - 1] == '\r')
				(*len)--;
			r->pos = (size_t)(nl - r->in.p) + 1;
			return 0;
		}
		if (fill(r) < 0)
			return -1;
	}
}

/* n more bytes into out; -1 when they did not come. */
static int
get_bytes(struct reader *r, size_t n, struct wbuf *out)
{
	while (r->in.len - r->pos < n)
		if (fill(r) < 0)
			return -1;
	wbuf_add(out, r->in.p + r->pos, n);
	r->pos += n;
	return out->failed ? -1 : 0;
}

struct answer {
	int code;
	struct wbuf head, body;
	bool close;              /* the connection may not be used again */
};

/* Whether the header line names NAME (any case); *value its value without leading blanks. */
static bool
header_is(const char *line, size_t len, const char *name, const char **value, size_t *vlen)
{
	size_t n = strlen(name);

	if (len <= n || line[n] != ':' || strncasecmp(line, name, n) != 0)
		return false;
	*value = line + n + 1;
	*vlen = len - n - 1;
	while (*vlen > 0 && (**value == ' ' || **value == '\t')) {
		(*value)++;
		(*vlen)--;
	}
	while (*vlen > 0 && ((*value)[*vlen - 1] == ' ' || (*value)[*vlen - 1] == '\t'))
		(*vlen)--;
	return true;
}

/* One answer; 0, or E_TIMEOUT/E_RECV. a->code is set once a status line came. */
static int
read_answer(struct reader *r, bool head_request, struct answer *a)
{
	const char *line, *v;
	size_t len, vlen;
	long long clen = -1;
	bool chunked = false;

	a->code = 0;
	if (get_line(r, &line, &len) < 0)
		return r->err ? r->err : E_RECV;
	if (len < 12 || strncmp(line, "HTTP/1.", 7) != 0 || line[8] != ' ')
		return E_RECV;
	a->code = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
	if (strncmp(line, "HTTP/1.0", 8) == 0)
		a->close = true;
	wbuf_add(&a->head, line, len);
	wbuf_add(&a->head, "\n", 1);
	for (;;) {
		if (get_line(r, &line, &len) < 0)
			return r->err ? r->err : E_RECV;
		wbuf_add(&a->head, line, len);
		wbuf_add(&a->head, "\n", 1);
		if (len == 0)
			break;
		if (header_is(line, len, "Content-Length", &v, &vlen)) {
			char num[32], *end;

			if (vlen == 0 || vlen >= sizeof(num))
				return E_RECV;
			memcpy(num, v, vlen);
			num[vlen] = '\0';
			clen = strtoll(num, &end, 10);
			if (*end != '\0' || clen < 0)
				return E_RECV;
		} else if (header_is(line, len, "Transfer-Encoding", &v, &vlen)) {
			chunked = vlen == 7 && strncasecmp(v, "chunked", 7) == 0;
		} else if (header_is(line, len, "Connection", &v, &vlen)) {
			if (vlen == 5 && strncasecmp(v, "close", 5) == 0)
				a->close = true;
		}
	}
	if (a->head.failed)
		return E_RECV;
	if (head_request || a->code == 204 || a->code == 304 || (a->code >= 100 && a->code < 200))
		return 0;
	if (chunked) {
		for (;;) {
			char num[32], *end;
			unsigned long long n;

			if (get_line(r, &line, &len) < 0)
				return r->err ? r->err : E_RECV;
			len = strcspn(line, ";\r\n") < len ? strcspn(line, ";\r\n") : len;
			if (len == 0 || len >= sizeof(num))
				return E_RECV;
			memcpy(num, line, len);
			num[len] = '\0';
			n = strtoull(num, &end, 16);
			if (*end != '\0')
				return E_RECV;
			if (n == 0)
				break;
			if (get_bytes(r, (size_t)n, &a->body) < 0 || get_line(r, &line, &len) < 0 || len != 0)
				return r->err ? r->err : E_RECV;
		}
		do {   /* trailers, to the blank line */
			if (get_line(r, &line, &len) < 0)
				return r->err ? r->err : E_RECV;
		} while (len != 0);
		return 0;
	}
	if (clen >= 0)
		return get_bytes(r, (size_t)clen, &a->body) < 0 ? (r->err ? r->err : E_RECV) : 0;
	/* Neither: the body runs to the connection's end. */
	a->close = true;
	while (fill(r) == 0)
		;
	if (r->err)
		return r->err;
	wbuf_add(&a->body, r->in.p + r->pos, r->in.len - r->pos);
	return 0;
}

/* Sends all of b; -1 when the peer stopped taking it. */
static int
send_all(int fd, const struct wbuf *b)
{
	size_t off = 0;

	while (off < b->len) {
		ssize_t n = send(fd, b->p + off, b->len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

/* ---- the request ---- */

/* http://HOST[:PORT]/PATH with HOST an IPv4 address or localhost; -1 for any other URL. */
static int
parse_url(const char *url, struct sockaddr_in *to, char *hostport, size_t hplen, const char **path)
{
	const char *h = url + 7, *end, *colon;
	char host[64];
	long port = 80;

	if (strncmp(url, "http://", 7) != 0)
		return -1;
	end = h + strcspn(h, "/?#");
	colon = memchr(h, ':', (size_t)(end - h));
	if ((size_t)((colon ? colon : end) - h) >= sizeof(host) || (size_t)(end - h) >= hplen)
		return -1;
	memcpy(host, h, (size_t)((colon ? colon : end) - h));
	host[(colon ? colon : end) - h] = '\0';
	if (colon != NULL) {
		char *e;

		port = strtol(colon + 1, &e, 10);
		if (e != end || port <= 0 || port > 65535)
			return -1;
	}
	memset(to, 0, sizeof(*to));
	to->sin_family = AF_INET;
	to->sin_port = htons((uint16_t)port);
	if (strcmp(host, "localhost") == 0)
		snprintf(host, sizeof(host), "127.0.0.1");
	if (inet_pton(AF_INET, host, &to->sin_addr) != 1)
		return -1;
	memcpy(hostport, h, (size_t)(end - h));
	hostport[end - h] = '\0';
	*path = *end == '/' ? end : NULL;
	if (*end == '\0')
		*path = "/";
	return *path ? 0 : -1;
}

/* Whether curl would send the path as it is: no dot segment, no fragment, nothing but printable ASCII. */
static bool
path_plain(const char *p)
{
	const char *q = p + strcspn(p, "?");

	for (const char *c = p; *c; c++)
		if (*c <= ' ' || *c >= 0x7f || *c == '#')
			return false;
	for (const char *c = p; c < q; c++)
		if (*c == '/' && c[1] == '.' && (c + 2 >= q || c[2] == '/' || (c[2] == '.' && (c + 3 >= q || c[3] == '/'))))
			return false;
	return true;
}

static bool
set_var(const char *name, const char *value)
{
	return bind_variable((char *)name, (char *)value, 0) != NULL;
}

static bool
named(const char *h, const char *name)
{
	size_t n = strlen(name);

	return strncasecmp(h, name, n) == 0 && h[n] == ':';
}

static int
wm_http_builtin(WORD_LIST *list)
{
	const char *method, *url, *path, *iface = "";
	char hostport[128], codebuf[8];
	struct sockaddr_in to;
	struct wbuf req = { 0 }, data = { 0 }, uh = { 0 };
	struct answer a = { 0 };
	struct reader r = { .fd = -1 };
	WORD_LIST *w;
	bool has_data = false, path_as_is = false, user_host = false, user_ua = false, user_accept = false,
	    user_ct = false, reused;
	long max_time = 300;
	char *tbody = NULL, *thead = NULL;
	int rc = UNSUPPORTED, fd;

	if (list == NULL || list->next == NULL) {
		builtin_usage();
		return EX_USAGE;
	}
	method = list->word->word;
	url = list->next->word->word;
	for (w = list->next->next; w != NULL; w = w->next) {
		const char *o = w->word->word, *v = w->next ? w->next->word->word : NULL;

		if (strcmp(o, "-s") == 0 || strcmp(o, "--silent") == 0)
			continue;
		if (strcmp(o, "--path-as-is") == 0) {
			path_as_is = true;
			continue;
		}
		if (v == NULL)
			goto out;
		if (strcmp(o, "-H") == 0 || strcmp(o, "--header") == 0) {
			const char *colon = strchr(v, ':');

			/* "Name:" removes a header and "Name;" sends it empty in curl: not done here. */
			if (colon == NULL || colon == v || colon[1 + strspn(colon + 1, " \t")] == '\0' ||
			    strpbrk(v, "\r\n") != NULL)
				goto out;
			user_host |= named(v, "Host");
			user_ua |= named(v, "User-Agent");
			user_accept |= named(v, "Accept");
			user_ct |= named(v, "Content-Type");
			if (named(v, "Content-Length") || named(v, "Transfer-Encoding") || named(v, "Expect"))
				goto out;
			wbuf_str(&uh, v);
			wbuf_str(&uh, "\r\n");
		} else if (strcmp(o, "-d") == 0 || strcmp(o, "--data") == 0 || strcmp(o, "--data-raw") == 0 ||
		    strcmp(o, "--data-binary") == 0) {
			/* Several data options join with & (curl's rule); -d strips a file's newlines: not done here. */
			if (has_data)
				wbuf_add(&data, "&", 1);
			if (v[0] == '@' && strcmp(o, "--data-raw") != 0) {
				if (strcmp(o, "--data-binary") != 0)
					goto out;
				if (read_file(v + 1, &data) < 0)
					goto out;   /* curl says why */
			} else {
				wbuf_str(&data, v);
			}
			has_data = true;
		} else if (strcmp(o, "--interface") == 0) {
			iface = v;
		} else if (strcmp(o, "-m") == 0 || strcmp(o, "--max-time") == 0) {
			char *end;

			max_time = strtol(v, &end, 10);
			if (*end != '\0' || max_time <= 0)
				goto out;
		} else {
			goto out;
		}
		w = w->next;
	}
	if (data.failed || uh.failed || data.len > DATA_MAX || strlen(iface) >= sizeof(conn.iface))
		goto out;
	if (parse_url(url, &to, hostport, sizeof(hostport), &path) < 0 || (!path_as_is && !path_plain(path)))
		goto out;
	if (strpbrk(method, " \r\n") != NULL || method[0] == '\0')
		goto out;

	/* The request, as curl writes it. */
	wbuf_str(&req, method);
	wbuf_str(&req, " ");
	wbuf_str(&req, path);
	wbuf_str(&req, " HTTP/1.1\r\n");
	if (!user_host) {
		wbuf_str(&req, "Host: ");
		wbuf_str(&req, hostport);
		wbuf_str(&req, "\r\n");
	}
	if (!user_ua)
		wbuf_str(&req, "User-Agent: curl/7.88.1\r\n");
	if (!user_accept)
		wbuf_str(&req, "Accept: */*\r\n");
	if (uh.len > 0)
		wbuf_add(&req, uh.p, uh.len);
	if (has_data) {
		char n[48];

		if (!user_ct)
			wbuf_str(&req, "Content-Type: application/x-www-form-urlencoded\r\n");
		snprintf(n, sizeof(n), "Content-Length: %zu\r\n", data.len);
		wbuf_str(&req, n);
	}
	wbuf_str(&req, "\r\n");
	if (has_data && data.len > 0)
		wbuf_add(&req, data.p, data.len);
	if (req.failed) {
		rc = EXECUTION_FAILURE;
		goto out;
	}

	r.deadline = now_s() + (double)max_time;
	for (int attempt = 0;; attempt++) {
		bool sent;

		if ((fd = conn_get(&to, iface, &reused)) < 0) {
			rc = E_CONNECT;
			break;
		}
		sent = send_all(fd, &req) == 0;
		r.fd = fd;
		r.pos = 0;
		r.eof = false;
		r.err = 0;
		r.in.len = 0;
		wbuf_free(&a.head);
		wbuf_free(&a.body);
		a.close = false;
		/* A peer that stopped reading may still have answered (a 414 before the whole line). */
		rc = read_answer(&r, strcasecmp(method, "HEAD") == 0, &a);
		if (rc != 0 || a.close || !sent)
			conn_drop();
		/* A kept connection the server had closed: once more on a new one, as curl does. */
		if (rc != 0 && reused && a.code == 0 && r.in.len == 0 && attempt == 0 && r.err != E_TIMEOUT)
			continue;
		break;
	}
	snprintf(codebuf, sizeof(codebuf), "%03d", a.code);
	if ((tbody = shell_text(a.body.p ? a.body.p : "", a.body.len, false)) == NULL ||
	    (thead = shell_text(a.head.p ? a.head.p : "", a.head.len, true)) == NULL ||
	    !set_var("status", codebuf) || !set_var("body", tbody) || !set_var("headers", thead))
		rc = EXECUTION_FAILURE;
out:
	wbuf_free(&req);
	wbuf_free(&data);
	wbuf_free(&uh);
	wbuf_free(&a.head);
	wbuf_free(&a.body);
	wbuf_free(&r.in);
	free(tbody);
	free(thead);
	return rc;
}

static char *wm_http_doc[] = {
	"One HTTP request in the shell itself (tools/wmsh.c).",
	"Sets status, body and headers as t/lib/http.sh's req does.",
	NULL
};

struct builtin wm_http_struct = {
	"wm_http", wm_http_builtin, BUILTIN_ENABLED, wm_http_doc, "wm_http METHOD URL [CURL-OPTION...]", 0
};
