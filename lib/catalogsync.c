/*
 * catalogsync.c: runs of the catalog's sources, staged and applied
 * (catalogsync.h; the steps are docs/PROTOCOL.md, Network catalog).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "catalog.h"
#include "catalogsync.h"
#include "hex.h"
#include "utf8.h"
#include "httpget.h"
#include "json.h"
#include "keccak.h"
#include "sql.h"
#include "banned.h"

#define PAGE_BYTES (16u * 1024 * 1024)
#define STAGE_SQL_BYTES (8u * 1024 * 1024)
#define APPLY_BATCH 2000
#define RETIRE_BATCH 1000
#define REFUSALS_KEPT 10000      /* refused listings recorded per run (all are counted) */

/* The columns a listing fills, in catalog_stage and catalog_resources alike. */
#define ITEM_COLS "item_key, resource_url, method, route_id, description, service_name, network, " \
	"asset, pay_to, offer_signer, amount_atomic, price_usdc, x402_version, last_updated, " \
	"search_text, item_json, schemes, networks, pay_tos, extension_keys, tags_text, fields_text"
#define ITEM_UPDATE "resource_url = VALUES(resource_url), method = VALUES(method), " \
	"route_id = VALUES(route_id), description = VALUES(description), " \
	"service_name = VALUES(service_name), network = VALUES(network), asset = VALUES(asset), " \
	"pay_to = VALUES(pay_to), offer_signer = VALUES(offer_signer), " \
	"amount_atomic = VALUES(amount_atomic), price_usdc = VALUES(price_usdc), " \
	"x402_version = VALUES(x402_version), last_updated = VALUES(last_updated), " \
	"search_text = VALUES(search_text), item_json = VALUES(item_json), " \
	"schemes = VALUES(schemes), networks = VALUES(networks), pay_tos = VALUES(pay_tos), " \
	"extension_keys = VALUES(extension_keys), tags_text = VALUES(tags_text), " \
	"fields_text = VALUES(fields_text)"

