/*
 * baseline.c: checking a saved discovery snapshot that a caller sends back
 * as a baseline (docs/PROTOCOL.md, Discovery snapshot, Reports); see
 * baseline.h. Runs
 * in the .check hook of a row, before any payment is asked for, so it
 * reads no database: only the request, the configuration and the clock.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "brand.h"
#include "config.h"
#include "discovery.h"
#include "json.h"
#include "timefmt.h"
#include "url.h"
#include "utf8.h"
#include "banned.h"

#define PATH_MAX_LEN 160

const char *const baseline_lanes[] = {
	BRAND_LOWER "_backed", "receipt_verified", "self_reported", "client_settlement", "unknown", NULL,
};

static const char *const methods[] = { "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", NULL };

__attribute__((format(printf, 4, 5)))
static enum err
vfail(struct resp *w, enum err e, const char *path, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return resp_fail(w, e, path, "%s", msg);
}

static const char *
sub(char *out, const char *path, const char *name)
{
	int n = snprintf(out, PATH_MAX_LEN, "%s.%s", path, name);

	if (n < 0 || n >= PATH_MAX_LEN)  /* a long member name of the caller's: cut */
		memcpy(out + PATH_MAX_LEN - 4, "...", 4);
	return out;
}

static const char *
idx(char *out, const char *path, size_t i)
{
	int n = snprintf(out, PATH_MAX_LEN, "%s[%zu]", path, i);

	if (n < 0 || n >= PATH_MAX_LEN)
		memcpy(out + PATH_MAX_LEN - 4, "...", 4);
	return out;
}

/* obj is an object with exactly the allowed and required members. */
static enum err
v_members(struct resp *w, const char *path, json_object *obj, const char *const allowed[],
    const char *const required[])
{
	char p[PATH_MAX_LEN];
	const char *bad = NULL;

	switch (json_check_keys(obj, allowed, required, &bad)) {
	case JSON_KEYS_OK:
		return ERR_NONE;
	case JSON_KEYS_NOT_OBJECT:
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be a JSON object.", path);
	case JSON_KEYS_UNKNOWN:
		return vfail(w, ERR_UNKNOWN_FIELD, sub(p, path, bad),
		    "%s is not a member of a discovery snapshot.", p);
	default:
		return vfail(w, ERR_MISSING_FIELD, sub(p, path, bad), "%s is required.", p);
	}
}

static json_object *
get(json_object *o, const char *name)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, name, &v);
	return v;
}

/* A string of min..max characters; *s (and *len) on success. */
static enum err
v_string(struct resp *w, const char *path, json_object *j, size_t min, size_t max, const char **s,
    size_t *len)
{
	long n;

	if (!json_object_is_type(j, json_type_string))
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be a string.", path);
	n = utf8_length(json_object_get_string(j), (size_t)json_object_get_string_len(j));
	if (n < 0 || (size_t)n < min || (size_t)n > max)
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be a string of %zu to %zu characters.",
		    path, min, max);
	/* No snapshot this service writes holds U+0000, and C compares would stop there. */
	if (memchr(json_object_get_string(j), '\0', (size_t)json_object_get_string_len(j)))
		return vfail(w, ERR_INVALID_FIELD, path, "%s must not contain U+0000.", path);
	if (s)
		*s = json_object_get_string(j);
	if (len)
		*len = (size_t)json_object_get_string_len(j);
	return ERR_NONE;
}

static enum err
v_int(struct resp *w, const char *path, json_object *j, int64_t min, int64_t max, int64_t *out)
{
	int64_t v;

	if (!json_object_is_type(j, json_type_int))
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be an integer.", path);
	v = json_object_get_int64(j);
	if (v < min || v > max)
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be an integer from %" PRId64 " to %" PRId64 ".",
		    path, min, max);
	if (out)
		*out = v;
	return ERR_NONE;
}

