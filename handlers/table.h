/*
 * table.h: the dispatch table (table.c), the map of the service, and the
 * handler functions its rows name. One handler file per resource family.
 */
#ifndef WAYMARK_TABLE_H
#define WAYMARK_TABLE_H

#include <stddef.h>

#include "endpoint.h"

extern const struct endpoint endpoints[];
extern const size_t nendpoints;

/* The row whose id is id, or NULL. */
const struct endpoint *table_row(const char *id);

/* health.c */
enum err h_health_get(struct req *r, struct resp *w);

/* workflows.c; the fields of one cost-preview step are in table.c */
extern const struct field cost_preview_step_fields[];
enum err h_cost_preview_post(struct req *r, struct resp *w);

/* discovery.c */
enum err h_discovery_get(struct req *r, struct resp *w);
enum err h_bazaar_resources_get(struct req *r, struct resp *w);
enum err h_bazaar_search_get(struct req *r, struct resp *w);

/* reviews.c */
enum err h_review_v1_post(struct req *r, struct resp *w);
enum err h_site_route_reviews_get(struct req *r, struct resp *w);

/* review_v2.c (paid receipt_verified publication; the prepay hook of its row) */
enum err h_review_v2_prepay(struct req *r, struct resp *w);
enum err h_review_v2_post(struct req *r, struct resp *w);

/* review_v3.c (paid self_reported publication; the prepay hook of its row) */
enum err h_review_v3_prepay(struct req *r, struct resp *w);
enum err h_review_v3_post(struct req *r, struct resp *w);

/* profiles.c (AUTH_SIWX rows: r->siwx is the verified signer) */
enum err h_profile_create_post(struct req *r, struct resp *w);
enum err h_profile_get(struct req *r, struct resp *w);

/* links.c (AUTH_SIWX rows; the confirm's .siwx_request binds its intent digest) */
enum err h_link_prepare_post(struct req *r, struct resp *w);
enum err h_link_get(struct req *r, struct resp *w);
int h_link_confirm_request(struct req *r, char *out, size_t cap);
enum err h_link_confirm_post(struct req *r, struct resp *w);
enum err h_link_revoke_delete(struct req *r, struct resp *w);

/* activity_publish.c, activity_review.c (AUTH_SIWX rows; the review's .check refuses an
 * invalid text or a stale createdAt before any challenge, its .siwx_request binds the
 * challenge to the review statement) */
enum err h_activity_publish_post(struct req *r, struct resp *w);
enum err h_activity_review_check(struct req *r, struct resp *w);
int h_activity_review_request(struct req *r, char *out, size_t cap);
enum err h_activity_review_post(struct req *r, struct resp *w);

/* profile_mode.c (AUTH_SIWX rows: the discovery preview and mode) */
extern const char *const discovery_mode_names[];
enum err h_profile_preview_get(struct req *r, struct resp *w);
enum err h_profile_discovery_check(struct req *r, struct resp *w);
enum err h_profile_discovery_put(struct req *r, struct resp *w);

/* public_profiles.c (a published profile: the paid feeds, whose prepay answers 404 before any
 * payment, and the free site reads) */
enum err h_profile_feed_check(struct req *r, struct resp *w);
enum err h_profile_feed_prepay(struct req *r, struct resp *w);
enum err h_profile_feed_get(struct req *r, struct resp *w);
enum err h_site_profile_get(struct req *r, struct resp *w);
enum err h_site_activity_check(struct req *r, struct resp *w);
enum err h_site_profile_activity_get(struct req *r, struct resp *w);

/* site.c */
enum err h_site_discover_get(struct req *r, struct resp *w);

/* economics.c */
enum err h_economics_get(struct req *r, struct resp *w);

/* drafts.c */
enum err h_review_draft_post(struct req *r, struct resp *w);
enum err h_review_prepare_post(struct req *r, struct resp *w);

/* mcp.c */
enum err h_mcp_post(struct req *r, struct resp *w);
enum err h_mcp_get(struct req *r, struct resp *w);

/* contexts.c (the shared reads are in contexts.h) */
enum err h_route_contexts_post(struct req *r, struct resp *w);

/* routes.c (paid single-route reads) */
enum err h_route_get(struct req *r, struct resp *w);
enum err h_route_recognitions_get(struct req *r, struct resp *w);
enum err h_route_reviews_get(struct req *r, struct resp *w);
enum err h_reviewer_reviews_get(struct req *r, struct resp *w);
enum err h_routed_boons_get(struct req *r, struct resp *w);
/* Cross-field checks (endpoint .check): exactly one of routeId/txHash. */
enum err h_routed_boons_check(struct req *r, struct resp *w);
/* directory.c (the paid directory): choices of sort and context; .check refuses a cursor
 * that is malformed or was issued for another sort or context. */
extern const char *const route_sort_names[];
extern const char *const route_context_names[];
extern const char *const route_method_names[]; /* the method filter (docs/PROTOCOL.md) */
enum err h_routes_get(struct req *r, struct resp *w);
enum err h_routes_check(struct req *r, struct resp *w);

