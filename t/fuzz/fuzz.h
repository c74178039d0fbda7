/*
 * fuzz.h: what every libFuzzer target in t/fuzz/ shares. A target defines
 * LLVMFuzzerTestOneInput and checks its invariants with CHECK, which
 * aborts (a crash libFuzzer reports with the input) when one fails. The
 * targets are listed, built and run by the Makefile's fuzz section
 * (docs/ARCHITECTURE.md, Fuzzing).
 */
#ifndef WAYMARK_FUZZ_H
#define WAYMARK_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define CHECK(cond) \
	do { \
		if (!(cond)) \
			abort(); \
	} while (0)

/*
 * Once per target, before any input: the signature context, as every
 * program creates it at start (lib/sig.h), so recovery is exercised.
 * Each target is one .c file, so this definition is made once.
 */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	CHECK(sig_init() == 0);
	return 0;
}

/* A NUL-terminated copy of data[0..size) (caller frees); aborts when out of memory. */
static inline char *
fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	CHECK(s != NULL);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Split data at the first occurrence of the byte sep: *a gets the part
 * before, *b the rest (empty when sep is absent). Lets one input carry
 * two fields, as the seed files do.
 */
static inline void
fuzz_split(const uint8_t *data, size_t size, uint8_t sep, const uint8_t **a, size_t *alen,
    const uint8_t **b, size_t *blen)
{
	const uint8_t *p = size ? memchr(data, sep, size) : NULL;

	*a = data;
	*alen = p ? (size_t)(p - data) : size;
	*b = p ? p + 1 : data + size;
	*blen = p ? size - *alen - 1 : 0;
}

/* True when s[0..n) is NUL-free, well-formed UTF-8 (no surrogates, no overlongs). */
static inline bool
fuzz_utf8_ok(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned c = p[i], need;
		uint32_t cp;

		if (c == 0)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		if (n - i <= need)
			return false;
		for (unsigned k = 1; k <= need; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if ((need == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (need == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		i += need + 1;
	}
	return true;
}

/* True when s[0..cap) holds a NUL and what precedes it is valid UTF-8. */
static inline bool
fuzz_cstr_ok(const char *s, size_t cap)
{
	const char *z = memchr(s, '\0', cap);

	return z != NULL && fuzz_utf8_ok(s, (size_t)(z - s));
}

/*
 * Split data[0..size) at NUL bytes into n NUL-terminated parts (copies in
 * one allocation the caller frees); the last part takes the rest, NULs
 * included, and missing parts are "". lens[i] gets each part's length.
 */
static inline char *
fuzz_split_n(const uint8_t *data, size_t size, size_t n, char **parts, size_t *lens)
{
	char *copy = fuzz_strdup(data, size), *p = copy;

	for (size_t i = 0; i < n; i++) {
		size_t left = size - (size_t)(p - copy);
		char *z = i + 1 < n ? memchr(p, '\0', left) : NULL;

		parts[i] = p;
		lens[i] = z ? (size_t)(z - p) : left;
		if (z == NULL) {
			for (size_t k = i + 1; k < n; k++) {
				parts[k] = copy + size;
				lens[k] = 0;
			}
			break;
		}
		p = z + 1;
	}
	return copy;
}

#endif
