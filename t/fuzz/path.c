/*
 * libFuzzer target for request paths and query strings: the route match
 * of the dispatch table (lib/endpoint.c over handlers/table.c), strict
 * percent-decoding (lib/url.c url_pct_decode) and the field validators of
 * the matched row (lib/valid.c), which is what the gatekeeper runs on
 * every request before a handler. The input is method, path and query
 * separated by NUL bytes.
 *
 * Invariants: a found row matches the path, has the method asked for and
 * as many decoded, NUL-free parameters as its pattern has "{name}"
 * segments; a wrong method means some row has the path and not the
 * method; no path means no row matches. A decoded component is never
 * longer than its input, holds no NUL, and re-encoding it decodes to the
 * same bytes. A validator accepts, or refuses with one UTF-8 sentence.
 */
#include "endpoint.h"
#include "fuzz.h"
#include "http.h"
#include "pool.h"
#include "table.h"
#include "url.h"
#include "utf8.h"
#include "valid.h"
#include "banned.h"

/* Percent-encode s[0..n) (every byte but unreserved ones) into out[3n + 1]. */
static size_t
pct_encode(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("-._~", c) != NULL) {
			out[k++] = (char)c;
		} else {
			out[k++] = '%';
			out[k++] = hex[c >> 4];
			out[k++] = hex[c & 15];
		}
	}
	out[k] = '\0';
	return k;
}

/* Decode one query component; check the decoder's promises. NULL when refused. */
static char *
decode(const char *s, size_t n, size_t *outlen)
{
	char *out = malloc(n + 1), *enc, *again;
	size_t m;

	CHECK(out != NULL);
	if (url_pct_decode(s, n, true, out, outlen) < 0) {
		free(out);
		return NULL;
	}
	CHECK(*outlen <= n && out[*outlen] == '\0' && memchr(out, '\0', *outlen) == NULL);
	enc = malloc(3 * *outlen + 1);
	again = malloc(3 * *outlen + 1);
	CHECK(enc != NULL && again != NULL);
	m = pct_encode(out, *outlen, enc);
	CHECK(url_pct_decode(enc, m, true, again, &m) == 0 && m == *outlen && memcmp(again, out, m) == 0);
	free(enc);
	free(again);
	return out;
}

static void
fields(const struct endpoint *ep, const char *query, size_t qlen, struct pool *pool)
{
	const char *p = query, *end = query + qlen;

	while (p < end) {
		const char *amp = memchr(p, '&', (size_t)(end - p)), *stop = amp ? amp : end;
		const char *eq = memchr(p, '=', (size_t)(stop - p));
		size_t klen, vlen;
		char *k = decode(p, (size_t)((eq ? eq : stop) - p), &klen), *v = NULL;

		if (k != NULL && eq != NULL)
			v = decode(eq + 1, (size_t)(stop - eq - 1), &vlen);
		for (const struct field *f = ep ? ep->fields : NULL; f && f->name && k && v; f++) {
			struct value val;
			char msg[256];
			enum err e;

			if (f->src != VS_QUERY || strcmp(f->name, k) != 0)
				continue;
			memset(&val, 0, sizeof(val));
			msg[0] = '\0';
			e = valid_text(f, v, vlen, pool, &val, msg, sizeof(msg));
			CHECK(e == ERR_NONE || e == ERR_INVALID_FIELD);
			if (e != ERR_NONE)
				CHECK(fuzz_cstr_ok(msg, sizeof(msg)) && msg[0] != '\0');
		}
		free(k);
		free(v);
		p = stop + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *part[3], *copy;
	size_t len[3], np = 0;
	struct pool pool;
	struct path_param params[REQ_MAX_PARAMS];
	const struct endpoint *ep = NULL;
	enum http_method m;
	unsigned allow = 0;
	enum ep_match rc;

	copy = fuzz_split_n(data, size, 3, part, len);
	pool_init(&pool, 1 << 20);
	m = http_method_parse(part[0]);
	rc = endpoint_find(endpoints, nendpoints, m, part[1], &pool, &ep, params, &np, &allow);
	switch (rc) {
	case EP_FOUND:
		CHECK(ep >= endpoints && ep < endpoints + nendpoints && ep->method == m);
		CHECK(endpoint_path_matches(ep->pattern, part[1]));
		CHECK(np == endpoint_param_count(ep->pattern) && np <= REQ_MAX_PARAMS);
		for (size_t i = 0; i < np; i++)
			CHECK(params[i].name != NULL && params[i].value != NULL &&
			    strlen(params[i].value) == params[i].len && params[i].len <= strlen(part[1]));
		break;
	case EP_WRONG_METHOD:
		CHECK(allow != 0 && (m == HM__MAX || (allow & (1u << m)) == 0));
		break;
	case EP_NO_PATH:
		for (size_t i = 0; i < nendpoints; i++)
			CHECK(!endpoint_path_matches(endpoints[i].pattern, part[1]) || endpoints[i].method == m);
		ep = NULL;
		break;
	default:
		abort();
	}
	/* QUERY_STRING is a C string: the query ends at a NUL. */
	fields(ep, part[2], strlen(part[2]), &pool);
	pool_release(&pool);
	free(copy);
	return 0;
}
