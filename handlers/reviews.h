/*
 * reviews.h: the public review record, shared by the free review source,
 * discovery and (later) the paid review reads.
 */
#ifndef WAYMARK_REVIEWS_H
#define WAYMARK_REVIEWS_H

#include <json-c/json.h>
#include <mysql.h>

#include "config.h"
#include "db.h"

/* Columns review_record reads, FROM reviews r LEFT JOIN the recognition b.
 * Appended by sql_add, which takes its template as it is (no printf). */
#define REVIEW_COLUMNS \
	"r.lane, LOWER(HEX(r.route_id)), LOWER(HEX(r.reviewer)), r.review_text, r.created_at, " \
	"DATE_FORMAT(r.published_at, '%Y-%m-%dT%H:%i:%sZ'), r.signature_kind, " \
	"LOWER(HEX(r.recognition_tx_hash)), r.recognition_log_index, " \
	"b.endpoint_usdc + b.network_usdc, b.boon_burned, r.receipt_json, r.authority_json"
/* How many columns REVIEW_COLUMNS selects. */
#define REVIEW_NCOLUMNS 13
#define REVIEW_FROM \
	"reviews r LEFT JOIN routed_boons b ON b.chain_id = r.chain_id AND " \
	"b.tx_hash = r.recognition_tx_hash AND b.log_index = r.recognition_log_index"

/*
 * The review summary of a route (rid: 64 lowercase hex digits): lane
 * counts, distinct reviewers, latest review, and whether the recognition
 * index exists. DB_OK and *out (the caller puts it).
 */
enum db_rc review_summary(struct db *db, const struct config *cfg, const char *rid, json_object **out);

/*
 * The public record of one review row selected with REVIEW_COLUMNS (the
 * caller puts it); NULL when a column does not parse (logged): the
 * caller fails the request.
 */
json_object *review_record(MYSQL_ROW row);

#endif
