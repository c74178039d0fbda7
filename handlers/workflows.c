/*
 * workflows.c: POST /api/v1/workflows/cost-preview (docs/PROTOCOL.md, Cost
 * preview).
 *
 * Prices a planned list of calls to THIS service from the dispatch table,
 * the same rows that charge for them, and executes nothing. A step is
 * {method GET|POST, path (1..2048, one leading '/'), quantity 1..100}; a
 * step whose method and path match no row is "unknown" (400), and a path
 * parameter that fails the row's validator is "invalid" (400).
 * resourceId is the row's stable id; steps are numbered from 0, as in the
 * error messages (requests[0]).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "brand.h"
#include "decimal.h"
#include "economics.h"
#include "json.h"
#include "table.h"
#include "banned.h"

#define USDC_DECIMALS 6

static const char *const step_keys[] = { "method", "path", "quantity", NULL };

/* Display and atomic forms of an atomic USDC amount. */
static json_object *
money(uint64_t atomic)
{
	json_object *o = json_object_new_object();
	char a[32], d[64];

	snprintf(a, sizeof(a), "%" PRIu64, atomic);
	if (decimal_from_atomic(a, strlen(a), USDC_DECIMALS, d, sizeof(d)) != DECIMAL_OK)
		snprintf(d, sizeof(d), "?");
	json_object_object_add(o, "usdc", json_object_new_string(d));
	json_object_object_add(o, "atomic", json_object_new_string(a));
	return o;
}

/* Validate the path parameters of a matched row like the gatekeeper would. */
static enum err
check_params(const struct endpoint *ep, struct req *r, struct resp *w, size_t idx,
    const struct path_param *pp, size_t np)
{
	char msg[256], name[64];
	enum err e;

	for (size_t k = 0; k < np; k++)
		for (size_t i = 0; ep->fields && ep->fields[i].name; i++) {
			struct value v;

			if (ep->fields[i].src != VS_PATH || strcmp(ep->fields[i].name, pp[k].name) != 0)
				continue;
			e = valid_text(&ep->fields[i], pp[k].value, pp[k].len, &r->pool, &v, msg,
			    sizeof(msg));
			if (e == ERR_INTERNAL)
				return resp_fail(w, e, NULL, NULL);
			if (e != ERR_NONE) {
				snprintf(name, sizeof(name), "requests[%zu].path", idx);
				return resp_fail(w, ERR_INVALID_FIELD, name, "Step %zu is invalid: %s", idx,
				    msg);
			}
		}
	return ERR_NONE;
}

