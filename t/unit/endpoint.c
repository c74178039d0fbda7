/* Path-pattern matching, and the dispatch table's own consistency. */
#include <string.h>

#include "decimal.h"
#include "demotable.h"
#include "endpoint.h"
#include "table.h"
#include "tap.h"
#include "banned.h"

static const struct endpoint demo[] = {
	{ .id = "a", .method = HM_GET, .pattern = "/api/v1/x402/routes/{routeId}", .handler = h_dummy },
	{ .id = "b", .method = HM_GET, .pattern = "/api/v1/x402/routes/{routeId}/reviews", .handler = h_dummy },
	{ .id = "c", .method = HM_POST, .pattern = "/api/v1/x402/routes/{routeId}", .handler = h_dummy },
	{ .id = "d", .method = HM_GET, .pattern = "/health", .handler = h_dummy },
	{ .id = "e", .method = HM_DELETE, .pattern = "/p/{a}/w/{b}", .handler = h_dummy },
};

static void
test_matching(void)
{
	struct pool p;
	const struct endpoint *ep = NULL;
	struct path_param pp[REQ_MAX_PARAMS];
	size_t np = 0;
	unsigned allow = 0;
	char text[64];
	size_t n = DEMO_ROWS(demo);

	pool_init(&p, 1 << 20);
	ok(endpoint_find(demo, n, HM_GET, "/health", &p, &ep, pp, &np, &allow) == EP_FOUND &&
	    strcmp(ep->id, "d") == 0 && np == 0, "literal path found");
	ok(endpoint_find(demo, n, HM_GET, "/api/v1/x402/routes/0xab", &p, &ep, pp, &np, &allow) ==
	    EP_FOUND && strcmp(ep->id, "a") == 0 && np == 1 && strcmp(pp[0].name, "routeId") == 0 &&
	    strcmp(pp[0].value, "0xab") == 0, "parameter captured");
	ok(endpoint_find(demo, n, HM_GET, "/api/v1/x402/routes/0xab/reviews", &p, &ep, pp, &np,
	    &allow) == EP_FOUND && strcmp(ep->id, "b") == 0, "longer pattern chosen by segment count");
	ok(endpoint_find(demo, n, HM_POST, "/api/v1/x402/routes/0xab", &p, &ep, pp, &np, &allow) ==
	    EP_FOUND && strcmp(ep->id, "c") == 0, "method selects the row");
	ok(endpoint_find(demo, n, HM_PUT, "/api/v1/x402/routes/0xab", &p, &ep, pp, &np, &allow) ==
	    EP_WRONG_METHOD && allow == ((1u << HM_GET) | (1u << HM_POST)), "405 with both methods");
	is_str(endpoint_allow_text(allow, text, sizeof(text)), "GET, POST", "Allow text");
	ok(endpoint_find(demo, n, HM_GET, "/api/v1/x402/routes/", &p, &ep, pp, &np, &allow) ==
	    EP_NO_PATH, "empty parameter segment does not match");
	ok(endpoint_find(demo, n, HM_GET, "/health/", &p, &ep, pp, &np, &allow) == EP_NO_PATH,
	    "trailing slash is a different path");
	ok(endpoint_find(demo, n, HM_GET, "//health", &p, &ep, pp, &np, &allow) == EP_NO_PATH,
	    "double slash is a different path");
	ok(endpoint_find(demo, n, HM_GET, "/Health", &p, &ep, pp, &np, &allow) == EP_NO_PATH,
	    "paths are case-sensitive");
	ok(endpoint_find(demo, n, HM_GET, "", &p, &ep, pp, &np, &allow) == EP_NO_PATH,
	    "empty path");
	ok(endpoint_find(demo, n, HM_DELETE, "/p/github%3Aalice/w/eip155%3A8453%3A0xab", &p, &ep, pp,
	    &np, &allow) == EP_FOUND && np == 2 && strcmp(pp[0].value, "github:alice") == 0 &&
	    strcmp(pp[1].value, "eip155:8453:0xab") == 0, "two parameters, percent-decoded");
	ok(endpoint_find(demo, n, HM_GET, "/api/v1/x402/routes/a%2", &p, &ep, pp, &np, &allow) ==
	    EP_NO_PATH, "truncated escape matches nothing");
	ok(endpoint_find(demo, n, HM_GET, "/api/v1/x402/routes/a%zz", &p, &ep, pp, &np, &allow) ==
	    EP_NO_PATH, "non-hex escape matches nothing");
	ok(endpoint_find(demo, n, HM_GET, "/api/v1/x402/routes/a%00", &p, &ep, pp, &np, &allow) ==
	    EP_NO_PATH, "%%00 matches nothing");
	ok(endpoint_find(demo, n, HM_GET, "/api/v1/x402/routes/a%2Fb", &p, &ep, pp, &np, &allow) ==
	    EP_FOUND && strcmp(pp[0].value, "a/b") == 0, "an encoded slash stays inside one parameter");
	ok(endpoint_param_count("/p/{a}/w/{b}") == 2 && endpoint_param_count("/health") == 0,
	    "parameter count");
	ok(endpoint_pattern_has("/p/{a}/w/{bb}", "bb") && endpoint_pattern_has("/p/{a}/w/{bb}", "a") &&
	    !endpoint_pattern_has("/p/{a}/w/{bb}", "b") && !endpoint_pattern_has("/p/{ab}", "a") &&
	    !endpoint_pattern_has("/p/a/w", "a") && !endpoint_pattern_has("/health", "health"),
	    "a pattern has a parameter by its whole name only");
	pool_release(&p);
}

