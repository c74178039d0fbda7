// Demo reviews in the two paid lanes for `make run` (tools/stack), published
// through waymark's paid endpoints with the real x402 client (@x402/fetch)
// and settled by the local facilitator (t/tools/facilitator.mjs):
//   - self_reported (V3, $0.05): two routes, each reviewed by an Anvil test
//     wallet that signs X402SelfReportedReview;
//   - receipt_verified (V2, $0.01): two routes whose endpoint wallet (the
//     seed's payTo key) signs an official x402 offer and receipt for the
//     reviewer, who signs X402ReceiptReview. The route's receipt authority
//     is pinned only by an official offer-receipt extension the service has
//     observed, so with --waymark and --config the endpoint first lists its
//     route in an x402 catalog with its signed offer (a one-shot catalog on
//     a free local port, synced once by `waymark catalog-sync`). Without
//     them (the stack has a catalog_url of its own, whose listings carry no
//     offer of these demo endpoints) the receipt_verified reviews are
//     skipped, and the output says so: they could only be refused.
// The publication fees are paid by Anvil account #9, which mints itself
// test USDC first.
//
// Usage: node t/tools/demo-paid-reviews.mjs --api URL --rpc URL --state FILE --seed FILE
//        [--waymark BIN --config FILE]
// Prints {published, unchanged, rejected:[{lane, routeId, status, error}],
// skipped:[{lane, reason}]}; exits 1 when any was rejected.
// A tool of tools/cli.mjs: the suite's helper runs it in process; its
// one-shot catalog is closed before main returns.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import { createWalletClient, defineChain, hashTypedData, http, keccak256, toBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { payingFetch } from './x402-client.mjs';
import { pacedFetch } from '../../chain/paced-fetch.mjs';
import { cli, fail } from '../../tools/cli.mjs';

const PAYER_KEY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'; // anvil #9
const REVIEWER_KEYS = [
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba', // anvil #5
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e', // anvil #6
];
const V3_TEXTS = [
  'Called it twice from an agent; both answers arrived in under a second. Self-reported, no receipt.',
  'The response matched the documented schema; I have no receipt to attach, so this is self-reported.',
];
const V2_TEXTS = [
  'Paid once, got the receipt and the documented answer; the signed receipt matched the offer exactly.',
  'The receipt checks out against the offer; the answer was correct but slower than the note suggests.',
];
const offerTypes = { Offer: [{ name: 'version', type: 'uint256' }, { name: 'resourceUrl', type: 'string' },
  { name: 'scheme', type: 'string' }, { name: 'network', type: 'string' }, { name: 'asset', type: 'string' },
  { name: 'payTo', type: 'string' }, { name: 'amount', type: 'string' }, { name: 'validUntil', type: 'uint256' }] };
const receiptTypes = { Receipt: [{ name: 'version', type: 'uint256' }, { name: 'network', type: 'string' },
  { name: 'resourceUrl', type: 'string' }, { name: 'payer', type: 'string' }, { name: 'issuedAt', type: 'uint256' },
  { name: 'transaction', type: 'string' }] };
