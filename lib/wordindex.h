/*
 * wordindex.h: an in-memory inverted index of words, for prefix lookups.
 *
 * Documents (0..n-1) contribute text in up to 8 fields; text is split into
 * words (runs of ASCII letters and digits and of non-ASCII UTF-8 bytes),
 * lowercased (ASCII). After wordindex_build, wordindex_prefix visits every
 * (document, field mask) whose words start with a given lowercase prefix.
 *
 * Lifecycle: wordindex_init, wordindex_add any number of times,
 * wordindex_build once, lookups, wordindex_release. Actions return 0 or
 * -1 (out of memory). Not thread-safe; one per worker.
 */
#ifndef WAYMARK_WORDINDEX_H
#define WAYMARK_WORDINDEX_H

#include <stddef.h>
#include <stdint.h>

struct wi_posting {
	uint32_t word;     /* offset of the word in the word arena */
	uint32_t doc;
	uint8_t fields;    /* bit per field the word occurs in */
};

/* One distinct word and the range of its postings (after build). */
struct wi_word {
	uint32_t word;     /* offset in the word arena */
	uint32_t first;    /* index of its first posting */
	uint32_t count;
};

struct wordindex {
	char *words;           /* arena of NUL-terminated lowercase words */
	size_t words_len, words_cap;
	struct wi_posting *p;
	size_t n, cap;
	struct wi_word *vocab; /* sorted distinct words */
	size_t nvocab;
};

void wordindex_init(struct wordindex *w);

/* Add the words of text (len bytes) of field (0..7) of document doc. */
int wordindex_add(struct wordindex *w, uint32_t doc, unsigned field, const char *text, size_t len);

/* Sort and merge the postings; call once after the last add. */
int wordindex_build(struct wordindex *w);

/*
 * Call fn(doc, fields, arg) for each document with a word starting with
 * prefix (lowercase, no separators). A document may be reported more than
 * once (one call per matching word); fields are OR-able.
 */
void wordindex_prefix(const struct wordindex *w, const char *prefix,
    void (*fn)(uint32_t doc, unsigned fields, void *arg), void *arg);

/* Split text into lowercase words as the index does: calls fn for each. */
void wordindex_words(const char *text, size_t len, void (*fn)(const char *word, void *arg), void *arg);

void wordindex_release(struct wordindex *w);

#endif
