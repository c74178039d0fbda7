/*
 * gratitude.h: the untrusted text of the gratitude reads (docs/PROTOCOL.md,
 * Tip reads): the subject of GET /api/v1/graphs/gratitude, the repository
 * a tip's public note cites through its deterministic markers, and the
 * page cursor of GET /api/v1/handles/{handle}/<brand>s.
 *
 * Subject: "handle:" + a handle lib/handle canonicalizes (github:<name>,
 * x:<name>, agent:<N>), or "repo:" + owner "/" repo with owner
 * [A-Za-z0-9-]{1,39} and repo [A-Za-z0-9._-]{1,100}; repositories compare
 * case-insensitively, so the canonical form is lowercase. Nothing else
 * parses: no whitespace around the parts, no URL, no trailing text.
 *
 * Markers: the note grammar of lib/score.h (tokens split at ASCII
 * whitespace, one leading "(" and one trailing ".,;:!?)" ignored); a note
 * cites owner/repo when one of its tokens is "pr:owner/repo#N" or
 * "review:owner/repo#N" (N [1-9][0-9]{0,9}), the repository compared
 * case-insensitively. Only public notes are ever read: private tips have
 * none.
 *
 * Cursor: "h1.<tag>.<tipId>": tag = the first 8 bytes of the handle's
 * hash as 16 lowercase hex digits (a cursor only follows the handle it
 * was issued for), tipId a decimal uint64 without a leading zero, >= 1;
 * the next page holds the tips with smaller ids.
 *
 * Return conventions: the parsers return 0 or -1 (gratitude_subject_parse
 * gives the handle's reason in *he when the handle part is at fault);
 * gratitude_note_cites is a predicate; gratitude_note_markers returns the
 * number of markers written. Nothing allocates.
 */
#ifndef WAYMARK_GRATITUDE_H
#define WAYMARK_GRATITUDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "handle.h"
#include "score.h"

#define GRATITUDE_OWNER_MAX 39
#define GRATITUDE_REPO_NAME_MAX 100
#define GRATITUDE_REPO_MAX (GRATITUDE_OWNER_MAX + 1 + GRATITUDE_REPO_NAME_MAX)
#define GRATITUDE_NOTE_MARKERS 40     /* a 280-byte note holds fewer */
#define GRATITUDE_CURSOR_MAX 64       /* "h1." + 16 + "." + 20 digits, with room */

enum gratitude_subject_kind {
	GRATITUDE_SUBJECT_HANDLE,
	GRATITUDE_SUBJECT_REPO,
	GRATITUDE_SUBJECT__MAX
};

struct gratitude_subject {
	enum gratitude_subject_kind kind;
	struct handle h;                         /* SUBJECT_HANDLE: canonical */
	char repo[GRATITUDE_REPO_MAX + 1];       /* SUBJECT_REPO: "owner/repo", lowercase */
};

/*
 * Parse s[0..len) into *out. 0, or -1; when the text was "handle:..." and
 * the handle broke a rule, *he says which (else HANDLE_OK).
 */
int gratitude_subject_parse(const char *s, size_t len, struct gratitude_subject *out,
    enum handle_err *he);

/* "owner/repo" exactly over s[0..len), lowercased into out[GRATITUDE_REPO_MAX + 1]; 0 or -1. */
int gratitude_repo_parse(const char *s, size_t len, char *out);

/* True when the note cites repo (lowercase "owner/repo") with a pr: or review: marker. */
bool gratitude_note_cites(const char *note, size_t len, const char *repo);

/*
 * The distinct pr: and review: markers of the note that cite repo, in note
 * order, into out[0..max); their number.
 */
size_t gratitude_note_markers(const char *note, size_t len, const char *repo,
    struct score_marker *out, size_t max);

/* The cursor of a page that ends before tip_id, for the handle hash hh, into out[cap]; 0 or -1. */
int gratitude_cursor_format(const uint8_t hh[32], uint64_t tip_id, char *out, size_t cap);

/* Parse a cursor issued for the handle hash hh: the tip id it continues below. 0 or -1. */
int gratitude_cursor_parse(const char *s, size_t len, const uint8_t hh[32], uint64_t *tip_id);

#endif
