// End-to-end latency of a paid read (x402 v2, the real @x402/fetch client:
// the 402 challenge, a freshly signed payment, the facilitator's verify and
// settle) beside a free read, both one request at a time, for tools/bench.
//
// Usage: node t/tools/bench-paid.mjs --key 0xKEY --paid URL --free URL [--n 200] [--warmup 5]
// Prints one JSON line: {n, paid {ok, mean, p50, p99, rps}, free {...}} (milliseconds,
// requests per second); ok counts the 200 answers.
import { payingFetch } from './x402-client.mjs';

const opt = { n: '200', warmup: '5' };
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!opt.key || !opt.paid || !opt.free) {
  process.stderr.write('usage: node bench-paid.mjs --key 0xKEY --paid URL --free URL [--n 200] [--warmup 5]\n');
  process.exit(2);
}
const n = Number(opt.n);
const warmup = Number(opt.warmup);

// Time n sequential calls of one(); each must read its whole body.
async function measure(one) {
  for (let i = 0; i < warmup; i++) await one();
  const t = [];
  let ok = 0;
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    if ((await one()) === 200) ok++;
    t.push(performance.now() - t0);
  }
  const total = performance.now() - start;
  t.sort((a, b) => a - b);
  const at = (q) => t[Math.min(t.length - 1, Math.ceil(q * t.length) - 1)];
  const r3 = (v) => Math.round(v * 1000) / 1000;
  return {
    ok, mean: r3(t.reduce((a, b) => a + b, 0) / t.length), p50: r3(at(0.5)), p99: r3(at(0.99)),
    rps: r3(n / (total / 1000)),
  };
}

async function main() {
  const pay = payingFetch(opt.key);
  const paid = await measure(async () => {
    const res = await pay(opt.paid, { method: 'GET' });
    await res.arrayBuffer();
    return res.status;
  });
  const free = await measure(async () => {
    const res = await fetch(opt.free);
    await res.arrayBuffer();
    return res.status;
  });
  process.stdout.write(JSON.stringify({ n, paid, free }) + '\n');
}
main().catch((e) => { process.stderr.write(`bench-paid: ${e.message || e}\n`); process.exit(1); });
