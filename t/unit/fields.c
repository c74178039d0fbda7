/* The field check of the gatekeeper and the /mcp tool calls (lib/fields.h). */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "json.h"
#include "tap.h"
#include "banned.h"

static const char *const kinds[] = { "a", "b", NULL };

static const struct field fs[] = {
	{ .name = "id", .src = VS_PATH, .type = VT_BYTES32, .required = true },
	{ .name = "limit", .src = VS_QUERY, .type = VT_UINT, .min = 1, .max = 20, .def = "10" },
	{ .name = "q", .src = VS_QUERY, .type = VT_STRING, .max_len = 8 },
	{ .name = "kind", .src = VS_BODY, .type = VT_CHOICE, .choices = kinds, .required = true },
	{ .name = "note", .src = VS_BODY, .type = VT_STRING, .max_len = 4 },
	{ .name = NULL },
};

#define ID "0x1111111111111111111111111111111111111111111111111111111111111111"

struct run {
	struct pool pool;
	struct value v[VALID_MAX_FIELDS];
	struct fields_fail fail;
	json_object *body;
	enum err e;
};

/* Check query and body (JSON text or NULL) against fs, with the path id. */
static enum err
run(struct run *x, const char *query, const char *body, bool strict, bool body_only)
{
	struct path_param pp = { .name = "id", .value = ID, .len = strlen(ID) };
	struct fields_in in = { .params = &pp, .nparams = 1, .query = query, .strict = strict,
	    .body_only = body_only };

	pool_init(&x->pool, 1 << 20);
	memset(x->v, 0, sizeof(x->v));
	x->body = NULL;
	if (body && json_parse_strict(body, strlen(body), NULL, &x->body, NULL) < 0) {
		printf("# bad test body %s\n", body);
		return ERR__MAX;
	}
	in.body = x->body;
	x->e = fields_check(fs, &in, &x->pool, x->v, &x->fail);
	return x->e;
}

static void
done(struct run *x)
{
	json_object_put(x->body);
	pool_release(&x->pool);
}

/* A run that fails with e on field (NULL: none) and message msg. */
static void
refused(const char *query, const char *body, bool strict, bool body_only, enum err e,
    const char *field, const char *msg, const char *what)
{
	struct run x;

	ok(run(&x, query, body, strict, body_only) == e, "%s: %s", what, err_info(e)->code);
	if (field)
		is_str(x.fail.field, field, "%s: names the field", what);
	else
		ok(x.fail.field == NULL, "%s: names no field", what);
	is_str(x.fail.msg, msg, "%s: message", what);
	done(&x);
}

