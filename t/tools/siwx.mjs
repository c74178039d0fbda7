#!/usr/bin/env node
// Answer a Sign-In-With-X challenge with the reference client
// (t/tools/siwx-client.mjs over @x402/extensions' sign-in-with-x:
// createSIWxClientHook, or for tampered proofs createSIWxMessage +
// encodeSIWxHeader), as a wallet would.
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
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { siwxSigner, siwxProof, siwxFetch } from './siwx-client.mjs';
import { cli, fail, Exit } from '../../tools/cli.mjs';

function die(m) { fail(2, `siwx.mjs: ${m}`); }

export async function main(argv, io) {
  const [mode, ...rest] = argv;
  const opt = { set: [], drop: [] };
  for (let i = 0; i < rest.length; i += 2) {
    const k = rest[i].replace(/^--/, ''), v = rest[i + 1];
    if (v === undefined) die(`missing value for --${k}`);
    if (k === 'set' || k === 'drop') opt[k].push(v); else opt[k] = v;
  }
  if (!opt.key || !opt.url || (mode !== 'sign' && mode !== 'fetch')) die('usage: see the head of this file');

  const signer = siwxSigner(opt.key, { wallet: opt.wallet, erc6492: opt['6492'] });
  const alter = { set: opt.set, drop: opt.drop };
  try {
    if (mode === 'sign') {
      if (!opt.challenge) die('sign needs --challenge');
      io.out(await siwxProof(signer, opt.challenge, opt.url, alter) + '\n');
    } else {
      const init = { method: opt.method ?? 'GET', headers: {} };
      if (opt.body !== undefined) { init.body = opt.body; init.headers['Content-Type'] = 'application/json'; }
      io.out(JSON.stringify(await siwxFetch(signer, opt.url, init, alter)) + '\n');
    }
  } catch (e) {
    if (e instanceof Exit) throw e;
    die(e.message || String(e));
  }
}

cli(import.meta.url, main);
