/* Linked accounts of wallets (see accounts.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brand.h"
#include "accounts.h"
#include "addr.h"
#include "handle.h"
#include "sql.h"
#include "banned.h"

#define VERIFY_OAUTH BRAND_LOWER "_oauth_link"
#define VERIFY_AGENT "erc8004_indexed_at_recognition"

json_object *
account_new(const struct config *cfg, const char *handle, const char *wallet_hex40)
{
	json_object *o;
	struct handle h;
	char url[CONFIG_STR_MAX + 128];
	const char *verification = VERIFY_OAUTH;

	if (handle_parse(handle, strlen(handle), &h) != HANDLE_OK)
		return NULL;
	switch (h.kind) {
	case HANDLE_GITHUB:
		snprintf(url, sizeof(url), "https://github.com/%s", handle_name(&h));
		break;
	case HANDLE_X:
		snprintf(url, sizeof(url), "https://x.com/%s", handle_name(&h));
		break;
	default:
		/* The handle URL-encoded in the path, as the app's profile pages take it. */
		snprintf(url, sizeof(url), "%s/p/agent%%3A%s", cfg->app_url, handle_name(&h));
		verification = VERIFY_AGENT;
		break;
	}
	if ((o = json_object_new_object()) == NULL)
		return NULL;
	json_object_object_add(o, "handle", json_object_new_string(h.text));
	json_object_object_add(o, "provider", json_object_new_string(handle_kind_name(h.kind)));
	json_object_object_add(o, "linkedWallet", addr_json_new(wallet_hex40));
	json_object_object_add(o, "profileUrl", json_object_new_string(url));
	json_object_object_add(o, "verification", json_object_new_string(verification));
	return o;
}

/* The GitHub/X links of the chain joined with their handle text. */
#define LINKS_SELECT \
	"SELECT LOWER(HEX(l.wallet)), n.handle FROM handle_links l " \
	"JOIN handle_names n ON n.handle_hash = l.handle_hash WHERE l.chain_id = ?"

enum db_rc
accounts_fill(struct db *db, const struct config *cfg, const struct account_slot *slots, size_t n)
{
	size_t cap = 512 + n * 48;
	char *b;
	struct sql q;
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	if (n == 0)
		return DB_OK;
	if (n > ACCOUNTS_FILL_MAX || (b = malloc(cap)) == NULL)
		return DB_ERROR;
	sql_on(&q, b, cap);
	sql_add(&q, LINKS_SELECT " AND l.wallet IN (?", SQL_U64(cfg->chain_id),
	    SQL_BYTES(slots[0].wallet, 20));
	for (size_t i = 1; i < n; i++)
		sql_add(&q, ", ?", SQL_BYTES(slots[i].wallet, 20));
	sql_add(&q, ") ORDER BY n.handle");
	rc = db_query(db, &q, &res);
	free(b);
	if (rc != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		struct addr w;

		if (addr_from_digits(row[0], &w) < 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			json_object *a;

			if (memcmp(slots[i].wallet, w.b, 20) != 0)
				continue;
			if ((a = account_new(cfg, row[1], row[0])) != NULL)
				json_object_array_add(slots[i].list, a);
		}
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

bool
account_slot_set(struct account_slot *slot, json_object *obj, const char *key, json_object *list)
{
	json_object *v;
	struct addr a;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string) ||
	    list == NULL || addr_parse(json_object_get_string(v), (size_t)json_object_get_string_len(v),
	    &a) < 0 || addr_is_zero(&a))
		return false;
	memcpy(slot->wallet, a.b, 20);
	slot->list = list;
	return true;
}

enum db_rc
accounts_fill_reviews(struct db *db, const struct config *cfg, json_object *arr)
{
	size_t n, k = 0;
	struct account_slot *slots;
	enum db_rc rc;

	/* Out of memory, the array may be missing: the answer is a 500 anyway. */
	if (!json_object_is_type(arr, json_type_array) || (n = json_object_array_length(arr)) == 0)
		return DB_OK;
	if (n > ACCOUNTS_FILL_MAX || (slots = calloc(n, sizeof(*slots))) == NULL)
		return DB_ERROR;
	for (size_t i = 0; i < n; i++) {
		json_object *rec = json_object_array_get_idx(arr, i), *item, *who, *list;

		/* A reviewer history item holds the record under "review". */
		if (json_object_object_get_ex(rec, "review", &item))
			rec = item;
		if (json_object_object_get_ex(rec, "reviewer", &who) &&
		    json_object_object_get_ex(who, "accounts", &list) &&
		    account_slot_set(&slots[k], who, "wallet", list))
			k++;
	}
	rc = accounts_fill(db, cfg, slots, k);
	free(slots);
	return rc;
}

enum db_rc
accounts_of_wallet(struct db *db, const struct config *cfg, const uint8_t wallet[20], json_object *list,
    json_object *handles)
{
	char b[512];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	sql_add(&q, LINKS_SELECT " AND l.wallet = ? UNION ALL SELECT LOWER(HEX(payout_wallet)), "
	    "CONCAT('agent:', agent_id) FROM agents WHERE chain_id = ? AND payout_wallet = ? "
	    "ORDER BY 2", SQL_U64(cfg->chain_id), SQL_BYTES(wallet, 20), SQL_U64(cfg->chain_id),
	    SQL_BYTES(wallet, 20));
	if ((rc = db_query(db, &q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		json_object *a = account_new(cfg, row[1], row[0]);

		if (a == NULL)
			continue;
		json_object_array_add(list, a);
		if (handles)
			json_object_array_add(handles, json_object_new_string(row[1]));
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

enum db_rc
accounts_linked_wallet(struct db *db, const struct config *cfg, const uint8_t hh[32], const char *agent_id,
    char hex[41], bool *found)
{
	char b[512], other[8];
	struct sql q = SQL_ON(b);
	enum db_rc rc;

	*found = false;
	hex[0] = '\0';
	if (agent_id != NULL)
		sql_add(&q, "SELECT LOWER(HEX(payout_wallet)), '' FROM agents WHERE chain_id = ? AND "
		    "agent_id = ?", SQL_U64(cfg->chain_id), SQL_TEXT(agent_id));
	else
		sql_add(&q, "SELECT LOWER(HEX(wallet)), '' FROM handle_links WHERE chain_id = ? AND "
		    "handle_hash = ?", SQL_U64(cfg->chain_id), SQL_BYTES(hh, 32));
	rc = db_query_pair(db, &q, hex, other, 41);
	if (rc == DB_OK && hex[0] != '\0')
		*found = true;
	return rc;
}

enum db_rc
accounts_resolution(struct db *db, const struct config *cfg, const char **out)
{
	char b[256];
	struct sql q = SQL_ON(b);
	uint64_t n = 0;
	bool found;
	enum db_rc rc;

	sql_add(&q, "SELECT COUNT(*) FROM indexer_checkpoints WHERE chain_id = ? AND contract = ?",
	    SQL_U64(cfg->chain_id), SQL_BYTES(cfg->tips_address.b, ADDR_LEN));
	rc = db_query_u64(db, &q, &n, &found);
	*out = rc == DB_OK && n > 0 && !addr_is_zero(&cfg->tips_address) ? "complete" : "not_indexed";
	return rc;
}
