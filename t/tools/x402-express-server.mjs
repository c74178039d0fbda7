// The reference x402 server for tools/bench: an express app behind the
// pinned @x402/express payment middleware (x402ResourceServer with
// @x402/evm's exact scheme, verify and settle through an HTTP facilitator),
// so waymark's paid reads can be measured beside the stock Node stack on
// the same chain, facilitator and client.
//
// Usage: node t/tools/x402-express-server.mjs --port N --facilitator URL
//          --asset 0xUSDC --pay-to 0xADDRESS [--network eip155:8453]
// One paid route, mirroring the requirements waymark's own 402 challenge
// offers for it (so the same client pays both): GET /api/v1/x402/routes,
// $0.01 (10000 atomic units of the 6-decimal token at --asset, EIP-712
// domain name "USD Coin" on eip155:8453, else "USDC", version "2"), scheme
// exact, maxTimeoutSeconds 60, payTo --pay-to. It answers a small fixed
// JSON body once paid (the middleware settles after the handler). Any other
// path is 404. Prints "listening <port>" on stdout once it accepts
// connections (after the middleware has read the facilitator's /supported).
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { HTTPFacilitatorClient } from '@x402/core/server';

const opt = { network: 'eip155:8453' };
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const addr = /^0x[0-9a-fA-F]{40}$/;
if (!opt.port || !opt.facilitator || !addr.test(opt.asset || '') || !addr.test(opt['pay-to'] || '')) {
  process.stderr.write('usage: node x402-express-server.mjs --port N --facilitator URL --asset 0xUSDC --pay-to 0xADDRESS [--network eip155:8453]\n');
  process.exit(2);
}

// "$0.01" becomes the local token's atomic amount, with the EIP-712 domain
// waymark names for it (lib/x402.c does the same).
const extra = { name: opt.network === 'eip155:8453' ? 'USD Coin' : 'USDC', version: '2' };
const scheme = new ExactEvmScheme().registerMoneyParser(async (amount) => ({
  amount: String(Math.round(Number(amount) * 1e6)), asset: opt.asset, extra,
}));
const server = new x402ResourceServer(new HTTPFacilitatorClient({ url: opt.facilitator }))
  .register(opt.network, scheme);

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(paymentMiddleware({
  'GET /api/v1/x402/routes': {
    accepts: { scheme: 'exact', price: '$0.01', network: opt.network, payTo: opt['pay-to'], maxTimeoutSeconds: 60 },
    description: 'Route directory (reference server)',
    mimeType: 'application/json',
  },
}, server));
app.get('/api/v1/x402/routes', (req, res) => {
  res.json({ routes: [{ routeId: '0x' + '11'.repeat(32), method: 'GET', url: 'https://example.com/weather' }],
    nextCursor: null });
});

async function main() {
  await server.initialize();
  app.listen(Number(opt.port), '127.0.0.1', () => process.stdout.write(`listening ${opt.port}\n`));
}
main().catch((e) => { process.stderr.write(`x402-express-server: ${e.message || e}\n`); process.exit(1); });
