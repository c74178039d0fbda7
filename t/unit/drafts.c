/* Review drafts: the observation rules, the built text, the fixed facts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drafts.h"
#include "json.h"
#include "tap.h"
#include "banned.h"

#define FRAME DRAFT_FRAME

static const uint8_t rid[32] = { 0xab, 0xcd, [31] = 0x01 };

/* draft_review_text on a C string; the error, the text in out. */
static enum draft_err
text(const char *obs, char *out, size_t *len, bool *cut)
{
	char msg[256];

	return draft_review_text(obs, strlen(obs), out, DRAFT_TEXT_MAX + 1, len, cut, msg,
	    sizeof(msg));
}

static int
text_is(const char *obs, const char *want)
{
	char out[DRAFT_TEXT_MAX + 1];
	size_t len;
	bool cut;

	return text(obs, out, &len, &cut) == DRAFT_OK && strcmp(out, want) == 0 && !cut &&
	    len == strlen(want);
}

static int
text_err(const char *obs, enum draft_err want)
{
	char out[DRAFT_TEXT_MAX + 1];
	size_t len;
	bool cut;

	return text(obs, out, &len, &cut) == want;
}

static void
test_text_rules(void)
{
	char s[1100];

	ok(draft_text_ok("a", 1), "one character is a review text");
	ok(draft_text_ok("caf\xc3\xa9 ok", 8), "UTF-8 inside");
	ok(!draft_text_ok("", 0), "empty is not");
	ok(!draft_text_ok(" a", 2) && !draft_text_ok("a ", 2), "untrimmed ends are not");
	ok(!draft_text_ok("\xc2\xa0" "a", 3) && !draft_text_ok("a\xe3\x80\x80", 4),
	    "NBSP and U+3000 at an end are not (JS trim removes them)");
	ok(!draft_text_ok("\xef\xbb\xbf" "a", 4), "a leading U+FEFF is not");
	ok(!draft_text_ok("a\nb", 3) && !draft_text_ok("a\tb", 3), "newline and tab are not");
	ok(!draft_text_ok("a\x7f" "b", 3) && !draft_text_ok("a\xc2\x85" "b", 4), "DEL and C1 are not");
	ok(!draft_text_ok("a\xe2\x80\xae" "b", 5) && !draft_text_ok("a\xe2\x81\xa6" "b", 5),
	    "bidi override and isolate are not");
	ok(!draft_text_ok("a\xe2\x80\xa8" "b", 5) && !draft_text_ok("a\xe2\x80\xa9" "b", 5),
	    "line and paragraph separators are not (one paragraph)");
	ok(!draft_text_ok("a\xc3", 2) && !draft_text_ok("\xed\xa0\x80", 3), "invalid UTF-8 is not");
	memset(s, 'x', sizeof(s));
	ok(draft_text_ok(s, 1000) && !draft_text_ok(s, 1001), "1000 bytes are, 1001 are not");
}

