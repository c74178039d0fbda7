/*
 * catalogsync.h: the x402 network catalog's sources pulled into MariaDB
 * (`waymark catalog-sync`), and what each source gave (`waymark catalog
 * status`). docs/PROTOCOL.md, Network catalog, says what is kept; the
 * tables are sql/004_x402_catalog.sql and sql/024_catalog_sources.sql.
 *
 * One run of a source reads its Bazaar-compatible discovery API page by
 * page (GET {source}/discovery/resources?type=http&limit=&offset=, one
 * connection, a pause between pages, Retry-After honored) into
 * catalog_stage, memory bounded by one page. Only a run that read the
 * source to its end applies what it staged, in batches of keys: listings
 * upserted (a route listed by several sources is one catalog_resources row
 * with a catalog_listings row per source, first and last seen), listings
 * missing from the source's last three complete runs retired. A run that
 * fails changes nothing of its source; a run cut short while applying is
 * applied by the source's next run before it reads anything (every step
 * is idempotent). Run one sync at a time per database (the stack runs one
 * loop on one host).
 */
#ifndef WAYMARK_CATALOGSYNC_H
#define WAYMARK_CATALOGSYNC_H

#include <stdint.h>
#include <stdio.h>

#include "db.h"

/* A listing missing from this many complete runs of its source in a row is retired. */
#define CATALOG_RETIRE_RUNS 3

struct catalog_sync_opts {
	long timeout_ms;            /* one page request */
	uint64_t pace_ms;           /* pause between two pages of one source */
	uint64_t max_listings;      /* a source listing more fails its run */
	unsigned page_limit;        /* items asked for per page (a source may give fewer) */
	unsigned retry_max;         /* tries of one page answered 429 or 503, Retry-After apart */
	uint64_t retry_wait_max_s;  /* the longest Retry-After waited for; longer fails the run */
};

struct catalog_sync_result {
	uint64_t generation;
	unsigned pages, seen, stored, rejected, retired;
	char err[512];              /* "" when the run completed */
};

/*
 * One run of the source at url (catalog_sources row made on first sight).
 * 0 when it completed and was applied; -1 with res->err set when it failed
 * (nothing of the source changed, the run recorded as failed).
 */
int catalog_sync_source(struct db *d, const char *url, const struct catalog_sync_opts *o,
    struct catalog_sync_result *res);

/*
 * Drop the listings of sources not among urls[0..n), and the catalog's
 * routes no source lists any more (pre-024 rows included). 0, or -1 with
 * a reason in err[cap].
 */
int catalog_sync_forget(struct db *d, char *const urls[], size_t n, char *err, size_t cap);

/*
 * Print the catalog's state to out: with what NULL or "", each source's
 * last runs, listing counts and refused listings by reason; with a source
 * URL, that source's refused listings one per line; with a route ID (64
 * hex digits, 0x optional), the sources listing that route and since when.
 * 0, 1 when what names nothing known, -1 on a database failure.
 */
int catalog_status(struct db *d, const char *what, FILE *out);

#endif
