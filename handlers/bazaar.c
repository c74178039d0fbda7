/*
 * bazaar.c: the Bazaar discovery API (docs/PROTOCOL.md, Bazaar discovery),
 * so that clients of a facilitator's discovery (the @x402/extensions
 * withBazaar client) can use this service as a source:
 *
 *   GET /discovery/resources  the routes in route ID order, filtered, paged
 *                             by offset: {x402Version, items, pagination
 *                             {limit, offset, total}, unappliedFilters}
 *   GET /discovery/search     the same routes ranked for query by the
 *                             discovery engine (discovery_rank), paged by
 *                             cursor: {x402Version, resources,
 *                             partialResults, pagination {limit, cursor},
 *                             unappliedFilters}
 *
 * Items are the Bazaar DiscoveryResource: for a route the catalog lists,
 * the listing as synced (catalog_resources.item_json); for a route only a
 * signed context describes, its URL, method and summary with no accepts.
 * Filters name what the catalog says (type, payTo, scheme, network,
 * extensions, asset, urlSubstring, maxUsdPrice, tags); a filter this
 * service cannot apply (bundleSlugs, curatedOnly) is named in
 * unappliedFilters, never silently ignored. Free, in the discovery rate
 * class; nothing listed is fetched, paid or called.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bazaar.h"
#include "catalog.h"
#include "corpus.h"
#include "db.h"
#include "dbfail.h"
#include "decimal.h"
#include "discovery.h"
#include "hex.h"
#include "json.h"
#include "search.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

#define RANKED_MAX 10000        /* results a search ranks at most; more make partialResults */
#define TAGS_MAX 5

struct filter {
	const char *type, *scheme, *ext, *asset, *url_sub;
	char pay_to[130], network[70];
	bool has_max;
	char max_atomic[100];
	char tags[TAGS_MAX][41];
	size_t ntags;
};

/* Whether the comma-separated list holds v (case-insensitively with ci). */
static bool
list_has(const char *list, const char *v, bool ci)
{
	size_t n = strlen(v);

	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");

		if (l == n && (ci ? strncasecmp(p, v, n) : strncmp(p, v, n)) == 0)
			return true;
		p += l;
		if (*p == ',')
			p++;
	}
	return false;
}

static bool
contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

