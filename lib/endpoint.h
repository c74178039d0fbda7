/*
 * endpoint.h: the row type of the dispatch table, and matching a request
 * path against the rows' patterns. The table itself (every endpoint the
 * service has) is handlers/table.c; lib/ knows no particular endpoint.
 *
 * A pattern is a path whose segments are literals or "{name}"; a "{name}"
 * segment matches one non-empty path segment, percent-decoded, and is
 * validated by the row's field of the same name (source VS_PATH).
 */
#ifndef WAYMARK_ENDPOINT_H
#define WAYMARK_ENDPOINT_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "err.h"
#include "http.h"
#include "valid.h"

enum auth_kind {
	AUTH_NONE,    /* no credential */
	AUTH_PAID,    /* x402 payment; price in the row */
	AUTH_SIWX,    /* identity-only sign-in proof */
	AUTH_EIP712,  /* typed-signature headers */
	AUTH__MAX
};

/*
 * Each row's request-rate class: `waymark routes nginx` gives the row's
 * location the limit_req zone of its class, keyed by client address (an
 * IPv6 client by its /64) for the row's method only (rows of one path may
 * differ by method), at the rate configured for the class (rate_* keys,
 * requests per minute; 0 leaves the class unlimited). A limited request
 * gets 429 rate_limited with Retry-After (INSTALL, Security).
 */
enum rate_class {
	RATE_NONE,      /* never limited */
	RATE_SITE,      /* free site reads (rate_site) */
	RATE_SIGNIN,    /* sign-in (SIWX) rows: each unsigned request issues a challenge (rate_signin) */
	RATE_SIGNED,    /* rows that verify a signature, maybe through the RPC node (rate_signed) */
	RATE_UNLOCK,    /* private-tip unlock challenges and signed unlocks (rate_unlock) */
	RATE_DISCOVERY, /* free discovery: unlimited unless rate_discovery is set */
	RATE_AGENT,     /* the agent surface (A2A message:send, MCP), whose previews may call
	                 * the chain (rate_agent, rate_agent_burst) */
	RATE__MAX
};

enum body_kind {
	BODY_NONE,    /* no body expected; one that is sent is ignored */
	BODY_JSON,    /* application/json, parsed strictly */
};

/* Row flags. */
#define EP_DB         0x1u /* needs the database: 503 when it is unreachable */
#define EP_DB_TRY     0x20u /* uses the database when it is reachable: r->db is NULL
                             * otherwise, and the handler answers what it can */
#define EP_STRICT     0x2u /* body members outside `fields` are rejected */
#define EP_NO_STORE   0x4u /* Cache-Control: private, no-store */
#define EP_JSONRPC    0x10u /* a JSON-RPC endpoint: body parse errors are JSON-RPC error
                             * objects (-32700, -32600), not the REST error body */
#define EP_PAY_PRIVATE 0x800u /* AUTH_PAID: the answer is for the payer alone (a private
                              * tip's note): a payment shown again after a late or unknown
                              * outcome never carries it; the payer reads by signature
                              * (fcgi/pay.h) */
#define EP_PAY_RESUME 0x8u /* AUTH_PAID: a payment settled earlier for this same resource
                            * may be shown again; the handler sees r->pay.settled_earlier
                            * and serves only what that payment already bought (fcgi/pay.h) */

#define EP_A2A        0x80u /* an A2A row: a body may also be application/a2a+json, and every
                             * error is the google.rpc.Status body of lib/a2a.h */
#define EP_HTML       0x100u /* a website page: its answer is text/html, and every error of
                              * its request leaves as an HTML page (handlers/pages.h) */
#define EP_REMOTE     0x40u /* may wait on a remote service (the chain RPC) although free:
                             * served by the remote pool, like every paid or signed row */
#define EP_CREATES    0x200u /* stores something new and answers 201 Created: the interface
                              * description (handlers/openapi.h) lists its answers */
#define EP_SAME_200   0x400u /* with EP_CREATES: the identical request repeated answers 200
                              * with the record already there (a row without it answers
                              * 201 every time, as the spec has it) */

