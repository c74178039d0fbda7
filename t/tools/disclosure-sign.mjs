#!/usr/bin/env node
// A tipper's EIP-712 Disclosure signature (docs/PROTOCOL.md, Private tips),
// signed with viem: Disclosure(bytes32 txHash,string action), domain
// {name "Boon Disclosure", version "1", chainId, verifyingContract: the tips
// contract}.
//
// Usage: node disclosure-sign.mjs --chain-id N --contract 0xTIPS --key 0xKEY --tx 0xHASH --action A
//        node disclosure-sign.mjs --chain-id N --contract 0xTIPS --batch < LINES
// With --batch, each input line is "0xKEY 0xHASH ACTION". Prints one JSON line per signature:
// {signer, signature (65 bytes, v 27/28), v01 (the same signature with v as 0/1), compact (the
// same signature as EIP-2098's 64 bytes)}: three encodings of one signature, so a test can
// present a copy of an old signature in another encoding.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { parseSignature, serializeCompactSignature, signatureToCompactSignature } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { cli, fail } from '../../tools/cli.mjs';

// The lines of a text as node:readline gives them (\n, \r\n or \r ends a line).
function lines(text) {
  const ls = text.split(/\r\n|\n|\r/);
  if (ls[ls.length - 1] === '') ls.pop();
  return ls;
}

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--batch') opt.batch = true;
    else opt[argv[i].replace(/^--/, '')] = argv[++i];
  }
  const need = opt.batch ? ['chain-id', 'contract'] : ['chain-id', 'contract', 'key', 'tx', 'action'];
  for (const k of need) {
    if (opt[k] === undefined) {
      fail(2, 'usage: node disclosure-sign.mjs --chain-id N --contract 0xTIPS (--key 0xKEY --tx 0xHASH --action A | --batch)');
    }
  }

  async function sign(key, tx, action) {
    const account = privateKeyToAccount(key);
    const signature = await account.signTypedData({
      domain: { name: 'Boon Disclosure', version: '1', chainId: Number(opt['chain-id']), verifyingContract: opt.contract },
      types: { Disclosure: [{ name: 'txHash', type: 'bytes32' }, { name: 'action', type: 'string' }] },
      primaryType: 'Disclosure',
      message: { txHash: tx, action },
    });
    const v = parseInt(signature.slice(130, 132), 16);
    const v01 = signature.slice(0, 130) + (v - 27).toString(16).padStart(2, '0');
    const compact = serializeCompactSignature(signatureToCompactSignature(parseSignature(signature)));
    io.out(JSON.stringify({ signer: account.address, signature, v01, compact }) + '\n');
  }

  if (opt.batch) {
    for (const line of lines(await io.stdin())) {
      const [key, tx, action] = line.trim().split(/\s+/);
      if (key) await sign(key, tx, action);
    }
  } else {
    await sign(opt.key, opt.tx, opt.action);
  }
}

cli(import.meta.url, main);
