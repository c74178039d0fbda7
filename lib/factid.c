/* Fact IDs and the feed cursor (see factid.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "factid.h"
#include "hex.h"
#include "banned.h"

static const char *const prefixes[FACT__MAX] = {
	[FACT_STORED] = "",
	[FACT_RECOGNIZED] = "recognized-",
	[FACT_REVIEW] = "reviewed-",
	[FACT_ACTIVITY_REVIEW] = "reviewed-activity-",
};

/* s[0..n) is 1..max decimal digits without a leading zero (but "0"); its value into *v. */
static bool
digits(const char *s, size_t n, size_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (n == 0 || n > max || (n > 1 && s[0] == '0'))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return true;
}

/* "0x" + 64 lowercase digits at s (at least 66 bytes there) into key. */
static bool
key_at(const char *s, size_t n, uint8_t key[32])
{
	return n >= 66 && hex_is_lower_prefixed(s, 66, 64) && hex_decode_fixed(s, 66, key, 32, true) == 0;
}

int
factid_parse(const char *s, size_t len, struct fact_id *id)
{
	size_t pl;
	uint64_t li;

	memset(id, 0, sizeof(*id));
	if (len > 0 && s[0] == '0') {
		id->src = FACT_STORED;
		return len == 66 && key_at(s, len, id->key) ? 0 : -1;
	}
	/* The longer prefix first: "reviewed-" is also the head of "reviewed-activity-". */
	for (int k = FACT_ACTIVITY_REVIEW; k > FACT_STORED; k--) {
		pl = strlen(prefixes[k]);
		if (len < pl || memcmp(s, prefixes[k], pl) != 0)
			continue;
		id->src = (enum fact_src)k;
		if (!key_at(s + pl, len - pl, id->key))
			return -1;
		if (k != FACT_RECOGNIZED)
			return len == pl + 66 ? 0 : -1;
		if (len < pl + 68 || s[pl + 66] != '-' || !digits(s + pl + 67, len - pl - 67, 10, &li) ||
		    li > UINT32_MAX)
			return -1;
		id->log_index = (uint32_t)li;
		return 0;
	}
	return -1;
}

int
factid_format(const struct fact_id *id, char *out, size_t cap)
{
	char hex[67];
	int n;

	if ((unsigned)id->src >= FACT__MAX)
		return -1;
	hex_encode(id->key, 32, hex);
	if (id->src == FACT_RECOGNIZED)
		n = snprintf(out, cap, "%s%s-%" PRIu32, prefixes[id->src], hex, id->log_index);
	else
		n = snprintf(out, cap, "%s%s", prefixes[id->src], hex);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int
feedcursor_parse(const char *text, struct feed_cursor *c)
{
	size_t len = strlen(text);
	const char *dot;

	memset(c, 0, sizeof(*c));
	if (len >= FEEDCURSOR_TEXT_MAX || strncmp(text, "f1.", 3) != 0)
		return -1;
	if ((dot = strchr(text + 3, '.')) == NULL)
		return -1;
	if (!digits(text + 3, (size_t)(dot - text - 3), 19, &c->at))
		return -1;
	return factid_parse(dot + 1, len - (size_t)(dot + 1 - text), &c->id);
}

int
feedcursor_format(const struct feed_cursor *c, char *out, size_t cap)
{
	char id[FACTID_TEXT_MAX];
	int n;

	if (c->at > 9999999999999999999u || factid_format(&c->id, id, sizeof(id)) < 0)
		return -1;
	n = snprintf(out, cap, "f1.%" PRIu64 ".%s", c->at, id);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}
