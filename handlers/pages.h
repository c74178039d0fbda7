/*
 * pages.h: the website pages for people (docs/ARCHITECTURE.md, Website
 * pages): server-rendered HTML that works without JavaScript, built from
 * the same reads the JSON rows answer. What the page files share: the
 * layout, the budget that keeps a page under 50 KB, the read of a free
 * JSON row as a page's data, the generic rendering of such a read, and the
 * HTML error page the gatekeeper turns a page row's errors into.
 *
 * Every text goes through html_esc (lib/html.h); no page file escapes by
 * itself.
 */
#ifndef WAYMARK_PAGES_H
#define WAYMARK_PAGES_H

#include <stdbool.h>

#include <json-c/json.h>

#include "buf.h"
#include "err.h"
#include "http.h"

#define PAGE_MAX (50 * 1000 - 1)   /* bytes of a page: the cap of its buffer */
#define PAGE_SOFT (30 * 1000)      /* past this, lists stop and point to the JSON read; one
                                    * item is at most ~13 KB escaped (a 2000-character text) */

/*
 * The length of a, or 0 when a is not an array (NULL, or a member a read
 * could not build: json-c asserts on a wrong type, and a page never does).
 */
size_t page_len(json_object *a);

/* Start a page into b (initialized here with PAGE_MAX): the head, the style, the navigation. */
void page_begin(struct buf *b, const struct config *cfg, const char *title);

/* True while a list may add another item to b. */
bool page_room(const struct buf *b);

/*
 * End the page in b and answer it with status: text/html, and the headers
 * that keep it a plain document (no script may run). Releases b. ERR_NONE,
 * or the 500 written to w when the page outgrew its cap.
 */
enum err page_send(struct resp *w, int status, struct buf *b);

/*
 * Answer an HTML error page with status and a one-sentence message.
 * Returns the error for status (ERR_NOT_FOUND for 404 ...).
 */
enum err page_fail(struct req *r, struct resp *w, enum err e, const char *msg);

/*
 * Read the free JSON row row_id as this page's data: its handler runs on a
 * request of its own with this request's configuration and database
 * connection, its path parameters from this page's (same names), its
 * query string query (NULL: none), its fields checked as the gatekeeper
 * checks them (lib/fields.h). Only a free GET row without remote waits may
 * be read. *status is the row's answer status and *out its parsed body
 * (the caller puts it). ERR_NONE, or ERR_INTERNAL when the row cannot be
 * read at all (no such row, out of memory, a body that is not JSON).
 */
enum err page_read(struct req *r, const char *row_id, const char *query, int *status,
    json_object **out);

/*
 * Answer for a read that did not give 200: its own status and message as
 * an HTML page (404 for an unknown ID, 503 for the database ...).
 */
enum err page_read_fail(struct req *r, struct resp *w, int status, json_object *o);

/*
 * Render a JSON value into b for people: an object as a definition list,
 * an array of objects as a table, scalars as text; a 0x-hash under a
 * key naming a transaction, a route ID and a canonical handle become
 * links to their pages. Stops adding items when the page has no room
 * left, and says so.
 */
void page_json(struct buf *b, json_object *v);

/* The review lanes in the order pages show them, NULL-terminated, and a sentence on each. */
extern const char *const page_lanes[];
extern const char *const page_lane_text[];

/*
 * The review items in reviews (a candidate's items or the review source's
 * records) grouped by lane into b, each lane with its count; with_links,
 * each item links its sourceUrl. pages_search.c.
 */
void page_lanes_write(struct buf *b, json_object *reviews, bool with_links);

/*
 * The gatekeeper's error written as the JSON error body into w, for a
 * page row (EP_HTML), rewritten as the HTML error page with its status;
 * a path parameter that does not parse names no page, so its 400 becomes
 * a 404.
 */
void page_error_from_rest(struct req *r, struct resp *w);

#endif
