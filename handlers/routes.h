/*
 * routes.h: pieces of the single-route reads (routes.c) that the route
 * directory (directory.c) builds its entries and answer from, so both
 * speak the same shapes (docs/PROTOCOL.md, Paid reads).
 */
#ifndef WAYMARK_ROUTES_H
#define WAYMARK_ROUTES_H

#include <stdbool.h>

#include <json-c/json.h>

#include "config.h"
#include "db.h"
#include "http.h"

#define ROUTE_VERSION "1"

/*
 * recognition{} of the route rid (64 lowercase hex digits) from its
 * aggregate row, zeros and nulls when there is none, into *out (the
 * caller puts it). DB_OK, or the failing query's code.
 */
enum db_rc route_recognition_new(struct db *db, const struct config *cfg, const char *rid,
    json_object **out);

/*
 * *known: the route rid (64 lowercase hex digits) has indexed recognitions
 * or current contexts. DB_OK, or the failing query's code.
 */
enum db_rc route_known(struct db *db, const struct config *cfg, const char *rid, bool *known);

/* The contract every record names: the configured companion. A new string. */
json_object *route_contract_new(const struct config *cfg);

/* A decimal string value: s, or "0" when s is NULL. A new string. */
json_object *route_dec_new(const char *s);

/* 200 with o, which it puts; ERR_NONE, or the 500 written to w. */
enum err route_answer(struct resp *w, json_object *o);

#endif
