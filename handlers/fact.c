/*
 * fact.c: a stored profile activity fact and its JSON (fact.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fact.h"
#include "hex.h"
#include "json.h"
#include "profiles.h"
#include "sql.h"
#include "valid.h"
#include "banned.h"

/* A pool copy of a column, NULL for SQL NULL (or when the pool is full: *bad). */
static const char *
col(struct pool *pool, const char *v, unsigned long len, bool *bad)
{
	char *s;

	if (v == NULL)
		return NULL;
	if ((s = pool_strndup(pool, v, len)) == NULL)
		*bad = true;
	return s;
}

enum db_rc
fact_load(struct db *db, struct pool *pool, const uint8_t pid[16], const uint8_t activity_id[32],
    struct fact *f, bool *found)
{
	char buf[1536];
	struct sql q = SQL_ON(buf);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	unsigned long *len;
	bool bad = false;
	enum db_rc rc;

	*found = false;
	sql_add(&q, "SELECT a.activity_id, a.profile_id, a.account, a.kind, a.evidence_kind, a.route_id, "
	    "a.origin, a.method, a.path, a.network, a.asset, a.amount_atomic, a.tx_hash, a.log_index, "
	    "a.occurred_at, a.details, a.published_at, (p.discovery_mode = 'public_all' AND EXISTS "
	    "(SELECT 1 FROM profile_wallets w WHERE w.profile_id = a.profile_id AND w.chain_id = a.chain_id "
	    "AND w.active_wallet = a.account)) FROM profile_activity a JOIN profiles p ON p.profile_id = "
	    "a.profile_id WHERE a.activity_id = ? AND a.profile_id = ?", SQL_BYTES(activity_id, 32),
	    SQL_BYTES(pid, 16));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && (len = mysql_fetch_lengths(res)) != NULL &&
	    row[0] && len[0] == 32 && row[1] && len[1] == 16 && row[2] && len[2] == 20 && row[3] && row[4] &&
	    row[14] && row[16] && row[17]) {
		memset(f, 0, sizeof(*f));
		memcpy(f->id, row[0], 32);
		memcpy(f->profile, row[1], 16);
		memcpy(f->account, row[2], 20);
		snprintf(f->kind, sizeof(f->kind), "%s", row[3]);
		snprintf(f->evidence_kind, sizeof(f->evidence_kind), "%s", row[4]);
		if ((f->has_route = row[5] && len[5] == 32))
			memcpy(f->route, row[5], 32);
		f->origin = col(pool, row[6], len[6], &bad);
		f->method = col(pool, row[7], len[7], &bad);
		f->path = col(pool, row[8], len[8], &bad);
		f->network = col(pool, row[9], len[9], &bad);
		if ((f->has_asset = row[10] && len[10] == 20))
			memcpy(f->asset, row[10], 20);
		f->amount = col(pool, row[11], len[11], &bad);
		if ((f->has_tx = row[12] && len[12] == 32))
			memcpy(f->tx, row[12], 32);
		if ((f->has_log = row[13] != NULL))
			f->log_index = strtoull(row[13], NULL, 10);
		f->occurred_at = strtoll(row[14], NULL, 10);
		f->details = col(pool, row[15], len[15], &bad);
		f->published_at = strtoll(row[16], NULL, 10);
		f->is_public = strcmp(row[17], "1") == 0;
		*found = !bad;
	}
	if (res)
		mysql_free_result(res);
	return bad ? DB_ERROR : DB_OK;
}

static json_object *
str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

json_object *
fact_json(const struct fact *f)
{
	json_object *o = json_object_new_object(), *details = NULL;
	char hx[67], a[ADDR_TEXT_LEN + 1];
	struct addr ad;

	json_object_object_add(o, "id", json_object_new_string(hex_encode(f->id, 32, hx)));
	json_object_object_add(o, "kind", json_object_new_string(f->kind));
	json_object_object_add(o, "accountId", account_json(f->account));
	json_object_object_add(o, "routeId", f->has_route ? json_object_new_string(hex_encode(f->route, 32, hx)) :
	    NULL);
	json_object_object_add(o, "origin", str_or_null(f->origin));
	json_object_object_add(o, "method", str_or_null(f->method));
	json_object_object_add(o, "path", str_or_null(f->path));
	json_object_object_add(o, "network", str_or_null(f->network));
	if (f->has_asset) {
		memcpy(ad.b, f->asset, 20);
		json_object_object_add(o, "asset", json_object_new_string(addr_format(&ad, a)));
	} else {
		json_object_object_add(o, "asset", NULL);
	}
	json_object_object_add(o, "amountAtomic", str_or_null(f->amount));
	json_object_object_add(o, "transaction", f->has_tx ? json_object_new_string(hex_encode(f->tx, 32, hx)) :
	    NULL);
	json_object_object_add(o, "occurredAt", json_object_new_int64(f->occurred_at));
	json_object_object_add(o, "evidenceKind", json_object_new_string(f->evidence_kind));
	/* Written by us as JSON (sql/011 checks it); strictly re-read all the same. */
	if (f->details && json_parse_strict(f->details, strlen(f->details), NULL, &details, NULL) < 0)
		details = NULL;
	json_object_object_add(o, "details", details);
	return o;
}
