/*
 * relevance: how well discovery's ranking finds the right listing
 * (docs/ARCHITECTURE.md, Discovery ranking), against the ranking it
 * replaced, on the same corpus.
 *
 *   relevance [--each] LISTINGS QUERIES
 *
 * LISTINGS: TSV lines "id category method url service_name description"
 * (t/relevance/gen.mjs writes them). QUERIES: TSV lines "qid style query
 * judgments", judgments as "category:grade ..." (grade 2 the task itself,
 * 1 a related one), '#' lines are comments (t/relevance/queries.tsv).
 *
 * Each listing is indexed as the discovery corpus indexes a catalog
 * listing (handlers/corpus.c): title the service name, summary the
 * description, no signed context, and the URL. Two rankings run every
 * query: "bm25f", lib/search.c as discovery runs it, and "previous", the
 * word-prefix counting discovery used before (each query word matched as
 * a word prefix; title 3, summary and context 2, URL 1 per term and
 * field). Ties go to the lower listing ID in both.
 *
 * Printed: per ranking, nDCG@10 (gain 2^grade - 1, over the ideal order of
 * every judged listing), MRR (of the first grade-2 listing, 0 when none in
 * the first 10) and the share of queries with no result, overall and per
 * query style, as "metric ranking style value" lines; with --each, also
 * "query QID STYLE NDCG-BM25F NDCG-PREVIOUS" per query. Exit 0, or 2 on
 * bad input.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "wordindex.h"
#include "banned.h"

#define CUTOFF 10
#define CATS_MAX 256
#define JUDGED_MAX 8
#define STYLES_MAX 16

struct listing {
	int cat;
	char *f[SEARCH_FIELDS];     /* title, summary, context (none), URL, tags (none) */
};

struct query {
	char id[32];
	char style[32];
	char *text;
	int ncat;
	int cat[JUDGED_MAX];
	int grade[JUDGED_MAX];
};

static char *cats[CATS_MAX];
static int ncats;
static size_t *cat_count;       /* listings per category */

static int
cat_id(const char *name, int add)
{
	for (int i = 0; i < ncats; i++)
		if (strcmp(cats[i], name) == 0)
			return i;
	if (!add || ncats == CATS_MAX)
		return -1;
	if ((cats[ncats] = strdup(name)) == NULL)
		return -1;
	return ncats++;
}

/* Split line at tabs into at most n fields; returns the count. */
static int
split_tabs(char *line, char **out, int n)
{
	int k = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (k < n) {
		out[k++] = line;
		if ((line = strchr(line, '\t')) == NULL)
			break;
		*line++ = '\0';
	}
	return k;
}

static int
read_listings(const char *path, struct listing **out, size_t *n)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, *col[6];
	size_t cap = 0, lcap = 0;

	*out = NULL;
	*n = 0;
	if (fp == NULL)
		return -1;
	while (getline(&line, &lcap, fp) > 0) {
		struct listing *l;

		if (split_tabs(line, col, 6) != 6)
			goto bad;
		if (*n == cap) {
			struct listing *nl = realloc(*out, (cap = cap ? cap * 2 : 1024) * sizeof(*nl));

			if (nl == NULL)
				goto bad;
			*out = nl;
		}
		l = &(*out)[(*n)++];
		memset(l, 0, sizeof(*l));
		l->cat = cat_id(col[1], 1);
		l->f[0] = strdup(col[4]);
		l->f[1] = strdup(col[5]);
		l->f[3] = strdup(col[3]);
		if (l->cat < 0 || !l->f[0] || !l->f[1] || !l->f[3])
			goto bad;
	}
	free(line);
	fclose(fp);
	return 0;
bad:
	free(line);
	fclose(fp);
	return -1;
}

