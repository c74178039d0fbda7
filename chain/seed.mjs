#!/usr/bin/env node
// Demo seed for `make run`: a fixed set of routed recognitions across 12 routes.
//
// Usage: node chain/seed.mjs --rpc URL --state FILE
//
// Tippers are anvil accounts #1..#6. Endpoint payTo wallets are one per API origin, derived
// deterministically (private key = keccak256("waymark:seed:payto:" + origin)); the network
// wallet's key is keccak256("waymark:seed:network"). routeId is the Boon derivation
// keccak256(utf8("boon:x402-route:v1\n" + METHOD + "\n" + ORIGIN + "\n" + PATH)), and each
// contextRef is settlementContextRef("eip155:<chainId>", keccak256("waymark:seed:purchase:<k>")).
// The contents are the same on every run; each run sends them again (it does not check for an
// earlier seed).
//
// Prints one JSON object on stdout:
//   {routes:[{routeId, method, url, endpointPayTo}], networkPayTo, recognitions: N}
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { keccak256, toBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  parseArgs,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  requireState,
  fundAndApprove,
  waitReceipt,
  revertReason,
  routedBoonsFromReceipt,
  routeIdFor,
  settlementContextRef,
  ANVIL_KEYS,
  ZERO_ADDRESS,
  BURN_AMOUNT,
  tool,
  orDie,
} from './lib.mjs';
import { cli } from '../tools/cli.mjs';

const USAGE = 'usage: node chain/seed.mjs --rpc URL --state FILE';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(argv, { rpc: 'string', state: 'string' }, ['rpc', 'state'], USAGE);

    // [method, url, weight (number of recognitions)]; URLs are already normalized.
    const ROUTES = [
      ['GET', 'https://api.weatherdata.example.com/v1/forecast', 6],
      ['POST', 'https://api.translate.example.com/v2/translate', 5],
      ['GET', 'https://api.weatherdata.example.com/v1/alerts', 4],
      ['GET', 'https://maps.geocode.example.com/v1/reverse', 4],
      ['POST', 'https://api.imagegen.example.com/v1/images/generations', 3],
      ['GET', 'https://data.markets.example.com/v3/quotes', 3],
      ['POST', 'https://api.summarize.example.com/v1/summarize', 3],
      ['GET', 'https://search.papers.example.com/api/search', 2],
      ['POST', 'https://api.ocr.example.com/v1/extract', 2],
      ['GET', 'https://news.feedhub.example.com/v2/headlines', 2],
      ['POST', 'https://api.speech.example.com/v1/transcribe', 1],
      ['GET', 'https://chain.insights.example.com/v1/wallet/risk', 1],
    ];
    // Endpoint gratuities in atomic USDC (6 decimals): $0.01 … $1.00.
    const AMOUNTS = [10000n, 25000n, 50000n, 100000n, 250000n, 500000n, 1000000n];

    const walletOf = (seed) => privateKeyToAccount(keccak256(toBytes(seed))).address;

    function plan(chainId) {
      const routes = ROUTES.map(([method, url]) => {
        const origin = new URL(url).origin;
        return { routeId: routeIdFor(method, url), method, url, endpointPayTo: walletOf(`waymark:seed:payto:${origin}`) };
      });
      const networkPayTo = walletOf('waymark:seed:network');

      // Interleave routes round-robin while they have recognitions left.
      const order = [];
      const left = ROUTES.map((r) => r[2]);
      while (left.some((x) => x > 0)) {
        for (let i = 0; i < left.length; i++) if (left[i] > 0) (order.push(i), left[i]--);
      }

      const recs = order.map((ri, k) => {
        const r = routes[ri];
        const endpointUsdc = AMOUNTS[(k * 3) % AMOUNTS.length];
        let endpoint = r.endpointPayTo;
        let eu = endpointUsdc;
        let network = ZERO_ADDRESS;
        let nu = 0n;
        if (k % 3 === 2) {
          network = networkPayTo;
          nu = endpointUsdc / 10n;
        }
        if (k === order.length - 1) {
          // One network-only recognition (zero endpoint row), as the protocol allows.
          endpoint = ZERO_ADDRESS;
          eu = 0n;
          network = networkPayTo;
          nu = 20000n;
        }
        const purchaseTx = keccak256(toBytes(`waymark:seed:purchase:${k}`));
        return {
          tipperIndex: 1 + (k % 6),
          args: [r.routeId, settlementContextRef(`eip155:${chainId}`, purchaseTx), endpoint, eu, network, nu],
        };
      });
      return { routes, networkPayTo, recs };
    }

    async function body() {
      ensureBuilt({ err: io.err });
      const st = requireState(args.state, [], io);
      const ctx = await connect(args.rpc);
      if (Number(st.chainId) !== ctx.chainId) die(`state is for chain ${st.chainId}, RPC is chain ${ctx.chainId}`, 1);
      const abi = loadArtifact('RoutedBoonCompanion').abi;
      const { routes, networkPayTo, recs } = plan(ctx.chainId);

      // Fund and approve each tipper once for everything it will send.
      const wallets = {};
      const need = {};
      for (const r of recs) {
        const t = r.tipperIndex;
        wallets[t] ??= ctx.wallet(ANVIL_KEYS[t]);
        need[t] ??= { usdc: 0n, boon: 0n };
        need[t].usdc += r.args[3] + r.args[5];
        need[t].boon += BURN_AMOUNT;
      }
      for (const t of Object.keys(need)) await fundAndApprove(ctx, wallets[t], st, need[t].usdc, need[t].boon);

      let sent = 0;
      for (const r of recs) {
        let hash;
        try {
          hash = await wallets[r.tipperIndex].writeContract({
            address: st.companion,
            abi,
            functionName: 'sendRoutedBoon',
            args: r.args,
          });
        } catch (e) {
          die(`recognition ${sent}: ${revertReason(e)}`, 1);
        }
        const receipt = await waitReceipt(ctx.publicClient, hash);
        if (receipt.status !== 'success' || routedBoonsFromReceipt(receipt, st.companion, abi).length !== 1) {
          die(`recognition ${sent} (tx ${hash}) did not emit RoutedBoon`, 1);
        }
        sent++;
      }
      io.out(JSON.stringify({ routes, networkPayTo, recognitions: sent }) + '\n');
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
