// The real x402 paying client (t/tools/x402-client.mjs: @x402/fetch
// wrapFetchWithPayment with @x402/evm's ExactEvmScheme) against one URL,
// for the stack tests.
//
// Usage: node t/tools/pay.mjs --key 0xKEY --url URL [--signature-out FILE] [--body FILE]
// Prints one JSON line: {status, body (parsed when JSON), paymentResponse
// (the decoded PAYMENT-RESPONSE header, or null)}. With --signature-out, the
// PAYMENT-SIGNATURE header the client sent is written to FILE (so a test can
// present it again). With --body, the request is a POST of FILE's contents
// as application/json. Exits 0 whenever a response came back.
import fs from 'node:fs';
import { payingFetch, recordingFetch, paymentResponse } from './x402-client.mjs';

const opt = {};
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!opt.key || !opt.url) {
  process.stderr.write('usage: node pay.mjs --key 0xKEY --url URL [--signature-out FILE]\n');
  process.exit(2);
}

async function main() {
  // Records the PAYMENT-SIGNATURE of the paid retry.
  const pay = payingFetch(opt.key, recordingFetch((sig) => {
    if (opt['signature-out']) fs.writeFileSync(opt['signature-out'], sig);
  }));
  const init = opt.body
    ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: fs.readFileSync(opt.body, 'utf8') }
    : { method: 'GET' };
  const res = await pay(opt.url, init);
  const text = await res.text();
  let body = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  process.stdout.write(JSON.stringify({ status: res.status, body, paymentResponse: paymentResponse(res) }) + '\n');
}
main().catch((e) => { process.stdout.write(JSON.stringify({ status: 0, error: String(e.message || e) }) + '\n'); });
