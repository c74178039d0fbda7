/* waymark's recognition-score policy: the pure formula (see score.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "score.h"
#include "banned.h"

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

int
score_usdc_parse(const char *s, size_t len, uint64_t *atomic)
{
	size_t i = 0, ilen, flen = 0;
	uint64_t v = 0;

	while (i < len && is_digit(s[i]))
		i++;
	ilen = i;
	if (ilen == 0 || ilen > SCORE_USDC_INT_MAX || (ilen > 1 && s[0] == '0'))
		return -1;
	for (size_t k = 0; k < ilen; k++)
		v = v * 10 + (uint64_t)(s[k] - '0');
	if (i < len) {
		if (s[i] != '.')
			return -1;
		i++;
		while (i < len && is_digit(s[i]) && flen < 7) {
			i++;
			flen++;
		}
		if (flen == 0 || flen > 6 || i != len)
			return -1;
	}
	for (size_t k = 0; k < 6; k++)
		v = v * 10 + (k < flen ? (uint64_t)(s[ilen + 1 + k] - '0') : 0);
	*atomic = v;
	return 0;
}

/* The next token of s[0..len) from *pos, stripped of one leading "(" and
 * one trailing ".,;:!?)": *start and *n. False at the end. */
static bool
next_token(const char *s, size_t len, size_t *pos, size_t *start, size_t *n)
{
	size_t i = *pos, b;

	while (i < len && is_space(s[i]))
		i++;
	if (i >= len)
		return false;
	b = i;
	while (i < len && !is_space(s[i]))
		i++;
	*pos = i;
	if (s[b] == '(' && i - b > 1)
		b++;
	if (i - b > 1 && strchr(".,;:!?)", s[i - 1]) != NULL)
		i--;
	*start = b;
	*n = i - b;
	return true;
}

static bool
token_is_usdc(const char *t, size_t n)
{
	return n == 4 && lower(t[0]) == 'u' && lower(t[1]) == 's' && lower(t[2]) == 'd' &&
	    lower(t[3]) == 'c';
}

int
score_note_cost(const char *note, size_t len, uint64_t *atomic)
{
	size_t pos = 0, st, n, prev_st = 0, prev_n = 0;
	bool found = false, have_prev = false;
	uint64_t v, best = 0;

	while (next_token(note, len, &pos, &st, &n)) {
		bool got = false;

		if (n > 1 && note[st] == '$' && score_usdc_parse(note + st + 1, n - 1, &v) == 0)
			got = true;
		else if (have_prev && token_is_usdc(note + st, n) &&
		    score_usdc_parse(note + prev_st, prev_n, &v) == 0)
			got = true;
		if (got && (!found || v < best)) {
			best = v;
			found = true;
		}
		prev_st = st;
		prev_n = n;
		have_prev = true;
	}
	if (!found)
		return -1;
	*atomic = best;
	return 0;
}

/* Length of the longest prefix of t[0..n) in the class; at most max. */
static size_t
span(const char *t, size_t n, const char *extra, size_t max)
{
	size_t i = 0;

	while (i < n && i <= max && ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') ||
	    is_digit(t[i]) || (extra && t[i] != '\0' && strchr(extra, t[i]) != NULL)))
		i++;
	return i;
}

/* "owner/repo#N" exactly over t[0..n). */
static bool
artifact_ok(const char *t, size_t n)
{
	size_t o = span(t, n, "-", 39), r, k;

	if (o == 0 || o > 39 || o >= n || t[o] != '/')
		return false;
	t += o + 1;
	n -= o + 1;
	r = span(t, n, "._-", 100);
	if (r == 0 || r > 100 || r >= n || t[r] != '#')
		return false;
	t += r + 1;
	n -= r + 1;
	if (n == 0 || n > 10 || t[0] == '0')
		return false;
	for (k = 0; k < n; k++)
		if (!is_digit(t[k]))
			return false;
	return true;
}

/* The marker kind of token t[0..n), or SCORE_MARKER__MAX. */
static enum score_marker_kind
marker_kind(const char *t, size_t n)
{
	if (n > 3 && memcmp(t, "pr:", 3) == 0 && artifact_ok(t + 3, n - 3))
		return SCORE_MARKER_PR;
	if (n > 7 && memcmp(t, "review:", 7) == 0 && artifact_ok(t + 7, n - 7))
		return SCORE_MARKER_REVIEW;
	if (n > 2 && n <= 2 + 19 && memcmp(t, "x:", 2) == 0) {
		for (size_t k = 2; k < n; k++)
			if (!is_digit(t[k]))
				return SCORE_MARKER__MAX;
		return SCORE_MARKER_X;
	}
	return SCORE_MARKER__MAX;
}

static bool
same_text(const char *a, const char *b, size_t n)
{
	if (strlen(a) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(a[i]) != lower(b[i]))
			return false;
	return true;
}

