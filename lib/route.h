/*
 * route.h: route identity (docs/PROTOCOL.md, Route IDs).
 *
 *   routeId = keccak256(utf8("<brand>:x402-route:v1" "\n" METHOD "\n"
 *                            ORIGIN "\n" PATH))
 *
 * METHOD is the uppercased HTTP token; ORIGIN and PATH come from
 * url_parse (url.h), so query and fragment are dropped and IP literals are
 * accepted, as in the deployed protocol (the public URL policy,
 * url_check_public, is a separate layer). The path must then pass the
 * final check: it starts with '/', holds no control, space, DEL or
 * backslash, and every '%' is followed by two hex digits.
 *
 * Return conventions: route_method_normalize is an action (0/-1);
 * route_id and route_id_hex return an enum route_err (ROUTE_OK is 0) so
 * callers can tell a bad method from a bad URL. Nothing allocates.
 */
#ifndef WAYMARK_ROUTE_H
#define WAYMARK_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "brand.h"
#include "url.h"

#define ROUTE_DOMAIN BRAND_LOWER ":x402-route:v1"
#define ROUTE_METHOD_MAX 64
#define ROUTE_ID_LEN 32
#define ROUTE_ID_HEX_SIZE 67    /* "0x" + 64 digits + NUL */

enum route_err {
	ROUTE_OK = 0,
	ROUTE_BAD_METHOD,       /* not an HTTP token of 1..64 chars, or forbidden */
	ROUTE_BAD_URL,          /* url_parse failed; see route_parts.url_err */
	ROUTE_BAD_PATH,         /* the normalized path fails the final check */
	ROUTE_ERR__MAX
};

/* The normalized parts that were (or would have been) hashed. */
struct route_parts {
	char method[ROUTE_METHOD_MAX + 1];
	struct url url;         /* url.origin and url.path are hashed */
	enum url_err url_err;   /* why, when route_id returned ROUTE_BAD_URL */
};

/*
 * Write m[0..len) uppercased and NUL-terminated into out. 0 on success;
 * -1 when m is empty, longer than ROUTE_METHOD_MAX, holds a byte that is
 * not an RFC 9110 tchar, or is CONNECT, TRACE or TRACK (any case), which
 * Fetch's Request refuses and so can never name a deployed route.
 */
int route_method_normalize(const char *m, size_t len, char out[ROUTE_METHOD_MAX + 1]);

/*
 * The routeId of (method, url) into out. Returns ROUTE_OK, or the first
 * failing step; out is then untouched. parts may be NULL; otherwise it
 * receives the normalized method, the parsed URL and the URL error.
 */
enum route_err route_id(const char *method, size_t method_len, const char *url, size_t url_len,
    uint8_t out[ROUTE_ID_LEN], struct route_parts *parts);

/* As route_id, writing "0x" + 64 lowercase hex digits and a NUL into out. */
enum route_err route_id_hex(const char *method, size_t method_len, const char *url, size_t url_len,
    char out[ROUTE_ID_HEX_SIZE], struct route_parts *parts);

/* One short English sentence for e; never NULL, static storage. */
const char *route_strerror(enum route_err e);

#endif
