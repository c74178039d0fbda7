/*
 * libFuzzer target for the discovery query parser and its scoring
 * (lib/search.c): `q` is a client's text. Over a small index built once,
 * any input parses into at most SEARCH_TERMS_MAX terms, each with at most
 * SEARCH_EXP_MAX expansions among the index's stems; the run scores only
 * documents of the index, with finite positive scores; every explanation
 * names an expansion of its term or none. The input is also indexed as a
 * document of its own, and a query of it finds that document.
 */
#include <math.h>

#include "search.h"
#include "fuzz.h"
#include "banned.h"

static const char *const base[][SEARCH_FIELDS] = {
	{ "Weather forecast", "Hourly weather forecasts for any city", "Signed: forecast data", "https://a.example/v1/w" },
	{ "Stock quotes", "Real-time stock prices on US exchanges", NULL, "https://b.example/v1/quote" },
	{ "Translation", "Translate text between 120 languages, \xc3\xa9t\xc3\xa9", NULL, "https://c.example/t" },
};
#define NBASE (sizeof(base) / sizeof(base[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	struct search_builder *b = search_builder_new();
	struct search_index ix;
	struct search_stemmer st;
	struct search_scratch sc;
	struct search_params p;
	struct search_query q;
	bool self = false;

	CHECK(b != NULL && search_stemmer_init(&st) == 0);
	for (size_t i = 0; i < NBASE; i++) {
		size_t len[SEARCH_FIELDS];

		for (unsigned f = 0; f < SEARCH_FIELDS; f++)
			len[f] = base[i][f] ? strlen(base[i][f]) : 0;
		CHECK(search_builder_add(b, base[i], len) == 0);
	}
	{
		const char *t[SEARCH_FIELDS] = { text, NULL, NULL, NULL };
		size_t len[SEARCH_FIELDS] = { size, 0, 0, 0 };

		CHECK(search_builder_add(b, t, len) == 0);
	}
	CHECK(search_builder_finish(b, &ix) == 0 && ix.ndocs == NBASE + 1);
	CHECK(search_scratch_init(&sc, ix.ndocs) == 0);
	search_params_default(&p);
	CHECK(search_query_parse(&ix, &st, text, size, &q) == 0);
	CHECK(q.n <= SEARCH_TERMS_MAX);
	for (size_t t = 0; t < q.n; t++) {
		CHECK(q.t[t].nexp <= SEARCH_EXP_MAX && strlen(q.t[t].word) <= SEARCH_WORD_MAX);
		for (size_t e = 0; e < q.t[t].nexp; e++)
			CHECK(q.t[t].exp[e].term < ix.nterms && q.t[t].exp[e].how < SEARCH_HOW__MAX &&
			    q.t[t].exp[e].weight > 0 && q.t[t].exp[e].weight <= 1);
	}
	CHECK(search_run(&ix, &p, &q, &sc) <= ix.ndocs);
	for (uint32_t i = 0; i < sc.ntouched; i++) {
		uint32_t d = sc.touched[i];

		CHECK(d < ix.ndocs && isfinite(sc.score[d]) && sc.score[d] > 0);
		self = self || d == NBASE;
		for (size_t t = 0; t < q.n; t++) {
			int how[SEARCH_FIELDS];

			search_explain(&ix, &q, t, d, how);
			for (unsigned f = 0; f < SEARCH_FIELDS; f++)
				CHECK(how[f] >= -1 && how[f] < (int)q.t[t].nexp);
		}
	}
	/* Every stem of the input is in the index, as document NBASE: a term with its own stem finds it. */
	for (size_t t = 0; t < q.n; t++)
		for (size_t e = 0; e < q.t[t].nexp; e++)
			if (q.t[t].exp[e].how == SEARCH_WORD)
				CHECK(self);
	search_scratch_release(&sc);
	search_index_release(&ix);
	search_stemmer_release(&st);
	free(text);
	return 0;
}