size_t
score_note_markers(const char *note, size_t len, struct score_marker *out, size_t max)
{
	size_t pos = 0, st, n, count = 0;

	while (count < max && next_token(note, len, &pos, &st, &n)) {
		enum score_marker_kind k = marker_kind(note + st, n);
		bool dup = false;

		if (k == SCORE_MARKER__MAX || n >= SCORE_MARKER_TEXT)
			continue;
		for (size_t i = 0; i < count; i++)
			if (same_text(out[i].text, note + st, n))
				dup = true;
		if (dup)
			continue;
		out[count].kind = k;
		memcpy(out[count].text, note + st, n);
		out[count].text[n] = '\0';
		count++;
	}
	return count;
}

char *
score_usdc_format(int64_t atomic, char *out, size_t cap)
{
	uint64_t m = atomic < 0 ? (uint64_t)(-(atomic + 1)) + 1 : (uint64_t)atomic;
	uint64_t ip = m / 1000000u, fp = m % 1000000u;
	char frac[8];
	int n;

	n = snprintf(frac, sizeof(frac), "%06" PRIu64, fp);
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	snprintf(out, cap, "%s%" PRIu64 "%s%s", atomic < 0 ? "-" : "", ip, n ? "." : "", frac);
	return out;
}

/* floor(v * percent / 100) without overflow. */
static uint64_t
pct(uint64_t v, uint64_t percent)
{
	return v / 100u * percent + v % 100u * percent / 100u;
}

/* Append a component; the running amount moves by delta. */
static void
add(struct score_result *r, const char *name, const char *effect, const char *input, int64_t delta)
{
	struct score_component *c;

	if (r->ncomponents >= SCORE_COMPONENTS_MAX)
		return;
	c = &r->components[r->ncomponents++];
	c->name = name;
	c->effect = effect;
	snprintf(c->input, sizeof(c->input), "%s", input ? input : "");
	c->delta = delta;
	r->amount = (uint64_t)((int64_t)r->amount + delta);
}

void
score_compute(const struct score_input *in, struct score_result *out)
{
	static const uint64_t marker_value[SCORE_MARKER__MAX] = {
		[SCORE_MARKER_PR] = SCORE_PR, [SCORE_MARKER_REVIEW] = SCORE_REVIEW,
		[SCORE_MARKER_X] = SCORE_X,
	};
	bool cost = in->cost_source != SCORE_COST_NONE;
	char t[SCORE_INPUT_TEXT], a[SCORE_USDC_TEXT];
	uint64_t v;

	memset(out, 0, sizeof(*out));
	if (cost) {
		snprintf(t, sizeof(t), "%s (%s)", score_usdc_format((int64_t)in->cost, a, sizeof(a)),
		    in->cost_source == SCORE_COST_FIELD ? "serviceCostUsdc" : "note");
		add(out, "serviceCost", "base", t, (int64_t)pct(in->cost, SCORE_COST_PERCENT));
	} else {
		add(out, "defaultBase", "base", "", (int64_t)SCORE_DEFAULT_BASE);
	}
	for (size_t i = 0; i < in->nmarkers && i < SCORE_MARKERS_MAX; i++)
		if (in->markers[i].kind < SCORE_MARKER__MAX)
			add(out, "artifactMarker", "add", in->markers[i].text,
			    (int64_t)marker_value[in->markers[i].kind]);
	if (in->has_history) {
		v = in->recognizers < SCORE_RECOGNIZERS_MAX ? in->recognizers : SCORE_RECOGNIZERS_MAX;
		snprintf(t, sizeof(t), "%" PRIu64 " distinct recognizers, %" PRIu64 " recognitions",
		    in->recognizers, in->recognitions);
		add(out, "recognitionHistory", "add", t, (int64_t)(v * SCORE_PER_RECOGNIZER));
	}
	if (in->has_points) {
		v = in->points / SCORE_POINT_UNITS;
		v = v >= SCORE_POINTS_MAX / SCORE_PER_POINT ? SCORE_POINTS_MAX : v * SCORE_PER_POINT;
		snprintf(t, sizeof(t), "%" PRIu64 ".%03" PRIu64 " received points", in->points / SCORE_POINT_UNITS,
		    in->points % SCORE_POINT_UNITS);
		add(out, "receivedPoints", "add", t, (int64_t)v);
	}
	if (cost) {
		v = pct(in->cost, SCORE_COST_CAP_PERCENT);
		if (out->amount > v)
			add(out, "costCap", "cap", score_usdc_format((int64_t)v, a, sizeof(a)),
			    (int64_t)v - (int64_t)out->amount);
	}
	if (out->amount > SCORE_CAP)
		add(out, "cap", "cap", score_usdc_format(SCORE_CAP, a, sizeof(a)),
		    (int64_t)SCORE_CAP - (int64_t)out->amount);
	if (out->amount < SCORE_FLOOR)
		add(out, "floor", "floor", score_usdc_format(SCORE_FLOOR, a, sizeof(a)),
		    (int64_t)SCORE_FLOOR - (int64_t)out->amount);
	if (out->amount % SCORE_STEP != 0)
		add(out, "rounding", "round_down", score_usdc_format(SCORE_STEP, a, sizeof(a)),
		    -(int64_t)(out->amount % SCORE_STEP));
}
