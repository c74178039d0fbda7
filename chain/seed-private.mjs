#!/usr/bin/env node
// Demo private tips for `make run`, once the service is up (after chain/seed-tips.mjs): upload
// the blob of every private tip the tip seed sent (its note and salt, bound to the commitment it
// put on chain), and disclose one of them, signed by its tipper (docs/PROTOCOL.md, Private tips).
//
// Usage: node chain/seed-private.mjs --api URL --seed FILE (seed-tips.mjs's output) --state FILE
//
// Prints the demo step summary {published, unchanged, rejected[]}: blobs stored (201) or already
// there (200), and the disclosure.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { privateKeyToAccount } from 'viem/accounts';
import { parseArgs, die, readState, ANVIL_KEYS, tool } from './lib.mjs';
import { cli } from '../tools/cli.mjs';
import { pacedFetch } from './paced-fetch.mjs';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(argv, { api: 'string', seed: 'string', state: 'string' },
      ['api', 'seed', 'state'], 'usage: node chain/seed-private.mjs --api URL --seed FILE --state FILE');
    const API = args.api.replace(/\/+$/, '');
    const fs = await import('node:fs');
    const seed = JSON.parse(fs.readFileSync(io.resolve(args.seed), 'utf8'));
    const state = readState(args.state, io);
    const blobs = seed.privateBlobs || [];
    if (blobs.length === 0) die('the tip seed lists no private tips');

    const out = { published: 0, unchanged: 0, rejected: [] };
    async function call(method, path, body) {
      const r = await pacedFetch(API + path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, body: await r.json().catch(() => null) };
    }

    for (const b of blobs) {
      const r = await call('POST', '/api/v1/private-tip-blobs', { privateCommitment: b.commitment, note: b.note, salt: b.salt });
      if (r.status === 201) out.published++;
      else if (r.status === 200) out.unchanged++;
      else out.rejected.push({ tipId: b.tipId, status: r.status, error: r.body && r.body.error });
    }

    // One disclosed by its tipper: the first private tip to a GitHub handle.
    const d = blobs.find((b) => b.target.startsWith('github:')) || blobs[0];
    const account = privateKeyToAccount(ANVIL_KEYS[d.tipperKey]);
    const chainId = state.chainId;
    const signature = await account.signTypedData({
      domain: { name: 'Boon Disclosure', version: '1', chainId, verifyingContract: state.tips },
      types: { Disclosure: [{ name: 'txHash', type: 'bytes32' }, { name: 'action', type: 'string' }] },
      primaryType: 'Disclosure',
      message: { txHash: d.txHash, action: 'disclose' },
    });
    // The tip must be indexed first: wait for the disclosure read to know it (10 s at most).
    for (let n = 0; n < 100; n++) {
      const g = await fetch(`${API}/api/v1/boons/${d.txHash}/disclosure`);
      if (g.status !== 404) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const r = await call('POST', `/api/v1/boons/${d.txHash}/disclosure`, { action: 'disclose', signature });
    if (r.status === 200 && r.body && r.body.disclosed === true) out.published++;
    else out.rejected.push({ disclosure: d.txHash, status: r.status, error: r.body && r.body.error });
    io.out(JSON.stringify(out) + '\n');
  });
}

cli(import.meta.url, main);
