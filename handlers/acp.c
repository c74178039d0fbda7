/*
 * acp.c: the ACP resources (docs/PROTOCOL.md, Agents: A2A and ACP): the
 * resource catalog, whose links and prices come from the dispatch table,
 * and the recognition suggestion (the same engine as the A2A skill,
 * skills.h). Nothing here pays, settles or fetches an evidence URI.
 */
#include <stdio.h>
#include <string.h>

#include "brand.h"
#include "config.h"
#include "json.h"
#include "skills.h"
#include "table.h"
#include "banned.h"

#define ACP_VERSION "0.1"

/* Each catalog entry names the dispatch row it links to. */
static const struct {
	const char *id;
	const char *row_id;
	const char *description;
} resources[] = {
	{ BRAND_LOWER ".recognition_suggestion", "acp.recognition_suggestion",
	    "After an ACP job: a suggested optional recognition of the agent; never executes." },
	{ BRAND_LOWER ".agent_reputation_summary", "handles.profile",
	    "Points and tip totals of agent:<N> (use the handle agent:<N> in the path)." },
	{ BRAND_LOWER ".handle_has_" BRAND_LOWER "s", "handles.has_" BRAND_LOWER "s",
	    "Whether a handle has received or sent tips, with both counts." },
	{ BRAND_LOWER ".workflow_cost_preview", "workflows.cost_preview",
	    "The price of a planned sequence of calls to this service, executing nothing." },
	{ BRAND_LOWER ".top_recognized_agents", "board",
	    "The board of top recipients (agents among them) and tippers." },
	{ BRAND_LOWER ".agent_prior_" BRAND_LOWER "s", "handles." BRAND_LOWER "s",
	    "The tips agent:<N> received, newest first (paid)." },
	{ BRAND_LOWER ".agent_public_recognizers", "graphs.gratitude",
	    "The gratitude graph of agent:<N>: who recognized it (paid)." },
	{ BRAND_LOWER ".graph_batch", "graphs.queries",
	    "The gratitude graph across up to 25 handles, one flat price (paid)." },
};

enum err
h_acp_resources_get(struct req *r, struct resp *w)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	char url[CONFIG_STR_MAX + 200];
	enum err e = ERR_NONE;

	for (size_t i = 0; i < sizeof(resources) / sizeof(resources[0]); i++) {
		const struct endpoint *ep = table_row(resources[i].row_id);
		json_object *x;

		if (ep == NULL) {
			json_object_put(list);
			json_object_put(o);
			return resp_fail(w, ERR_INTERNAL, NULL, NULL);
		}
		x = json_object_new_object();
		json_object_object_add(x, "id", json_object_new_string(resources[i].id));
		json_object_object_add(x, "payment",
		    json_object_new_string(ep->auth == AUTH_PAID ? "x402" : "free"));
		json_object_object_add(x, "method", json_object_new_string(http_method_name(ep->method)));
		json_object_object_add(x, "link", json_object_new_string(skill_url(r->cfg, ep->pattern,
		    url, sizeof(url))));
		if (ep->auth == AUTH_PAID)
			json_object_object_add(x, "priceUsdc", json_object_new_string(ep->price_usdc));
		json_object_object_add(x, "description", json_object_new_string(resources[i].description));
		json_object_array_add(list, x);
	}
	json_object_object_add(o, "version", json_object_new_string(ACP_VERSION));
	json_object_object_add(o, "resources", list);
	json_object_object_add(o, "boundary", json_object_new_string(
	    "ACP remains the job, payment and escrow protocol. These resources read public "
	    "recognition data and prepare suggestions; none executes a transaction, and paid ones "
	    "are paid over HTTP with x402, outside ACP."));
	if (resp_json(w, 200, o) < 0)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
	json_object_put(o);
	return e;
}

/* A recipient that is not agent:<N> is a 400 before anything else. */
enum err
h_acp_suggestion_check(struct req *r, struct resp *w)
{
	const struct value *h = req_val(r, "recipient");

	if (h && strncmp(h->text, "agent:", 6) != 0)
		return resp_fail(w, ERR_INVALID_FIELD, "recipient",
		    "recipient must be an ERC-8004 agent handle agent:<N>.");
	return ERR_NONE;
}

enum err
h_acp_suggestion_post(struct req *r, struct resp *w)
{
	const char *field = NULL;
	char msg[256];
	json_object *o = NULL;
	enum err e;

	if ((e = suggestion_build(r, r->vals, &o, &field, msg, sizeof(msg))) != ERR_NONE)
		return resp_fail(w, e, field, "%s", msg);
	if (resp_json(w, 200, o) < 0)
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
	json_object_put(o);
	return e;
}
