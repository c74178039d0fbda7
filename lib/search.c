/*
 * search.c: the discovery search engine: analysis, a BM25F index and its
 * queries (search.h; docs/ARCHITECTURE.md, Discovery ranking).
 *
 * The word lists (search_words.def) become two tables on first use (a
 * build that ran out of memory is tried again), read only from then on: the stop words, sorted, and the synonym groups as
 * (stem, group) pairs sorted by stem, with each group's stems.
 *
 * Scoring: for a query term with expansions e (each a stem s with weight
 * w_e) and a document d,
 *
 *   tf'(s, d)   = sum over fields f of W_f * tf_f(s, d) / (1 - B_f + B_f * len_f(d) / avglen_f)
 *   part(e, d)  = w_e * idf(s) * tf'(s, d) / (k1 + tf'(s, d))
 *   idf(s)      = ln(1 + (N - df(s) + 0.5) / (df(s) + 0.5))
 *
 * and the term adds the best part of its expansions to d's score, so a
 * word and its synonym in one document count once.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <libstemmer.h>

#include "search.h"
#include "wordindex.h"
#include "banned.h"

#define W_SYNONYM 0.6f          /* a synonym's part against the word's own */
#define W_PREFIX 0.8f           /* a completion of the unfinished last word */
#define W_STEM_PREFIX 0.5f      /* a longer stem that starts with a finished word's stem */
#define STEM_PREFIX_MIN 4       /* letters of a finished word's stem before longer stems match */
#define PREFIX_MIN 3            /* letters before an unfinished word is completed */
#define QUERY_WORDS_MAX 64      /* words of a query looked at */

/* The word lists (search_words.def), built once. */
struct syn_entry {
	const char *stem;
	const char *word;           /* the word of the group it is the stem of */
	uint32_t group;
};

static struct {
	const char **stop;          /* sorted */
	size_t nstop;
	struct syn_entry *syn;      /* sorted by stem */
	size_t nsyn;
	uint32_t *group_first;      /* per group: its first entry in group_stems */
	uint32_t *group_stems;      /* entries (indexes into syn) by group */
	size_t ngroups;
	int rc;                     /* 0, or -1 when the tables could not be built */
} words;
/* Set (release) once the tables are built; words_mu serialises the builds. */
static _Atomic int words_built;
static pthread_mutex_t words_mu = PTHREAD_MUTEX_INITIALIZER;

static const char *const stop_lines[] = {
#define STOPWORDS(s) s,
#define SYNONYMS(s)
#include "search_words.def"
#undef STOPWORDS
#undef SYNONYMS
};

static const char *const syn_lines[] = {
#define STOPWORDS(s)
#define SYNONYMS(s) s,
#include "search_words.def"
#undef STOPWORDS
#undef SYNONYMS
};

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
syn_cmp(const void *a, const void *b)
{
	const struct syn_entry *x = a, *y = b;
	int c = strcmp(x->stem, y->stem);

	return c ? c : (x->group > y->group) - (x->group < y->group);
}

/* Copies of the space-separated words of lines[0..n), each NUL-terminated, into *out. */
static size_t
split_lines(const char *const *lines, size_t n, char **arena, const char ***out, uint32_t **line_of)
{
	size_t bytes = 0, count = 0, k = 0;
	char *a, *p;

	for (size_t i = 0; i < n; i++) {
		bytes += strlen(lines[i]) + 1;
		count += strlen(lines[i]) / 2 + 1;
	}
	*arena = a = malloc(bytes);
	*out = malloc(count * sizeof(**out));
	*line_of = malloc(count * sizeof(**line_of));
	if (a == NULL || *out == NULL || *line_of == NULL)
		return SIZE_MAX;
	p = a;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(lines[i]);

		memcpy(p, lines[i], len + 1);
		for (char *s = p; *s;) {
			while (*s == ' ')
				*s++ = '\0';
			if (*s == '\0')
				break;
			(*out)[k] = s;
			(*line_of)[k++] = (uint32_t)i;
			while (*s && *s != ' ')
				s++;
		}
		p += len + 1;
	}
	return k;
}

