/*
 * table.c: every endpoint of the service, one row each. The gatekeeper
 * (fcgi/gate.c) runs the generic checks a row declares; nginx's locations,
 * the cost preview and the route listing are generated from these rows.
 * Add a row when its feature lands; no row answers with a stub.
 */
#include <stdint.h>
#include <string.h>

#include "brand.h"
#include "drafts.h"
#include "privtip.h"
#include "reports.h"
#include "skills.h"
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

static const struct field discovery_fields[] = {
	{ .name = "q", .src = VS_QUERY, .type = VT_STRING, .max_len = 400 },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 20, .def = "10" },
	{ .name = "reviewer", .src = VS_QUERY, .type = VT_ADDRESS },
	{ .name = NULL },
};

/* The Bazaar discovery API's filters (handlers/bazaar.c). */
#define BAZAAR_FILTER_FIELDS \
	{ .name = "type", .src = VS_QUERY, .type = VT_STRING, .max_len = 16 }, \
	{ .name = "payTo", .src = VS_QUERY, .type = VT_STRING, .max_len = 128 }, \
	{ .name = "scheme", .src = VS_QUERY, .type = VT_STRING, .max_len = 32 }, \
	{ .name = "network", .src = VS_QUERY, .type = VT_STRING, .max_len = 64 }, \
	{ .name = "extensions", .src = VS_QUERY, .type = VT_STRING, .max_len = 64 }, \
	{ .name = "asset", .src = VS_QUERY, .type = VT_STRING, .max_len = 128 }, \
	{ .name = "urlSubstring", .src = VS_QUERY, .type = VT_STRING, .min_len = 3, .max_len = 2048 }, \
	{ .name = "maxUsdPrice", .src = VS_QUERY, .type = VT_DECIMAL }, \
	{ .name = "tags", .src = VS_QUERY, .type = VT_STRING, .max_len = 220 }, \
	{ .name = "bundleSlugs", .src = VS_QUERY, .type = VT_STRING, .max_len = 400 }, \
	{ .name = "curatedOnly", .src = VS_QUERY, .type = VT_STRING, .max_len = 8 }

static const struct field bazaar_resources_fields[] = {
	BAZAAR_FILTER_FIELDS,
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "20" },
	{ .name = "offset", .src = VS_QUERY, .type = VT_UINT, .min = 0, .max = 9999999, .def = "0" },
	{ .name = NULL },
};

static const struct field bazaar_search_fields[] = {
	{ .name = "query", .src = VS_QUERY, .type = VT_STRING, .max_len = 400 },
	BAZAAR_FILTER_FIELDS,
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "20" },
	{ .name = "cursor", .src = VS_QUERY, .type = VT_STRING, .max_len = 32 },
	{ .name = NULL },
};

static const struct field review_v1_fields[] = {
	{ .name = "review", .src = VS_BODY, .type = VT_OBJECT, .required = true },
	{ .name = "signature", .src = VS_BODY, .type = VT_STRING, .required = true, .max_len = 200 },
	{ .name = NULL },
};

/* V3: up to 4096 bytes of signature (ERC-1271, EIP-6492); review_v3.c checks the hex. */
static const struct field review_v3_fields[] = {
	{ .name = "review", .src = VS_BODY, .type = VT_OBJECT, .required = true },
	{ .name = "signature", .src = VS_BODY, .type = VT_STRING, .required = true, .max_len = 8200 },
	{ .name = NULL },
};

static const struct field review_v2_fields[] = {
	{ .name = "review", .src = VS_BODY, .type = VT_OBJECT, .required = true },
	{ .name = "signature", .src = VS_BODY, .type = VT_STRING, .required = true, .max_len = 8200 },
	{ .name = "evidence", .src = VS_BODY, .type = VT_OBJECT, .required = true },
	{ .name = NULL },
};

static const struct field site_route_reviews_fields[] = {
	{ .name = "routeId", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "50" },
	{ .name = "offset", .src = VS_QUERY, .type = VT_UINT, .min = 0, .max = 10000, .def = "0" },
	{ .name = NULL },
};

static const struct field site_discover_fields[] = {
	{ .name = "q", .src = VS_QUERY, .type = VT_STRING, .max_len = 400 },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 50, .def = "20" },
	{ .name = "offset", .src = VS_QUERY, .type = VT_UINT, .min = 0, .max = 10000, .def = "0" },
	{ .name = NULL },
};

static const struct field review_draft_fields[] = {
	{ .name = "routeId", .src = VS_BODY, .type = VT_BYTES32, .required = true },
	{ .name = "observation", .src = VS_BODY, .type = VT_STRING, .required = true,
	    .min_len = 1, .max_len = DRAFT_OBSERVATION_MAX },
	{ .name = NULL },
};

static const struct field review_prepare_fields[] = {
	{ .name = "routeId", .src = VS_BODY, .type = VT_BYTES32, .required = true },
	{ .name = "outcome", .src = VS_BODY, .type = VT_CHOICE, .required = true,
	    .choices = draft_outcome_names },
	{ .name = "schemaCheck", .src = VS_BODY, .type = VT_CHOICE, .required = true,
	    .choices = draft_check_names },
	{ .name = NULL },
};

static const struct field route_context_fields[] = {
	{ .name = "noteJson", .src = VS_BODY, .type = VT_STRING, .required = true,
	    .min_len = 1, .max_len = 32 * 1024 },
	{ .name = "offerJson", .src = VS_BODY, .type = VT_STRING, .required = true,
	    .min_len = 1, .max_len = 64 * 1024 },
	{ .name = "signature", .src = VS_BODY, .type = VT_STRING, .required = true,
	    .min_len = 1, .max_len = 2 + 2 * 65 },
	{ .name = NULL },
};

static const struct field route_fields[] = {
	{ .name = "routeId", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = NULL },
};

static const struct field route_recognitions_fields[] = {
	{ .name = "routeId", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "25" },
	{ .name = "offset", .src = VS_QUERY, .type = VT_UINT, .min = 0, .max = 1000, .def = "0" },
	{ .name = NULL },
};

static const struct field routes_fields[] = {
	{ .name = "sort", .src = VS_QUERY, .type = VT_CHOICE, .choices = route_sort_names,
	    .def = "reviewed" },
	{ .name = "context", .src = VS_QUERY, .type = VT_CHOICE, .choices = route_context_names,
	    .def = "with" },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 50, .def = "20" },
	{ .name = "cursor", .src = VS_QUERY, .type = VT_STRING, .min_len = 1, .max_len = 512 },
	{ .name = "q", .src = VS_QUERY, .type = VT_STRING, .max_len = 400 },
	{ .name = "origin", .src = VS_QUERY, .type = VT_STRING, .min_len = 1, .max_len = 2048 },
	{ .name = "method", .src = VS_QUERY, .type = VT_CHOICE, .choices = route_method_names },
	{ .name = "recognizer", .src = VS_QUERY, .type = VT_ADDRESS },
	{ .name = NULL },
};

