#!/usr/bin/env node
// Send routed recognitions (RoutedBoonCompanion.sendRoutedBoon) for tests and the demo seed.
//
// Usage:
//   node chain/send.mjs --rpc URL --state FILE --from-key 0xKEY --route 0x<64hex>
//        [--context 0x<64hex>] [--endpoint 0xADDR --endpoint-usdc ATOMIC]
//        [--network 0xADDR --network-usdc ATOMIC] [--count N]
//        [--expect-revert [--expect-reason STRING]]
//
// Normal mode: mints the shortfall of USDC (count × (endpoint+network)) and BOON (count × 1e23)
// to the tipper, approves the companion for those amounts, sends N transactions one after the
// other, waits for each receipt, and prints one JSON line per recognition:
//   {txHash, logIndex, blockNumber, blockHash, routeId, tipper, contextRef, endpointPayTo,
//    endpointGratuityUsdc, networkPayTo, networkGratuityUsdc, boonBurned}
// (amounts as decimal strings, addresses EIP-55, logIndex/blockNumber as numbers).
//
// --expect-revert: funds and approves the same way, then eth_calls sendRoutedBoon once and
// prints {"reverted":true,"reason":"…"}; exits 1 if the call did not revert or, with
// --expect-reason, if the reason differs. No transaction is sent in this mode.
//
// Defaults: --context 0x00…00, --endpoint/--network 0x00…00, amounts 0, --count 1.
// The same contextRef is used for every one of the N recognitions.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import {
  parseArgs,
  parseBytes32,
  parseAddress,
  parseUint,
  parseKey,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  requireState,
  fundAndApprove,
  waitReceipt,
  revertReason,
  routedBoonsFromReceipt,
  ZERO_ADDRESS,
  ZERO_HASH,
  BURN_AMOUNT,
  tool,
  orDie,
} from './lib.mjs';
import { cli } from '../tools/cli.mjs';

const USAGE =
  'usage: node chain/send.mjs --rpc URL --state FILE --from-key 0xKEY --route 0x<64hex> [--context 0x<64hex>]\n' +
  '       [--endpoint 0xADDR --endpoint-usdc ATOMIC] [--network 0xADDR --network-usdc ATOMIC] [--count N]\n' +
  '       [--expect-revert [--expect-reason STRING]]';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(
      argv,
      {
        rpc: 'string',
        state: 'string',
        'from-key': 'string',
        route: 'string',
        context: 'string',
        endpoint: 'string',
        'endpoint-usdc': 'string',
        network: 'string',
        'network-usdc': 'string',
        count: 'string',
        'expect-revert': 'bool',
        'expect-reason': 'string',
      },
      ['rpc', 'state', 'from-key', 'route'],
      USAGE,
    );

    const key = parseKey(args['from-key'], '--from-key');
    const routeId = parseBytes32(args.route, '--route');
    const contextRef = args.context === undefined ? ZERO_HASH : parseBytes32(args.context, '--context');
    const endpoint = args.endpoint === undefined ? ZERO_ADDRESS : parseAddress(args.endpoint, '--endpoint');
    const endpointUsdc = args['endpoint-usdc'] === undefined ? 0n : parseUint(args['endpoint-usdc'], '--endpoint-usdc');
    const network = args.network === undefined ? ZERO_ADDRESS : parseAddress(args.network, '--network');
    const networkUsdc = args['network-usdc'] === undefined ? 0n : parseUint(args['network-usdc'], '--network-usdc');
    const count = args.count === undefined ? 1 : Number(parseUint(args.count, '--count'));
    if (!args['expect-revert'] && count < 1) die('--count must be at least 1');
    if (args['expect-reason'] !== undefined && !args['expect-revert']) die('--expect-reason needs --expect-revert');

    async function body() {
      ensureBuilt({ err: io.err });
      const st = requireState(args.state, [], io);
      const ctx = await connect(args.rpc);
      if (Number(st.chainId) !== ctx.chainId) die(`state is for chain ${st.chainId}, RPC is chain ${ctx.chainId}`, 1);
      const wallet = ctx.wallet(key);
      const abi = loadArtifact('RoutedBoonCompanion').abi;
      const n = BigInt(Math.max(count, 1));

      await fundAndApprove(ctx, wallet, st, (endpointUsdc + networkUsdc) * n, BURN_AMOUNT * n);

      const call = {
        address: st.companion,
        abi,
        functionName: 'sendRoutedBoon',
        args: [routeId, contextRef, endpoint, endpointUsdc, network, networkUsdc],
      };

      if (args['expect-revert']) {
        try {
          await ctx.publicClient.simulateContract({ ...call, account: wallet.account });
        } catch (e) {
          const reason = revertReason(e);
          io.out(JSON.stringify({ reverted: true, reason }) + '\n');
          if (args['expect-reason'] !== undefined && reason !== args['expect-reason']) {
            die(`reverted with "${reason}", expected "${args['expect-reason']}"`, 1);
          }
          return;
        }
        io.out(JSON.stringify({ reverted: false, reason: null }) + '\n');
        die('sendRoutedBoon did not revert', 1);
      }

      for (let i = 0; i < count; i++) {
        let hash;
        try {
          hash = await wallet.writeContract(call);
        } catch (e) {
          die(`sendRoutedBoon failed: ${revertReason(e)}`, 1);
        }
        const receipt = await waitReceipt(ctx.publicClient, hash);
        if (receipt.status !== 'success') die(`sendRoutedBoon reverted in tx ${hash}`, 1);
        const evs = routedBoonsFromReceipt(receipt, st.companion, abi);
        if (evs.length !== 1) die(`tx ${hash}: expected 1 RoutedBoon event, found ${evs.length}`, 1);
        io.out(JSON.stringify(evs[0]) + '\n');
      }
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
