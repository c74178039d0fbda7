// A real x402 facilitator for the stack tests: @x402/core's x402Facilitator
// with @x402/evm's exact EVM scheme, settling on the local anvil chain.
//
// Usage: node t/tools/facilitator.mjs --rpc URL --port N [--key 0xKEY] [--fault KIND]
//   POST /verify and POST /settle take {x402Version, paymentPayload,
//   paymentRequirements}; GET /supported lists the kinds. The signer that
//   submits transferWithAuthorization is --key (default: anvil account #3).
//   --fault injects one failure after a real /verify, never settling:
//     settle-down     /settle drops the connection without an answer
//     settle-refused  /settle answers {success: false, errorReason} with
//                     a long errorMessage (which must never be relayed)
// Prints "listening <port>" on stdout once it accepts connections.
import http from 'node:http';
import { createWalletClient, http as viemHttp, publicActions, defineChain } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';

const ANVIL3 = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const opt = {};
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!opt.rpc || !opt.port || (opt.fault && !['settle-down', 'settle-refused'].includes(opt.fault))) {
  process.stderr.write('usage: node facilitator.mjs --rpc URL --port N [--key 0xKEY] [--fault settle-down|settle-refused]\n');
  process.exit(2);
}

async function main() {
  const probe = await fetch(opt.rpc, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  }).then((r) => r.json());
  const chainId = Number(probe.result);
  const chain = defineChain({ id: chainId, name: `local-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [opt.rpc] } } });
  const account = privateKeyToAccount(opt.key || ANVIL3);
  const w = createWalletClient({ account, chain, transport: viemHttp(opt.rpc) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner(Object.assign(w, { address: account.address }), { confirmationTimeoutMs: 15000 });
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
      try {
        if (req.method === 'GET' && req.url === '/supported') return send(200, facilitator.getSupported());
        if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle')) return send(404, { error: 'not found' });
        const b = JSON.parse(body);
        if (req.url === '/settle' && opt.fault === 'settle-down') return req.socket.destroy();
        if (req.url === '/settle' && opt.fault === 'settle-refused') {
          return send(400, { success: false, errorReason: 'invalid_transaction_state', transaction: '',
            network: b.paymentRequirements.network, errorMessage: 'Execution reverted: ' + 'x'.repeat(500) });
        }
        const r = req.url === '/verify'
          ? await facilitator.verify(b.paymentPayload, b.paymentRequirements)
          : await facilitator.settle(b.paymentPayload, b.paymentRequirements);
        process.stderr.write(`${req.url} ${JSON.stringify({ ok: r.isValid ?? r.success, reason: r.invalidReason ?? r.errorReason ?? null })}\n`);
        send(200, r);
      } catch (e) {
        process.stderr.write(`${req.url} error ${e.message}\n`);
        send(500, { error: String(e.message || e) });
      }
    });
  });
  server.listen(Number(opt.port), '127.0.0.1', () => process.stdout.write(`listening ${opt.port}\n`));
}
main().catch((e) => { process.stderr.write(`facilitator: ${e.message}\n`); process.exit(1); });
