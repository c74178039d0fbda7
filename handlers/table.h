/*
 * table.h: the dispatch table (table.c), the map of the service, and the
 * handler functions its rows name. One handler file per resource family.
 */
#ifndef WAYMARK_TABLE_H
#define WAYMARK_TABLE_H

#include <stddef.h>

#include "endpoint.h"

extern const struct endpoint endpoints[];
extern const size_t nendpoints;

/* health.c */
enum err h_health_get(struct req *r, struct resp *w);

/* workflows.c; the fields of one cost-preview step are in table.c */
extern const struct field cost_preview_step_fields[];
enum err h_cost_preview_post(struct req *r, struct resp *w);

/* feed.c */
enum err h_feed_get(struct req *r, struct resp *w);

#endif
