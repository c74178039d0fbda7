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

const args = {};
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i];
  if (!k.startsWith('--') || i + 1 >= process.argv.length) {
    console.error(`rpc-record: bad argument ${k}`);
    process.exit(2);
  }
  args[k.slice(2)] = process.argv[i + 1];
}
for (const k of ['upstream', 'port']) {
  if (args[k] === undefined) {
    console.error(`rpc-record: missing --${k}`);
    process.exit(2);
  }
}
const upstream = new URL(args.upstream);
let counts = {};
let delay = 0;

function count(msg) {
  for (const m of Array.isArray(msg) ? msg : [msg]) {
    const method = typeof m?.method === 'string' ? m.method : '(none)';
    counts[method] = (counts[method] ?? 0) + 1;
  }
}

function forward(body, res) {
  const req = http.request(
    { hostname: upstream.hostname, port: upstream.port, path: upstream.pathname, method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
    (up) => {
      res.writeHead(up.statusCode, { 'Content-Type': 'application/json' });
      up.pipe(res);
    });
  req.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.end(body);
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
      setTimeout(() => forward(body, res), delay);
    else
      forward(body, res);
  });
}).listen(Number(args.port), '127.0.0.1', () => console.log('listening'));
