/*
 * The discovery search engine (lib/search.h): stems, stop words, synonyms,
 * completions of an unfinished last word, BM25F order and the explanation
 * of each match.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "tap.h"
#include "banned.h"

static const char *const docs[][SEARCH_FIELDS] = {
	/* title, summary, context, URL */
	{ "Weather forecast", "Hourly weather forecasts for any city", NULL,
	  "https://api.wx.example/v1/forecast" },
	{ "Sanctions screening", "Screen names against sanctions lists (OFAC, EU, UN)", NULL,
	  "https://api.kyc.example/v1/screen" },
	{ "Stock quotes", "Real-time stock prices for equities on US exchanges", NULL,
	  "https://api.mkt.example/v1/quote" },
	{ "Crypto prices", "Current cryptocurrency prices: bitcoin, ether and more", NULL,
	  "https://api.coin.example/v1/price" },
	{ "Inventory", "E-commerce inventory levels and warehouse stock counts", NULL,
	  "https://api.shop.example/v1/inventory" },
	{ "Translation", "Translate text between 120 languages", NULL,
	  "https://api.lang.example/v1/translate" },
	/* A long document that says weather once: length normalisation puts it below doc 0. */
	{ "Data hub", "A general data hub with many feeds: news, sports, markets, travel, the weather, "
	  "traffic, events, holidays, time zones and much more for every country of the world", NULL,
	  "https://api.hub.example/v1/feeds" },
};
#define NDOCS (sizeof(docs) / sizeof(docs[0]))

static struct search_index ix;
static struct search_stemmer st;
static struct search_params prm;
static struct search_scratch sc;

/* The documents q finds, best first, as "d0 d3 ..." into out. */
static const char *
run(const char *q, char *out, size_t cap)
{
	struct search_query sq;
	uint32_t n, order[NDOCS];
	size_t off = 0;

	out[0] = '\0';
	if (search_query_parse(&ix, &st, q, strlen(q), &sq) < 0)
		return "parse failed";
	n = search_run(&ix, &prm, &sq, &sc);
	memcpy(order, sc.touched, n * sizeof(*order));
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++)
			if (sc.score[order[j]] > sc.score[order[i]]) {
				uint32_t t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
	for (uint32_t i = 0; i < n && off < cap; i++)
		off += (size_t)snprintf(out + off, cap - off, "%sd%u", i ? " " : "", order[i]);
	return out;
}

/* How term t of q matched field f of doc, as "word", "synonym:STEM", "prefix:STEM" or "-". */
static const char *
how(const char *q, size_t t, uint32_t doc, unsigned f, char *out, size_t cap)
{
	struct search_query sq;
	int h[SEARCH_FIELDS];
	static const char *const names[SEARCH_HOW__MAX] = { "word", "synonym", "prefix", "past", "stemprefix" };

	if (search_query_parse(&ix, &st, q, strlen(q), &sq) < 0 || t >= sq.n)
		return "no term";
	search_explain(&ix, &sq, t, doc, h);
	if (h[f] < 0)
		return "-";
	snprintf(out, cap, "%s:%s", names[sq.t[t].exp[h[f]].how], search_term_text(&ix, sq.t[t].exp[h[f]].term));
	return out;
}

static bool
parse(const char *q, struct search_query *sq)
{
	return search_query_parse(&ix, &st, q, strlen(q), sq) == 0;
}

#define F_TEST_TITLE 0

