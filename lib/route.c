/* route.c: routeId derivation (see route.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hex.h"
#include "keccak.h"
#include "route.h"
#include "url.h"
#include "banned.h"

static const char *const route_messages[ROUTE_ERR__MAX] = {
	[ROUTE_OK] = "the route is valid",
	[ROUTE_BAD_METHOD] =
	    "the method must be an HTTP token of 1 to 64 characters, not CONNECT, TRACE or TRACK",
	[ROUTE_BAD_URL] = "the URL is not a valid https URL",
	[ROUTE_BAD_PATH] = "the URL path has a bare '%' or a forbidden character",
};

const char *
route_strerror(enum route_err e)
{
	if ((unsigned)e >= ROUTE_ERR__MAX || route_messages[e] == NULL)
		return "the route is not valid";
	return route_messages[e];
}

/* RFC 9110 tchar. */
static bool
is_tchar(unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
		return true;
	return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

int
route_method_normalize(const char *m, size_t len, char out[ROUTE_METHOD_MAX + 1])
{
	static const char *const forbidden[] = { "CONNECT", "TRACE", "TRACK" };
	char tmp[ROUTE_METHOD_MAX + 1];

	if (m == NULL || len == 0 || len > ROUTE_METHOD_MAX)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)m[i];

		if (!is_tchar(c))
			return -1;
		tmp[i] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : (char)c;
	}
	tmp[len] = '\0';
	for (size_t k = 0; k < sizeof(forbidden) / sizeof(forbidden[0]); k++)
		if (strcmp(tmp, forbidden[k]) == 0)
			return -1;
	memcpy(out, tmp, len + 1);
	return 0;
}

/*
 * The final check on a normalized path: starts with '/', no C0, space,
 * DEL, non-ASCII (the path is ASCII after encoding, so this covers C1)
 * or backslash, and every '%' starts a %XX escape.
 */
static bool
path_final_ok(const char *p, size_t n)
{
	if (n == 0 || p[0] != '/')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c <= 0x20 || c >= 0x7f || c == '\\')
			return false;
		if (c == '%') {
			if (n - i < 3 || hex_digit((unsigned char)p[i + 1]) < 0 ||
			    hex_digit((unsigned char)p[i + 2]) < 0)
				return false;
			i += 2;
		}
	}
	return true;
}

enum route_err
route_id(const char *method, size_t method_len, const char *url, size_t url_len,
    uint8_t out[ROUTE_ID_LEN], struct route_parts *parts)
{
	static const char domain[] = ROUTE_DOMAIN;
	struct route_parts local;
	struct route_parts *rp = parts != NULL ? parts : &local;
	struct keccak_ctx c;

	rp->method[0] = '\0';
	rp->url_err = URL_OK;
	if (route_method_normalize(method, method_len, rp->method) < 0) {
		memset(&rp->url, 0, sizeof(rp->url));
		return ROUTE_BAD_METHOD;
	}
	rp->url_err = url_parse(url, url_len, &rp->url);
	if (rp->url_err != URL_OK)
		return ROUTE_BAD_URL;
	if (!path_final_ok(rp->url.path, rp->url.path_len))
		return ROUTE_BAD_PATH;

	keccak_init(&c);
	keccak_update(&c, domain, sizeof(domain) - 1);
	keccak_update(&c, "\n", 1);
	keccak_update(&c, rp->method, strlen(rp->method));
	keccak_update(&c, "\n", 1);
	keccak_update(&c, rp->url.origin, rp->url.origin_len);
	keccak_update(&c, "\n", 1);
	keccak_update(&c, rp->url.path, rp->url.path_len);
	keccak_final(&c, out);
	return ROUTE_OK;
}

enum route_err
route_id_hex(const char *method, size_t method_len, const char *url, size_t url_len,
    char out[ROUTE_ID_HEX_SIZE], struct route_parts *parts)
{
	uint8_t id[ROUTE_ID_LEN];
	enum route_err e = route_id(method, method_len, url, url_len, id, parts);

	if (e == ROUTE_OK)
		hex_encode(id, sizeof(id), out);
	return e;
}
