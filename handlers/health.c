/*
 * health.c: GET /health. {ok, version} plus diagnostics: the database
 * (reachable, schema version) and the chain indexer (indexed block, chain
 * head, lag, last error, the lease's holder and expiry), read from MariaDB;
 * workers never call the chain.
 * The diagnostics are reused for health_ttl_ms per serving thread so monitors
 * polling /health do not load MariaDB. Database unreachable: 503 with the
 * JSON error. On a Galera node the database part carries the node's
 * cluster state (database.cluster); when every node this host reaches
 * is out of the primary component (or not Synced), 503
 * database_not_primary, so nginx sends the work to another host
 * (docs/ARCHITECTURE.md, Failover between nodes). An indexer that lags
 * or fails is reported, not an error: the API keeps answering from what
 * is indexed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mysqld_error.h>

#include "clock.h"
#include "config.h"
#include "db.h"
#include "dbfail.h"
#include "sql.h"
#include "table.h"
#include "timefmt.h"
#include "version.h"
#include "banned.h"

struct health_cache {
	bool valid;
	uint64_t checked_ms;
	uint64_t schema_version;
	char checked_at[32];
	struct db_cluster cluster;     /* the node's state; cluster.galera false without Galera */
	bool ix_row;               /* the indexer has a checkpoint */
	int64_t ix_block, ix_head, ix_seen_ago;
	bool ix_has_head, ix_has_seen;
	char ix_error[320];
	bool lease_row;            /* the lease table has this chain's row */
	char lease_holder[128];    /* "" when nobody holds it */
	int64_t lease_left_ms;
};

/* Each serving thread reuses its own check (no lock, no sharing). */
static _Thread_local struct health_cache cache;

/*
 * The indexer lease (sql/021_indexer_lease.sql): who holds it and for how
 * long. A missing row, or a missing table (a worker of this version
 * before the migration ran), is no error: the lease is then unknown.
 */
static enum db_rc
read_lease(struct req *r)
{
	char b[320];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	cache.lease_row = false;
	cache.lease_holder[0] = '\0';
	cache.lease_left_ms = 0;
	sql_add(&q, "SELECT IF(expires_at > UTC_TIMESTAMP(3), holder, ''), GREATEST(0, TIMESTAMPDIFF("
	    "MICROSECOND, UTC_TIMESTAMP(3), expires_at) DIV 1000) FROM indexer_lease WHERE chain_id = ?",
	    SQL_U64(r->cfg->chain_id));
	rc = db_query(r->db, &q, &res);
	if (rc == DB_ERROR && r->db->last_errno == ER_NO_SUCH_TABLE)
		return DB_OK;
	if (rc != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL &&
	    (rc = db_row_text(row, 0, "lease holder", cache.lease_holder, sizeof(cache.lease_holder))) == DB_OK &&
	    (rc = db_row_i64(row, 1, "lease milliseconds left", &cache.lease_left_ms)) == DB_OK)
		cache.lease_row = true;
	if (res)
		mysql_free_result(res);
	return rc;
}

/* {holder, expiresIn}: both null when nobody holds it; null when unknown. */
static json_object *
lease_json(void)
{
	json_object *o;
	bool held = cache.lease_holder[0] != '\0';

	if (!cache.lease_row)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "holder", held ? json_object_new_string(cache.lease_holder) : NULL);
	json_object_object_add(o, "expiresIn", held ? json_object_new_int64(cache.lease_left_ms) : NULL);
	return o;
}