int
main(void)
{
	struct search_builder *b;
	struct search_query sq;
	char s[SEARCH_WORD_MAX + 1], out[256];

	ok(search_stemmer_init(&st) == 0, "an English stemmer");
	ok(search_stem(&st, "sanctioned", s) == 0 && strcmp(s, "sanction") == 0, "sanctioned -> %s", s);
	ok(search_stem(&st, "forecasting", s) == 0 && strcmp(s, "forecast") == 0, "forecasting -> %s", s);
	ok(search_stem(&st, "prices", s) == 0 && strcmp(s, "price") == 0, "prices -> %s", s);
	ok(search_stem(&st, "20", s) == 0 && strcmp(s, "20") == 0, "a number is its own stem");
	ok(search_stem(&st, "\xc3\xa9t\xc3\xa9", s) == 0 && s[0] != '\0', "a non-ASCII word has a stem");
	ok(search_is_stopword("the") && search_is_stopword("who") && search_is_stopword("i") &&
	    search_is_stopword("an"), "the, who, i, an are stop words");
	ok(!search_is_stopword("weather") && !search_is_stopword("stock") && !search_is_stopword(""),
	    "weather and stock are not");

	b = search_builder_new();
	ok(b != NULL, "a builder");
	for (size_t i = 0; i < NDOCS; i++) {
		size_t len[SEARCH_FIELDS];

		for (unsigned f = 0; f < SEARCH_FIELDS; f++)
			len[f] = docs[i][f] ? strlen(docs[i][f]) : 0;
		if (search_builder_add(b, docs[i], len) < 0)
			ok(0, "add %zu", i);
	}
	ok(search_builder_finish(b, &ix) == 0, "built");
	ok(ix.ndocs == NDOCS, "over %u documents", ix.ndocs);
	for (uint32_t i = 1; i < ix.nterms; i++)
		if (strcmp(search_term_text(&ix, i - 1), search_term_text(&ix, i)) >= 0)
			ok(0, "terms sorted at %u", i);
	ok(search_scratch_init(&sc, ix.ndocs) == 0, "scratch");
	search_params_default(&prm);

	is_str(run("weather", out, sizeof(out)), "d0 d6", "weather: the short forecast listing above the long hub");
	is_str(run("who is sanctioned under ofac", out, sizeof(out)), "d1",
	    "stop words drop out; sanctioned finds sanctions by stem");
	is_str(how("who is sanctioned under ofac", 0, 1, 1, out, sizeof(out)), "word:sanction",
	    "  the match says the stem");
	is_str(run("stock price of apple", out, sizeof(out)), "d2 d3 d4",
	    "stock price: the stock quotes first (both words), then a price, then a stock count");
	is_str(run("weath", out, sizeof(out)), "d0 d6", "an unfinished last word is completed (type-ahead)");
	is_str(how("weath", 0, 0, 0, out, sizeof(out)), "prefix:weather", "  and says so");
	is_str(how("forecasti", 0, 0, 0, out, sizeof(out)), "past:forecast", "  a word typed past a stem says so");
	is_str(how("weath ", 0, 0, 0, out, sizeof(out)), "stemprefix:weather", "  a finished word's longer stem says so");
	{
		float typed, finished;

		run("weath", out, sizeof(out));
		typed = sc.score[0];
		is_str(run("weath ", out, sizeof(out)), "d0 d6", "a finished word matches the stems it starts too");
		finished = sc.score[0];
		ok(finished < typed, "  at a lower weight than an unfinished one (%.3f < %.3f)", finished, typed);
		is_str(run("wea ", out, sizeof(out)), "", "  but not when its stem is under four letters");
		is_str(run("forecasti ", out, sizeof(out)), "", "  and never a shorter stem");
	}
	is_str(run("eather", out, sizeof(out)), "", "never the middle of a word");
	is_str(run("forecasti", out, sizeof(out)), "d0", "a word on its way past a stem finds it");
	is_str(run("translation", out, sizeof(out)), "d5", "translation finds translate by stem");
	is_str(run("localize text", out, sizeof(out)), "d5", "a synonym (localize: translate) finds it");
	is_str(how("localize text", 0, 5, 0, out, sizeof(out)), "synonym:translat", "  and says it was a synonym");
	is_str(run("the of", out, sizeof(out)), "d6", "only stop words: they are looked up as words");
	is_str(run("", out, sizeof(out)), "", "no words, no documents");
	ok(parse("i am in the of a an by for to at with from weather", &sq) && sq.n == 1,
	    "stop words do not take term slots");
	ok(parse("one two three four five six seven eight nine ten", &sq) && sq.n == SEARCH_TERMS_MAX,
	    "at most %d terms", SEARCH_TERMS_MAX);
	ok(parse("price price prices", &sq) && sq.n == 2, "a repeated word is one term (prices is its own word)");
	{
		uint32_t n;

		search_query_parse(&ix, &st, "weather", 7, &sq);
		n = search_run(&ix, &prm, &sq, &sc);
		ok(n == 2 && sc.score[0] > sc.score[6] && sc.score[6] > 0 && isfinite(sc.score[0]),
		    "scores are finite and ordered (%.3f > %.3f)", sc.score[0], sc.score[6]);
		sc.gen = UINT32_MAX - 1;
		ok(search_run(&ix, &prm, &sq, &sc) == 2 && search_run(&ix, &prm, &sq, &sc) == 2,
		    "stamps start over before they wrap");
		/* A run of several terms reserves its stamps at once: it never starts over between terms. */
		for (uint32_t back = 1; back <= 4; back++) {
			float first;

			search_query_parse(&ix, &st, "weather forecast ", 17, &sq);
			search_run(&ix, &prm, &sq, &sc);
			first = sc.score[0];
			sc.gen = UINT32_MAX - back;
			n = search_run(&ix, &prm, &sq, &sc);
			ok(n == 2 && sc.score[0] == first, "two terms %u stamps before the wrap: the same scores", back);
		}
		/* The saturations kept at build (default parameters) score as the full computation does. */
		{
			struct search_params other = prm;
			float fast0, fast6;

			search_query_parse(&ix, &st, "weather forecast ", 17, &sq);
			search_run(&ix, &prm, &sq, &sc);
			fast0 = sc.score[0];
			fast6 = sc.score[6];
			other.k1 = nextafterf(prm.k1, 2.0f);    /* not the defaults: the full computation */
			search_run(&ix, &other, &sq, &sc);
			ok(fabsf(sc.score[0] - fast0) < 1e-4f * fast0 && fabsf(sc.score[6] - fast6) < 1e-4f * fast6,
			    "kept saturations score as the full computation (%.6f %.6f, %.6f %.6f)", fast0, sc.score[0],
			    fast6, sc.score[6]);
			other.weight[F_TEST_TITLE] = 0;
			search_run(&ix, &other, &sq, &sc);
			ok(sc.score[0] < fast0, "other parameters are not read from the kept saturations");
		}
	}
	search_scratch_release(&sc);
	search_index_release(&ix);

	/* An empty index answers nothing. */
	b = search_builder_new();
	ok(b && search_builder_finish(b, &ix) == 0 && ix.ndocs == 0 && ix.nterms == 0, "an empty index");
	ok(search_scratch_init(&sc, 0) == 0 && search_query_parse(&ix, &st, "weather", 7, &sq) == 0 &&
	    sq.t[0].nexp == 0 && search_run(&ix, &prm, &sq, &sc) == 0, "  finds nothing");
	search_scratch_release(&sc);
	search_index_release(&ix);
	search_stemmer_release(&st);
	return done_testing();
}
