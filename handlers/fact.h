/*
 * fact.h: one stored profile activity fact (sql/011 profile_activity) as
 * the handlers of activity publication and activity review read it, and
 * its JSON (docs/PROTOCOL.md, Profile activity): {id, kind, accountId,
 * routeId, origin, method, path, network, asset, amountAtomic,
 * transaction, occurredAt, evidenceKind, details}.
 *
 * A fact is public when its profile's discovery mode is public_all and the
 * wallet that published it is still an active wallet of that profile
 * (docs/ARCHITECTURE.md, Profile activity).
 *
 * Return conventions: fact_load returns enum db_rc (strings of *f are
 * allocated from pool); fact_json a new object the caller puts, or NULL
 * when memory ran out.
 */
#ifndef WAYMARK_FACT_H
#define WAYMARK_FACT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "db.h"
#include "pool.h"

struct fact {
	uint8_t id[32], profile[16], account[20];
	char kind[24], evidence_kind[72];
	bool has_route, has_asset, has_tx, has_log;
	uint8_t route[32], asset[20], tx[32];
	const char *origin, *method, *path, *network;   /* NULL when NULL */
	const char *amount;                             /* decimal, NULL when NULL */
	const char *details;                            /* JSON text, NULL when NULL */
	uint64_t log_index;
	int64_t occurred_at, published_at;
	bool is_public;                                 /* see above */
};

/*
 * The fact activity_id of profile pid into *f (*found says whether there
 * is one), with its publicity.
 */
enum db_rc fact_load(struct db *db, struct pool *pool, const uint8_t pid[16], const uint8_t activity_id[32],
    struct fact *f, bool *found);

/* The fact's JSON. */
json_object *fact_json(const struct fact *f);

#endif
