#!/usr/bin/env node
// Test ERC-1271 smart wallets (contracts/SmartWallet.sol) on the local chain, for the
// contract-wallet signature tests (ERC-1271 and EIP-6492).
//
// Usage: node chain/wallet.mjs --rpc URL --state FILE --owner-key 0xKEY --salt N [--deploy]
//          [--route 0x<64hex> --endpoint 0xADDR --endpoint-usdc ATOMIC]
//
// Deploys SmartWalletFactory from anvil account #0 unless the state file names one that has code
// (recorded as {walletFactory, walletFactoryDeployBlock}). Computes the CREATE2 address of the
// wallet of (owner, salt) and, with --deploy, creates it (idempotent). Prints one JSON line:
// {factory, wallet, owner, salt, deployed, factoryCalldata}; factoryCalldata is the
// createWallet(owner, salt) call that an EIP-6492 signature carries for an undeployed wallet.
// With --route (implies --deploy): the wallet itself sends one routed recognition. USDC and BOON
// are minted to the wallet (open test mints), and the owner has the wallet approve the companion
// and call sendRoutedBoon through SmartWallet.execute; the line then also has `recognition`
// (the same object chain/send.mjs prints).
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { encodeFunctionData, getAddress, pad, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  parseArgs,
  parseAddress,
  parseBytes32,
  parseKey,
  parseUint,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  requireState,
  writeStateAtomic,
  deploy,
  hasCode,
  sendCall,
  ensureGas,
  routedBoonsFromReceipt,
  ANVIL_KEYS,
  BURN_AMOUNT,
  ZERO_ADDRESS,
  ZERO_HASH,
  tool,
  orDie,
} from './lib.mjs';
import { cli } from '../tools/cli.mjs';

const USAGE =
  'usage: node chain/wallet.mjs --rpc URL --state FILE --owner-key 0xKEY --salt N [--deploy]\n' +
  '       [--route 0x<64hex> --endpoint 0xADDR --endpoint-usdc ATOMIC]';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(
      argv,
      {
        rpc: 'string',
        state: 'string',
        'owner-key': 'string',
        salt: 'string',
        deploy: 'bool',
        route: 'string',
        endpoint: 'string',
        'endpoint-usdc': 'string',
      },
      ['rpc', 'state', 'owner-key', 'salt'],
      USAGE,
    );
    const ownerKey = parseKey(args['owner-key'], '--owner-key');
    const owner = getAddress(privateKeyToAccount(ownerKey).address);
    const route = args.route === undefined ? null : parseBytes32(args.route, '--route');
    if (route && (args.endpoint === undefined || args['endpoint-usdc'] === undefined)) die('--route needs --endpoint and --endpoint-usdc');
    const salt = pad(toHex(parseUint(args.salt, '--salt')), { size: 32 });

    async function body() {
      ensureBuilt({ err: io.err });
      const ctx = await connect(args.rpc);
      const st = requireState(args.state, [], io);
      const art = loadArtifact('SmartWalletFactory');
      const wallet0 = ctx.wallet(ANVIL_KEYS[0]);
      if (!st.walletFactory || !(await hasCode(ctx.publicClient, st.walletFactory))) {
        const d = await deploy(ctx, wallet0, art);
        st.walletFactory = d.address;
        st.walletFactoryDeployBlock = Number(d.receipt.blockNumber);
        writeStateAtomic(args.state, st, io);
      }
      const factory = st.walletFactory;
      const wallet = getAddress(
        await ctx.publicClient.readContract({ address: factory, abi: art.abi, functionName: 'walletAddress', args: [owner, salt] }),
      );
      if ((args.deploy || route) && !(await hasCode(ctx.publicClient, wallet))) {
        await sendCall(ctx, wallet0, { address: factory, abi: art.abi, functionName: 'createWallet', args: [owner, salt] });
      }
      const factoryCalldata = encodeFunctionData({ abi: art.abi, functionName: 'createWallet', args: [owner, salt] });
      const out = { factory, wallet, owner, salt, deployed: await hasCode(ctx.publicClient, wallet), factoryCalldata };
      if (route) out.recognition = await recognize(ctx, st, wallet);
      io.out(JSON.stringify(out) + '\n');
    }

    /** The wallet sends one routed recognition (its owner drives it through execute). */
    async function recognize(ctx, st, wallet) {
      const endpoint = parseAddress(args.endpoint, '--endpoint');
      const usdc = parseUint(args['endpoint-usdc'], '--endpoint-usdc');
      const ownerClient = ctx.wallet(ownerKey);
      await ensureGas(ctx, owner);
      const walletAbi = loadArtifact('SmartWallet').abi;
      const companionAbi = loadArtifact('RoutedBoonCompanion').abi;
      const exec = (to, data) =>
        sendCall(ctx, ownerClient, { address: wallet, abi: walletAbi, functionName: 'execute', args: [to, 0n, data] });
      const tokens = [
        { address: st.usdc, abi: loadArtifact('TestUSDC').abi, need: usdc },
        { address: st.boon, abi: loadArtifact('BoonToken').abi, need: BURN_AMOUNT },
      ];
      for (const t of tokens) {
        await sendCall(ctx, ownerClient, { address: t.address, abi: t.abi, functionName: 'mint', args: [wallet, t.need] });
        await exec(t.address, encodeFunctionData({ abi: t.abi, functionName: 'approve', args: [st.companion, t.need] }));
      }
      const receipt = await exec(
        st.companion,
        encodeFunctionData({
          abi: companionAbi,
          functionName: 'sendRoutedBoon',
          args: [route, ZERO_HASH, endpoint, usdc, ZERO_ADDRESS, 0n],
        }),
      );
      const evs = routedBoonsFromReceipt(receipt, st.companion, companionAbi);
      if (evs.length !== 1) throw new Error(`expected 1 RoutedBoon event, found ${evs.length}`);
      return evs[0];
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