/* A tag among the space-separated words of tags, as a whole word run, any case. */
static bool
has_tag(const char *tags, const char *tag)
{
	size_t n = strlen(tag);

	for (const char *p = tags; *p; p++)
		if ((p == tags || p[-1] == ' ') && strncasecmp(p, tag, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* The display USDC price as atomic units (6 decimals) into out[cap]; -1 when it is none. */
static int
atomic_usdc(const char *display, char *out, size_t cap)
{
	struct decimal d;

	if (display == NULL || *display == '\0' || decimal_parse(display, strlen(display), &d) != DECIMAL_OK)
		return -1;
	return decimal_to_atomic(&d, 6, out, cap) == DECIMAL_OK ? 0 : -1;
}

/* a <= b for decimal digit strings without leading zeros. */
static bool
atomic_le(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la != lb ? la < lb : strcmp(a, b) <= 0;
}

static bool
keep(const struct cand *c, void *arg)
{
	const struct filter *f = arg;

	if (f->type && strcmp(f->type, "http") != 0)
		return false;
	if (f->pay_to[0] && !list_has(cand_fact(c, CF_PAY_TOS), f->pay_to, true))
		return false;
	if (f->scheme && !list_has(cand_fact(c, CF_SCHEMES), f->scheme, false))
		return false;
	if (f->network[0] && !list_has(cand_fact(c, CF_NETWORKS), f->network, false))
		return false;
	/* A route only a context describes is served with the bazaar extension (its method). */
	if (f->ext && !(c->facts ? list_has(cand_fact(c, CF_EXTENSIONS), f->ext, false) :
	    strcmp(f->ext, "bazaar") == 0))
		return false;
	if (f->asset && strcasecmp(cand_fact(c, CF_ASSET), f->asset) != 0)
		return false;
	if (f->url_sub && !contains_ci(c->url, f->url_sub))
		return false;
	if (f->has_max) {
		char a[100];

		if (atomic_usdc(c->price_usdc, a, sizeof(a)) < 0 || !atomic_le(a, f->max_atomic))
			return false;
	}
	if (f->ntags) {
		size_t i;

		for (i = 0; i < f->ntags; i++)
			if (has_tag(cand_fact(c, CF_TAGS), f->tags[i]))
				break;
		if (i == f->ntags)
			return false;
	}
	return true;
}

static const char *
text_of(struct req *r, const char *name)
{
	const struct value *v = req_val(r, name);

	return v && v->present && v->text[0] ? v->text : NULL;
}

/*
 * The filters of the request into *f and the names of those it cannot
 * apply into unapplied; ERR_NONE or the 400 written to w.
 */
static enum err
read_filters(struct req *r, struct resp *w, struct filter *f, json_object *unapplied)
{
	static const char *const unsupported[] = { "bundleSlugs", "curatedOnly", NULL };
	const char *v;

	memset(f, 0, sizeof(*f));
	f->type = text_of(r, "type");
	f->scheme = text_of(r, "scheme");
	f->ext = text_of(r, "extensions");
	f->asset = text_of(r, "asset");
	f->url_sub = text_of(r, "urlSubstring");
	if ((v = text_of(r, "payTo")) != NULL) {
		size_t i;

		for (i = 0; v[i] && i + 1 < sizeof(f->pay_to); i++)
			f->pay_to[i] = (char)tolower((unsigned char)v[i]);
		f->pay_to[i] = '\0';
	}
	if ((v = text_of(r, "network")) != NULL)
		snprintf(f->network, sizeof(f->network), "%s", catalog_network_caip2(v));
	if ((v = text_of(r, "maxUsdPrice")) != NULL) {
		if (atomic_usdc(v, f->max_atomic, sizeof(f->max_atomic)) < 0)
			return resp_fail(w, ERR_INVALID_FIELD, "maxUsdPrice", "Invalid maxUsdPrice: it has more "
			    "than the 6 decimals of USDC.");
		f->has_max = true;
	}
	if ((v = text_of(r, "tags")) != NULL) {
		for (const char *p = v; *p;) {
			size_t l = strcspn(p, ",");

			if (l > 40 || f->ntags == TAGS_MAX)
				return resp_fail(w, ERR_INVALID_FIELD, "tags", "Invalid tags: at most %d "
				    "comma-separated tags of up to 40 characters each.", TAGS_MAX);
			if (l > 0) {
				memcpy(f->tags[f->ntags], p, l);
				f->tags[f->ntags++][l] = '\0';
			}
			p += l;
			if (*p == ',')
				p++;
		}
	}
	for (size_t i = 0; unsupported[i]; i++)
		if (text_of(r, unsupported[i]))
			json_object_array_add(unapplied, json_object_new_string(unsupported[i]));
	return ERR_NONE;
}

/* What a page needs of an entry, copied out under corpus_lock. */
struct picked {
	uint8_t rid[32];
	bool listed;                /* the catalog lists it: its item is read from the database */
	char method[16], checked[32];
	char *url, *summary;
};

static void
picked_free(struct picked *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].url);
		free(p[i].summary);
	}
	free(p);
}

