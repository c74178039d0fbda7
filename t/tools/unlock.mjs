#!/usr/bin/env node
// A wallet's signed private-tip unlock (docs/PROTOCOL.md, Private tips), as a
// client would do it with viem: ask POST {url}/tips/{tip}/auth-challenge for
// a nonce, then sign the EIP-712 PrivateTipUnlock(uint256 tipId,bytes32
// nonce,uint256 deadline) with the domain built here from the arguments
// (never taken from the challenge: the test compares the two), and print the
// four x-<brand>-auth-* header values.
//
// Usage: node unlock.mjs --url BASE --chain-id N --contract 0xTIPS --tip ID --key 0xKEY [JOB OPTIONS]
//        node unlock.mjs --url BASE --chain-id N --contract 0xTIPS --batch   < JOBS
// Job options (in --batch, the members of one JSON object per input line, same names):
//   --nonce 0x.. --deadline N    sign for a nonce already issued (no challenge is asked); in a
//                                batch, "nonce": "@K" takes the nonce and deadline of job K (from 0),
//                                and "deadline": "+S" is then job K's deadline plus S seconds
//   --sign-tip ID --sign-nonce 0x.. --sign-deadline N --sign-chain-id N
//                                sign other values than the ones sent (bad-input tests)
//   --name S                     the domain name (default "Boon Private Tip Unlock")
// Prints one JSON line per job, in order: {tip, challengeStatus (null without a challenge),
// challenge (the parsed answer, or null), address, sig, nonce, deadline}: address, sig, nonce
// and deadline are the header values (nonce and deadline those of the challenge, or the ones
// given). A challenge not answered 200 gives sig, nonce and deadline null (exit 1 without --batch).
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { privateKeyToAccount } from 'viem/accounts';
import { cli, fail } from '../../tools/cli.mjs';

const USAGE = 'usage: node unlock.mjs --url BASE --chain-id N --contract 0xTIPS (--tip ID --key 0xKEY ' +
  '[--nonce 0x --deadline N] [--sign-tip ID] [--sign-nonce 0x] [--sign-deadline N] [--sign-chain-id N] | --batch)\n';

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) fail(2, USAGE);
    if (argv[i] === '--batch') opt.batch = true;
    else if (argv[i + 1] === undefined) fail(2, USAGE);
    else opt[argv[i].slice(2)] = argv[++i];
  }
  for (const k of ['url', 'chain-id', 'contract']) if (opt[k] === undefined) fail(2, USAGE);
  const base = opt.url.replace(/\/+$/, '');

  if (opt.batch) {
    // The lines readline would give (it ends a line at \n, \r\n or \r).
    const done = [];
    for (const line of (await io.stdin()).split(/\r\n|\n|\r/)) {
      if (line.trim() === '') continue;
      const out = await job(JSON.parse(line), done, opt, base);
      done.push(out);
      io.out(JSON.stringify(out) + '\n');
    }
  } else {
    const out = await job(opt, [], opt, base);
    io.out(JSON.stringify(out) + '\n');
    if (out.sig === null) return 1;
  }
}

async function job(j, done, opt, base) {
  if (j.tip === undefined || j.key === undefined) throw new Error('a job needs tip and key');
  const account = privateKeyToAccount(j.key);
  const out = {
    tip: String(j.tip), challengeStatus: null, challenge: null, address: account.address, sig: null, nonce: null, deadline: null,
  };
  if (typeof j.nonce === 'string' && j.nonce.startsWith('@')) {
    const from = done[Number(j.nonce.slice(1))];
    if (!from) throw new Error(`no job ${j.nonce}`);
    out.nonce = from.nonce;
    const d = j.deadline === undefined ? undefined : String(j.deadline);
    out.deadline = d === undefined ? from.deadline : d.startsWith('+') ? String(BigInt(from.deadline) + BigInt(d.slice(1))) : d;
  } else if (j.nonce !== undefined) {
    out.nonce = j.nonce;
    out.deadline = String(j.deadline);
  } else {
    const r = await fetch(`${base}/tips/${j.tip}/auth-challenge`, { method: 'POST' });
    out.challengeStatus = r.status;
    const text = await r.text();
    try { out.challenge = JSON.parse(text); } catch { out.challenge = text; }
    if (r.status !== 200) return out;
    out.nonce = out.challenge.nonce;
    out.deadline = String(out.challenge.expiresAt);
  }
  out.sig = await account.signTypedData({
    domain: {
      name: j.name ?? 'Boon Private Tip Unlock',
      version: '1',
      chainId: Number(j['sign-chain-id'] ?? opt['chain-id']),
      verifyingContract: opt.contract,
    },
    types: {
      PrivateTipUnlock: [
        { name: 'tipId', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'PrivateTipUnlock',
    message: {
      tipId: BigInt(j['sign-tip'] ?? j.tip),
      nonce: j['sign-nonce'] ?? out.nonce,
      deadline: BigInt(j['sign-deadline'] ?? out.deadline),
    },
  });
  return out;
}

cli(import.meta.url, main);
