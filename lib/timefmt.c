#include <stdint.h>
#include <time.h>

#include "timefmt.h"
#include "banned.h"

char *
time_rfc3339(time_t t, char *out, size_t cap)
{
	struct tm tm;

	if (cap == 0)
		return out;
	out[0] = '\0';
	if (gmtime_r(&t, &tm) == NULL || strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		out[0] = '\0';
	return out;
}

/* n decimal digits at s as a number; -1 when one is not a digit. */
static int
digits(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int
time_parse_rfc3339(const char *s, size_t len, int64_t *secs, uint32_t *nanos)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, se, maxd, off = 0;
	uint32_t frac = 0;
	size_t i = 19, fd = 0;

	if (len < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
	    s[13] != ':' || s[16] != ':')
		return -1;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	se = digits(s + 17, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 ||
	    se > 59)
		return -1;
	maxd = mdays[mo - 1] + (mo == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
	if (d > maxd)
		return -1;
	if (s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, fd++)
			if (fd < 9)
				frac = frac * 10 + (uint32_t)(s[i] - '0');
		if (fd == 0)
			return -1;
		for (size_t k = fd; k < 9; k++)
			frac *= 10;
	}
	if (i + 1 == len && (s[i] == 'Z' || s[i] == 'z')) {
		off = 0;
	} else if (i + 6 == len && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
		int oh = digits(s + i + 1, 2), om = digits(s + i + 4, 2);

		if (oh < 0 || oh > 23 || om < 0 || om > 59)
			return -1;
		off = (oh * 60 + om) * 60 * (s[i] == '-' ? -1 : 1);
	} else {
		return -1;
	}
	if (secs)
		*secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - off;
	if (nanos)
		*nanos = frac;
	return 0;
}
