// A pay-style load generator for tools/bench: C concurrent workers, each
// running the whole x402 client flow in a loop with the real client
// (@x402/fetch wrapFetchWithPayment, @x402/evm's ExactEvmScheme): the 402
// challenge, a freshly signed payment, the paid retry (which the server
// verifies and settles through its facilitator).
//
// Usage: node t/tools/bench-paid-load.mjs --url URL (--key 0xKEY | --keys 0xK1,0xK2,...)
//          [--c 1] (--seconds S | --n N) [--method GET]
//   --keys spreads the workers over several payers (worker i pays with key
//   i mod k), so one payer's balance is not the only one drawn on. The
//   payers need the USDC (tools/bench mints it first). --seconds: workers
//   start no new request after S seconds (the ones under way finish);
//   --n: N requests in all.
// Prints one JSON line: {c, requests, ok, non2xx, errors, seconds, rps, p50,
// p99, mean}: ok counts the 2xx answers, non2xx the other answers, errors
// the requests that threw (connection refused, the client giving up);
// rps is ok per second of the run; p50/p99/mean are milliseconds over every
// request, each measured from its first byte sent (the unpaid request) to
// its paid answer's body read.
import { payingFetch } from './x402-client.mjs';
import { loadLoop } from './load-loop.mjs';

const opt = { c: '1', method: 'GET' };
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const keys = (opt.keys || opt.key || '').split(',').filter(Boolean);
const c = Number(opt.c);
const seconds = opt.seconds !== undefined ? Number(opt.seconds) : null;
const total = opt.n !== undefined ? Number(opt.n) : null;
if (!opt.url || keys.length === 0 || !keys.every((k) => /^0x[0-9a-fA-F]{64}$/.test(k)) ||
    !(c >= 1) || (seconds === null) === (total === null) || !((seconds ?? total) > 0)) {
  process.stderr.write('usage: node bench-paid-load.mjs --url URL (--key 0xKEY | --keys 0xK1,0xK2,...) [--c N] (--seconds S | --n N)\n');
  process.exit(2);
}

const pays = keys.map((k) => payingFetch(k));

async function main() {
  const out = await loadLoop({ name: 'bench-paid-load', pays, url: opt.url, init: { method: opt.method }, c, seconds, total });
  process.stdout.write(JSON.stringify(out) + '\n');
}
main().catch((e) => { process.stderr.write(`bench-paid-load: ${e.message || e}\n`); process.exit(1); });