static void
words_build(void)
{
	struct search_stemmer st;
	char *stop_arena = NULL, *syn_arena = NULL, *stems = NULL;
	const char **syn_words = NULL;
	uint32_t *stop_line = NULL, *syn_group = NULL;
	size_t nsyn, nstop, used = 0;

	words.rc = -1;
	nstop = split_lines(stop_lines, sizeof(stop_lines) / sizeof(stop_lines[0]), &stop_arena,
	    &words.stop, &stop_line);
	nsyn = split_lines(syn_lines, sizeof(syn_lines) / sizeof(syn_lines[0]), &syn_arena, &syn_words,
	    &syn_group);
	free(stop_line);
	if (nstop == SIZE_MAX || nsyn == SIZE_MAX || search_stemmer_init(&st) < 0)
		goto out;
	qsort(words.stop, nstop, sizeof(*words.stop), str_cmp);
	words.nstop = nstop;
	/* Stem every synonym; a group's repeated stems (forecast, forecasts) are one entry. */
	stems = malloc(nsyn * (SEARCH_WORD_MAX + 1));
	words.syn = malloc((nsyn + 1) * sizeof(*words.syn));
	if (stems == NULL || words.syn == NULL)
		goto stem_out;
	for (size_t i = 0; i < nsyn; i++) {
		char *s = stems + i * (SEARCH_WORD_MAX + 1);

		if (search_stem(&st, syn_words[i], s) < 0)
			goto stem_out;
		words.syn[used++] = (struct syn_entry){ .stem = s, .word = syn_words[i], .group = syn_group[i] };
	}
	qsort(words.syn, used, sizeof(*words.syn), syn_cmp);
	words.nsyn = 0;
	for (size_t i = 0; i < used; i++)
		if (words.nsyn == 0 || syn_cmp(&words.syn[words.nsyn - 1], &words.syn[i]) != 0)
			words.syn[words.nsyn++] = words.syn[i];
	words.ngroups = sizeof(syn_lines) / sizeof(syn_lines[0]);
	words.group_first = calloc(words.ngroups + 1, sizeof(*words.group_first));
	words.group_stems = malloc((words.nsyn + 1) * sizeof(*words.group_stems));
	if (words.group_first == NULL || words.group_stems == NULL)
		goto stem_out;
	for (size_t i = 0; i < words.nsyn; i++)
		words.group_first[words.syn[i].group + 1]++;
	for (size_t g = 0; g < words.ngroups; g++)
		words.group_first[g + 1] += words.group_first[g];
	{
		uint32_t fill[sizeof(syn_lines) / sizeof(syn_lines[0])];

		memcpy(fill, words.group_first, sizeof(fill));
		for (size_t i = 0; i < words.nsyn; i++)
			words.group_stems[fill[words.syn[i].group]++] = (uint32_t)i;
	}
	words.rc = 0;
	/* The stems and the words are the entries' strings now, for the life of the process. */
	stems = NULL;
	syn_arena = NULL;
stem_out:
	search_stemmer_release(&st);
out:
	free(stems);
	free(syn_words);
	free(syn_group);
	free(syn_arena);
	if (words.rc < 0) {
		free(words.stop);
		free(stop_arena);
		free(words.syn);
		free(words.group_first);
		free(words.group_stems);
		memset(&words, 0, sizeof(words));
		words.rc = -1;
	}
	/* stop_arena holds the stop words for the life of the process. */
}

static int
words_ready(void)
{
	int rc = 0;

	if (atomic_load_explicit(&words_built, memory_order_acquire))
		return 0;
	/* Out of memory at the first build is tried again by the next caller. */
	pthread_mutex_lock(&words_mu);
	if (!atomic_load_explicit(&words_built, memory_order_relaxed)) {
		words_build();
		if ((rc = words.rc) == 0)
			atomic_store_explicit(&words_built, 1, memory_order_release);
	}
	pthread_mutex_unlock(&words_mu);
	return rc;
}

