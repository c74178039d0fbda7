/*
 * authority.c: a route's receipt authority pins (see authority.h).
 */
#include <stdio.h>
#include <string.h>

#include "authority.h"
#include "sql.h"
#include "banned.h"

enum db_rc
authority_load(struct db *db, const struct config *cfg, const char *rid, struct authority *out)
{
	char qb[1024], a[80], b[80];
	struct sql q = SQL_ON(qb);
	enum db_rc rc;

	memset(out, 0, sizeof(*out));
	/* 1. A signed offer in the catalog's challenge data. */
	sql_add(&q, "SELECT LOWER(HEX(offer_signer)), pay_to FROM catalog_resources WHERE "
	    "route_id = ? AND network = ? ORDER BY offer_signer IS NULL, item_key LIMIT 1", SQL_HEX(rid),
	    SQL_TEXT(cfg->network));
	if ((rc = db_query_pair(db, &q, a, b, sizeof(a))) != DB_OK)
		return rc;
	if (addr_from_digits(a, &out->signer) == 0 && !addr_is_zero(&out->signer) &&
	    addr_parse(b, strlen(b), &out->pay_to) == 0 && !addr_is_zero(&out->pay_to)) {
		out->has_signer = out->has_pay_to = true;
		out->signer_source = out->pay_to_source = "catalog_offer";
		return DB_OK;
	}
	if (b[0] && addr_parse(b, strlen(b), &out->pay_to) == 0 && !addr_is_zero(&out->pay_to)) {
		out->has_pay_to = true;
		out->pay_to_source = "catalog_challenge";
	}
	return DB_OK;
}

bool
authority_available(const struct authority *a)
{
	return a->has_signer && a->has_pay_to;
}

static json_object *
addr_new(bool has, const struct addr *a)
{
	char s[ADDR_TEXT_LEN + 1];

	return has ? json_object_new_string(addr_format(a, s)) : NULL;
}

json_object *
authority_json(const struct authority *a)
{
	json_object *o = json_object_new_object(), *src = json_object_new_object();

	json_object_object_add(o, "status", json_object_new_string(authority_available(a) ?
	    "available" : "not_observed"));
	json_object_object_add(o, "signer", addr_new(a->has_signer, &a->signer));
	json_object_object_add(o, "payTo", addr_new(a->has_pay_to, &a->pay_to));
	json_object_object_add(src, "signer", a->signer_source ?
	    json_object_new_string(a->signer_source) : NULL);
	json_object_object_add(src, "payTo", a->pay_to_source ?
	    json_object_new_string(a->pay_to_source) : NULL);
	json_object_object_add(o, "sources", src);
	return o;
}