static void
test_review_text(void)
{
	char out[DRAFT_TEXT_MAX + 1], out2[DRAFT_TEXT_MAX + 1], obs[8100];
	size_t len, len2;
	bool cut, cut2;

	ok(text_is("It returned JSON.", FRAME "It returned JSON."), "framed as an observation");
	ok(strstr(FRAME, "I used") == NULL && strstr(FRAME, "I ") == NULL &&
	    strstr(FRAME, "not a claim of use") != NULL, "the frame makes no use claim");
	ok(text_is("  two\r\n\tlines\n\nhere  ", FRAME "two lines here"),
	    "whitespace runs collapse to one space, ends trimmed");
	ok(text_is("a\xc2\xa0\xe3\x80\x80" "b\xe2\x80\xa8" "c\xe2\x80\xa9" "d\xef\xbb\xbf",
	    FRAME "a b c d"), "Unicode spaces and separators collapse too");
	ok(text_is("caf\xc3\xa9 \xf0\x9f\x98\x80", FRAME "caf\xc3\xa9 \xf0\x9f\x98\x80"),
	    "non-ASCII text kept as is");
	ok(text_is("<b>\"quoted\" & raw</b>", FRAME "<b>\"quoted\" & raw</b>"),
	    "markup is data, copied verbatim (not a sanitizer)");

	ok(text_err("", DRAFT_E_LENGTH), "empty: length");
	ok(text_err("   ", DRAFT_E_BLANK), "spaces only: blank");
	ok(text_err("\n\t\r\n", DRAFT_E_BLANK), "tab and newlines only: blank");
	ok(text_err("\xe2\x80\xa8\xc2\xa0", DRAFT_E_BLANK), "Unicode whitespace only: blank");
	ok(text_err("a\x01" "b", DRAFT_E_CONTROL), "C0 control refused");
	ok(text_err("a\x0b" "b", DRAFT_E_CONTROL) && text_err("a\x0c" "b", DRAFT_E_CONTROL),
	    "VT and FF refused (only TAB, LF, CR allowed)");
	ok(text_err("a\x7f", DRAFT_E_CONTROL), "DEL refused");
	ok(text_err("a\xc2\x85", DRAFT_E_CONTROL), "C1 (NEL) refused");
	ok(text_err("a\xe2\x80\xae" "b", DRAFT_E_CONTROL), "U+202E refused");
	ok(text_err("a\xe2\x81\xa9", DRAFT_E_CONTROL), "U+2069 refused");
	ok(text_err("a\xff", DRAFT_E_UTF8) && text_err("\xed\xa0\x80", DRAFT_E_UTF8),
	    "invalid UTF-8 refused");
	{
		char msg[256];

		draft_review_text("ok\x01", 3, out, sizeof(out), &len, &cut, msg, sizeof(msg));
		ok(strstr(msg, "observation") && strstr(msg, "U+0001") && strstr(msg, "character 3"),
		    "the refusal names the field, the code point and its position: %s", msg);
	}
	{
		char msg[256];

		ok(draft_review_text("a\0b", 3, out, sizeof(out), &len, &cut, msg, sizeof(msg)) ==
		    DRAFT_E_CONTROL, "U+0000 refused");
	}

	memset(obs, 'a', 2000);
	obs[2000] = '\0';
	ok(text(obs, out, &len, &cut) == DRAFT_OK && cut && len <= DRAFT_TEXT_MAX &&
	    draft_text_ok(out, len) && strcmp(out + len - 3, "\xe2\x80\xa6") == 0,
	    "2000 characters: cut to %zu bytes with an ellipsis", len);
	ok(len == DRAFT_TEXT_MAX, "a word without spaces is cut at the byte budget exactly");
	obs[2000] = 'a';
	obs[2001] = '\0';
	ok(text_err(obs, DRAFT_E_LENGTH), "2001 characters: length");

	for (int i = 0; i < 2000; i++)
		memcpy(obs + 4 * i, "\xf0\x9f\x98\x80", 4);
	obs[8000] = '\0';
	ok(text(obs, out, &len, &cut) == DRAFT_OK && cut && draft_text_ok(out, len) &&
	    (len - (sizeof(FRAME) - 1) - 3) % 4 == 0,
	    "2000 four-byte characters (8000 bytes): cut at a character boundary (%zu bytes)", len);
	for (int i = 0; i < 2000; i++)
		memcpy(obs + 2 * i, "\xc3\xa9", 2);
	obs[4000] = '\0';
	ok(text(obs, out, &len, &cut) == DRAFT_OK && cut && draft_text_ok(out, len),
	    "2000 two-byte characters: valid text (%zu bytes)", len);

	for (int i = 0; i < 400; i++)
		memcpy(obs + 5 * i, "word ", 5);
	obs[1999] = '\0';
	ok(text(obs, out, &len, &cut) == DRAFT_OK && cut && draft_text_ok(out, len) &&
	    strcmp(out + len - 7, "word\xe2\x80\xa6") == 0, "prose is cut after a whole word");

	memset(obs, 'b', 966);
	obs[966] = '\0';
	ok(text(obs, out, &len, &cut) == DRAFT_OK && !cut && len == DRAFT_TEXT_MAX,
	    "frame + observation of exactly 1000 bytes is not cut");
	obs[966] = 'b';
	obs[967] = '\0';
	ok(text(obs, out, &len, &cut) == DRAFT_OK && cut && len <= DRAFT_TEXT_MAX,
	    "1001 bytes are cut");

	snprintf(obs, sizeof(obs), "same input, same draft\n\n  again");
	ok(text(obs, out, &len, &cut) == DRAFT_OK && text(obs, out2, &len2, &cut2) == DRAFT_OK &&
	    len == len2 && memcmp(out, out2, len) == 0, "deterministic");

	/* Pseudo-random observations: every accepted one gives a valid review text. */
	{
		static const char *const parts[] = { "a", "Z", " ", "\n", "\t", "\r", "\xc3\xa9",
		    "\xe2\x80\x83", "\xe3\x80\x80", "\xf0\x9f\x98\x80", "\xe2\x80\xa8", "\xc2\xa0",
		    "\xef\xbb\xbf", ".", "0", "\xe4\xb8\xad" };
		unsigned seed = 12345;
		int bad = 0, accepted = 0;

		for (int round = 0; round < 400; round++) {
			size_t n = 0, chars = 0, want;

			seed = seed * 1103515245u + 12345u;
			want = 1 + (seed >> 8) % 2000;
			while (chars < want) {
				const char *p;

				seed = seed * 1103515245u + 12345u;
				p = parts[(seed >> 12) % (sizeof(parts) / sizeof(parts[0]))];
				memcpy(obs + n, p, strlen(p));
				n += strlen(p);
				chars++;
			}
			obs[n] = '\0';
			if (text(obs, out, &len, &cut) == DRAFT_OK) {
				accepted++;
				if (!draft_text_ok(out, len) || len > DRAFT_TEXT_MAX)
					bad++;
			}
		}
		ok(bad == 0 && accepted > 300, "%d random observations accepted, every draft valid",
		    accepted);
	}
}