/* The directory's query family without cursor, plus eventLimit (graph.c). */
static const struct field graph_fields[] = {
	{ .name = "sort", .src = VS_QUERY, .type = VT_CHOICE, .choices = route_sort_names,
	    .def = "reviewed" },
	{ .name = "context", .src = VS_QUERY, .type = VT_CHOICE, .choices = route_context_names,
	    .def = "with" },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 50, .def = "20" },
	{ .name = "eventLimit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 500, .def = "100" },
	{ .name = "q", .src = VS_QUERY, .type = VT_STRING, .max_len = 400 },
	{ .name = "origin", .src = VS_QUERY, .type = VT_STRING, .min_len = 1, .max_len = 2048 },
	{ .name = "method", .src = VS_QUERY, .type = VT_CHOICE, .choices = route_method_names },
	{ .name = "recognizer", .src = VS_QUERY, .type = VT_ADDRESS },
	{ .name = NULL },
};

/* recipient and serviceCostUsdc are parsed further by h_score_check. */
static const struct field score_fields[] = {
	{ .name = "recipient", .src = VS_BODY, .type = VT_STRING, .required = true,
	    .min_len = 1, .max_len = 100 },
	{ .name = "note", .src = VS_BODY, .type = VT_STRING, .max_len = 280 },
	{ .name = "serviceCostUsdc", .src = VS_BODY, .type = VT_DECIMAL },
	{ .name = NULL },
};

static const struct field reviewer_reviews_fields[] = {
	{ .name = "reviewer", .src = VS_QUERY, .type = VT_ADDRESS, .required = true },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "25" },
	{ .name = "offset", .src = VS_QUERY, .type = VT_UINT, .min = 0, .max = 1000, .def = "0" },
	{ .name = NULL },
};

static const struct field routed_boons_fields[] = {
	{ .name = "routeId", .src = VS_QUERY, .type = VT_BYTES32 },
	{ .name = "txHash", .src = VS_QUERY, .type = VT_BYTES32 },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "25" },
	{ .name = "offset", .src = VS_QUERY, .type = VT_UINT, .min = 0, .max = 1000, .def = "0" },
	{ .name = NULL },
};

/* The reports' discovery parameters are body members, defaulted as discovery's. */
static const struct field report_compare_fields[] = {
	{ .name = "q", .src = VS_BODY, .type = VT_STRING, .max_len = 400 },
	{ .name = "limit", .src = VS_BODY, .type = VT_UINT, .min = 1, .max = 20, .def = "10" },
	{ .name = "reviewer", .src = VS_BODY, .type = VT_ADDRESS },
	{ .name = NULL },
};

static const struct field report_changes_fields[] = {
	{ .name = "baseline", .src = VS_BODY, .type = VT_OBJECT, .required = true },
	{ .name = "q", .src = VS_BODY, .type = VT_STRING, .max_len = 400 },
	{ .name = "limit", .src = VS_BODY, .type = VT_UINT, .min = 1, .max = 20, .def = "10" },
	{ .name = "reviewer", .src = VS_BODY, .type = VT_ADDRESS },
	{ .name = NULL },
};

static const struct field report_export_fields[] = {
	{ .name = "report", .src = VS_BODY, .type = VT_CHOICE, .required = true, .choices = report_names },
	{ .name = "q", .src = VS_BODY, .type = VT_STRING, .max_len = 400 },
	{ .name = "limit", .src = VS_BODY, .type = VT_UINT, .min = 1, .max = 20, .def = "10" },
	{ .name = "reviewer", .src = VS_BODY, .type = VT_ADDRESS },
	{ .name = "baseline", .src = VS_BODY, .type = VT_OBJECT },
	{ .name = NULL },
};

static const struct field profile_create_fields[] = {
	{ .name = "controllerAccount", .src = VS_BODY, .type = VT_ACCOUNT, .required = true },
	{ .name = NULL },
};

static const struct field profile_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = NULL },
};

static const struct field link_prepare_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "memberAccount", .src = VS_BODY, .type = VT_ACCOUNT, .required = true },
	{ .name = NULL },
};

static const struct field link_get_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "walletRef", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = NULL },
};

static const struct field link_revoke_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "walletRef", .src = VS_PATH, .type = VT_ACCOUNT, .required = true },
	{ .name = "actorAccount", .src = VS_BODY, .type = VT_ACCOUNT, .required = true },
	{ .name = NULL },
};

static const struct field link_confirm_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "linkId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "intentDigest", .src = VS_BODY, .type = VT_BYTES32, .required = true },
	{ .name = NULL },
};

static const struct field activity_publish_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "accountId", .src = VS_BODY, .type = VT_ACCOUNT, .required = true },
	{ .name = "evidence", .src = VS_BODY, .type = VT_OBJECT, .required = true },
	{ .name = NULL },
};

static const struct field activity_review_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "activityId", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = "reviewText", .src = VS_BODY, .type = VT_STRING, .required = true,
	    .min_len = 1, .max_len = 1000 },
	{ .name = "createdAt", .src = VS_BODY, .type = VT_UINT, .required = true,
	    .min = 0, .max = 9007199254740991ULL },
	{ .name = NULL },
};

static const struct field profile_discovery_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "discoveryMode", .src = VS_BODY, .type = VT_CHOICE, .required = true,
	    .choices = discovery_mode_names },
	{ .name = "previewDigest", .src = VS_BODY, .type = VT_BYTES32 },
	{ .name = NULL },
};

static const struct field profile_feed_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "25" },
	{ .name = "cursor", .src = VS_QUERY, .type = VT_STRING, .min_len = 1, .max_len = 512 },
	{ .name = NULL },
};

static const struct field receipt_fields[] = {
	{ .name = "txHash", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = NULL },
};

static const struct field attestation_fields[] = {
	{ .name = "tipId", .src = VS_PATH, .type = VT_UINT, .required = true, .min = 1,
	    .max = UINT64_MAX },
	{ .name = NULL },
};

static const struct field site_link_wallet_fields[] = {
	{ .name = "address", .src = VS_QUERY, .type = VT_ADDRESS_EIP55, .required = true },
	{ .name = NULL },
};

static const struct field site_wallet_endpoints_fields[] = {
	{ .name = "wallet", .src = VS_QUERY, .type = VT_ADDRESS_EIP55, .required = true },
	{ .name = NULL },
};

/* cursor is parsed further (bound to the handle) by h_handle_tips_check. */
static const struct field handle_tips_fields[] = {
	{ .name = "handle", .src = VS_PATH, .type = VT_HANDLE, .required = true },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "25" },
	{ .name = "cursor", .src = VS_QUERY, .type = VT_STRING, .min_len = 1, .max_len = 512 },
	{ .name = NULL },
};

