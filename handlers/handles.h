/*
 * handles.h: the points fields of a handle read (handles.c), shared with
 * the agent reputation skill (skills.c).
 */
#ifndef WAYMARK_HANDLES_H
#define WAYMARK_HANDLES_H

#include <json-c/json.h>

#include "db.h"
#include "http.h"
#include "tippoints.h"

/*
 * The object GET /api/v1/handles/{handle}/points answers for the
 * canonical handle h (a VT_HANDLE value), with r->db connected, into *out
 * (the caller puts it) and the projections into *p. DB_OK, or the
 * database's error (then *out is NULL).
 */
enum db_rc handle_points_read(struct req *r, const struct value *h, struct tippoints *p,
    json_object **out);

#endif