static enum err
v_choice(struct resp *w, const char *path, json_object *j, const char *const choices[])
{
	if (json_object_is_type(j, json_type_string))
		for (size_t i = 0; choices[i]; i++)
			if (strcmp(json_object_get_string(j), choices[i]) == 0)
				return ERR_NONE;
	return vfail(w, ERR_INVALID_FIELD, path, "%s must be one of the values a discovery snapshot uses.", path);
}

static enum err
v_datetime(struct resp *w, const char *path, json_object *j, int64_t *secs, uint32_t *nanos)
{
	if (!json_object_is_type(j, json_type_string) ||
	    json_object_get_string_len(j) > BASELINE_DATETIME_MAX ||
	    time_parse_rfc3339(json_object_get_string(j), (size_t)json_object_get_string_len(j), secs,
	    nanos) < 0)
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be an RFC 3339 date-time.", path);
	return ERR_NONE;
}

/* "0x" and ndigits hex digits (lowercase only when lower). */
static bool
is_hex(json_object *j, size_t ndigits, bool lower)
{
	const char *s;

	if (!json_object_is_type(j, json_type_string) ||
	    (size_t)json_object_get_string_len(j) != ndigits + 2)
		return false;
	s = json_object_get_string(j);
	if (s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < ndigits + 2; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (!lower && c >= 'A' && c <= 'F')))
			return false;
	}
	return true;
}

/* A wallet: 0x + 40 hex digits (any case), or null when nullable. */
static enum err
v_wallet(struct resp *w, const char *path, json_object *j)
{
	if (j == NULL || is_hex(j, 40, false))
		return ERR_NONE;
	return vfail(w, ERR_INVALID_FIELD, path, "%s must be 0x and 40 hex digits, or null.", path);
}

/* A public HTTPS URL as discovery writes it (origin and path, nothing else). */
static enum err
v_url(struct resp *w, const char *path, json_object *j)
{
	if (!json_object_is_type(j, json_type_string) ||
	    url_check_public(json_object_get_string(j), (size_t)json_object_get_string_len(j), URL_EXACT,
	    NULL) != URL_OK)
		return vfail(w, ERR_INVALID_FIELD, path,
		    "%s must be a public HTTPS URL of at most 2048 bytes (origin and path).", path);
	return ERR_NONE;
}

/* An array of at most max strings of 1..2000 characters. */
static enum err
v_strings(struct resp *w, const char *path, json_object *j, size_t max)
{
	char p[PATH_MAX_LEN];
	enum err e;

	if (!json_object_is_type(j, json_type_array) || json_object_array_length(j) > max)
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be an array of at most %zu strings.", path, max);
	for (size_t i = 0; i < json_object_array_length(j); i++)
		if ((e = v_string(w, idx(p, path, i), json_object_array_get_idx(j, i), 1, 2000, NULL,
		    NULL)) != ERR_NONE)
			return e;
	return ERR_NONE;
}

/* "<prefix>0x<64 lowercase hex><suffix>" exactly; the hex part into id (67 bytes). */
static bool
path_with_id(const char *s, const char *prefix, const char *suffix, char id[67])
{
	size_t pl = strlen(prefix), sl = strlen(suffix), n = strlen(s);
	json_object *h;
	bool okay;

	if (n != pl + 66 + sl || strncmp(s, prefix, pl) != 0 || strcmp(s + pl + 66, suffix) != 0)
		return false;
	h = json_object_new_string_len(s + pl, 66);
	okay = h && is_hex(h, 64, true);
	json_object_put(h);
	if (okay) {
		memcpy(id, s + pl, 66);
		id[66] = '\0';
	}
	return okay;
}

