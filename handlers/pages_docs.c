/*
 * pages_docs.c: the A2A pages under /docs, the documents the Agent Card
 * and the extension URIs name (docs/PROTOCOL.md, Agents: A2A and ACP; the
 * URIs are {docs_url}/a2a and {docs_url}/a2a/extensions/..., docs_url
 * defaulting to the public base + /docs). /docs/a2a is the Agent Card's
 * documentationUrl: the agent's skills and extensions. One row serves the
 * four extension pages: the canonical agent recognition v0.1 and v0.2, and
 * the legacy payments names of both.
 */
#include <stdio.h>
#include <string.h>

#include "brand.h"
#include "config.h"
#include "html.h"
#include "pages.h"
#include "skills.h"
#include "table.h"
#include "banned.h"

/* What rides under the extension's URI, by extension. */
static const char *const ext_carries[EXT__MAX] = {
	[EXT_RECOGNITION_V01] = "<p>Under this URI in a message's metadata a client may send a "
	    "<code>" BRAND_LOWER ".agentRecognitionRequest</code>: <code>recipient</code> "
	    "(<code>agent:&lt;N&gt;</code>, required), <code>settlementFrom</code> (the payer wallet), "
	    "<code>amountUsdc</code> or <code>amountUsdcBaseUnits</code> (one of them; base units with "
	    "<code>usdcDecimals</code> 6 are preferred), <code>reason</code>, <code>evidence</code> "
	    "{artifactIds, uris}, <code>mintAttestation</code> and <code>requiresApproval</code>. It "
	    "selects the skill <code>" SKILL_PREPARE "</code>.</p>"
	    "<p>Under this URI in an artifact's metadata the agent answers with one of "
	    "<code>" BRAND_LOWER ".recognitionPreview</code> (status needs_payer_wallet, "
	    "needs_operator_approval or needs_check; the transactions as calldata to review), "
	    "<code>" BRAND_LOWER ".recognitionSuggestion</code> and "
	    "<code>" BRAND_LOWER ".recognitionRecord</code> (an indexed recognition; a private tip's "
	    "amount redacted).</p>",
	[EXT_RECOGNITION_V02] = "<p>Version 0.2 adds recognition targets: an agent may advertise, "
	    "in its own Agent Card under this URI, the parameters of a payable recipient: "
	    "<code>" BRAND_LOWER "Recipient</code> (<code>agent:&lt;N&gt;</code>), <code>identity</code> "
	    "{standard erc-8004, chainId, agentId}, <code>settlement</code> {asset USDC, network base, "
	    "supportsPerTaskPayments, requiresHumanApproval} and <code>reputation</code> "
	    "{supportsSoulboundAttestations, attestationToken}. They are a hint only.</p>"
	    "<p>Everything of version 0.1 holds.</p>",
	[EXT_LEGACY_V01] = "<p>The Stage 1 name of agent recognition v0.1. During the compatibility "
	    "window artifacts carry their object under this URI too, with the legacy keys "
	    "<code>" BRAND_LOWER ".paymentPreview</code>, <code>" BRAND_LOWER ".agentSettlementRequest"
	    "</code> and <code>" BRAND_LOWER ".settlementReceipt</code>.</p>",
	[EXT_LEGACY_V02] = "<p>The Stage 1 name of agent recognition v0.2.</p>",
};

/* The canonical extension a legacy one stands for (itself when canonical). */
static const enum skill_ext ext_canonical[EXT__MAX] = {
	[EXT_RECOGNITION_V01] = EXT_RECOGNITION_V01, [EXT_RECOGNITION_V02] = EXT_RECOGNITION_V02,
	[EXT_LEGACY_V01] = EXT_RECOGNITION_V01, [EXT_LEGACY_V02] = EXT_RECOGNITION_V02,
};

enum err
h_page_docs_a2a_get(struct req *r, struct resp *w)
{
	char uri[CONFIG_STR_MAX + 160];
	struct buf b;

	page_begin(&b, r->cfg, "The A2A agent");
	html_printf(&b, "<p>The service answers as an A2A agent (HTTP+JSON, protocol 1.0) at "
	    "<a href=\"/a2a\">/a2a</a>; its <a href=\"/.well-known/agent-card.json\">Agent Card</a> "
	    "lists the skills and extensions below. The free skills are also MCP tools at "
	    "<code>POST /mcp</code>. Nothing a skill answers executes a transaction, pays, publishes or "
	    "fetches a URL.</p>\n<h2>Skills</h2><dl>");
	for (size_t i = 0; i < nskills; i++) {
		html_printf(&b, "<dt><code>%s</code> %s</dt><dd>%s", skills[i].id, skills[i].name,
		    skills[i].description);
		if (skills[i].alias)
			html_printf(&b, " (deprecated alias: <code>%s</code>)", skills[i].alias);
		html_printf(&b, "</dd>");
	}
	html_printf(&b, "</dl>\n<h2>Extensions</h2><ul>");
	for (int e = 0; e < EXT__MAX; e++) {
		skill_ext_uri(r->cfg, (enum skill_ext)e, uri, sizeof(uri));
		html_printf(&b, "<li><a href=\"%s\">%s</a>: %s</li>", uri, uri, skill_ext_descriptions[e]);
	}
	html_printf(&b, "</ul>\n");
	return page_send(w, 200, &b);
}

enum err
h_page_a2a_extension_get(struct req *r, struct resp *w)
{
	const struct value *name = req_val(r, "extension"), *ver = req_val(r, "version");
	char path[160], uri[CONFIG_STR_MAX + 160], canon[CONFIG_STR_MAX + 160], title[160];
	struct buf b;
	int e;

	snprintf(path, sizeof(path), "/a2a/extensions/%s/%s", name->text, ver->text);
	for (e = 0; e < EXT__MAX; e++)
		if (strcmp(skill_ext_path((enum skill_ext)e), path) == 0)
			break;
	if (e == EXT__MAX)
		return page_fail(r, w, ERR_NOT_FOUND, "No A2A extension of this agent has this name and "
		    "version.");
	skill_ext_uri(r->cfg, (enum skill_ext)e, uri, sizeof(uri));
	skill_ext_uri(r->cfg, ext_canonical[e], canon, sizeof(canon));
	snprintf(title, sizeof(title), "A2A extension %s %s", name->text, ver->text);
	page_begin(&b, r->cfg, title);
	html_printf(&b, "<dl><dt>URI</dt><dd><code id=\"ext-uri\">%s</code></dd><dt>Required</dt>"
	    "<dd>false: a client that does not know it loses nothing but the extra data</dd>"
	    "<dt>What it is</dt><dd>%s</dd>", uri, skill_ext_descriptions[e]);
	if (ext_canonical[e] != (enum skill_ext)e)
		html_printf(&b, "<dt>Deprecated</dt><dd>use <a href=\"%s\">%s</a></dd>", canon, canon);
	html_printf(&b, "</dl>\n<h2>What it carries</h2>%S\n", ext_carries[e]);
	html_printf(&b, "<h2>Boundaries</h2><ul><li>Nothing under this extension executes a "
	    "transaction, pays, publishes or fetches a URL; settlement is out of scope.</li>"
	    "<li>Evidence text and URIs are untrusted data: bounded, validated, never fetched.</li>"
	    "<li>A preview needs the operator's approval before anyone signs anything.</li></ul>\n"
	    "<p>The agent: <a href=\"/.well-known/agent-card.json\">its Agent Card</a> and "
	    "<a href=\"/a2a\">the interface descriptor</a>.</p>\n");
	return page_send(w, 200, &b);
}
