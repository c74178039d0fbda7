/*
 * table.c: every endpoint of the service, one row each. The gatekeeper
 * (fcgi/gate.c) runs the generic checks a row declares; nginx's locations,
 * the cost preview and the route listing are generated from these rows.
 * Add a row when its feature lands; no row answers with a stub.
 */
#include "table.h"
#include "banned.h"

static const char *const step_methods[] = { "GET", "POST", NULL };

static const struct field cost_preview_fields[] = {
	{ .name = "requests", .src = VS_BODY, .type = VT_ARRAY, .required = true,
	    .min_len = 1, .max_len = 25 },
	{ .name = NULL },
};

/* The fields of one cost-preview step (validated by the handler). */
const struct field cost_preview_step_fields[] = {
	{ .name = "method", .src = VS_BODY, .type = VT_CHOICE, .required = true,
	    .choices = step_methods },
	{ .name = "path", .src = VS_BODY, .type = VT_STRING, .required = true,
	    .min_len = 1, .max_len = 2048 },
	{ .name = "quantity", .src = VS_BODY, .type = VT_UINT, .min = 1, .max = 100, .def = "1" },
	{ .name = NULL },
};

const struct endpoint endpoints[] = {
	{ .id = "health", .method = HM_GET, .pattern = "/health", .handler = h_health_get,
	    .auth = AUTH_NONE, .flags = EP_DB,
	    .summary = "liveness: {ok, version} plus database diagnostics" },
	{ .id = "workflows.cost_preview", .method = HM_POST,
	    .pattern = "/api/v1/workflows/cost-preview", .handler = h_cost_preview_post,
	    .auth = AUTH_NONE, .body = BODY_JSON, .body_max = 32 * 1024, .flags = EP_STRICT,
	    .fields = cost_preview_fields,
	    .summary = "price a planned sequence of calls to this service, executing nothing" },
	{ .id = "feed.retired", .method = HM_GET, .pattern = "/api/feed", .handler = h_feed_get,
	    .auth = AUTH_NONE, .summary = "retired feed: 410 with the replacement" },
};

const size_t nendpoints = sizeof(endpoints) / sizeof(endpoints[0]);