static const struct field wallet_feed_fields[] = {
	{ .name = "accountId", .src = VS_PATH, .type = VT_ACCOUNT, .required = true },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 100, .def = "25" },
	{ .name = "cursor", .src = VS_QUERY, .type = VT_STRING, .min_len = 1, .max_len = 512 },
	{ .name = NULL },
};

static const struct field site_wallet_profile_fields[] = {
	{ .name = "accountId", .src = VS_PATH, .type = VT_ACCOUNT, .required = true },
	{ .name = NULL },
};

/* activityId: a fact ID (lib/factid.h), parsed by the row's check. */
static const struct field site_activity_fields[] = {
	{ .name = "profileId", .src = VS_PATH, .type = VT_UUID, .required = true },
	{ .name = "activityId", .src = VS_PATH, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 300 },
	{ .name = NULL },
};

/* subject is parsed further by h_gratitude_check (lib/gratitude.h). */
static const struct field gratitude_fields[] = {
	{ .name = "subject", .src = VS_QUERY, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 200 },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 200, .def = "50" },
	{ .name = NULL },
};

/* Each handle is canonicalized by h_queries_check; more than 25 never reach a payment. */
static const struct field queries_fields[] = {
	{ .name = "handles", .src = VS_BODY, .type = VT_ARRAY, .required = true, .min_len = 1,
	    .max_len = 25 },
	{ .name = "limit", .src = VS_BODY, .type = VT_UINT, .min = 1, .max = 200, .def = "50" },
	{ .name = NULL },
};

static const struct field handle_fields[] = {
	{ .name = "handle", .src = VS_PATH, .type = VT_HANDLE, .required = true },
	{ .name = NULL },
};

static const struct field board_fields[] = {
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 50, .def = "25" },
	{ .name = NULL },
};

static const struct field wallet_sent_fields[] = {
	{ .name = "address", .src = VS_PATH, .type = VT_ADDRESS, .required = true },
	{ .name = NULL },
};

static const struct field private_blob_fields[] = {
	{ .name = "privateCommitment", .src = VS_BODY, .type = VT_BYTES32, .required = true },
	{ .name = "note", .src = VS_BODY, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = PRIVTIP_NOTE_MAX },
	{ .name = "salt", .src = VS_BODY, .type = VT_BYTES32, .required = true },
	{ .name = NULL },
};

static const struct field private_pending_fields[] = {
	{ .name = "handle", .src = VS_QUERY, .type = VT_HANDLE, .required = true },
	{ .name = NULL },
};

static const struct field private_tip_fields[] = {
	{ .name = "tipId", .src = VS_PATH, .type = VT_UINT, .required = true, .min = 1,
	    .max = INT64_MAX },
	{ .name = NULL },
};

static const char *const disclosure_actions[] = { "disclose", "withdraw", NULL };

static const struct field disclosure_get_fields[] = {
	{ .name = "txHash", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = NULL },
};

static const struct field disclosure_fields[] = {
	{ .name = "txHash", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = "action", .src = VS_BODY, .type = VT_CHOICE, .required = true,
	    .choices = disclosure_actions },
	{ .name = "signature", .src = VS_BODY, .type = VT_STRING, .required = true, .min_len = 4,
	    .max_len = 2 + 2 * PRIVTIP_SIG_MAX },
	{ .name = NULL },
};

/* A client may name the A2A version as a query parameter instead of the header. */
static const struct field page_search_fields[] = {
	{ .name = "q", .src = VS_QUERY, .type = VT_STRING, .max_len = 400 },
	{ .name = NULL },
};

static const struct field page_extension_fields[] = {
	{ .name = "extension", .src = VS_PATH, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 64 },
	{ .name = "version", .src = VS_PATH, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 16 },
	{ .name = NULL },
};

/* A row's documentation page: its id (table_row; an unknown one is a 404 page). */
static const struct field page_docs_row_fields[] = {
	{ .name = "rowId", .src = VS_PATH, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 64 },
	{ .name = NULL },
};

/* A website page (docs/ARCHITECTURE.md, Website pages): free, rate-limited as a site read. */
#define PAGE_ROW(row_id, path, fn, flds, text) \
	{ .id = row_id, .method = HM_GET, .pattern = path, .handler = fn, .auth = AUTH_NONE, \
	    .rate = RATE_SITE, .flags = EP_DB | EP_HTML, .fields = flds, .summary = text }

/* A documentation page (the same, built from this table and constants: no database). */
#define DOCS_ROW(row_id, path, fn, flds, text) \
	{ .id = row_id, .method = HM_GET, .pattern = path, .handler = fn, .auth = AUTH_NONE, \
	    .rate = RATE_SITE, .flags = EP_HTML, .fields = flds, .summary = text }

static const struct field a2a_send_fields[] = {
	{ .name = "A2A-Version", .src = VS_QUERY, .type = VT_STRING, .min_len = 0, .max_len = 16 },
	{ .name = NULL },
};

static const struct field a2a_task_fields[] = {
	{ .name = "taskId", .src = VS_PATH, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 2048 },
	{ .name = NULL },
};

static const struct field a2a_push_fields[] = {
	{ .name = "taskId", .src = VS_PATH, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 2048 },
	{ .name = "configId", .src = VS_PATH, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 2048 },
	{ .name = NULL },
};

/* The A2A operations this agent does not support (docs/PROTOCOL.md, Agents: A2A and ACP). */
#define A2A_UNSUPPORTED(row_id, m, path, flds, fn, text) \
	{ .id = row_id, .method = m, .pattern = path, .handler = fn, .auth = AUTH_NONE, \
	    .flags = EP_A2A, .fields = flds, .summary = text }

