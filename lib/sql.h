/*
 * sql.h: the one way to build an SQL statement (docs/ARCHITECTURE.md,
 * Code conventions: the SQL door).
 *
 * The text of a statement comes only from string literals; every value
 * goes in through a typed placeholder. sql_add() appends one literal
 * piece whose every '?' is replaced by the next typed value:
 *
 *	char b[256];
 *	struct sql q = SQL_ON(b);
 *
 *	sql_add(&q, "SELECT id FROM routes WHERE url = ? AND chain = ?",
 *	    SQL_TEXT(url), SQL_U64(chain));
 *	if (want_live)
 *		sql_add(&q, " AND live = ?", SQL_BOOL(true));
 *	rc = db_query(d, &q, &res);
 *
 * The statement lives in a buffer the caller owns (SQL_ON over an array,
 * or sql_on over a buffer of its own): nothing to release.
 *
 * Values: SQL_TEXT(s) NUL-terminated text, escaped and quoted;
 * SQL_TEXTN(p, n) n bytes of text; SQL_BYTES(p, n) a hex literal X'..'
 * ('' for no bytes); for these three a NULL pointer is SQL NULL; SQL_U64, SQL_I64; SQL_BOOL (TRUE
 * or FALSE); SQL_DEC(s) a decimal string [-]digits[.digits], checked and
 * written unquoted; SQL_NULL; SQL_HEX(s) bytes given as hex digits (an
 * even count, no "0x"; checked), written X'..' like SQL_BYTES, for the
 * many keys the code carries as hex text.
 *
 * LIKE patterns: SQL_LIKE_PREFIX(s, n) and SQL_LIKE_CONTAINS(s, n) write
 * the pattern that matches text starting with, or containing, the n bytes
 * of s taken literally: its \, % and _ escaped for LIKE (whose escape
 * character is the backslash, as db_connect's sql_mode leaves it), '%'
 * after it (and before it, for CONTAINS), quoted like SQL_TEXT. So
 * "50%_off" contains-matches only that text: '%50\\%\\_off%'.
 *
 * Errors: a statement that would not fit its buffer, a piece whose count
 * of '?' differs from its count of values, or an invalid value (a decimal
 * that is not one) marks the statement bad and leaves its text as it was
 * before that piece; bad is sticky. sql_add returns 0 or -1, and a caller
 * may ignore it: db_* refuse to run a bad statement (DB_ERROR, logged), so
 * a statement cut short or half-built never reaches the server.
 *
 * Quoting: text is escaped for a connection with the utf8mb4 character
 * set and an sql_mode without NO_BACKSLASH_ESCAPES, which db_connect sets
 * on every connection (in utf8mb4 no byte of a multi-byte character is
 * below 0x80, so escaping byte by byte is exact). Escaped: backslash, both
 * quotes, NUL, \n, \r and \x1a. A template may not hold a '?' of its own:
 * every '?' is a placeholder (pass a literal question mark as a value).
 */
#ifndef WAYMARK_SQL_H
#define WAYMARK_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sql {
	char *p;          /* NUL-terminated statement (once anything was added) */
	size_t len, cap;  /* cap counts the terminating NUL */
	bool bad;         /* sticky: never run this statement */
};

enum sqlv_kind {
	SQLV_END = 0,     /* internal: the array's leading filler, never a value */
	SQLV_TEXT,
	SQLV_BYTES,
	SQLV_U64,
	SQLV_I64,
	SQLV_BOOL,
	SQLV_DEC,
	SQLV_NULL,
	SQLV_HEX,
	SQLV_LIKE,
};

/* SQLV_LIKE: where a LIKE pattern puts its '%' wildcards. */
enum sql_like {
	SQL_LIKE_TRAILING = 1,   /* text starting with the value */
	SQL_LIKE_LEADING = 2,    /* ...ending with it; both: containing it */
};

struct sqlv {
	enum sqlv_kind k;
	const void *p;    /* TEXT, BYTES, DEC */
	size_t n;         /* TEXT, BYTES, DEC */
	uint64_t u;       /* U64, BOOL; LIKE: enum sql_like bits */
	int64_t i;        /* I64 */
};