static void
nap_ms(uint64_t ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void
item_key(const struct catalog_item *it, uint8_t k[32])
{
	struct keccak_ctx kc;

	keccak_init(&kc);
	keccak_update(&kc, it->method, strlen(it->method));
	keccak_update(&kc, "\n", 1);
	keccak_update(&kc, it->url, strlen(it->url));
	keccak_final(&kc, k);
}

static int
db_err(struct catalog_sync_result *res, const struct db *d)
{
	snprintf(res->err, sizeof(res->err), "database: %s", d->err);
	return -1;
}

/* The source's row, made on first sight. */
static enum db_rc
source_row(struct db *d, const char *url, uint64_t *id)
{
	char qb[4096];
	struct sql q = SQL_ON(qb);
	struct keccak_ctx kc;
	uint8_t k[32];
	bool found;
	enum db_rc rc;

	keccak_init(&kc);
	keccak_update(&kc, url, strlen(url));
	keccak_final(&kc, k);
	sql_add(&q, "INSERT INTO catalog_sources (url_key, source_url, added_at) VALUES (?, ?, "
	    "UTC_TIMESTAMP()) ON DUPLICATE KEY UPDATE source_id = source_id", SQL_BYTES(k, 32), SQL_TEXT(url));
	if ((rc = db_exec(d, &q)) != DB_OK)
		return rc;
	sql_reset(&q);
	sql_add(&q, "SELECT source_id FROM catalog_sources WHERE url_key = ?", SQL_BYTES(k, 32));
	if ((rc = db_query_u64(d, &q, id, &found)) != DB_OK)
		return rc;
	return found ? DB_OK : DB_ERROR;
}

/* A run's staged rows and, with refusals, its refused listings, deleted in batches. */
static enum db_rc
drop_staged(struct db *d, uint64_t gen, bool refusals)
{
	for (int table = 0; table < (refusals ? 2 : 1); table++)
		for (;;) {
			char qb[512];
			struct sql q = SQL_ON(qb);
			uint64_t n = 0;
			enum db_rc rc;

			if (table == 0)
				sql_add(&q, "DELETE FROM catalog_stage WHERE generation = ? LIMIT ?", SQL_U64(gen),
				    SQL_U64(5000));
			else
				sql_add(&q, "DELETE FROM catalog_refusals WHERE generation = ? LIMIT ?", SQL_U64(gen),
				    SQL_U64(5000));
			if ((rc = db_exec_affected(d, &q, &n)) != DB_OK)
				return rc;
			if (n == 0)
				break;
		}
	return DB_OK;
}

static enum db_rc
set_status(struct db *d, uint64_t gen, const char *status, const struct catalog_sync_result *res)
{
	char qb[2048];
	struct sql q = SQL_ON(qb);

	sql_add(&q, "UPDATE catalog_syncs SET status = ?, finished_at = IF(? = 'applying', NULL, "
	    "UTC_TIMESTAMP()), pages = ?, items_seen = ?, items_stored = ?, items_rejected = ?, "
	    "items_retired = ?, error = ? WHERE generation = ?", SQL_TEXT(status), SQL_TEXT(status),
	    SQL_U64(res->pages), SQL_U64(res->seen), SQL_U64(res->stored), SQL_U64(res->rejected),
	    SQL_U64(res->retired), SQL_TEXT(res->err[0] ? res->err : NULL), SQL_U64(gen));
	return db_exec(d, &q);
}

struct batch {
	uint64_t source, gen;
	const char *lo, *hi;        /* hex item keys: (lo, hi]; lo NULL for the first batch */
};

static enum db_rc
apply_batch(struct db *d, void *arg)
{
	const struct batch *b = arg;
	char qb[4096];
	struct sql q = SQL_ON(qb);
	enum db_rc rc;

	sql_add(&q, "INSERT INTO catalog_resources (" ITEM_COLS ", generation, synced_at) SELECT "
	    ITEM_COLS ", generation, UTC_TIMESTAMP() FROM catalog_stage WHERE generation = ? AND "
	    "item_key <= ?", SQL_U64(b->gen), SQL_HEX(b->hi));
	if (b->lo)
		sql_add(&q, " AND item_key > ?", SQL_HEX(b->lo));
	sql_add(&q, " ON DUPLICATE KEY UPDATE " ITEM_UPDATE ", generation = VALUES(generation), "
	    "synced_at = VALUES(synced_at)");
	if ((rc = db_exec(d, &q)) != DB_OK)
		return rc;
	sql_reset(&q);
	sql_add(&q, "INSERT INTO catalog_listings (source_id, item_key, first_seen, last_seen, seen_gen) "
	    "SELECT ?, item_key, UTC_TIMESTAMP(), UTC_TIMESTAMP(), generation FROM catalog_stage "
	    "WHERE generation = ? AND item_key <= ?", SQL_U64(b->source), SQL_U64(b->gen), SQL_HEX(b->hi));
	if (b->lo)
		sql_add(&q, " AND item_key > ?", SQL_HEX(b->lo));
	sql_add(&q, " ON DUPLICATE KEY UPDATE last_seen = VALUES(last_seen), seen_gen = VALUES(seen_gen)");
	return db_exec(d, &q);
}

struct retire {
	uint64_t source;
	char (*keys)[65];           /* hex item keys */
	size_t n;
	struct sql *q;
};

/* " IN (?, ?, ...)" of the batch's keys. */
static void
in_keys(struct sql *q, const struct retire *r)
{
	sql_add(q, " IN (");
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			sql_add(q, ", ");
		sql_add(q, "?", SQL_HEX(r->keys[i]));
	}
	sql_add(q, ")");
}

