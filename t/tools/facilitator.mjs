// A real x402 facilitator for the stack tests: @x402/core's x402Facilitator
// with @x402/evm's exact EVM scheme, settling on the local anvil chain.
//
// Usage: node t/tools/facilitator.mjs --rpc URL --port N [--host ADDR, default 127.0.0.1] [--key 0xKEY] [--fault KIND]
//          [--delay-verify-ms N] [--delay-settle-ms N]
//   POST /verify and POST /settle take {x402Version, paymentPayload,
//   paymentRequirements}; GET /supported lists the kinds. The signer that
//   submits transferWithAuthorization is --key (default: anvil account #3);
//   its transactions are sent one at a time (each takes the next nonce), so
//   concurrent settles never pick the same nonce.
//   --fault injects one failure after a real /verify:
//     settle-down     /settle drops the connection without an answer (never settling)
//     settle-refused  /settle answers {success: false, errorReason} with
//                     a long errorMessage (which must never be relayed),
//                     never settling
//     settle-lands-refused  /settle really settles (the transfer lands), then
//                     answers {success: false, errorReason} as a facilitator
//                     that broadcast and then failed would
//   --delay-verify-ms N, --delay-settle-ms N (default 0): the answer to
//     /verify (resp. /settle) is held N ms AFTER the real work is done, as
//     a remote facilitator's round trip and a block wait would take.
//
// Test and bench controls, on the same port (JSON answers):
//   POST /_hold     body {"verify":bool,"settle":bool}: from now on every
//                   /verify (resp. /settle) whose flag is true waits BEFORE
//                   doing anything (a held settle has moved no USDC) until
//                   /_release. A flag left out is false. Answers {hold}.
//   POST /_release  lets every held call proceed and turns holding off.
//                   Answers {released: n}.
//   GET  /_stats    {"inFlight":{"verify":n,"settle":n},
//                    "held":{"verify":n,"settle":n},
//                    "maxInFlight":{"verify":n,"settle":n},
//                    "calls":{"verify":n,"settle":n}}
//                   inFlight: calls being processed now (held ones included,
//                   until their answer is sent); held: calls waiting for
//                   /_release; maxInFlight: the high-water mark of inFlight;
//                   calls: /verify and /settle requests received. The last
//                   two count since start or since POST /_stats/reset.
//   POST /_stats/reset  calls back to 0, maxInFlight to the current
//                   inFlight. Answers the stats after the reset.
// Prints "listening <port>" on stdout once it accepts connections. It runs
// until it is stopped: as a process, by a signal; in the suite's Node helper
// (tools/node-helper.mjs), when its caller goes away (io.signal), which then
// closes the server and every connection to it.
import http from 'node:http';
import { createWalletClient, http as viemHttp, publicActions, defineChain } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { cli, fail } from '../../tools/cli.mjs';

const ANVIL3 = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const USAGE = 'usage: node facilitator.mjs --rpc URL --port N [--key 0xKEY] [--fault settle-down|settle-refused|settle-lands-refused]\n' +
  '         [--delay-verify-ms N] [--delay-settle-ms N]';
