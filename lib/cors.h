/*
 * cors.h: cross-origin answers for browser clients, derived from the
 * dispatch-table rows (docs/ARCHITECTURE.md, Cross-origin requests).
 *
 * The service keeps no cookie and no ambient credential: every credential
 * (a payment, a sign-in proof, a signature) is a header or a body the
 * calling script sets itself. So every answer may be read by any origin
 * (Access-Control-Allow-Origin: *, never with credentials), and the origin
 * decides nothing (docs/ARCHITECTURE.md, Cross-origin requests). What a
 * row adds:
 *
 *   exposed on its answers   paid rows PAYMENT-REQUIRED, PAYMENT-RESPONSE,
 *                            WWW-Authenticate, Payment-Receipt; sign-in
 *                            rows PAYMENT-REQUIRED; JSON-RPC (/mcp)
 *                            Mcp-Session-Id; A2A rows A2A-Version and
 *                            A2A-Extensions; every row Retry-After
 *   allowed in a preflight   Content-Type and Accept; paid rows
 *                            PAYMENT-SIGNATURE and Authorization (MPP),
 *                            and the signed-unlock headers on the unlock
 *                            rate class; sign-in rows SIGN-IN-WITH-X;
 *                            JSON-RPC rows the MCP headers; A2A rows its
 *                            two headers
 *
 * A preflight (OPTIONS on a path some row has) is answered 204 by the
 * gatekeeper before any other check: no credential, no body, no database.
 *
 * Return conventions: actions, 0 or -1 (a header did not fit).
 */
#ifndef WAYMARK_CORS_H
#define WAYMARK_CORS_H

#include <stddef.h>

#include "endpoint.h"
#include "http.h"

#define CORS_MAX_AGE "600"   /* seconds a browser may keep a preflight's answer */

/* The cross-origin headers of an answer of row ep (NULL: no row matched). */
int cors_answer(const struct endpoint *ep, struct resp *w);

/*
 * A preflight's answer for path, whose rows in tab[0..n) allow the
 * methods in allow (a bit per enum http_method): 204 with the allowed
 * origin, methods and request headers of those rows.
 */
int cors_preflight(const struct endpoint *tab, size_t n, const char *path, unsigned allow,
    struct resp *w);

#endif