const now = () => Math.floor(Date.now() / 1000);
const endpointOf = (r) => privateKeyToAccount(keccak256(toBytes(`waymark:seed:payto:${new URL(r.url).origin}`)));

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!opt.api || !opt.rpc || !opt.state || !opt.seed) {
    fail(2, 'usage: node demo-paid-reviews.mjs --api URL --rpc URL --state FILE --seed FILE\n');
  }
  const API = opt.api.replace(/\/+$/, '');
  const state = JSON.parse(fs.readFileSync(io.resolve(opt.state), 'utf8'));
  const seed = JSON.parse(fs.readFileSync(io.resolve(opt.seed), 'utf8'));
  const chainId = Number(state.chainId);
  const reviewDomain = (v) => ({ name: 'Boon X402 Review', version: v, chainId, verifyingContract: state.companion });

  // Fund the payer with test USDC (TestUSDC.mint is open on the local chain).
  const chain = defineChain({ id: chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [opt.rpc] } } });
  const payer = privateKeyToAccount(PAYER_KEY);
  const wallet = createWalletClient({ account: payer, chain, transport: http(opt.rpc) });
  await wallet.writeContract({ address: state.usdc, functionName: 'mint', args: [payer.address, 1_000_000n],
    abi: [{ type: 'function', name: 'mint', stateMutability: 'nonpayable',
      inputs: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [{ type: 'bool' }] }] });
  const pay = payingFetch(PAYER_KEY, pacedFetch);

  const out = { published: 0, unchanged: 0, rejected: [], skipped: [] };
  async function publish(lane, path, body) {
    const res = await pay(`${API}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body) });
    const b = await res.json().catch(() => ({}));
    if (res.status === 201) out.published++;
    else if (res.status === 200 || (res.status === 409 && ['already_reviewed', 'receipt_already_used'].includes(b.error)))
      out.unchanged++;
    else out.rejected.push({ lane, routeId: body.review.routeId, status: res.status, error: b.error ?? null });
  }

  const routes = seed.routes ?? [];

  // self_reported (V3)
  for (const [i, r] of routes.slice(0, 2).entries()) {
    const who = privateKeyToAccount(REVIEWER_KEYS[i]);
    const policyVersion = 'boon.x402-review-policy/v3';
    const review = { version: '3', policyVersion, routeId: r.routeId, reviewer: who.address, reviewText: V3_TEXTS[i], createdAt: now() };
    const signature = await who.signTypedData({ domain: reviewDomain('3'), primaryType: 'X402SelfReportedReview',
      types: { X402SelfReportedReview: [{ name: 'policyVersion', type: 'string' }, { name: 'routeId', type: 'bytes32' },
        { name: 'reviewer', type: 'address' }, { name: 'reviewText', type: 'string' }, { name: 'createdAt', type: 'uint256' }] },
      message: { ...review, createdAt: BigInt(review.createdAt) } });
    await publish('self_reported', '/api/v1/x402/reviews/self-reported', { review, signature });
  }

  // receipt_verified (V2): the endpoint wallet issues the offer and receipt.
  const offerOf = (r) => ({ version: 1, resourceUrl: r.url, scheme: 'exact', network: `eip155:${chainId}`,
    asset: state.usdc, payTo: endpointOf(r).address, amount: '10000', validUntil: 0 });
  const signOffer = async (r) => endpointOf(r).signTypedData({ domain: { name: 'x402 offer', version: '1', chainId: 1 },
    types: offerTypes, primaryType: 'Offer', message: { ...offerOf(r), version: 1n, validUntil: 0n } });

  // The endpoints list their routes, each challenge carrying its signed offer.
  if (opt.waymark && opt.config) {
    const listed = [];
    for (const r of routes.slice(2, 4)) {
      const p = offerOf(r);
      listed.push({ resource: r.url, type: 'http', x402Version: 2, description: `Demo endpoint ${r.method} ${r.url}`,
        serviceName: new URL(r.url).host,
        accepts: [{ scheme: p.scheme, network: p.network, amount: p.amount, asset: p.asset, payTo: p.payTo, maxTimeoutSeconds: 60 }],
        extensions: { bazaar: { info: { input: { type: 'http', method: r.method } } },
          'offer-receipt': { info: { offers: [{ format: 'eip712', acceptIndex: 0, payload: p, signature: await signOffer(r) }] } } } });
    }
    const server = createServer((req, res) => {
      const u = new URL(req.url, 'http://x');
      const offset = Number(u.searchParams.get('offset') ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ x402Version: 2, items: listed.slice(offset),
        pagination: { limit: listed.length, offset, total: listed.length } }));
    });
    let sync;
    try {
      await new Promise((ok, no) => { server.once('error', no); server.listen(0, '127.0.0.1', ok); });
      const env = { ...io.env, WAYMARK_CONFIG: opt.config,
        WAYMARK_CATALOG_URL: `http://127.0.0.1:${server.address().port}` };
      // It runs where the caller does, its standard error passed on to the caller's.
      sync = await new Promise((done, failed) => {
        const c = spawn(opt.waymark, ['catalog-sync'], { env, cwd: io.resolve('.'), stdio: ['ignore', 'ignore', 'pipe'] });
        c.stderr.on('data', (d) => io.err(d));
        c.on('error', failed);
        c.on('close', (code) => done(code));
      });
    } finally {
      server.close();
      server.closeAllConnections();
    }
    if (sync !== 0) io.err(`demo-paid-reviews: catalog-sync exited ${sync}\n`);
  }

  if (!(opt.waymark && opt.config)) {
    out.skipped.push({ lane: 'receipt_verified', reason: 'a catalog_url is configured, and its listings carry '
      + 'no signed offer of the demo endpoints, which a receipt_verified review needs' });
  }
  for (const [i, r] of (opt.waymark && opt.config ? routes.slice(2, 4) : []).entries()) {
    const endpoint = endpointOf(r);
    const who = privateKeyToAccount(REVIEWER_KEYS[i]);
    const issuedAt = now() - 60;
    const offerPayload = { version: 1, resourceUrl: r.url, scheme: 'exact', network: `eip155:${chainId}`,
      asset: state.usdc, payTo: endpoint.address, amount: '10000', validUntil: 0 };
    const receiptPayload = { version: 1, network: `eip155:${chainId}`, resourceUrl: r.url, payer: who.address, issuedAt };
    const receiptMsg = { ...receiptPayload, version: 1n, issuedAt: BigInt(issuedAt), transaction: '' };
    const receiptDomain = { name: 'x402 receipt', version: '1', chainId: 1 };
    const evidence = {
      offer: { format: 'eip712', acceptIndex: 0, payload: offerPayload,
        signature: await endpoint.signTypedData({ domain: { name: 'x402 offer', version: '1', chainId: 1 }, types: offerTypes,
          primaryType: 'Offer', message: { ...offerPayload, version: 1n, validUntil: 0n } }) },
      receipt: { format: 'eip712', payload: receiptPayload,
        signature: await endpoint.signTypedData({ domain: receiptDomain, types: receiptTypes, primaryType: 'Receipt', message: receiptMsg }) },
    };
    const receiptDigest = hashTypedData({ domain: receiptDomain, types: receiptTypes, primaryType: 'Receipt', message: receiptMsg });
    const policyVersion = 'boon.x402-review-policy/v2';
    const review = { version: '2', policyVersion, routeId: r.routeId, receiptDigest, reviewText: V2_TEXTS[i], createdAt: now() };
    const signature = await who.signTypedData({ domain: reviewDomain('2'), primaryType: 'X402ReceiptReview',
      types: { X402ReceiptReview: [{ name: 'policyVersion', type: 'string' }, { name: 'routeId', type: 'bytes32' },
        { name: 'receiptDigest', type: 'bytes32' }, { name: 'reviewText', type: 'string' }, { name: 'createdAt', type: 'uint256' }] },
      message: { ...review, createdAt: BigInt(review.createdAt) } });
    await publish('receipt_verified', '/api/v1/x402/reviews/receipt-verified', { review, signature, evidence });
  }
  io.out(JSON.stringify(out) + '\n');
  return out.rejected.length ? 1 : 0;
}

cli(import.meta.url, main);