bool
search_is_stopword(const char *word)
{
	if (words_ready() < 0)
		return false;
	return bsearch(&word, words.stop, words.nstop, sizeof(*words.stop), str_cmp) != NULL;
}

int
search_stemmer_init(struct search_stemmer *s)
{
	s->sb = sb_stemmer_new("english", "UTF_8");
	return s->sb ? 0 : -1;
}

void
search_stemmer_release(struct search_stemmer *s)
{
	if (s->sb)
		sb_stemmer_delete(s->sb);
	s->sb = NULL;
}

int
search_stem(struct search_stemmer *s, const char *word, char out[SEARCH_WORD_MAX + 1])
{
	size_t len = strnlen(word, SEARCH_WORD_MAX);
	const sb_symbol *r = sb_stemmer_stem(s->sb, (const sb_symbol *)word, (int)len);
	size_t n;

	out[0] = '\0';
	if (r == NULL)
		return -1;
	n = (size_t)sb_stemmer_length(s->sb);
	if (n > SEARCH_WORD_MAX)
		n = SEARCH_WORD_MAX;
	memcpy(out, r, n);
	out[n] = '\0';
	return 0;
}

/* ---- Building ---- */

struct bpost {
	uint32_t term;              /* provisional term ID (order of first sight) */
	uint32_t doc;
	uint8_t tf[SEARCH_FIELDS];
};

struct search_builder {
	struct search_stemmer st;
	char *arena;
	size_t alen, acap;
	uint32_t *term_off;         /* per term: its stem's offset in arena */
	uint32_t *last;             /* per term: 1 + the last document it was seen in */
	uint32_t *pos;              /* per term: its posting of that document */
	uint32_t nterms, tcap;
	uint32_t *slots;            /* hash of stems: 1 + term ID, 0 empty */
	size_t nslots;
	struct bpost *p;
	size_t np, pcap;
	uint16_t *flen;
	size_t flcap;
	uint32_t ndocs;
	double lensum[SEARCH_FIELDS];
};

static uint32_t
hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int
slots_grow(struct search_builder *b)
{
	size_t n = b->nslots ? b->nslots * 2 : 4096;
	uint32_t *s = calloc(n, sizeof(*s));

	if (s == NULL)
		return -1;
	for (uint32_t t = 0; t < b->nterms; t++) {
		size_t i = hash_str(b->arena + b->term_off[t]) & (n - 1);

		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = t + 1;
	}
	free(b->slots);
	b->slots = s;
	b->nslots = n;
	return 0;
}

/* The term ID of stem, added when new; -1 when out of memory. */
static int64_t
term_id(struct search_builder *b, const char *stem)
{
	size_t len = strlen(stem), i;

	if (b->nterms * 2 >= b->nslots && slots_grow(b) < 0)
		return -1;
	for (i = hash_str(stem) & (b->nslots - 1); b->slots[i]; i = (i + 1) & (b->nslots - 1))
		if (strcmp(b->arena + b->term_off[b->slots[i] - 1], stem) == 0)
			return b->slots[i] - 1;
	if (b->alen + len + 1 > b->acap) {
		size_t cap = b->acap ? b->acap * 2 : 65536;
		char *a;

		while (cap < b->alen + len + 1)
			cap *= 2;
		if (cap > UINT32_MAX || (a = realloc(b->arena, cap)) == NULL)
			return -1;
		b->arena = a;
		b->acap = cap;
	}
	if (b->nterms == b->tcap) {
		uint32_t cap = b->tcap ? b->tcap * 2 : 4096;
		uint32_t *o = realloc(b->term_off, cap * sizeof(*o));

		if (o == NULL)
			return -1;
		b->term_off = o;
		if ((o = realloc(b->last, cap * sizeof(*o))) == NULL)
			return -1;
		b->last = o;
		if ((o = realloc(b->pos, cap * sizeof(*o))) == NULL)
			return -1;
		b->pos = o;
		b->tcap = cap;
	}
	memcpy(b->arena + b->alen, stem, len + 1);
	b->term_off[b->nterms] = (uint32_t)b->alen;
	b->last[b->nterms] = 0;
	b->alen += len + 1;
	b->slots[i] = b->nterms + 1;
	return b->nterms++;
}

