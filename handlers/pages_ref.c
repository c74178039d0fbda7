/*
 * pages_ref.c: the documentation site at {docs_url} (docs/ARCHITECTURE.md,
 * Website pages): the index of every row of the dispatch table, a page per
 * row, the points and score policies and the guide to paying and signing
 * in. Every fact of a row's page comes from the row itself or from its
 * operation in the interface description (openapi.h), so the pages, the
 * document and the gatekeeper cannot disagree; the policies come from the
 * points policy read and the constants of lib/score.h.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "config.h"
#include "html.h"
#include "json.h"
#include "openapi.h"
#include "pages.h"
#include "score.h"
#include "table.h"
#include "banned.h"

#define DOCS_ROWS "/docs/endpoints/"  /* a row's page: this + its id */

/* What a row asks of its caller, in words. */
static const char *const auth_text[AUTH__MAX] = {
	[AUTH_NONE] = "none: free, no credential",
	[AUTH_PAID] = "payment per request, x402 or MPP (see <a href=\"/docs/pay-and-sign-in\">how "
	    "to pay</a>)",
	[AUTH_SIWX] = "sign-in with a wallet (SIWX), free (see <a href=\"/docs/pay-and-sign-in\">how "
	    "to sign in</a>)",
	[AUTH_EIP712] = "EIP-712 typed-signature headers",
};

/* The configuration key of each rate class (INSTALL, section 8). */
static const char *const rate_key[RATE__MAX] = {
	[RATE_NONE] = NULL, [RATE_SITE] = "rate_site", [RATE_SIGNIN] = "rate_signin",
	[RATE_SIGNED] = "rate_signed", [RATE_UNLOCK] = "rate_unlock",
	[RATE_DISCOVERY] = "rate_discovery", [RATE_AGENT] = "rate_agent",
};

/* The length of a row's family, its id up to the first dot (the operation's tag). */
static size_t
family_len(const struct endpoint *e)
{
	return strcspn(e->id, ".");
}

static bool
same_family(const struct endpoint *a, const struct endpoint *b)
{
	size_t n = family_len(a);

	return n == family_len(b) && memcmp(a->id, b->id, n) == 0;
}

/* The row's price, or "free". */
static void
price_write(struct buf *b, const struct endpoint *e)
{
	if (e->auth == AUTH_PAID && e->price_usdc)
		html_printf(b, "%s USDC", e->price_usdc);
	else
		html_printf(b, "free");
}

/* The guides, listed on the index and at the foot of a row's page. */
static const char guides[] =
    "<ul class=\"guides\">"
    "<li><a href=\"/docs/pay-and-sign-in\">How to pay (x402 and MPP) and sign in (SIWX)</a></li>"
    "<li><a href=\"/docs/points-policy\">The points policy</a></li>"
    "<li><a href=\"/docs/score-policy\">The score policy</a></li>"
    "<li><a href=\"/openapi.json\">The interface description</a> (OpenAPI 3.1, the same rows "
    "as these pages) and <a href=\"/skill.md\">the agent skill file</a></li>"
    "<li><a href=\"/.well-known/agent-card.json\">The A2A Agent Card</a> and its extensions</li>"
    "</ul>\n";

enum err
h_page_docs_get(struct req *r, struct resp *w)
{
	struct buf b;

	page_begin(&b, r->cfg, "Documentation");
	html_printf(&b, "<p>Every endpoint of this service, from the same table that routes the "
	    "requests, so these pages cannot say other than what the service does. Start with the "
	    "free discovery read and the economics read before buying anything.</p>\n"
	    "<h2>Guides</h2>%S<h2>Endpoints</h2>\n", guides);
	for (size_t i = 0; i < nendpoints; i++) {
		const struct endpoint *e = &endpoints[i];
		bool seen = false;
		char fam[64];

		for (size_t k = 0; k < i && !seen; k++)
			seen = same_family(&endpoints[k], e);
		if (seen)
			continue;
		snprintf(fam, sizeof(fam), "%.*s", (int)family_len(e), e->id);
		html_printf(&b, "<h3 id=\"family-%s\">%s</h3><table class=\"rows\"><tr><th>Method and path"
		    "</th><th>Price</th><th>What it does</th></tr>\n", fam, fam);
		for (size_t k = i; k < nendpoints; k++) {
			const struct endpoint *f = &endpoints[k];

			if (!same_family(f, e))
				continue;
			html_printf(&b, "<tr><td><a href=\"" DOCS_ROWS "%u\"><code>%s %s</code></a></td><td>",
			    f->id, http_method_name(f->method), f->pattern);
			price_write(&b, f);
			html_printf(&b, "</td><td>%s</td></tr>\n", f->summary ? f->summary : f->id);
		}
		html_printf(&b, "</table>\n");
	}
	return page_send(w, 200, &b);
}