/* sourceUrl: the free review source of this route, or a public profile activity, on this service. */
static enum err
v_source(struct req *r, struct resp *w, const char *path, json_object *j, const char *rid)
{
	const char *base = r->cfg->public_base_url, *s;
	size_t bl = strlen(base);
	char id[67], pre[PATH_MAX_LEN];

	if (!json_object_is_type(j, json_type_string) || json_object_get_string_len(j) > 2048 ||
	    strncmp(json_object_get_string(j), base, bl) != 0)
		return vfail(w, ERR_INVALID_FIELD, path, "%s must be a review source URL on %s.", path, base);
	s = json_object_get_string(j) + bl;
	if (path_with_id(s, "/api/site/x402/routes/", "/reviews", id)) {
		if (strcmp(id, rid) != 0)
			return vfail(w, ERR_INVALID_FIELD, path, "%s cites another route than the candidate's.", path);
		return ERR_NONE;
	}
	/* /api/site/x402/profiles/<profileId>/activity/<activityId> */
	if (strncmp(s, "/api/site/x402/profiles/", 24) == 0) {
		const char *slash = strchr(s + 24, '/');

		if (slash && slash > s + 24 && (size_t)(slash - s) < sizeof(pre) - 10) {
			snprintf(pre, sizeof(pre), "%.*s/activity/", (int)(slash - s), s);
			if (path_with_id(s, pre, "", id))
				return ERR_NONE;
		}
	}
	return vfail(w, ERR_INVALID_FIELD, path,
	    "%s must be %s/api/site/x402/routes/<routeId>/reviews or a public profile activity URL.", path, base);
}

static enum err
v_review(struct req *r, struct resp *w, const char *path, json_object *it, const char *rid)
{
	static const char *const req_keys[] = { "text", "evidenceKind", "reviewer", "publishedAt", "sourceUrl", NULL };
	char p[PATH_MAX_LEN];
	enum err e;

	if ((e = v_members(w, path, it, NULL, req_keys)) != ERR_NONE ||
	    (e = v_string(w, sub(p, path, "text"), get(it, "text"), 1, 2000, NULL, NULL)) != ERR_NONE ||
	    (e = v_choice(w, sub(p, path, "evidenceKind"), get(it, "evidenceKind"), baseline_lanes)) != ERR_NONE ||
	    (e = v_wallet(w, sub(p, path, "reviewer"), get(it, "reviewer"))) != ERR_NONE)
		return e;
	if (get(it, "publishedAt") != NULL &&
	    (e = v_datetime(w, sub(p, path, "publishedAt"), get(it, "publishedAt"), NULL, NULL)) != ERR_NONE)
		return e;
	return v_source(r, w, sub(p, path, "sourceUrl"), get(it, "sourceUrl"), rid);
}

