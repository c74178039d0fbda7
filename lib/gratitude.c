/* The gratitude reads' untrusted text: subject, note markers, page cursor (see gratitude.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gratitude.h"
#include "hex.h"
#include "banned.h"

static bool
is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

int
gratitude_repo_parse(const char *s, size_t len, char *out)
{
	size_t o = 0, r;

	while (o < len && (is_alnum(s[o]) || s[o] == '-'))
		o++;
	if (o == 0 || o > GRATITUDE_OWNER_MAX || o >= len || s[o] != '/')
		return -1;
	for (r = o + 1; r < len; r++)
		if (!is_alnum(s[r]) && s[r] != '.' && s[r] != '_' && s[r] != '-')
			return -1;
	if (r - (o + 1) == 0 || r - (o + 1) > GRATITUDE_REPO_NAME_MAX)
		return -1;
	for (size_t i = 0; i < len; i++)
		out[i] = lower(s[i]);
	out[len] = '\0';
	return 0;
}

int
gratitude_subject_parse(const char *s, size_t len, struct gratitude_subject *out,
    enum handle_err *he)
{
	*he = HANDLE_OK;
	memset(out, 0, sizeof(*out));
	if (len > 7 && memcmp(s, "handle:", 7) == 0) {
		if ((*he = handle_parse(s + 7, len - 7, &out->h)) != HANDLE_OK)
			return -1;
		out->kind = GRATITUDE_SUBJECT_HANDLE;
		return 0;
	}
	if (len > 5 && memcmp(s, "repo:", 5) == 0 && gratitude_repo_parse(s + 5, len - 5, out->repo) == 0) {
		out->kind = GRATITUDE_SUBJECT_REPO;
		return 0;
	}
	return -1;
}

/* The "owner/repo" of a pr: or review: marker's text, as a length into t; 0 for an x: marker. */
static size_t
marker_repo(const struct score_marker *m, const char **start)
{
	const char *t = m->text, *hash;

	if (m->kind == SCORE_MARKER_PR)
		t += 3;
	else if (m->kind == SCORE_MARKER_REVIEW)
		t += 7;
	else
		return 0;
	if ((hash = strchr(t, '#')) == NULL)
		return 0;
	*start = t;
	return (size_t)(hash - t);
}

static bool
same_repo(const char *a, size_t n, const char *repo)
{
	if (strlen(repo) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(a[i]) != repo[i])
			return false;
	return true;
}

size_t
gratitude_note_markers(const char *note, size_t len, const char *repo, struct score_marker *out,
    size_t max)
{
	struct score_marker all[GRATITUDE_NOTE_MARKERS];
	size_t n = score_note_markers(note, len, all, GRATITUDE_NOTE_MARKERS), k = 0;

	for (size_t i = 0; i < n && k < max; i++) {
		const char *t = NULL;
		size_t rl = marker_repo(&all[i], &t);

		if (rl > 0 && same_repo(t, rl, repo))
			out[k++] = all[i];
	}
	return k;
}

bool
gratitude_note_cites(const char *note, size_t len, const char *repo)
{
	struct score_marker one;

	return gratitude_note_markers(note, len, repo, &one, 1) == 1;
}

int
gratitude_cursor_format(const uint8_t hh[32], uint64_t tip_id, char *out, size_t cap)
{
	char tag[2 + 16 + 1];
	int n;

	if (tip_id == 0)
		return -1;
	hex_encode(hh, 8, tag);   /* "0x" + 16 digits */
	n = snprintf(out, cap, "h1.%s.%" PRIu64, tag + 2, tip_id);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int
gratitude_cursor_parse(const char *s, size_t len, const uint8_t hh[32], uint64_t *tip_id)
{
	char want[GRATITUDE_CURSOR_MAX];
	uint64_t v = 0;
	size_t i, head;

	if (gratitude_cursor_format(hh, 1, want, sizeof(want)) < 0)
		return -1;
	head = strlen(want) - 1;   /* "h1.<tag>." */
	if (len <= head || len > head + 20 || memcmp(s, want, head) != 0)
		return -1;
	if (s[head] == '0')
		return -1;
	for (i = head; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*tip_id = v;
	return 0;
}
