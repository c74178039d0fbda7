/* The score policy (lib/score.h): amounts, note cost, markers, the formula table. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "score.h"
#include "tap.h"
#include "banned.h"

static const struct {
	const char *in;
	uint64_t want;
} usdc_ok[] = {
	{"0", 0},
	{"12", 12000000},
	{"0.05", 50000},
	{"0.000001", 1},
	{"1.234567", 1234567},
	{"1.50", 1500000},
	{"999999999999.999999", 999999999999999999ull},
};

static const char *const usdc_bad[] = {
	"", "1.", ".5", "01", "00.1", "1.2345678", "1e3", "-1", "+1", "1,5", " 1", "1 ",
	"1000000000000", "0x10", "1..2", "$1",
};

static const struct {
	const char *note;
	int rc;
	uint64_t want;
} costs[] = {
	{"Paid $0.80 for the report", 0, 800000},
	{"it cost 0.05 USDC.", 0, 50000},
	{"5 usdc, thanks", 0, 5000000},
	{"between $1 and $0.5, say", 0, 500000},      /* the smallest */
	{"($2.50)", 0, 2500000},
	{"$0.05.", 0, 50000},
	{"no amount here", -1, 0},
	{"$0.1234567 is too precise", -1, 0},
	{"$ 5", -1, 0},
	{"0.05usdc", -1, 0},
	{"USDC 5", -1, 0},
	{"$05", -1, 0},
	{"$1e2", -1, 0},
	{"", -1, 0},
};

static const struct {
	const char *note;
	size_t n;
	const char *want[3];
} markers[] = {
	{"see pr:acme/widgets#42, review:acme/widgets#7 and x:1234567890.", 3,
	    {"pr:acme/widgets#42", "review:acme/widgets#7", "x:1234567890"}},
	{"pr:a/b#1 again pr:A/B#1 and (x:5)", 2, {"pr:a/b#1", "x:5"}},
	{"pr:a/b#1 pr:a/b#2 pr:a/b#3 pr:a/b#4", 3, {"pr:a/b#1", "pr:a/b#2", "pr:a/b#3"}},
	{"pr:acme/widgets#0 pr:acme#1 x:alice review:/r#1 pr:o/r#12345678901 x:12345678901234567890", 0,
	    {NULL}},
	{"pr:my-org/my.repo_x#9", 1, {"pr:my-org/my.repo_x#9"}},
	{"PR:a/b#1 xx:1", 0, {NULL}},
};

#define M(k, t) { .kind = (k), .text = (t) }

static const struct {
	const char *name;
	struct score_input in;
	uint64_t want;
	const char *components;  /* name:delta,... */
} formula[] = {
	{"nothing known: the default base",
	    { .cost_source = SCORE_COST_NONE }, 20000, "defaultBase:0.02"},
	{"the worked example: cost, two markers, history, rounding",
	    { .cost_source = SCORE_COST_FIELD, .cost = 1234567,
	      .markers = { M(SCORE_MARKER_PR, "pr:acme/widgets#42"), M(SCORE_MARKER_X, "x:1234567890") },
	      .nmarkers = 2, .has_history = true, .recognitions = 5, .recognizers = 3 },
	    154000,
	    "serviceCost:0.123456,artifactMarker:0.02,artifactMarker:0.005,recognitionHistory:0.006,"
	    "rounding:-0.000456"},
	{"a small cost: the floor",
	    { .cost_source = SCORE_COST_NOTE, .cost = 50000 }, 10000, "serviceCost:0.005,floor:0.005"},
	{"a zero cost: the floor wins over the cost cap",
	    { .cost_source = SCORE_COST_FIELD, .cost = 0 }, 10000, "serviceCost:0,floor:0.01"},
	{"a large cost: the absolute cap",
	    { .cost_source = SCORE_COST_FIELD, .cost = 10000000 }, 500000, "serviceCost:1,cap:-0.5"},
	{"markers above half the cost: the cost cap",
	    { .cost_source = SCORE_COST_FIELD, .cost = 100000,
	      .markers = { M(SCORE_MARKER_PR, "pr:a/b#1"), M(SCORE_MARKER_PR, "pr:a/b#2"),
	                   M(SCORE_MARKER_REVIEW, "review:a/b#3") }, .nmarkers = 3 },
	    50000,
	    "serviceCost:0.01,artifactMarker:0.02,artifactMarker:0.02,artifactMarker:0.01,costCap:-0.01"},
	{"history counts at most five recognizers",
	    { .has_history = true, .recognitions = 40, .recognizers = 9 }, 30000,
	    "defaultBase:0.02,recognitionHistory:0.01"},
	{"history with nobody yet",
	    { .has_history = true }, 20000, "defaultBase:0.02,recognitionHistory:0"},
	{"a handle's received points: 0.001 per whole point",
	    { .has_history = true, .recognitions = 6, .recognizers = 3, .has_points = true, .points = 12999 },
	    38000, "defaultBase:0.02,recognitionHistory:0.006,receivedPoints:0.012"},
	{"received points add at most 0.02",
	    { .has_history = true, .has_points = true, .points = UINT64_MAX }, 40000,
	    "defaultBase:0.02,recognitionHistory:0,receivedPoints:0.02"},
	{"a handle without points",
	    { .has_history = true, .has_points = true }, 20000,
	    "defaultBase:0.02,recognitionHistory:0,receivedPoints:0"},
	{"rounding down to 0.001",
	    { .cost_source = SCORE_COST_FIELD, .cost = 123457 }, 12000,
	    "serviceCost:0.012345,rounding:-0.000345"},
	{"the largest cost does not overflow",
	    { .cost_source = SCORE_COST_FIELD, .cost = 999999999999999999ull }, 500000,
	    "serviceCost:99999999999.999999,cap:-99999999999.499999"},
};

