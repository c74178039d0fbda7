// The MPP twin of t/tools/bench-paid-load.mjs for tools/bench: C concurrent
// workers, each running the whole MPP client flow in a loop with the
// unchanged mppx client (Mppx.create with its EVM charge method): the 402,
// the Payment challenge answered with a freshly signed EIP-3009
// authorization, the paid retry (which the server verifies and settles
// through its facilitator). Same options and the same one JSON line out:
//
// Usage: node t/mpp/bench-load.mjs --url URL (--key 0xKEY | --keys 0xK1,...)
//          [--c 1] (--seconds S | --n N) [--token-name NAME]
// Prints {c, requests, ok, non2xx, errors, seconds, rps, p50, p99, mean}.
import { privateKeyToAccount } from 'viem/accounts';
import { Mppx, evm } from 'mppx/client';

const opt = { c: '1' };
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const keys = (opt.keys || opt.key || '').split(',').filter(Boolean);
const c = Number(opt.c);
const seconds = opt.seconds !== undefined ? Number(opt.seconds) : null;
const total = opt.n !== undefined ? Number(opt.n) : null;
if (!opt.url || keys.length === 0 || !(c >= 1) || (seconds === null) === (total === null)) {
  process.stderr.write('usage: node bench-load.mjs --url URL (--key 0xKEY | --keys 0xK1,...) [--c N] (--seconds S | --n N)\n');
  process.exit(2);
}
const authorization = { name: opt['token-name'] || 'USD Coin', version: '2' };
const pays = keys.map((k) => Mppx.create({
  polyfill: false,
  methods: [evm({ account: privateKeyToAccount(k), authorization })],
}).fetch);

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
        const res = await pay(opt.url);
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
  if (firstError) process.stderr.write(`bench-load (mpp): ${errors} request(s) threw; first: ${firstError}\n`);
  process.stdout.write(JSON.stringify({
    c, requests: lat.length, ok, non2xx, errors, seconds: r3(elapsed), rps: r3(ok / elapsed),
    p50: r3(at(0.5)), p99: r3(at(0.99)), mean: r3(lat.length ? lat.reduce((a, b) => a + b, 0) / lat.length : 0),
  }) + '\n');
}
main().catch((e) => { process.stderr.write(`bench-load (mpp): ${e.message || e}\n`); process.exit(1); });
