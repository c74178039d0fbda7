/*
 * fields.h: a row's field list applied to one request's input. The
 * validators of valid.h check and parse one field each; this module finds
 * each declared field in its source (a path segment, a query parameter, a
 * member of the JSON body), applies defaults and required, runs the
 * validator into a typed value, and refuses what the row does not declare.
 * The gatekeeper (step 6, docs/ARCHITECTURE.md, Gatekeeper) and the /mcp
 * tool calls (a tool's arguments are its HTTP row's fields) use it, so a
 * field is checked the same way on every surface.
 *
 * Returns ERR_NONE, or the error with the field at fault and a one-sentence
 * message in *fail; the caller writes the answer.
 */
#ifndef WAYMARK_FIELDS_H
#define WAYMARK_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "err.h"
#include "http.h"
#include "pool.h"
#include "valid.h"

#define FIELDS_QUERY_MAX 8192         /* bytes of a raw query string */
#define FIELDS_QUERY_MAX_PARAMS 32

struct fields_in {
	const struct path_param *params;  /* VS_PATH fields, from the route pattern */
	size_t nparams;
	const char *query;                /* raw query string for VS_QUERY fields; NULL or "": none */
	json_object *body;                /* parsed body for VS_BODY fields; NULL: none */
	bool strict;                      /* body members that name no field are refused */
	bool body_only;                   /* every field is read from body, whatever its source
	                                   * (a tool call's arguments); implies strict */
	bool query_lenient;               /* query parameters no field names are ignored (the
	                                   * A2A rows: A2A lets clients add service parameters) */
};

struct fields_fail {
	enum err e;
	const char *field;                /* the field at fault (borrowed), or NULL */
	char msg[256];                    /* "" for an internal error: use the default message */
};

/*
 * Validate every field of f (NULL-terminated by name, at most
 * VALID_MAX_FIELDS) from in into v[i], strings and decoded query text in
 * pool. Absent optional fields without a default leave v[i] zeroed.
 * Errors, in the order they are looked for:
 *   ERR_INVALID_JSON      a body that is not an object (when fields or strict ask for members)
 *   ERR_INVALID_REQUEST   a query string too long, with too many parameters or a bad escape
 *   ERR_INVALID_FIELD     a repeated query parameter, a null member, a value its validator refuses
 *   ERR_MISSING_FIELD     a required field absent
 *   ERR_UNKNOWN_FIELD     a query parameter, or (strict) a body member, that no field names
 *   ERR_INTERNAL          out of memory, or a row with too many fields
 */
enum err fields_check(const struct field *f, const struct fields_in *in, struct pool *pool,
    struct value v[VALID_MAX_FIELDS], struct fields_fail *fail);

#endif
