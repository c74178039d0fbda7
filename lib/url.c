/*
 * url.c: WHATWG-style parsing of absolute https URLs (see url.h). The
 * steps follow the URL Standard's basic URL parser with no base URL and
 * no state override, specialised to the one scheme we accept.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hex.h"
#include "url.h"
#include "utf8.h"
#include "banned.h"

static const char *const url_messages[URL_ERR__MAX] = {
	[URL_OK] = "the URL is valid",
	[URL_TOO_LONG] = "the URL is longer than 4096 bytes",
	[URL_BAD_UTF8] = "the URL is not valid UTF-8",
	[URL_NOT_HTTPS] = "the URL must be an absolute https URL",
	[URL_CREDENTIALS] = "the URL must not contain credentials",
	[URL_HOST_EMPTY] = "the URL has no host",
	[URL_HOST_FORBIDDEN] = "the URL host contains a character that is not allowed",
	[URL_IDN_UNSUPPORTED] = "the URL host must be ASCII (use the xn-- form of the name)",
	[URL_IDN_INVALID] = "the URL host has an invalid xn-- label",
	[URL_IPV4_INVALID] = "the URL host is not a valid IPv4 address",
	[URL_IPV6_INVALID] = "the URL host is not a valid IPv6 address",
	[URL_PORT_INVALID] = "the URL port must be a number from 0 to 65535",
	[URL_PUBLIC_TOO_LONG] = "the URL is longer than 2048 bytes",
	[URL_IP_LITERAL] = "the URL host must be a name, not an IP address",
	[URL_LOCAL_HOST] = "the URL host must be a public domain name",
	[URL_QUERY] = "the URL must not have a query",
	[URL_FRAGMENT] = "the URL must not have a fragment",
	[URL_NOT_EXACT] = "the URL must be given in its normalized form",
};

const char *
url_strerror(enum url_err e)
{
	if ((unsigned)e >= URL_ERR__MAX || url_messages[e] == NULL)
		return "the URL is not valid";
	return url_messages[e];
}

static bool
is_slash(char c)
{
	return c == '/' || c == '\\';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char
to_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* --- IPv4 ------------------------------------------------------------ */

/*
 * The URL Standard's IPv4 number parser on s[0..n). Values above 2^32 are
 * clamped to 2^32, which every caller rejects anyway. -1 on failure.
 */
static int
ipv4_number(const char *s, size_t n, uint64_t *out)
{
	unsigned radix = 10;
	uint64_t v = 0;

	if (n == 0)
		return -1;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		radix = 16;
		s += 2;
		n -= 2;
	} else if (n >= 2 && s[0] == '0') {
		radix = 8;
		s++;
		n--;
	}
	for (size_t i = 0; i < n; i++) {
		int d = hex_digit((unsigned char)s[i]);

		if (d < 0 || (unsigned)d >= radix)
			return -1;
		v = v * radix + (unsigned)d;
		if (v > UINT64_C(0x100000000))
			v = UINT64_C(0x100000000);
	}
	*out = v;
	return 0;
}

/* The URL Standard's "ends in a number" test on a lowercased host. */
static bool
ipv4_ends_in_number(const char *s, size_t n)
{
	size_t end = n, start;
	uint64_t v;
	bool digits = true;

	if (end > 0 && s[end - 1] == '.')
		end--;  /* ignore one empty last label */
	start = end;
	while (start > 0 && s[start - 1] != '.')
		start--;
	if (start == end)
		return false;
	for (size_t i = start; i < end; i++)
		if (!is_digit(s[i]))
			digits = false;
	if (digits)
		return true;
	return ipv4_number(s + start, end - start, &v) == 0;
}

static int
ipv4_parse(const char *s, size_t n, uint32_t *out)
{
	uint64_t nums[4], v;
	size_t count = 0, start = 0;

	if (n > 1 && s[n - 1] == '.')
		n--;    /* one empty last part is dropped */
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '.')
			continue;
		if (count == 4)
			return -1;
		if (ipv4_number(s + start, i - start, &nums[count]) < 0)
			return -1;
		count++;
		start = i + 1;
	}
	for (size_t i = 0; i + 1 < count; i++)
		if (nums[i] > 255)
			return -1;
	if (nums[count - 1] >= (UINT64_C(1) << (8 * (5 - count))))
		return -1;
	v = nums[count - 1];
	for (size_t i = 0; i + 1 < count; i++)
		v += nums[i] << (8 * (3 - i));
	*out = (uint32_t)v;
	return 0;
}