struct add_ctx {
	struct search_builder *b;
	unsigned field;
	int rc;
};

static void
add_word(const char *word, void *arg)
{
	struct add_ctx *c = arg;
	struct search_builder *b = c->b;
	char stem[SEARCH_WORD_MAX + 1];
	uint16_t *len = &b->flen[(size_t)b->ndocs * SEARCH_FIELDS + c->field];
	uint8_t *tf;
	int64_t t;

	if (c->rc < 0)
		return;
	if (search_stem(&b->st, word, stem) < 0 || (t = term_id(b, stem)) < 0) {
		c->rc = -1;
		return;
	}
	if (b->last[t] != b->ndocs + 1) {
		if (b->np == b->pcap) {
			size_t cap = b->pcap ? b->pcap * 2 : 65536;
			struct bpost *p = realloc(b->p, cap * sizeof(*p));

			if (p == NULL) {
				c->rc = -1;
				return;
			}
			b->p = p;
			b->pcap = cap;
		}
		memset(&b->p[b->np], 0, sizeof(b->p[b->np]));
		b->p[b->np].term = (uint32_t)t;
		b->p[b->np].doc = b->ndocs;
		b->last[t] = b->ndocs + 1;
		b->pos[t] = (uint32_t)b->np++;
	}
	tf = &b->p[b->pos[t]].tf[c->field];
	if (*tf < UINT8_MAX)
		(*tf)++;
	if (*len < UINT16_MAX)
		(*len)++;
}

struct search_builder *
search_builder_new(void)
{
	struct search_builder *b = calloc(1, sizeof(*b));

	if (b == NULL)
		return NULL;
	if (words_ready() < 0 || search_stemmer_init(&b->st) < 0) {
		free(b);
		return NULL;
	}
	return b;
}

int
search_builder_add(struct search_builder *b, const char *const text[SEARCH_FIELDS],
    const size_t len[SEARCH_FIELDS])
{
	struct add_ctx c = { .b = b, .rc = 0 };

	if (b->ndocs == UINT32_MAX - 1)
		return -1;
	if (((size_t)b->ndocs + 1) * SEARCH_FIELDS > b->flcap) {
		size_t cap = b->flcap ? b->flcap * 2 : 4096 * SEARCH_FIELDS;
		uint16_t *f = realloc(b->flen, cap * sizeof(*f));

		if (f == NULL)
			return -1;
		b->flen = f;
		b->flcap = cap;
	}
	memset(&b->flen[(size_t)b->ndocs * SEARCH_FIELDS], 0, SEARCH_FIELDS * sizeof(*b->flen));
	for (unsigned f = 0; f < SEARCH_FIELDS; f++) {
		if (text[f] == NULL)
			continue;
		c.field = f;
		wordindex_words(text[f], len[f], add_word, &c);
		if (c.rc < 0)
			return -1;
		b->lensum[f] += b->flen[(size_t)b->ndocs * SEARCH_FIELDS + f];
	}
	b->ndocs++;
	return 0;
}

void
search_builder_free(struct search_builder *b)
{
	if (b == NULL)
		return;
	search_stemmer_release(&b->st);
	free(b->arena);
	free(b->term_off);
	free(b->last);
	free(b->pos);
	free(b->slots);
	free(b->p);
	free(b->flen);
	free(b);
}

/* Term IDs ordered by stem, for finishing (per thread). */
static _Thread_local const struct search_builder *sort_b;

static int
tid_cmp(const void *x, const void *y)
{
	const struct search_builder *b = sort_b;

	return strcmp(b->arena + b->term_off[*(const uint32_t *)x], b->arena + b->term_off[*(const uint32_t *)y]);
}