static enum err
v_price(struct resp *w, const char *path, json_object *pr)
{
	static const char *const keys[] = { "amount", "currency", "checkedAt", "status", NULL };
	json_object *am, *cu, *st;
	char p[PATH_MAX_LEN];
	enum err e;

	if ((e = v_members(w, path, pr, NULL, keys)) != ERR_NONE)
		return e;
	am = get(pr, "amount");
	cu = get(pr, "currency");
	st = get(pr, "status");
	if (json_object_is_type(st, json_type_string) && strcmp(json_object_get_string(st), "unknown") == 0) {
		if (am || cu || get(pr, "checkedAt"))
			return vfail(w, ERR_INVALID_FIELD, path,
			    "%s with status unknown must have amount, currency and checkedAt null.", path);
		return ERR_NONE;
	}
	if (!json_object_is_type(st, json_type_string) || strcmp(json_object_get_string(st), "stale") != 0)
		return vfail(w, ERR_INVALID_FIELD, sub(p, path, "status"), "%s must be unknown or stale.", p);
	/* amount: a decimal string, at most 18 fractional digits */
	{
		const char *s = json_object_is_type(am, json_type_string) ? json_object_get_string(am) : "";
		size_t n = strlen(s), i = 0, frac = 0;
		bool good = n > 0 && n <= BASELINE_AMOUNT_MAX && (s[0] != '0' || n == 1 || s[1] == '.');

		while (good && i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (good && i == 0)
			good = false;
		if (good && i < n && s[i] == '.') {
			for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
				frac++;
			good = frac >= 1 && frac <= 18;
		}
		if (!good || i != n)
			return vfail(w, ERR_INVALID_FIELD, sub(p, path, "amount"),
			    "%s must be a decimal string with at most 18 fractional digits.", p);
	}
	{
		const char *s = json_object_is_type(cu, json_type_string) ? json_object_get_string(cu) : "";
		size_t n = strlen(s);
		bool good = n >= 3 && n <= 10;

		for (size_t i = 0; good && i < n; i++)
			good = s[i] >= 'A' && s[i] <= 'Z';
		if (!good)
			return vfail(w, ERR_INVALID_FIELD, sub(p, path, "currency"),
			    "%s must be 3 to 10 uppercase letters.", p);
	}
	return v_datetime(w, sub(p, path, "checkedAt"), get(pr, "checkedAt"), NULL, NULL);
}

static enum err
v_candidate(struct req *r, struct resp *w, const char *path, json_object *c)
{
	static const char *const req_keys[] = { "routeId", "title", "url", "method", "summary", "matchReasons",
		"reviews", "usage", "price", "invocation", "links", NULL };
	static const char *const opt_keys[] = { "limitations", NULL };
	static const char *const usage_keys[] = { "useCount", "walletCount", "profileCount", NULL };
	/*
	 * Not the interface's: snapshots of an earlier version of this service
	 * carried it, so a baseline saved from one still validates; it is never
	 * compared, and no snapshot or export has it now.
	 */
	static const char *const usage_opt[] = { "clientSettlementProfileCount", NULL };
	static const char *const inv_keys[] = { "client", "discoveryUrl", "method", "endpoint",
		"requiresApproval", NULL };
	static const char *const link_keys[] = { "web", "api", NULL };
	char p[PATH_MAX_LEN], q[PATH_MAX_LEN], id[67];
	const char *rid;
	json_object *rv, *u, *inv, *ln, *ra;
	enum err e;

	if ((e = v_members(w, path, c, opt_keys, req_keys)) != ERR_NONE)
		return e;
	if (!is_hex(get(c, "routeId"), 64, true))
		return vfail(w, ERR_INVALID_FIELD, sub(p, path, "routeId"), "%s must be 0x and 64 lowercase hex digits.", p);
	rid = json_object_get_string(get(c, "routeId"));
	if ((e = v_string(w, sub(p, path, "title"), get(c, "title"), 1, 160, NULL, NULL)) != ERR_NONE ||
	    (e = v_url(w, sub(p, path, "url"), get(c, "url"))) != ERR_NONE ||
	    (e = v_choice(w, sub(p, path, "method"), get(c, "method"), methods)) != ERR_NONE ||
	    (e = v_string(w, sub(p, path, "summary"), get(c, "summary"), 1, 1000, NULL, NULL)) != ERR_NONE ||
	    (e = v_strings(w, sub(p, path, "matchReasons"), get(c, "matchReasons"), BASELINE_LIST_MAX)) != ERR_NONE)
		return e;
	if (json_object_object_get_ex(c, "limitations", NULL) &&
	    (e = v_strings(w, sub(p, path, "limitations"), get(c, "limitations"), BASELINE_LIST_MAX)) != ERR_NONE)
		return e;
	rv = get(c, "reviews");
	sub(p, path, "reviews");
	if (!json_object_is_type(rv, json_type_array) || json_object_array_length(rv) > 10)
		return vfail(w, ERR_INVALID_FIELD, p, "%s must be an array of at most 10 review items.", p);
	for (size_t i = 0; i < json_object_array_length(rv); i++)
		if ((e = v_review(r, w, idx(q, p, i), json_object_array_get_idx(rv, i), rid)) != ERR_NONE)
			return e;
	u = get(c, "usage");
	if ((e = v_members(w, sub(p, path, "usage"), u, usage_opt, usage_keys)) != ERR_NONE)
		return e;
	for (size_t i = 0; usage_keys[i]; i++)
		if ((e = v_int(w, sub(q, p, usage_keys[i]), get(u, usage_keys[i]), 0, 9007199254740991LL,
		    NULL)) != ERR_NONE)
			return e;
	for (size_t i = 0; usage_opt[i]; i++)
		if (json_object_object_get_ex(u, usage_opt[i], NULL) && (e = v_int(w, sub(q, p, usage_opt[i]),
		    get(u, usage_opt[i]), 0, 9007199254740991LL, NULL)) != ERR_NONE)
			return e;
	if ((e = v_price(w, sub(p, path, "price"), get(c, "price"))) != ERR_NONE)
		return e;
	inv = get(c, "invocation");
	if ((e = v_members(w, sub(p, path, "invocation"), inv, NULL, inv_keys)) != ERR_NONE)
		return e;
	if (!json_object_is_type(get(inv, "client"), json_type_string) ||
	    strcmp(json_object_get_string(get(inv, "client")), r->cfg->payer_client) != 0)
		return vfail(w, ERR_INVALID_FIELD, sub(q, p, "client"), "%s must be \"%s\".", q, r->cfg->payer_client);
	if ((e = v_url(w, sub(q, p, "discoveryUrl"), get(inv, "discoveryUrl"))) != ERR_NONE ||
	    (e = v_choice(w, sub(q, p, "method"), get(inv, "method"), methods)) != ERR_NONE ||
	    (e = v_url(w, sub(q, p, "endpoint"), get(inv, "endpoint"))) != ERR_NONE)
		return e;
	ra = get(inv, "requiresApproval");
	if (!json_object_is_type(ra, json_type_boolean) || !json_object_get_boolean(ra))
		return vfail(w, ERR_INVALID_FIELD, sub(q, p, "requiresApproval"), "%s must be true.", q);
	ln = get(c, "links");
	if ((e = v_members(w, sub(p, path, "links"), ln, NULL, link_keys)) != ERR_NONE)
		return e;
	if (!json_object_is_type(get(ln, "web"), json_type_string) ||
	    !path_with_id(json_object_get_string(get(ln, "web")), "/x402/routes/", "", id) ||
	    rid == NULL || strcmp(id, rid) != 0)
		return vfail(w, ERR_INVALID_FIELD, sub(q, p, "web"), "%s must be the path /x402/routes/<routeId> of this candidate.", q);
	if (!json_object_is_type(get(ln, "api"), json_type_string) ||
	    !path_with_id(json_object_get_string(get(ln, "api")), "/api/v1/x402/routes/", "", id) ||
	    strcmp(id, rid) != 0)
		return vfail(w, ERR_INVALID_FIELD, sub(q, p, "api"), "%s must be the path /api/v1/x402/routes/<routeId> of this candidate.", q);
	return ERR_NONE;
}

enum err
baseline_check(struct req *r, struct resp *w, json_object *b, const char *q, uint64_t rlimit,
    const struct addr *reviewer)
{
	static const char *const req_keys[] = { "version", "generatedAt", "query", "candidates", "coverage", NULL };
	static const char *const opt_keys[] = { "limitations", NULL };
	static const char *const query_keys[] = { "q", "limit", "reviewer", NULL };
	static const char *const cov_keys[] = { "routes", "reviews", "activity", NULL };
	static const char *const flag_keys[] = { "available", "complete", NULL };
	json_object *qo, *cands, *cov, *ver;
	char p[PATH_MAX_LEN], pp[PATH_MAX_LEN];
	const char *bq;
	int64_t secs, limit;
	uint32_t nanos;
	struct timespec now;
	enum err e;

	if ((e = v_members(w, "baseline", b, opt_keys, req_keys)) != ERR_NONE)
		return e;
	ver = get(b, "version");
	if (!json_object_is_type(ver, json_type_string) || strcmp(json_object_get_string(ver), "1") != 0)
		return vfail(w, ERR_INVALID_FIELD, "baseline.version", "baseline.version must be the string \"1\".");
	if ((e = v_datetime(w, "baseline.generatedAt", get(b, "generatedAt"), &secs, &nanos)) != ERR_NONE)
		return e;
	clock_gettime(CLOCK_REALTIME, &now);
	if (secs > (int64_t)now.tv_sec || (secs == (int64_t)now.tv_sec && nanos >= (uint32_t)now.tv_nsec))
		return vfail(w, ERR_INVALID_FIELD, "baseline.generatedAt",
		    "baseline.generatedAt must be earlier than this request; it is now or in the future.");
	qo = get(b, "query");
	if ((e = v_members(w, "baseline.query", qo, NULL, query_keys)) != ERR_NONE ||
	    (e = v_string(w, "baseline.query.q", get(qo, "q"), 0, DISCOVERY_Q_MAX, &bq, NULL)) != ERR_NONE ||
	    (e = v_int(w, "baseline.query.limit", get(qo, "limit"), 1, DISCOVERY_LIMIT_MAX, &limit)) != ERR_NONE ||
	    (e = v_wallet(w, "baseline.query.reviewer", get(qo, "reviewer"))) != ERR_NONE)
		return e;
	if (json_object_object_get_ex(b, "limitations", NULL) &&
	    (e = v_strings(w, "baseline.limitations", get(b, "limitations"), BASELINE_LIST_MAX)) != ERR_NONE)
		return e;
	cands = get(b, "candidates");
	if (!json_object_is_type(cands, json_type_array) ||
	    json_object_array_length(cands) > (size_t)limit)
		return vfail(w, ERR_INVALID_FIELD, "baseline.candidates",
		    "baseline.candidates must be an array of at most baseline.query.limit (%" PRId64 ") candidates.",
		    limit);
	for (size_t i = 0; i < json_object_array_length(cands); i++) {
		json_object *c = json_object_array_get_idx(cands, i);

		if ((e = v_candidate(r, w, idx(p, "baseline.candidates", i), c)) != ERR_NONE)
			return e;
		for (size_t k = 0; k < i; k++)
			if (strcmp(json_object_get_string(get(json_object_array_get_idx(cands, k), "routeId")),
			    json_object_get_string(get(c, "routeId"))) == 0)
				return vfail(w, ERR_INVALID_FIELD, sub(pp, p, "routeId"),
				    "%s repeats the routeId of baseline.candidates[%zu].", pp, k);
	}
	cov = get(b, "coverage");
	if ((e = v_members(w, "baseline.coverage", cov, NULL, cov_keys)) != ERR_NONE)
		return e;
	for (size_t i = 0; cov_keys[i]; i++) {
		json_object *f = get(cov, cov_keys[i]), *a, *c;

		sub(p, "baseline.coverage", cov_keys[i]);
		if ((e = v_members(w, p, f, NULL, flag_keys)) != ERR_NONE)
			return e;
		a = get(f, "available");
		c = get(f, "complete");
		if (!json_object_is_type(a, json_type_boolean))
			return vfail(w, ERR_INVALID_FIELD, sub(pp, p, "available"), "%s must be a boolean.", pp);
		if (!json_object_is_type(c, json_type_boolean) || json_object_get_boolean(c))
			return vfail(w, ERR_INVALID_FIELD, sub(pp, p, "complete"), "%s must be false.", pp);
	}
	/* The baseline's query must be the request's. */
	if (strcmp(bq, q) != 0)
		return vfail(w, ERR_INVALID_FIELD, "baseline.query.q",
		    "baseline.query.q differs from this request's q (default \"\"); send the baseline's q.");
	if ((uint64_t)limit != rlimit)
		return vfail(w, ERR_INVALID_FIELD, "baseline.query.limit",
		    "baseline.query.limit is %" PRId64 " but this request's limit is %" PRIu64 " (default 10).",
		    limit, rlimit);
	{
		json_object *brv = get(qo, "reviewer");
		struct addr ba;

		if ((brv == NULL) != (reviewer == NULL) || (brv != NULL &&
		    (addr_parse(json_object_get_string(brv), (size_t)json_object_get_string_len(brv), &ba) < 0 ||
		    !addr_eq(&ba, reviewer))))
			return vfail(w, ERR_INVALID_FIELD, "baseline.query.reviewer",
			    "baseline.query.reviewer differs from this request's reviewer (absent means null).");
	}
	return ERR_NONE;
}