/* --- IPv6 ------------------------------------------------------------ */

/* The URL Standard's IPv6 parser on the text between the brackets. */
static int
ipv6_parse(const char *s, size_t n, uint16_t a[8])
{
	size_t i = 0;
	int piece = 0, compress = -1;

	memset(a, 0, 8 * sizeof(a[0]));
	if (n > 0 && s[0] == ':') {
		if (n < 2 || s[1] != ':')
			return -1;
		i = 2;
		piece = 1;
		compress = 1;
	}
	while (i < n) {
		unsigned value = 0;
		size_t length = 0;

		if (piece == 8)
			return -1;
		if (s[i] == ':') {
			if (compress != -1)
				return -1;
			i++;
			piece++;
			compress = piece;
			continue;
		}
		while (length < 4 && i < n && hex_digit((unsigned char)s[i]) >= 0) {
			value = value * 16 + (unsigned)hex_digit((unsigned char)s[i]);
			i++;
			length++;
		}
		if (i < n && s[i] == '.') {
			int seen = 0;

			if (length == 0)
				return -1;
			i -= length;
			if (piece > 6)
				return -1;
			while (i < n) {
				int v4 = -1;

				if (seen > 0) {
					if (s[i] == '.' && seen < 4)
						i++;
					else
						return -1;
				}
				if (i >= n || !is_digit(s[i]))
					return -1;
				while (i < n && is_digit(s[i])) {
					int d = s[i] - '0';

					if (v4 == -1)
						v4 = d;
					else if (v4 == 0)
						return -1;
					else
						v4 = v4 * 10 + d;
					if (v4 > 255)
						return -1;
					i++;
				}
				a[piece] = (uint16_t)(a[piece] * 0x100 + v4);
				seen++;
				if (seen == 2 || seen == 4)
					piece++;
			}
			if (seen != 4)
				return -1;
			break;
		} else if (i < n && s[i] == ':') {
			i++;
			if (i >= n)
				return -1;
		} else if (i < n)
			return -1;
		a[piece] = (uint16_t)value;
		piece++;
	}
	if (compress != -1) {
		int swaps = piece - compress;

		piece = 7;
		while (piece != 0 && swaps > 0) {
			uint16_t t = a[piece];

			a[piece] = a[compress + swaps - 1];
			a[compress + swaps - 1] = t;
			piece--;
			swaps--;
		}
	} else if (piece != 8)
		return -1;
	return 0;
}

/* Writes "[...]" per the URL Standard's IPv6 serializer; returns length. */
static size_t
ipv6_serialize(const uint16_t a[8], char *out, size_t cap)
{
	int compress = -1, best = 1;
	size_t len = 0;
	bool ignore0 = false;

	for (int i = 0; i < 8;) {
		int j = i;

		while (j < 8 && a[j] == 0)
			j++;
		if (j - i > best) {
			best = j - i;
			compress = i;
		}
		i = j > i ? j : i + 1;
	}
	out[len++] = '[';
	for (int i = 0; i < 8; i++) {
		int w;

		if (ignore0 && a[i] == 0)
			continue;
		ignore0 = false;
		if (compress == i) {
			w = snprintf(out + len, cap - len, "%s", i == 0 ? "::" : ":");
			len += (size_t)w;
			ignore0 = true;
			continue;
		}
		w = snprintf(out + len, cap - len, "%x%s", a[i], i == 7 ? "" : ":");
		len += (size_t)w;
	}
	out[len++] = ']';
	out[len] = '\0';
	return len;
}

/* --- Punycode (RFC 3492), checked but not kept ----------------------- */

static uint32_t
puny_adapt(uint32_t delta, uint32_t points, bool first)
{
	uint32_t k = 0;

	delta = first ? delta / 700 : delta / 2;
	delta += delta / points;
	while (delta > ((36 - 1) * 26) / 2) {
		delta /= 36 - 1;
		k += 36;
	}
	return k + (36 * delta) / (delta + 38);
}

/*
 * True when s[0..n) (the part after "xn--", lowercase) is Punycode that
 * decodes to a non-empty label with no control, surrogate or out-of-range
 * code point.
 */