/* A statement over a caller's char array (a pointer does not compile). */
#define SQL_ON(a)                                                                   \
	{ .p = (a), .len = 0, .bad = false,                                             \
	  .cap = sizeof(a) + 0 * sizeof(char[1 - 2 * __builtin_types_compatible_p(       \
	      __typeof__(a), char *)]) }

/* A statement over buf[cap], a buffer the caller owns. */
void sql_on(struct sql *q, char *buf, size_t cap);

/* Forget the text, keep the buffer (and clear bad). */
void sql_reset(struct sql *q);

/* The statement text, for logs ("" while nothing was added). */
const char *sql_str(const struct sql *q);

/* The typed values (functions, so the compiler checks each type). */
static inline struct sqlv
sqlv_text(const char *s)
{
	return (struct sqlv){ .k = s ? SQLV_TEXT : SQLV_NULL, .p = s, .n = s ? __builtin_strlen(s) : 0 };
}

static inline struct sqlv
sqlv_textn(const char *s, size_t n)
{
	return (struct sqlv){ .k = s ? SQLV_TEXT : SQLV_NULL, .p = s, .n = s ? n : 0 };
}

static inline struct sqlv
sqlv_bytes(const void *p, size_t n)
{
	return (struct sqlv){ .k = p ? SQLV_BYTES : SQLV_NULL, .p = p, .n = p ? n : 0 };
}

static inline struct sqlv
sqlv_u64(uint64_t v)
{
	return (struct sqlv){ .k = SQLV_U64, .u = v };
}

static inline struct sqlv
sqlv_i64(int64_t v)
{
	return (struct sqlv){ .k = SQLV_I64, .i = v };
}

static inline struct sqlv
sqlv_bool(bool v)
{
	return (struct sqlv){ .k = SQLV_BOOL, .u = v ? 1 : 0 };
}

static inline struct sqlv
sqlv_dec(const char *s)
{
	return (struct sqlv){ .k = SQLV_DEC, .p = s, .n = s ? __builtin_strlen(s) : 0 };
}

static inline struct sqlv
sqlv_hex(const char *s)
{
	return (struct sqlv){ .k = SQLV_HEX, .p = s, .n = s ? __builtin_strlen(s) : 0 };
}

static inline struct sqlv
sqlv_like(const char *s, size_t n, unsigned int wild)
{
	return (struct sqlv){ .k = s ? SQLV_LIKE : SQLV_NULL, .p = s, .n = s ? n : 0, .u = wild };
}

#define SQL_TEXT(s) sqlv_text(s)
#define SQL_TEXTN(s, n) sqlv_textn((s), (n))
#define SQL_BYTES(p, n) sqlv_bytes((p), (n))
#define SQL_U64(v) sqlv_u64(v)
#define SQL_I64(v) sqlv_i64(v)
#define SQL_BOOL(v) sqlv_bool(v)
#define SQL_DEC(s) sqlv_dec(s)
#define SQL_NULL ((struct sqlv){ .k = SQLV_NULL })
#define SQL_HEX(s) sqlv_hex(s)
#define SQL_LIKE_PREFIX(s, n) sqlv_like((s), (n), SQL_LIKE_TRAILING)
#define SQL_LIKE_CONTAINS(s, n) sqlv_like((s), (n), SQL_LIKE_LEADING | SQL_LIKE_TRAILING)

/*
 * Append tmpl (a string literal: "" tmpl refuses anything else) with its
 * '?' replaced by the values in order. 0, or -1 (and q->bad) on overflow,
 * a count mismatch, a bad value, or when q was already bad.
 */
#define sql_add(q, tmpl, ...)                                                       \
	sql_add_((q), "" tmpl, (const struct sqlv[]){ { .k = SQLV_END }, ##__VA_ARGS__ } + 1, \
	    sizeof((const struct sqlv[]){ { .k = SQLV_END }, ##__VA_ARGS__ }) /            \
	    sizeof(struct sqlv) - 1)

int sql_add_(struct sql *q, const char *tmpl, const struct sqlv *v, size_t n);

#endif