/* A field's JSON Schema in words: "integer, minimum 1, maximum 20, default 10". */
static void
schema_write(struct buf *b, json_object *s)
{
	const char *sep = "";

	if (!json_object_is_type(s, json_type_object))
		return;
	json_object_object_foreach(s, k, v) {
		if (strcmp(k, "description") == 0)
			continue;
		if (strcmp(k, "type") == 0) {
			html_printf(b, "%S%s", sep, json_object_get_string(v));
		} else if (json_object_is_type(v, json_type_array)) {
			html_printf(b, "%Sone of ", sep);
			for (size_t i = 0; i < page_len(v); i++)
				html_printf(b, "%S<code>%s</code>", i ? ", " : "",
				    json_object_get_string(json_object_array_get_idx(v, i)));
		} else {
			html_printf(b, "%S%s <code>%s</code>", sep, k, json_object_get_string(v));
		}
		sep = ", ";
	}
	if (json_member_string(s, "description", NULL))
		html_printf(b, "; %s", json_member_string(s, "description", NULL));
}

/* One row of the fields table. */
static void
field_row(struct buf *b, const char *name, const char *in, bool required, json_object *schema)
{
	html_printf(b, "<tr><td><code>%s</code></td><td>%s</td><td>%s</td><td>", name, in,
	    required ? "required" : "optional");
	schema_write(b, schema);
	html_printf(b, "</td></tr>\n");
}

/* The fields of an operation: its parameters, then its JSON body's members. */
static void
fields_write(struct buf *b, json_object *op)
{
	json_object *params = NULL, *rb = NULL, *content = NULL, *media = NULL, *schema = NULL,
	    *props = NULL, *req = NULL, *open = NULL;

	json_object_object_get_ex(op, "parameters", &params);
	json_object_object_get_ex(op, "requestBody", &rb);
	json_object_object_get_ex(rb, "content", &content);
	json_object_object_get_ex(content, "application/json", &media);
	json_object_object_get_ex(media, "schema", &schema);
	json_object_object_get_ex(schema, "properties", &props);
	json_object_object_get_ex(schema, "required", &req);
	html_printf(b, "<h2>Fields</h2>");
	if (page_len(params) == 0 && props == NULL) {
		html_printf(b, "<p>None.%S</p>\n", rb ? " The body is a JSON object whose members are "
		    "checked by the operation itself." : "");
		return;
	}
	html_printf(b, "<table class=\"fields\"><tr><th>Name</th><th>In</th><th></th><th>Type and "
	    "limits</th></tr>\n");
	for (size_t i = 0; i < page_len(params); i++) {
		json_object *p = json_object_array_get_idx(params, i), *s = NULL, *rq = NULL;

		json_object_object_get_ex(p, "schema", &s);
		json_object_object_get_ex(p, "required", &rq);
		field_row(b, json_member_string(p, "name", NULL), json_member_string(p, "in", NULL),
		    json_object_get_boolean(rq), s);
	}
	/* json-c's foreach dereferences its object: a row without a JSON body has no props. */
	if (props == NULL) {
		html_printf(b, "</table>\n");
		return;
	}
	json_object_object_foreach(props, k, s) {
		bool required = false;

		for (size_t i = 0; i < page_len(req); i++)
			if (strcmp(json_object_get_string(json_object_array_get_idx(req, i)), k) == 0)
				required = true;
		field_row(b, k, "body", required, s);
	}
	html_printf(b, "</table>\n");
	if (json_object_object_get_ex(schema, "additionalProperties", &open) &&
	    !json_object_get_boolean(open))
		html_printf(b, "<p class=\"note\">A body member not listed here is refused (400).</p>\n");
}