static enum db_rc
retire_batch(struct db *d, void *arg)
{
	const struct retire *r = arg;
	enum db_rc rc;

	sql_reset(r->q);
	sql_add(r->q, "DELETE FROM catalog_listings WHERE source_id = ? AND item_key", SQL_U64(r->source));
	in_keys(r->q, r);
	if ((rc = db_exec(d, r->q)) != DB_OK)
		return rc;
	sql_reset(r->q);
	sql_add(r->q, "DELETE FROM catalog_resources WHERE item_key");
	in_keys(r->q, r);
	sql_add(r->q, " AND NOT EXISTS (SELECT 1 FROM catalog_listings l WHERE l.item_key = "
	    "catalog_resources.item_key)");
	return db_exec(d, r->q);
}

/*
 * Apply a run read to its end: upsert its staged listings, retire the
 * source's listings its last CATALOG_RETIRE_RUNS complete runs (this one
 * counted) did not list, drop the stage and the refusals of earlier runs,
 * and mark it complete. Safe to run again on the same run.
 */
static int
apply_run(struct db *d, uint64_t source, uint64_t gen, struct catalog_sync_result *res)
{
	char lo[65] = "", hi[65], dummy[8], qb[1024];
	struct sql q = SQL_ON(qb);
	uint64_t g3 = 0;
	bool found;
	enum db_rc rc;

	res->err[0] = '\0';
	if (set_status(d, gen, "applying", res) != DB_OK)
		return db_err(res, d);
	for (;;) {
		struct batch b = { .source = source, .gen = gen, .lo = lo[0] ? lo : NULL, .hi = hi };

		sql_reset(&q);
		sql_add(&q, "SELECT LOWER(HEX(MAX(item_key))), '' FROM (SELECT item_key FROM catalog_stage "
		    "WHERE generation = ?", SQL_U64(gen));
		if (lo[0])
			sql_add(&q, " AND item_key > ?", SQL_HEX(lo));
		sql_add(&q, " ORDER BY item_key LIMIT ?) x", SQL_U64(APPLY_BATCH));
		if (db_query_pair(d, &q, hi, dummy, sizeof(hi)) != DB_OK)
			return db_err(res, d);
		if (hi[0] == '\0')
			break;
		if ((rc = db_txn(d, apply_batch, &b)) != DB_OK)
			return db_err(res, d);
		memcpy(lo, hi, sizeof(lo));
	}
	/* The generation of the third newest complete run, this one counted. */
	sql_reset(&q);
	sql_add(&q, "SELECT generation FROM catalog_syncs WHERE source_id = ? AND (status = 'complete' "
	    "OR generation = ?) ORDER BY generation DESC LIMIT 1 OFFSET ?", SQL_U64(source), SQL_U64(gen),
	    SQL_U64(CATALOG_RETIRE_RUNS - 1));
	if (db_query_u64(d, &q, &g3, &found) != DB_OK)
		return db_err(res, d);
	while (found) {
		static char keys[RETIRE_BATCH][65], big[RETIRE_BATCH * 80 + 1024];
		struct sql bq;
		MYSQL_RES *rs = NULL;
		MYSQL_ROW row;
		size_t kn = 0;
		struct retire r = { .source = source, .keys = keys, .q = &bq };

		sql_reset(&q);
		sql_add(&q, "SELECT LOWER(HEX(item_key)) FROM catalog_listings WHERE source_id = ? AND "
		    "seen_gen < ? LIMIT ?", SQL_U64(source), SQL_U64(g3), SQL_U64(RETIRE_BATCH));
		if (db_query(d, &q, &rs) != DB_OK)
			return db_err(res, d);
		while (rs && (row = mysql_fetch_row(rs)) != NULL && kn < RETIRE_BATCH)
			if (row[0] && strlen(row[0]) == 64)
				memcpy(keys[kn++], row[0], 65);
		if (rs)
			mysql_free_result(rs);
		if (kn == 0)
			break;
		r.n = kn;
		sql_on(&bq, big, sizeof(big));
		if (db_txn(d, retire_batch, &r) != DB_OK)
			return db_err(res, d);
		res->retired += (unsigned)kn;   /* one sync at a time: the batch read is what goes */
	}
	if (drop_staged(d, gen, false) != DB_OK)
		return db_err(res, d);
	sql_reset(&q);
	sql_add(&q, "DELETE FROM catalog_refusals WHERE generation IN (SELECT generation FROM "
	    "catalog_syncs WHERE source_id = ? AND generation < ?)", SQL_U64(source), SQL_U64(gen));
	if (db_exec(d, &q) != DB_OK || set_status(d, gen, "complete", res) != DB_OK)
		return db_err(res, d);
	return 0;
}