int
main(void)
{
	struct run x;
	char big[FIELDS_QUERY_MAX + 2], many[40 * 4 + 1];

	ok(run(&x, "limit=3&q=a+b%21", "{\"kind\":\"b\",\"note\":\"hi\"}", true, false) == ERR_NONE,
	    "path, query and body fields pass");
	ok(x.v[0].present && x.v[0].b32[0] == 0x11, "path: bytes32 parsed");
	ok(x.v[1].present && x.v[1].u == 3, "query: limit parsed as 3");
	is_str(x.v[2].text, "a b!", "query: '+' and percent escapes decoded");
	ok(x.v[3].present && x.v[3].choice == 1, "body: choice b is index 1");
	is_str(x.v[4].text, "hi", "body: note");
	done(&x);

	ok(run(&x, "", "{\"kind\":\"a\"}", false, false) == ERR_NONE, "optional fields may be absent");
	ok(x.v[1].present && x.v[1].u == 10, "an absent field takes its default");
	ok(!x.v[2].present && !x.v[4].present, "absent fields without a default stay absent");
	done(&x);

	refused("", "{}", false, false, ERR_MISSING_FIELD, "kind", "Field kind is required.",
	    "required body member absent");
	refused("", NULL, false, false, ERR_MISSING_FIELD, "kind", "Field kind is required.",
	    "no body at all");
	refused("", "{\"kind\":null}", false, false, ERR_INVALID_FIELD, "kind",
	    "Field kind must not be null.", "a null member");
	refused("", "{\"kind\":\"c\"}", false, false, ERR_INVALID_FIELD, "kind",
	    "Field kind must be one of a, b.", "the validator's refusal");
	refused("", "[1]", false, false, ERR_INVALID_JSON, NULL, "The JSON body must be an object.",
	    "a body that is not an object");
	refused("limit=0", "{\"kind\":\"a\"}", false, false, ERR_INVALID_FIELD, "limit",
	    "Field limit must be an integer from 1 to 20.", "a query value out of range");
	refused("q=1&q=2", "{\"kind\":\"a\"}", false, false, ERR_INVALID_FIELD, "q",
	    "Query parameter q is given more than once.", "a repeated query parameter");
	refused("q=%zz", "{\"kind\":\"a\"}", false, false, ERR_INVALID_REQUEST, NULL,
	    "The query string has an invalid percent escape.", "a bad percent escape");
	refused("x=1", "{\"kind\":\"a\"}", false, false, ERR_UNKNOWN_FIELD, "x",
	    "This endpoint has no query parameter x.", "an unknown query parameter");

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	refused(big, "{\"kind\":\"a\"}", false, false, ERR_INVALID_REQUEST, NULL,
	    "The query string is longer than 8192 bytes.", "a query string over the limit");
	many[0] = '\0';
	for (int i = 0; i < 33; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%sp%d", i ? "&" : "", i);
	refused(many, "{\"kind\":\"a\"}", false, false, ERR_INVALID_REQUEST, NULL,
	    "The query string has more than 32 parameters.", "33 query parameters");

	ok(run(&x, "", "{\"kind\":\"a\",\"extra\":1}", false, false) == ERR_NONE,
	    "an undeclared body member passes on a row that is not strict");
	done(&x);
	refused("", "{\"kind\":\"a\",\"extra\":1}", true, false, ERR_UNKNOWN_FIELD, "extra",
	    "This endpoint does not accept the field extra.", "strict: an undeclared member");
	refused("", "{\"kind\":\"a\",\"limit\":2}", true, false, ERR_UNKNOWN_FIELD, "limit",
	    "This endpoint does not accept the field limit.", "strict: a query field sent in the body");

	/* body_only: a tool call's arguments carry every field, whatever its source */
	ok(run(&x, NULL, "{\"id\":\"" ID "\",\"limit\":4,\"q\":\"x\",\"kind\":\"a\"}", false, true) ==
	    ERR_NONE, "body_only: path and query fields read from the arguments");
	ok(x.v[0].present && x.v[1].u == 4 && strcmp(x.v[2].text, "x") == 0,
	    "body_only: the values are typed");
	done(&x);
	refused(NULL, "{\"id\":\"" ID "\",\"limit\":\"4\",\"kind\":\"a\"}", false, true,
	    ERR_INVALID_FIELD, "limit", "Field limit must be a JSON integer from 1 to 20.",
	    "body_only: a number as text is refused (no coercion)");
	refused(NULL, "{\"id\":\"" ID "\",\"kind\":\"a\",\"zz\":true}", false, true,
	    ERR_UNKNOWN_FIELD, "zz", "This endpoint does not accept the field zz.",
	    "body_only: an unknown argument is refused without strict");
	refused(NULL, "{\"kind\":\"a\"}", false, true, ERR_MISSING_FIELD, "id",
	    "Field id is required.", "body_only: the path field is required");

	/* an exhausted pool is an internal error, never the field's fault */
	{
		struct path_param pp = { .name = "id", .value = ID, .len = strlen(ID) };
		struct fields_in in = { .params = &pp, .nparams = 1, .query = "q=abc" };
		struct pool tiny;

		pool_init(&tiny, 1);
		memset(x.v, 0, sizeof(x.v));
		ok(fields_check(fs, &in, &tiny, x.v, &x.fail) == ERR_INTERNAL && x.fail.msg[0] == '\0',
		    "a pool with no room: ERR_INTERNAL with the default message");
		pool_release(&tiny);
	}
	return done_testing();
}