const kinds = ['verify', 'settle'];
const zero = () => ({ verify: 0, settle: 0 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
  const delayMs = { verify: Number(opt['delay-verify-ms'] ?? 0), settle: Number(opt['delay-settle-ms'] ?? 0) };
  if (!opt.rpc || !opt.port || (opt.fault && !['settle-down', 'settle-refused', 'settle-lands-refused'].includes(opt.fault)) ||
      !Object.values(delayMs).every((v) => Number.isInteger(v) && v >= 0))
    fail(2, USAGE);

  // Hold mode and counters (see the top of this file).
  const stats = { inFlight: zero(), held: zero(), maxInFlight: zero(), calls: zero() };
  let hold = { verify: false, settle: false };
  let waiting = [];   // resolve functions of the held calls
  let stopped = false; // a held call let go at the end does nothing
  async function holdIfAsked(kind) {
    if (!hold[kind]) return;
    stats.held[kind]++;
    await new Promise((r) => waiting.push(r));
    stats.held[kind]--;
  }

  let probe;
  try {
    probe = await fetch(opt.rpc, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    }).then((r) => r.json());
  } catch (e) {
    fail(1, `facilitator: ${e.message}`);
  }
  const chainId = Number(probe.result);
  const chain = defineChain({ id: chainId, name: `local-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [opt.rpc] } } });
  const account = privateKeyToAccount(opt.key || ANVIL3);
  // anvil mines each transaction at once: look for a receipt every 100 ms
  // rather than viem's default 4 s, which would make a settle take 0.3 s or
  // 4.3 s by chance.
  const w = createWalletClient({ account, chain, transport: viemHttp(opt.rpc), pollingInterval: 100 })
    .extend(publicActions);
  const signer = toFacilitatorEvmSigner(Object.assign(w, { address: account.address }), { confirmationTimeoutMs: 15000 });
  // One transaction sent at a time: two concurrent sends would both read
  // the same pending nonce and the second would fail. Only the send is
  // queued; waiting for receipts stays concurrent. Once stopped, nothing
  // more is sent (a process stopped by a signal sends nothing either, and
  // a facilitator started after it on the same key must not meet a late
  // send of this one at the same nonce).
  let queue = Promise.resolve();
  for (const m of ['writeContract', 'sendTransaction']) {
    const f = signer[m];
    if (typeof f !== 'function') continue;
    signer[m] = (...a) => {
      const r = queue.then(() => (stopped ? Promise.reject(new Error('facilitator stopped')) : f.apply(signer, a)));
      queue = r.catch(() => {});
      return r;
    };
  }
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: `eip155:${chainId}` });

  const server = http.createServer((req, res) => {
    const send = (status, obj) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(obj));
    };
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', async () => {
      const kind = req.method === 'POST' && kinds.find((k) => req.url === `/${k}`);
      if (kind) {
        stats.calls[kind]++;
        stats.inFlight[kind]++;
        stats.maxInFlight[kind] = Math.max(stats.maxInFlight[kind], stats.inFlight[kind]);
      }
      try {
        if (req.method === 'GET' && req.url === '/supported') return send(200, facilitator.getSupported());
        if (req.method === 'GET' && req.url === '/_stats') return send(200, stats);
        if (req.method === 'POST' && req.url === '/_stats/reset') {
          stats.calls = zero();
          stats.maxInFlight = { ...stats.inFlight };
          return send(200, stats);
        }
        if (req.method === 'POST' && req.url === '/_hold') {
          const b = body ? JSON.parse(body) : {};
          hold = { verify: b.verify === true, settle: b.settle === true };
          return send(200, { hold });
        }
        if (req.method === 'POST' && req.url === '/_release') {
          const held = waiting;
          hold = { verify: false, settle: false };
          waiting = [];
          held.forEach((r) => r());
          return send(200, { released: held.length });
        }
        if (!kind) return send(404, { error: 'not found' });
        const b = JSON.parse(body);
        await holdIfAsked(kind);
        if (stopped) return req.socket.destroy();
        if (kind === 'settle' && opt.fault === 'settle-down') return req.socket.destroy();
        if (kind === 'settle' && opt.fault === 'settle-refused') {
          return send(400, { success: false, errorReason: 'invalid_transaction_state', transaction: '',
            network: b.paymentRequirements.network, errorMessage: 'Execution reverted: ' + 'x'.repeat(500) });
        }
        const r = kind === 'verify'
          ? await facilitator.verify(b.paymentPayload, b.paymentRequirements)
          : await facilitator.settle(b.paymentPayload, b.paymentRequirements);
        if (delayMs[kind] > 0) await sleep(delayMs[kind]);
        if (kind === 'settle' && opt.fault === 'settle-lands-refused') {
          io.err(`${req.url} landed ${r.success} ${r.transaction}, answered refused\n`);
          return send(400, { success: false, errorReason: 'unexpected_settle_error', transaction: '',
            network: b.paymentRequirements.network });
        }
        io.err(`${req.url} ${JSON.stringify({ ok: r.isValid ?? r.success, reason: r.invalidReason ?? r.errorReason ?? null })}\n`);
        send(200, r);
      } catch (e) {
        io.err(`${req.url} error ${e.message}\n`);
        send(500, { error: String(e.message || e) });
      } finally {
        if (kind) stats.inFlight[kind]--;
      }
    });
  });
  // Idle keep-alive connections stay open longer than nginx's upstream
  // keepalive_timeout (60 s) and than the workers keep theirs: a server
  // that closes an idle connection first races the next request sent on
  // it, which then meets a reset (seen through the TLS proxy of t/0850,
  // once, under ASan, when this server shares the Node helper's event
  // loop and its 5 s default timer fired late). Stopping closes them all.
  server.keepAliveTimeout = 120000;
  server.headersTimeout = 121000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(opt.port), opt.host || '127.0.0.1', resolve);
  }).catch((e) => fail(1, `facilitator: ${e.message}`));
  io.out(`listening ${opt.port}\n`);
  // Until its caller is gone; then no held call is left waiting.
  await new Promise((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', resolve, { once: true });
  });
  stopped = true;
  waiting.forEach((r) => r());
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  return 0;
}

cli(import.meta.url, main);
