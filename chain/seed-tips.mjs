#!/usr/bin/env node
// Demo seed of tips for `make run` (after chain/seed.mjs): two registered ERC-8004 agents and a
// few dozen tips of every kind on the tip contracts deployed by chain/deploy.mjs.
//
// Usage: node chain/seed-tips.mjs --rpc URL --state FILE
//
// Tippers are anvil #1..#4; the agents are registered by anvil #5 (agent 1, payout = owner) and
// #6 (agent 2, whose agent wallet is then set to a wallet of its own). Handle wallets are derived
// deterministically (private key = keccak256("waymark:seed:wallet:" + name)). The story:
//   - github:alice and x:carol are linked first; they get pushed tips (some with attestations);
//   - github:bob-dev gets escrowed tips, then a linkAndClaim (guardian co-signed) claims them all;
//   - github:dave gets escrowed tips, is linked with linkEscrowed, and one claim(maxItems 2)
//     leaves one tip in escrow; github:frank is never linked (his tips stay escrowed);
//   - github:alice is relinked to a new wallet and later pushes go there;
//   - agent tips to both agents, paid to the payout the registry gives at tip time;
//   - private tips (commitment only) pushed, escrowed and to an agent.
// No refund: one needs the chain clock 180 days ahead, which would put every later block (the
// x402 payments of the demo and of the tests) outside its authorization's validity window.
// The contents are the same on every run. Prints one JSON object:
//   {agents:[{agentId, owner, payout}], handles:{name: wallet}, tips: N, byKind: {...}}
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { keccak256, toBytes, toHex, getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  parseArgs,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  requireState,
  fundAndApprove,
  ensureGas,
  waitReceipt,
  revertReason,
  handleHash,
  privateCommitment,
  signLink,
  signAgentWallet,
  eventsFromReceipt,
  ANVIL_KEYS,
  TIP_SIGNER_INDEX,
  TIP_GUARDIAN_INDEX,
  PRIVATE_TIP_BURN,
  ATTESTATION_BURN,
  ZERO_ADDRESS,
  tool,
  orDie,
} from './lib.mjs';
import { cli } from '../tools/cli.mjs';

