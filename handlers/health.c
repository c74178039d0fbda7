/*
 * health.c: GET /health. {ok, version} plus diagnostics. The database
 * check (reachable, schema version) is reused for health_ttl_ms per worker
 * so monitors polling /health do not load MariaDB; when the check fails
 * the answer is 503 with the JSON error.
 */
#include <time.h>

#include "db.h"
#include "table.h"
#include "timefmt.h"
#include "version.h"
#include "banned.h"

struct health_cache {
	bool valid;
	uint64_t checked_ms;
	uint64_t schema_version;
	char checked_at[32];
};

static struct health_cache cache;

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

enum err
h_health_get(struct req *r, struct resp *w)
{
	uint64_t now = now_ms();
	json_object *o, *db;
	int rc;

	if (!cache.valid || now - cache.checked_ms >= r->cfg->health_ttl_ms) {
		bool found;

		cache.valid = false;
		if (db_query_u64(r->db, "SELECT MAX(version) FROM schema_migrations",
		    &cache.schema_version, &found) != DB_OK)
			return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
		cache.valid = true;
		cache.checked_ms = now;
		time_rfc3339(time(NULL), cache.checked_at, sizeof(cache.checked_at));
	}
	o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "version", json_object_new_string(WAYMARK_VERSION));
	db = json_object_new_object();
	json_object_object_add(db, "reachable", json_object_new_boolean(1));
	json_object_object_add(db, "schemaVersion", json_object_new_int64((int64_t)cache.schema_version));
	json_object_object_add(db, "checkedAt", json_object_new_string(cache.checked_at));
	json_object_object_add(o, "database", db);
	rc = resp_json(w, 200, o);
	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