static char *
dup_or_empty(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	char *d = malloc(n + 1);

	if (d) {
		if (n)
			memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* The item of a route only a signed context describes (or a listing whose item is not kept). */
static json_object *
context_item(const struct picked *p)
{
	json_object *o = json_object_new_object(), *ext = json_object_new_object(),
	    *bz = json_object_new_object(), *info = json_object_new_object(), *in = json_object_new_object();
	const char *host = strstr(p->url, "://");
	char h[256] = "";

	if (host) {
		host += 3;
		snprintf(h, sizeof(h), "%.*s", (int)strcspn(host, "/?#"), host);
	}
	json_object_object_add(o, "resource", json_object_new_string(p->url));
	json_object_object_add(o, "type", json_object_new_string("http"));
	json_object_object_add(o, "x402Version", json_object_new_int(2));
	json_object_object_add(o, "accepts", json_object_new_array());
	json_object_object_add(o, "lastUpdated", json_object_new_string(p->checked));
	json_object_object_add(o, "description", json_object_new_string(p->summary));
	if (h[0])
		json_object_object_add(o, "serviceName", json_object_new_string(h));
	json_object_object_add(in, "type", json_object_new_string("http"));
	json_object_object_add(in, "method", json_object_new_string(p->method));
	json_object_object_add(info, "input", in);
	json_object_object_add(bz, "info", info);
	json_object_object_add(ext, "bazaar", bz);
	json_object_object_add(o, "extensions", ext);
	return o;
}

/* The page's items, in order, into arr: the listed ones' items from the database. */
static enum db_rc
page_items(struct req *r, const struct picked *p, size_t n, json_object *arr)
{
	json_object **items = calloc(n + 1, sizeof(*items));
	char *qb = malloc(128 * 1024);
	struct sql q;
	MYSQL_RES *rs = NULL;
	MYSQL_ROW row;
	size_t listed = 0;
	enum db_rc rc = DB_OK;

	if (items == NULL || qb == NULL) {
		free(items);
		free(qb);
		return DB_ERROR;
	}
	sql_on(&q, qb, 128 * 1024);
	sql_add(&q, "SELECT route_id, item_json FROM catalog_resources WHERE item_json IS NOT NULL AND route_id IN (");
	for (size_t i = 0; i < n; i++)
		if (p[i].listed) {
			if (listed++)
				sql_add(&q, ", ");
			sql_add(&q, "?", SQL_BYTES(p[i].rid, 32));
		}
	sql_add(&q, ") ORDER BY item_key");
	if (listed && (rc = db_query(r->db, &q, &rs)) == DB_OK) {
		while (rs && (row = mysql_fetch_row(rs)) != NULL) {
			unsigned long *len = mysql_fetch_lengths(rs);
			json_object *o = NULL;
			struct json_error je;

			if (len[0] != 32 || row[1] == NULL)
				continue;
			for (size_t i = 0; i < n; i++)
				if (p[i].listed && items[i] == NULL && memcmp(p[i].rid, row[0], 32) == 0) {
					if (json_parse_strict(row[1], len[1], NULL, &o, &je) == 0)
						items[i] = o;
					break;
				}
		}
	}
	if (rs)
		mysql_free_result(rs);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, items[i] ? items[i] : context_item(&p[i]));
	free(items);
	free(qb);
	return rc;
}

/*
 * Rank (query non-NULL) or list the corpus under the filters and copy out
 * the entries from `from`, at most limit: *picked, *npicked, and how many
 * matched in *matched. ERR_NONE or the error written to w.
 */
static enum err
select_page(struct req *r, struct resp *w, const char *query, const struct filter *f, uint64_t from,
    uint64_t limit, struct picked **picked, size_t *npicked, size_t *matched)
{
	struct search_stemmer st;
	struct search_query *sq = NULL;
	struct discovery_hit *hits = NULL;
	struct corpus *k;
	size_t nh = 0;
	enum db_rc rc;
	enum err e = ERR_NONE;

	*picked = NULL;
	*npicked = *matched = 0;
	if (query && search_stemmer_init(&st) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	rc = corpus_acquire(r, &k);
	if (rc != DB_OK) {
		e = rc == DB_UNAVAILABLE ? resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, "Discovery cannot "
		    "answer while its route descriptions are unavailable; this is not an empty result.") :
		    db_fail(w, rc);
		goto out;
	}
	if (query) {
		if ((sq = malloc(sizeof(*sq))) == NULL ||
		    search_query_parse(&k->ix, &st, query, strlen(query), sq) < 0 ||
		    discovery_rank(k, sq, keep, (void *)f, &hits, &nh) < 0) {
			e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
			goto out;
		}
	} else {
		/* Route ID order: the corpus's entries are sorted by it. */
		if ((hits = malloc(((size_t)k->n + 1) * sizeof(*hits))) == NULL) {
			e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
			goto out;
		}
		for (size_t i = 0; i < k->n; i++)
			if (keep(&k->e[i], (void *)f))
				hits[nh++] = (struct discovery_hit){ .doc = (uint32_t)i };
	}
	*matched = nh;
	if (from < nh) {
		size_t n = nh - from < limit ? nh - (size_t)from : (size_t)limit;
		struct picked *p = calloc(n + 1, sizeof(*p));

		if (p == NULL) {
			e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			const struct cand *c = &k->e[hits[from + i].doc];

			memcpy(p[i].rid, c->route_id, 32);
			p[i].listed = c->facts != NULL;
			snprintf(p[i].method, sizeof(p[i].method), "%s", c->method);
			snprintf(p[i].checked, sizeof(p[i].checked), "%s", c->checked_at);
			p[i].url = dup_or_empty(c->url);
			p[i].summary = dup_or_empty(c->summary && *c->summary ? c->summary : c->title);
			if (p[i].url == NULL || p[i].summary == NULL) {
				picked_free(p, n);
				e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
				goto out;
			}
		}
		*picked = p;
		*npicked = n;
	}
out:
	corpus_release();
	free(hits);
	free(sq);
	if (query)
		search_stemmer_release(&st);
	return e;
}

/*
 * select_page, then the page's items: *items (the caller's) and the match
 * count. ERR_NONE or the error written to w (unapplied is put then).
 */
static enum err
page(struct req *r, struct resp *w, const char *query, const struct filter *f, uint64_t from,
    uint64_t limit, json_object *unapplied, json_object **items, size_t *np, size_t *matched)
{
	struct picked *p;
	enum err e = select_page(r, w, query, f, from, limit, &p, np, matched);
	enum db_rc rc;

	*items = NULL;
	if (e != ERR_NONE) {
		json_object_put(unapplied);
		return e;
	}
	*items = json_object_new_array();
	rc = page_items(r, p, *np, *items);
	picked_free(p, *np);
	if (rc != DB_OK) {
		json_object_put(*items);
		json_object_put(unapplied);
		*items = NULL;
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, "The listings cannot be read now; this is "
		    "not an empty result.");
	}
	return ERR_NONE;
}