/* Runs of the source a crash left: one cut short while applying is applied, one reading fails. */
static int
recover(struct db *d, uint64_t source, struct catalog_sync_result *res)
{
	char qb[512];
	struct sql q = SQL_ON(qb);

	for (;;) {
		struct catalog_sync_result old = { 0 };
		MYSQL_RES *rs = NULL;
		MYSQL_ROW row;
		uint64_t gen = 0;
		char status[16] = "";

		sql_reset(&q);
		sql_add(&q, "SELECT generation, status, pages, items_seen, items_stored, items_rejected "
		    "FROM catalog_syncs WHERE source_id = ? AND status IN ('running', 'applying') "
		    "ORDER BY generation LIMIT 1", SQL_U64(source));
		if (db_query(d, &q, &rs) != DB_OK)
			return db_err(res, d);
		row = rs ? mysql_fetch_row(rs) : NULL;
		if (row) {
			uint64_t v[4] = { 0 };

			if (db_row_u64(row, 0, "generation", &gen) != DB_OK ||
			    db_row_text(row, 1, "status", status, sizeof(status)) != DB_OK ||
			    db_row_u64(row, 2, "pages", &v[0]) != DB_OK ||
			    db_row_u64(row, 3, "items_seen", &v[1]) != DB_OK ||
			    db_row_u64(row, 4, "items_stored", &v[2]) != DB_OK ||
			    db_row_u64(row, 5, "items_rejected", &v[3]) != DB_OK)
				gen = 0;
			old.pages = (unsigned)v[0];
			old.seen = (unsigned)v[1];
			old.stored = (unsigned)v[2];
			old.rejected = (unsigned)v[3];
		}
		if (rs)
			mysql_free_result(rs);
		if (row == NULL)
			return 0;
		if (gen == 0)
			return db_err(res, d);
		if (strcmp(status, "applying") == 0) {
			if (apply_run(d, source, gen, &old) < 0) {
				snprintf(res->err, sizeof(res->err), "an earlier run's apply: %.400s", old.err);
				return -1;
			}
			continue;
		}
		snprintf(old.err, sizeof(old.err), "the run was cut short before it read its source to the end");
		if (drop_staged(d, gen, true) != DB_OK || set_status(d, gen, "failed", &old) != DB_OK)
			return db_err(res, d);
	}
}

