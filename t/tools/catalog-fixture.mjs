// A Bazaar-compatible discovery API for the tests: GET /discovery/resources
// ?type=http&limit=&offset= pages through a deterministic listing of v1- and
// v2-shaped items, including items the sync must refuse or clean.
// Usage: node catalog-fixture.mjs PORT COUNT [offers] [--listing URL KEY]... [--only]
// (COUNT good items; prints "ready")
// With "offers", item 0's challenge also carries a signed x402 offer (the
// offer-receipt extension, EIP-712, signed with Anvil account #0) matching
// its accepts entry, as a resource server with receipts would list it.
// Each --listing adds a GET resource URL whose challenge pays KEY's address
// and carries an offer signed by KEY (an endpoint listing its own route).
// --only lists nothing else (no items the sync must refuse or clean).
import http from 'node:http';
import { privateKeyToAccount } from 'viem/accounts';

const port = Number(process.argv[2]);
const count = Number(process.argv[3] ?? 250);
const listings = [];
let only = false;
for (let i = 4; i < process.argv.length; i++) {
  if (process.argv[i] === '--listing') { listings.push({ url: process.argv[i + 1], key: process.argv[i + 2] }); i += 2; }
  else if (process.argv[i] === '--only') only = true;
}
const offerTypes = { Offer: [{ name: 'version', type: 'uint256' }, { name: 'resourceUrl', type: 'string' },
  { name: 'scheme', type: 'string' }, { name: 'network', type: 'string' }, { name: 'asset', type: 'string' },
  { name: 'payTo', type: 'string' }, { name: 'amount', type: 'string' }, { name: 'validUntil', type: 'uint256' }] };
// The offer-receipt extension of a challenge's accepts entry a, signed with key.
async function signedOffer(resourceUrl, a, key) {
  const payload = { version: 1, resourceUrl, scheme: a.scheme, network: a.network,
    asset: a.asset, payTo: a.payTo, amount: a.amount, validUntil: 0 };
  const signature = await privateKeyToAccount(key).signTypedData({ domain: { name: 'x402 offer', version: '1', chainId: 1 },
    primaryType: 'Offer', types: offerTypes, message: { ...payload, version: 1n, validUntil: 0n } });
  return { info: { offers: [{ format: 'eip712', acceptIndex: 0, payload, signature }] } };
}
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const topics = ['weather forecast', 'currency exchange rates', 'translation', 'image captioning', 'stock quotes'];

const items = [];
for (let i = 0; i < count; i++) {
  const topic = topics[i % topics.length];
  const host = `api${i}.${topic.split(' ')[0]}.example.com`;
  if (i % 2 === 0) {
    items.push({ // v2 shape
      resource: `https://${host}/v2/${topic.replace(/ /g, '-')}`,
      type: 'http', x402Version: 2,
      description: `Paid ${topic} endpoint number ${i}`,
      serviceName: `Service ${i} (${topic})`,
      accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: String(1000 * (i + 1)), asset: USDC,
        payTo: '0x' + (i + 1).toString(16).padStart(40, '0'), maxTimeoutSeconds: 60 }],
      extensions: { bazaar: { info: { input: { type: 'http', method: i % 4 === 0 ? 'GET' : 'POST' } } } },
      lastUpdated: '2026-11-01T00:00:00Z',
    });
  } else {
    items.push({ // v1 shape: everything inside accepts
      resource: `https://${host}/v1/${topic.replace(/ /g, '-')}`,
      type: 'http', x402Version: 1,
      accepts: [{ scheme: 'exact', network: 'base', maxAmountRequired: '2500', asset: USDC,
        payTo: '0x' + (i + 1).toString(16).padStart(40, '0'), resource: `https://${host}/v1/x`,
        description: `Legacy ${topic} listing ${i}`, mimeType: 'application/json',
        outputSchema: { input: { type: 'http', method: 'get' } } }],
      lastUpdated: 1761955200,
    });
  }
}
if (process.argv[4] === 'offers')
  items[0].extensions['offer-receipt'] = await signedOffer(items[0].resource, items[0].accepts[0],
    '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
for (const l of listings) {
  const u = new URL(l.url);
  const a = { scheme: 'exact', network: 'eip155:8453', amount: '10000', asset: USDC,
    payTo: privateKeyToAccount(l.key).address, maxTimeoutSeconds: 60 };
  items.push({ resource: l.url, type: 'http', x402Version: 2, description: `Paid endpoint at ${u.host}${u.pathname}`,
    serviceName: u.host, accepts: [a], extensions: { bazaar: { info: { input: { type: 'http', method: 'GET' } } },
      'offer-receipt': await signedOffer(l.url, a, l.key) }, lastUpdated: '2026-11-01T00:00:00Z' });
}
if (!only) {
  // Items the sync must refuse.
  items.push({ resource: 'http://plain.example.com/x', type: 'http', x402Version: 2, description: 'not https' });
  items.push({ resource: 'https://10.0.0.7/internal', type: 'http', x402Version: 2, description: 'private IP literal' });
  items.push({ resource: 'https://localhost/x', type: 'http', x402Version: 2, description: 'local host' });
  items.push({ resource: 'https://user:pw@creds.example.com/x', type: 'http', x402Version: 2, description: 'credentials' });
  items.push({ resource: 'https://mcp.example.com/mcp', type: 'mcp', x402Version: 2, description: 'an MCP tool' });
  items.push({ resource: 'https://nodesc.example.com/x', type: 'http', x402Version: 2 });
  items.push({ type: 'http', x402Version: 2, description: 'no resource' });
  // Items the sync must clean: control and bidi characters, an over-long text,
  // a non-USDC asset (no USDC price), no service name (the host stands in).
  items.push({ resource: 'https://messy.example.com/api?key=1', type: 'http', x402Version: 2,
    description: 'line one\nline\u202etwo\u0007 ' + 'x'.repeat(3000),
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '5', asset: '0x' + 'ab'.repeat(20), payTo: '0x' + '11'.repeat(20) }],
    extensions: { bazaar: { info: { input: { method: 'POST' } } } } });
}

const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  if (u.pathname !== '/discovery/resources') { res.writeHead(404).end('{}'); return; }
  const limit = Math.min(Number(u.searchParams.get('limit') ?? 20), 100);
  const offset = Number(u.searchParams.get('offset') ?? 0);
  const page = items.slice(offset, offset + limit);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ x402Version: 2, items: page, pagination: { limit, offset, total: items.length } }));
});
server.listen(port, '127.0.0.1', () => console.log('ready'));