static enum db_rc
read_indexer(struct req *r)
{
	char b[512];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	sql_add(&q, "SELECT block_number, head_block, TIMESTAMPDIFF(SECOND, head_seen_at, "
	    "UTC_TIMESTAMP()), last_error FROM indexer_checkpoints WHERE chain_id = ? AND contract = ?",
	    SQL_U64(r->cfg->chain_id), SQL_BYTES(r->cfg->companion_address.b, ADDR_LEN));
	cache.ix_row = false;
	if ((rc = read_lease(r)) != DB_OK || (rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		cache.ix_has_head = !db_row_null(row, 1);
		cache.ix_has_seen = !db_row_null(row, 2);
		if ((rc = db_row_i64_or(row, 0, "block_number", 0, &cache.ix_block)) == DB_OK &&
		    (rc = db_row_i64_or(row, 1, "head_block", 0, &cache.ix_head)) == DB_OK)
			rc = db_row_i64_or(row, 2, "seconds since head_seen_at", 0, &cache.ix_seen_ago);
		cache.ix_row = rc == DB_OK;
		snprintf(cache.ix_error, sizeof(cache.ix_error), "%s", row[3] ? row[3] : "");
	}
	if (res)
		mysql_free_result(res);
	if (rc != DB_OK)
		return rc;
	if (!cache.ix_row || cache.ix_error[0] != '\0')
		return DB_OK;
	/* The indexer's other sources (tips, attestation, registry) fail alone too. */
	sql_reset(&q);
	sql_add(&q, "SELECT last_error FROM indexer_checkpoints WHERE chain_id = ? AND contract <> ? "
	    "AND last_error IS NOT NULL ORDER BY last_error_at DESC LIMIT 1", SQL_U64(r->cfg->chain_id),
	    SQL_BYTES(r->cfg->companion_address.b, ADDR_LEN));
	res = NULL;
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && row[0] != NULL)
		snprintf(cache.ix_error, sizeof(cache.ix_error), "%s", row[0]);
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

static json_object *
indexer_json(const struct config *cfg)
{
	json_object *o = json_object_new_object();
	char a[ADDR_TEXT_LEN + 1];

	json_object_object_add(o, "contract", json_object_new_string(addr_format(&cfg->companion_address, a)));
	if (cfg->rpc_url[0] == '\0' && !cache.ix_row) {
		json_object_object_add(o, "status", json_object_new_string("not_configured"));
		return o;
	}
	json_object_object_add(o, "lease", lease_json());
	if (!cache.ix_row) {
		json_object_object_add(o, "status", json_object_new_string("not_started"));
		return o;
	}
	json_object_object_add(o, "status", json_object_new_string(cache.ix_error[0] ? "retrying" : "running"));
	json_object_object_add(o, "indexedBlock", json_object_new_int64(cache.ix_block));
	json_object_object_add(o, "chainHead", cache.ix_has_head ? json_object_new_int64(cache.ix_head) : NULL);
	json_object_object_add(o, "lag", cache.ix_has_head ?
	    json_object_new_int64(cache.ix_head - cache.ix_block) : NULL);
	json_object_object_add(o, "headSeenSecondsAgo", cache.ix_has_seen ?
	    json_object_new_int64(cache.ix_seen_ago) : NULL);
	json_object_object_add(o, "lastError", cache.ix_error[0] ? json_object_new_string(cache.ix_error) : NULL);
	return o;
}

static json_object *
cluster_json(const struct db_cluster *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "size", json_object_new_int64((int64_t)c->size));
	json_object_object_add(o, "status", json_object_new_string(c->status));
	json_object_object_add(o, "localState", json_object_new_string(c->local_state));
	json_object_object_add(o, "node", json_object_new_string(c->node));
	return o;
}

enum err
h_health_get(struct req *r, struct resp *w)
{
	uint64_t now = clock_ms();
	json_object *o, *db;
	int rc;

	if (!cache.valid || now - cache.checked_ms >= r->cfg->health_ttl_ms) {
		bool found;
		char b[64];
		struct sql q = SQL_ON(b);

		cache.valid = false;
		/* The node first: one that left the primary component is given up for the next. */
		if (db_cluster(r->db, &cache.cluster) != DB_OK)
			return resp_fail(w, db_connect_err(r->db), NULL, NULL);
		sql_add(&q, "SELECT MAX(version) FROM schema_migrations");
		if (db_query_u64(r->db, &q, &cache.schema_version, &found) != DB_OK || read_indexer(r) != DB_OK)
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
	if (cache.cluster.galera)
		json_object_object_add(db, "cluster", cluster_json(&cache.cluster));
	json_object_object_add(o, "database", db);
	json_object_object_add(o, "indexer", indexer_json(r->cfg));
	rc = resp_json(w, 200, o);
	json_object_put(o);
	return rc < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}
