/* The word-prefix index: splitting, merging, prefix ranges. */
#include <string.h>

#include "wordindex.h"
#include "tap.h"
#include "banned.h"

static unsigned hits[8];

static void
collect(uint32_t doc, unsigned fields, void *arg)
{
	(void)arg;
	if (doc < 8)
		hits[doc] |= fields;
}

static unsigned
count_docs(void)
{
	unsigned n = 0;

	for (int i = 0; i < 8; i++)
		n += hits[i] != 0;
	return n;
}

static void
lookup(const struct wordindex *w, const char *p)
{
	memset(hits, 0, sizeof(hits));
	wordindex_prefix(w, p, collect, NULL);
}

static char joined[256];

static void
join(const char *word, void *arg)
{
	(void)arg;
	if (strlen(joined) + strlen(word) + 2 < sizeof(joined)) {
		memcpy(joined + strlen(joined), word, strlen(word) + 1);
		memcpy(joined + strlen(joined), "|", 2);
	}
}

int
main(void)
{
	struct wordindex w;
	const char *t0 = "Weather Forecast API: 7-day forecasts", *t1 = "https://api.weatherdata.example.com/v1/alerts",
	    *t2 = "Currency exchange rates", *t3 = "Übersetzung für 東京 routes";

	joined[0] = '\0';
	wordindex_words(t0, strlen(t0), join, NULL);
	is_str(joined, "weather|forecast|api|7|day|forecasts|", "words: lowercase runs of letters and digits");
	joined[0] = '\0';
	wordindex_words(t3, strlen(t3), join, NULL);
	is_str(joined, "\xc3\x9c" "bersetzung|f\xc3\xbcr|\xe6\x9d\xb1\xe4\xba\xac|routes|",
	    "non-ASCII bytes stay inside words");

	{
		/* 22 three-byte characters (66 bytes): cut at 64 bytes, never inside a character. */
		char cjk[22 * 3 + 1], want[21 * 3 + 2];

		for (int i = 0; i < 22; i++)
			memcpy(cjk + 3 * i, "\xe6\x9d\xb1", 3);
		cjk[66] = '\0';
		memcpy(want, cjk, 63);
		memcpy(want + 63, "|", 2);
		joined[0] = '\0';
		wordindex_words(cjk, strlen(cjk), join, NULL);
		is_str(joined, want, "a long non-ASCII word is cut at a character boundary (63 of 64 bytes)");
		cjk[64] = '\0';     /* 21 characters and a cut-off lead byte plus one continuation */
		joined[0] = '\0';
		wordindex_words(cjk, 64, join, NULL);
		is_str(joined, want, "a truncated character at the end of the text is dropped too");
	}

	wordindex_init(&w);
	ok(wordindex_add(&w, 0, 0, t0, strlen(t0)) == 0 && wordindex_add(&w, 0, 1, t0, strlen(t0)) == 0 &&
	    wordindex_add(&w, 1, 3, t1, strlen(t1)) == 0 && wordindex_add(&w, 2, 1, t2, strlen(t2)) == 0 &&
	    wordindex_add(&w, 3, 2, t3, strlen(t3)) == 0 && wordindex_build(&w) == 0, "build");
	lookup(&w, "weather");
	ok(count_docs() == 2 && hits[0] == 3 && hits[1] == 8, "'weather' in doc 0 (fields 0,1) and doc 1 (field 3)");
	lookup(&w, "weath");
	ok(count_docs() == 2, "prefixes match");
	lookup(&w, "forecast");
	ok(count_docs() == 1 && hits[0] == 3, "'forecast' and 'forecasts' merge into one document");
	lookup(&w, "eather");
	ok(count_docs() == 0, "no infix matches");
	lookup(&w, "rates");
	ok(count_docs() == 1 && hits[2] == 2, "exact word");
	lookup(&w, "zzz");
	ok(count_docs() == 0, "past the last word");
	lookup(&w, "\xc3\xbc" "bersetzung");
	ok(count_docs() == 0, "non-ASCII is not case-folded");
	lookup(&w, "f\xc3\xbcr");
	ok(count_docs() == 1 && hits[3] == 4, "non-ASCII words are found");
	lookup(&w, "");
	ok(count_docs() == 0, "an empty prefix matches nothing");
	wordindex_release(&w);
	wordindex_init(&w);
	ok(wordindex_build(&w) == 0, "an empty index builds");
	lookup(&w, "a");
	ok(count_docs() == 0, "and finds nothing");
	wordindex_release(&w);
	return done_testing();
}
