/*
 * factid.h: the IDs of profile activity facts and the page cursor of the
 * activity feeds (docs/PROTOCOL.md, Profile activity), both text a client
 * sends back untrusted.
 *
 * A fact ID is one of (hex digits lowercase, exactly 64 of them):
 *
 *   0x<hex>                         a stored fact: its activity_id
 *   recognized-0x<hex>-<logIndex>   a routed recognition sent by a profile
 *                                   wallet: transaction hash and log index
 *   reviewed-0x<hex>                a signed review by a profile wallet:
 *                                   its digest
 *   reviewed-activity-0x<hex>       an activity review by a profile wallet:
 *                                   the activity it is attached to
 *
 * logIndex is decimal, at most 4294967295, without a leading zero (but
 * "0"). The feed cursor is "f1.<occurredAt>.<fact ID>": the last fact of
 * the page before, occurredAt decimal (1..19 digits, no leading zero).
 * Nothing else parses, so each ID and each cursor has one text.
 *
 * Return conventions: 0 or -1.
 */
#ifndef WAYMARK_FACTID_H
#define WAYMARK_FACTID_H

#include <stddef.h>
#include <stdint.h>

#define FACTID_TEXT_MAX 96      /* buffer for a fact ID's text (the longest is 84 characters) */
#define FEEDCURSOR_TEXT_MAX 128 /* buffer for a cursor's text */

enum fact_src {
	FACT_STORED,
	FACT_RECOGNIZED,
	FACT_REVIEW,
	FACT_ACTIVITY_REVIEW,
	FACT__MAX
};

struct fact_id {
	enum fact_src src;
	uint8_t key[32];        /* activity_id, transaction hash, review digest or activity_id */
	uint32_t log_index;     /* FACT_RECOGNIZED only */
};

struct feed_cursor {
	uint64_t at;            /* occurredAt of the last fact shown */
	struct fact_id id;
};

/* Parse s[0..len) into *id; -1 unless it is exactly one of the forms above. */
int factid_parse(const char *s, size_t len, struct fact_id *id);

/* The text of id into out[cap]; -1 for an unknown src or when it does not fit. */
int factid_format(const struct fact_id *id, char *out, size_t cap);

/* Parse a cursor text (NUL-terminated) into *c; -1 unless it has the form above. */
int feedcursor_parse(const char *text, struct feed_cursor *c);

/* The text of c into out[cap]; -1 when c is not of the form above or does not fit. */
int feedcursor_format(const struct feed_cursor *c, char *out, size_t cap);

#endif
