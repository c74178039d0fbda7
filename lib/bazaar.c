/* bazaar.c: the Bazaar search cursor (bazaar.h). */
#include <stdio.h>
#include <string.h>

#include "bazaar.h"
#include "hex.h"
#include "keccak.h"
#include "banned.h"

static int
tag_ok(const char *t, size_t n)
{
	if (n != 16)
		return -1;
	for (size_t i = 0; i < 16; i++)
		if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f')))
			return -1;
	return 0;
}

int
bazaar_cursor_parse(const char *text, uint32_t *offset, char tag[17])
{
	const char *p, *dot;
	uint32_t v = 0;
	size_t nd;

	if (text == NULL || strncmp(text, "bz1.", 4) != 0)
		return -1;
	p = text + 4;
	dot = strchr(p, '.');
	if (dot == NULL)
		return -1;
	nd = (size_t)(dot - p);
	if (nd == 0 || nd > 7 || (nd > 1 && p[0] == '0'))
		return -1;
	for (size_t i = 0; i < nd; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (uint32_t)(p[i] - '0');
	}
	if (tag_ok(dot + 1, strlen(dot + 1)) < 0)
		return -1;
	*offset = v;
	memcpy(tag, dot + 1, 17);
	return 0;
}

int
bazaar_cursor_format(uint32_t offset, const char *tag, char *out, size_t cap)
{
	int n;

	if (offset > BAZAAR_OFFSET_MAX || tag == NULL || tag_ok(tag, strlen(tag)) < 0)
		return -1;
	n = snprintf(out, cap, "bz1.%u.%s", offset, tag);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

void
bazaar_query_tag(const char *const parts[], size_t n, char tag[17])
{
	struct keccak_ctx kc;
	uint8_t h[32];

	keccak_init(&kc);
	for (size_t i = 0; i < n; i++) {
		if (parts[i])
			keccak_update(&kc, parts[i], strlen(parts[i]));
		keccak_update(&kc, "", 1);
	}
	keccak_final(&kc, h);
	hex_digits(h, 8, tag);
}
