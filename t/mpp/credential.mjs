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
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import fs from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { Challenge } from 'mppx';
import { Mppx, evm } from 'mppx/client';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
  try {
    await sign(opt, io);
  } catch (e) {
    io.out(JSON.stringify({ error: String(e.message || e) }) + '\n');
    return 1;
  }
}

async function sign(opt, io) {
  const account = privateKeyToAccount(opt.key);
  const init = opt.body
    ? { method: opt.method || 'POST', headers: { 'Content-Type': 'application/json' }, body: fs.readFileSync(io.resolve(opt.body), 'utf8') }
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
  io.out(JSON.stringify({ authorization, challenge, idValid }) + '\n');
}

cli(import.meta.url, main);
