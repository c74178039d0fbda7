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
import { privateKeyToAccount } from 'viem/accounts';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';

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

const pays = keys.map((k) =>
  wrapFetchWithPayment(fetch, new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(k)))));

async function main() {
  const lat = [];
  let ok = 0, non2xx = 0, errors = 0, started = 0;
  let firstError = null;
  const start = performance.now();
  const deadline = seconds !== null ? start + seconds * 1000 : Infinity;
  const more = () => (total !== null ? started < total : performance.now() < deadline);
  const worker = async (i) => {
    const pay = pays[i % pays.length];
    while (more()) {
      started++;
      const t0 = performance.now();
      try {
        const res = await pay(opt.url, { method: opt.method });
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) ok++; else non2xx++;
      } catch (e) {
        errors++;
        firstError ??= String(e.message || e);
      }
      lat.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: c }, (_, i) => worker(i)));
  const elapsed = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  const at = (q) => (lat.length ? lat[Math.min(lat.length - 1, Math.ceil(q * lat.length) - 1)] : 0);
  const r3 = (v) => Math.round(v * 1000) / 1000;
  if (firstError) process.stderr.write(`bench-paid-load: ${errors} request(s) threw; first: ${firstError}\n`);
  process.stdout.write(JSON.stringify({
    c, requests: lat.length, ok, non2xx, errors, seconds: r3(elapsed), rps: r3(ok / elapsed),
    p50: r3(at(0.5)), p99: r3(at(0.99)), mean: r3(lat.length ? lat.reduce((a, b) => a + b, 0) / lat.length : 0),
  }) + '\n');
}
main().catch((e) => { process.stderr.write(`bench-paid-load: ${e.message || e}\n`); process.exit(1); });
