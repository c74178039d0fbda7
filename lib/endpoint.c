#include <stdio.h>
#include <string.h>

#include "endpoint.h"
#include "url.h"
#include "banned.h"

/* Length of the segment starting at s (up to '/' or end). */
static size_t
seg_len(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != '/')
		n++;
	return n;
}

/*
 * Walk pattern and path together. With pool != NULL, captured parameters
 * are decoded into params. Returns true on a match.
 */
static bool
match(const char *pat, const char *path, struct pool *pool, struct path_param *params,
    size_t *nparams)
{
	size_t np = 0;

	if (*pat != '/' || *path != '/')
		return false;
	for (;;) {
		size_t pl, sl;

		pat++;
		path++;
		pl = seg_len(pat);
		sl = seg_len(path);
		if (pl >= 2 && pat[0] == '{' && pat[pl - 1] == '}') {
			if (sl == 0)
				return false;
			if (pool) {
				char *dec;
				size_t dl;

				if (np >= REQ_MAX_PARAMS)
					return false;
				dec = pool_alloc(pool, sl + 1);
				if (dec == NULL || url_pct_decode(path, sl, false, dec, &dl) < 0)
					return false;
				params[np].name = pool_strndup(pool, pat + 1, pl - 2);
				params[np].value = dec;
				params[np].len = dl;
				if (params[np].name == NULL)
					return false;
				np++;
			} else {
				char tmp[2048];
				size_t dl;

				if (sl >= sizeof(tmp) || url_pct_decode(path, sl, false, tmp, &dl) < 0)
					return false;
			}
		} else if (pl != sl || memcmp(pat, path, pl) != 0) {
			return false;
		}
		pat += pl;
		path += sl;
		if (*pat == '\0' || *path == '\0')
			break;
	}
	if (*pat != '\0' || *path != '\0')
		return false;
	if (nparams)
		*nparams = np;
	return true;
}

bool
endpoint_path_matches(const char *pattern, const char *path)
{
	return match(pattern, path, NULL, NULL, NULL);
}

enum ep_match
endpoint_find(const struct endpoint *tab, size_t n, enum http_method method, const char *path,
    struct pool *pool, const struct endpoint **out, struct path_param *params, size_t *nparams,
    unsigned *allow)
{
	*allow = 0;
	for (size_t i = 0; i < n; i++) {
		if (!endpoint_path_matches(tab[i].pattern, path))
			continue;
		if (tab[i].method == method) {
			/* the path matched without the pool: only room can fail */
			if (!match(tab[i].pattern, path, pool, params, nparams))
				return EP_NOMEM;
			*out = &tab[i];
			return EP_FOUND;
		}
		*allow |= 1u << tab[i].method;
	}
	return *allow ? EP_WRONG_METHOD : EP_NO_PATH;
}

char *
endpoint_allow_text(unsigned allow, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (int m = 0; m < HM__MAX; m++) {
		int k;

		if (!(allow & (1u << m)))
			continue;
		k = snprintf(out + len, cap - len, "%s%s", len ? ", " : "",
		    http_method_name((enum http_method)m));
		if (k < 0 || (size_t)k >= cap - len)
			break;
		len += (size_t)k;
	}
	return out;
}

size_t
endpoint_param_count(const char *pattern)
{
	size_t n = 0;

	for (const char *p = pattern; *p; p++)
		if (*p == '{')
			n++;
	return n;
}

bool
endpoint_pattern_has(const char *pattern, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strchr(pattern, '{'); p; p = strchr(p + 1, '{'))
		if (strncmp(p + 1, name, n) == 0 && p[1 + n] == '}')
			return true;
	return false;
}

bool
endpoint_remote(const struct endpoint *e)
{
	return e->auth != AUTH_NONE || (e->flags & EP_REMOTE) != 0;
}

static const char *const rate_names[RATE__MAX] = {
	[RATE_NONE] = "-", [RATE_SITE] = "site", [RATE_SIGNIN] = "signin", [RATE_SIGNED] = "signed",
	[RATE_UNLOCK] = "unlock", [RATE_DISCOVERY] = "discovery", [RATE_AGENT] = "agent",
};

const char *
rate_name(enum rate_class r)
{
	return (unsigned)r < RATE__MAX ? rate_names[r] : "-";
}

uint64_t
rate_per_min(const struct config *c, enum rate_class r)
{
	switch (r) {
	case RATE_SITE:
		return c->rate_site;
	case RATE_SIGNIN:
		return c->rate_signin;
	case RATE_SIGNED:
		return c->rate_signed;
	case RATE_UNLOCK:
		return c->rate_unlock;
	case RATE_DISCOVERY:
		return c->rate_discovery;
	case RATE_AGENT:
		return c->rate_agent;
	default:
		return 0;
	}
}

uint64_t
rate_burst(const struct config *c, enum rate_class r)
{
	uint64_t per_min = rate_per_min(c, r);

	if (r == RATE_AGENT)
		return c->rate_agent_burst;
	return per_min / 30 > 5 ? per_min / 30 : 5;
}