/* One page's good items into the stage, its refused ones into catalog_refusals. */
static int
stage_page(struct db *d, uint64_t gen, json_object *items, struct catalog_sync_result *res,
    const struct catalog_sync_opts *o, struct sql *q)
{
	size_t n = json_object_array_length(items), rows = 0, refused = 0;
	char rqb[64 * 1024];
	struct sql rq = SQL_ON(rqb);

	sql_reset(q);
	for (size_t i = 0; i < n; i++) {
		static _Thread_local struct catalog_item it;
		static _Thread_local char search[4 * 1000 + 4 * 160 + 2049 + sizeof(it.tags_text) + 4];
		char why[200];
		uint8_t k[32];
		size_t before;

		if (++res->seen > o->max_listings) {
			snprintf(res->err, sizeof(res->err), "the source lists more than %" PRIu64
			    " listings (catalog_max_listings)", o->max_listings);
			return -1;
		}
		if (catalog_item_parse(json_object_array_get_idx(items, i), &it, why, sizeof(why)) < 0) {
			const char *u = json_member_string(json_object_array_get_idx(items, i), "resource", NULL);
			char cut[301];

			res->rejected++;
			if (res->rejected > REFUSALS_KEPT || rq.bad)
				continue;
			snprintf(cut, sizeof(cut), "%s", u ? u : "");
			utf8_repair(cut);
			if (refused)
				sql_add(&rq, ", ");
			else
				sql_add(&rq, "INSERT INTO catalog_refusals (generation, seq, resource_url, "
				    "reason_code, reason) VALUES ");
			sql_add(&rq, "(?, ?, ?, ?, ?)", SQL_U64(gen),
			    SQL_U64(res->seen - 1), SQL_TEXT(cut), SQL_TEXT(catalog_refusal_code(it.refusal)),
			    SQL_TEXT(why));
			refused++;
			continue;
		}
		item_key(&it, k);
		snprintf(search, sizeof(search), "%s %s %s %s", it.service_name, it.description, it.url,
		    it.tags_text);
		before = q->len;
		if (rows)
			sql_add(q, ", ");
		else
			sql_add(q, "INSERT INTO catalog_stage (generation, " ITEM_COLS ") VALUES ");
		sql_add(q, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", SQL_U64(gen),
		    SQL_BYTES(k, 32),
		    SQL_TEXT(it.url), SQL_TEXT(it.method),
		    it.has_route ? SQL_BYTES(it.route_id, 32) : SQL_NULL, SQL_TEXT(it.description),
		    SQL_TEXT(it.service_name), SQL_TEXT(it.network), SQL_TEXT(it.asset), SQL_TEXT(it.pay_to),
		    it.has_offer_signer ? SQL_BYTES(it.offer_signer.b, ADDR_LEN) : SQL_NULL,
		    SQL_TEXT(it.amount), it.price_usdc[0] ? SQL_TEXT(it.price_usdc) : SQL_NULL,
		    SQL_I64(it.x402_version), SQL_TEXT(it.last_updated), SQL_TEXT(search),
		    SQL_TEXT(it.item_json), SQL_TEXT(it.schemes), SQL_TEXT(it.networks), SQL_TEXT(it.pay_tos),
		    SQL_TEXT(it.extension_keys), SQL_TEXT(it.tags_text), SQL_TEXT(it.fields_text));
		if (q->bad) {
			snprintf(res->err, sizeof(res->err), "a page's listings do not fit one statement (%zu bytes "
			    "before this one)", before);
			return -1;
		}
		rows++;
		res->stored++;
	}
	if (rows) {
		sql_add(q, " ON DUPLICATE KEY UPDATE " ITEM_UPDATE);
		if (db_exec(d, q) != DB_OK)
			return db_err(res, d);
	}
	if (refused && !rq.bad) {
		sql_add(&rq, " ON DUPLICATE KEY UPDATE reason = VALUES(reason)");
		if (db_exec(d, &rq) != DB_OK)
			return db_err(res, d);
	}
	return 0;
}

/* Read the whole source into the stage of run gen; 0, or -1 with res->err set. */
static int
read_source(struct db *d, const char *src, uint64_t gen, const struct catalog_sync_opts *o,
    struct catalog_sync_result *res)
{
	struct httpget h;
	struct buf body;
	struct sql q;
	char *qb = malloc(STAGE_SQL_BYTES), url[2048 + 128];
	uint64_t offset = 0;
	int rc = -1;

