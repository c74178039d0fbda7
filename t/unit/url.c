/*
 * url.h: WHATWG-style parsing of https URLs and the public URL policy.
 * Every expected value below is what `new URL(input)` gives in Node 20
 * (the same WHATWG rules), except where a comment says we are stricter.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "url.h"
#include "banned.h"

struct valid_case {
	const char *in;
	const char *origin;
	const char *host;
	enum url_host_kind kind;
	int port;
	const char *path;
	const char *query;      /* NULL: no query */
	const char *fragment;   /* NULL: no fragment */
};

static const struct valid_case valid_cases[] = {
	/* scheme, slashes, whitespace, case */
	{ "https://example.com", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://example.com/", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "HTTPS://Example.COM/A/b", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/A/b", NULL, NULL },
	{ "https:example.com/x", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/x", NULL, NULL },
	{ "https:\\\\example.com\\a\\b", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/a/b", NULL, NULL },
	{ "https:////example.com/x", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/x", NULL, NULL },
	{ "  https://example.com/x \n", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/x", NULL, NULL },
	{ "https://exa\tmple.com/a\nb\r", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/ab", NULL, NULL },
	{ "\x01https://example.com/\x1f", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://ex%61mple.com/", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://a..b/", "https://a..b", "a..b", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://XN--BCHER-KVA.example/", "https://xn--bcher-kva.example", "xn--bcher-kva.example", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://xn--ls8h.example/", "https://xn--ls8h.example", "xn--ls8h.example", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://xn----.example/", "https://xn----.example", "xn----.example", URL_HOST_DOMAIN, 443, "/", NULL, NULL },

	/* ports */
	{ "https://example.com:443/x", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/x", NULL, NULL },
	{ "https://example.com:8443/x", "https://example.com:8443", "example.com", URL_HOST_DOMAIN, 8443, "/x", NULL, NULL },
	{ "https://example.com:/x", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/x", NULL, NULL },
	{ "https://example.com:0443/", "https://example.com", "example.com", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://example.com:0/", "https://example.com:0", "example.com", URL_HOST_DOMAIN, 0, "/", NULL, NULL },
	{ "https://example.com:65535/", "https://example.com:65535", "example.com", URL_HOST_DOMAIN, 65535, "/", NULL, NULL },

	/* IPv4 */
	{ "https://0x7f.1/", "https://127.0.0.1", "127.0.0.1", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://127.1/", "https://127.0.0.1", "127.0.0.1", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://0177.0.0.1/", "https://127.0.0.1", "127.0.0.1", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://2130706433/", "https://127.0.0.1", "127.0.0.1", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://0x7F000001/", "https://127.0.0.1", "127.0.0.1", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://1.2.3.4./", "https://1.2.3.4", "1.2.3.4", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://0x/", "https://0.0.0.0", "0.0.0.0", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://4294967295/", "https://255.255.255.255", "255.255.255.255", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://1.16777215/", "https://1.255.255.255", "1.255.255.255", URL_HOST_IPV4, 443, "/", NULL, NULL },
	{ "https://192.168.0.1:8443/x", "https://192.168.0.1:8443", "192.168.0.1", URL_HOST_IPV4, 8443, "/x", NULL, NULL },

	/* IPv6 */
	{ "https://[2001:DB8:0:0::1]/", "https://[2001:db8::1]", "[2001:db8::1]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[::ffff:1.2.3.4]/", "https://[::ffff:102:304]", "[::ffff:102:304]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[0:0:0:0:0:ffff:1.2.3.4]/", "https://[::ffff:102:304]", "[::ffff:102:304]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[::1.2.3.4]/", "https://[::102:304]", "[::102:304]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[::1]:8443/", "https://[::1]:8443", "[::1]", URL_HOST_IPV6, 8443, "/", NULL, NULL },
	{ "https://[1:0:0:2:0:0:0:3]/", "https://[1:0:0:2::3]", "[1:0:0:2::3]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[1:0:0:2:0:0:3:4]/", "https://[1::2:0:0:3:4]", "[1::2:0:0:3:4]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[0:0:0:0:0:0:0:0]/", "https://[::]", "[::]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[1::]/", "https://[1::]", "[1::]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[1:2:3:4:5:6:7:8]/", "https://[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[1:0:2:3:4:5:6:7]/", "https://[1:0:2:3:4:5:6:7]", "[1:0:2:3:4:5:6:7]", URL_HOST_IPV6, 443, "/", NULL, NULL },
	{ "https://[0001:0DB8::00FF]/", "https://[1:db8::ff]", "[1:db8::ff]", URL_HOST_IPV6, 443, "/", NULL, NULL },

	/* dot segments */
	{ "https://h.example/a/../b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/b", NULL, NULL },
	{ "https://h.example/a/./b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a/b", NULL, NULL },
	{ "https://h.example/a/%2e/b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a/b", NULL, NULL },
	{ "https://h.example/a/%2E%2e/b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/b", NULL, NULL },
	{ "https://h.example/a/.%2E/b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/b", NULL, NULL },
	{ "https://h.example/a/%2e./b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/b", NULL, NULL },
	{ "https://h.example/a/b/..", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a/", NULL, NULL },
	{ "https://h.example/a/b/.", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a/b/", NULL, NULL },
	{ "https://h.example/a/b/%2E", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a/b/", NULL, NULL },
	{ "https://h.example/..", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/", NULL, NULL },
	{ "https://h.example/../../a", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a", NULL, NULL },
	{ "https://h.example//a", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "//a", NULL, NULL },
	{ "https://h.example/a/..%2f", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a/..%2f", NULL, NULL },
	{ "https://h.example/a/.../b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a/.../b", NULL, NULL },
	{ "https://h.example/a\\..\\b", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/b", NULL, NULL },
	{ "https://h.example/a/b\\..\\..\\c", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/c", NULL, NULL },

	/* percent-encoding */
	{ "https://h.example/a b\"c<d>e`f{g}h", "https://h.example", "h.example", URL_HOST_DOMAIN, 443,
	    "/a%20b%22c%3Cd%3Ee%60f%7Bg%7Dh", NULL, NULL },
	{ "https://h.example/a'b^c|d~", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a'b^c|d~", NULL, NULL },
	{ "https://h.example/caf\xc3\xa9/\xe6\x9d\xb1\xe4\xba\xac", "https://h.example", "h.example", URL_HOST_DOMAIN,
	    443, "/caf%C3%A9/%E6%9D%B1%E4%BA%AC", NULL, NULL },
	{ "https://h.example/a%2fb%7E", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a%2fb%7E", NULL, NULL },
	{ "https://h.example/a%", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/a%", NULL, NULL },
	{ "https://h.example/%zz", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/%zz", NULL, NULL },
	{ "https://h.example/\x7f", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/%7F", NULL, NULL },

	/* query and fragment: kept raw, not part of the path */
	{ "https://h.example?x=1", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/", "x=1", NULL },
	{ "https://h.example/p?q#f", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/p", "q", "f" },
	{ "https://h.example/p#f?g", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/p", NULL, "f?g" },
	{ "https://h.example/p?", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/p", "", NULL },
	{ "https://h.example/p?a b#c d", "https://h.example", "h.example", URL_HOST_DOMAIN, 443, "/p", "a b", "c d" },
};

struct invalid_case {
	const char *in;
	enum url_err want;
};

static const struct invalid_case invalid_cases[] = {
	{ "http://example.com/", URL_NOT_HTTPS },
	{ "ftp://x/", URL_NOT_HTTPS },
	{ "example.com/x", URL_NOT_HTTPS },
	{ "", URL_NOT_HTTPS },
	{ "   ", URL_NOT_HTTPS },
	{ "https//example.com", URL_NOT_HTTPS },
	{ "https://user:pass@example.com/", URL_CREDENTIALS },
	{ "https://user@example.com/", URL_CREDENTIALS },
	{ "https://@example.com/", URL_CREDENTIALS },   /* WHATWG allows it; we do not */
	{ "https://", URL_HOST_EMPTY },
	{ "https:///", URL_HOST_EMPTY },
	{ "https://?q", URL_HOST_EMPTY },
	{ "https://:443/", URL_HOST_EMPTY },
	{ "https://exa mple.com/", URL_HOST_FORBIDDEN },
	{ "https://exa%20mple.com/", URL_HOST_FORBIDDEN },
	{ "https://ex%2fmple.com/", URL_HOST_FORBIDDEN },
	{ "https://a%/", URL_HOST_FORBIDDEN },
	{ "https://a<b/", URL_HOST_FORBIDDEN },
	{ "https://a^b/", URL_HOST_FORBIDDEN },
	{ "https://a|b/", URL_HOST_FORBIDDEN },
	{ "https://a\x01" "b/", URL_HOST_FORBIDDEN },
	{ "https://b\xc3\xbc" "cher.example/", URL_IDN_UNSUPPORTED },
	{ "https://b%C3%BCcher.example/", URL_IDN_UNSUPPORTED },
	{ "https://%FF.example/", URL_IDN_UNSUPPORTED },
	{ "https://xn--/", URL_IDN_INVALID },
	{ "https://a.xn--/", URL_IDN_INVALID },
	{ "https://xn--a/", URL_IDN_INVALID },          /* decodes to U+0080 */
	{ "https://xn--zz/", URL_IDN_INVALID },         /* truncated Punycode */
	{ "https://xn---/", URL_IDN_INVALID },          /* decodes to nothing */
	{ "https://256.1.1.1/", URL_IPV4_INVALID },
	{ "https://1.2.3.4.5/", URL_IPV4_INVALID },
	{ "https://4294967296/", URL_IPV4_INVALID },
	{ "https://1.16777216/", URL_IPV4_INVALID },
	{ "https://foo.09/", URL_IPV4_INVALID },
	{ "https://foo.0x/", URL_IPV4_INVALID },
	{ "https://1..2/", URL_IPV4_INVALID },
	{ "https://0x100000000/", URL_IPV4_INVALID },
	{ "https://[::1/", URL_IPV6_INVALID },
	{ "https://[::1]x/", URL_IPV6_INVALID },
	{ "https://[1:2:3:4:5:6:7:8:9]/", URL_IPV6_INVALID },
	{ "https://[1::2::3]/", URL_IPV6_INVALID },
	{ "https://[12345::]/", URL_IPV6_INVALID },
	{ "https://[::1.2.3]/", URL_IPV6_INVALID },
	{ "https://[::1.2.3.04]/", URL_IPV6_INVALID },
	{ "https://[::256.1.1.1]/", URL_IPV6_INVALID },
	{ "https://[1:2:3:4:5:6:7:1.2.3.4]/", URL_IPV6_INVALID },
	{ "https://[::1%25eth0]/", URL_IPV6_INVALID },
	{ "https://[]/", URL_IPV6_INVALID },
	{ "https://[:1]/", URL_IPV6_INVALID },
	{ "https://[1:2]/", URL_IPV6_INVALID },
	{ "https://example.com:70000/", URL_PORT_INVALID },
	{ "https://example.com:65536/", URL_PORT_INVALID },
	{ "https://example.com:8a/", URL_PORT_INVALID },
	{ "https://example.com:-1/", URL_PORT_INVALID },
	{ "https://example.com:80:90/", URL_PORT_INVALID },
	{ "https://2001:db8::1/v1", URL_PORT_INVALID },
	{ "https://h.example/\xff", URL_BAD_UTF8 },
	{ "https://h.example/\xc0\xaf", URL_BAD_UTF8 },         /* overlong '/' */
	{ "https://h.example/\xed\xa0\x80", URL_BAD_UTF8 },     /* surrogate */
	{ "https://h.example/\xe6\x9d", URL_BAD_UTF8 },         /* truncated */
	{ "https://h.example/\xf4\x90\x80\x80", URL_BAD_UTF8 }, /* above U+10FFFF */
};

struct public_case {
	const char *in;
	unsigned flags;
	enum url_err want;
};

static const struct public_case public_cases[] = {
	{ "https://api.example.com/v1", 0, URL_OK },
	{ "https://api.example.com/v1", URL_EXACT, URL_OK },
	{ "https://api.example.com:8443/v1", URL_EXACT, URL_OK },
	{ "https://api.example.com/caf%C3%A9", URL_EXACT, URL_OK },
	{ "https://xn--bcher-kva.de/", URL_EXACT, URL_OK },
	{ "https://example.com./", URL_EXACT, URL_OK },

	/* rejected by the parser itself */
	{ "http://api.example.com/v1", 0, URL_NOT_HTTPS },
	{ "https://user:pw@api.example.com/v1", 0, URL_CREDENTIALS },
	{ "https://b\xc3\xbc" "cher.de/", 0, URL_IDN_UNSUPPORTED },

	/* IP literals */
	{ "https://127.0.0.1/", 0, URL_IP_LITERAL },
	{ "https://0x7f.1/", 0, URL_IP_LITERAL },
	{ "https://8.8.8.8/", 0, URL_IP_LITERAL },
	{ "https://[::1]/", 0, URL_IP_LITERAL },
	{ "https://[2001:db8::1]:8443/", 0, URL_IP_LITERAL },

	/* local and private names */
	{ "https://localhost/", 0, URL_LOCAL_HOST },
	{ "https://LOCALHOST./", 0, URL_LOCAL_HOST },
	{ "https://api.localhost/", 0, URL_LOCAL_HOST },
	{ "https://intranet/", 0, URL_LOCAL_HOST },
	{ "https://server./", 0, URL_LOCAL_HOST },
	{ "https://printer.local/", 0, URL_LOCAL_HOST },
	{ "https://db.localdomain/", 0, URL_LOCAL_HOST },
	{ "https://svc.internal/", 0, URL_LOCAL_HOST },
	{ "https://wiki.intranet/", 0, URL_LOCAL_HOST },
	{ "https://nas.lan/", 0, URL_LOCAL_HOST },
	{ "https://router.home/", 0, URL_LOCAL_HOST },
	{ "https://mail.corp/", 0, URL_LOCAL_HOST },
	{ "https://hub.home.arpa/", 0, URL_LOCAL_HOST },
	{ "https://home.arpa/", 0, URL_LOCAL_HOST },
	{ "https://a.test/", 0, URL_LOCAL_HOST },
	{ "https://www.example/", 0, URL_LOCAL_HOST },
	{ "https://x.invalid/", 0, URL_LOCAL_HOST },
	{ "https://abcdef.onion/", 0, URL_LOCAL_HOST },
	{ "https://API.Svc.Internal./x", 0, URL_LOCAL_HOST },
	/* near misses that are public */
	{ "https://mylocal.com/", 0, URL_OK },
	{ "https://localhost.com/", 0, URL_OK },
	{ "https://test.com/", 0, URL_OK },
	{ "https://local.example.com/", 0, URL_OK },
	{ "https://example.arpa/", 0, URL_OK },

	/* query and fragment */
	{ "https://api.example.com/v1?q=1", 0, URL_QUERY },
	{ "https://api.example.com/v1?", 0, URL_QUERY },
	{ "https://api.example.com/v1?q=1", URL_EXACT, URL_QUERY },
	{ "https://api.example.com/v1?q=1", URL_ALLOW_QUERY, URL_OK },
	{ "https://api.example.com/v1?q=1", URL_EXACT | URL_ALLOW_QUERY, URL_OK },
	{ "https://api.example.com/v1?", URL_EXACT | URL_ALLOW_QUERY, URL_OK },
	{ "https://api.example.com/v1?q=a b", URL_ALLOW_QUERY, URL_OK },
	{ "https://api.example.com/v1?q=a b", URL_EXACT | URL_ALLOW_QUERY, URL_NOT_EXACT },
	{ "https://api.example.com/v1?q='", URL_EXACT | URL_ALLOW_QUERY, URL_NOT_EXACT },
	{ "https://api.example.com/v1?q=\xc3\xa9", URL_EXACT | URL_ALLOW_QUERY, URL_NOT_EXACT },
	{ "https://api.example.com/v1?q=%C3%A9", URL_EXACT | URL_ALLOW_QUERY, URL_OK },
	{ "https://api.example.com/v1#f", 0, URL_FRAGMENT },
	{ "https://api.example.com/v1#", 0, URL_FRAGMENT },
	{ "https://api.example.com/v1#f", URL_EXACT, URL_FRAGMENT },
	{ "https://api.example.com/v1#f", URL_ALLOW_QUERY, URL_FRAGMENT },
	{ "https://api.example.com/v1?q#f", URL_ALLOW_QUERY, URL_FRAGMENT },

	/* unsafe reconstruction under URL_EXACT (all fine without it) */
	{ "https://API.example.com/v1", 0, URL_OK },
	{ "https://API.example.com/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com:443/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com:08443/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com/a/../v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com/./v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com/%2e%2e/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com\\v1", URL_EXACT, URL_NOT_EXACT },
	{ "https:\\\\api.example.com/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https:api.example.com/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https:///api.example.com/v1", URL_EXACT, URL_NOT_EXACT },
	{ "HTTPS://api.example.com/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com/v\t1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com/v1\n", URL_EXACT, URL_NOT_EXACT },
	{ " https://api.example.com/v1", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com", 0, URL_OK },
	{ "https://api.example.com", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com/a b", URL_EXACT, URL_NOT_EXACT },
	{ "https://api.example.com/caf\xc3\xa9", URL_EXACT, URL_NOT_EXACT },
	{ "https://ex%61mple.com/", URL_EXACT, URL_NOT_EXACT },
};

/* head followed by 'a' up to total bytes. */
static size_t
long_url(char *buf, const char *head, size_t total)
{
	size_t h = strlen(head);

	memcpy(buf, head, h);
	memset(buf + h, 'a', total - h);
	buf[total] = '\0';
	return total;
}

/* s with controls, '\\' and non-ASCII escaped, for one-line test names. */
static const char *
show(const char *s)
{
	static char out[4][512];
	static int slot;
	char *o = out[slot++ % 4];
	size_t n = 0;

	for (; *s != '\0' && n + 5 < sizeof(out[0]); s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			n += (size_t)snprintf(o + n, sizeof(out[0]) - n, "\\x%02x", c);
		else
			o[n++] = (char)c;
	}
	o[n] = '\0';
	return o;
}

static const char *
or_null(const char *s)
{
	return s != NULL ? s : "(none)";
}

static void
check_valid(const struct valid_case *c, struct url *u)
{
	enum url_err e = url_parse(c->in, strlen(c->in), u);

	if (!ok(e == URL_OK, "parse %s (%s)", show(c->in), url_strerror(e)))
		return;
	is_str(u->origin, c->origin, "  origin");
	is_str(u->host, c->host, "  host");
	is_str(u->path, c->path, "  path");
	ok(u->host_kind == c->kind && u->port == c->port && u->origin_len == strlen(u->origin) &&
	    u->host_len == strlen(u->host) && u->path_len == strlen(u->path),
	    "  kind %d, port %d and lengths", (int)u->host_kind, u->port);
	is_str(u->has_query ? u->query : "(none)", or_null(c->query), "  query");
	is_str(u->has_fragment ? u->fragment : "(none)", or_null(c->fragment), "  fragment");
}

int
main(void)
{
	static struct url u;
	static char big[URL_MAX + 64];
	size_t n;
	enum url_err e;

	for (size_t i = 0; i < sizeof(valid_cases) / sizeof(valid_cases[0]); i++)
		check_valid(&valid_cases[i], &u);

	for (size_t i = 0; i < sizeof(invalid_cases) / sizeof(invalid_cases[0]); i++) {
		const struct invalid_case *c = &invalid_cases[i];

		e = url_parse(c->in, strlen(c->in), &u);
		ok(e == c->want, "reject %s: %s (got %d, want %d)", show(c->in), url_strerror(c->want), (int)e,
		    (int)c->want);
	}

	/* Inputs that strlen cannot describe, and the size bound. */
	{
		static const char nul[] = "https://h.example/a\0b";

		e = url_parse(nul, sizeof(nul) - 1, &u);
		ok(e == URL_OK && strcmp(u.path, "/a%00b") == 0, "NUL in the path is encoded as %%00");
		e = url_parse("https://h\0.example/", 19, &u);
		ok(e == URL_HOST_FORBIDDEN, "NUL in the host is rejected");
		e = url_parse(NULL, 0, &u);
		ok(e == URL_NOT_HTTPS, "NULL with length 0 is not a URL");
	}
	n = long_url(big, "https://h.example/", URL_MAX);
	e = url_parse(big, n, &u);
	ok(e == URL_OK && u.path_len == URL_MAX - 17, "a %zu-byte URL is accepted", n);
	n = long_url(big, "https://h.example/", URL_MAX + 1);
	ok(url_parse(big, n, &u) == URL_TOO_LONG, "a %zu-byte URL is rejected", n);
	{
		/* Worst-case expansion: every path byte becomes %XX. */
		static char wide[URL_MAX + 1];
		static const char head[] = "https://h.example/";

		memcpy(wide, head, sizeof(head) - 1);
		memset(wide + sizeof(head) - 1, ' ', URL_MAX - (sizeof(head) - 1));
		memcpy(wide + URL_MAX - 1, "x", 1);
		e = url_parse(wide, URL_MAX, &u);
		ok(e == URL_OK && u.path_len == 1 + 3 * (URL_MAX - 19) + 1,
		    "a path of %d spaces encodes to %zu bytes", URL_MAX - 19, u.path_len);
	}

	for (size_t i = 0; i < sizeof(public_cases) / sizeof(public_cases[0]); i++) {
		const struct public_case *c = &public_cases[i];

		e = url_check_public(c->in, strlen(c->in), c->flags, &u);
		ok(e == c->want, "public %s%s%s: %s (got %d)", show(c->in),
		    (c->flags & URL_EXACT) ? " EXACT" : "", (c->flags & URL_ALLOW_QUERY) ? " ALLOW_QUERY" : "",
		    url_strerror(c->want), (int)e);
	}
	ok(url_check_public("https://api.example.com/v1", 26, URL_EXACT, NULL) == URL_OK,
	    "url_check_public accepts a NULL out");
	n = long_url(big, "https://api.example.com/", URL_PUBLIC_MAX);
	ok(url_check_public(big, n, URL_EXACT, &u) == URL_OK, "public: %zu bytes accepted", n);
	n = long_url(big, "https://api.example.com/", URL_PUBLIC_MAX + 1);
	ok(url_check_public(big, n, URL_EXACT, &u) == URL_PUBLIC_TOO_LONG, "public: %zu bytes rejected", n);
	ok(url_parse(big, n, &u) == URL_OK, "  but url_parse accepts %zu bytes", n);

	{
		bool distinct = true;

		for (int a = 0; a < URL_ERR__MAX; a++)
			for (int b = a + 1; b < URL_ERR__MAX; b++)
				if (strcmp(url_strerror((enum url_err)a), url_strerror((enum url_err)b)) == 0)
					distinct = false;
		ok(distinct, "url_strerror gives a distinct sentence per code");
		ok(url_strerror(URL_ERR__MAX) != NULL && url_strerror((enum url_err)-1) != NULL,
		    "url_strerror survives out-of-range codes");
		is_str(url_strerror(URL_CREDENTIALS), "the URL must not contain credentials",
		    "url_strerror(URL_CREDENTIALS)");
	}
	return done_testing();
}
