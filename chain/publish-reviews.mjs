#!/usr/bin/env node
// Demo boon_backed reviews for `make run`: for the first routed recognition
// of several seeded routes, the tipper (an Anvil test wallet) signs an
// EIP-712 X402Review and POSTs it to waymark's POST /api/v1/x402/reviews.
// Recognitions are read from the chain (the companion's RoutedBoon logs);
// only those whose tipper is a known Anvil test key can be reviewed.
//
// Usage: node chain/publish-reviews.mjs --api URL --rpc URL --state FILE [--routes N (default 8)]
// Prints {published, unchanged, rejected:[{routeId, status, error}]}; exits 1 when any was rejected.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { keccak256, toBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseArgs, die, connect, readState, ANVIL_KEYS, ROUTED_BOON_SIGNATURE, tool } from './lib.mjs';
import { cli } from '../tools/cli.mjs';
import { pacedFetch } from './paced-fetch.mjs';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(argv,
      { api: 'string', rpc: 'string', state: 'string', routes: 'string' }, ['api', 'rpc', 'state'],
      'usage: node chain/publish-reviews.mjs --api URL --rpc URL --state FILE [--routes N]');
    const ROUTES = Number(args.routes ?? 8);
    if (!Number.isInteger(ROUTES) || ROUTES < 1) die('--routes must be a positive integer');
    const API = args.api.replace(/\/+$/, '');

    const accounts = new Map(ANVIL_KEYS.slice(1).map((k) => { const a = privateKeyToAccount(k); return [a.address.toLowerCase(), a]; }));
    const TEXTS = [
      'Answered in well under a second with the documented fields; paid once, no retries needed.',
      'Results matched the documentation; one call returned exactly what the route note promised.',
      'Worked on the first try; the response schema was stable across three calls on the same day.',
      'Useful output for the task, though the response was larger than the example suggested.',
    ];

    const state = readState(args.state, io);
    const { publicClient } = await connect(args.rpc);
    const topic0 = keccak256(toBytes(ROUTED_BOON_SIGNATURE));
    const logs = await publicClient.request({ method: 'eth_getLogs', params: [{
      address: state.companion, topics: [topic0], fromBlock: '0x0', toBlock: 'latest' }] });

    // The first recognition of each route, in log order, whose tipper key is known.
    const chosen = [];
    const seen = new Set();
    for (const log of logs) {
      const routeId = log.topics[1];
      const tipper = '0x' + log.topics[2].slice(26);
      if (seen.has(routeId) || !accounts.has(tipper)) continue;
      seen.add(routeId);
      chosen.push({ routeId, txHash: log.transactionHash, logIndex: Number(log.logIndex), account: accounts.get(tipper) });
      if (chosen.length === ROUTES) break;
    }

    const out = { published: 0, unchanged: 0, rejected: [] };
    for (const [i, c] of chosen.entries()) {
      const review = { version: '1', routeId: c.routeId, recognitionTxHash: c.txHash, recognitionLogIndex: c.logIndex,
        reviewText: TEXTS[i % TEXTS.length], createdAt: Math.floor(Date.now() / 1000) };
      const signature = await c.account.signTypedData({
        domain: { name: 'Boon X402 Review', version: '1', chainId: Number(state.chainId), verifyingContract: state.companion },
        types: { X402Review: [
          { name: 'routeId', type: 'bytes32' }, { name: 'recognitionTxHash', type: 'bytes32' },
          { name: 'recognitionLogIndex', type: 'uint256' }, { name: 'reviewText', type: 'string' },
          { name: 'createdAt', type: 'uint256' }] },
        primaryType: 'X402Review',
        message: { ...review, recognitionLogIndex: BigInt(review.recognitionLogIndex), createdAt: BigInt(review.createdAt) },
      });
      const res = await pacedFetch(`${API}/api/v1/x402/reviews`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ review, signature }) });
      const body = await res.json().catch(() => ({}));
      if (res.status === 201) out.published++;
      else if (res.status === 200 || (res.status === 409 && body.error === 'already_reviewed')) out.unchanged++;
      else out.rejected.push({ routeId: c.routeId, status: res.status, error: body.error ?? null });
    }
    io.out(JSON.stringify(out) + '\n');
    return out.rejected.length ? 1 : 0;
  });
}

cli(import.meta.url, main);