/* graph.c (paid graph read; its route selection is routes_select, directory.h) */
enum err h_graph_get(struct req *r, struct resp *w);
enum err h_graph_check(struct req *r, struct resp *w);

/* score.c (paid score; the formula is lib/score.h) */
enum err h_score_post(struct req *r, struct resp *w);
enum err h_score_check(struct req *r, struct resp *w);

/* reports.c (paid reports; the .check hooks validate a baseline before any payment) */
enum err h_report_compare_post(struct req *r, struct resp *w);
enum err h_report_changes_check(struct req *r, struct resp *w);
enum err h_report_changes_post(struct req *r, struct resp *w);
enum err h_report_export_check(struct req *r, struct resp *w);
enum err h_report_export_post(struct req *r, struct resp *w);

/* tipreads.c (the tip record is tipreads.h) */
enum err h_receipt_get(struct req *r, struct resp *w);
enum err h_attestation_get(struct req *r, struct resp *w);
enum err h_handle_tips_get(struct req *r, struct resp *w);
enum err h_handle_tips_check(struct req *r, struct resp *w);

/* gratitude.c (paid graphs; .check canonicalizes every handle before payment) */
enum err h_gratitude_get(struct req *r, struct resp *w);
enum err h_gratitude_check(struct req *r, struct resp *w);
enum err h_queries_post(struct req *r, struct resp *w);
enum err h_queries_check(struct req *r, struct resp *w);

/* sitewallet.c (free, rate-limited site reads of one wallet) */
enum err h_site_link_wallet_get(struct req *r, struct resp *w);
enum err h_site_wallet_endpoints_get(struct req *r, struct resp *w);

/* handles.c (free handle reads and the points policy; points from tippoints.h) */
enum err h_has_boons_get(struct req *r, struct resp *w);
enum err h_handle_profile_get(struct req *r, struct resp *w);
enum err h_handle_points_get(struct req *r, struct resp *w);
enum err h_points_policy_get(struct req *r, struct resp *w);

/* board.c (the board and its alias, a wallet's sent totals) */
enum err h_board_get(struct req *r, struct resp *w);
enum err h_wallet_sent_get(struct req *r, struct resp *w);

/* a2a.c (the A2A rows: EP_A2A; the skills are skills.h) and acp.c */
enum err h_agent_card_get(struct req *r, struct resp *w);
enum err h_a2a_get(struct req *r, struct resp *w);
enum err h_a2a_send_post(struct req *r, struct resp *w);
enum err h_a2a_unsupported(struct req *r, struct resp *w);
enum err h_a2a_push_unsupported(struct req *r, struct resp *w);
enum err h_acp_resources_get(struct req *r, struct resp *w);
enum err h_acp_suggestion_check(struct req *r, struct resp *w);
enum err h_acp_suggestion_post(struct req *r, struct resp *w);

/* privtips.c (private tips: privtips.h) and disclosure.c */
enum err h_private_blob_post(struct req *r, struct resp *w);
enum err h_private_pending_get(struct req *r, struct resp *w);
enum err h_private_challenge_post(struct req *r, struct resp *w);
enum err h_private_unlock_prepay(struct req *r, struct resp *w);
enum err h_private_unlock_get(struct req *r, struct resp *w);
enum err h_disclosure_get(struct req *r, struct resp *w);
enum err h_disclosure_post(struct req *r, struct resp *w);
enum err h_disclosure_delete(struct req *r, struct resp *w);

/* openapi.c (the interface description; openapi.h) and wellknown.c */
enum err h_openapi_get(struct req *r, struct resp *w);
enum err h_x402_wellknown_get(struct req *r, struct resp *w);
enum err h_skill_get(struct req *r, struct resp *w);

/* pages*.c (the website pages, EP_HTML rows; pages.h) */
enum err h_page_search_get(struct req *r, struct resp *w);
enum err h_page_route_get(struct req *r, struct resp *w);
enum err h_page_handle_get(struct req *r, struct resp *w);
enum err h_page_board_get(struct req *r, struct resp *w);
enum err h_page_receipt_get(struct req *r, struct resp *w);
enum err h_page_profile_get(struct req *r, struct resp *w);
enum err h_page_a2a_extension_get(struct req *r, struct resp *w);
enum err h_page_docs_a2a_get(struct req *r, struct resp *w);
/* pages_ref.c (the documentation site at docs_url) */
enum err h_page_docs_get(struct req *r, struct resp *w);
enum err h_page_docs_row_get(struct req *r, struct resp *w);
enum err h_page_docs_pay_get(struct req *r, struct resp *w);
enum err h_page_points_policy_get(struct req *r, struct resp *w);
enum err h_page_score_policy_get(struct req *r, struct resp *w);

/* feed.c */
enum err h_feed_get(struct req *r, struct resp *w);

#endif