	if (qb == NULL) {
		snprintf(res->err, sizeof(res->err), "out of memory");
		return -1;
	}
	sql_on(&q, qb, STAGE_SQL_BYTES);
	if (httpget_open(&h, res->err, sizeof(res->err)) < 0) {
		free(qb);
		return -1;
	}
	buf_init(&body, PAGE_BYTES);
	for (;;) {
		json_object *page = NULL, *items;
		struct json_error je;
		long long total, limit;
		long st;
		size_t n;

		if (res->pages > 0 && o->pace_ms)
			nap_ms(o->pace_ms);
		snprintf(url, sizeof(url), "%s/discovery/resources?type=http&limit=%u&offset=%" PRIu64, src,
		    o->page_limit, offset);
		for (unsigned tries = 0;; tries++) {
			uint64_t wait;

			st = httpget_fetch(&h, url, o->timeout_ms, &body, res->err, sizeof(res->err));
			if ((st != 429 && st != 503) || tries + 1 >= o->retry_max)
				break;
			wait = h.retry_after_s > 0 ? (uint64_t)h.retry_after_s : 1u << tries;
			if (wait > o->retry_wait_max_s) {
				snprintf(res->err, sizeof(res->err), "page at offset %" PRIu64 ": HTTP status %ld, "
				    "Retry-After %" PRIu64 " s is over %" PRIu64 " s", offset, st, wait,
				    o->retry_wait_max_s);
				goto out;
			}
			nap_ms(wait * 1000);
		}
		if (st != 200) {
			if (st > 0)
				snprintf(res->err, sizeof(res->err), "page at offset %" PRIu64 ": HTTP status %ld",
				    offset, st);
			goto out;
		}
		if (json_parse_strict(buf_str(&body), body.len, NULL, &page, &je) < 0 ||
		    catalog_page(page, &items, &total) < 0) {
			snprintf(res->err, sizeof(res->err), "page at offset %" PRIu64 " is not a discovery listing",
			    offset);
			json_object_put(page);
			goto out;
		}
		res->pages++;
		n = json_object_array_length(items);
		limit = catalog_page_limit(page);
		if (n > 0 && stage_page(d, gen, items, res, o, &q) < 0) {
			json_object_put(page);
			goto out;
		}
		json_object_put(page);
		offset += n;
		/* The end: an empty page, the total reached, or (no total) a short page. */
		if (n == 0 || (total >= 0 && offset >= (uint64_t)total) ||
		    (total < 0 && n < (size_t)(limit > 0 ? limit : o->page_limit)))
			break;
	}
	res->err[0] = '\0';
	rc = 0;
out:
	buf_release(&body);
	httpget_close(&h);
	free(qb);
	return rc;
}

int
catalog_sync_source(struct db *d, const char *url, const struct catalog_sync_opts *o,
    struct catalog_sync_result *res)
{
	char qb[4096];
	struct sql q = SQL_ON(qb);
	uint64_t source;
	bool found;

	memset(res, 0, sizeof(*res));
	if (source_row(d, url, &source) != DB_OK)
		return db_err(res, d);
	if (recover(d, source, res) < 0)
		return -1;
	if (sql_add(&q, "INSERT INTO catalog_syncs (source_id, source_url, started_at, status) VALUES "
	    "(?, ?, UTC_TIMESTAMP(), 'running')", SQL_U64(source), SQL_TEXT(url)) < 0) {
		snprintf(res->err, sizeof(res->err), "the source URL is too long");
		return -1;
	}
	if (db_exec(d, &q) != DB_OK || (sql_reset(&q), sql_add(&q, "SELECT LAST_INSERT_ID()"),
	    db_query_u64(d, &q, &res->generation, &found)) != DB_OK || !found)
		return db_err(res, d);
	if (read_source(d, url, res->generation, o, res) < 0) {
		struct catalog_sync_result keep = *res;

		/* Nothing of the source changes: the stage goes, the run is recorded as failed. */
		if (drop_staged(d, res->generation, true) != DB_OK ||
		    set_status(d, res->generation, "failed", res) != DB_OK)
			snprintf(res->err, sizeof(res->err), "%.300s (and its record: database: %.150s)", keep.err,
			    d->err);
		return -1;
	}
	if (apply_run(d, source, res->generation, res) < 0)
		return -1;
	return 0;
}