/* The answers of an operation: each status with what it means and the headers it carries. */
static void
answers_write(struct buf *b, json_object *op, json_object *comps)
{
	json_object *rs = NULL, *crs = NULL;

	json_object_object_get_ex(op, "responses", &rs);
	json_object_object_get_ex(comps, "responses", &crs);
	html_printf(b, "<h2>Answers and errors</h2><table class=\"answers\"><tr><th>Status</th>"
	    "<th>Meaning</th></tr>\n");
	json_object_object_foreach(rs, code, a) {
		const char *target = json_member_string(a, "$ref", NULL), *slash;
		json_object *hs = NULL;

		if (target && (slash = strrchr(target, '/')) != NULL)
			a = json_object_object_get(crs, slash + 1);
		html_printf(b, "<tr><td>%s</td><td>%s", code, json_member_string(a, "description", NULL));
		if (json_object_object_get_ex(a, "headers", &hs)) {
			const char *sep = "";

			html_printf(b, " <span class=\"note\">(headers ");
			json_object_object_foreach(hs, hk, hv) {
				(void)hv;
				html_printf(b, "%S<code>%s</code>", sep, hk);
				sep = ", ";
			}
			html_printf(b, ")</span>");
		}
		html_printf(b, "</td></tr>\n");
	}
	html_printf(b, "</table>\n");
	if (json_object_object_get(rs, "400") != NULL)
		html_printf(b, "<p class=\"note\">Every REST error is the JSON object "
		    "<code>{error, message, field?}</code>: a snake_case code, one sentence, and the "
		    "field at fault when there is one.</p>\n");
}

/* An example value of a field, as the JSON the request carries. */
static json_object *
example_value(const struct field *f)
{
	uint64_t u;

	switch (f->type) {
	case VT_UINT:
		u = f->min ? f->min : 1;
		if (f->def && f->def[0] && sscanf(f->def, "%" SCNu64, &u) != 1)
			u = f->min;
		if (f->max && u > f->max)
			u = f->max;
		return json_object_new_int64(u > INT64_MAX ? INT64_MAX : (int64_t)u);
	case VT_BOOL: return json_object_new_boolean(1);
	case VT_ARRAY: return json_object_new_array();
	case VT_OBJECT: return json_object_new_object();
	case VT_ADDRESS:
	case VT_ADDRESS_EIP55: return json_object_new_string("0x1111111111111111111111111111111111111111");
	case VT_BYTES32:
		return json_object_new_string("0x2222222222222222222222222222222222222222222222222222222222222222");
	case VT_HANDLE: return json_object_new_string("github:octocat");
	case VT_DECIMAL: return json_object_new_string("0.01");
	case VT_URL: return json_object_new_string("https://example.com/");
	case VT_CHOICE:
		return json_object_new_string(f->def && f->def[0] ? f->def :
		    f->choices && f->choices[0] ? f->choices[0] : "");
	case VT_ACCOUNT:
		return json_object_new_string(VALID_ACCOUNT_CHAIN ":0x1111111111111111111111111111111111111111");
	case VT_UUID: return json_object_new_string("7e57a9e5-0000-4000-8000-000000000001");
	default: return json_object_new_string(f->def && f->def[0] ? f->def : "text");
	}
}

/* The row's field named name[0..len) of source src, or NULL. */
static const struct field *
row_field(const struct endpoint *e, const char *name, size_t len, enum vsrc src)
{
	for (const struct field *f = e->fields; f && f->name; f++)
		if (f->src == src && strlen(f->name) == len && memcmp(f->name, name, len) == 0)
			return f;
	return NULL;
}

