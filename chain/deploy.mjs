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
// - deploys the tip contracts (docs/PROTOCOL.md, Tips): AgentIdentityRegistry (ERC-8004),
//   GratitudeAttestation (soulbound, base URI ATTESTATION_BASE_URI) and TipSettlement with
//   trusted signer = anvil #9 and escrow guardian = anvil #0 (TIP_SIGNER_INDEX,
//   TIP_GUARDIAN_INDEX), burns 500000e18 (private) and 3000000e18 (attestation) BOON, unlock
//   price 1000000 USDC units; then makes TipSettlement the attestation's only minter
// - writes FILE: {chainId, usdc, boon, companion, companionDeployBlock, multicall3, deployer,
//   tips, tipsDeployBlock, attestation, attestationDeployBlock, identityRegistry,
//   identityRegistryDeployBlock, tipSigner, tipGuardian} (EIP-55 addresses, numbers as JSON
//   numbers) and prints the same object on stdout as one line
// - if FILE exists and its companion address has code on the chain, keeps what is there and
//   only deploys the tip contracts when FILE has none with code (a state from before them)
// A tool of tools/cli.mjs: the suite's helper runs it in process.
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
  sendCall,
  ANVIL_KEYS,
  TIP_SIGNER_INDEX,
  TIP_GUARDIAN_INDEX,
  PRIVATE_TIP_BURN,
  ATTESTATION_BURN,
  UNLOCK_PRICE_USDC,
  ATTESTATION_BASE_URI,
  CANONICAL_USDC,
  MULTICALL3,
  tool,
  orDie,
} from './lib.mjs';
import { cli } from '../tools/cli.mjs';

const USAGE = 'usage: node chain/deploy.mjs --rpc URL --out FILE [--deployer-key 0xKEY]';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(argv, { rpc: 'string', out: 'string', 'deployer-key': 'string' }, ['rpc', 'out'], USAGE);

    async function setCode(ctx, address, code) {
      await ctx.publicClient.request({ method: 'anvil_setCode', params: [address, code] });
      const got = await ctx.publicClient.getCode({ address });
      if (!got || got.toLowerCase() !== code.toLowerCase()) throw new Error(`anvil_setCode at ${address} did not take`);
    }

    /** The tip contracts: registry, attestation, tips; the attestation's minter set to tips. */
    async function deployTips(ctx, wallet, usdc, boon) {
      const signer = ctx.wallet(ANVIL_KEYS[TIP_SIGNER_INDEX]).account.address;
      const guardian = ctx.wallet(ANVIL_KEYS[TIP_GUARDIAN_INDEX]).account.address;
      const registry = await deploy(ctx, wallet, loadArtifact('AgentIdentityRegistry'));
      const attArt = loadArtifact('GratitudeAttestation');
      const att = await deploy(ctx, wallet, attArt, [ATTESTATION_BASE_URI]);
      const tips = await deploy(ctx, wallet, loadArtifact('TipSettlement'), [
        usdc,
        boon,
        registry.address,
        att.address,
        signer,
        guardian,
        PRIVATE_TIP_BURN,
        ATTESTATION_BURN,
        UNLOCK_PRICE_USDC,
      ]);
      await sendCall(ctx, wallet, { address: att.address, abi: attArt.abi, functionName: 'setMinter', args: [tips.address] });
      return {
        tips: tips.address,
        tipsDeployBlock: Number(tips.receipt.blockNumber),
        attestation: att.address,
        attestationDeployBlock: Number(att.receipt.blockNumber),
        identityRegistry: registry.address,
        identityRegistryDeployBlock: Number(registry.receipt.blockNumber),
        tipSigner: getAddress(signer),
        tipGuardian: getAddress(guardian),
      };
    }

    async function body() {
      ensureBuilt({ err: io.err });
      const ctx = await connect(args.rpc);

      const deployerKey = args['deployer-key'] ? parseKey(args['deployer-key'], '--deployer-key') : ANVIL_KEYS[0];
      const wallet = ctx.wallet(deployerKey);
      const deployer = getAddress(wallet.account.address);

      const existing = readState(args.out, io);
      if (existing && existing.companion && Number(existing.chainId) === ctx.chainId) {
        if (await hasCode(ctx.publicClient, existing.companion)) {
          if (existing.tips && (await hasCode(ctx.publicClient, existing.tips))) {
            io.err(`deploy.mjs: ${args.out} is current (companion ${existing.companion} has code); nothing to do\n`);
            io.out(JSON.stringify(existing) + '\n');
            return;
          }
          const state = { ...existing, ...(await deployTips(ctx, wallet, existing.usdc, existing.boon)) };
          writeStateAtomic(args.out, state, io);
          io.err(`deploy.mjs: added the tip contracts to ${args.out}\n`);
          io.out(JSON.stringify(state) + '\n');
          return;
        }
      }

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
        ...(await deployTips(ctx, wallet, usdc, boon)),
      };
      writeStateAtomic(args.out, state, io);
      io.out(JSON.stringify(state) + '\n');
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
