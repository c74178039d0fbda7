// The real MPP paying client (mppx's Mppx.create with its EVM charge
// method, unchanged) against one URL, for the stack tests: it reads the
// 402's `WWW-Authenticate: Payment` challenge, signs the EIP-3009
// authorization and retries with `Authorization: Payment`.
//
// Usage: node t/mpp/pay.mjs --key 0xKEY --url URL [--body FILE] [--credential-out FILE]
//        [--token-name NAME]
// Prints one JSON line: {status, body (parsed when JSON), receipt (the
// decoded Payment-Receipt header, or null), paymentResponse (a
// PAYMENT-RESPONSE header, which an MPP answer must not carry, or null),
// challenges (how many WWW-Authenticate Payment challenges the 402 had)}.
// With --credential-out, the Authorization header the client sent is
// written to FILE (so a test can present it again). With --body, the
// request is a POST of FILE's contents as application/json. --token-name is
// the EIP-712 domain name of the USDC contract ("USD Coin" by default, Base
// USDC's). Exits 0 whenever a response came back.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import fs from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { Mppx, evm } from 'mppx/client';
import { cli, fail } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!opt.key || !opt.url) fail(2, 'usage: node pay.mjs --key 0xKEY --url URL [--body FILE] [--credential-out FILE]');

  let challenges = 0;
  // Records the challenge count of the 402 and the credential of the paid retry.
  const recording = async (input, init) => {
    const req = new Request(input, init);
    const cred = req.headers.get('authorization');
    if (cred && opt['credential-out']) fs.writeFileSync(io.resolve(opt['credential-out']), cred);
    const res = await fetch(req);
    const wa = res.headers.get('www-authenticate');
    if (res.status === 402 && wa && !cred) challenges = (wa.match(/(^|,\s*)Payment\s/g) || []).length;
    return res;
  };

  async function pay() {
    const account = privateKeyToAccount(opt.key);
    const mppx = Mppx.create({
      polyfill: false,
      fetch: recording,
      methods: [evm({ account, authorization: { name: opt['token-name'] || 'USD Coin', version: '2' } })],
    });
    const init = opt.body
      ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: fs.readFileSync(io.resolve(opt.body), 'utf8') }
      : { method: 'GET' };
    const res = await mppx.fetch(opt.url, init);
    const text = await res.text();
    let body = text;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    const rc = res.headers.get('payment-receipt');
    const receipt = rc ? JSON.parse(Buffer.from(rc, 'base64url').toString('utf8')) : null;
    const pr = res.headers.get('payment-response');
    const paymentResponse = pr ? JSON.parse(Buffer.from(pr, 'base64').toString('utf8')) : null;
    io.out(JSON.stringify({ status: res.status, body, receipt, paymentResponse, challenges }) + '\n');
  }
  try {
    await pay();
  } catch (e) {
    io.out(JSON.stringify({ status: 0, error: String(e.message || e), challenges }) + '\n');
  }
}

cli(import.meta.url, main);
