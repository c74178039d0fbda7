// A JSON-RPC proxy in front of a node that counts the calls it forwards,
// per method, and can hold each request for a while first (a slow node):
// t/1010-sigcheck-cap.t proves with it which requests reach the chain.
//
// Usage: node t/tools/rpc-record.mjs --upstream URL --port P
//   POST /           forwarded to the upstream unchanged, after the delay;
//                    each call (each member of a batch) counted by method
//                    when the request arrives
//   GET /calls       the counts so far, {"eth_call": 2, ...}
//   POST /reset      counts back to none
//   POST /delay/MS   hold every later request MS milliseconds (0: none)
//   Prints "listening" once ready.
import http from 'node:http';
import { forward, proxyArgs } from './rpc-proxy.mjs';

const args = proxyArgs('rpc-record', ['upstream', 'port']);
const upstream = new URL(args.upstream);
let counts = {};
let delay = 0;

function count(msg) {
  for (const m of Array.isArray(msg) ? msg : [msg]) {
    const method = typeof m?.method === 'string' ? m.method : '(none)';
    counts[method] = (counts[method] ?? 0) + 1;
  }
}

function answer(res, status, obj) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(obj));
}

http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const path = req.url ?? '/';
    if (req.method === 'GET' && path === '/calls')
      return answer(res, 200, counts);
    if (req.method === 'POST' && path === '/reset') {
      counts = {};
      return answer(res, 200, counts);
    }
    const d = /^\/delay\/(\d+)$/.exec(path);
    if (req.method === 'POST' && d) {
      delay = Number(d[1]);
      return answer(res, 200, { delay });
    }
    if (req.method !== 'POST' || path !== '/')
      return answer(res, 404, { error: 'not_found' });
    const body = Buffer.concat(chunks).toString();
    try {
      count(JSON.parse(body));
    } catch {
      count(null);
    }
    if (delay > 0)
      setTimeout(() => forward(upstream, body, res), delay);
    else
      forward(upstream, body, res);
  });
}).listen(Number(args.port), '127.0.0.1', () => console.log('listening'));