const struct endpoint endpoints[] = {
	{ .id = "health", .method = HM_GET, .pattern = "/health", .handler = h_health_get,
	    .auth = AUTH_NONE, .flags = EP_DB,
	    .summary = "liveness: {ok, version} plus database diagnostics" },
	{ .id = "workflows.cost_preview", .method = HM_POST,
	    .pattern = "/api/v1/workflows/cost-preview", .handler = h_cost_preview_post,
	    .auth = AUTH_NONE, .body = BODY_JSON, .body_max = 32 * 1024, .flags = EP_STRICT,
	    .fields = cost_preview_fields,
	    .summary = "price a planned sequence of calls to this service, executing nothing" },
	{ .id = "x402.discovery", .method = HM_GET, .pattern = "/api/v1/x402/discovery",
	    .handler = h_discovery_get, .auth = AUTH_NONE, .rate = RATE_DISCOVERY,
	    .flags = EP_DB, .fields = discovery_fields,
	    .summary = "free discovery snapshot: candidates with dated evidence and a handoff" },
	{ .id = "bazaar.resources", .method = HM_GET, .pattern = "/discovery/resources",
	    .handler = h_bazaar_resources_get, .auth = AUTH_NONE, .rate = RATE_DISCOVERY,
	    .flags = EP_DB, .fields = bazaar_resources_fields,
	    .summary = "Bazaar discovery API: the catalog's and the route contexts' routes as DiscoveryResource items, filtered, paged by offset" },
	{ .id = "bazaar.search", .method = HM_GET, .pattern = "/discovery/search",
	    .handler = h_bazaar_search_get, .auth = AUTH_NONE, .rate = RATE_DISCOVERY,
	    .flags = EP_DB, .fields = bazaar_search_fields,
	    .summary = "Bazaar discovery API: the same routes ranked for a query by the discovery engine, paged by cursor" },
	{ .id = "x402.reviews." BRAND_LANE, .method = HM_POST, .pattern = "/api/v1/x402/reviews",
	    .handler = h_review_v1_post, .auth = AUTH_NONE, .rate = RATE_SIGNED,
	    .body = BODY_JSON, .body_max = 16 * 1024,
	    .flags = EP_DB | EP_STRICT | EP_REMOTE | EP_CREATES | EP_SAME_200, .fields = review_v1_fields,
	    .summary = "publish a " BRAND_LANE " (V1) review signed by the recognition's tipper" },
	{ .id = "x402.reviews.self_reported", .method = HM_POST,
	    .pattern = "/api/v1/x402/reviews/self-reported", .handler = h_review_v3_post,
	    .prepay = h_review_v3_prepay, .auth = AUTH_PAID, .rate = RATE_SIGNED,
	    .price_usdc = "0.05", .body = BODY_JSON,
	    .body_max = 16 * 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE | EP_PAY_RESUME | EP_CREATES | EP_SAME_200,
	    .fields = review_v3_fields,
	    .summary = "paid: publish a self_reported (V3) review signed by the reviewer; never ranked" },
	{ .id = "x402.reviews.receipt_verified", .method = HM_POST,
	    .pattern = "/api/v1/x402/reviews/receipt-verified", .handler = h_review_v2_post,
	    .prepay = h_review_v2_prepay, .auth = AUTH_PAID, .rate = RATE_SIGNED,
	    .price_usdc = "0.01", .body = BODY_JSON,
	    .body_max = 64 * 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE | EP_PAY_RESUME | EP_CREATES | EP_SAME_200,
	    .fields = review_v2_fields,
	    .summary = "paid: publish a receipt_verified (V2) review with the route's signed offer and receipt; never ranked" },
	{ .id = "site.x402_route_reviews", .method = HM_GET,
	    .pattern = "/api/site/x402/routes/{routeId}/reviews", .handler = h_site_route_reviews_get,
	    .auth = AUTH_NONE, .rate = RATE_SITE,
	    .flags = EP_DB, .fields = site_route_reviews_fields,
	    .summary = "the free public review source of a route (every lane, newest first)" },
	{ .id = "site.x402_discover", .method = HM_GET, .pattern = "/api/site/x402/discover",
	    .handler = h_site_discover_get, .auth = AUTH_NONE, .rate = RATE_SITE, .flags = EP_DB,
	    .fields = site_discover_fields,
	    .summary = "a page of endpoints from the wider x402 network (synced catalog)" },
	{ .id = "x402.economics", .method = HM_GET, .pattern = "/api/v1/x402/economics",
	    .handler = h_economics_get, .auth = AUTH_NONE,
	    .summary = "free: payment recipients, paid-row prices, the fixed burn, experiments" },
	{ .id = "x402.review_draft", .method = HM_POST, .pattern = "/api/v1/x402/review-draft",
	    .handler = h_review_draft_post, .auth = AUTH_NONE, .body = BODY_JSON,
	    .body_max = 16 * 1024, .flags = EP_STRICT, .fields = review_draft_fields,
	    .summary = "deterministic review draft from an observation; never published" },
	{ .id = "x402.review_prepare", .method = HM_POST, .pattern = "/api/v1/x402/review-prepare",
	    .handler = h_review_prepare_post, .auth = AUTH_NONE, .body = BODY_JSON,
	    .body_max = 16 * 1024, .flags = EP_STRICT, .fields = review_prepare_fields,
	    .summary = "fixed technical review draft from caller-supplied facts; never published" },
	{ .id = "mcp", .method = HM_POST, .pattern = "/mcp", .handler = h_mcp_post,
	    .auth = AUTH_NONE, .rate = RATE_AGENT, .body = BODY_JSON, .body_max = 64 * 1024,
	    .flags = EP_DB_TRY | EP_JSONRPC | EP_REMOTE,
	    .summary = "read-only MCP tools (JSON-RPC over Streamable HTTP): discovery, drafts and the free agent skills" },
	{ .id = "mcp.describe", .method = HM_GET, .pattern = "/mcp", .handler = h_mcp_get,
	    .auth = AUTH_NONE,
	    .summary = "the MCP tool surface described as JSON; a GET for text/event-stream answers 405" },
	{ .id = "x402.route_contexts", .method = HM_POST, .pattern = "/api/v1/x402/route-contexts",
	    .handler = h_route_contexts_post, .auth = AUTH_NONE, .rate = RATE_SIGNED,
	    .body = BODY_JSON,
	    .body_max = 128 * 1024, .flags = EP_DB | EP_STRICT | EP_CREATES | EP_SAME_200, .fields = route_context_fields,
	    .summary = "publish a route participant's signed route note and offer (one slot per wallet and route)" },
	{ .id = "x402.route", .method = HM_GET, .pattern = "/api/v1/x402/routes/{routeId}",
	    .handler = h_route_get, .auth = AUTH_PAID, .price_usdc = "0.01",
	    .flags = EP_DB | EP_NO_STORE, .fields = route_fields,
	    .summary = "paid: one route's recognition totals, review summary and signed contexts" },
	{ .id = "x402.route_recognitions", .method = HM_GET,
	    .pattern = "/api/v1/x402/routes/{routeId}/recognitions", .handler = h_route_recognitions_get,
	    .auth = AUTH_PAID, .price_usdc = "0.01", .flags = EP_DB | EP_NO_STORE,
	    .fields = route_recognitions_fields,
	    .summary = "paid: a route's routed recognitions, newest first, paged" },
	{ .id = "x402.routes", .method = HM_GET, .pattern = "/api/v1/x402/routes",
	    .handler = h_routes_get, .auth = AUTH_PAID, .price_usdc = "0.01",
	    .flags = EP_DB | EP_NO_STORE, .fields = routes_fields, .check = h_routes_check,
	    .summary = "paid: the described-route directory (sort, context, filters, cursor paging)" },
	{ .id = "x402.graph", .method = HM_GET, .pattern = "/api/v1/x402/graph",
	    .handler = h_graph_get, .auth = AUTH_PAID, .price_usdc = "0.01",
	    .flags = EP_DB | EP_NO_STORE, .fields = graph_fields, .check = h_graph_check,
	    .summary = "paid: endpoint and wallet nodes with recognized, reviewed and described edges" },
	{ .id = "score", .method = HM_POST, .pattern = "/api/v1/score", .handler = h_score_post,
	    .check = h_score_check, .auth = AUTH_PAID, .price_usdc = "0.01", .body = BODY_JSON,
	    .body_max = 4 * 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE, .fields = score_fields,
	    .summary = "paid: a deterministic, conservative suggested recognition amount with its components" },
	{ .id = "x402.route_reviews", .method = HM_GET,
	    .pattern = "/api/v1/x402/routes/{routeId}/reviews", .handler = h_route_reviews_get,
	    .auth = AUTH_PAID, .price_usdc = "0.01", .flags = EP_DB | EP_NO_STORE,
	    .fields = route_recognitions_fields,
	    .summary = "paid: a route's reviews by evidence lane, newest first, paged" },
	{ .id = "x402.reviewer_reviews", .method = HM_GET, .pattern = "/api/v1/x402/reviews",
	    .handler = h_reviewer_reviews_get, .auth = AUTH_PAID, .price_usdc = "0.01",
	    .flags = EP_DB | EP_NO_STORE, .fields = reviewer_reviews_fields,
	    .summary = "paid: the routes one wallet reviewed, newest first, paged" },
	{ .id = "x402.routed_" BRAND_LOWER "s", .method = HM_GET,
	    .pattern = "/api/v1/x402/routed-" BRAND_LOWER "s",
	    .handler = h_routed_boons_get, .auth = AUTH_PAID, .price_usdc = "0.01",
	    .flags = EP_DB | EP_NO_STORE, .fields = routed_boons_fields, .check = h_routed_boons_check,
	    .summary = "paid (legacy): routed recognitions keyed by routeId or txHash" },
	{ .id = "x402.reports.compare", .method = HM_POST, .pattern = "/api/v1/x402/reports/compare",
	    .handler = h_report_compare_post, .auth = AUTH_PAID, .price_usdc = "0.01", .body = BODY_JSON,
	    .body_max = 4 * 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE, .fields = report_compare_fields,
	    .summary = "paid: a comparison matrix of the discovery candidates' facts; no winner, no ranking" },
	{ .id = "x402.reports.changes", .method = HM_POST, .pattern = "/api/v1/x402/reports/changes",
	    .handler = h_report_changes_post, .check = h_report_changes_check, .auth = AUTH_PAID,
	    .price_usdc = "0.01", .body = BODY_JSON, .body_max = REPORTS_BODY_MAX,
	    .flags = EP_DB | EP_STRICT | EP_NO_STORE, .fields = report_changes_fields,
	    .summary = "paid: the delta of discovery now against a caller-supplied saved snapshot" },
	{ .id = "x402.reports.export", .method = HM_POST, .pattern = "/api/v1/x402/reports/export",
	    .handler = h_report_export_post, .check = h_report_export_check, .auth = AUTH_PAID,
	    .price_usdc = "0.01", .body = BODY_JSON, .body_max = REPORTS_BODY_MAX,
	    .flags = EP_DB | EP_STRICT | EP_NO_STORE, .fields = report_export_fields,
	    .summary = "paid: one bounded report with a contentDigest checksum (not a signature)" },
	{ .id = "x402.profiles.create", .method = HM_POST, .pattern = "/api/v1/x402/profiles",
	    .handler = h_profile_create_post, .auth = AUTH_SIWX, .rate = RATE_SIGNIN,
	    .body = BODY_JSON, .body_max = 1024,
	    .flags = EP_DB | EP_STRICT | EP_NO_STORE | EP_CREATES | EP_SAME_200, .fields = profile_create_fields,
	    .summary = "SIWX: create the signing controller's private wallet profile (idempotent)" },
	{ .id = "x402.profiles.get", .method = HM_GET, .pattern = "/api/v1/x402/profiles/{profileId}",
	    .handler = h_profile_get, .auth = AUTH_SIWX, .rate = RATE_SIGNIN,
	    .flags = EP_DB | EP_NO_STORE,
	    .fields = profile_fields,
	    .summary = "SIWX: the controller's private profile and its active wallets" },
	{ .id = "x402.profiles.links.prepare", .method = HM_POST,
	    .pattern = "/api/v1/x402/profiles/{profileId}/wallet-links", .handler = h_link_prepare_post,
	    .auth = AUTH_SIWX, .rate = RATE_SIGNIN,
	    .body = BODY_JSON, .body_max = 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE | EP_CREATES,
	    .fields = link_prepare_fields,
	    .summary = "SIWX (controller): a pending link of a member wallet, with its intent and digest" },
	{ .id = "x402.profiles.links.get", .method = HM_GET,
	    .pattern = "/api/v1/x402/profiles/{profileId}/wallet-links/{walletRef}", .handler = h_link_get,
	    .auth = AUTH_SIWX, .rate = RATE_SIGNIN,
	    .flags = EP_DB | EP_NO_STORE, .fields = link_get_fields,
	    .summary = "SIWX (controller or member): a wallet link's state, by link ID" },
	{ .id = "x402.profiles.links.revoke", .method = HM_DELETE,
	    .pattern = "/api/v1/x402/profiles/{profileId}/wallet-links/{walletRef}", .handler = h_link_revoke_delete,
	    .auth = AUTH_SIWX, .rate = RATE_SIGNIN,
	    .body = BODY_JSON, .body_max = 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE,
	    .fields = link_revoke_fields,
	    .summary = "SIWX (controller or member): end a member wallet's active link, by its CAIP-10 account" },
	{ .id = "x402.profiles.links.confirm", .method = HM_POST,
	    .pattern = "/api/v1/x402/profiles/{profileId}/wallet-links/{linkId}/confirm",
	    .handler = h_link_confirm_post, .siwx_request = h_link_confirm_request, .auth = AUTH_SIWX,
	    .rate = RATE_SIGNIN, .body = BODY_JSON, .body_max = 1024,
	    .flags = EP_DB | EP_STRICT | EP_NO_STORE, .fields = link_confirm_fields,
	    .summary = "SIWX (member): confirm a pending link with its identical intent digest" },
	{ .id = "x402.profiles.activity.publish", .method = HM_POST,
	    .pattern = "/api/v1/x402/profiles/{profileId}/activity", .handler = h_activity_publish_post,
	    .auth = AUTH_SIWX, .rate = RATE_SIGNIN, .body = BODY_JSON, .body_max = 64 * 1024,
	    .flags = EP_DB | EP_STRICT | EP_NO_STORE | EP_CREATES, .fields = activity_publish_fields,
	    .summary = "SIWX (an active wallet): publish verified activity evidence as one fact (x402 receipt, Base USDC transfer, client settlement)" },
	{ .id = "x402.profiles.activity.review", .method = HM_POST,
	    .pattern = "/api/v1/x402/profiles/{profileId}/activity/{activityId}/review",
	    .handler = h_activity_review_post, .check = h_activity_review_check,
	    .siwx_request = h_activity_review_request, .siwx_mismatch = ERR_REVIEW_MISMATCH,
	    .auth = AUTH_SIWX, .rate = RATE_SIGNIN, .body = BODY_JSON,
	    .body_max = 8 * 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE | EP_CREATES | EP_SAME_200, .fields = activity_review_fields,
	    .summary = "SIWX (the publishing wallet): attach a client_settlement review to a public activity; never ranked" },
	{ .id = "x402.profiles.discovery.preview", .method = HM_GET,
	    .pattern = "/api/v1/x402/profiles/{profileId}/discovery/preview", .handler = h_profile_preview_get,
	    .auth = AUTH_SIWX, .rate = RATE_SIGNIN,
	    .flags = EP_DB | EP_NO_STORE, .fields = profile_fields,
	    .summary = "SIWX (controller): what public_all would publish (wallet IDs, fact counts), with its digest" },
	{ .id = "x402.profiles.discovery", .method = HM_PUT,
	    .pattern = "/api/v1/x402/profiles/{profileId}/discovery", .handler = h_profile_discovery_put,
	    .check = h_profile_discovery_check, .auth = AUTH_SIWX, .rate = RATE_SIGNIN,
	    .body = BODY_JSON, .body_max = 1024,
	    .flags = EP_DB | EP_STRICT | EP_NO_STORE, .fields = profile_discovery_fields,
	    .summary = "SIWX (controller): set the discovery mode; public_all needs the current preview digest and every member's consent" },
	{ .id = "x402.profiles.activity", .method = HM_GET,
	    .pattern = "/api/v1/x402/profiles/{profileId}/activity", .handler = h_profile_feed_get,
	    .check = h_profile_feed_check, .prepay = h_profile_feed_prepay, .auth = AUTH_PAID,
	    .price_usdc = "0.01", .flags = EP_DB | EP_NO_STORE, .fields = profile_feed_fields,
	    .summary = "paid: a public profile's activity facts, newest first, cursor paging" },
	{ .id = "x402.profiles.wallet_activity", .method = HM_GET,
	    .pattern = "/api/v1/x402/profiles/by-wallet/{accountId}/activity", .handler = h_profile_feed_get,
	    .check = h_profile_feed_check, .prepay = h_profile_feed_prepay, .auth = AUTH_PAID,
	    .price_usdc = "0.01", .flags = EP_DB | EP_NO_STORE, .fields = wallet_feed_fields,
	    .summary = "paid: the activity facts of the public profile a wallet is active in" },
	{ .id = "site.x402_profile", .method = HM_GET, .pattern = "/api/site/x402/profiles/{profileId}",
	    .handler = h_site_profile_get, .auth = AUTH_NONE, .rate = RATE_SITE, .flags = EP_DB,
	    .fields = profile_fields,
	    .summary = "the compact public profile (only for a published profile)" },
	{ .id = "site.x402_wallet_profile", .method = HM_GET,
	    .pattern = "/api/site/x402/profiles/by-wallet/{accountId}", .handler = h_site_profile_get,
	    .auth = AUTH_NONE, .rate = RATE_SITE,
	    .flags = EP_DB, .fields = site_wallet_profile_fields,
	    .summary = "the compact public profile a wallet is active in (only for a published profile)" },
	{ .id = "site.x402_profile_activity", .method = HM_GET,
	    .pattern = "/api/site/x402/profiles/{profileId}/activity/{activityId}",
	    .handler = h_site_profile_activity_get, .check = h_site_activity_check, .auth = AUTH_NONE,
	    .rate = RATE_SITE, .flags = EP_DB, .fields = site_activity_fields,
	    .summary = "one fact of a published profile and its activity review: the source a review's sourceUrl cites" },
	{ .id = "receipts.get", .method = HM_GET, .pattern = "/api/v1/receipts/{txHash}",
	    .handler = h_receipt_get, .auth = AUTH_NONE, .flags = EP_DB, .fields = receipt_fields,
	    .summary = "free: the indexed tips a transaction created or settled" },
	{ .id = "attestations.get", .method = HM_GET, .pattern = "/api/v1/attestations/{tipId}",
	    .handler = h_attestation_get, .auth = AUTH_NONE, .flags = EP_DB, .fields = attestation_fields,
	    .summary = "free: ERC-721 metadata of a tip's soulbound attestation (no note, no amount)" },
	{ .id = "site.link_wallet", .method = HM_GET, .pattern = "/api/site/link/wallet",
	    .handler = h_site_link_wallet_get, .auth = AUTH_NONE, .rate = RATE_SITE, .flags = EP_DB,
	    .fields = site_link_wallet_fields,
	    .summary = "the handles and accounts linked to a checksummed wallet (reverse lookup)" },
	{ .id = "site.x402_wallet_endpoints", .method = HM_GET,
	    .pattern = "/api/site/x402/wallet-endpoints", .handler = h_site_wallet_endpoints_get,
	    .auth = AUTH_NONE, .rate = RATE_SITE,
	    .flags = EP_DB, .fields = site_wallet_endpoints_fields,
	    .summary = "endpoints paying a checksummed wallet as provider (provider_candidate matches only)" },
	{ .id = "handles." BRAND_LOWER "s", .method = HM_GET,
	    .pattern = "/api/v1/handles/{handle}/" BRAND_LOWER "s", .handler = h_handle_tips_get,
	    .check = h_handle_tips_check, .auth = AUTH_PAID, .price_usdc = "0.01",
	    .flags = EP_DB | EP_NO_STORE, .fields = handle_tips_fields,
	    .summary = "paid: the tips a handle received, newest first, cursor-paged" },
	{ .id = "graphs.gratitude", .method = HM_GET, .pattern = "/api/v1/graphs/gratitude",
	    .handler = h_gratitude_get, .check = h_gratitude_check, .auth = AUTH_PAID,
	    .price_usdc = "0.01", .flags = EP_DB | EP_NO_STORE, .fields = gratitude_fields,
	    .summary = "paid: the gratitude graph of a handle or of a repository's note markers" },
	{ .id = "graphs.queries", .method = HM_POST, .pattern = "/api/v1/graphs/queries",
	    .handler = h_queries_post, .check = h_queries_check, .auth = AUTH_PAID, .price_usdc = "0.01",
	    .body = BODY_JSON, .body_max = 8 * 1024, .flags = EP_DB | EP_STRICT | EP_NO_STORE,
	    .fields = queries_fields,
	    .summary = "paid: the gratitude graph across up to 25 handles, one flat price" },
	{ .id = "a2a.agent_card", .method = HM_GET, .pattern = "/.well-known/agent-card.json",
	    .handler = h_agent_card_get, .auth = AUTH_NONE,
	    .summary = "the A2A Agent Card: one HTTP+JSON interface, the extensions and every skill" },
	{ .id = "a2a.interface", .method = HM_GET, .pattern = "/a2a", .handler = h_a2a_get,
	    .auth = AUTH_NONE,
	    .summary = "the A2A interface descriptor: version, binding, supported operations" },
	{ .id = "a2a.message_send", .method = HM_POST, .pattern = "/a2a/message:send",
	    .handler = h_a2a_send_post, .auth = AUTH_NONE, .rate = RATE_AGENT, .body = BODY_JSON,
	    .body_max = 64 * 1024,
	    .flags = EP_DB_TRY | EP_REMOTE | EP_A2A, .fields = a2a_send_fields,
	    .summary = "A2A SendMessage (or {skillId, params}): a task answered at once; never executes" },
	A2A_UNSUPPORTED("a2a.message_stream", HM_POST, "/a2a/message:stream", NULL,
	    h_a2a_unsupported, "A2A streaming: unsupported (400 UNSUPPORTED_OPERATION)"),
	A2A_UNSUPPORTED("a2a.tasks.list", HM_GET, "/a2a/tasks", NULL, h_a2a_unsupported,
	    "A2A ListTasks: unsupported, tasks are not stored"),
	A2A_UNSUPPORTED("a2a.tasks.get", HM_GET, "/a2a/tasks/{taskId}", a2a_task_fields,
	    h_a2a_unsupported, "A2A GetTask: unsupported, tasks are not stored"),
	A2A_UNSUPPORTED("a2a.tasks.action", HM_POST, "/a2a/tasks/{taskId}", a2a_task_fields,
	    h_a2a_unsupported, "A2A CancelTask and SubscribeToTask ({id}:cancel, {id}:subscribe): unsupported"),
	A2A_UNSUPPORTED("a2a.push.list", HM_GET, "/a2a/tasks/{taskId}/pushNotificationConfigs",
	    a2a_task_fields, h_a2a_push_unsupported, "A2A push configurations: not supported"),
	A2A_UNSUPPORTED("a2a.push.create", HM_POST, "/a2a/tasks/{taskId}/pushNotificationConfigs",
	    a2a_task_fields, h_a2a_push_unsupported, "A2A push configurations: not supported"),
	A2A_UNSUPPORTED("a2a.push.get", HM_GET,
	    "/a2a/tasks/{taskId}/pushNotificationConfigs/{configId}", a2a_push_fields,
	    h_a2a_push_unsupported, "A2A push configurations: not supported"),
	A2A_UNSUPPORTED("a2a.push.delete", HM_DELETE,
	    "/a2a/tasks/{taskId}/pushNotificationConfigs/{configId}", a2a_push_fields,
	    h_a2a_push_unsupported, "A2A push configurations: not supported"),
	A2A_UNSUPPORTED("a2a.extended_card", HM_GET, "/a2a/extendedAgentCard", NULL,
	    h_a2a_unsupported, "A2A extended Agent Card: unsupported"),
	{ .id = "acp.resources", .method = HM_GET, .pattern = "/api/v1/acp/resources",
	    .handler = h_acp_resources_get, .auth = AUTH_NONE,
	    .summary = "the ACP resource catalog: eight resources, free or x402, with their links" },
	{ .id = "acp.recognition_suggestion", .method = HM_POST,
	    .pattern = "/api/v1/acp/recognition-suggestion", .handler = h_acp_suggestion_post,
	    .check = h_acp_suggestion_check, .auth = AUTH_NONE, .body = BODY_JSON,
	    .body_max = 16 * 1024, .flags = EP_STRICT, .fields = suggestion_fields,
	    .summary = "a post-ACP-job recognition suggestion for agent:<N>; never executes or fetches evidence" },
	{ .id = "private_tips.blob", .method = HM_POST, .pattern = "/api/v1/private-tip-blobs",
	    .handler = h_private_blob_post, .auth = AUTH_NONE, .rate = RATE_SIGNED,
	    .body = BODY_JSON, .body_max = 4096,
	    .flags = EP_DB | EP_STRICT | EP_CREATES | EP_SAME_200, .fields = private_blob_fields,
	    .summary = "store a private tip's note, bound to its commitment keccak256(salt || note), encrypted at rest" },
	{ .id = "private_tips.pending", .method = HM_GET, .pattern = "/api/v1/private-tips/pending",
	    .handler = h_private_pending_get, .auth = AUTH_NONE, .flags = EP_DB,
	    .fields = private_pending_fields,
	    .summary = "recipient-safe previews of a handle's private tips (never a note, amount or commitment)" },
	{ .id = "private_tips.auth_challenge", .method = HM_POST, .pattern = "/tips/{tipId}/auth-challenge",
	    .handler = h_private_challenge_post, .auth = AUTH_NONE, .rate = RATE_UNLOCK,
	    .flags = EP_DB,
	    .fields = private_tip_fields,
	    .summary = "a single-use, five-minute EIP-712 PrivateTipUnlock challenge for one private tip" },
	{ .id = "private_tips.unlock", .method = HM_GET, .pattern = "/tips/{tipId}",
	    .handler = h_private_unlock_get, .prepay = h_private_unlock_prepay, .auth = AUTH_PAID, .rate = RATE_UNLOCK,
	    .price_usdc = "1", .flags = EP_DB | EP_NO_STORE | EP_PAY_PRIVATE, .fields = private_tip_fields,
	    .summary = "a private tip's note and amount: free for the tipper, the recipient or a wallet that paid "
	    "(signed headers), else $1 to the tipper" },
	{ .id = BRAND_LOWER "s.disclosure", .method = HM_GET,
	    .pattern = "/api/v1/" BRAND_LOWER "s/{txHash}/disclosure", .handler = h_disclosure_get,
	    .auth = AUTH_NONE, .flags = EP_DB, .fields = disclosure_get_fields,
	    .summary = "whether the tipper disclosed a private tip, and who signed it when" },
	{ .id = BRAND_LOWER "s.disclosure.disclose", .method = HM_POST,
	    .pattern = "/api/v1/" BRAND_LOWER "s/{txHash}/disclosure", .handler = h_disclosure_post,
	    .auth = AUTH_NONE, .rate = RATE_SIGNED, .body = BODY_JSON, .body_max = 16 * 1024,
	    .flags = EP_DB | EP_STRICT | EP_REMOTE, .fields = disclosure_fields,
	    .summary = "disclose a private tip's note and amount, signed (EIP-712 Disclosure) by its tipper" },
	{ .id = BRAND_LOWER "s.disclosure.withdraw", .method = HM_DELETE,
	    .pattern = "/api/v1/" BRAND_LOWER "s/{txHash}/disclosure", .handler = h_disclosure_delete,
	    .auth = AUTH_NONE, .rate = RATE_SIGNED, .body = BODY_JSON, .body_max = 16 * 1024,
	    .flags = EP_DB | EP_STRICT | EP_REMOTE, .fields = disclosure_fields,
	    .summary = "withdraw a disclosure for future reads, signed by the tipper" },
	{ .id = "openapi", .method = HM_GET, .pattern = "/openapi.json", .handler = h_openapi_get,
	    .auth = AUTH_NONE, .rate = RATE_SITE,
	    .summary = "the interface description: OpenAPI 3.1, generated from this table" },
	{ .id = "x402.well_known", .method = HM_GET, .pattern = "/.well-known/x402",
	    .handler = h_x402_wellknown_get, .auth = AUTH_NONE, .rate = RATE_SITE,
	    .summary = "the paid resources as x402 crawlers read them (version 1 fan-out document)" },
	{ .id = "skill", .method = HM_GET, .pattern = "/skill.md", .handler = h_skill_get,
	    .auth = AUTH_NONE, .rate = RATE_SITE,
	    .summary = "the agent skill file: how to discover, pay, sign in and review here; prices from this table" },
	{ .id = "feed.retired", .method = HM_GET, .pattern = "/api/feed", .handler = h_feed_get,
	    .auth = AUTH_NONE, .summary = "retired feed: 410 with the replacement" },
	{ .id = "handles.has_" BRAND_LOWER "s", .method = HM_GET,
	    .pattern = "/api/v1/handles/{handle}/has-" BRAND_LOWER "s", .handler = h_has_boons_get,
	    .auth = AUTH_NONE, .flags = EP_DB, .fields = handle_fields,
	    .summary = "whether a canonical handle has received or sent tips, with both counts" },
	{ .id = "handles.profile", .method = HM_GET, .pattern = "/api/v1/handles/{handle}/profile",
	    .handler = h_handle_profile_get, .auth = AUTH_NONE, .flags = EP_DB, .fields = handle_fields,
	    .summary = "a handle's points and public tip totals (no per-tip list)" },
	{ .id = "handles.points", .method = HM_GET, .pattern = "/api/v1/handles/{handle}/points",
	    .handler = h_handle_points_get, .auth = AUTH_NONE, .flags = EP_DB, .fields = handle_fields,
	    .summary = "a handle's received and sent points, decayed points and their source" },
	{ .id = "points.policy", .method = HM_GET, .pattern = "/api/v1/points/policy",
	    .handler = h_points_policy_get, .auth = AUTH_NONE,
	    .summary = "the points policy's rules as data (our own, labelled)" },
	{ .id = "board", .method = HM_GET, .pattern = "/api/v1/board", .handler = h_board_get,
	    .auth = AUTH_NONE, .flags = EP_DB, .fields = board_fields,
	    .summary = "top recipients and tippers of tips, with aggregate stats" },
	{ .id = "board.leaderboard", .method = HM_GET, .pattern = "/api/leaderboard",
	    .handler = h_board_get, .auth = AUTH_NONE, .flags = EP_DB, .fields = board_fields,
	    .summary = "compatibility alias of /api/v1/board" },
	PAGE_ROW("pages.search", "/", h_page_search_get, page_search_fields,
	    "page: search the endpoints (the discovery candidates, lane by lane)"),
	PAGE_ROW("pages.route", "/routes/{routeId}", h_page_route_get, route_fields,
	    "page: a route's free facts, signed context, reviews by lane and timeline"),
	PAGE_ROW("pages.route_alias", "/x402/routes/{routeId}", h_page_route_get, route_fields,
	    "page: the route page at the discovery candidates' links.web"),
	PAGE_ROW("pages.handle", "/handles/{handle}", h_page_handle_get, handle_fields,
	    "page: a handle's points and public tip totals"),
	PAGE_ROW("pages.handle_alias", "/p/{handle}", h_page_handle_get, handle_fields,
	    "page: the handle page at the deployed protocol's profile path (profileUrl)"),
	PAGE_ROW("pages.board", "/board", h_page_board_get, NULL,
	    "page: the board of top recipients and tippers"),
	PAGE_ROW("pages.receipt", "/receipts/{txHash}", h_page_receipt_get, receipt_fields,
	    "page: the indexed tips a transaction created or settled"),
	PAGE_ROW("pages.receipt_alias", "/b/{txHash}", h_page_receipt_get, receipt_fields,
	    "page: the receipt page at the deployed protocol's receipt path (an attestation's external_url)"),
	PAGE_ROW("pages.profile", "/profiles/{profileId}", h_page_profile_get, profile_fields,
	    "page: a published wallet profile (a private one is not found)"),
	{ .id = "pages.a2a_extension", .method = HM_GET,
	    .pattern = "/docs/a2a/extensions/{extension}/{version}", .handler = h_page_a2a_extension_get,
	    .auth = AUTH_NONE, .rate = RATE_SITE, .flags = EP_HTML, .fields = page_extension_fields,
	    .summary = "page: the A2A extension an extension URI names (docs_url)" },
	DOCS_ROW("pages.docs_a2a", "/docs/a2a", h_page_docs_a2a_get, NULL,
	    "page: the A2A agent's skills and extensions (the Agent Card's documentationUrl)"),
	DOCS_ROW("pages.docs", "/docs", h_page_docs_get, NULL,
	    "documentation: every endpoint, grouped, and the guides (docs_url)"),
	DOCS_ROW("pages.docs_row", "/docs/endpoints/{rowId}", h_page_docs_row_get, page_docs_row_fields,
	    "documentation: one endpoint's method, path, price, auth, limits, fields, answers and an example"),
	DOCS_ROW("pages.docs_pay", "/docs/pay-and-sign-in", h_page_docs_pay_get, NULL,
	    "documentation: how to pay (x402 and MPP) and sign in (SIWX)"),
	DOCS_ROW("pages.docs_points", "/docs/points-policy", h_page_points_policy_get, NULL,
	    "documentation: the points policy, as its free read serves it"),
	DOCS_ROW("pages.docs_score", "/docs/score-policy", h_page_score_policy_get, NULL,
	    "documentation: the score policy's formula, from its constants"),
	{ .id = "wallets.sent", .method = HM_GET, .pattern = "/api/v1/wallets/{address}/sent",
	    .handler = h_wallet_sent_get, .auth = AUTH_NONE, .flags = EP_DB, .fields = wallet_sent_fields,
	    .summary = "a wallet's sender-side tip totals and sent points (aggregates only)" },
};

const size_t nendpoints = sizeof(endpoints) / sizeof(endpoints[0]);

const struct endpoint *
table_row(const char *id)
{
	for (size_t i = 0; id && i < nendpoints; i++)
		if (strcmp(endpoints[i].id, id) == 0)
			return &endpoints[i];
	return NULL;
}