int
catalog_sync_forget(struct db *d, char *const urls[], size_t n, char *err, size_t cap)
{
	static char big[64 * 1024];
	struct sql q;

	sql_on(&q, big, sizeof(big));
	for (;;) {
		uint64_t k = 0;

		sql_reset(&q);
		/* X'' (no key is empty) keeps the list well-formed before the first source's key. */
		sql_add(&q, "DELETE FROM catalog_listings WHERE source_id NOT IN (SELECT source_id FROM "
		    "catalog_sources WHERE url_key IN (X''");
		for (size_t i = 0; i < n; i++) {
			struct keccak_ctx kc;
			uint8_t h[32];

			keccak_init(&kc);
			keccak_update(&kc, urls[i], strlen(urls[i]));
			keccak_final(&kc, h);
			sql_add(&q, ", ?", SQL_BYTES(h, 32));
		}
		sql_add(&q, ")) LIMIT ?", SQL_U64(5000));
		if (db_exec_affected(d, &q, &k) != DB_OK) {
			snprintf(err, cap, "database: %s", d->err);
			return -1;
		}
		if (k == 0)
			break;
	}
	/* Routes no source lists any more (rows older than the sources' table too). */
	for (;;) {
		uint64_t k = 0;

		sql_reset(&q);
		sql_add(&q, "DELETE FROM catalog_resources WHERE NOT EXISTS (SELECT 1 FROM catalog_listings l "
		    "WHERE l.item_key = catalog_resources.item_key) LIMIT ?", SQL_U64(5000));
		if (db_exec_affected(d, &q, &k) != DB_OK) {
			snprintf(err, cap, "database: %s", d->err);
			return -1;
		}
		if (k == 0)
			break;
	}
	return 0;
}

static int
status_route(struct db *d, const char *hex, FILE *out)
{
	char qb[1024];
	struct sql q = SQL_ON(qb);
	MYSQL_RES *rs = NULL;
	MYSQL_ROW row;
	int n = 0;

	sql_add(&q, "SELECT s.source_url, DATE_FORMAT(l.first_seen, '%Y-%m-%dT%H:%i:%sZ'), "
	    "DATE_FORMAT(l.last_seen, '%Y-%m-%dT%H:%i:%sZ'), r.method, r.resource_url FROM catalog_resources r "
	    "JOIN catalog_listings l ON l.item_key = r.item_key JOIN catalog_sources s ON s.source_id = "
	    "l.source_id WHERE r.route_id = ? ORDER BY l.first_seen, s.source_url", SQL_HEX(hex));
	if (db_query(d, &q, &rs) != DB_OK)
		return -1;
	while (rs && (row = mysql_fetch_row(rs)) != NULL) {
		if (n++ == 0)
			fprintf(out, "route 0x%s: %s %s\n", hex, row[3] ? row[3] : "", row[4] ? row[4] : "");
		fprintf(out, "  listed by %s since %s, last seen %s\n", row[0] ? row[0] : "", row[1] ? row[1] : "",
		    row[2] ? row[2] : "");
	}
	if (rs)
		mysql_free_result(rs);
	if (n == 0)
		fprintf(out, "route 0x%s: not in the catalog\n", hex);
	return n ? 0 : 1;
}