static enum err
answer(struct resp *w, struct req *r, json_object *o)
{
	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	return resp_json(w, 200, o) < 0 ? resp_fail(w, ERR_INTERNAL, NULL, NULL) : ERR_NONE;
}

enum err
h_bazaar_resources_get(struct req *r, struct resp *w)
{
	uint64_t limit = req_val(r, "limit")->u, offset = req_val(r, "offset")->u;
	json_object *unapplied = json_object_new_array(), *o, *items, *pg;
	struct filter f;
	size_t np, matched;
	enum err e;

	if ((e = read_filters(r, w, &f, unapplied)) != ERR_NONE) {
		json_object_put(unapplied);
		return e;
	}
	if ((e = page(r, w, NULL, &f, offset, limit, unapplied, &items, &np, &matched)) != ERR_NONE)
		return e;
	o = json_object_new_object();
	json_object_object_add(o, "x402Version", json_object_new_int(2));
	json_object_object_add(o, "items", items);
	pg = json_object_new_object();
	json_object_object_add(pg, "limit", json_object_new_int64((int64_t)limit));
	json_object_object_add(pg, "offset", json_object_new_int64((int64_t)offset));
	json_object_object_add(pg, "total", json_object_new_int64((int64_t)matched));
	json_object_object_add(o, "pagination", pg);
	json_object_object_add(o, "unappliedFilters", unapplied);
	return answer(w, r, o);
}

enum err
h_bazaar_search_get(struct req *r, struct resp *w)
{
	const char *query = text_of(r, "query"), *cursor = text_of(r, "cursor");
	uint64_t limit = req_val(r, "limit")->u;
	json_object *unapplied = json_object_new_array(), *o, *items, *pg;
	const char *parts[13];
	struct filter f;
	size_t np, matched, nparts = 0;
	uint32_t from = 0;
	char tag[17], ctag[17], next[BAZAAR_CURSOR_MAX];
	enum err e;

	if ((e = read_filters(r, w, &f, unapplied)) != ERR_NONE) {
		json_object_put(unapplied);
		return e;
	}
	/* The cursor belongs to this query and these filters only. */
	parts[nparts++] = query ? query : "";
	parts[nparts++] = f.type;
	parts[nparts++] = f.pay_to;
	parts[nparts++] = f.scheme;
	parts[nparts++] = f.network;
	parts[nparts++] = f.ext;
	parts[nparts++] = f.asset;
	parts[nparts++] = f.url_sub;
	parts[nparts++] = f.has_max ? f.max_atomic : NULL;
	parts[nparts++] = text_of(r, "tags");
	bazaar_query_tag(parts, nparts, tag);
	if (cursor) {
		if (bazaar_cursor_parse(cursor, &from, ctag) < 0) {
			json_object_put(unapplied);
			return resp_fail(w, ERR_INVALID_FIELD, "cursor", "Invalid cursor: pass back the "
			    "pagination.cursor of the previous page unchanged.");
		}
		if (strcmp(ctag, tag) != 0) {
			json_object_put(unapplied);
			return resp_fail(w, ERR_INVALID_FIELD, "cursor", "Invalid cursor: it belongs to another "
			    "query or other filters.");
		}
	}
	if ((e = page(r, w, query ? query : "", &f, from, limit, unapplied, &items, &np, &matched)) != ERR_NONE)
		return e;
	o = json_object_new_object();
	json_object_object_add(o, "x402Version", json_object_new_int(2));
	json_object_object_add(o, "resources", items);
	json_object_object_add(o, "partialResults", json_object_new_boolean(matched > RANKED_MAX));
	pg = json_object_new_object();
	json_object_object_add(pg, "limit", json_object_new_int64((int64_t)limit));
	if ((uint64_t)from + np < (matched < RANKED_MAX ? matched : RANKED_MAX) &&
	    bazaar_cursor_format(from + (uint32_t)np, tag, next, sizeof(next)) == 0)
		json_object_object_add(pg, "cursor", json_object_new_string(next));
	else
		json_object_object_add(pg, "cursor", NULL);
	json_object_object_add(o, "pagination", pg);
	json_object_object_add(o, "unappliedFilters", unapplied);
	return answer(w, r, o);
}