static bool
puny_valid(const char *s, size_t n)
{
	const uint32_t maxint = 0x7fffffff;
	uint32_t code = 128, i = 0, bias = 72, count = 0;
	size_t in = 0;

	/*
	 * The basic code points run up to the last '-'. Like browsers (and
	 * unlike RFC 3492's sample code) a leading '-' delimits an empty
	 * basic part rather than being read as a digit.
	 */
	for (size_t k = 0; k < n; k++)
		if (s[k] == '-') {
			count = (uint32_t)k;
			in = k + 1;
		}
	while (in < n) {
		uint32_t oldi = i, w = 1;

		for (uint32_t k = 36;; k += 36) {
			uint32_t digit, t;
			char c;

			if (in >= n)
				return false;
			c = s[in++];
			if (c >= 'a' && c <= 'z')
				digit = (uint32_t)(c - 'a');
			else if (c >= '0' && c <= '9')
				digit = (uint32_t)(c - '0' + 26);
			else
				return false;
			if (digit > (maxint - i) / w)
				return false;
			i += digit * w;
			t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
			if (digit < t)
				break;
			if (w > maxint / (36 - t))
				return false;
			w *= 36 - t;
		}
		count++;
		bias = puny_adapt(i - oldi, count, oldi == 0);
		if (i / count > maxint - code)
			return false;
		code += i / count;
		i %= count;
		if (code < 0xa0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
			return false;
		i++;
	}
	return count > 0;
}

/* --- Host ------------------------------------------------------------- */

static bool
forbidden_domain_byte(unsigned char c)
{
	return c <= 0x20 || c == 0x7f || strchr("#%/:<>?@[\\]^|", c) != NULL;
}

static enum url_err
host_parse(const char *s, size_t n, struct url *out)
{
	char *h = out->host;
	size_t len = 0;

	if (n == 0)
		return URL_HOST_EMPTY;
	if (s[0] == '[') {
		uint16_t a[8];

		if (n < 2 || s[n - 1] != ']' || ipv6_parse(s + 1, n - 2, a) < 0)
			return URL_IPV6_INVALID;
		out->host_len = ipv6_serialize(a, h, URL_HOST_SIZE);
		out->host_kind = URL_HOST_IPV6;
		return URL_OK;
	}

	/* Percent-decode (a '%' not followed by two hex digits stays). */
	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (s[i] == '%' && i + 2 < n && (hi = hex_digit((unsigned char)s[i + 1])) >= 0 &&
		    (lo = hex_digit((unsigned char)s[i + 2])) >= 0) {
			h[len++] = (char)(hi << 4 | lo);
			i += 2;
		} else
			h[len++] = s[i];
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)h[i] >= 0x80)
			return URL_IDN_UNSUPPORTED;
	for (size_t i = 0; i < len; i++) {
		h[i] = to_lower(h[i]);
		if (forbidden_domain_byte((unsigned char)h[i]))
			return URL_HOST_FORBIDDEN;
	}
	h[len] = '\0';

	for (size_t start = 0; start <= len;) {
		const char *dot = memchr(h + start, '.', len - start);
		size_t end = dot ? (size_t)(dot - h) : len;

		if (end - start >= 4 && memcmp(h + start, "xn--", 4) == 0 &&
		    !puny_valid(h + start + 4, end - start - 4))
			return URL_IDN_INVALID;
		start = end + 1;
	}

	if (ipv4_ends_in_number(h, len)) {
		uint32_t v;
		int w;

		if (ipv4_parse(h, len, &v) < 0)
			return URL_IPV4_INVALID;
		w = snprintf(h, URL_HOST_SIZE, "%u.%u.%u.%u", (unsigned)(v >> 24),
		    (unsigned)(v >> 16 & 0xff), (unsigned)(v >> 8 & 0xff), (unsigned)(v & 0xff));
		out->host_len = (size_t)w;
		out->host_kind = URL_HOST_IPV4;
		return URL_OK;
	}
	out->host_len = len;
	out->host_kind = URL_HOST_DOMAIN;
	return URL_OK;
}

/* --- Path ------------------------------------------------------------- */

static bool
path_encode_byte(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || c == '"' || c == '#' || c == '<' || c == '>' ||
	    c == '?' || c == '`' || c == '{' || c == '}';
}

static bool
seg_is(const char *s, size_t n, const char *dotted)
{
	size_t m = strlen(dotted);

	if (n != m)
		return false;
	for (size_t i = 0; i < n; i++)
		if (to_lower(s[i]) != dotted[i])
			return false;
	return true;
}

static bool
seg_single_dot(const char *s, size_t n)
{
	return seg_is(s, n, ".") || seg_is(s, n, "%2e");
}