static void
test_objects(void)
{
	json_object *o = NULL, *o2 = NULL, *v;
	char msg[256];
	const char *a, *b;

	ok(draft_review(rid, "Fast\nand cheap.", 15, &o, msg, sizeof(msg)) == DRAFT_OK && o,
	    "review draft built");
	ok(json_object_object_get_ex(o, "routeId", &v) && strcmp(json_object_get_string(v),
	    "0xabcd000000000000000000000000000000000000000000000000000000000001") == 0,
	    "routeId in lowercase hex");
	ok(json_object_object_get_ex(o, "draft", &v) && json_object_get_boolean(v) &&
	    json_object_object_get_ex(o, "published", &v) && !json_object_get_boolean(v) &&
	    json_object_object_get_ex(o, "sanitized", &v) && !json_object_get_boolean(v) &&
	    json_object_object_get_ex(o, "useClaim", &v) && !json_object_get_boolean(v),
	    "draft true, published false, sanitized false, useClaim false");
	ok(json_object_object_get_ex(o, "reviewText", &v) &&
	    strcmp(json_object_get_string(v), FRAME "Fast and cheap.") == 0, "reviewText");
	ok(json_object_object_get_ex(o, "version", &v) &&
	    strcmp(json_object_get_string(v), DRAFT_VERSION) == 0, "version");
	draft_review(rid, "Fast\nand cheap.", 15, &o2, msg, sizeof(msg));
	a = json_dump(o, NULL);
	b = json_dump(o2, NULL);
	ok(a && b && strcmp(a, b) == 0, "byte-identical for the same input");
	json_object_put(o);
	json_object_put(o2);
	ok(draft_review(rid, " \n ", 3, &o, msg, sizeof(msg)) == DRAFT_E_BLANK && o == NULL &&
	    strcmp(draft_err_field(DRAFT_E_BLANK), "observation") == 0, "blank observation: no object");

	{
		int good = 0, inconsistent = 0, texts_ok = 0;

		for (int oc = 0; oc < DRAFT_OUTCOME__MAX; oc++)
			for (int sc = 0; sc < DRAFT_CHECK__MAX; sc++) {
				enum draft_err e = draft_prepare(rid, (enum draft_outcome)oc,
				    (enum draft_check)sc, &o, msg, sizeof(msg));
				const char *t = draft_prepare_text((enum draft_outcome)oc,
				    (enum draft_check)sc);

				if (e == DRAFT_OK && o && t) {
					good++;
					if (draft_text_ok(t, strlen(t)) && strstr(t, "I used") == NULL)
						texts_ok++;
				}
				if (e == DRAFT_E_INCONSISTENT && o == NULL && t == NULL &&
				    oc == DRAFT_REQUEST_FAILED && sc != DRAFT_CHECK_NOT_CHECKED &&
				    strstr(msg, "no response"))
					inconsistent++;
				json_object_put(o);
			}
		ok(good == 4 && texts_ok == 4, "four consistent fact pairs, each a valid fixed text");
		ok(inconsistent == 2, "request_failed with passed or failed is inconsistent");
	}
	ok(draft_prepare(rid, DRAFT_OUTCOME__MAX, DRAFT_CHECK_PASSED, &o, msg, sizeof(msg)) ==
	    DRAFT_E_FACT && o == NULL, "outcome out of range");
	ok(strcmp(draft_err_field(DRAFT_E_INCONSISTENT), "schemaCheck") == 0,
	    "inconsistent facts name schemaCheck");
	ok(draft_prepare(rid, DRAFT_RESPONSE_RECEIVED, DRAFT_CHECK_FAILED, &o, msg, sizeof(msg)) ==
	    DRAFT_OK, "response_received + failed");
	ok(json_object_object_get_ex(o, "facts", &v) && json_object_object_get_ex(v, "verified", &v) &&
	    !json_object_get_boolean(v), "facts.verified false");
	ok(json_object_object_get_ex(o, "proofOfUse", &v) && !json_object_get_boolean(v) &&
	    json_object_object_get_ex(o, "proofOfQuality", &v) && !json_object_get_boolean(v),
	    "not proof of use or quality");
	json_object_put(o);
	ok(draft_outcome_names[DRAFT_OUTCOME__MAX] == NULL && draft_check_names[DRAFT_CHECK__MAX] ==
	    NULL && strcmp(draft_check_names[DRAFT_CHECK_NOT_CHECKED], "not_checked") == 0,
	    "name lists are NULL-terminated choice lists");
}

int
main(void)
{
	test_text_rules();
	test_review_text();
	test_objects();
	return done_testing();
}
