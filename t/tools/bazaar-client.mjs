// The unchanged Bazaar discovery client of @x402/extensions (withBazaar over
// @x402/core's HTTPFacilitatorClient, pinned in package.json) against
// waymark's /discovery/resources and /discovery/search.
// Usage: node bazaar-client.mjs URL QUERY [FILTERS_JSON]
// Lists page after page with offsets (limit 100) and searches QUERY page
// after page with the cursor (limit 20) until the cursor is null, both with
// FILTERS_JSON's filters, and prints one JSON report on stdout for
// t/0621-catalog-sources.t to check with jq: counts, the distinct
// resources seen, whether pages repeated an item, the first items and the
// last answers' top-level keys. Exits 1 when a request is refused.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { HTTPFacilitatorClient } from '@x402/core/http';
import { withBazaar } from '@x402/extensions/bazaar';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const [url, query, filtersJson] = argv;
  const filters = filtersJson ? JSON.parse(filtersJson) : {};
  const client = withBazaar(new HTTPFacilitatorClient({ url }));
  const report = { list: {}, search: {} };
  try {
    // Offset paging through the whole filtered list.
    const seen = new Set();
    let offset = 0, pages = 0, total = null, repeated = 0, last;
    for (;;) {
      last = await client.extensions.bazaar.listResources({ type: 'http', ...filters, limit: 100, offset });
      pages++;
      total = last.pagination.total;
      for (const it of last.items) { if (seen.has(it.resource)) repeated++; seen.add(it.resource); }
      if (pages === 1) report.list.first = last.items[0] ?? null;
      offset += last.items.length;
      if (last.items.length === 0 || offset >= total) break;
    }
    Object.assign(report.list, { pages, total, distinct: seen.size, repeated, keys: Object.keys(last).sort(),
      unappliedFilters: last.unappliedFilters });
    // Cursor paging through the whole ranking.
    const sseen = new Set();
    let cursor, spages = 0, srepeated = 0, s;
    for (;;) {
      s = await client.extensions.bazaar.search({ query, ...filters, limit: 20, ...(cursor ? { cursor } : {}) });
      spages++;
      for (const it of s.resources) { if (sseen.has(it.resource)) srepeated++; sseen.add(it.resource); }
      if (spages === 1) report.search.top = s.resources.slice(0, 3).map((it) => it.resource);
      cursor = s.pagination?.cursor;
      if (!cursor || spages > 2000) break;
    }
    Object.assign(report.search, { pages: spages, distinct: sseen.size, repeated: srepeated,
      partialResults: s.partialResults, keys: Object.keys(s).sort(), unappliedFilters: s.unappliedFilters });
  } catch (e) {
    report.error = String(e.message ?? e);
    io.out(JSON.stringify(report) + '\n');
    return 1;
  }
  io.out(JSON.stringify(report) + '\n');
  return 0;
}

cli(import.meta.url, main);