static int
read_queries(const char *path, struct query **out, size_t *n)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, *col[4];
	size_t cap = 0, lcap = 0;

	*out = NULL;
	*n = 0;
	if (fp == NULL)
		return -1;
	while (getline(&line, &lcap, fp) > 0) {
		struct query *q;
		char *save = NULL;

		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (split_tabs(line, col, 4) != 4)
			goto bad;
		if (*n == cap) {
			struct query *nq = realloc(*out, (cap = cap ? cap * 2 : 256) * sizeof(*nq));

			if (nq == NULL)
				goto bad;
			*out = nq;
		}
		q = &(*out)[(*n)++];
		memset(q, 0, sizeof(*q));
		snprintf(q->id, sizeof(q->id), "%s", col[0]);
		snprintf(q->style, sizeof(q->style), "%s", col[1]);
		if ((q->text = strdup(col[2])) == NULL)
			goto bad;
		for (char *j = strtok_r(col[3], " ", &save); j; j = strtok_r(NULL, " ", &save)) {
			char *colon = strrchr(j, ':');

			if (colon == NULL || q->ncat == JUDGED_MAX)
				goto bad;
			*colon = '\0';
			if ((q->cat[q->ncat] = cat_id(j, 0)) < 0) {
				fprintf(stderr, "relevance: query %s judges %s, which no listing has\n", col[0], j);
				goto bad;
			}
			for (int k = 0; k < q->ncat; k++)
				if (q->cat[k] == q->cat[q->ncat]) {
					fprintf(stderr, "relevance: query %s judges %s twice\n", col[0], j);
					goto bad;
				}
			if (strcmp(colon + 1, "1") != 0 && strcmp(colon + 1, "2") != 0) {
				fprintf(stderr, "relevance: query %s: grade %s is not 1 or 2\n", col[0], colon + 1);
				goto bad;
			}
			q->grade[q->ncat++] = colon[1] - '0';
		}
	}
	free(line);
	fclose(fp);
	return 0;
bad:
	free(line);
	fclose(fp);
	return -1;
}

static int
grade_of(const struct query *q, int cat)
{
	for (int i = 0; i < q->ncat; i++)
		if (q->cat[i] == cat)
			return q->grade[i];
	return 0;
}

/* nDCG@CUTOFF and the reciprocal rank of ranked[0..n) (listing IDs). */
static void
measure(const struct query *q, const struct listing *l, const uint32_t *ranked, size_t n,
    double *ndcg, double *rr)
{
	double dcg = 0, idcg = 0;
	size_t have[3] = { 0, 0, 0 }, pos = 0;

	*rr = 0;
	for (size_t i = 0; i < n && i < CUTOFF; i++) {
		int g = grade_of(q, l[ranked[i]].cat);

		dcg += (pow(2, g) - 1) / log2((double)i + 2);
		if (g == 2 && *rr == 0)
			*rr = 1.0 / (double)(i + 1);
	}
	for (int i = 0; i < q->ncat; i++)
		if (q->grade[i] >= 1 && q->grade[i] <= 2)
			have[q->grade[i]] += cat_count[q->cat[i]];
	for (int g = 2; g >= 1; g--)
		for (size_t k = 0; k < have[g] && pos < CUTOFF; k++, pos++)
			idcg += (pow(2, g) - 1) / log2((double)pos + 2);
	*ndcg = idcg > 0 ? dcg / idcg : 0;
}

/* Keep the best CUTOFF of (doc, score) in top[], higher score, then lower doc, first. */
struct top {
	uint32_t doc[CUTOFF];
	double score[CUTOFF];
	size_t n;
};

static void
top_add(struct top *t, uint32_t doc, double score)
{
	size_t pos;

	if (t->n == CUTOFF && (score < t->score[CUTOFF - 1] ||
	    (score == t->score[CUTOFF - 1] && doc > t->doc[CUTOFF - 1])))
		return;
	pos = t->n < CUTOFF ? t->n++ : CUTOFF - 1;
	while (pos > 0 && (score > t->score[pos - 1] || (score == t->score[pos - 1] && doc < t->doc[pos - 1]))) {
		t->doc[pos] = t->doc[pos - 1];
		t->score[pos] = t->score[pos - 1];
		pos--;
	}
	t->doc[pos] = doc;
	t->score[pos] = score;
}

