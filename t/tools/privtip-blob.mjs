#!/usr/bin/env node
// Private-tip blobs computed independently of the service (docs/PROTOCOL.md,
// Private tips), for the stack tests.
//
//   node privtip-blob.mjs commit --salt 0xSALT --note TEXT
//     {commitment}: keccak256(salt || utf8(note)), with viem.
//   node privtip-blob.mjs seal --key HEX64 --commitment 0xC --salt 0xSALT --note TEXT [--aad 0xA]
//     {iv, sealed} (hex, no 0x): a blob row as the service stores it, sealed with node's
//     crypto: AES-256-GCM under the key, a fresh 12-byte IV, the 32-byte commitment (or --aad)
//     as associated data, plaintext salt (32 bytes) || note, sealed = ciphertext || 16-byte tag.
//   node privtip-blob.mjs batch < LINES
//     many at once: each input line a JSON object {op: "commit"|"seal", and the options above
//     as members}; one JSON line out per line in.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import crypto from 'node:crypto';
import { concat, keccak256, toBytes } from 'viem';
import { cli, fail } from '../../tools/cli.mjs';

// The lines of a text as node:readline gives them (\n, \r\n or \r ends a line).
function lines(text) {
  const ls = text.split(/\r\n|\n|\r/);
  if (ls[ls.length - 1] === '') ls.pop();
  return ls;
}

const hex = (s) => Buffer.from(s.replace(/^0x/, ''), 'hex');

function run(op, o) {
  const need = (...ks) => {
    for (const k of ks) if (o[k] === undefined) throw new Error(`${op}: ${k} is required`);
  };
  switch (op) {
    case 'commit':
      need('salt', 'note');
      return { commitment: keccak256(concat([toBytes(o.salt), toBytes(o.note)])) };
    case 'seal': {
      need('key', 'commitment', 'salt', 'note');
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', hex(o.key), iv);
      c.setAAD(hex(o.aad ?? o.commitment));
      const plain = Buffer.concat([hex(o.salt), Buffer.from(o.note, 'utf8')]);
      const sealed = Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
      return { iv: iv.toString('hex'), sealed: sealed.toString('hex') };
    }
    default:
      throw new Error(`unknown op ${op}`);
  }
}

export async function main(argv, io) {
  const [mode, ...rest] = argv;
  try {
    if (mode === 'batch') {
      for (const line of lines(await io.stdin())) {
        if (line.trim() === '') continue;
        const o = JSON.parse(line);
        io.out(JSON.stringify(run(o.op, o)) + '\n');
      }
    } else {
      const o = {};
      for (let i = 0; i < rest.length; i += 2) o[rest[i].replace(/^--/, '')] = rest[i + 1];
      io.out(JSON.stringify(run(mode, o)) + '\n');
    }
  } catch (e) {
    fail(2, `privtip-blob: ${e.message}\nusage: node privtip-blob.mjs commit|seal|batch ...\n`);
  }
}

cli(import.meta.url, main);
