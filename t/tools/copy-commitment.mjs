#!/usr/bin/env node
// A private tip that carries a commitment of someone else's, as anyone can
// copy it from the chain (docs/PROTOCOL.md, Private tips: a blob belongs to
// the earliest indexed tip that carries its commitment). chain/tips.mjs draws
// its own salt, so this sends tipPrivate itself, with the helpers of
// chain/lib.mjs: the tipper is funded from the open test mints and approves
// the tips contract, then tips the handle (escrowed while it is unlinked).
//
// Usage: node copy-commitment.mjs --rpc URL --state FILE --from-key 0xKEY --handle H
//          --commitment 0xC [--amount N]   (default 150000)
// Prints one JSON line: {txHash, blockNumber, tipId, tipper, handle, amount, commitment}.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { getAddress } from 'viem';
import {
  parseArgs,
  parseKey,
  parseUint,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  requireState,
  fundAndApprove,
  waitReceipt,
  handleHash,
  eventsFromReceipt,
  tool,
  orDie,
} from '../../chain/lib.mjs';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const USAGE = 'usage: node copy-commitment.mjs --rpc URL --state FILE --from-key 0xKEY --handle H --commitment 0xC [--amount N]';
    const args = parseArgs(argv,
      { rpc: 'string', state: 'string', 'from-key': 'string', handle: 'string', commitment: 'string', amount: 'string' },
      ['rpc', 'state', 'from-key', 'handle', 'commitment'], USAGE);
    if (!/^0x[0-9a-fA-F]{64}$/.test(args.commitment)) die(`--commitment must be 0x and 64 hex digits\n${USAGE}`);

    async function body() {
      ensureBuilt({ err: io.err });
      const st = requireState(args.state, ['tips'], io);
      const ctx = await connect(args.rpc);
      const wallet = ctx.wallet(parseKey(args['from-key'], '--from-key'));
      const abi = loadArtifact('TipSettlement').abi;
      const amount = args.amount === undefined ? 150000n : parseUint(args.amount, '--amount');
      const read = (fn, a = []) => ctx.publicClient.readContract({ address: st.tips, abi, functionName: fn, args: a });
      const hh = handleHash(args.handle);
      const expect = await read('linkedWallet', [hh]);
      await fundAndApprove(ctx, wallet, st, amount, await read('PRIVATE_TIP_BURN'), st.tips);
      const none = { deadline: 0n, v: 0, r: '0x' + '00'.repeat(32), s: '0x' + '00'.repeat(32) };
      const { request } = await ctx.publicClient.simulateContract({
        address: st.tips, abi, functionName: 'tipPrivate',
        args: [hh, args.handle, expect, amount, args.commitment, false, none], account: wallet.account,
      });
      const hash = await wallet.writeContract(request);
      const receipt = await waitReceipt(ctx.publicClient, hash);
      if (receipt.status !== 'success') die(`tipPrivate reverted in tx ${hash}`, 1);
      const ev = eventsFromReceipt(receipt, [{ contract: 'tips', address: st.tips, abi }])
        .find((e) => e.args.tipId !== undefined);
      io.out(JSON.stringify({
        txHash: hash, blockNumber: Number(receipt.blockNumber), tipId: ev ? ev.args.tipId : null,
        tipper: getAddress(wallet.account.address), handle: args.handle, amount: amount.toString(), commitment: args.commitment,
      }) + '\n');
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
