/*
 * timefmt: RFC 3339 formatting and parsing (the JSON Schema date-time
 * format), valid and invalid vectors, and the round trip.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "timefmt.h"
#include "banned.h"

struct pcase {
	const char *in;
	int ok;
	int64_t secs;
	uint32_t nanos;
};

static const struct pcase cases[] = {
	{ "1970-01-01T00:00:00Z", 1, 0, 0 },
	{ "2026-11-21T23:30:56Z", 1, 1795303856, 0 },
	{ "2026-11-21t23:30:56z", 1, 1795303856, 0 },
	{ "2026-11-21T23:30:56.5Z", 1, 1795303856, 500000000 },
	{ "2026-11-21T23:30:56.123456789123Z", 1, 1795303856, 123456789 },
	{ "2026-11-22T01:30:56+02:00", 1, 1795303856, 0 },
	{ "2026-11-21T20:00:56-03:30", 1, 1795303856, 0 },
	{ "2024-02-29T00:00:00Z", 1, 1709164800, 0 },
	{ "2000-02-29T12:00:00Z", 1, 951825600, 0 },
	{ "1969-12-31T23:59:59Z", 1, -1, 0 },
	{ "2023-02-29T00:00:00Z", 0, 0, 0 },
	{ "1900-02-29T00:00:00Z", 0, 0, 0 },
	{ "2026-04-31T00:00:00Z", 0, 0, 0 },
	{ "2026-13-01T00:00:00Z", 0, 0, 0 },
	{ "2026-00-01T00:00:00Z", 0, 0, 0 },
	{ "2026-01-00T00:00:00Z", 0, 0, 0 },
	{ "2026-01-01T24:00:00Z", 0, 0, 0 },
	{ "2026-01-01T00:60:00Z", 0, 0, 0 },
	{ "2026-12-31T23:59:60Z", 0, 0, 0 },
	{ "2026-01-01T00:00:00", 0, 0, 0 },
	{ "2026-01-01 00:00:00Z", 0, 0, 0 },
	{ "2026-01-01T00:00:00.Z", 0, 0, 0 },
	{ "2026-01-01T00:00:00+0100", 0, 0, 0 },
	{ "2026-01-01T00:00:00+24:00", 0, 0, 0 },
	{ "2026-01-01T00:00:00Zx", 0, 0, 0 },
	{ "2026-1-01T00:00:00Z", 0, 0, 0 },
	{ "+2026-01-01T00:00:00Z", 0, 0, 0 },
	{ "", 0, 0, 0 },
	{ "now", 0, 0, 0 },
};

int
main(void)
{
	char out[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct pcase *c = &cases[i];
		int64_t s = 42;
		uint32_t n = 42;
		int rc = time_parse_rfc3339(c->in, strlen(c->in), &s, &n);

		if (c->ok)
			ok(rc == 0 && s == c->secs && n == c->nanos, "parse \"%s\" = %lld.%09u", c->in,
			    (long long)c->secs, c->nanos);
		else
			ok(rc == -1, "refuse \"%s\"", c->in);
	}
	for (time_t t = 0; t < 4000000000; t += 123456789) {
		int64_t s = -1;

		time_rfc3339(t, out, sizeof(out));
		ok(time_parse_rfc3339(out, strlen(out), &s, NULL) == 0 && s == (int64_t)t,
		    "round trip %s", out);
	}
	ok(time_parse_rfc3339("2026-01-01T00:00:00Z", 19, NULL, NULL) == -1,
	    "the length bounds the input (no Z within it)");
	return done_testing();
}