const USAGE = 'usage: node chain/seed-tips.mjs --rpc URL --state FILE';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(argv, { rpc: 'string', state: 'string' }, ['rpc', 'state'], USAGE);

    const walletKey = (name) => keccak256(toBytes(`waymark:seed:wallet:${name}`));
    const walletOf = (name) => privateKeyToAccount(walletKey(name)).address;
    const NO_PERMIT = { deadline: 0n, v: 0, r: '0x' + '00'.repeat(32), s: '0x' + '00'.repeat(32) };

    // [tipper index, target, amount (USDC units), note, attest, private]; target 'agent:N' or a handle.
    // '#' lines are steps between tips.
    const PLAN = [
      ['link', 'github:alice', 'alice-1'],
      ['link', 'x:carol', 'carol'],
      [1, 'github:alice', 500000n, 'pr:acme/widgets#12 thanks for the fast fix', true, false],
      [2, 'github:alice', 250000n, 'review:acme/widgets#14 careful review', false, false],
      [3, 'github:alice', 1000000n, 'pr:acme/widgets#15', false, false],
      [1, 'x:carol', 150000n, 'great thread on x402 receipts', false, false],
      [4, 'x:carol', 200000n, '', true, false],
      [2, 'x:carol', 100000n, 'x:1790000000000000001', false, false],
      [1, 'github:bob-dev', 300000n, 'pr:tools/lint-rs#3', true, false],
      [2, 'github:bob-dev', 120000n, 'review:tools/lint-rs#4', false, false],
      [3, 'github:bob-dev', 450000n, '', false, false],
      [4, 'github:bob-dev', 100000n, 'pr:tools/lint-rs#9', false, false],
      ['link-claim', 'github:bob-dev', 'bob'],
      [1, 'github:dave', 200000n, 'pr:acme/gateway#77', false, false],
      [3, 'github:dave', 350000n, 'review:acme/gateway#78', true, false],
      [4, 'github:dave', 125000n, '', false, false],
      ['link-escrowed', 'github:dave', 'dave'],
      ['claim', 'github:dave', 2n],
      [2, 'github:frank', 400000n, 'pr:frank/dotfiles#1', false, false],
      [3, 'github:frank', 100000n, '', false, false],
      [1, 'github:frank', 175000n, 'review:acme/widgets#20', false, false],
      [1, 'agent:1', 220000n, 'the weather bot answered in 40 ms', false, false],
      [2, 'agent:1', 90000n, '', true, false],
      [4, 'agent:2', 600000n, 'translation was spot on', false, false],
      ['agent-wallet', 2],
      [3, 'agent:2', 330000n, 'after the payout moved', true, false],
      [1, 'agent:2', 50000n, '', false, false],
      ['relink', 'github:alice', 'alice-2'],
      [4, 'github:alice', 750000n, 'pr:acme/widgets#21 after the wallet change', false, false],
      [2, 'github:alice', 125000n, 'review:acme/widgets#22', false, false],
      [3, 'github:alice', 500000n, 'private thanks', false, true],
      [4, 'github:alice', 200000n, 'private, with attestation', true, true],
      [1, 'x:erin_eth', 300000n, 'private escrow', false, true],
      [2, 'agent:1', 400000n, 'private to an agent', false, true],
      [3, 'x:carol', 2500000n, 'pr:carol/site#5 big one', false, false],
      [4, 'github:dave', 150000n, 'pr:acme/gateway#80', false, false],
      [1, 'github:bob-dev', 220000n, 'pr:tools/lint-rs#12 pushed now that it is linked', false, false],
      [2, 'github:bob-dev', 80000n, '', false, false],
      [3, 'agent:1', 140000n, 'review:acme/weather-api#3', false, false],
      [4, 'x:carol', 60000n, 'x:1790000000000000042', false, false],
      [1, 'github:alice', 300000n, 'review:acme/widgets#25', true, false],
      [2, 'agent:2', 95000n, 'second translation', false, false],
      [3, 'github:frank', 100000n, 'private for frank', false, true],
    ];

    let ctx, st, abis;

    function sources() {
      return [
        { contract: 'tips', address: st.tips, abi: abis.tips },
        { contract: 'attestation', address: st.attestation, abi: abis.attestation },
        { contract: 'registry', address: st.identityRegistry, abi: abis.registry },
      ];
    }

    let lastTx = null;   // the transaction of the latest send()

    async function send(wallet, call, what) {
      let hash;
      try {
        const { request } = await ctx.publicClient.simulateContract({ ...call, account: wallet.account });
        hash = await wallet.writeContract(request);
      } catch (e) {
        die(`${what}: ${revertReason(e)}`, 1);
      }
      const receipt = await waitReceipt(ctx.publicClient, hash);
      if (receipt.status !== 'success') die(`${what} reverted in tx ${hash}`, 1);
      lastTx = hash;
      return eventsFromReceipt(receipt, sources());
    }

    const read = (address, abi, functionName, a = []) => ctx.publicClient.readContract({ address, abi, functionName, args: a });

    async function linkStep(kind, handle, walletName, maxItems) {
      const hh = handleHash(handle);
      const sender = ctx.wallet(ANVIL_KEYS[7]);
      await ensureGas(ctx, sender.account.address);
      if (kind === 'claim') {
        return send(sender, { address: st.tips, abi: abis.tips, functionName: 'claim', args: [hh, maxItems] }, `claim ${handle}`);
      }
      const to = walletOf(walletName);
      const nonce = await read(st.tips, abis.tips, 'nonces', [hh]);
      const worker = await signLink(ctx, ANVIL_KEYS[TIP_SIGNER_INDEX], st.tips, hh, to, nonce);
      const guardian = await signLink(ctx, ANVIL_KEYS[TIP_GUARDIAN_INDEX], st.tips, hh, to, nonce);
      const calls = {
        link: ['link', [hh, to, nonce, worker]],
        relink: ['relink', [hh, to, nonce, worker]],
        'link-claim': ['linkAndClaim', [hh, to, nonce, worker, guardian, 0n]],
        'link-escrowed': ['linkEscrowed', [hh, to, nonce, worker, guardian]],
      };
      const [fn, a] = calls[kind];
      return send(sender, { address: st.tips, abi: abis.tips, functionName: fn, args: a }, `${kind} ${handle}`);
    }

    async function body() {
      ensureBuilt({ err: io.err });
      st = requireState(args.state, ['tips', 'attestation', 'identityRegistry'], io);
      ctx = await connect(args.rpc);
      if (Number(st.chainId) !== ctx.chainId) die(`state is for chain ${st.chainId}, RPC is chain ${ctx.chainId}`, 1);
      abis = {
        tips: loadArtifact('TipSettlement').abi,
        attestation: loadArtifact('GratitudeAttestation').abi,
        registry: loadArtifact('AgentIdentityRegistry').abi,
      };

      // Two agents.
      const agents = [];
      for (const [idx, uri] of [
        [5, 'https://agents.example/weather-bot.json'],
        [6, 'https://agents.example/translator.json'],
      ]) {
        const w = ctx.wallet(ANVIL_KEYS[idx]);
        await ensureGas(ctx, w.account.address);
        const evs = await send(w, { address: st.identityRegistry, abi: abis.registry, functionName: 'register', args: [uri] }, 'register');
        const reg = evs.find((e) => e.event === 'Registered');
        agents.push({ agentId: reg.args.agentId, owner: reg.args.owner, ownerIndex: idx });
      }

      // Fund and approve each tipper once for everything it sends.
      const need = {};
      for (const p of PLAN) {
        if (typeof p[0] !== 'number') continue;
        const [t, , amount, , attest, priv] = p;
        need[t] ??= { usdc: 0n, boon: 0n };
        need[t].usdc += amount;
        need[t].boon += (attest ? ATTESTATION_BURN : 0n) + (priv ? PRIVATE_TIP_BURN : 0n);
      }
      const wallets = {};
      for (const t of Object.keys(need)) {
        wallets[t] = ctx.wallet(ANVIL_KEYS[t]);
        await fundAndApprove(ctx, wallets[t], st, need[t].usdc, need[t].boon, st.tips);
      }

      const byKind = {};
      let tips = 0;
      const privateBlobs = [];
      for (const p of PLAN) {
        if (p[0] === 'agent-wallet') {
          const a = agents.find((x) => x.agentId === String(p[1]));
          const owner = ctx.wallet(ANVIL_KEYS[a.ownerIndex]);
          const key = walletKey(`agent-${a.agentId}-payout`);
          const newWallet = privateKeyToAccount(key).address;
          const deadline = (await ctx.publicClient.getBlock()).timestamp + 120n;
          const sig = await signAgentWallet(ctx, key, st.identityRegistry, BigInt(a.agentId), newWallet, a.owner, deadline);
          await send(owner, {
            address: st.identityRegistry,
            abi: abis.registry,
            functionName: 'setAgentWallet',
            args: [BigInt(a.agentId), newWallet, deadline, sig],
          }, 'setAgentWallet');
          continue;
        }
        if (typeof p[0] === 'string') {
          await linkStep(p[0], p[1], p[2], p[2]);
          continue;
        }
        const [t, target, amount, note, attest, priv] = p;
        const w = wallets[t];
        let call;
        const salt = toHex(crypto.getRandomValues(new Uint8Array(32)));   // random: see chain/tips.mjs
        const commitment = privateCommitment(note, salt);
        if (target.startsWith('agent:')) {
          const id = BigInt(target.slice(6));
          let payout = await read(st.identityRegistry, abis.registry, 'getAgentWallet', [id]);
          if (payout === ZERO_ADDRESS) payout = await read(st.identityRegistry, abis.registry, 'ownerOf', [id]);
          call = priv
            ? { functionName: 'tipPrivateAgent', args: [id, payout, amount, commitment, attest, NO_PERMIT] }
            : { functionName: 'tipAgent', args: [id, payout, amount, note, attest, NO_PERMIT] };
        } else {
          const hh = handleHash(target);
          const linked = await read(st.tips, abis.tips, 'linkedWallet', [hh]);
          call = priv
            ? { functionName: 'tipPrivate', args: [hh, target, linked, amount, commitment, attest, NO_PERMIT] }
            : { functionName: 'tip', args: [hh, target, linked, amount, note, attest, NO_PERMIT] };
        }
        const evs = await send(w, { address: st.tips, abi: abis.tips, ...call }, `tip ${tips} to ${target}`);
        const ev = evs.find((e) => e.contract === 'tips' && e.args.tipId !== undefined);
        byKind[ev.event] = (byKind[ev.event] || 0) + 1;
        // What the tipper keeps of a private tip: the note and salt of its blob (uploaded by
        // chain/seed-private.mjs once the service is up), and the key that may disclose it.
        if (priv) privateBlobs.push({ tipId: ev.args.tipId.toString(), txHash: lastTx, target, note, salt, commitment, tipperKey: t });
        tips++;
      }

      const handles = {};
      for (const h of ['github:alice', 'x:carol', 'github:bob-dev', 'github:dave', 'github:frank', 'x:erin_eth']) {
        handles[h] = getAddress(await read(st.tips, abis.tips, 'linkedWallet', [handleHash(h)]));
      }
      const out = [];
      for (const a of agents) {
        let payout = await read(st.identityRegistry, abis.registry, 'getAgentWallet', [BigInt(a.agentId)]);
        if (payout === ZERO_ADDRESS) payout = a.owner;
        out.push({ agentId: a.agentId, owner: a.owner, payout: getAddress(payout) });
      }
      io.out(JSON.stringify({ agents: out, handles, tips, byKind, privateBlobs }) + '\n');
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
