// Several Bazaar-compatible discovery APIs on one port, for the catalog's
// multi-source tests and benchmark: GET /NAME/discovery/resources
// ?type=http&limit=&offset= pages through source NAME's listing.
// Usage: node catalog-sources.mjs PORT CONTROL_FILE   (prints "ready")
// CONTROL_FILE (JSON, read again at every request, so a test changes a
// source between runs by rewriting it) maps each NAME to
//   { start, count,            listings start..start+count-1 (item i is
//                               the same route in every source)
//     drop: [from, to],        indexes left out (to exclusive)
//     failAt: OFFSET,          a page at this offset answers 500
//     busyOnce: true,          the first page request answers 429
//                              with Retry-After: 1 (once per server)
//     pageMax: N,              the most items a page gives (default 100)
//     edition: "x",            a word in every description (to see whether a run changed them)
//     refused: true,           after the listings, one item per refusal reason
//     noTotal: true }          pages without pagination.total
// GET /NAME/stats answers {"requests": n, "busy": n} for that source.
import http from 'node:http';
import fs from 'node:fs';

const port = Number(process.argv[2]);
const control = process.argv[3];
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const topics = ['weather forecast', 'currency exchange rates', 'translation', 'image captioning',
  'stock quotes', 'geocoding', 'email validation', 'sanctions screening'];
const stats = {};
let busyDone = false;

function item(i, edition) {
  const topic = topics[i % topics.length];
  const slug = topic.replace(/ /g, '-');
  return {
    resource: `https://api${i}.${slug}.example.com/v2/${slug}`,
    type: 'http', x402Version: 2,
    description: `Paid ${topic} endpoint number ${i}${edition ? ` (${edition})` : ''}`,
    serviceName: `Provider ${i % 977} ${topic}`,
    tags: [topic.split(' ')[0], 'paid'],
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: String(1000 + (i % 50) * 10), asset: USDC,
      payTo: '0x' + ((i % 4000) + 1).toString(16).padStart(40, '0'), maxTimeoutSeconds: 60 }],
    extensions: { bazaar: { info: { input: { type: 'http', method: 'GET', queryParams: { city: 'Lisbon', units: 'metric' } },
      output: { type: 'json', example: topic === 'weather forecast' ? { temperature: 21 } : { value: 1 } } } } },
    lastUpdated: '2026-11-01T00:00:00Z',
  };
}

// One item per refusal reason the sync names (lib/catalog.h).
const refusedItems = [
  { resource: 'http://plain.example.com/x', type: 'http', x402Version: 2, description: 'not https' },
  { resource: 'https://192.168.1.9/x', type: 'http', x402Version: 2, description: 'private IP literal' },
  { resource: 'https://api.example.com/users/{id}', type: 'http', x402Version: 2, description: 'a route template',
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1', asset: USDC, payTo: '0x' + '22'.repeat(20) }] },
  { resource: 'https://nodesc.example.com/x', type: 'http', x402Version: 2,
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1', asset: USDC, payTo: '0x' + '22'.repeat(20) }] },
  { resource: 'https://solana.example.com/x', type: 'http', x402Version: 2, description: 'pays on Solana only',
    accepts: [{ scheme: 'exact', network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', amount: '1', asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', payTo: 'x' }] },
  { resource: 'https://points.example.com/x', type: 'http', x402Version: 2, description: 'pays in points',
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1', asset: 'points', payTo: '0x' + '22'.repeat(20) }] },
  { resource: 'https://huge.example.com/x', type: 'http', x402Version: 2, description: 'an oversized listing',
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1', asset: USDC, payTo: '0x' + '22'.repeat(20) }],
    extensions: { bazaar: { info: { input: { type: 'http', method: 'GET' }, output: { example: 'x'.repeat(20000) } } } } },
];

function listing(src) {
  const out = [];
  const [from, to] = src.drop ?? [0, 0];
  for (let i = src.start; i < src.start + src.count; i++)
    if (i < from || i >= to) out.push(i);
  return out;
}
const cache = new Map();   // name + control text -> listing indexes

const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const m = u.pathname.match(/^\/([a-z0-9]+)\/(discovery\/resources|stats)$/);
  let cfg;
  try { cfg = JSON.parse(fs.readFileSync(control, 'utf8')); } catch { cfg = {}; }
  const src = m && cfg[m[1]];
  if (!src) { res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such source"}'); return; }
  const st = (stats[m[1]] ??= { requests: 0, busy: 0 });
  if (m[2] === 'stats') { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(st)); return; }
  st.requests++;
  if (src.busyOnce && !busyDone) {
    busyDone = true; st.busy++;
    res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"slow down"}');
    return;
  }
  const limit = Math.min(Number(u.searchParams.get('limit') ?? 20), src.pageMax ?? 100);
  const offset = Number(u.searchParams.get('offset') ?? 0);
  if (src.failAt !== undefined && offset >= src.failAt) {
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"source down"}');
    return;
  }
  const key = m[1] + JSON.stringify(src);
  if (!cache.has(key)) cache.set(key, listing(src));
  const idx = cache.get(key);
  const all = idx.length + (src.refused ? refusedItems.length : 0);
  const page = [];
  for (let k = offset; k < Math.min(offset + limit, all); k++)
    page.push(k < idx.length ? item(idx[k], src.edition) : refusedItems[k - idx.length]);
  const pagination = src.noTotal ? { limit, offset } : { limit, offset, total: all };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ x402Version: 2, items: page, pagination }));
});
server.listen(port, '127.0.0.1', () => console.log('ready'));
