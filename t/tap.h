/*
 * tap.h: a tiny TAP producer for the C unit tests in t/unit.
 *
 * Use done_testing() at the end of main (no plan up front), or plan(n).
 * ok() returns its condition so a test can stop early when later checks
 * depend on it. The exit status is 1 when any test failed.
 */
#ifndef WAYMARK_TAP_H
#define WAYMARK_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline void
plan(int n)
{
	printf("1..%d\n", n);
}

__attribute__((format(printf, 2, 3))) static inline int
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

/* String equality with a diagnostic showing both sides on failure. */
#define is_str(got, want, ...) \
	tap_is_str((got), (want), __VA_ARGS__)

__attribute__((format(printf, 3, 4))) static inline int
tap_is_str(const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;
	int cond = got != NULL && want != NULL && strcmp(got, want) == 0;

	tap_n++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)", want ? want : "(null)");
	}
	fflush(stdout);
	return cond;
}

static inline void
diag(const char *s)
{
	printf("# %s\n", s);
}

static inline int
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
