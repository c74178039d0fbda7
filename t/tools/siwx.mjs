#!/usr/bin/env node
// Answer a Sign-In-With-X challenge with the reference client
// (@x402/extensions' sign-in-with-x: createSIWxClientHook, or for tampered
// proofs createSIWxMessage + encodeSIWxHeader), as a wallet would.
//
//   node siwx.mjs sign --key 0xKEY --url URL --challenge B64 [--wallet 0xADDR]
//        [--6492 FACTORY:CALLDATA] [--set field=value]... [--drop field]...
//     prints the SIGN-IN-WITH-X header value for the PAYMENT-REQUIRED
//     challenge B64 that URL answered. Without --set/--drop the client hook
//     does everything (it also checks that the challenge is bound to URL's
//     origin); with them the same library builds a proof from the altered
//     challenge info (field chainId picks the chain).
//   node siwx.mjs fetch --key 0xKEY --url URL [--method M] [--body JSON] [--wallet ...] [--6492 ...]
//     the whole exchange: the request, its 402 challenge, the proof, the
//     retry; prints {first: {status, error}, status, body, header}.
//
// --wallet: sign for a contract wallet (ERC-1271, e.g. chain/contracts/
// SmartWallet.sol) whose owner is --key: the owner signs the EIP-191 hash
// of the sign-in text, and the proof names the wallet's address. --6492
// wraps that signature for a wallet not deployed yet (EIP-6492).
import { hashMessage, serializeErc6492Signature } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import {
  createSIWxClientHook, createSIWxMessage, encodeSIWxHeader, SIGN_IN_WITH_X,
} from '@x402/extensions/sign-in-with-x';

const [mode, ...rest] = process.argv.slice(2);
const opt = { set: [], drop: [] };
for (let i = 0; i < rest.length; i += 2) {
  const k = rest[i].replace(/^--/, ''), v = rest[i + 1];
  if (v === undefined) die(`missing value for --${k}`);
  if (k === 'set' || k === 'drop') opt[k].push(v); else opt[k] = v;
}
function die(m) { process.stderr.write(`siwx.mjs: ${m}\n`); process.exit(2); }
if (!opt.key || !opt.url || (mode !== 'sign' && mode !== 'fetch')) die('usage: see the head of this file');

const owner = privateKeyToAccount(opt.key);
const signer = opt.wallet ? {
  address: opt.wallet,
  async signMessage({ message }) {
    const sig = await owner.sign({ hash: hashMessage(message) });
    if (!opt['6492']) return sig;
    const [address, data] = opt['6492'].split(':');
    return serializeErc6492Signature({ address, data, signature: sig });
  },
} : owner;

async function proof(challengeB64, url) {
  const paymentRequired = decodePaymentRequiredHeader(challengeB64);
  if (opt.set.length === 0 && opt.drop.length === 0) {
    const r = await createSIWxClientHook(signer)({ paymentRequired, requestUrl: url });
    if (!r?.headers?.[SIGN_IN_WITH_X]) die('the SIWX client did not answer this challenge');
    return r.headers[SIGN_IN_WITH_X];
  }
  const ext = paymentRequired.extensions?.[SIGN_IN_WITH_X];
  if (!ext) die('no sign-in-with-x extension in the challenge');
  const info = { ...ext.info, chainId: ext.supportedChains[0].chainId, type: ext.supportedChains[0].type };
  for (const s of opt.set) { const j = s.indexOf('='); info[s.slice(0, j)] = s.slice(j + 1); }
  for (const d of opt.drop) delete info[d];
  const message = createSIWxMessage(info, signer.address);
  const signature = await signer.signMessage({ message });
  return encodeSIWxHeader({ ...info, address: signer.address, signature });
}

if (mode === 'sign') {
  if (!opt.challenge) die('sign needs --challenge');
  process.stdout.write(await proof(opt.challenge, opt.url) + '\n');
} else {
  const init = { method: opt.method ?? 'GET', headers: {} };
  if (opt.body !== undefined) { init.body = opt.body; init.headers['Content-Type'] = 'application/json'; }
  const first = await fetch(opt.url, init);
  const firstBody = await first.json().catch(() => null);
  const out = { first: { status: first.status, error: firstBody?.error ?? null } };
  const pr = first.headers.get('PAYMENT-REQUIRED');
  if (first.status !== 402 || !pr) {
    Object.assign(out, { status: first.status, body: firstBody, header: null });
  } else {
    const header = await proof(pr, first.url || opt.url);
    const second = await fetch(opt.url, { ...init, headers: { ...init.headers, [SIGN_IN_WITH_X]: header } });
    Object.assign(out, { status: second.status, body: await second.json().catch(() => null), header });
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
