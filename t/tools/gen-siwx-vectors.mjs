#!/usr/bin/env node
// Sign-In-With-X proof vectors, made by the reference client
// (@x402/extensions' sign-in-with-x: createSIWxPayload, encodeSIWxHeader,
// createSIWxMessage; with viem accounts), so that lib/siwx.c is checked
// against the implementation real clients run.
//
//   cd t/tools && npm ci && node gen-siwx-vectors.mjs
//
// writes ../vectors/siwx.json. Deterministic (RFC 6979 signatures, fixed
// times): rerunning it must give the same file. Keys are the public
// Anvil/Hardhat accounts 0 and 1 (never fund them on a real chain).
// Each vector: the server's challenge info with the chosen chain, the
// header the client sends, the EIP-4361 text it signed, and the signer.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { createSIWxMessage, createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x';

const here = dirname(fileURLToPath(import.meta.url));
const version = JSON.parse(readFileSync(join(here, 'node_modules/@x402/extensions/package.json'), 'utf8')).version;
const keys = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
];
const base = 'http://127.0.0.1:8080';
const cases = [
  { name: 'statement, expiry, one resource', key: 0, url: `${base}/api/v1/x402/profiles`,
    info: { domain: '127.0.0.1:8080', uri: `${base}/api/v1/x402/profiles`, version: '1',
      nonce: 'a1b2c3d4e5f67890a1b2c3d4e5f67890', issuedAt: '2026-11-23T10:30:00.000Z',
      expirationTime: '2026-11-23T10:35:00.000Z', statement: 'Sign in to waymark to manage your profile.',
      resources: [`${base}/api/v1/x402/profiles`], chainId: 'eip155:8453', type: 'eip191' } },
  { name: 'no statement, no expiry, no resources', key: 1, url: `${base}/api/v1/x402/profiles/p1/wallets?x=1`,
    info: { domain: '127.0.0.1:8080', uri: `${base}/api/v1/x402/profiles/p1/wallets?x=1`, version: '1',
      nonce: '0123456789abcdef0123456789abcdef', issuedAt: '2026-11-23T10:30:00Z',
      chainId: 'eip155:8453', type: 'eip191' } },
  { name: 'not before, request id, two resources', key: 0, url: `${base}/api/v1/x402/profiles/p2`,
    info: { domain: '127.0.0.1:8080', uri: `${base}/api/v1/x402/profiles/p2`, version: '1',
      nonce: 'ffffffffffffffffffffffffffffffff', issuedAt: '2026-11-23T10:30:00.123Z',
      expirationTime: '2026-11-23T10:35:00.123Z', notBefore: '2026-11-23T10:29:00Z', requestId: 'req-7',
      statement: 'One line.', resources: [`${base}/a`, `${base}/b?c=d`], chainId: 'eip155:8453', type: 'eip191' } },
  { name: 'empty request id', key: 1, url: `${base}/api/v1/x402/profiles`,
    info: { domain: '127.0.0.1:8080', uri: `${base}/api/v1/x402/profiles`, version: '1',
      nonce: '00000000aaaaaaaa', issuedAt: '2026-11-23T10:30:00Z', requestId: '',
      chainId: 'eip155:8453', type: 'eip191' } },
];

const vectors = [];
for (const c of cases) {
  const account = privateKeyToAccount(keys[c.key]);
  const payload = await createSIWxPayload(c.info, account, c.url);
  vectors.push({
    name: c.name,
    signer: account.address,
    header: encodeSIWxHeader(payload),
    proof: JSON.parse(JSON.stringify(payload)),
    message: createSIWxMessage(c.info, account.address),
  });
}
const out = {
  source: `@x402/extensions ${version} sign-in-with-x (createSIWxPayload, encodeSIWxHeader, createSIWxMessage) with viem accounts; t/tools/gen-siwx-vectors.mjs`,
  vectors,
};
writeFileSync(join(here, '../vectors/siwx.json'), JSON.stringify(out, null, 2) + '\n');
process.stdout.write(`wrote ${vectors.length} vectors\n`);
