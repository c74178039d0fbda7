/*
 * cors.c: the cross-origin headers of an answer and of a preflight, from
 * the rows (cors.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cors.h"
#include "privtip.h"
#include "banned.h"

#define CORS_LIST_MAX 512

/* Append name to the comma-separated list out[cap] unless it is there. */
static void
list_add(char *out, size_t cap, const char *name)
{
	size_t n = strlen(out), k = strlen(name);

	for (const char *p = out; (p = strstr(p, name)) != NULL; p += k)
		if ((p == out || p[-1] == ' ') && (p[k] == ',' || p[k] == '\0'))
			return;
	snprintf(out + n, cap - n, "%s%s", n ? ", " : "", name);
}

static void
exposed(const struct endpoint *ep, char *out, size_t cap)
{
	if (ep && ep->auth == AUTH_PAID) {
		list_add(out, cap, "PAYMENT-REQUIRED");
		list_add(out, cap, "PAYMENT-RESPONSE");
		list_add(out, cap, "WWW-Authenticate");
		list_add(out, cap, "Payment-Receipt");
	}
	if (ep && ep->auth == AUTH_SIWX)
		list_add(out, cap, "PAYMENT-REQUIRED");
	if (ep && (ep->flags & EP_JSONRPC))
		list_add(out, cap, "Mcp-Session-Id");
	if (ep && (ep->flags & EP_A2A)) {
		list_add(out, cap, "A2A-Version");
		list_add(out, cap, "A2A-Extensions");
	}
	list_add(out, cap, "Retry-After");
}

int
cors_answer(const struct endpoint *ep, struct resp *w)
{
	char list[CORS_LIST_MAX] = "";

	exposed(ep, list, sizeof(list));
	if (resp_header(w, "Access-Control-Allow-Origin", "*") < 0 ||
	    resp_header(w, "Access-Control-Expose-Headers", list) < 0)
		return -1;
	return 0;
}

/* The request headers a script may send to row ep. */
static void
allowed(const struct endpoint *ep, char *out, size_t cap)
{
	list_add(out, cap, "Content-Type");
	list_add(out, cap, "Accept");
	if (ep->auth == AUTH_PAID) {
		list_add(out, cap, "PAYMENT-SIGNATURE");
		list_add(out, cap, "Authorization");
		if (ep->rate == RATE_UNLOCK) {
			list_add(out, cap, PRIVTIP_H_ADDRESS);
			list_add(out, cap, PRIVTIP_H_SIG);
			list_add(out, cap, PRIVTIP_H_NONCE);
			list_add(out, cap, PRIVTIP_H_DEADLINE);
		}
	}
	if (ep->auth == AUTH_SIWX)
		list_add(out, cap, "SIGN-IN-WITH-X");
	if (ep->flags & EP_JSONRPC) {
		/* What MCP's browser clients send (the MCP Inspector, web apps). */
		list_add(out, cap, "Authorization");
		list_add(out, cap, "Mcp-Session-Id");
		list_add(out, cap, "MCP-Protocol-Version");
		list_add(out, cap, "Last-Event-ID");
		list_add(out, cap, "Mcp-Method");
		list_add(out, cap, "Mcp-Name");
	}
	if (ep->flags & EP_A2A) {
		list_add(out, cap, "A2A-Version");
		list_add(out, cap, "A2A-Extensions");
	}
}

int
cors_preflight(const struct endpoint *tab, size_t n, const char *path, unsigned allow,
    struct resp *w)
{
	char methods[128], headers[CORS_LIST_MAX] = "", expose[CORS_LIST_MAX] = "";

	endpoint_allow_text(allow, methods, sizeof(methods));
	for (size_t i = 0; i < n; i++)
		if (endpoint_path_matches(tab[i].pattern, path)) {
			allowed(&tab[i], headers, sizeof(headers));
			exposed(&tab[i], expose, sizeof(expose));
		}
	w->status = 204;
	w->content_type = "text/plain; charset=utf-8";
	buf_reset(&w->body);
	if (resp_header(w, "Access-Control-Allow-Origin", "*") < 0 ||
	    resp_header(w, "Access-Control-Allow-Methods", methods) < 0 ||
	    resp_header(w, "Access-Control-Allow-Headers", headers) < 0 ||
	    resp_header(w, "Access-Control-Expose-Headers", expose) < 0 ||
	    resp_header(w, "Access-Control-Max-Age", CORS_MAX_AGE) < 0)
		return -1;
	return 0;
}
