#!/usr/bin/env node
// Drive the tip contracts (TipSettlement, GratitudeAttestation, AgentIdentityRegistry) for tests
// and the demo seed: every tip kind, link/relink vouchers, claims, refunds, agents.
//
// Usage: node chain/tips.mjs COMMAND --rpc URL --state FILE [options]
//
//   tip        --from-key K --handle H [--amount N] [--note S] [--attest] [--private]
//              [--expect-wallet 0xADDR|0x0] [--permit]
//   tip-agent  --from-key K --agent N [--amount N] [--note S] [--attest] [--private]
//              [--expect-wallet 0xADDR] [--permit]
//   link       --handle H --wallet 0xADDR [--no-guardian]        (Linked; linkEscrowed when
//              the handle has USDC in escrow: the guardian co-signs unless --no-guardian)
//   link-claim --handle H --wallet 0xADDR [--max N]              (linkAndClaim)
//   relink     --handle H --wallet 0xADDR                        (Relinked)
//   claim      --handle H [--max N] [--from-key K]
//   claim-specific --tips ID[,ID...] [--from-key K]
//   refund     --from-key K --tip ID
//   register   --from-key K [--uri U]                             (prints agentId)
//   set-agent-wallet   --from-key OWNER --agent N --wallet-key K  (the new wallet signs)
//   unset-agent-wallet --from-key OWNER --agent N
//   transfer-agent     --from-key OWNER --agent N --to 0xADDR
//   burn-attestation   --from-key HOLDER --tip ID
//   advance-time --seconds N                                      (anvil: evm_increaseTime + mine)
//   state      [--handle H] [--agent N]                           (reads only)
//
// Defaults: --amount 250000 ($0.25), --note "", --from-key anvil #7 for claims.
// The tipper is topped up with USDC and BOON from the open test mints and approves the tips
// contract; with --permit the BOON burn uses an ERC-2612 permit instead of an allowance.
// --expect-wallet defaults to what the chain says now (the linked wallet or 0x0 for a handle,
// the registry's payout for an agent). A private tip's note never leaves this script: only the
// commitment keccak256(salt || utf8(note)) goes on chain (salt: 32 random bytes); the JSON line
// carries commitment and salt, so a caller that knows the note can upload its blob
// (docs/PROTOCOL.md, Private tips).
//
// Every transaction prints one JSON line:
//   {op, txHash, blockNumber, blockHash, events:[{contract, event, logIndex, args}], ...}
// with tipId (tips), agentId (register) or claimed (claims) added. Amounts are decimal strings.
// --expect-revert [--expect-reason STR]: eth_call only, prints {"reverted":true,"reason":…};
// exit 1 if it did not revert or the reason differs.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { getAddress, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  parseArgs,
  parseAddress,
  parseUint,
  parseKey,
  die,
  connect,
  ensureBuilt,
  loadArtifact,
  requireState,
  fundAndApprove,
  ensureGas,
  waitReceipt,
  sendCall,
  revertReason,
  handleHash,
  privateCommitment,
  signLink,
  signAgentWallet,
  eventsFromReceipt,
  ANVIL_KEYS,
  TIP_SIGNER_INDEX,
  TIP_GUARDIAN_INDEX,
  ZERO_ADDRESS,
  tool,
  orDie,
} from './lib.mjs';
import { cli } from '../tools/cli.mjs';

