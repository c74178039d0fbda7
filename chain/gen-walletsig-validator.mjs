#!/usr/bin/env node
// Generate lib/walletsig_validator.h: the creation code of contracts/SignatureValidator.sol (our
// own ERC-6492 deployless validator) as a C string of lowercase hex digits, for lib/walletsig.c.
// The header is committed; it changes only when the contract or the pinned solc changes.
//
// Usage: node chain/gen-walletsig-validator.mjs           (re)write the header
//        node chain/gen-walletsig-validator.mjs --check   exit 1 unless the committed header
//                                                         equals a fresh compile (t/0920 runs it)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, loadArtifact } from './compile.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HEADER = path.join(HERE, '..', 'lib', 'walletsig_validator.h');

function render(art) {
  const hex = art.bytecode.replace(/^0x/, '').toLowerCase();
  if (!/^[0-9a-f]+$/.test(hex) || hex.length % 2) throw new Error('SignatureValidator has no creation code');
  const lines = [];
  for (let i = 0; i < hex.length; i += 64) lines.push(`\t"${hex.slice(i, i + 64)}"`);
  return `/*
 * walletsig_validator.h: GENERATED FILE, do not edit.
 *
 * The creation code of chain/contracts/SignatureValidator.sol (waymark's own
 * ERC-6492 deployless validator: eth_call without "to", data = this code ||
 * abi.encode(address signer, bytes32 hash, bytes signature); the call returns
 * 0x01 valid or 0x00 invalid), compiled by ${art.compiler}
 * (chain/compile.mjs: optimizer on, 200 runs, evmVersion cancun).
 *
 * Regenerate:  node chain/gen-walletsig-validator.mjs
 * Check:       node chain/gen-walletsig-validator.mjs --check   (t/0920 runs it)
 */
#ifndef WAYMARK_WALLETSIG_VALIDATOR_H
#define WAYMARK_WALLETSIG_VALIDATOR_H

/* ${hex.length / 2} bytes as ${hex.length} lowercase hex digits, no "0x". */
#define WALLETSIG_VALIDATOR_BYTES ${hex.length / 2}
#define WALLETSIG_VALIDATOR_HEX \\
${lines.join(' \\\n')}

#endif
`;
}

try {
  ensureBuilt();
  const want = render(loadArtifact('SignatureValidator'));
  if (process.argv.includes('--check')) {
    let have = '';
    try {
      have = fs.readFileSync(HEADER, 'utf8');
    } catch {}
    if (have !== want) {
      process.stderr.write('gen-walletsig-validator.mjs: lib/walletsig_validator.h differs from a fresh compile; regenerate it\n');
      process.exit(1);
    }
    process.stderr.write('gen-walletsig-validator.mjs: lib/walletsig_validator.h is current\n');
  } else {
    fs.writeFileSync(HEADER + '.tmp', want);
    fs.renameSync(HEADER + '.tmp', HEADER);
    process.stderr.write(`gen-walletsig-validator.mjs: wrote ${path.relative(process.cwd(), HEADER)}\n`);
  }
} catch (e) {
  process.stderr.write(`gen-walletsig-validator.mjs: ${e.message}\n`);
  process.exit(1);
}