/*
 * An example request of row e as a curl command into t: its path with each
 * parameter an example value, its required query fields, its JSON body of
 * the required members.
 */
static void
example_write(struct buf *t, const struct config *cfg, const struct endpoint *e)
{
	const char *p = e->pattern, *sep = "?";
	json_object *body = NULL;

	buf_printf(t, "curl -i%s%s '%s", e->method == HM_GET ? "" : " -X ",
	    e->method == HM_GET ? "" : http_method_name(e->method), cfg->public_base_url);
	while (*p) {
		const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
		const struct field *f;
		json_object *v;

		if (close == NULL) {
			buf_adds(t, p);
			break;
		}
		buf_add(t, p, (size_t)(open - p));
		f = row_field(e, open + 1, (size_t)(close - open - 1), VS_PATH);
		v = f ? example_value(f) : NULL;
		buf_adds(t, v ? json_object_get_string(v) : "example");
		json_object_put(v);
		p = close + 1;
	}
	for (const struct field *f = e->fields; f && f->name; f++) {
		json_object *v;

		if (f->src != VS_QUERY || !f->required)
			continue;
		v = example_value(f);
		buf_printf(t, "%s%s=%s", sep, f->name, v ? json_object_get_string(v) : "example");
		json_object_put(v);
		sep = "&";
	}
	buf_adds(t, "'");
	if (e->body == BODY_JSON) {
		if ((body = json_object_new_object()) == NULL) {
			t->full = true;   /* out of memory: no example rather than half of one */
			return;
		}
		for (const struct field *f = e->fields; f && f->name; f++)
			if (f->src == VS_BODY && f->required)
				json_object_object_add(body, f->name, example_value(f));
		buf_printf(t, " \\\n  -H 'Content-Type: application/json' \\\n  -d '%s'",
		    json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN |
		    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(body);
	}
}

enum err
h_page_docs_row_get(struct req *r, struct resp *w)
{
	const struct value *id = req_val(r, "rowId");
	const struct endpoint *e = table_row(id->text);
	json_object *op, *comps;
	struct buf b, t;
	char title[300];

	if (e == NULL)
		return page_fail(r, w, ERR_NOT_FOUND, "No endpoint of this service has this ID.");
	op = openapi_operation(r->cfg, e);
	comps = openapi_components();
	if (op == NULL || comps == NULL) {
		json_object_put(op);
		json_object_put(comps);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	snprintf(title, sizeof(title), "%s %s", http_method_name(e->method), e->pattern);
	page_begin(&b, r->cfg, title);
	html_printf(&b, "<p class=\"summary\">%s</p>\n<dl class=\"row\"><dt>ID</dt><dd><code id=\"row-id\">"
	    "%s</code></dd><dt>Method</dt><dd><code>%s</code></dd><dt>Path</dt><dd><code>%s</code></dd>"
	    "<dt>Price</dt><dd>", e->summary ? e->summary : e->id, e->id, http_method_name(e->method),
	    e->pattern);
	price_write(&b, e);
	html_printf(&b, "</dd><dt>Authentication</dt><dd>%S</dd><dt>Rate limit</dt><dd>", auth_text[e->auth]);
	if (e->rate == RATE_NONE)
		html_printf(&b, "none");
	else if (rate_per_min(r->cfg, e->rate) == 0)
		html_printf(&b, "class <code>%s</code>: unlimited here (<code>%s</code> is 0)",
		    rate_key[e->rate] + 5, rate_key[e->rate]);
	else
		html_printf(&b, "class <code>%s</code>: %U requests a minute per client address "
		    "(<code>%s</code>); beyond it 429 with Retry-After", rate_key[e->rate] + 5,
		    rate_per_min(r->cfg, e->rate), rate_key[e->rate]);
	html_printf(&b, "</dd><dt>Body</dt><dd>");
	if (e->body == BODY_JSON)
		html_printf(&b, "JSON (<code>application/json</code>), at most %U bytes",
		    (uint64_t)e->body_max);
	else
		html_printf(&b, "none");
	html_printf(&b, "</dd></dl>\n");
	fields_write(&b, op);
	answers_write(&b, op, comps);
	buf_init(&t, 8 * 1024);
	example_write(&t, r->cfg, e);
	html_printf(&b, "<h2>Example request</h2><pre class=\"example\">%s</pre>\n", t.full ? "" :
	    t.p ? t.p : "");
	buf_release(&t);
	if (e->auth == AUTH_PAID)
		html_printf(&b, "<p>The first answer is 402 with the price in its challenges; pay with "
		    "either rail and send the identical request again (<a href=\"/docs/pay-and-sign-in\">how "
		    "to pay</a>).</p>\n");
	else if (e->auth == AUTH_SIWX)
		html_printf(&b, "<p>The first answer is 402 with a one-time sign-in challenge; sign it and "
		    "send the identical request again with the proof (<a href=\"/docs/pay-and-sign-in\">how "
		    "to sign in</a>).</p>\n");
	html_printf(&b, "<p class=\"note\">The same row in <a href=\"/openapi.json\">the interface "
	    "description</a>: operation <code>%s</code>. <a href=\"/docs\">Every endpoint</a>.</p>\n"
	    "<h2>Guides</h2>%S", e->id, guides);
	json_object_put(op);
	json_object_put(comps);
	return page_send(w, 200, &b);
}

enum err
h_page_points_policy_get(struct req *r, struct resp *w)
{
	json_object *o = NULL;
	struct buf b;
	int st = 0;

	if (page_read(r, "points.policy", NULL, &st, &o) != ERR_NONE)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (st != 200) {
		enum err e = page_read_fail(r, w, st, o);

		json_object_put(o);
		return e;
	}
	page_begin(&b, r->cfg, "The points policy");
	html_printf(&b, "<p>Points are public reputation computed from indexed tips: never "
	    "transferable, never redeemable, never a quality score. The deployed service's formula "
	    "is not public, so this service answers under its label with a deterministic policy of "
	    "its own: the same indexed events give the same numbers on any host. Below is the policy "
	    "exactly as <a href=\"" DOCS_ROWS "points.policy\">its free read</a> serves it "
	    "(<a href=\"/api/v1/points/policy\">as JSON</a>); a handle's points are "
	    "<a href=\"" DOCS_ROWS "handles.points\">its points read</a>.</p>\n");
	page_json(&b, o);
	json_object_put(o);
	return page_send(w, 200, &b);
}

/* An amount of lib/score.h as USDC text. */
static const char *
usdc(uint64_t atomic, char *out, size_t cap)
{
	return score_usdc_format((int64_t)atomic, out, cap);
}

enum err
h_page_score_policy_get(struct req *r, struct resp *w)
{
	const struct endpoint *row = NULL;
	char a[SCORE_USDC_TEXT], c[SCORE_USDC_TEXT], d[SCORE_USDC_TEXT], f[SCORE_USDC_TEXT];
	struct buf b;

	for (size_t i = 0; i < nendpoints && row == NULL; i++)
		if (endpoints[i].handler == h_score_post)
			row = &endpoints[i];
	page_begin(&b, r->cfg, "The score policy");
	html_printf(&b, "<p>The score read suggests the size of an optional recognition. It is a "
	    "suggestion, not a quality score: it ranks nothing and pays nothing. The deployed "
	    "service's formula is not public, so this service answers under the label "
	    "<code>%s</code> with a deterministic, conservative policy of its own "
	    "(<code>policyOwner</code> <code>%s</code>, <code>formulaVersion</code> <code>%s</code>).",
	    SCORE_POLICY, SCORE_POLICY_OWNER, SCORE_FORMULA);
	if (row)
		html_printf(&b, " It is <a href=\"" DOCS_ROWS "%u\"><code>%s %s</code></a>, %s USDC.",
		    row->id, http_method_name(row->method), row->pattern, row->price_usdc);
	html_printf(&b, "</p>\n<h2>The formula</h2><p>In USDC, every division rounding down; the same "
	    "input and the same indexed data give the same answer.</p><ol>");
	html_printf(&b, "<li><strong>base</strong>: %U%% of the service cost when it is known (from "
	    "<code>serviceCostUsdc</code>, or else the smallest amount the note names as "
	    "<code>$0.05</code> or <code>0.05 USDC</code>); otherwise %s.</li>",
	    (uint64_t)SCORE_COST_PERCENT, usdc(SCORE_DEFAULT_BASE, a, sizeof(a)));
	html_printf(&b, "<li><strong>artifact markers</strong> in the note: +%s per "
	    "<code>pr:owner/repo#N</code>, +%s per <code>review:owner/repo#N</code>, +%s per "
	    "<code>x:&lt;postId&gt;</code>; each distinct marker once, the first %U in note order.</li>",
	    usdc(SCORE_PR, a, sizeof(a)), usdc(SCORE_REVIEW, c, sizeof(c)), usdc(SCORE_X, d, sizeof(d)),
	    (uint64_t)SCORE_MARKERS_MAX);
	html_printf(&b, "<li><strong>recognition history</strong>, counts only: +%s per distinct wallet "
	    "that sent the recipient an indexed recognition, at most %U; a handle also +%s per whole "
	    "point it received under <a href=\"/docs/points-policy\">the points policy</a> "
	    "(undecayed), at most %s.</li>", usdc(SCORE_PER_RECOGNIZER, a, sizeof(a)),
	    (uint64_t)SCORE_RECOGNIZERS_MAX, usdc(SCORE_PER_POINT, c, sizeof(c)),
	    usdc(SCORE_POINTS_MAX, d, sizeof(d)));
	html_printf(&b, "<li><strong>cost cap</strong>: at most %U%% of the service cost, when it is "
	    "known.</li><li><strong>cap</strong>: at most %s.</li><li><strong>floor</strong>: at least "
	    "%s (the floor wins over the cost cap).</li><li><strong>rounding</strong>: down to a "
	    "multiple of %s.</li></ol>\n", (uint64_t)SCORE_COST_CAP_PERCENT,
	    usdc(SCORE_CAP, a, sizeof(a)), usdc(SCORE_FLOOR, c, sizeof(c)), usdc(SCORE_STEP, f, sizeof(f)));
	html_printf(&b, "<p>The answer lists each step that was used or changed the amount as a "
	    "component {name, input, effect, value}; the values add up to the suggested amount. "
	    "Amounts, token holdings and burns never rank anyone.</p>\n");
	return page_send(w, 200, &b);
}

/* The rows of one auth kind as a list of links with their prices, into b. */
static void
rows_of(struct buf *b, enum auth_kind k)
{
	html_printf(b, "<ul class=\"rows\">");
	for (size_t i = 0; i < nendpoints; i++) {
		const struct endpoint *e = &endpoints[i];

		if (e->auth != k)
			continue;
		html_printf(b, "<li><a href=\"" DOCS_ROWS "%u\"><code>%s %s</code></a>", e->id,
		    http_method_name(e->method), e->pattern);
		if (k == AUTH_PAID)
			html_printf(b, ", %s USDC", e->price_usdc);
		html_printf(b, "</li>");
	}
	html_printf(b, "</ul>\n");
}

enum err
h_page_docs_pay_get(struct req *r, struct resp *w)
{
	struct buf b;

	page_begin(&b, r->cfg, "How to pay and sign in");
	html_printf(&b, "<p>Paid reads cost a fixed price in USDC on Base per request, paid with x402 "
	    "or MPP; wallet profiles are free but signed in with the wallet (SIWX). Nothing here pays "
	    "or signs by itself: your client does, once you approve it. Before paying, "
	    "<a href=\"" DOCS_ROWS "x402.economics\">the economics read</a> says who is paid, and "
	    "<a href=\"" DOCS_ROWS "workflows.cost_preview\">the cost preview</a> prices a plan "
	    "without running it.</p>\n");
	html_printf(&b, "<h2>Pay with x402</h2><ol>"
	    "<li>Send the request. A paid row answers <strong>402</strong> with the header "
	    "<code>PAYMENT-REQUIRED</code>: base64 of the JSON challenge "
	    "<code>{x402Version 2, resource {url}, accepts [{scheme exact, network, amount, asset, "
	    "payTo, maxTimeoutSeconds, extra}]}</code>. The live challenge is authoritative for the "
	    "price (in atomic USDC, six decimals), the network, the asset and the payee.</li>"
	    "<li>Sign an EIP-3009 <code>transferWithAuthorization</code> of exactly that amount to "
	    "<code>payTo</code> with the paying wallet (an x402 client library does this).</li>"
	    "<li>Send the identical request again with the header <code>PAYMENT-SIGNATURE</code>: "
	    "base64 of <code>{x402Version 2, accepted, payload {signature, authorization}}</code>, "
	    "<code>accepted</code> being the requirement you chose.</li>"
	    "<li>The answer carries <code>PAYMENT-RESPONSE</code>, the settlement "
	    "<code>{success, transaction, network, payer}</code>. A refused or mismatched payment "
	    "answers 402 again with fresh challenges and a JSON error naming why.</li></ol>\n");
	html_printf(&b, "<h2>Pay with MPP</h2><p>%S</p><ol>"
	    "<li>The same 402 carries <code>WWW-Authenticate: Payment id=\"…\", realm=\"…\", "
	    "method=\"evm\", intent=\"charge\", request=\"…\", expires=\"…\", opaque=\"…\"</code> (and "
	    "<code>digest</code> for a request with a body): the same price, asset and payee as "
	    "x402's.</li>"
	    "<li>Answer with <code>Authorization: Payment</code> and the base64url JSON credential "
	    "<code>{challenge, payload {type authorization, from, to, value, validAfter, validBefore, "
	    "nonce, signature}}</code>, an MPP client library's work.</li>"
	    "<li>The answer carries <code>Payment-Receipt</code>. Send one rail's payment, never "
	    "both: a request with both is refused.</li></ol>\n",
	    r->cfg->mpp_secret[0] ? "This deployment offers MPP beside x402 on every paid row." :
	    "This deployment offers x402 only: its paid rows carry no MPP challenge.");
	html_printf(&b, "<p>A payment settled but a publication not finished answers 202: send the "
	    "identical request again and it finishes without a second charge.</p>\n"
	    "<h3>The paid rows</h3>");
	rows_of(&b, AUTH_PAID);
	html_printf(&b, "<h2>Sign in with SIWX</h2><ol>"
	    "<li>Send the request without a proof. A sign-in row answers <strong>402</strong> with "
	    "<code>PAYMENT-REQUIRED</code> whose <code>accepts</code> is empty and whose extension "
	    "<code>sign-in-with-x</code> holds the challenge: domain, URI, a one-time nonce, the times "
	    "(five minutes) and chain <code>eip155:8453</code>; on a request with a body, a Request ID "
	    "that binds the body.</li>"
	    "<li>Sign the EIP-4361 text of that challenge with the wallet (EIP-191; a contract wallet "
	    "by ERC-1271).</li>"
	    "<li>Send the identical request again with the header <code>SIGN-IN-WITH-X</code>: base64 "
	    "of the challenge's fields plus <code>address</code>, <code>chainId</code>, "
	    "<code>type eip191</code> and <code>signature</code>. A nonce works once; a refused proof "
	    "answers 402 with a fresh challenge and the reason.</li></ol>\n"
	    "<p>Signing in costs nothing and moves no funds.</p><h3>The sign-in rows</h3>");
	rows_of(&b, AUTH_SIWX);
	html_printf(&b, "<p class=\"note\">Every paid and sign-in row is also in <a href=\"/openapi.json\">"
	    "the interface description</a> (<code>x-payment-info</code>, <code>security siwx</code>) "
	    "and the paid ones at <a href=\"/.well-known/x402\">/.well-known/x402</a>.</p>\n");
	return page_send(w, 200, &b);
}