/* The previous ranking: word-prefix counting. */
static const int prev_weight[SEARCH_FIELDS] = { 3, 2, 2, 1, 0 };   /* the previous ranking had no tags field */

struct prev_ctx {
	unsigned term;
	uint32_t *match;            /* per document and field: bit per term */
	int *rel;
	uint32_t *touched;
	size_t ntouched;
};

static void
prev_hit(uint32_t doc, unsigned fields, void *arg)
{
	struct prev_ctx *c = arg;
	uint32_t *mt = &c->match[doc * SEARCH_FIELDS];

	if (c->rel[doc] < 0) {
		c->rel[doc] = 0;
		c->touched[c->ntouched++] = doc;
	}
	for (unsigned f = 0; f < SEARCH_FIELDS; f++)
		if ((fields & (1u << f)) && !(mt[f] & (1u << c->term))) {
			mt[f] |= 1u << c->term;
			c->rel[doc] += prev_weight[f];
		}
}

struct prev_terms {
	size_t n;
	char t[SEARCH_TERMS_MAX][SEARCH_WORD_MAX + 1];
};

static void
prev_term(const char *w, void *arg)
{
	struct prev_terms *p = arg;

	if (p->n == SEARCH_TERMS_MAX)
		return;
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->t[i], w) == 0)
			return;
	snprintf(p->t[p->n++], sizeof(p->t[0]), "%s", w);
}

struct tally {
	double ndcg, rr, zero;
	size_t n;
};

static void
tally_add(struct tally *t, double ndcg, double rr, int zero)
{
	t->ndcg += ndcg;
	t->rr += rr;
	t->zero += zero;
	t->n++;
}

static void
tally_print(const char *ranking, const char *style, const struct tally *t)
{
	if (t->n == 0)
		return;
	printf("ndcg10 %s %s %.3f\n", ranking, style, t->ndcg / (double)t->n);
	printf("mrr %s %s %.3f\n", ranking, style, t->rr / (double)t->n);
	printf("zero %s %s %.3f\n", ranking, style, t->zero / (double)t->n);
}