static bool
seg_double_dot(const char *s, size_t n)
{
	return seg_is(s, n, "..") || seg_is(s, n, ".%2e") || seg_is(s, n, "%2e.") ||
	    seg_is(s, n, "%2e%2e");
}

/*
 * Parse the path s[0..n) (starting just after the authority) into
 * out->path. s holds no '?' or '#'.
 */
static enum url_err
path_parse(const char *s, size_t n, struct url *out)
{
	static const char hexup[] = "0123456789ABCDEF";
	char *p = out->path;
	size_t len = 0, i = 0;

	if (i < n && is_slash(s[i]))
		i++;
	for (;;) {
		size_t seg = len + 1;   /* where this segment's text starts */
		bool more;

		if (len + 1 >= URL_PATH_SIZE)
			return URL_TOO_LONG;
		p[len++] = '/';
		while (i < n && !is_slash(s[i])) {
			unsigned char c = (unsigned char)s[i++];

			if (path_encode_byte(c)) {
				if (len + 3 >= URL_PATH_SIZE)
					return URL_TOO_LONG;
				p[len++] = '%';
				p[len++] = hexup[c >> 4];
				p[len++] = hexup[c & 0xf];
			} else {
				if (len + 1 >= URL_PATH_SIZE)
					return URL_TOO_LONG;
				p[len++] = (char)c;
			}
		}
		more = i < n;   /* stopped at a slash */
		if (seg_double_dot(p + seg, len - seg)) {
			len = seg - 1;
			while (len > 0 && p[len - 1] != '/')
				len--;
			if (len > 0)
				len--;  /* the previous segment and its '/' */
			if (!more)
				p[len++] = '/';
		} else if (seg_single_dot(p + seg, len - seg)) {
			len = seg - 1;
			if (!more)
				p[len++] = '/';
		}
		if (!more)
			break;
		i++;
	}
	if (len == 0)
		p[len++] = '/';
	p[len] = '\0';
	out->path_len = len;
	return URL_OK;
}

/* --- URL -------------------------------------------------------------- */

