/*
 * libFuzzer target for the gratitude reads' untrusted text
 * (lib/gratitude.c): the graph subject, the repository markers of a note
 * and the handle page cursor. Input: subject, note and cursor split at
 * NULs. A parsed subject is canonical (parsing its canonical text gives it
 * again); every marker found cites the repository asked for and is a
 * token of the note; a parsed cursor formats back to exactly its text.
 */
#include "gratitude.h"
#include "fuzz.h"
#include "banned.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *rest, *b, *c;
	size_t alen, rlen, blen, clen;
	struct gratitude_subject s, t;
	struct score_marker m[GRATITUDE_NOTE_MARKERS];
	enum handle_err he;
	char canon[8 + HANDLE_MAX_LEN + GRATITUDE_REPO_MAX], cur[GRATITUDE_CURSOR_MAX];
	uint8_t hh[32];
	uint64_t id, id2;
	size_t n;
	int k;

	fuzz_split(data, size, 0, &a, &alen, &rest, &rlen);
	fuzz_split(rest, rlen, 0, &b, &blen, &c, &clen);
	memset(hh, 0x5a, sizeof(hh));
	if (gratitude_subject_parse((const char *)a, alen, &s, &he) == 0) {
		CHECK(he == HANDLE_OK);
		if (s.kind == GRATITUDE_SUBJECT_HANDLE)
			k = snprintf(canon, sizeof(canon), "handle:%s", s.h.text);
		else
			k = snprintf(canon, sizeof(canon), "repo:%s", s.repo);
		CHECK(k > 0 && (size_t)k < sizeof(canon));
		CHECK(gratitude_subject_parse(canon, (size_t)k, &t, &he) == 0 && t.kind == s.kind);
		CHECK(s.kind != GRATITUDE_SUBJECT_REPO || strcmp(s.repo, t.repo) == 0);
		CHECK(s.kind != GRATITUDE_SUBJECT_HANDLE || strcmp(s.h.text, t.h.text) == 0);
		if (s.kind == GRATITUDE_SUBJECT_HANDLE)
			handle_hash(&s.h, hh);
		else {
			n = gratitude_note_markers((const char *)b, blen, s.repo, m, GRATITUDE_NOTE_MARKERS);
			CHECK(n <= GRATITUDE_NOTE_MARKERS);
			CHECK((n > 0) == gratitude_note_cites((const char *)b, blen, s.repo));
			for (size_t i = 0; i < n; i++) {
				size_t ml = strlen(m[i].text);
				bool in_note = false;

				CHECK(m[i].kind == SCORE_MARKER_PR || m[i].kind == SCORE_MARKER_REVIEW);
				for (size_t j = 0; j + ml <= blen && !in_note; j++)
					in_note = memcmp(b + j, m[i].text, ml) == 0;
				CHECK(in_note);
			}
		}
	}
	if (gratitude_cursor_parse((const char *)c, clen, hh, &id) == 0) {
		CHECK(id >= 1);
		CHECK(gratitude_cursor_format(hh, id, cur, sizeof(cur)) == 0);
		CHECK(strlen(cur) == clen && memcmp(cur, c, clen) == 0);
		CHECK(gratitude_cursor_parse(cur, strlen(cur), hh, &id2) == 0 && id2 == id);
	}
	return 0;
}
