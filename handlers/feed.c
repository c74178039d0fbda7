/*
 * feed.c: GET /api/feed, retired (docs/PROTOCOL.md, Errors and limits: a
 * pointer to its replacement). Answers 410 with the discovery endpoint to use.
 */
#include "table.h"
#include "banned.h"

enum err
h_feed_get(struct req *r, struct resp *w)
{
	json_object *o = json_object_new_object();
	int rc;

	(void)r;
	json_object_object_add(o, "error", json_object_new_string("gone"));
	json_object_object_add(o, "message", json_object_new_string(
	    "The feed has been retired; use GET /api/v1/x402/discovery for candidates with dated evidence."));
	json_object_object_add(o, "replacement", json_object_new_string("/api/v1/x402/discovery"));
	rc = resp_json(w, 410, o);
	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
