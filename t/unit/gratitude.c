/*
 * The gratitude reads' untrusted text (lib/gratitude.h): the subject of the
 * gratitude graph, the repository markers of a tip note, the handle page
 * cursor.
 */
#include <stdio.h>
#include <string.h>

#include "gratitude.h"
#include "tap.h"
#include "banned.h"

static const char *const subject_bad[] = {
	"", "handle:", "repo:", "github:alice", "handle:github:-bad", "handle:agent:0",
	"handle: agent:1", "repo:acme", "repo:acme/", "repo:/widgets", "repo:acme/widgets/x",
	"repo:acme/widgets#1", "repo: acme/widgets", "repo:acme/widgets ", "repo:ac_me/widgets",
	"repo:acme/wid gets", "Repo:acme/widgets", "HANDLE:github:alice", "repo:acme/wid%67ets",
	"repo:0123456789012345678901234567890123456789/x", "user:github:alice",
};

int
main(void)
{
	struct gratitude_subject s;
	struct score_marker m[8];
	enum handle_err he;
	char repo[GRATITUDE_REPO_MAX + 1], cur[GRATITUDE_CURSOR_MAX], big[300];
	uint8_t hh[32], other[32];
	uint64_t id;
	const char *note = "pr:acme/w#1 review:acme/w#1 pr:ACME/W#1 pr:other/w#2 pr:acme/w#3";

	ok(gratitude_subject_parse("handle:GitHub:Alice", 19, &s, &he) == 0 &&
	    s.kind == GRATITUDE_SUBJECT_HANDLE && strcmp(s.h.text, "github:alice") == 0,
	    "handle subject, canonicalized");
	ok(gratitude_subject_parse("handle:x:@Some_One", 18, &s, &he) == 0 && strcmp(s.h.text, "x:some_one") == 0,
	    "x handle subject, @ dropped");
	ok(gratitude_subject_parse("handle:agent:42", 15, &s, &he) == 0 && s.h.kind == HANDLE_AGENT,
	    "agent handle subject");
	ok(gratitude_subject_parse("repo:Acme-Co/Widgets.js_2", 25, &s, &he) == 0 &&
	    s.kind == GRATITUDE_SUBJECT_REPO && strcmp(s.repo, "acme-co/widgets.js_2") == 0,
	    "repo subject, lowercased");
	for (size_t i = 0; i < sizeof(subject_bad) / sizeof(subject_bad[0]); i++)
		ok(gratitude_subject_parse(subject_bad[i], strlen(subject_bad[i]), &s, &he) < 0,
		    "subject refused: \"%s\"", subject_bad[i]);
	gratitude_subject_parse("handle:agent:0", 14, &s, &he);
	ok(he == HANDLE_BAD_AGENT, "the handle's own reason is kept");
	ok(gratitude_repo_parse("a/b", 3, repo) == 0 && strcmp(repo, "a/b") == 0, "shortest repo");
	memset(big, 'r', sizeof(big));
	memcpy(big, "o/", 2);
	ok(gratitude_repo_parse(big, 102, repo) == 0, "a 100-character repo name");
	ok(gratitude_repo_parse(big, 103, repo) < 0, "a 101-character repo name is refused");

	ok(gratitude_note_cites("fixed in pr:Acme/Widgets#42.", 28, "acme/widgets"),
	    "a pr marker cites its repo, case-insensitively, trailing dot ignored");
	ok(gratitude_note_cites("(review:acme/widgets#7) thanks", 30, "acme/widgets"),
	    "a review marker in parentheses");
	ok(!gratitude_note_cites("pr:acme/widgets-2#1", 19, "acme/widgets"), "another repo does not cite");
	ok(!gratitude_note_cites("see acme/widgets#4", 18, "acme/widgets"), "no marker prefix");
	ok(!gratitude_note_cites("pr:acme/widgets#0", 17, "acme/widgets"), "N starts at 1");
	ok(!gratitude_note_cites("PR:acme/widgets#3", 17, "acme/widgets"), "the prefix is lowercase");
	ok(!gratitude_note_cites("xpr:acme/widgets#3", 18, "acme/widgets"), "the marker is a whole token");
	ok(!gratitude_note_cites("x:12345 issue acme/widgets", 26, "acme/widgets"), "an x: marker names no repo");
	ok(gratitude_note_markers(note, strlen(note), "acme/w", m, 8) == 3 && strcmp(m[0].text, "pr:acme/w#1") == 0 &&
	    strcmp(m[1].text, "review:acme/w#1") == 0 && strcmp(m[2].text, "pr:acme/w#3") == 0,
	    "the distinct citing markers, in note order");

	memset(hh, 0xab, sizeof(hh));
	memset(other, 0xcd, sizeof(other));
	ok(gratitude_cursor_format(hh, 17, cur, sizeof(cur)) == 0 && strcmp(cur, "h1.abababababababab.17") == 0,
	    "cursor text");
	ok(gratitude_cursor_parse(cur, strlen(cur), hh, &id) == 0 && id == 17, "cursor parses back");
	ok(gratitude_cursor_parse(cur, strlen(cur), other, &id) < 0, "a cursor of another handle is refused");
	ok(gratitude_cursor_format(hh, 0, cur, sizeof(cur)) < 0, "tip id 0 makes no cursor");
	ok(gratitude_cursor_parse("h1.abababababababab.017", 23, hh, &id) < 0, "leading zero refused");
	ok(gratitude_cursor_parse("h1.abababababababab.", 20, hh, &id) < 0, "no tip id refused");
	ok(gratitude_cursor_parse("h1.abababababababab.18446744073709551616", 40, hh, &id) < 0,
	    "tip id over 64 bits refused");
	ok(gratitude_cursor_parse("h1.abababababababab.18446744073709551615", 40, hh, &id) == 0 &&
	    id == 18446744073709551615u, "the largest tip id");
	ok(gratitude_cursor_parse("h1.ABABABABABABABAB.5", 21, hh, &id) < 0, "uppercase tag refused");
	ok(gratitude_cursor_format(hh, 5, cur, 10) < 0, "a buffer too small is an error");
	return done_testing();
}
