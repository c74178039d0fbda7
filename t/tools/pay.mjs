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
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import fs from 'node:fs';
import { payingFetch, recordingFetch, paymentResponse } from './x402-client.mjs';
import { cli, fail } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!opt.key || !opt.url) fail(2, 'usage: node pay.mjs --key 0xKEY --url URL [--signature-out FILE]');
  try {
    // Records the PAYMENT-SIGNATURE of the paid retry.
    const pay = payingFetch(opt.key, recordingFetch((sig) => {
      if (opt['signature-out']) fs.writeFileSync(io.resolve(opt['signature-out']), sig);
    }));
    const init = opt.body
      ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: fs.readFileSync(io.resolve(opt.body), 'utf8') }
      : { method: 'GET' };
    const res = await pay(opt.url, init);
    const text = await res.text();
    let body = text;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    io.out(JSON.stringify({ status: res.status, body, paymentResponse: paymentResponse(res) }) + '\n');
  } catch (e) {
    io.out(JSON.stringify({ status: 0, error: String(e.message || e) }) + '\n');
  }
}

cli(import.meta.url, main);