/* One step: validate, match, price. Adds the step object to steps. */
static enum err
price_step(struct req *r, struct resp *w, size_t idx, json_object *in, json_object *steps,
    uint64_t *total)
{
	struct value v[3];
	char name[64], msg[256], path[2049];
	const char *bad;
	const struct endpoint *ep;
	struct path_param pp[REQ_MAX_PARAMS];
	size_t np = 0, plen;
	unsigned allow;
	enum ep_match found;
	uint64_t unit = 0, qty;
	json_object *s, *pay, *protos;
	enum err e;

	switch (json_check_keys(in, step_keys, NULL, &bad)) {
	case JSON_KEYS_OK:
		break;
	case JSON_KEYS_UNKNOWN:
		snprintf(name, sizeof(name), "requests[%zu].%s", idx, bad);
		return resp_fail(w, ERR_UNKNOWN_FIELD, name, "Step %zu has an undeclared field %s.", idx,
		    bad);
	default:
		snprintf(name, sizeof(name), "requests[%zu]", idx);
		return resp_fail(w, ERR_INVALID_FIELD, name, "Step %zu must be a JSON object.", idx);
	}
	for (size_t i = 0; i < 3; i++) {
		const struct field *f = &cost_preview_step_fields[i];
		json_object *m = NULL;

		snprintf(name, sizeof(name), "requests[%zu].%s", idx, f->name);
		json_object_object_get_ex(in, f->name, &m);
		if (m == NULL && f->def)
			e = valid_text(f, f->def, strlen(f->def), &r->pool, &v[i], msg, sizeof(msg));
		else if (m == NULL)
			return resp_fail(w, ERR_MISSING_FIELD, name, "Field %s is required.", name);
		else
			e = valid_json(f, m, &r->pool, &v[i], msg, sizeof(msg));
		if (e == ERR_INTERNAL)
			return resp_fail(w, e, NULL, NULL);
		if (e != ERR_NONE)
			return resp_fail(w, e, name, "Step %zu: %s", idx, msg);
	}
	snprintf(name, sizeof(name), "requests[%zu].path", idx);
	if (v[1].text[0] != '/' || v[1].text[1] == '/')
		return resp_fail(w, ERR_INVALID_FIELD, name,
		    "Step %zu: the path must start with a single '/'.", idx);
	plen = strcspn(v[1].text, "?#");
	memcpy(path, v[1].text, plen);
	path[plen] = '\0';
	found = endpoint_find(endpoints, nendpoints, v[0].choice == 0 ? HM_GET : HM_POST, path, &r->pool,
	    &ep, pp, &np, &allow);
	if (found == EP_NOMEM)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (found != EP_FOUND)
		return resp_fail(w, ERR_INVALID_FIELD, name,
		    "Step %zu (%s %s) is not an endpoint of this service.", idx, v[0].text, path);
	if ((e = check_params(ep, r, w, idx, pp, np)) != ERR_NONE)
		return e;
	if (ep->auth == AUTH_PAID && ep->price_usdc) {
		char atomic[DECIMAL_ATOMIC_BUFSZ];
		struct decimal d;

		if (decimal_parse(ep->price_usdc, strlen(ep->price_usdc), &d) != DECIMAL_OK ||
		    decimal_to_atomic(&d, USDC_DECIMALS, atomic, sizeof(atomic)) != DECIMAL_OK ||
		    sscanf(atomic, "%" SCNu64, &unit) != 1)
			return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	qty = v[2].u;
	*total += unit * qty;

	s = json_object_new_object();
	json_object_object_add(s, "index", json_object_new_int64((int64_t)idx));
	json_object_object_add(s, "method", json_object_new_string(v[0].text));
	json_object_object_add(s, "path", json_object_new_string(v[1].text));
	json_object_object_add(s, "quantity", json_object_new_int64((int64_t)qty));
	json_object_object_add(s, "resourceId", json_object_new_string(ep->id));
	pay = json_object_new_object();
	protos = ep->auth == AUTH_PAID ? economics_protocols(r->cfg) : json_object_new_array();
	json_object_object_add(pay, "required", json_object_new_boolean(ep->auth == AUTH_PAID));
	json_object_object_add(pay, "protocols", protos);
	json_object_object_add(pay, "unitPriceUsdc",
	    json_object_new_string(ep->auth == AUTH_PAID && ep->price_usdc ? ep->price_usdc : "0"));
	json_object_object_add(s, "payment", pay);
	json_object_object_add(s, "subtotal", money(unit * qty));
	json_object_array_add(steps, s);
	return ERR_NONE;
}


enum err
h_cost_preview_post(struct req *r, struct resp *w)
{
	const struct value *reqs = req_val(r, "requests");
	json_object *o = json_object_new_object(), *steps = json_object_new_array(), *ex;
	uint64_t total = 0;
	enum err e;

	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		json_object_put(steps);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	json_object_object_add(o, "version", json_object_new_string("0.1"));
	json_object_object_add(o, "execution", json_object_new_boolean(0));
	json_object_object_add(o, "currency", json_object_new_string("USDC"));
	for (size_t i = 0; i < reqs->len; i++)
		if ((e = price_step(r, w, i, json_object_array_get_idx(reqs->array, i), steps,
		    &total)) != ERR_NONE) {
			json_object_put(steps);
			return e;
		}
	json_object_object_add(o, "total", money(total));
	json_object_object_add(o, "steps", steps);
	ex = json_object_new_array();
	json_object_array_add(ex, json_object_new_string(
	    "prices charged by the x402 endpoints you discover and call (set by their providers)"));
	json_object_array_add(ex, json_object_new_string(
	    "optional recognitions: USDC gratuities you choose plus the fixed burn of 100000 " BRAND_UPPER " each"));
	json_object_array_add(ex, json_object_new_string(
	    "network gas for onchain transactions"));
	json_object_array_add(ex, json_object_new_string(
	    "paid review publication (self-reported 0.05 USDC, receipt-verified 0.01 USDC) "
	    "unless listed as a step"));
	json_object_object_add(o, "excludedCosts", ex);
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "A preview priced from this service's current endpoint table; it executes, authorizes and "
	    "pays nothing. The live 402 challenge of each paid call is authoritative for price, "
	    "network, asset and payTo."));
	return resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