/* Every row is well-formed; rules a new row must keep. */
static void
test_table(void)
{
	int bad_ids = 0, bad_dup = 0, bad_params = 0, bad_body = 0, bad_price = 0, bad_fields = 0;

	ok(nendpoints > 0, "the table has rows (%zu)", nendpoints);
	for (size_t i = 0; i < nendpoints; i++) {
		const struct endpoint *e = &endpoints[i];
		size_t nf = 0, npath = 0;

		if (e->id == NULL || e->handler == NULL || e->pattern == NULL || e->pattern[0] != '/' ||
		    e->summary == NULL || (unsigned)e->method >= HM__MAX)
			bad_ids++;
		for (size_t k = 0; k < i; k++)
			if (strcmp(endpoints[k].id, e->id) == 0 ||
			    (endpoints[k].method == e->method && strcmp(endpoints[k].pattern, e->pattern) == 0))
				bad_dup++;
		for (nf = 0; e->fields && e->fields[nf].name; nf++) {
			const struct field *f = &e->fields[nf];

			if (f->src == VS_PATH) {
				char want[80];

				snprintf(want, sizeof(want), "{%s}", f->name);
				npath++;
				if (strstr(e->pattern, want) == NULL)
					bad_params++;
			}
			if (f->type == VT_CHOICE && f->choices == NULL)
				bad_fields++;
			if (f->src == VS_BODY && e->body != BODY_JSON)
				bad_fields++;
		}
		if (nf >= VALID_MAX_FIELDS)
			bad_fields++;
		if (npath != endpoint_param_count(e->pattern))
			bad_params++;
		if ((e->body == BODY_JSON) != (e->body_max > 0) || e->body_max > 8 * 1024 * 1024)
			bad_body++;
		if (e->auth == AUTH_PAID) {
			struct decimal d;

			if (e->price_usdc == NULL ||
			    decimal_parse(e->price_usdc, strlen(e->price_usdc), &d) != DECIMAL_OK ||
			    decimal_is_zero(&d))
				bad_price++;
		} else if (e->price_usdc != NULL) {
			bad_price++;
		}
	}
	ok(bad_ids == 0, "every row has an id, a handler, a pattern from / and a summary");
	ok(bad_dup == 0, "ids and (method, pattern) pairs are unique");
	ok(bad_params == 0, "every {param} has a path field of the same name, and back");
	ok(bad_body == 0, "JSON rows have a body limit (<= 8 MiB, the largest response too), others none");
	ok(bad_price == 0, "paid rows have a positive decimal price, free rows none");
	ok(bad_fields == 0, "field tables are well-formed and within VALID_MAX_FIELDS");
}

int
main(void)
{
	test_matching();
	test_table();
	return done_testing();
}
