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
import { loadLoop } from '../tools/load-loop.mjs';

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
  const out = await loadLoop({ name: 'bench-load (mpp)', pays, url: opt.url, init: undefined, c, seconds, total });
  process.stdout.write(JSON.stringify(out) + '\n');
}
main().catch((e) => { process.stderr.write(`bench-load (mpp): ${e.message || e}\n`); process.exit(1); });
