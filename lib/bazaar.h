/*
 * bazaar.h: the Bazaar discovery API's search cursor (GET /discovery/search,
 * docs/PROTOCOL.md, Bazaar discovery), text a client sends back untrusted:
 *
 *   "bz1.<offset>.<tag>"
 *
 * offset is the place of the next result in the ranking, a decimal of at
 * most 7 digits without a leading zero (but "0"); tag is 16 lowercase hex
 * digits naming the query and filters the cursor belongs to
 * (bazaar_query_tag), so a cursor is never applied to another search.
 * Nothing else parses.
 *
 * Return conventions: 0 or -1.
 */
#ifndef WAYMARK_BAZAAR_H
#define WAYMARK_BAZAAR_H

#include <stddef.h>
#include <stdint.h>

#define BAZAAR_CURSOR_MAX 32        /* buffer for a cursor text */
#define BAZAAR_OFFSET_MAX 9999999u

/* Parse text into *offset and tag[17]; -1 unless it is a cursor as above. */
int bazaar_cursor_parse(const char *text, uint32_t *offset, char tag[17]);

/* The cursor of offset and tag into out[cap]; -1 when they are not of the forms above. */
int bazaar_cursor_format(uint32_t offset, const char *tag, char *out, size_t cap);

/*
 * The tag of a search: the first 8 bytes of keccak256 over its parts
 * (each followed by a NUL, a NULL part as empty), as 16 hex digits.
 */
void bazaar_query_tag(const char *const parts[], size_t n, char tag[17]);

#endif
