/*
 * gate.h: the gatekeeper. One function runs every generic check a
 * dispatch-table row asks for, in a fixed order, before the row's handler:
 *
 *   1. path known?             404 not_found
 *   2. method allowed?         405 method_not_allowed + Allow
 *   3. body within the limit?  413 body_too_large
 *   4. JSON content type?      415 unsupported_media_type
 *   5. strict JSON?            400 invalid_json / duplicate_key
 *   6. fields (path, query, body), unknown ones rejected
 *                              400 invalid_field / missing_field / unknown_field
 *   7. auth kind               paid rows: x402 (pay.h), which also runs the
 *                              handler and settles after it; SIWX rows: the
 *                              sign-in step (siwx_gate.h), which also runs
 *                              the handler; EIP-712 rows as they land
 *   8. database reachable?     503 database_unavailable
 *   9. the handler; then Cache-Control for no-store rows, and on every
 *      answer the cross-origin headers of the row (lib/cors.h).
 *
 * An OPTIONS request for a path some row has is a browser's preflight,
 * answered 204 at step 2 with what that path's rows allow (lib/cors.h).
 *
 * The body is read only after 1-4 passed, through the caller's reader.
 */
#ifndef WAYMARK_GATE_H
#define WAYMARK_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "admit.h"
#include "db.h"
#include "endpoint.h"
#include "http.h"

/* One per serving thread; what it points to that is shared between the
 * threads (table, cfg, pay_admit) is read-only or atomic. */
struct gate {
	const struct endpoint *table;
	size_t ntable;
	const struct config *cfg;
	struct db *db;                  /* this thread's connection */
	struct admit *pay_admit;        /* paid requests with a payment in progress */
	/* Reads up to n body bytes; returns the count, 0 at the end, -1 on error. */
	long (*read_body)(void *ctx, uint8_t *buf, size_t n);
	void *read_ctx;
};

/* Run the checks and the handler for r, writing the answer into w. */
void gate_run(const struct gate *g, struct req *r, struct resp *w);

#endif
