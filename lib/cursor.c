/* The directory's page cursor (see cursor.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "banned.h"

/* Next '.'-separated part of *p (NUL-terminated in place), or NULL. */
static char *
cursor_part(char **p)
{
	char *s = *p, *dot;

	if (s == NULL)
		return NULL;
	if ((dot = strchr(s, '.')) != NULL) {
		*dot = '\0';
		*p = dot + 1;
	} else {
		*p = NULL;
	}
	return s;
}

/* True when s is 1..max decimal digits without a leading zero (but "0"). */
static bool
cursor_digits(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n == 0 || n > max || (n > 1 && s[0] == '0'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* True when s is exactly n lowercase hex digits. */
static bool
cursor_hex(const char *s, size_t n)
{
	if (strlen(s) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

int
cursor_parse(const char *text, int nsort, int nctx, struct cursor *c)
{
	char t[CURSOR_TEXT_MAX], *p = t, *part[9];

	if (strlen(text) >= sizeof(t))
		return -1;
	snprintf(t, sizeof(t), "%s", text);
	for (int i = 0; i < 9; i++)
		if ((part[i] = cursor_part(&p)) == NULL)
			return -1;
	if (p != NULL || strcmp(part[0], "c2") != 0)
		return -1;
	if (!cursor_digits(part[1], 1) || !cursor_digits(part[2], 1) || !cursor_hex(part[3], 16) ||
	    !cursor_digits(part[4], 19) || !cursor_digits(part[5], 19) || !cursor_digits(part[6], 78) ||
	    !cursor_digits(part[7], 19) || !cursor_hex(part[8], 64))
		return -1;
	c->sort = part[1][0] - '0';
	c->ctx = part[2][0] - '0';
	if (c->sort >= nsort || c->ctx >= nctx)
		return -1;
	memcpy(c->tag, part[3], 17);
	c->bb = strtoull(part[4], NULL, 10);
	c->bbr = strtoull(part[5], NULL, 10);
	snprintf(c->usdc, sizeof(c->usdc), "%s", part[6]);
	c->block = strtoull(part[7], NULL, 10);
	memcpy(c->rid, part[8], 65);
	return 0;
}

int
cursor_format(const struct cursor *c, char *out, size_t cap)
{
	int n;

	if (c->sort < 0 || c->sort > 9 || c->ctx < 0 || c->ctx > 9 || memchr(c->tag, '\0', 17) == NULL ||
	    !cursor_hex(c->tag, 16) || memchr(c->usdc, '\0', sizeof(c->usdc)) == NULL ||
	    !cursor_digits(c->usdc, 78) || memchr(c->rid, '\0', 65) == NULL || !cursor_hex(c->rid, 64) ||
	    c->bb > 9999999999999999999u || c->bbr > 9999999999999999999u || c->block > 9999999999999999999u)
		return -1;
	n = snprintf(out, cap, "c2.%d.%d.%s.%" PRIu64 ".%" PRIu64 ".%s.%" PRIu64 ".%s", c->sort, c->ctx, c->tag,
	    c->bb, c->bbr, c->usdc, c->block, c->rid);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}
