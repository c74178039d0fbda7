#!/usr/bin/env node
// Emit many synthetic RoutedBoon events (same event signature as the companion) for indexer
// tests and benchmarks.
//
// Usage: node chain/bench-emit.mjs --rpc URL --state FILE --events N
//          [--batch B (1..500, default 500)] [--routes R (default 50)] [--seed STRING (default "waymark:bench")]
//
// Deploys BenchEmitter from anvil account #0 unless the state file names one that has code, and
// records {benchEmitter, benchEmitterDeployBlock, benchNextIndex} in the state file. Emits N events
// in ceil(N/B) transactions of at most B events (BenchEmitter.emitMany), sent back to back and then
// awaited; event i of the whole series is derived from (seed, benchNextIndex + i), so a second run
// continues the series instead of repeating it.
// Prints one JSON line: {emitter, fromBlock, toBlock, events, transactions}.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { keccak256, toBytes } from 'viem';
import {
  parseArgs,
  parseUint,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  requireState,
  writeStateAtomic,
  deploy,
  hasCode,
  waitReceipt,
  ANVIL_KEYS,
  tool,
  orDie,
} from './lib.mjs';
import { cli } from '../tools/cli.mjs';

const USAGE =
  'usage: node chain/bench-emit.mjs --rpc URL --state FILE --events N [--batch B<=500] [--routes R] [--seed STRING]';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(
      argv,
      { rpc: 'string', state: 'string', events: 'string', batch: 'string', routes: 'string', seed: 'string' },
      ['rpc', 'state', 'events'],
      USAGE,
    );
    const total = Number(parseUint(args.events, '--events'));
    const batch = args.batch === undefined ? 500 : Number(parseUint(args.batch, '--batch'));
    if (batch < 1 || batch > 500) die('--batch must be 1..500');
    const routes = args.routes === undefined ? 50n : parseUint(args.routes, '--routes');
    if (routes < 1n) die('--routes must be at least 1');
    const routeSeed = keccak256(toBytes(args.seed ?? 'waymark:bench'));

    async function body() {
      ensureBuilt({ err: io.err });
      const st = requireState(args.state, [], io);
      const ctx = await connect(args.rpc);
      if (Number(st.chainId) !== ctx.chainId) die(`state is for chain ${st.chainId}, RPC is chain ${ctx.chainId}`, 1);
      const art = loadArtifact('BenchEmitter');
      const wallet = ctx.wallet(ANVIL_KEYS[0]);
      const pc = ctx.publicClient;

      if (!st.benchEmitter || !(await hasCode(pc, st.benchEmitter))) {
        const d = await deploy(ctx, wallet, art);
        st.benchEmitter = d.address;
        st.benchEmitterDeployBlock = Number(d.receipt.blockNumber);
        st.benchNextIndex = 0;
        writeStateAtomic(args.state, st, io);
      }
      const emitter = st.benchEmitter;
      let next = BigInt(st.benchNextIndex || 0);

      if (total === 0) {
        const bn = Number(await pc.getBlockNumber());
        io.out(JSON.stringify({ emitter, fromBlock: bn + 1, toBlock: bn, events: 0, transactions: 0 }) + '\n');
        return;
      }

      // One gas estimate for a full batch (+25 %) serves every batch; fees fixed for the run.
      const full = BigInt(Math.min(batch, total));
      const est = await pc.estimateContractGas({
        address: emitter,
        abi: art.abi,
        functionName: 'emitMany',
        args: [full, routeSeed, routes, next],
        account: wallet.account,
      });
      const gas = (est * 5n) / 4n;
      const block = await pc.getBlock();
      const maxPriorityFeePerGas = 1_000_000_000n;
      const maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 4n + maxPriorityFeePerGas;
      let nonce = await pc.getTransactionCount({ address: wallet.account.address, blockTag: 'pending' });

      const hashes = [];
      for (let done = 0; done < total; ) {
        const n = Math.min(batch, total - done);
        hashes.push(
          await wallet.writeContract({
            address: emitter,
            abi: art.abi,
            functionName: 'emitMany',
            args: [BigInt(n), routeSeed, routes, next],
            gas,
            nonce: nonce++,
            maxFeePerGas,
            maxPriorityFeePerGas,
          }),
        );
        next += BigInt(n);
        done += n;
      }

      let fromBlock = Infinity;
      let toBlock = -1;
      let events = 0;
      for (const h of hashes) {
        const r = await waitReceipt(pc, h);
        if (r.status !== 'success') die(`emitMany reverted in tx ${h}`, 1);
        fromBlock = Math.min(fromBlock, Number(r.blockNumber));
        toBlock = Math.max(toBlock, Number(r.blockNumber));
        events += r.logs.filter((l) => l.address.toLowerCase() === emitter.toLowerCase()).length;
      }
      if (events !== total) die(`expected ${total} events, receipts show ${events}`, 1);

      st.benchNextIndex = Number(next);
      writeStateAtomic(args.state, st, io);
      io.out(JSON.stringify({ emitter, fromBlock, toBlock, events, transactions: hashes.length }) + '\n');
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
