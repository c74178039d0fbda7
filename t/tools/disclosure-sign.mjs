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
import { createInterface } from 'node:readline';
import { parseSignature, serializeCompactSignature, signatureToCompactSignature } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const opt = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--batch') opt.batch = true;
  else opt[argv[i].replace(/^--/, '')] = argv[++i];
}
const need = opt.batch ? ['chain-id', 'contract'] : ['chain-id', 'contract', 'key', 'tx', 'action'];
for (const k of need) {
  if (opt[k] === undefined) {
    process.stderr.write('usage: node disclosure-sign.mjs --chain-id N --contract 0xTIPS (--key 0xKEY --tx 0xHASH --action A | --batch)\n');
    process.exit(2);
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
  process.stdout.write(JSON.stringify({ signer: account.address, signature, v01, compact }) + '\n');
}

if (opt.batch) {
  for await (const line of createInterface({ input: process.stdin })) {
    const [key, tx, action] = line.trim().split(/\s+/);
    if (key) await sign(key, tx, action);
  }
} else {
  await sign(opt.key, opt.tx, opt.action);
}
