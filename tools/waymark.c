/*
 * waymark: the operator's tool.
 *
 *   waymark [-c config] config check       validate the configuration
 *   waymark [-c config] config get KEY...  print values (one per line)
 *   waymark config keys                    the key table: name, env, default, doc
 *   waymark [-c config] migrate [DIR]      apply pending sql/ migrations
 *   waymark routes list                    the dispatch table, one row per line
 *   waymark routes nginx                   nginx locations generated from it
 *   waymark routes nginx-http              their rate-limit zones (http level)
 *   waymark routes openapi [--reference]   the interface description (OpenAPI 3.1) of
 *                                          this configuration, or of the reference one
 *                                          docs/openapi.json holds
 *   waymark [-c config] catalog-sync       pull the x402 network catalog (catalog_urls)
 *   waymark [-c config] catalog status [URL|ROUTE_ID]
 *                                          each source's runs, listings and refusals
 *   waymark [-c config] publications-complete [MIN_AGE]
 *   waymark [-c config] profiles-prune
 *   waymark [-c config] private-tips-prune  delete unused private-tip blobs and old unlock nonces
 *   waymark keygen                         fresh secrets for the configuration (private_tip_key, mpp_secret)
 *   waymark [-c config] payments-reconcile [MIN_AGE]  settle stranded payment rows from the chain
 *                                          finish settled_pending paid review
 *                                          publications (docs/ARCHITECTURE.md)
 *
 * The config file comes from -c or WAYMARK_CONFIG; WAYMARK_* variables
 * override it. A file others may read or write is refused, as by the
 * workers: it holds the secrets (INSTALL section 3). Unlike the workers
 * and the indexer this tool keeps its caller's user: it never serves, and
 * the operator chooses who runs it (INSTALL section 11). Exit status: 0 ok, 1 failure, 2 usage or invalid config.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "buf.h"
#include "cabundle.h"
#include "catalog.h"
#include "catalogsync.h"
#include "config.h"
#include "hex.h"
#include "httpget.h"
#include "json.h"
#include "keccak.h"
#include "db.h"
#include "endpoint.h"
#include "migrate.h"
#include "openapi.h"
#include "privtips.h"
#include "profiles.h"
#include "paystate.h"
#include "publication.h"
#include "table.h"
#include "version.h"
#include "facilitator.h"
#include "ledger.h"
#include "paymeter.h"
#include "rpc.h"
#include "sig.h"
#include "siwxstore.h"
#include "banned.h"

static const char *const auth_names[AUTH__MAX] = {
	[AUTH_NONE] = "none", [AUTH_PAID] = "paid", [AUTH_SIWX] = "siwx", [AUTH_EIP712] = "eip712",
};

/* What nginx lets through beyond a row's body limit, for the worker to refuse itself. */
#define BODY_SLACK 65536

static int
usage(void)
{
	fprintf(stderr, "usage: waymark [-c config] config check|get KEY...|keys\n"
	    "       waymark [-c config] migrate [DIR]\n"
	    "       waymark routes list|nginx|nginx-http|openapi [--reference]\n"
	    "       waymark [-c config] catalog-sync\n"
	    "       waymark [-c config] catalog status [SOURCE_URL|ROUTE_ID]\n"
	    "       waymark [-c config] publications-complete [MIN_AGE_SECONDS]\n"
	    "       waymark [-c config] profiles-prune\n"
	    "       waymark [-c config] private-tips-prune\n"
	    "       waymark keygen\n"
	    "       waymark [-c config] payments-reconcile [MIN_AGE_SECONDS]\n"
	    "       waymark version\n");
	return 2;
}