/* The field-weighted term frequency of posting pp under p, saturated: tf / (k1 + tf). */
static float
saturated(const struct search_index *ix, const struct search_params *p, const struct search_posting *pp)
{
	const uint16_t *fl = &ix->flen[(size_t)pp->doc * SEARCH_FIELDS];
	float tf = 0;

	for (unsigned f = 0; f < SEARCH_FIELDS; f++)
		if (pp->tf[f])
			tf += p->weight[f] * pp->tf[f] / (1.0f - p->b[f] + p->b[f] / ix->avglen[f] * fl[f]);
	return tf / (p->k1 + tf);
}

int
search_builder_finish(struct search_builder *b, struct search_index *ix)
{
	uint32_t *order = NULL, *rank = NULL, *fill = NULL;
	int rc = -1;

	memset(ix, 0, sizeof(*ix));
	order = malloc(((size_t)b->nterms + 1) * sizeof(*order));
	rank = malloc(((size_t)b->nterms + 1) * sizeof(*rank));
	fill = malloc(((size_t)b->nterms + 1) * sizeof(*fill));
	ix->terms = calloc((size_t)b->nterms + 1, sizeof(*ix->terms));
	ix->post = malloc((b->np + 1) * sizeof(*ix->post));
	if (order == NULL || rank == NULL || fill == NULL || ix->terms == NULL || ix->post == NULL)
		goto out;
	for (uint32_t t = 0; t < b->nterms; t++)
		order[t] = t;
	sort_b = b;
	qsort(order, b->nterms, sizeof(*order), tid_cmp);
	for (uint32_t r = 0; r < b->nterms; r++) {
		rank[order[r]] = r;
		ix->terms[r].stem = b->term_off[order[r]];
	}
	for (size_t i = 0; i < b->np; i++)
		ix->terms[rank[b->p[i].term]].df++;
	for (uint32_t r = 0, first = 0; r < b->nterms; r++) {
		ix->terms[r].first = first;
		fill[r] = first;
		first += ix->terms[r].df;
	}
	/* Stable by term: each term's postings stay in document order. */
	for (size_t i = 0; i < b->np; i++) {
		struct search_posting *p = &ix->post[fill[rank[b->p[i].term]]++];

		p->doc = b->p[i].doc;
		memcpy(p->tf, b->p[i].tf, sizeof(p->tf));
	}
	ix->nterms = b->nterms;
	ix->npost = b->np;
	ix->ndocs = b->ndocs;
	for (unsigned f = 0; f < SEARCH_FIELDS; f++)
		ix->avglen[f] = b->ndocs && b->lensum[f] > 0 ? (float)(b->lensum[f] / b->ndocs) : 1.0f;
	ix->arena = b->arena;
	ix->flen = b->flen;
	b->arena = NULL;
	b->flen = NULL;
	if (ix->arena == NULL && (ix->arena = malloc(1)) == NULL)
		goto out;
	if (ix->flen == NULL && (ix->flen = calloc(SEARCH_FIELDS, sizeof(*ix->flen))) == NULL)
		goto out;
	if ((ix->sat = malloc((ix->npost + 1) * sizeof(*ix->sat))) == NULL)
		goto out;
	{
		struct search_params p;

		search_params_default(&p);
		for (size_t i = 0; i < ix->npost; i++)
			ix->sat[i] = saturated(ix, &p, &ix->post[i]);
	}
	rc = 0;
out:
	free(order);
	free(rank);
	free(fill);
	if (rc < 0)
		search_index_release(ix);
	search_builder_free(b);
	return rc;
}

void
search_index_release(struct search_index *ix)
{
	free(ix->arena);
	free(ix->terms);
	free(ix->post);
	free(ix->flen);
	free(ix->sat);
	memset(ix, 0, sizeof(*ix));
}

const char *
search_term_text(const struct search_index *ix, uint32_t term)
{
	return ix->arena + ix->terms[term].stem;
}

/* ---- Queries ---- */