typedef enum err (*handler_fn)(struct req *r, struct resp *w);

/*
 * An AUTH_SIWX row's request binding: the Request ID a sign-in challenge
 * for this very request carries and its proof must sign (fcgi/siwx_gate.c),
 * so the wallet's one signature also covers what the request asks. A row
 * with a JSON body and no hook is bound to its body's canonical digest
 * (lib/siwx.h, siwx_body_request_id); a hook says what else binds it (the
 * digest of the statement the handler will act on). It writes the ID into
 * out[cap], or "" for none; 0, or -1 when it cannot be computed (the
 * database failed).
 */
typedef int (*siwx_request_fn)(struct req *r, char *out, size_t cap);

struct endpoint {
	const char *id;          /* stable resource id, e.g. "workflows.cost_preview" */
	enum http_method method;
	const char *pattern;     /* "/api/v1/x402/routes/{routeId}" */
	handler_fn handler;
	enum auth_kind auth;
	const char *price_usdc;  /* decimal USDC for AUTH_PAID rows, else NULL */
	size_t body_max;         /* bytes; 0 for BODY_NONE rows */
	enum rate_class rate;
	enum body_kind body;
	unsigned flags;
	const struct field *fields; /* terminated by a row with name NULL */
	handler_fn check;        /* optional cross-field check after fields, before payment; no DB */
	handler_fn prepay;       /* AUTH_PAID, optional: checks with the database before a payment
	                          * is asked for or verified (fcgi/pay.h); may answer by itself */
	siwx_request_fn siwx_request; /* AUTH_SIWX, optional: see siwx_request_fn */
	enum err siwx_mismatch;  /* AUTH_SIWX: the 400 of a proof whose Request ID is not this
	                          * request's; ERR_NONE means ERR_REQUEST_MISMATCH */
	const char *summary;     /* one line, for listings and docs */
};

enum ep_match {
	EP_FOUND,         /* *out is the row for method and path */
	EP_WRONG_METHOD,  /* path exists; *allow has a bit per allowed method */
	EP_NO_PATH,       /* no row has this path */
	EP_NOMEM,         /* the row matched, but its parameters found no room in pool */
};

/*
 * Find the row for (method, path) in tab[0..n). On EP_FOUND the "{name}"
 * segments are stored in params (decoded copies allocated from pool).
 * Path segments with invalid percent escapes match nothing.
 */
enum ep_match endpoint_find(const struct endpoint *tab, size_t n, enum http_method method,
    const char *path, struct pool *pool, const struct endpoint **out,
    struct path_param *params, size_t *nparams, unsigned *allow);

/* True when path matches pattern (no parameters are captured). */
bool endpoint_path_matches(const char *pattern, const char *path);

/* "GET, POST" for an allow mask, into out[cap]; returns out. */
char *endpoint_allow_text(unsigned allow, char *out, size_t cap);

/*
 * True when the row belongs to the remote pool: the worker processes whose
 * requests may wait on the facilitator or the chain RPC (every row with an
 * auth kind, and free rows flagged EP_REMOTE). The free pool serves the
 * rest, so a free read never queues behind a remote call. nginx routes each
 * path to its pool (`waymark routes nginx`).
 */
bool endpoint_remote(const struct endpoint *e);

/* True when pattern has the segment "{name}". */
bool endpoint_pattern_has(const char *pattern, const char *name);

/* Number of "{name}" segments in a pattern. */
size_t endpoint_param_count(const char *pattern);

/* A rate class's name ("signin"; its key is rate_<name>), "-" for RATE_NONE. */
const char *rate_name(enum rate_class r);

/* A rate class's configured requests per minute per client (0: unlimited). */
uint64_t rate_per_min(const struct config *c, enum rate_class r);

/* The burst a class allows beyond its rate: its own key, or two seconds' worth (at least 5). */
uint64_t rate_burst(const struct config *c, enum rate_class r);

#endif
