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
