// A JSON-RPC proxy in front of a node that records and can fail one
// contract's eth_getLogs calls (t/0963-tips-pieces.t).
//
// Usage: node t/tools/rpc-faults.mjs --upstream URL --port P --address 0x.. --log FILE
//          [--fail-from N] [--max-span S] [--hold-at N --release FILE]
//   Every request goes to the upstream unchanged, except single (not
//   batched) eth_getLogs calls whose filter address is --address. Each of
//   those is appended to FILE as "<fromBlock> <toBlock> <outcome>" (decimal;
//   outcome ok, refused or failed), and:
//   --fail-from N  the Nth such call and every later one get HTTP 500 (a
//                  transport failure to the indexer, not an answer);
//   --max-span S   a call spanning more than S blocks gets a JSON-RPC error,
//                  as nodes refuse ranges with too many results;
//   --hold-at N    the Nth such call is held, logged "<from> <to> held",
//                  until FILE (--release) exists, then goes on as above.
//   Prints "listening" once ready.
import { appendFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import { forward, proxyArgs } from './rpc-proxy.mjs';

const args = proxyArgs('rpc-faults', ['upstream', 'port', 'address', 'log']);
const upstream = new URL(args.upstream);
const address = args.address.toLowerCase();
const failFrom = args['fail-from'] === undefined ? Infinity : Number(args['fail-from']);
const maxSpan = args['max-span'] === undefined ? Infinity : Number(args['max-span']);
const holdAt = args['hold-at'] === undefined ? 0 : Number(args['hold-at']);
if (holdAt > 0 && args.release === undefined) {
  console.error('rpc-faults: --hold-at needs --release FILE');
  process.exit(2);
}
const released = () => new Promise((resolve) => {
  const poll = () => (existsSync(args.release) ? resolve() : setTimeout(poll, 20));
  poll();
});
let calls = 0;

http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks).toString();
    let msg;
    try {
      msg = JSON.parse(body);
    } catch {
      forward(upstream, body, res);
      return;
    }
    const filter = !Array.isArray(msg) && msg.method === 'eth_getLogs' ? msg.params?.[0] : undefined;
    if (filter === undefined || String(filter.address).toLowerCase() !== address) {
      forward(upstream, body, res);
      return;
    }
    const call = ++calls;
    const from = Number(BigInt(filter.fromBlock));
    const to = Number(BigInt(filter.toBlock));
    if (call === holdAt) {
      appendFileSync(args.log, `${from} ${to} held\n`);
      await released();
    }
    let outcome = 'ok';
    if (call >= failFrom) outcome = 'failed';
    else if (to - from + 1 > maxSpan) outcome = 'refused';
    appendFileSync(args.log, `${from} ${to} ${outcome}\n`);
    if (outcome === 'failed') {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('injected failure\n');
    } else if (outcome === 'refused') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id,
        error: { code: -32005, message: `query exceeds ${maxSpan} blocks (injected)` } }));
    } else {
      forward(upstream, body, res);
    }
  });
}).listen(Number(args.port), '127.0.0.1', () => console.log('listening'));