/* The index of stem among ix's terms, or -1. */
static int64_t
term_find(const struct search_index *ix, const char *stem)
{
	size_t lo = 0, hi = ix->nterms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(search_term_text(ix, (uint32_t)mid), stem);

		if (c == 0)
			return (int64_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The first term not below s. */
static size_t
term_lower(const struct search_index *ix, const char *s)
{
	size_t lo = 0, hi = ix->nterms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(search_term_text(ix, (uint32_t)mid), s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
exp_add(struct search_qterm *t, uint32_t term, float weight, enum search_how how, const char *word)
{
	for (size_t i = 0; i < t->nexp; i++)
		if (t->exp[i].term == term) {
			if (weight > t->exp[i].weight)
				t->exp[i] = (struct search_exp){ .term = term, .weight = weight, .how = how,
				    .synonym = word };
			return;
		}
	if (t->nexp < SEARCH_EXP_MAX)
		t->exp[t->nexp++] = (struct search_exp){ .term = term, .weight = weight, .how = how,
		    .synonym = word };
}

static void
add_synonyms(const struct search_index *ix, struct search_qterm *t)
{
	struct syn_entry key = { .stem = t->stem, .group = 0 };
	size_t lo = 0, hi = words.nsyn;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syn_cmp(&words.syn[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < words.nsyn && strcmp(words.syn[i].stem, t->stem) == 0; i++) {
		uint32_t g = words.syn[i].group;

		for (uint32_t j = words.group_first[g]; j < words.group_first[g + 1]; j++) {
			const struct syn_entry *e = &words.syn[words.group_stems[j]];
			int64_t id;

			if (strcmp(e->stem, t->stem) != 0 && (id = term_find(ix, e->stem)) >= 0)
				exp_add(t, (uint32_t)id, W_SYNONYM, SEARCH_SYNONYM, e->word);
		}
	}
}

/*
 * Completions of an unfinished word: the stems it starts (most documents
 * first, while slots are left), and stems it starts with that are at most
 * three bytes shorter ("forecasti" is on its way past "forecast").
 */
static void
add_prefixes(const struct search_index *ix, struct search_qterm *t, const char *word, float weight,
    bool unfinished)
{
	size_t wl = strlen(word), free_slots = SEARCH_EXP_MAX - t->nexp;
	uint32_t best[SEARCH_EXP_MAX];
	size_t nb = 0;

	if (wl < PREFIX_MIN || free_slots == 0)
		return;
	for (size_t k = wl - 1; unfinished && k >= PREFIX_MIN && k + 3 >= wl; k--) {
		char s[SEARCH_WORD_MAX + 1];
		int64_t id;

		memcpy(s, word, k);
		s[k] = '\0';
		if ((id = term_find(ix, s)) >= 0)
			exp_add(t, (uint32_t)id, weight, SEARCH_PAST, NULL);
	}
	if ((free_slots = SEARCH_EXP_MAX - t->nexp) == 0)
		return;
	for (size_t i = term_lower(ix, word); i < ix->nterms &&
	    strncmp(search_term_text(ix, (uint32_t)i), word, wl) == 0; i++) {
		size_t pos = nb;

		if (nb == free_slots && ix->terms[i].df <= ix->terms[best[nb - 1]].df)
			continue;
		if (nb < free_slots)
			nb++;
		else
			pos = nb - 1;
		while (pos > 0 && ix->terms[best[pos - 1]].df < ix->terms[i].df) {
			best[pos] = best[pos - 1];
			pos--;
		}
		best[pos] = (uint32_t)i;
	}
	for (size_t i = 0; i < nb; i++)
		exp_add(t, best[i], weight, unfinished ? SEARCH_PREFIX : SEARCH_STEM_PREFIX, NULL);
}

struct qword {
	char w[SEARCH_WORD_MAX + 1];
	bool stop;
};

struct collect_ctx {
	struct qword *w;
	size_t n;
};

static void
collect_word(const char *word, void *arg)
{
	struct collect_ctx *c = arg;

	size_t len = strnlen(word, SEARCH_WORD_MAX);

	if (c->n == QUERY_WORDS_MAX)
		return;
	memcpy(c->w[c->n].w, word, len);
	c->w[c->n].w[len] = '\0';
	c->w[c->n].stop = search_is_stopword(c->w[c->n].w);
	c->n++;
}

/* Whether byte c is part of a word (wordindex_words). */
static bool
word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

int
search_query_parse(const struct search_index *ix, struct search_stemmer *st, const char *q,
    size_t len, struct search_query *out)
{
	struct qword qw[QUERY_WORDS_MAX];
	struct collect_ctx c = { .w = qw, .n = 0 };
	bool unfinished = len > 0 && word_byte((unsigned char)q[len - 1]), any = false;
	size_t last;

	memset(out, 0, sizeof(*out));
	if (words_ready() < 0)
		return -1;
	wordindex_words(q, len, collect_word, &c);
	for (size_t i = 0; i < c.n; i++)
		any = any || !qw[i].stop;
	last = c.n ? c.n - 1 : 0;
	for (size_t i = 0; i < c.n && out->n < SEARCH_TERMS_MAX; i++) {
		struct search_qterm *t = &out->t[out->n];
		bool dup = false;
		int64_t id;

		if (any && qw[i].stop)
			continue;
		for (size_t j = 0; j < out->n; j++)
			dup = dup || strcmp(out->t[j].word, qw[i].w) == 0;
		if (dup)
			continue;
		memcpy(t->word, qw[i].w, sizeof(t->word));
		if (search_stem(st, t->word, t->stem) < 0)
			return -1;
		if ((id = term_find(ix, t->stem)) >= 0)
			exp_add(t, (uint32_t)id, 1.0f, SEARCH_WORD, NULL);
		add_synonyms(ix, t);
		if (i == last && unfinished && any)
			add_prefixes(ix, t, t->word, W_PREFIX, true);
		else if (any && strlen(t->stem) >= STEM_PREFIX_MIN)
			add_prefixes(ix, t, t->stem, W_STEM_PREFIX, false);
		out->n++;
	}
	return 0;
}

/* ---- Scoring ---- */

void
search_params_default(struct search_params *p)
{
	/*
	 * Fields as discovery indexes them (handlers/corpus.h): title, summary,
	 * context, URL, and a listing's tags and Bazaar field words.
	 */
	static const float w[SEARCH_FIELDS] = { 3.0f, 2.0f, 2.0f, 1.0f, 1.5f };
	static const float b[SEARCH_FIELDS] = { 0.5f, 0.75f, 0.75f, 0.5f, 0.5f };

	memcpy(p->weight, w, sizeof(w));
	memcpy(p->b, b, sizeof(b));
	p->k1 = 1.2f;
}

int
search_scratch_init(struct search_scratch *s, uint32_t ndocs)
{
	size_t n = (size_t)ndocs + 1;

	memset(s, 0, sizeof(*s));
	s->ndocs = ndocs;
	s->score = malloc(n * sizeof(*s->score));
	s->best = malloc(n * sizeof(*s->best));
	s->seen = calloc(n, sizeof(*s->seen));
	s->tseen = calloc(n, sizeof(*s->tseen));
	s->touched = malloc(n * sizeof(*s->touched));
	s->tdocs = malloc(n * sizeof(*s->tdocs));
	if (s->score == NULL || s->best == NULL || s->seen == NULL || s->tseen == NULL ||
	    s->touched == NULL || s->tdocs == NULL) {
		search_scratch_release(s);
		return -1;
	}
	return 0;
}

void
search_scratch_release(struct search_scratch *s)
{
	free(s->score);
	free(s->best);
	free(s->seen);
	free(s->tseen);
	free(s->touched);
	free(s->tdocs);
	memset(s, 0, sizeof(*s));
}

/*
 * Make room for n more stamps: when they would not fit before the stamps
 * wrap, start over (arrays cleared). A run reserves all of its stamps at
 * once, so it never starts over in the middle.
 */
static void
stamps_reserve(struct search_scratch *s, size_t n)
{
	if (s->gen > UINT32_MAX - 1 - n) {
		memset(s->seen, 0, ((size_t)s->ndocs + 1) * sizeof(*s->seen));
		memset(s->tseen, 0, ((size_t)s->ndocs + 1) * sizeof(*s->tseen));
		s->gen = 0;
	}
}

uint32_t
search_run(const struct search_index *ix, const struct search_params *p,
    const struct search_query *q, struct search_scratch *s)
{
	float norm[SEARCH_FIELDS];
	struct search_params def;
	uint32_t run;
	bool fast;

	s->ntouched = 0;
	if (ix->ndocs == 0 || s->ndocs < ix->ndocs)
		return 0;
	/* The default parameters read the saturations computed at build. */
	search_params_default(&def);
	fast = ix->sat && memcmp(&def, p, sizeof(def)) == 0;
	for (unsigned f = 0; f < SEARCH_FIELDS; f++)
		norm[f] = p->b[f] / ix->avglen[f];
	stamps_reserve(s, q->n + 1);
	run = ++s->gen;
	for (size_t i = 0; i < q->n; i++) {
		const struct search_qterm *t = &q->t[i];
		uint32_t ts = ++s->gen, ntd = 0;

		for (size_t e = 0; e < t->nexp; e++) {
			const struct search_term *term = &ix->terms[t->exp[e].term];
			const struct search_posting *pp = &ix->post[term->first];
			float idf = logf(1.0f + ((float)ix->ndocs - (float)term->df + 0.5f) /
			    ((float)term->df + 0.5f)), w = t->exp[e].weight * idf;

			const float *sat = fast ? &ix->sat[term->first] : NULL;

			for (uint32_t j = 0; j < term->df; j++) {
				uint32_t d = pp[j].doc;
				float v;

				if (sat) {
					v = w * sat[j];
				} else {
					const uint16_t *fl = &ix->flen[(size_t)d * SEARCH_FIELDS];
					float tf = 0;

					for (unsigned f = 0; f < SEARCH_FIELDS; f++)
						if (pp[j].tf[f])
							tf += p->weight[f] * pp[j].tf[f] /
							    (1.0f - p->b[f] + norm[f] * fl[f]);
					v = w * tf / (p->k1 + tf);
				}
				if (s->tseen[d] != ts) {
					s->tseen[d] = ts;
					s->best[d] = v;
					s->tdocs[ntd++] = d;
				} else if (v > s->best[d]) {
					s->best[d] = v;
				}
			}
		}
		for (uint32_t j = 0; j < ntd; j++) {
			uint32_t d = s->tdocs[j];

			if (s->seen[d] != run) {
				s->seen[d] = run;
				s->score[d] = 0;
				s->touched[s->ntouched++] = d;
			}
			s->score[d] += s->best[d];
		}
	}
	return s->ntouched;
}

/* Document doc's posting of term, or NULL. */
static const struct search_posting *
posting_of(const struct search_index *ix, uint32_t term, uint32_t doc)
{
	const struct search_posting *p = &ix->post[ix->terms[term].first];
	size_t lo = 0, hi = ix->terms[term].df;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p[mid].doc == doc)
			return &p[mid];
		if (p[mid].doc < doc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void
search_explain(const struct search_index *ix, const struct search_query *q, size_t t,
    uint32_t doc, int how[SEARCH_FIELDS])
{
	const struct search_qterm *qt = &q->t[t];

	for (unsigned f = 0; f < SEARCH_FIELDS; f++)
		how[f] = -1;
	for (size_t e = 0; e < qt->nexp; e++) {
		const struct search_posting *p = posting_of(ix, qt->exp[e].term, doc);

		for (unsigned f = 0; p && f < SEARCH_FIELDS; f++)
			if (p->tf[f] && (how[f] < 0 || qt->exp[e].weight > qt->exp[how[f]].weight))
				how[f] = (int)e;
	}
}