int
main(int argc, char **argv)
{
	struct listing *l = NULL;
	struct query *q = NULL;
	size_t nl = 0, nq = 0;
	struct search_builder *b = NULL;
	struct search_index ix = { 0 };
	struct search_stemmer st = { NULL };
	struct search_scratch sc = { 0 };
	struct search_params prm;
	struct wordindex wi;
	struct prev_ctx pc = { 0 };
	int rc = 2;
	bool built;
	char styles[STYLES_MAX][32];
	struct tally tb[STYLES_MAX + 1], tp[STYLES_MAX + 1];
	size_t nstyles = 0;
	bool each = argc == 4 && strcmp(argv[1], "--each") == 0;

	if (each) {
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: relevance [--each] LISTINGS QUERIES\n");
		return 2;
	}
	wordindex_init(&wi);
	if (read_listings(argv[1], &l, &nl) < 0 || nl == 0 || nl > UINT32_MAX / SEARCH_FIELDS) {
		fprintf(stderr, "relevance: %s: not a listings file\n", argv[1]);
		goto out;
	}
	if ((cat_count = calloc((size_t)ncats + 1, sizeof(*cat_count))) == NULL)
		goto out;
	for (size_t i = 0; i < nl; i++)
		cat_count[l[i].cat]++;
	if (read_queries(argv[2], &q, &nq) < 0 || nq == 0) {
		fprintf(stderr, "relevance: %s: not a queries file\n", argv[2]);
		goto out;
	}
	if ((b = search_builder_new()) == NULL || search_stemmer_init(&st) < 0)
		goto out;
	for (size_t i = 0; i < nl; i++) {
		size_t len[SEARCH_FIELDS];

		for (unsigned f = 0; f < SEARCH_FIELDS; f++) {
			len[f] = l[i].f[f] ? strlen(l[i].f[f]) : 0;
			if (l[i].f[f] && wordindex_add(&wi, (uint32_t)i, f, l[i].f[f], len[f]) < 0)
				goto out;
		}
		if (search_builder_add(b, (const char *const *)l[i].f, len) < 0)
			goto out;
	}
	built = search_builder_finish(b, &ix) == 0;
	b = NULL;                   /* freed by search_builder_finish */
	if (!built || wordindex_build(&wi) < 0 ||
	    search_scratch_init(&sc, ix.ndocs) < 0)
		goto out;
	search_params_default(&prm);
	pc.match = calloc(nl * SEARCH_FIELDS, sizeof(*pc.match));
	pc.rel = malloc(nl * sizeof(*pc.rel));
	pc.touched = malloc(nl * sizeof(*pc.touched));
	if (pc.match == NULL || pc.rel == NULL || pc.touched == NULL)
		goto out;
	for (size_t i = 0; i < nl; i++)
		pc.rel[i] = -1;
	memset(tb, 0, sizeof(tb));
	memset(tp, 0, sizeof(tp));
	for (size_t i = 0; i < nq; i++) {
		struct search_query sq;
		struct prev_terms pt = { .n = 0 };
		struct top t1 = { .n = 0 }, t2 = { .n = 0 };
		double ndcg, rr, first;
		size_t s;
		uint32_t n;

		for (s = 0; s < nstyles && strcmp(styles[s], q[i].style) != 0; s++)
			;
		if (s == nstyles) {
			if (nstyles == STYLES_MAX)
				goto out;
			snprintf(styles[nstyles++], sizeof(styles[0]), "%s", q[i].style);
		}
		if (search_query_parse(&ix, &st, q[i].text, strlen(q[i].text), &sq) < 0)
			goto out;
		n = search_run(&ix, &prm, &sq, &sc);
		for (uint32_t j = 0; j < n; j++)
			top_add(&t1, sc.touched[j], sc.score[sc.touched[j]]);
		measure(&q[i], l, t1.doc, t1.n, &ndcg, &rr);
		tally_add(&tb[s], ndcg, rr, t1.n == 0);
		tally_add(&tb[STYLES_MAX], ndcg, rr, t1.n == 0);
		first = ndcg;

		wordindex_words(q[i].text, strlen(q[i].text), prev_term, &pt);
		pc.ntouched = 0;
		for (size_t k = 0; k < pt.n; k++) {
			pc.term = (unsigned)k;
			wordindex_prefix(&wi, pt.t[k], prev_hit, &pc);
		}
		for (size_t j = 0; j < pc.ntouched; j++) {
			uint32_t d = pc.touched[j];

			top_add(&t2, d, pc.rel[d]);
			pc.rel[d] = -1;
			memset(&pc.match[d * SEARCH_FIELDS], 0, SEARCH_FIELDS * sizeof(*pc.match));
		}
		measure(&q[i], l, t2.doc, t2.n, &ndcg, &rr);
		tally_add(&tp[s], ndcg, rr, t2.n == 0);
		tally_add(&tp[STYLES_MAX], ndcg, rr, t2.n == 0);
		if (each)
			printf("query %s %s %.3f %.3f\n", q[i].id, q[i].style, first, ndcg);
	}
	printf("corpus %zu listings, %d categories, %zu queries, %u stems\n", nl, ncats, nq, ix.nterms);
	tally_print("bm25f", "all", &tb[STYLES_MAX]);
	tally_print("previous", "all", &tp[STYLES_MAX]);
	for (size_t s = 0; s < nstyles; s++) {
		tally_print("bm25f", styles[s], &tb[s]);
		tally_print("previous", styles[s], &tp[s]);
	}
	rc = 0;
out:
	search_builder_free(b);
	search_scratch_release(&sc);
	search_index_release(&ix);
	search_stemmer_release(&st);
	wordindex_release(&wi);
	free(pc.match);
	free(pc.rel);
	free(pc.touched);
	for (size_t i = 0; i < nl; i++)
		for (unsigned f = 0; f < SEARCH_FIELDS; f++)
			free(l[i].f[f]);
	free(l);
	for (size_t i = 0; i < nq; i++)
		free(q[i].text);
	free(q);
	for (int i = 0; i < ncats; i++)
		free(cats[i]);
	free(cat_count);
	return rc;
}
