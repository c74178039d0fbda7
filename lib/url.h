/*
 * url.h: absolute https URLs, parsed and normalized the way the WHATWG URL
 * Standard (`new URL()` in Node and browsers) does for the special scheme
 * https, plus the public URL policy (docs/PROTOCOL.md, Public URL policy).
 *
 * What is implemented, and what is not:
 * - Leading and trailing C0 controls and spaces are stripped; tab, LF and
 *   CR are removed anywhere. The scheme must be https (any case). '\' is
 *   read as '/', and any number of slashes may follow "https:".
 * - Userinfo is never accepted: any '@' in the authority is
 *   URL_CREDENTIALS, even an empty "https://@host/" that WHATWG allows.
 * - Hosts: domains are percent-decoded and ASCII-lowercased. We do NOT
 *   implement UTS-46 (IDNA mapping): a host with any non-ASCII character
 *   after percent-decoding is URL_IDN_UNSUPPORTED, so callers must send
 *   internationalized names as xn-- A-labels. An xn-- label is checked to
 *   be well-formed Punycode that decodes to a non-empty label without
 *   control characters or surrogates; the decoded label is not checked
 *   against the Unicode IDNA tables, so a few A-labels that browsers reject
 *   (for example xn--a-ecp, "a" + U+2488) are accepted here.
 *   Hosts whose last label is a number are IPv4 (decimal, 0x-hex and
 *   leading-zero octal parts, 1 to 4 of them) and are serialized as dotted
 *   decimal; bracketed hosts are IPv6, serialized compressed and lowercase.
 * - The port is dropped from the origin when it is 443; "host:" means 443.
 * - The path is split on '/' and '\', dot segments ("." ".." and their
 *   %2e forms) are resolved, and controls, space, " < > ` { } and every
 *   non-ASCII byte are percent-encoded with uppercase hex. Existing %xx
 *   escapes keep their case; a bare '%' is left alone, as WHATWG does.
 * - Query and fragment are kept raw (after tab/LF/CR removal) and are not
 *   part of the origin or path.
 * - Input must be valid UTF-8 and at most URL_MAX bytes.
 *
 * Return conventions: url_parse and url_check_public return an enum
 * url_err (URL_OK is 0) because callers report which rule failed. They
 * never allocate; the struct url holds every result in fixed arrays
 * (about 29 KB) and belongs to the caller.
 */
#ifndef WAYMARK_URL_H
#define WAYMARK_URL_H

#include <stdbool.h>
#include <stddef.h>

#define URL_MAX 4096            /* longest accepted input, in bytes */
#define URL_PUBLIC_MAX 2048     /* longest URL the public policy accepts */
#define URL_DEFAULT_PORT 443

/* Capacities, each including the NUL. */
#define URL_HOST_SIZE (URL_MAX + 1)
#define URL_ORIGIN_SIZE (sizeof("https://") - 1 + URL_HOST_SIZE + sizeof(":65535") - 1)
#define URL_PATH_SIZE (3 * URL_MAX + 1)
#define URL_PART_SIZE (URL_MAX + 1)

/* url_check_public flags. */
#define URL_EXACT 0x1u          /* input must equal its normalized form */
#define URL_ALLOW_QUERY 0x2u    /* a query is allowed (a fragment never is) */

enum url_err {
	URL_OK = 0,
	URL_TOO_LONG,           /* over URL_MAX bytes */
	URL_BAD_UTF8,           /* input is not valid UTF-8 */
	URL_NOT_HTTPS,          /* no scheme, or a scheme other than https */
	URL_CREDENTIALS,        /* '@' in the authority */
	URL_HOST_EMPTY,         /* no host */
	URL_HOST_FORBIDDEN,     /* a forbidden domain code point in the host */
	URL_IDN_UNSUPPORTED,    /* non-ASCII host: send the xn-- form */
	URL_IDN_INVALID,        /* an xn-- label that is not valid Punycode */
	URL_IPV4_INVALID,       /* host ends in a number but is not IPv4 */
	URL_IPV6_INVALID,       /* bad bracketed IPv6 literal */
	URL_PORT_INVALID,       /* port not all digits, or over 65535 */
	/* Only from url_check_public: */
	URL_PUBLIC_TOO_LONG,    /* over URL_PUBLIC_MAX bytes */
	URL_IP_LITERAL,         /* host is an IPv4 or IPv6 address */
	URL_LOCAL_HOST,         /* host is local or private, see below */
	URL_QUERY,              /* a query without URL_ALLOW_QUERY */
	URL_FRAGMENT,           /* a fragment */
	URL_NOT_EXACT,          /* URL_EXACT and input != normalized form */
	URL_ERR__MAX
};

enum url_host_kind {
	URL_HOST_DOMAIN,
	URL_HOST_IPV4,
	URL_HOST_IPV6,
	URL_HOST__MAX
};

struct url {
	char origin[URL_ORIGIN_SIZE];   /* "https://" host [":" port] */
	size_t origin_len;
	char host[URL_HOST_SIZE];       /* lowercase; IPv6 keeps its brackets */
	size_t host_len;
	enum url_host_kind host_kind;
	int port;                       /* 443 when none or default */
	char path[URL_PATH_SIZE];       /* starts with '/', percent-encoded */
	size_t path_len;
	bool has_query;
	char query[URL_PART_SIZE];      /* raw, without the '?' */
	size_t query_len;
	bool has_fragment;
	char fragment[URL_PART_SIZE];   /* raw, without the '#' */
	size_t fragment_len;
};

/*
 * Parse and normalize s[0..len) as described above into *out. Returns
 * URL_OK, or the first rule the input breaks; *out is then unspecified.
 * s need not be NUL-terminated and may be NULL when len is 0.
 */
enum url_err url_parse(const char *s, size_t len, struct url *out);

/*
 * The public URL policy (docs/PROTOCOL.md, Public URL policy: "public HTTPS
 * URL, max 2048;
 * credentials, IP literals, local hosts and unsafe reconstruction are
 * rejected"). Runs url_parse, then rejects, in this order:
 * - input over URL_PUBLIC_MAX bytes (URL_PUBLIC_TOO_LONG, checked first);
 * - an IPv4 or IPv6 host (URL_IP_LITERAL);
 * - a local or private host name (URL_LOCAL_HOST), ignoring one trailing
 *   dot: a single label (no dot), "localhost", or a name equal to or
 *   ending in "." followed by one of: localhost, local, localdomain,
 *   internal, intranet, lan, home, corp, home.arpa, test, example,
 *   invalid, onion;
 * - a fragment (URL_FRAGMENT), always;
 * - a query unless flags has URL_ALLOW_QUERY (URL_QUERY);
 * - with URL_EXACT, unless s equals origin + path, followed by "?" and
 *   the query when there is one, and the query needs no percent-encoding
 *   (URL_NOT_EXACT). Dot segments, backslashes, uppercase hosts, default
 *   ports, spaces, tabs and missing root slashes all fail this.
 * out may be NULL; otherwise it holds the parse on return.
 */
enum url_err url_check_public(const char *s, size_t len, unsigned flags, struct url *out);

/* One short English sentence for e; never NULL, static storage. */
const char *url_strerror(enum url_err e);

/*
 * Strictly percent-decode s[0..n) into out (room for n + 1 bytes; the
 * result is NUL-terminated) for request paths and queries; with
 * plus_is_space, '+' decodes to a space (query components). Returns 0, or
 * -1 on a truncated or non-hex escape and on "%00" (NUL is never let in).
 */
int url_pct_decode(const char *s, size_t n, bool plus_is_space, char *out, size_t *outlen);

#endif