int
main(void)
{
	char got[1024], a[SCORE_USDC_TEXT];
	uint64_t v;
	struct score_marker mk[SCORE_MARKERS_MAX];
	struct score_result r;

	for (size_t i = 0; i < sizeof(usdc_ok) / sizeof(usdc_ok[0]); i++) {
		v = 0;
		ok(score_usdc_parse(usdc_ok[i].in, strlen(usdc_ok[i].in), &v) == 0 && v == usdc_ok[i].want,
		    "USDC amount %s = %" PRIu64 " atomic", usdc_ok[i].in, usdc_ok[i].want);
	}
	for (size_t i = 0; i < sizeof(usdc_bad) / sizeof(usdc_bad[0]); i++)
		ok(score_usdc_parse(usdc_bad[i], strlen(usdc_bad[i]), &v) < 0, "not a USDC amount: '%s'",
		    usdc_bad[i]);
	for (size_t i = 0; i < sizeof(costs) / sizeof(costs[0]); i++) {
		int rc;

		v = 0;
		rc = score_note_cost(costs[i].note, strlen(costs[i].note), &v);
		ok(rc == costs[i].rc && (rc < 0 || v == costs[i].want), "note cost of '%s': %s %" PRIu64,
		    costs[i].note, costs[i].rc == 0 ? "found" : "none", costs[i].want);
	}
	for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
		size_t n = score_note_markers(markers[i].note, strlen(markers[i].note), mk,
		    SCORE_MARKERS_MAX);
		bool same = n == markers[i].n;

		for (size_t k = 0; same && k < n; k++)
			same = strcmp(mk[k].text, markers[i].want[k]) == 0;
		ok(same, "markers of '%s': %zu", markers[i].note, markers[i].n);
	}
	ok(score_note_markers("pr:a/b#1", 8, mk, SCORE_MARKERS_MAX) == 1 && mk[0].kind == SCORE_MARKER_PR,
	    "a pr marker has kind pr");
	ok(score_note_markers("review:a/b#1", 12, mk, SCORE_MARKERS_MAX) == 1 &&
	    mk[0].kind == SCORE_MARKER_REVIEW, "a review marker has kind review");
	ok(score_note_markers("x:1", 3, mk, SCORE_MARKERS_MAX) == 1 && mk[0].kind == SCORE_MARKER_X,
	    "an x marker has kind x");

	for (size_t i = 0; i < sizeof(formula) / sizeof(formula[0]); i++) {
		int64_t sum = 0;
		size_t off = 0;

		score_compute(&formula[i].in, &r);
		got[0] = '\0';
		for (size_t k = 0; k < r.ncomponents; k++) {
			off += (size_t)snprintf(got + off, sizeof(got) - off, "%s%s:%s", k ? "," : "",
			    r.components[k].name, score_usdc_format(r.components[k].delta, a, sizeof(a)));
			sum += r.components[k].delta;
		}
		ok(r.amount == formula[i].want, "%s: %" PRIu64 " atomic (got %" PRIu64 ")", formula[i].name,
		    formula[i].want, r.amount);
		is_str(got, formula[i].components, "%s: components", formula[i].name);
		ok(sum == (int64_t)r.amount, "%s: the deltas add up to the amount", formula[i].name);
		ok(r.amount >= SCORE_FLOOR && r.amount <= SCORE_CAP && r.amount % SCORE_STEP == 0,
		    "%s: within the floor and cap, a multiple of the step", formula[i].name);
	}
	score_compute(&formula[1].in, &r);
	is_str(r.components[0].input, "1.234567 (serviceCostUsdc)", "serviceCost input names its source");
	is_str(r.components[3].input, "3 distinct recognizers, 5 recognitions", "history input: counts");
	is_str(r.components[1].input, "pr:acme/widgets#42", "marker input: the marker");
	is_str(score_usdc_format(0, a, sizeof(a)), "0", "format 0");
	is_str(score_usdc_format(-1, a, sizeof(a)), "-0.000001", "format -1 atomic");
	is_str(score_usdc_format(1500000, a, sizeof(a)), "1.5", "format 1.5");
	is_str(score_usdc_format(INT64_MIN, a, sizeof(a)), "-9223372036854.775808", "format INT64_MIN");
	is_str(SCORE_POLICY, "boon.recognition-score/v2", "the policy label");
	return done_testing();
}
