#!/usr/bin/env node
// Deploy the local-chain contracts to an anvil node and write a state file.
//
// Usage: node chain/deploy.mjs --rpc URL --out FILE [--deployer-key 0x…]
//
// - compiles first if chain/build is stale (chain/compile.mjs)
// - reads eth_chainId; on 8453 / 84532 places TestUSDC's runtime code at the canonical USDC
//   address with anvil_setCode, on any other chain id deploys TestUSDC normally
// - places Multicall3Lite's runtime code at 0xcA11bde05977b3631167028862bE2a173976CA11
// - deploys BoonToken and RoutedBoonCompanion(usdc, boon) from anvil account #0
// - writes FILE: {chainId, usdc, boon, companion, companionDeployBlock, multicall3, deployer}
//   (EIP-55 addresses, numbers as JSON numbers) and prints the same object on stdout as one line
// - if FILE exists and its companion address has code on the chain, changes nothing
import { getAddress } from 'viem';
import {
  parseArgs,
  parseKey,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  readState,
  writeStateAtomic,
  deploy,
  hasCode,
  ANVIL_KEYS,
  CANONICAL_USDC,
  MULTICALL3,
} from './lib.mjs';

const USAGE = 'usage: node chain/deploy.mjs --rpc URL --out FILE [--deployer-key 0xKEY]';
const args = parseArgs(process.argv.slice(2), { rpc: 'string', out: 'string', 'deployer-key': 'string' }, ['rpc', 'out'], USAGE);

async function setCode(ctx, address, code) {
  await ctx.publicClient.request({ method: 'anvil_setCode', params: [address, code] });
  const got = await ctx.publicClient.getCode({ address });
  if (!got || got.toLowerCase() !== code.toLowerCase()) throw new Error(`anvil_setCode at ${address} did not take`);
}

async function main() {
  ensureBuilt();
  const ctx = await connect(args.rpc);

  const existing = readState(args.out);
  if (existing && existing.companion && Number(existing.chainId) === ctx.chainId) {
    if (await hasCode(ctx.publicClient, existing.companion)) {
      process.stderr.write(`deploy.mjs: ${args.out} is current (companion ${existing.companion} has code); nothing to do\n`);
      process.stdout.write(JSON.stringify(existing) + '\n');
      return;
    }
  }

  const deployerKey = args['deployer-key'] ? parseKey(args['deployer-key'], '--deployer-key') : ANVIL_KEYS[0];
  const wallet = ctx.wallet(deployerKey);
  const deployer = getAddress(wallet.account.address);

  const usdcArt = loadArtifact('TestUSDC');
  let usdc = CANONICAL_USDC[ctx.chainId];
  if (usdc) {
    await setCode(ctx, usdc, usdcArt.deployedBytecode);
  } else {
    usdc = (await deploy(ctx, wallet, usdcArt)).address;
  }
  await setCode(ctx, MULTICALL3, loadArtifact('Multicall3Lite').deployedBytecode);

  const boon = (await deploy(ctx, wallet, loadArtifact('BoonToken'))).address;
  const comp = await deploy(ctx, wallet, loadArtifact('RoutedBoonCompanion'), [usdc, boon]);

  const state = {
    chainId: ctx.chainId,
    usdc: getAddress(usdc),
    boon,
    companion: comp.address,
    companionDeployBlock: Number(comp.receipt.blockNumber),
    multicall3: getAddress(MULTICALL3),
    deployer,
  };
  writeStateAtomic(args.out, state);
  process.stdout.write(JSON.stringify(state) + '\n');
}

main().catch((e) => die(e.shortMessage || e.message, 1));
