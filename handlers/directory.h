/*
 * directory.h: the route selection of the paid directory (directory.c), shared
 * by GET /api/v1/x402/routes and GET /api/v1/x402/graph (graph.c), so both
 * list the same routes in the same order (docs/PROTOCOL.md, Paid reads).
 *
 * The query family: sort (reviewed|recent), context (with|all|raw), q
 * (text in a current context's URL or intent), origin (an https origin,
 * normalized, equal to the origin of a current context of the route),
 * method (the method of a current context), recognizer (an address that
 * sent the route an indexed routed recognition). origin and method only
 * match described routes, so with context=raw they select nothing.
 */
#ifndef WAYMARK_DIRECTORY_H
#define WAYMARK_DIRECTORY_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "cursor.h"
#include "db.h"
#include "http.h"

enum route_sort { SORT_REVIEWED, SORT_RECENT, SORT__MAX };
enum route_context { CTX_WITH, CTX_ALL, CTX_RAW, CTX__MAX };

#define ROUTES_CURSOR_MAX CURSOR_TEXT_MAX   /* buffer for a nextCursor (lib/cursor.h) */

struct route_filter {
	int sort, ctx;
	const char *q;             /* "" when absent (request pool) */
	size_t qlen;
	const char *origin;        /* normalized "https://host[:port]", or NULL (request pool) */
	const char *method;        /* uppercase, or NULL */
	bool has_recognizer;
	struct addr recognizer;
	char tag[17];              /* 16 hex digits naming q, origin, method and recognizer */
};

/*
 * The filter of a request whose row declares sort, context, q, origin,
 * method and recognizer (table.c). ERR_NONE, or the 400 written to w
 * (a value that is not an https origin); no database is needed, so row
 * checks call it before any payment.
 */
enum err route_filter_from_req(struct req *r, struct resp *w, struct route_filter *f);

/*
 * One page of the directory under f: at most limit routes in the order of
 * f->sort, after the route the cursor names (cursor: text this service
 * issued for the same sort, context and filters, or NULL). Appends the
 * directory entries {routeId, method, publicEndpointUrl, recognition,
 * reviewSummary, links} to out_array (which owns them); *more tells
 * whether routes follow, and then next holds their cursor. DB_OK, or the
 * failing query's code (DB_ERROR also for a cursor that does not parse).
 */
enum db_rc routes_select(struct req *r, const struct route_filter *f, const char *cursor,
    uint64_t limit, json_object *out_array, bool *more, char next[ROUTES_CURSOR_MAX]);

#endif
