/*
 * sqlfmt.h: formatting an SQL statement (or a piece of one) into a fixed
 * buffer, where a statement cut short by the buffer's size must never run.
 *
 * Return conventions: an action, 0, or -1 when the result did not fit (or
 * the format failed); out then holds "" rather than a truncated
 * statement. The result must be checked.
 */
#ifndef WAYMARK_SQLFMT_H
#define WAYMARK_SQLFMT_H

#include <stddef.h>

/* snprintf(out, cap, fmt, ...) that fails instead of truncating. */
__attribute__((format(printf, 3, 4), warn_unused_result))
int sql_format(char *out, size_t cap, const char *fmt, ...);

#endif