/* One source's summary; with refusals, its refused listings one per line. */
static int
status_source(struct db *d, uint64_t id, const char *url, bool refusals, FILE *out)
{
	char qb[2048], a[64], b[64];
	struct sql q = SQL_ON(qb);
	MYSQL_RES *rs = NULL;
	MYSQL_ROW row;
	uint64_t listed = 0, last = 0;
	bool found;

	sql_add(&q, "SELECT COUNT(*) FROM catalog_listings WHERE source_id = ?", SQL_U64(id));
	if (db_query_u64(d, &q, &listed, &found) != DB_OK)
		return -1;
	fprintf(out, "source %s: %" PRIu64 " listings\n", url, listed);
	sql_reset(&q);
	sql_add(&q, "SELECT generation, status, DATE_FORMAT(started_at, '%Y-%m-%dT%H:%i:%sZ'), pages, "
	    "items_seen, items_stored, items_rejected, items_retired, IFNULL(error, '') FROM catalog_syncs "
	    "WHERE source_id = ? ORDER BY generation DESC LIMIT 3", SQL_U64(id));
	if (db_query(d, &q, &rs) != DB_OK)
		return -1;
	while (rs && (row = mysql_fetch_row(rs)) != NULL) {
		fprintf(out, "  run %s %s at %s: %s pages, %s seen, %s stored, %s refused, %s retired%s%s\n",
		    row[0], row[1], row[2] ? row[2] : "", row[3], row[4], row[5], row[6], row[7],
		    row[8] && *row[8] ? "; " : "", row[8] ? row[8] : "");
		if (last == 0 && row[1] && strcmp(row[1], "complete") == 0 &&
		    db_row_u64(row, 0, "generation", &last) != DB_OK) {
			mysql_free_result(rs);
			return -1;
		}
	}
	if (rs)
		mysql_free_result(rs);
	if (last == 0)
		return 0;
	/* The last complete run's refusals, by reason; or each of them. */
	sql_reset(&q);
	if (refusals)
		sql_add(&q, "SELECT reason_code, seq, resource_url, reason FROM catalog_refusals WHERE "
		    "generation = ? ORDER BY seq", SQL_U64(last));
	else
		sql_add(&q, "SELECT reason_code, COUNT(*) FROM catalog_refusals WHERE generation = ? GROUP BY "
		    "reason_code ORDER BY reason_code", SQL_U64(last));
	if (db_query(d, &q, &rs) != DB_OK)
		return -1;
	while (rs && (row = mysql_fetch_row(rs)) != NULL) {
		snprintf(a, sizeof(a), "%s", row[0] ? row[0] : "");
		snprintf(b, sizeof(b), "%s", row[1] ? row[1] : "");
		if (refusals)
			fprintf(out, "  refused %s: item %s %s: %s\n", a, b, row[2] && *row[2] ? row[2] : "(no resource)",
			    row[3] ? row[3] : "");
		else
			fprintf(out, "  refused %s: %s\n", a, b);
	}
	if (rs)
		mysql_free_result(rs);
	return 0;
}

int
catalog_status(struct db *d, const char *what, FILE *out)
{
	char qb[4096], hex[65];
	struct sql q = SQL_ON(qb);
	MYSQL_RES *rs = NULL;
	MYSQL_ROW row;
	int n = 0, rc = 0;

	if (what && (strlen(what) == 64 || (strlen(what) == 66 && what[0] == '0' && what[1] == 'x'))) {
		const char *h = what + (strlen(what) == 66 ? 2 : 0);
		uint8_t raw[32];

		if (hex_decode_fixed(h, 64, raw, 32, false) == 0)
			return status_route(d, hex_digits(raw, 32, hex), out);
	}
	sql_add(&q, "SELECT source_id, source_url FROM catalog_sources");
	if (what && *what) {
		struct keccak_ctx kc;
		uint8_t k[32];
		char url[2048];
		size_t len = strlen(what);

		/* As configured: without a trailing slash. */
		while (len > 0 && what[len - 1] == '/')
			len--;
		snprintf(url, sizeof(url), "%.*s", (int)len, what);
		keccak_init(&kc);
		keccak_update(&kc, url, strlen(url));
		keccak_final(&kc, k);
		sql_add(&q, " WHERE url_key = ?", SQL_BYTES(k, 32));
	}
	sql_add(&q, " ORDER BY source_id");
	if (db_query(d, &q, &rs) != DB_OK)
		return -1;
	while (rc == 0 && rs && (row = mysql_fetch_row(rs)) != NULL) {
		uint64_t id;

		if (db_row_u64(row, 0, "source_id", &id) != DB_OK) {
			rc = -1;
			break;
		}
		rc = status_source(d, id, row[1] ? row[1] : "", what && *what, out);
		n++;
	}
	if (rs)
		mysql_free_result(rs);
	if (rc == 0 && n == 0) {
		fprintf(out, what && *what ? "catalog: no source %s\n" : "catalog: no source synced yet\n",
		    what ? what : "");
		return what && *what ? 1 : 0;
	}
	return rc;
}
