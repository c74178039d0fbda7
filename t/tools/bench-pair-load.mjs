// A plain load for tools/bench: the HTTP shape of a paid read without the
// payment. C workers, each sending two GETs of URL one after the other on
// a kept-alive connection (as the paying client sends its unpaid request
// and its paid retry), then waiting GAP ms, N times. The server's CPU for
// these pairs is the floor under a paid read's at the same rate: what the
// web server and the worker spend on two requests that do no work.
//
// Usage: node t/tools/bench-pair-load.mjs --url URL --c C --n N [--gap MS]
// Prints one JSON line: {c, pairs, ok, seconds, rps}: pairs counts the
// pairs sent, ok those whose two answers were 2xx, rps pairs per second.
import http from 'node:http';

const opt = { gap: '0' };
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const c = Number(opt.c), n = Number(opt.n), gap = Number(opt.gap);
if (!opt.url || !(c >= 1) || !(n >= 1) || !(gap >= 0)) {
  process.stderr.write('usage: node bench-pair-load.mjs --url URL --c C --n N [--gap MS]\n');
  process.exit(2);
}
const agent = new http.Agent({ keepAlive: true, maxSockets: c });
const get = () => new Promise((resolve, reject) => {
  http.get(opt.url, { agent }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  }).on('error', reject);
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let pairs = 0, ok = 0;
const start = performance.now();
await Promise.all(Array.from({ length: c }, async () => {
  for (let i = 0; i < n; i++) {
    const a = await get();
    const b = await get();
    pairs++;
    if (a >= 200 && a < 300 && b >= 200 && b < 300) ok++;
    if (gap > 0) await sleep(gap);
  }
}));
agent.destroy();
const seconds = (performance.now() - start) / 1000;
process.stdout.write(JSON.stringify({ c, pairs, ok, seconds: Math.round(seconds * 1000) / 1000,
  rps: Math.round((pairs / seconds) * 1000) / 1000 }) + '\n');