const COMMANDS = [
  'tip',
  'tip-agent',
  'link',
  'link-claim',
  'relink',
  'claim',
  'claim-specific',
  'refund',
  'register',
  'set-agent-wallet',
  'unset-agent-wallet',
  'transfer-agent',
  'burn-attestation',
  'advance-time',
  'state',
];
const USAGE = `usage: node chain/tips.mjs {${COMMANDS.join('|')}} --rpc URL --state FILE [options] (see the file's header)`;

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const cmd = argv[0];
    if (cmd === '-h' || cmd === '--help') {
      io.out(USAGE + '\n');
      return 0;
    }
    if (!COMMANDS.includes(cmd)) die(`unknown command ${cmd ?? '(none)'}\n${USAGE}`);
    const args = parseArgs(
      argv.slice(1),
      {
        rpc: 'string',
        state: 'string',
        'from-key': 'string',
        handle: 'string',
        agent: 'string',
        amount: 'string',
        note: 'string',
        attest: 'bool',
        private: 'bool',
        'expect-wallet': 'string',
        permit: 'bool',
        wallet: 'string',
        'wallet-key': 'string',
        'no-guardian': 'bool',
        max: 'string',
        tips: 'string',
        tip: 'string',
        uri: 'string',
        to: 'string',
        seconds: 'string',
        'expect-revert': 'bool',
        'expect-reason': 'string',
      },
      ['rpc', 'state'],
      USAGE,
    );

    const need = (k) => {
      if (args[k] === undefined) die(`${cmd} needs --${k}\n${USAGE}`);
      return args[k];
    };
    const fromKey = (dflt) =>
      args['from-key'] !== undefined ? parseKey(args['from-key'], '--from-key') : dflt ?? die(`${cmd} needs --from-key`);

    function checkHandle(h) {
      // The contract checks the prefix and the hash; the tools only send canonical handles.
      if (!/^(github:[a-z0-9](?:-?[a-z0-9])*|x:[a-z0-9_]+)$/.test(h || '')) die(`--handle must be a canonical github: or x: handle`);
      return h;
    }

    let ctx, st, abis;

    function contracts() {
      return [
        { contract: 'tips', address: st.tips, abi: abis.tips },
        { contract: 'attestation', address: st.attestation, abi: abis.attestation },
        { contract: 'registry', address: st.identityRegistry, abi: abis.registry },
      ];
    }

    /** Simulate (for the revert check and return value), then send and report. */
    async function run(op, wallet, call, extra = () => ({})) {
      if (args['expect-revert']) {
        try {
          await ctx.publicClient.simulateContract({ ...call, account: wallet.account });
        } catch (e) {
          const reason = revertReason(e);
          io.out(JSON.stringify({ reverted: true, reason }) + '\n');
          if (args['expect-reason'] !== undefined && reason !== args['expect-reason']) {
            die(`reverted with "${reason}", expected "${args['expect-reason']}"`, 1);
          }
          return null;
        }
        io.out(JSON.stringify({ reverted: false, reason: null }) + '\n');
        die(`${op} did not revert`, 1);
      }
      let hash;
      try {
        const { request } = await ctx.publicClient.simulateContract({ ...call, account: wallet.account });
        hash = await wallet.writeContract(request);
      } catch (e) {
        die(`${op} failed: ${revertReason(e)}`, 1);
      }
      const receipt = await waitReceipt(ctx.publicClient, hash);
      if (receipt.status !== 'success') die(`${op} reverted in tx ${hash}`, 1);
      const events = eventsFromReceipt(receipt, contracts());
      const out = {
        op,
        txHash: hash,
        blockNumber: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        events,
        ...extra(events),
      };
      io.out(JSON.stringify(out) + '\n');
      return out;
    }

    const read = (address, abi, functionName, a = []) => ctx.publicClient.readContract({ address, abi, functionName, args: a });

    async function agentPayout(agentId) {
      const w = await read(st.identityRegistry, abis.registry, 'getAgentWallet', [agentId]);
      if (w !== ZERO_ADDRESS) return getAddress(w);
      return getAddress(await read(st.identityRegistry, abis.registry, 'ownerOf', [agentId]));
    }

    async function permitFor(wallet, amount) {
      const none = { deadline: 0n, v: 0, r: '0x' + '00'.repeat(32), s: '0x' + '00'.repeat(32) };
      if (!args.permit || amount === 0n) return none;
      const owner = wallet.account.address;
      const nonce = await read(st.boon, loadArtifact('BoonToken').abi, 'nonces', [owner]);
      const name = await read(st.boon, loadArtifact('BoonToken').abi, 'name');
      const deadline = (await ctx.publicClient.getBlock()).timestamp + 3600n; // chain time, which tests may move
      const sig = await wallet.account.signTypedData({
        domain: { name, version: '1', chainId: ctx.chainId, verifyingContract: st.boon },
        types: {
          Permit: [
            { name: 'owner', type: 'address' },
            { name: 'spender', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'nonce', type: 'uint256' },
            { name: 'deadline', type: 'uint256' },
          ],
        },
        primaryType: 'Permit',
        message: { owner, spender: st.tips, value: amount, nonce, deadline },
      });
      const r = '0x' + sig.slice(2, 66);
      const s = '0x' + sig.slice(66, 130);
      const v = parseInt(sig.slice(130, 132), 16);
      return { deadline, v, r, s };
    }

    const tipIdOf = (events) => {
      const ev = events.find((e) => e.contract === 'tips' && e.args.tipId !== undefined);
      return ev ? { tipId: ev.args.tipId } : {};
    };

    async function doTip(agent) {
      const key = fromKey();
      const wallet = ctx.wallet(key);
      const amount = args.amount === undefined ? 250000n : parseUint(args.amount, '--amount');
      const note = args.note ?? '';
      const attest = !!args.attest;
      const priv = !!args.private;
      const burn = (priv ? await read(st.tips, abis.tips, 'PRIVATE_TIP_BURN') : 0n) +
        (attest ? await read(st.tips, abis.tips, 'ATTESTATION_BURN') : 0n);
      let target, expect, agentId;
      if (agent) {
        agentId = parseUint(need('agent'), '--agent');
        target = `agent:${agentId}`;
        expect = args['expect-wallet'] !== undefined ? parseAddress(args['expect-wallet'], '--expect-wallet') : await agentPayout(agentId);
      } else {
        target = checkHandle(need('handle'));
        expect = args['expect-wallet'] !== undefined
          ? parseAddress(args['expect-wallet'], '--expect-wallet')
          : getAddress(await read(st.tips, abis.tips, 'linkedWallet', [handleHash(target)]));
      }
      await fundAndApprove(ctx, wallet, st, amount, args.permit ? 0n : burn, st.tips);
      if (args.permit && burn > 0n) {
        // The permit replaces the approval, not the balance.
        const boonAbi = loadArtifact('BoonToken').abi;
        const bal = await read(st.boon, boonAbi, 'balanceOf', [wallet.account.address]);
        if (bal < burn) {
          await sendCall(ctx, wallet, { address: st.boon, abi: boonAbi, functionName: 'mint', args: [wallet.account.address, burn - bal] });
        }
      }
      const permit = await permitFor(wallet, burn);
      // A random salt: every other input of the commitment is public or guessable.
      const salt = toHex(crypto.getRandomValues(new Uint8Array(32)));
      const commitment = privateCommitment(note, salt);
      let call;
      if (agent) {
        call = priv
          ? { functionName: 'tipPrivateAgent', args: [agentId, expect, amount, commitment, attest, permit] }
          : { functionName: 'tipAgent', args: [agentId, expect, amount, note, attest, permit] };
      } else {
        const hh = handleHash(target);
        call = priv
          ? { functionName: 'tipPrivate', args: [hh, target, expect, amount, commitment, attest, permit] }
          : { functionName: 'tip', args: [hh, target, expect, amount, note, attest, permit] };
      }
      return run(agent ? 'tip-agent' : 'tip', wallet, { address: st.tips, abi: abis.tips, ...call }, (evs) => ({
        ...tipIdOf(evs),
        handle: target,
        tipper: getAddress(wallet.account.address),
        amount: amount.toString(),
        private: priv,
        ...(priv ? { commitment, salt } : {}),
      }));
    }

    async function doLink(kind) {
      const h = checkHandle(need('handle'));
      const hh = handleHash(h);
      const recipient = parseAddress(need('wallet'), '--wallet');
      const nonce = await read(st.tips, abis.tips, 'nonces', [hh]);
      const workerSig = await signLink(ctx, ANVIL_KEYS[TIP_SIGNER_INDEX], st.tips, hh, recipient, nonce);
      const pending = await read(st.tips, abis.tips, 'pendingCount', [hh]);
      const guardianSig = args['no-guardian'] ? '0x' : await signLink(ctx, ANVIL_KEYS[TIP_GUARDIAN_INDEX], st.tips, hh, recipient, nonce);
      // Any funded account may submit a voucher: the signatures authorize it, not the sender.
      const sender = ctx.wallet(fromKey(ANVIL_KEYS[7]));
      await ensureGas(ctx, sender.account.address);
      let call;
      if (kind === 'relink') call = { functionName: 'relink', args: [hh, recipient, nonce, workerSig] };
      else if (kind === 'link-claim') {
        const max = args.max === undefined ? 0n : parseUint(args.max, '--max');
        call = { functionName: 'linkAndClaim', args: [hh, recipient, nonce, workerSig, guardianSig, max] };
      } else if (pending > 0n || args['no-guardian']) {
        call = pending > 0n
          ? { functionName: 'linkEscrowed', args: [hh, recipient, nonce, workerSig, guardianSig] }
          : { functionName: 'link', args: [hh, recipient, nonce, workerSig] };
      } else call = { functionName: 'link', args: [hh, recipient, nonce, workerSig] };
      return run(kind, sender, { address: st.tips, abi: abis.tips, ...call }, (evs) => ({
        handle: h,
        handleHash: hh,
        wallet: recipient,
        claimed: evs.filter((e) => e.event === 'EscrowedClaimed').length,
      }));
    }

    async function body() {
      ensureBuilt({ err: io.err });
      st = requireState(args.state, cmd === 'advance-time' ? [] : ['tips', 'attestation', 'identityRegistry'], io);
      ctx = await connect(args.rpc);
      if (Number(st.chainId) !== ctx.chainId) die(`state is for chain ${st.chainId}, RPC is chain ${ctx.chainId}`, 1);
      abis = {
        tips: loadArtifact('TipSettlement').abi,
        attestation: loadArtifact('GratitudeAttestation').abi,
        registry: loadArtifact('AgentIdentityRegistry').abi,
      };
      const claimedOf = (evs) => ({ claimed: evs.filter((e) => e.event === 'EscrowedClaimed').length });

      switch (cmd) {
        case 'tip':
          return doTip(false);
        case 'tip-agent':
          return doTip(true);
        case 'link':
        case 'link-claim':
        case 'relink':
          return doLink(cmd);
        case 'claim': {
          const wallet = ctx.wallet(fromKey(ANVIL_KEYS[7]));
          await ensureGas(ctx, wallet.account.address);
          const max = args.max === undefined ? 0n : parseUint(args.max, '--max');
          const hh = handleHash(checkHandle(need('handle')));
          return run('claim', wallet, { address: st.tips, abi: abis.tips, functionName: 'claim', args: [hh, max] }, claimedOf);
        }
        case 'claim-specific': {
          const wallet = ctx.wallet(fromKey(ANVIL_KEYS[7]));
          await ensureGas(ctx, wallet.account.address);
          const ids = need('tips').split(',').map((x) => parseUint(x, '--tips'));
          return run('claim-specific', wallet, { address: st.tips, abi: abis.tips, functionName: 'claimSpecific', args: [ids] }, claimedOf);
        }
        case 'refund': {
          const wallet = ctx.wallet(fromKey());
          await ensureGas(ctx, wallet.account.address);
          const id = parseUint(need('tip'), '--tip');
          return run('refund', wallet, { address: st.tips, abi: abis.tips, functionName: 'refund', args: [id] });
        }
        case 'register': {
          const wallet = ctx.wallet(fromKey());
          await ensureGas(ctx, wallet.account.address);
          const call = args.uri === undefined
            ? { functionName: 'register', args: [] }
            : { functionName: 'register', args: [args.uri] };
          return run('register', wallet, { address: st.identityRegistry, abi: abis.registry, ...call }, (evs) => {
            const ev = evs.find((e) => e.event === 'Registered');
            return ev ? { agentId: ev.args.agentId, owner: ev.args.owner } : {};
          });
        }
        case 'set-agent-wallet': {
          const wallet = ctx.wallet(fromKey());
          await ensureGas(ctx, wallet.account.address);
          const agentId = parseUint(need('agent'), '--agent');
          const wkey = parseKey(need('wallet-key'), '--wallet-key');
          const newWallet = privateKeyToAccount(wkey).address;
          const owner = await read(st.identityRegistry, abis.registry, 'ownerOf', [agentId]);
          const block = await ctx.publicClient.getBlock();
          const deadline = block.timestamp + 120n;
          const sig = await signAgentWallet(ctx, wkey, st.identityRegistry, agentId, newWallet, owner, deadline);
          return run('set-agent-wallet', wallet, {
            address: st.identityRegistry,
            abi: abis.registry,
            functionName: 'setAgentWallet',
            args: [agentId, newWallet, deadline, sig],
          }, () => ({ agentId: agentId.toString(), wallet: getAddress(newWallet) }));
        }
        case 'unset-agent-wallet': {
          const wallet = ctx.wallet(fromKey());
          await ensureGas(ctx, wallet.account.address);
          const agentId = parseUint(need('agent'), '--agent');
          return run('unset-agent-wallet', wallet, {
            address: st.identityRegistry,
            abi: abis.registry,
            functionName: 'unsetAgentWallet',
            args: [agentId],
          });
        }
        case 'transfer-agent': {
          const wallet = ctx.wallet(fromKey());
          await ensureGas(ctx, wallet.account.address);
          const agentId = parseUint(need('agent'), '--agent');
          const to = parseAddress(need('to'), '--to');
          return run('transfer-agent', wallet, {
            address: st.identityRegistry,
            abi: abis.registry,
            functionName: 'transferFrom',
            args: [wallet.account.address, to, agentId],
          });
        }
        case 'burn-attestation': {
          const wallet = ctx.wallet(fromKey());
          await ensureGas(ctx, wallet.account.address);
          const id = parseUint(need('tip'), '--tip');
          return run('burn-attestation', wallet, { address: st.attestation, abi: abis.attestation, functionName: 'burn', args: [id] });
        }
        case 'advance-time': {
          const secs = parseUint(need('seconds'), '--seconds');
          await ctx.publicClient.request({ method: 'evm_increaseTime', params: ['0x' + secs.toString(16)] });
          await ctx.publicClient.request({ method: 'evm_mine', params: [] });
          const b = await ctx.publicClient.getBlock();
          io.out(JSON.stringify({ op: 'advance-time', blockNumber: Number(b.number), timestamp: Number(b.timestamp) }) + '\n');
          return null;
        }
        case 'state': {
          const out = { tipCount: (await read(st.tips, abis.tips, 'tipCount')).toString() };
          if (args.handle !== undefined) {
            const hh = handleHash(checkHandle(args.handle));
            out.handle = args.handle;
            out.handleHash = hh;
            out.linkedWallet = getAddress(await read(st.tips, abis.tips, 'linkedWallet', [hh]));
            out.nonce = (await read(st.tips, abis.tips, 'nonces', [hh])).toString();
            out.pendingCount = (await read(st.tips, abis.tips, 'pendingCount', [hh])).toString();
            out.pendingUsdc = (await read(st.tips, abis.tips, 'pendingUsdc', [hh])).toString();
          }
          if (args.agent !== undefined) {
            const id = parseUint(args.agent, '--agent');
            out.agentId = id.toString();
            out.owner = getAddress(await read(st.identityRegistry, abis.registry, 'ownerOf', [id]));
            out.agentWallet = getAddress(await read(st.identityRegistry, abis.registry, 'getAgentWallet', [id]));
            out.payout = await agentPayout(id);
          }
          io.out(JSON.stringify(out) + '\n');
          return null;
        }
      }
      return null;
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
