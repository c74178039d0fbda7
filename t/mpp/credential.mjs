// An MPP credential for a test to present by hand, signed by mppx's own EVM
// charge client: fetches URL's 402, takes its `WWW-Authenticate: Payment`
// challenge, optionally re-issues it with changes under the server's
// secret (mppx's Challenge.from computes the HMAC id, so a forged
// challenge is exactly what a server holding the secret would issue), and
// prints the `Authorization` value mppx would send, without sending it.
//
// Usage: node t/mpp/credential.mjs --key 0xKEY --url URL [--method POST --body FILE]
//          [--secret S] [--expires RFC3339 | --expires-in SECONDS] [--amount ATOMIC] [--chain-id N]
//          [--token-name NAME] [--check-id S]
// Prints one JSON line: {authorization, challenge (the one signed), idValid
// (with --check-id S: whether mppx's Challenge.verify accepts the served
// challenge's id under S, i.e. our HMAC binding is the reference's)}.
import fs from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { Challenge } from 'mppx';
import { Mppx, evm } from 'mppx/client';

const opt = {};
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

async function main() {
  const account = privateKeyToAccount(opt.key);
  const init = opt.body
    ? { method: opt.method || 'POST', headers: { 'Content-Type': 'application/json' }, body: fs.readFileSync(opt.body, 'utf8') }
    : { method: opt.method || 'GET' };
  const res = await fetch(opt.url, init);
  if (res.status !== 402) throw new Error(`expected a 402, got ${res.status}`);
  let challenge = Challenge.fromResponse(res);
  const idValid = opt['check-id'] ? Challenge.verify(challenge, { secretKey: opt['check-id'] }) : null;
  if (opt.secret) {
    const request = { ...challenge.request, methodDetails: { ...challenge.request.methodDetails } };
    if (opt.amount) request.amount = opt.amount;
    if (opt['chain-id']) request.methodDetails.chainId = Number(opt['chain-id']);
    challenge = Challenge.from({
      secretKey: opt.secret,
      realm: challenge.realm,
      method: challenge.method,
      intent: challenge.intent,
      request,
      expires: opt['expires-in'] ? new Date(Date.now() + 1000 * Number(opt['expires-in'])).toISOString().replace(/\.\d+Z$/, 'Z')
        : opt.expires || challenge.expires,
      ...(challenge.digest ? { digest: challenge.digest } : {}),
      opaque: challenge.opaque,
    });
  }
  const mppx = Mppx.create({
    polyfill: false,
    methods: [evm({ account, authorization: { name: opt['token-name'] || 'USD Coin', version: '2' } })],
  });
  // A 402 carrying only the (possibly re-issued) challenge, for mppx to answer.
  const forged = new Response(null, { status: 402, headers: { 'WWW-Authenticate': Challenge.serialize(challenge) } });
  const authorization = await mppx.createCredential(forged);
  process.stdout.write(JSON.stringify({ authorization, challenge, idValid }) + '\n');
}
main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: String(e.message || e) }) + '\n');
  process.exit(1);
});
