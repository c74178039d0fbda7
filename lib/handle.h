/*
 * handle.h: Boon recognition handles (github:<user>, x:<user>, agent:<id>)
 * and their canonical form, whose keccak256 is the escrow key on chain.
 *
 * The rules are those of Boon's packages/normalize (canonicalizeHandle) and
 * its cross-language fixture t/vectors/handles.json:
 *  - the whole input is trimmed of whitespace as JavaScript's
 *    String.prototype.trim does (ASCII \t \n \v \f \r and space, plus the
 *    Unicode spaces U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F,
 *    U+205F, U+3000 and U+FEFF, given as UTF-8);
 *  - the scheme before the first ':' is github, x or agent in any case;
 *  - github: the user name is trimmed again, must match
 *    ^[a-zA-Z0-9](?:-?[a-zA-Z0-9])*$ and be at most 39 characters;
 *  - x: the user name is trimmed again, one leading '@' is dropped, then it
 *    must match ^[A-Za-z0-9_]+$ and be at most 15 characters;
 *  - agent: the input must have no surrounding whitespace at all (Boon
 *    compares the untrimmed input with the trimmed one), and the id must
 *    match ^[1-9][0-9]*$ and be at most 2^256 - 1;
 *  - the canonical form is the lowercase scheme, ':', and the lowercased
 *    name (or the id as given).
 *
 * Return conventions: handle_parse returns enum handle_err (the reasons
 * are shown to clients); the others cannot fail. Nothing allocates: the
 * canonical text lives in the caller's struct handle.
 */
#ifndef WAYMARK_HANDLE_H
#define WAYMARK_HANDLE_H

#include <stddef.h>
#include <stdint.h>

/* Longest canonical handle: "agent:" + the 78 digits of 2^256 - 1. */
#define HANDLE_MAX_LEN 84
#define HANDLE_GITHUB_MAX 39
#define HANDLE_X_MAX 15

enum handle_kind {
	HANDLE_GITHUB,
	HANDLE_X,
	HANDLE_AGENT,
	HANDLE_KIND__MAX
};

enum handle_err {
	HANDLE_OK = 0,
	HANDLE_EMPTY,          /* nothing but whitespace */
	HANDLE_NO_SCHEME,      /* no ':' */
	HANDLE_BAD_SCHEME,     /* scheme not github, x or agent */
	HANDLE_EMPTY_NAME,     /* nothing after the scheme */
	HANDLE_TOO_LONG,       /* github name > 39 or x name > 15 */
	HANDLE_BAD_GITHUB,     /* github name breaks the grammar */
	HANDLE_BAD_X,          /* x name breaks the grammar */
	HANDLE_AGENT_SPACE,    /* whitespace in or around an agent handle */
	HANDLE_BAD_AGENT,      /* agent id not ^[1-9][0-9]*$ */
	HANDLE_AGENT_RANGE,    /* agent id above 2^256 - 1 */
	HANDLE_ERR__MAX
};

struct handle {
	enum handle_kind kind;
	size_t len;                      /* strlen(text) */
	char text[HANDLE_MAX_LEN + 1];   /* canonical form, NUL-terminated */
};

/*
 * Canonicalize s[0..slen) (UTF-8, no NUL needed) into *out. HANDLE_OK or
 * the first rule broken; *out is unspecified on failure.
 */
enum handle_err handle_parse(const char *s, size_t slen, struct handle *out);

/* keccak256 of the canonical text (Boon's handleHash) into out. */
void handle_hash(const struct handle *h, uint8_t out[32]);

/* The part after "scheme:" (user name or agent id); points into h->text. */
const char *handle_name(const struct handle *h);

/* "github", "x" or "agent" (static string; "?" when out of range). */
const char *handle_kind_name(enum handle_kind k);

/* One English sentence for an error code (static string, never NULL). */
const char *handle_strerror(enum handle_err e);

#endif
