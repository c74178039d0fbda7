#include <stdlib.h>
#include <string.h>

#include "wordindex.h"
#include "banned.h"

#define WORD_MAX 64

void
wordindex_init(struct wordindex *w)
{
	memset(w, 0, sizeof(*w));
}

void
wordindex_release(struct wordindex *w)
{
	free(w->words);
	free(w->p);
	free(w->vocab);
	wordindex_init(w);
}

static int
is_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/*
 * The length of w[0..k) without a UTF-8 sequence cut off at its end (a word
 * is cut at WORD_MAX bytes, which may fall inside a character).
 */
static size_t
utf8_whole(const char *w, size_t k)
{
	size_t p = k, need;
	unsigned char c;

	while (p > 0 && ((unsigned char)w[p - 1] & 0xC0) == 0x80)
		p--;
	if (p == 0)
		return k;   /* no lead byte at all: left to the caller's UTF-8 checks */
	c = (unsigned char)w[p - 1];
	need = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
	return p - 1 + need <= k ? k : p - 1;
}

void
wordindex_words(const char *text, size_t len, void (*fn)(const char *word, void *arg), void *arg)
{
	char word[WORD_MAX + 1];

	for (size_t i = 0; i < len;) {
		size_t k = 0;

		while (i < len && !is_word_byte((unsigned char)text[i]))
			i++;
		while (i < len && is_word_byte((unsigned char)text[i])) {
			unsigned char c = (unsigned char)text[i++];

			if (k < WORD_MAX)
				word[k++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
		}
		k = utf8_whole(word, k);
		if (k > 0) {
			word[k] = '\0';
			fn(word, arg);
		}
	}
}

struct add_ctx {
	struct wordindex *w;
	uint32_t doc;
	unsigned field;
	int rc;
};

static void
add_word(const char *word, void *arg)
{
	struct add_ctx *a = arg;
	struct wordindex *w = a->w;
	size_t len = strlen(word) + 1;

	if (a->rc < 0)
		return;
	if (w->words_len + len > w->words_cap) {
		size_t ncap = w->words_cap ? w->words_cap * 2 : 65536;
		char *nw;

		while (ncap < w->words_len + len)
			ncap *= 2;
		if (ncap > UINT32_MAX || (nw = realloc(w->words, ncap)) == NULL) {
			a->rc = -1;
			return;
		}
		w->words = nw;
		w->words_cap = ncap;
	}
	if (w->n == w->cap) {
		size_t ncap = w->cap ? w->cap * 2 : 4096;
		struct wi_posting *np = realloc(w->p, ncap * sizeof(*np));

		if (np == NULL) {
			a->rc = -1;
			return;
		}
		w->p = np;
		w->cap = ncap;
	}
	memcpy(w->words + w->words_len, word, len);
	w->p[w->n++] = (struct wi_posting){ .word = (uint32_t)w->words_len, .doc = a->doc,
	    .fields = (uint8_t)(1u << a->field) };
	w->words_len += len;
}

int
wordindex_add(struct wordindex *w, uint32_t doc, unsigned field, const char *text, size_t len)
{
	struct add_ctx a = { .w = w, .doc = doc, .field = field & 7, .rc = 0 };

	wordindex_words(text, len, add_word, &a);
	return a.rc;
}

/* qsort has no context argument: the arena is set for the duration of the
 * sort, per thread (two threads may build indexes at once). */
static _Thread_local const char *sort_words;

static int
posting_cmp(const void *x, const void *y)
{
	const struct wi_posting *a = x, *b = y;
	int c = strcmp(sort_words + a->word, sort_words + b->word);

	if (c)
		return c;
	return (a->doc > b->doc) - (a->doc < b->doc);
}

int
wordindex_build(struct wordindex *w)
{
	size_t m = 0;

	if (w->n == 0)
		return 0;
	sort_words = w->words;
	qsort(w->p, w->n, sizeof(*w->p), posting_cmp);
	sort_words = NULL;
	/* One posting per (word, document), fields merged; equal words share text. */
	for (size_t i = 0; i < w->n; i++) {
		if (m > 0 && w->p[m - 1].doc == w->p[i].doc &&
		    strcmp(w->words + w->p[m - 1].word, w->words + w->p[i].word) == 0) {
			w->p[m - 1].fields |= w->p[i].fields;
			continue;
		}
		w->p[m++] = w->p[i];
	}
	w->n = m;
	/* The vocabulary: each distinct word once, with its posting range. */
	w->vocab = calloc(m, sizeof(*w->vocab));
	if (w->vocab == NULL)
		return -1;
	for (size_t i = 0; i < m; i++) {
		struct wi_word *v = w->nvocab ? &w->vocab[w->nvocab - 1] : NULL;

		if (v && strcmp(w->words + v->word, w->words + w->p[i].word) == 0) {
			v->count++;
			continue;
		}
		w->vocab[w->nvocab++] = (struct wi_word){ .word = w->p[i].word, .first = (uint32_t)i,
		    .count = 1 };
	}
	return 0;
}

void
wordindex_prefix(const struct wordindex *w, const char *prefix,
    void (*fn)(uint32_t doc, unsigned fields, void *arg), void *arg)
{
	size_t lo = 0, hi = w->nvocab, plen = strlen(prefix);

	if (plen == 0)
		return;
	/* First word >= prefix; then every word starting with it, once each. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(w->words + w->vocab[mid].word, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < w->nvocab && strncmp(w->words + w->vocab[i].word, prefix, plen) == 0; i++)
		for (uint32_t k = w->vocab[i].first; k < w->vocab[i].first + w->vocab[i].count; k++)
			fn(w->p[k].doc, w->p[k].fields, arg);
}