enum url_err
url_parse(const char *s, size_t len, struct url *out)
{
	char in[URL_MAX];
	size_t n = 0, a = 0, b = len, i, auth, auth_end, colon, end;
	bool brackets = false;
	enum url_err e;

	memset(out, 0, sizeof(*out));
	out->port = URL_DEFAULT_PORT;
	if (len > URL_MAX)
		return URL_TOO_LONG;
	if (!utf8_valid(s, len))
		return URL_BAD_UTF8;

	/* Strip C0 controls and spaces at both ends, tab/LF/CR everywhere. */
	while (a < b && (unsigned char)s[a] <= 0x20)
		a++;
	while (b > a && (unsigned char)s[b - 1] <= 0x20)
		b--;
	for (i = a; i < b; i++)
		if (s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			in[n++] = s[i];

	/* Scheme: "https:" in any case. */
	if (n < 6 || to_lower(in[0]) != 'h' || to_lower(in[1]) != 't' || to_lower(in[2]) != 't' ||
	    to_lower(in[3]) != 'p' || to_lower(in[4]) != 's' || in[5] != ':')
		return URL_NOT_HTTPS;
	i = 6;
	while (i < n && is_slash(in[i]))
		i++;

	/* Authority: up to '/', '\', '?', '#' or the end. */
	auth = i;
	while (i < n && !is_slash(in[i]) && in[i] != '?' && in[i] != '#')
		i++;
	auth_end = i;
	if (memchr(in + auth, '@', auth_end - auth) != NULL)
		return URL_CREDENTIALS;

	colon = auth_end;
	for (size_t k = auth; k < auth_end; k++) {
		if (in[k] == '[')
			brackets = true;
		else if (in[k] == ']')
			brackets = false;
		else if (in[k] == ':' && !brackets) {
			colon = k;
			break;
		}
	}
	if (colon == auth)
		return URL_HOST_EMPTY;
	e = host_parse(in + auth, colon - auth, out);
	if (e != URL_OK)
		return e;

	if (colon < auth_end) {
		long port = 0;

		for (size_t k = colon + 1; k < auth_end; k++) {
			if (!is_digit(in[k]))
				return URL_PORT_INVALID;
			port = port * 10 + (in[k] - '0');
			if (port > 65535)
				return URL_PORT_INVALID;
		}
		if (colon + 1 < auth_end)
			out->port = (int)port;
	}

	/* Path, query, fragment. */
	end = auth_end;
	while (end < n && in[end] != '?' && in[end] != '#')
		end++;
	e = path_parse(in + auth_end, end - auth_end, out);
	if (e != URL_OK)
		return e;
	if (end < n && in[end] == '?') {
		size_t q = end + 1;

		end = q;
		while (end < n && in[end] != '#')
			end++;
		out->has_query = true;
		out->query_len = end - q;
		memcpy(out->query, in + q, out->query_len);
		out->query[out->query_len] = '\0';
	}
	if (end < n && in[end] == '#') {
		out->has_fragment = true;
		out->fragment_len = n - end - 1;
		memcpy(out->fragment, in + end + 1, out->fragment_len);
		out->fragment[out->fragment_len] = '\0';
	}

	{
		int w;

		if (out->port == URL_DEFAULT_PORT)
			w = snprintf(out->origin, sizeof(out->origin), "https://%s", out->host);
		else
			w = snprintf(out->origin, sizeof(out->origin), "https://%s:%d", out->host,
			    out->port);
		if (w < 0 || (size_t)w >= sizeof(out->origin))
			return URL_TOO_LONG;
		out->origin_len = (size_t)w;
	}
	return URL_OK;
}

/* --- Public policy ------------------------------------------------------ */

static const char *const local_suffixes[] = {
	"localhost", "local", "localdomain", "internal", "intranet", "lan", "home",
	"corp", "home.arpa", "test", "example", "invalid", "onion",
};

static bool
host_is_local(const char *h, size_t n)
{
	if (n > 0 && h[n - 1] == '.')
		n--;
	if (memchr(h, '.', n) == NULL)
		return true;    /* a single label, "localhost" included */
	for (size_t k = 0; k < sizeof(local_suffixes) / sizeof(local_suffixes[0]); k++) {
		const char *suf = local_suffixes[k];
		size_t m = strlen(suf);

		if (n == m && memcmp(h, suf, m) == 0)
			return true;
		if (n > m && h[n - m - 1] == '.' && memcmp(h + n - m, suf, m) == 0)
			return true;
	}
	return false;
}

/* The WHATWG special-query percent-encode set. */
static bool
query_encode_byte(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || c == '"' || c == '#' || c == '<' || c == '>' ||
	    c == '\'';
}

static bool
url_is_exact(const char *s, size_t len, const struct url *u)
{
	size_t off = 0;

	if (len < u->origin_len + u->path_len)
		return false;
	if (memcmp(s, u->origin, u->origin_len) != 0)
		return false;
	off = u->origin_len;
	if (memcmp(s + off, u->path, u->path_len) != 0)
		return false;
	off += u->path_len;
	if (u->has_query) {
		if (len - off != 1 + u->query_len || s[off] != '?' ||
		    memcmp(s + off + 1, u->query, u->query_len) != 0)
			return false;
		for (size_t i = 0; i < u->query_len; i++)
			if (query_encode_byte((unsigned char)u->query[i]))
				return false;
		return true;
	}
	return off == len;
}

enum url_err
url_check_public(const char *s, size_t len, unsigned flags, struct url *out)
{
	struct url local;
	struct url *u = out != NULL ? out : &local;
	enum url_err e;

	if (len > URL_PUBLIC_MAX) {
		memset(u, 0, sizeof(*u));
		return URL_PUBLIC_TOO_LONG;
	}
	e = url_parse(s, len, u);
	if (e != URL_OK)
		return e;
	if (u->host_kind != URL_HOST_DOMAIN)
		return URL_IP_LITERAL;
	if (host_is_local(u->host, u->host_len))
		return URL_LOCAL_HOST;
	if (u->has_fragment)
		return URL_FRAGMENT;
	if (u->has_query && !(flags & URL_ALLOW_QUERY))
		return URL_QUERY;
	if ((flags & URL_EXACT) && !url_is_exact(s, len, u))
		return URL_NOT_EXACT;
	return URL_OK;
}

int
url_pct_decode(const char *s, size_t n, bool plus_is_space, char *out, size_t *outlen)
{
	size_t j = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%') {
			int hi, lo;

			if (i + 2 >= n)
				return -1;
			hi = hex_digit((unsigned char)s[i + 1]);
			lo = hex_digit((unsigned char)s[i + 2]);
			if (hi < 0 || lo < 0 || (hi | lo) == 0)
				return -1;
			out[j++] = (char)(hi << 4 | lo);
			i += 2;
		} else {
			out[j++] = plus_is_space && s[i] == '+' ? ' ' : s[i];
		}
	}
	out[j] = '\0';
	*outlen = j;
	return 0;
}