static int
load(struct config *c, const char *path)
{
	char err[512];

	if (config_load(c, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark: %s\n", err);
		return -1;
	}
	return 0;
}

static int
cmd_config(const char *path, int argc, char **argv)
{
	struct config c;

	if (argc < 1)
		return usage();
	if (strcmp(argv[0], "keys") == 0) {
		char env[96];

		for (size_t i = 0; i < config_nkeys; i++)
			printf("%s\t%s\t%s\t%s\n", config_keys[i].name,
			    config_env_name(config_keys[i].name, env, sizeof(env)),
			    config_keys[i].def[0] ? config_keys[i].def : "(empty)", config_keys[i].doc);
		return 0;
	}
	if (load(&c, path) < 0)
		return 2;
	if (strcmp(argv[0], "check") == 0) {
		char err[1200];

		/* The workers read tls_ca_file at their start: it must be there (lib/cabundle.h). */
		if (cabundle_load(c.tls_ca_file, err, sizeof(err)) < 0) {
			fprintf(stderr, "waymark: %s\n", err);
			return 2;
		}
		cabundle_release();
		printf("config ok\n");
		return 0;
	}
	if (strcmp(argv[0], "get") == 0) {
		for (int i = 1; i < argc; i++) {
			char v[CONFIG_STR_MAX + 1];

			if (config_get(&c, argv[i], v, sizeof(v)) < 0) {
				fprintf(stderr, "waymark: unknown key %s\n", argv[i]);
				return 2;
			}
			printf("%s\n", v);
		}
		return 0;
	}
	return usage();
}

static void
print_line(const char *line)
{
	printf("%s\n", line);
}

static int
cmd_migrate(const char *path, int argc, char **argv)
{
	struct config c;
	struct db d;
	char err[512];
	int n;

	if (load(&c, path) < 0)
		return 2;
	migrate_open(&d, &c);
	if (db_connect(&d) != DB_OK) {
		fprintf(stderr, "waymark: migrate: cannot connect to the database: %s\n", d.err);
		return 1;
	}
	n = migrate_run(&d, argc > 0 ? argv[0] : "sql", print_line, err, sizeof(err));
	db_close(&d);
	mysql_library_end();
	if (n < 0) {
		fprintf(stderr, "waymark: %s\n", err);
		return 1;
	}
	printf("migrations: %d applied\n", n);
	return 0;
}

/* A pattern as an nginx location: exact when literal, else an anchored regex. */
static void
nginx_location(const char *pattern, char *out, size_t cap)
{
	size_t j = 0;

	if (endpoint_param_count(pattern) == 0) {
		snprintf(out, cap, "= %s", pattern);
		return;
	}
	j = (size_t)snprintf(out, cap, "~ ^");
	for (const char *p = pattern; *p && j + 8 < cap; p++) {
		if (*p == '{') {
			const char *close = strchr(p, '}');

			j += (size_t)snprintf(out + j, cap - j, "[^/]+");
			p = close ? close : p + strlen(p) - 1;
		} else {
			if (strchr(".+*?()|[]^$\\", *p))
				out[j++] = '\\';
			out[j++] = *p;
		}
	}
	snprintf(out + j, cap - j, "$");
}

/* nginx's wait for a remote-pool answer, in seconds (config_remote_timeout_ms, rounded up). */
static uint64_t
remote_timeout_s(const struct config *c)
{
	return (config_remote_timeout_ms(c) + 999) / 1000;
}

/*
 * The OpenAPI document (handlers/openapi.h), indented. --reference: the
 * document docs/openapi.json holds, of the built-in defaults (Base
 * mainnet, its USDC) with MPP offered; the Makefile runs it without any
 * WAYMARK_* variable. The placeholder that turns MPP on is never printed.
 */
static int
cmd_routes_openapi(const char *path, int argc, char **argv)
{
	struct config c;
	json_object *doc;
	const char *text;
	size_t len = 0;
	bool reference = argc == 2 && strcmp(argv[1], "--reference") == 0;

	if (argc > 2 || (argc == 2 && !reference))
		return usage();
	if (load(&c, reference ? NULL : path) < 0)
		return 2;
	if (reference)
		snprintf(c.mpp_secret, sizeof(c.mpp_secret), "%s", "reference-document-only-not-a-secret");
	doc = openapi_json(&c, endpoints, nendpoints);
	text = doc && !json_alloc_latched() ? json_object_to_json_string_length(doc,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE, &len) : NULL;
	OPENSSL_cleanse(c.mpp_secret, sizeof(c.mpp_secret));
	if (text == NULL || json_alloc_latched()) {
		fprintf(stderr, "waymark: routes openapi: out of memory\n");
		json_object_put(doc);
		return 1;
	}
	printf("%.*s\n", (int)len, text);
	json_object_put(doc);
	return 0;
}

/* Whether some row of the table has rate class r. */
static bool
rate_has_rows(enum rate_class r)
{
	for (size_t i = 0; i < nendpoints; i++)
		if (endpoints[i].rate == r)
			return true;
	return false;
}

/*
 * waymark-http.conf: the client key, and per limited class its zone, keyed
 * on the client only for requests of a row of that class. A location holds
 * rows of different classes under different methods (a paid read beside a
 * sign-in), so a location has no one rate class: each location says in
 * $waymark_rate which class each of its methods has (routes_nginx), and a
 * zone's key is empty, so limit_req counts nothing, for a method of another
 * class there.
 */
static void
routes_nginx_http(const struct config *c)
{
	printf("# Generated by `waymark routes nginx-http` from handlers/table.c and the\n"
	    "# rate_* keys of the configuration. Do not edit. Include inside the http\n"
	    "# block (as waymark-http.conf).\n"
	    "#\n"
	    "# The client a limit counts: its address, or for IPv6 its /64 (one host\n"
	    "# commonly holds a whole /64). nginx writes IPv6 in RFC 5952 form: four\n"
	    "# explicit leading groups are the /64; a '::' among them ends it (the\n"
	    "# rest is zeros, or when groups follow the '::' a wider prefix, which\n"
	    "# only makes the limit stricter). Dotted forms (IPv4, IPv4-mapped) count\n"
	    "# whole.\n"
	    "map $remote_addr $waymark_client {\n"
	    "    ~\\.                                                       $remote_addr;\n"
	    "    ~^(?<p64>[0-9a-f]+:[0-9a-f]+:[0-9a-f]+:[0-9a-f]+):          $p64;\n"
	    "    ~^(?<pre>[0-9a-f:]*?)::                                    $pre::;\n"
	    "    default                                                    $remote_addr;\n"
	    "}\n"
	    "#\n"
	    "# A rate class belongs to a row, a method and a path: one path may carry\n"
	    "# a paid read and a sign-in, or a free read and a signed write. Each\n"
	    "# limiting location of waymark-routes.conf sets $waymark_rate to its\n"
	    "# rows' classes as METHOD=class words (\"GET=- POST=signin\"), and a\n"
	    "# zone's key below is the client only when the request's method has\n"
	    "# the zone's class there; else it is empty, and limit_req counts no\n"
	    "# request whose key is empty. A preflight (OPTIONS) counts as the method\n"
	    "# it asks about; a method no row of the path has (answered 405) counts\n"
	    "# in no zone.\n");
	for (int k = RATE_NONE + 1; k < RATE__MAX; k++)
		if (rate_per_min(c, (enum rate_class)k) > 0 && rate_has_rows((enum rate_class)k)) {
			printf("map $request_method $waymark_rate_method {\n"
			    "    OPTIONS    $http_access_control_request_method;\n"
			    "    default    $request_method;\n"
			    "}\n");
			break;
		}
	for (int k = RATE_NONE + 1; k < RATE__MAX; k++) {
		uint64_t r = rate_per_min(c, (enum rate_class)k);
		const char *n = rate_name((enum rate_class)k);

		if (r == 0) {
			printf("# rate class %s: unlimited (rate_%s = 0)\n", n, n);
			continue;
		}
		if (!rate_has_rows((enum rate_class)k)) {
			printf("# rate class %s: no row has it\n", n);
			continue;
		}
		printf("map \"$waymark_rate_method $waymark_rate\" $waymark_key_%s {\n"
		    "    \"~^([A-Z]+) (.* )?\\1=%s( |$)\"    $waymark_client;\n"
		    "    default    \"\";\n"
		    "}\n"
		    "limit_req_zone $waymark_key_%s zone=waymark_%s:10m rate=%" PRIu64 "r/m;\n",
		    n, n, n, n, r);
	}
}

/*
 * waymark-routes.conf: one location per distinct path of the table, in
 * the table's order, with its pool, body limit and, where a row of the
 * path has a limited class, $waymark_rate (each row's METHOD=class) and
 * one limit_req per limited class present (routes_nginx_http). Returns 0,
 * or -1 (said on stderr) when a path has more rows than its lists hold.
 */
static int
routes_nginx(const struct config *c)
{
	printf("# Generated by `waymark routes nginx` from handlers/table.c. Do not edit.\n"
	    "# One location per endpoint path; everything else gets the JSON 404 of\n"
	    "# waymark-server.conf. Include inside the server block. Each path goes to\n"
	    "# its pool: waymark_remote for rows that may wait on the facilitator or\n"
	    "# the chain (paid, signed, chain-checked), waymark_workers for the rest.\n"
	    "# Each location takes bodies up to its rows' largest limit plus 64 KiB\n"
	    "# (the worker refuses what is over the limit in the row's own shape); rows\n"
	    "# without a body take 1k. Rates go by row, not by location: where a row\n"
	    "# of the path has a limited rate class, $waymark_rate gives each row's\n"
	    "# method and class, and the location has one limit_req per limited class\n"
	    "# among them, whose zone (waymark-http.conf, from `waymark routes\n"
	    "# nginx-http`) counts only the requests of that class's methods.\n"
	    "client_max_body_size 1k;\n");
	for (size_t i = 0; i < nendpoints; i++) {
		char loc[512], methods[128] = "", rates[256] = "";
		size_t mlen = 0, rlen = 0, body_max = 1024;
		bool dup = false, remote = false, limited[RATE__MAX] = { false };
		bool any = false;

		for (size_t k = 0; k < i; k++)
			if (strcmp(endpoints[k].pattern, endpoints[i].pattern) == 0)
				dup = true;
		if (dup)
			continue;
		for (size_t k = i; k < nendpoints; k++) {
			const struct endpoint *e = &endpoints[k];

			if (strcmp(e->pattern, endpoints[i].pattern) != 0)
				continue;
			mlen += (size_t)snprintf(methods + mlen, sizeof(methods) - mlen, "%s%s",
			    mlen ? " " : "", http_method_name(e->method));
			rlen += (size_t)snprintf(rates + rlen, sizeof(rates) - rlen, "%s%s=%s",
			    rlen ? " " : "", http_method_name(e->method), rate_name(e->rate));
			if (mlen >= sizeof(methods) || rlen >= sizeof(rates)) {
				fprintf(stderr, "waymark: routes nginx: %s has too many rows\n", e->pattern);
				return -1;
			}
			if (e->rate != RATE_NONE && rate_per_min(c, e->rate) > 0)
				limited[e->rate] = any = true;
			if (e->body_max > body_max)
				body_max = e->body_max;
			if (endpoint_remote(e))
				remote = true;
		}
		nginx_location(endpoints[i].pattern, loc, sizeof(loc));
		printf("location %s {  # %s\n", loc, methods);
		/* The row's own limit plus room: a body just over it still
		 * reaches the worker, which refuses it in the row's own error
		 * shape (A2A's, say); nginx stops only what is far beyond. */
		if (body_max > 1024)
			printf("    client_max_body_size %zu;\n", body_max + BODY_SLACK);
		if (any)
			printf("    set $waymark_rate \"%s\";\n", rates);
		for (int k = RATE_NONE + 1; k < RATE__MAX; k++)
			if (limited[k])
				printf("    limit_req zone=waymark_%s burst=%" PRIu64 " nodelay;\n",
				    rate_name((enum rate_class)k), rate_burst(c, (enum rate_class)k));
		printf("    include waymark-fastcgi.conf;\n");
		if (remote)
			printf("    fastcgi_pass waymark_remote;\n    fastcgi_read_timeout %" PRIu64 "s;\n",
			    remote_timeout_s(c));
		else
			printf("    fastcgi_pass waymark_workers;\n    fastcgi_read_timeout 60s;\n");
		printf("}\n");
	}
	return 0;
}

static int
cmd_routes(const char *path, int argc, char **argv)
{
	struct config c;

	if (argc < 1)
		return usage();
	if (strcmp(argv[0], "list") == 0) {
		for (size_t i = 0; i < nendpoints; i++) {
			const struct endpoint *e = &endpoints[i];

			printf("%s\t%s\t%s\t%s\t%s\t%zu\t%s\n", http_method_name(e->method), e->pattern,
			    e->id, auth_names[e->auth], e->price_usdc ? e->price_usdc : "0", e->body_max,
			    rate_name(e->rate));
		}
		return 0;
	}
	if (strcmp(argv[0], "openapi") == 0)
		return cmd_routes_openapi(path, argc, argv);
	if (strcmp(argv[0], "nginx-http") == 0) {
		if (load(&c, path) < 0)
			return 2;
		routes_nginx_http(&c);
		return 0;
	}
	if (strcmp(argv[0], "nginx") == 0) {
		if (load(&c, path) < 0)
			return 2;
		return routes_nginx(&c) < 0 ? 1 : 0;
	}
	return usage();
}

/*
 * Every configured source in turn (lib/catalogsync.h): one that fails
 * keeps its listings and the others still run; then the listings of
 * sources no longer configured go. Exit 0 when every source completed.
 */
static int
cmd_catalog_sync(const char *path)
{
	static char urls[CONFIG_CATALOG_SOURCES_MAX + 1][CONFIG_STR_MAX];
	char *list[CONFIG_CATALOG_SOURCES_MAX + 1], err[512];
	struct config c;
	struct db d;
	struct catalog_sync_opts o;
	size_t n = 0;
	int failed = 0;

	if (load(&c, path) < 0)
		return 2;
	while (n < CONFIG_CATALOG_SOURCES_MAX + 1 && config_catalog_source(&c, n, urls[n], sizeof(urls[n])) == 0) {
		list[n] = urls[n];
		n++;
	}
	if (n == 0) {
		printf("catalog: no catalog_urls configured; nothing to sync\n");
		return 0;
	}
	o = (struct catalog_sync_opts){ .timeout_ms = (long)c.rpc_timeout_ms, .pace_ms = c.catalog_pace_ms,
		.max_listings = c.catalog_max_listings, .page_limit = 100, .retry_max = 4,
		.retry_wait_max_s = 120 };
	db_init(&d, &c);
	if (db_connect(&d) != DB_OK) {
		fprintf(stderr, "waymark: catalog-sync: database: %s\n", d.err);
		db_close(&d);
		mysql_library_end();
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct catalog_sync_result res;

		if (catalog_sync_source(&d, urls[i], &o, &res) < 0) {
			fprintf(stderr, "waymark: catalog-sync: %s failed, its earlier listings kept: %s\n", urls[i],
			    res.err);
			failed++;
			continue;
		}
		printf("catalog: %s: %u pages, %u items seen, %u stored, %u rejected, %u retired\n", urls[i],
		    res.pages, res.seen, res.stored, res.rejected, res.retired);
	}
	if (catalog_sync_forget(&d, list, n, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark: catalog-sync: dropping sources no longer configured: %s\n", err);
		failed++;
	}
	db_close(&d);
	mysql_library_end();
	return failed ? 1 : 0;
}

static int
cmd_catalog_status(const char *path, const char *what)
{
	struct config c;
	struct db d;
	int rc;

	if (load(&c, path) < 0)
		return 2;
	db_init(&d, &c);
	if (db_connect(&d) != DB_OK) {
		fprintf(stderr, "waymark: catalog status: database: %s\n", d.err);
		db_close(&d);
		mysql_library_end();
		return 1;
	}
	rc = catalog_status(&d, what, stdout);
	if (rc < 0)
		fprintf(stderr, "waymark: catalog status: database: %s\n", d.err);
	db_close(&d);
	mysql_library_end();
	return rc < 0 ? 1 : rc;
}

/*
 * The scheduled task (docs/ARCHITECTURE.md, Paid publication): publish every
 * settled_pending review
 * publication untouched for MIN_AGE seconds (default 60, so a client's own
 * identical retry usually comes first; either way each publishes once).
 */
static int
cmd_publications_complete(const char *path, int argc, char **argv)
{
	struct config c;
	struct db d;
	unsigned done = 0, failed = 0;
	char *end = NULL;
	unsigned long age = 60;
	int status = 1;

	if (argc > 1 || (argc == 1 && ((age = strtoul(argv[0], &end, 10)) > 86400 || *end != '\0' ||
	    end == argv[0])))
		return usage();
	if (load(&c, path) < 0)
		return 2;
	db_init(&d, &c);
	if (db_connect(&d) != DB_OK) {
		fprintf(stderr, "waymark: publications-complete: database: %s\n", d.err);
	} else if (publication_complete_pending(&d, &c, (unsigned)age, &done, &failed) != DB_OK) {
		fprintf(stderr, "waymark: publications-complete: database: %s\n", d.err);
	} else {
		printf("publications: %u completed, %u not completed\n", done, failed);
		status = failed ? 1 : 0;
	}
	db_close(&d);
	rpc_thread_release();
	facilitator_thread_release();
	mysql_library_end();
	return status;
}

/*
 * The scheduled task (docs/ARCHITECTURE.md, Wallet profiles): expire
 * pending wallet links past their five minutes, delete those expired a
 * week ago, and SIWX challenges that can no longer be used (unused ones
 * two minutes after their expiry, used ones a day after; lib/siwxstore.h).
 */
static int
cmd_profiles_prune(const char *path, int argc)
{
	struct config c;
	struct db d;
	uint64_t expired = 0, pruned = 0, challenges = 0;
	int64_t now = (int64_t)time(NULL);
	int status = 1;

	if (argc != 0)
		return usage();
	if (load(&c, path) < 0)
		return 2;
	db_init(&d, &c);
	if (db_connect(&d) != DB_OK || links_prune(&d, now, &expired, &pruned) != DB_OK ||
	    siwxstore_prune(&d, now, SIZE_MAX, &challenges) < 0) {
		fprintf(stderr, "waymark: profiles-prune: database: %s\n", d.err);
	} else {
		printf("profiles: %" PRIu64 " links expired, %" PRIu64 " pruned\n", expired, pruned);
		printf("sign-in challenges: %" PRIu64 " deleted\n", challenges);
		status = 0;
	}
	db_close(&d);
	mysql_library_end();
	return status;
}

/*
 * The scheduled task of private tips (docs/PROTOCOL.md, Private tips):
 * blobs no indexed tip carries, a week after their upload, and unlock
 * nonces expired a day ago.
 */
static int
cmd_private_tips_prune(const char *path, int argc)
{
	struct config c;
	struct db d;
	uint64_t blobs = 0, nonces = 0;
	int status = 1;

	if (argc != 0)
		return usage();
	if (load(&c, path) < 0)
		return 2;
	db_init(&d, &c);
	if (db_connect(&d) != DB_OK ||
	    privtips_prune(&d, &c, (int64_t)time(NULL), &blobs, &nonces) != DB_OK) {
		fprintf(stderr, "waymark: private-tips-prune: database: %s\n", d.err);
	} else {
		printf("private tips: %" PRIu64 " unused blobs and %" PRIu64 " old nonces pruned\n", blobs,
		    nonces);
		status = 0;
	}
	db_close(&d);
	mysql_library_end();
	return status;
}

/*
 * Fresh secrets as configuration lines, from the kernel's random source:
 * private_tip_key and mpp_secret (32 bytes each as 64 hex digits). Keep
 * the file they go to readable by the service's user only (INSTALL);
 * every worker host of one service shares the same mpp_secret.
 */
static int
cmd_keygen(int argc)
{
	static const char *const names[] = { "private_tip_key", "mpp_secret" };
	uint8_t k[32];
	char hx[2 * sizeof(k) + 1];
	int status = 0;

	if (argc != 0)
		return usage();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && status == 0; i++) {
		if (getrandom(k, sizeof(k), 0) != (ssize_t)sizeof(k)) {
			fprintf(stderr, "waymark: keygen: no random bytes\n");
			status = 1;
			break;
		}
		printf("%s = %s\n", names[i], hex_digits(k, sizeof(k), hx));
	}
	OPENSSL_cleanse(k, sizeof(k));
	OPENSSL_cleanse(hx, sizeof(hx));
	return status;
}

/*
 * The scheduled task of the payment ledger (docs/ARCHITECTURE.md, Payment
 * state machine): rows of unknown outcome, and reserved rows whose request
 * died (untouched for MIN_AGE seconds, default 300), settled, voided or
 * expired from the chain, and refused settlements put to it again; then
 * failed and released rows older than payment_keep_s past their expiry,
 * and the failed-attempt counts of past minutes, deleted.
 */
static int
cmd_payments_reconcile(const char *path, int argc, char **argv)
{
	struct config c;
	struct db d;
	uint64_t min_age = 300, settled = 0, voided = 0, open = 0, pruned = 0, minutes = 0;
	uint64_t now = (uint64_t)time(NULL);
	char *end = NULL;
	int status = 1;

	if (argc > 1)
		return usage();
	if (argc == 1) {
		unsigned long long v = strtoull(argv[0], &end, 10);

		if (argv[0][0] < '0' || argv[0][0] > '9' || *end != '\0' || v > 86400 * 30)
			return usage();
		min_age = v;
	}
	if (load(&c, path) < 0)
		return 2;
	db_init(&d, &c);
	if (db_connect(&d) != DB_OK ||
	    paystate_reconcile(&d, &c, min_age, &settled, &voided, &open) != PAYSTATE_OK ||
	    LEDGER_OK != ledger_prune(&d, c.payment_keep_s, now, &pruned) ||
	    paymeter_prune(&d, now, &minutes) != DB_OK) {
		fprintf(stderr, "waymark: payments-reconcile: database: %s\n", d.err);
	} else {
		printf("payments: %" PRIu64 " settled from the chain, %" PRIu64 " void or expired, %" PRIu64
		    " still open, %" PRIu64 " old failed or released rows deleted\n", settled, voided, open,
		    pruned);
		status = 0;
	}
	db_close(&d);
	rpc_thread_release();
	mysql_library_end();
	return status;
}

int
main(int argc, char **argv)
{
	const char *path = getenv("WAYMARK_CONFIG");
	int opt;

	while ((opt = getopt(argc, argv, "+c:")) != -1) {
		if (opt != 'c')
			return usage();
		path = optarg;
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		return usage();
	/* Once, before anything recovers or signs (catalog offers, keygen): lib/sig.h. */
	if (sig_init() < 0) {
		fprintf(stderr, "waymark: cannot create the secp256k1 context\n");
		return 1;
	}
	if (strcmp(argv[0], "config") == 0)
		return cmd_config(path, argc - 1, argv + 1);
	if (strcmp(argv[0], "migrate") == 0)
		return cmd_migrate(path, argc - 1, argv + 1);
	if (strcmp(argv[0], "routes") == 0)
		return cmd_routes(path, argc - 1, argv + 1);
	if (strcmp(argv[0], "catalog-sync") == 0)
		return cmd_catalog_sync(path);
	if (strcmp(argv[0], "catalog") == 0 && argc >= 2 && argc <= 3 && strcmp(argv[1], "status") == 0)
		return cmd_catalog_status(path, argc == 3 ? argv[2] : NULL);
	if (strcmp(argv[0], "publications-complete") == 0)
		return cmd_publications_complete(path, argc - 1, argv + 1);
	if (strcmp(argv[0], "profiles-prune") == 0)
		return cmd_profiles_prune(path, argc - 1);
	if (strcmp(argv[0], "private-tips-prune") == 0)
		return cmd_private_tips_prune(path, argc - 1);
	if (strcmp(argv[0], "payments-reconcile") == 0)
		return cmd_payments_reconcile(path, argc - 1, argv + 1);
	if (strcmp(argv[0], "keygen") == 0)
		return cmd_keygen(argc - 1);
	if (strcmp(argv[0], "version") == 0) {
		printf("%s\n", WAYMARK_VERSION);
		return 0;
	}
	return usage();
}
