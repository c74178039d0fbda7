/*
 * search.h: the discovery search engine (docs/ARCHITECTURE.md, Discovery
 * ranking): text analysis and a field-weighted BM25 (BM25F) index over
 * documents of up to SEARCH_FIELDS text fields.
 *
 * Analysis. Text is split into words as wordindex_words does (runs of
 * ASCII letters and digits and of non-ASCII UTF-8 bytes, ASCII
 * lowercased) and each word is reduced to its English Snowball stem
 * (libstemmer). Every word is indexed, stop words included; a query drops
 * its stop words (lib/search_words.def) unless it has nothing else. A
 * query term is matched by its stem, by the stems of its synonyms
 * (lib/search_words.def, groups of interchangeable words) at a lower
 * weight, by the longer stems its stem starts (four letters or more),
 * and, when it is the last word of a query that does not end in a
 * separator, as the start of indexed stems (type-ahead). Each match says
 * how it matched (struct search_exp), so an answer can say so.
 *
 * Ranking. A document's score is the sum over query terms of the best of
 * the term's expansions, each idf(stem) * tf' / (k1 + tf'), where tf' sums
 * the stem's occurrences over the fields, each field weighted and
 * normalised by its length against the field's average (search.c).
 *
 * Lifecycle: search_stemmer_init / _release (one per thread at a time;
 * libstemmer's stemmers are not shared); search_builder_init, then
 * search_builder_add for documents 0, 1, 2 ... in order, then
 * search_builder_finish, which hands the index over (the builder is then
 * released); search_index_release frees it. An index is immutable once
 * built: any number of threads may read it at once. A query's scratch
 * (struct search_scratch) belongs to one query at a time.
 *
 * Return conventions: actions 0, or -1 when out of memory.
 */
#ifndef WAYMARK_SEARCH_H
#define WAYMARK_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEARCH_FIELDS 5         /* text fields of a document */
#define SEARCH_TERMS_MAX 8      /* query terms kept (the first ones) */
#define SEARCH_WORD_MAX 64      /* bytes of a word; longer words are cut */
#define SEARCH_EXP_MAX 24       /* expansions of one query term */

/* English stemming (libstemmer). */
struct search_stemmer {
	struct sb_stemmer *sb;
};

int search_stemmer_init(struct search_stemmer *s);
void search_stemmer_release(struct search_stemmer *s);

/*
 * The stem of word (lowercase, at most SEARCH_WORD_MAX bytes) into
 * out[SEARCH_WORD_MAX + 1]. -1 when out of memory (out is then "").
 */
int search_stem(struct search_stemmer *s, const char *word, char out[SEARCH_WORD_MAX + 1]);

/* Whether word (lowercase) is one of the stop words. */
bool search_is_stopword(const char *word);

/* A posting: one document's occurrences of one stem, per field (saturating at 255). */
struct search_posting {
	uint32_t doc;
	uint8_t tf[SEARCH_FIELDS];
};

/* One distinct stem and its postings (sorted by document). */
struct search_term {
	uint32_t stem;              /* offset of the NUL-terminated stem in the arena */
	uint32_t first;             /* index of its first posting */
	uint32_t df;                /* postings (documents) */
};

struct search_index {
	uint32_t ndocs;
	char *arena;                /* the stems */
	struct search_term *terms;  /* sorted by stem (strcmp) */
	uint32_t nterms;
	struct search_posting *post;
	size_t npost;
	uint16_t *flen;             /* words per document and field: [doc * SEARCH_FIELDS + f] */
	float avglen[SEARCH_FIELDS];
	/*
	 * Per posting, its saturated field-weighted term frequency under the
	 * default parameters (search_params_default), tf / (k1 + tf): what
	 * search_run multiplies by the term's weight, so a query with those
	 * parameters reads one float per posting.
	 */
	float *sat;
};

/* The field weights and length normalisations an index scores with. */
struct search_params {
	float weight[SEARCH_FIELDS];
	float b[SEARCH_FIELDS];
	float k1;
};

struct search_builder;

/* A builder (NULL when out of memory); search_builder_finish or _free ends it. */
struct search_builder *search_builder_new(void);

/*
 * Add the next document (numbered from 0 in call order): text[f] of
 * len[f] bytes for each field (NULL for none). After a failure the
 * builder may only be freed.
 */
int search_builder_add(struct search_builder *b, const char *const text[SEARCH_FIELDS],
    const size_t len[SEARCH_FIELDS]);

/* Build the index into *ix and free b (also on failure, when *ix is left empty). */
int search_builder_finish(struct search_builder *b, struct search_index *ix);

void search_builder_free(struct search_builder *b);

void search_index_release(struct search_index *ix);

/* How an expansion of a query term matches. */
enum search_how {
	SEARCH_WORD,                /* the term's own stem */
	SEARCH_SYNONYM,             /* the stem of a synonym of the term */
	SEARCH_PREFIX,              /* a stem the unfinished last word starts */
	SEARCH_PAST,                /* a stem the unfinished last word runs past ("forecasti") */
	SEARCH_STEM_PREFIX,         /* a longer stem the term's stem starts */
	SEARCH_HOW__MAX
};

struct search_exp {
	uint32_t term;              /* index into ix->terms */
	float weight;
	enum search_how how;
	const char *synonym;        /* SEARCH_SYNONYM: the synonym as the word list has it (static) */
};

struct search_qterm {
	char word[SEARCH_WORD_MAX + 1];    /* as typed, lowercased */
	char stem[SEARCH_WORD_MAX + 1];
	size_t nexp;
	struct search_exp exp[SEARCH_EXP_MAX];
};

struct search_query {
	size_t n;
	struct search_qterm t[SEARCH_TERMS_MAX];
};

/*
 * Parse q (len bytes) against ix into *out: its words, stop words dropped
 * unless nothing else is left, the first SEARCH_TERMS_MAX distinct ones,
 * each with its expansions among ix's stems (a term may have none).
 */
int search_query_parse(const struct search_index *ix, struct search_stemmer *st, const char *q,
    size_t len, struct search_query *out);

/*
 * Per-query scratch sized for an index of ndocs documents. score and the
 * touched list are the result of search_run; everything else is its own.
 */
struct search_scratch {
	uint32_t ndocs;
	float *score;               /* per document, valid for the touched ones */
	float *best;                /* per document: the current term's best expansion */
	uint32_t *seen;             /* per document: the run that touched it */
	uint32_t *tseen;            /* per document: the run and term that touched it */
	uint32_t *touched;          /* documents with a score, in the order found */
	uint32_t ntouched;
	uint32_t *tdocs;            /* the current term's documents */
	uint32_t gen;               /* run and term stamp */
};

int search_scratch_init(struct search_scratch *s, uint32_t ndocs);
void search_scratch_release(struct search_scratch *s);

/* The default parameters of discovery (search.c). */
void search_params_default(struct search_params *p);

/*
 * Score every document that matches a term of q: s->touched[0..ntouched)
 * and s->score[doc]. Returns s->ntouched.
 */
uint32_t search_run(const struct search_index *ix, const struct search_params *p,
    const struct search_query *q, struct search_scratch *s);

/*
 * What of term t of q matched document doc: for each field, the index of
 * the expansion with the highest weight that occurs in that field, or -1.
 */
void search_explain(const struct search_index *ix, const struct search_query *q, size_t t,
    uint32_t doc, int how[SEARCH_FIELDS]);

/* The stem of ix->terms[term]. */
const char *search_term_text(const struct search_index *ix, uint32_t term);

#endif
