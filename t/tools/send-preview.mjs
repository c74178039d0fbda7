// Act on a recognition preview (docs/PROTOCOL.md, Agents: A2A and ACP) as
// the operator's payer client would, on the local test chain: the service
// only prepares calldata; this sends it.
//
//   node send-preview.mjs --rpc URL --state FILE --key PAYER_KEY [--preview FILE]
//     Sends each of preview.transactions in order from the payer (to, data,
//     value), refusing any whose `from` is not the payer or whose chainId is
//     not the RPC's, waits for each receipt, and prints one JSON object:
//     {payer, chainId, transactions[{step, purpose, target, txHash,
//     blockNumber, status, call}], tip {txHash, blockNumber, tipId, agentId,
//     tipper, resolvedAgentWallet, usdcAmount, note, mintAttestation},
//     boonBurned (BOON the payer sent to 0x…dEaD in the tip's transaction),
//     usdcPaid (USDC the payer sent to the resolved wallet in it),
//     allowancesAfter {usdc, boon}}. The preview is read from FILE, or from
//     stdin ("-" or no --preview); a preview wrapped in an A2A task answer
//     or artifact is not accepted: pass the preview object itself.
//
//   node send-preview.mjs --rpc URL --state FILE --decode [--preview FILE]
//     Sends nothing: prints {transactions[{step, purpose, target, call}]},
//     each calldata decoded with the ABI of the contract it is sent to.
//
//   node send-preview.mjs --rpc URL --state FILE --key PAYER_KEY --fund-only [--usdc N] [--boon N]
//     Mints USDC and BOON (atomic units) to the payer from the open test
//     mints and gives it gas, approving nothing, and prints {payer, usdc,
//     boon, usdcAllowance, boonAllowance} (balances, and allowances to the
//     tips contract).
//
// Amounts are decimal strings; addresses EIP-55. Exit 1 when a transaction
// reverts (the report up to it is printed first), 2 on bad arguments.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { readFileSync } from 'node:fs';
import { decodeFunctionData, decodeEventLog, getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import * as lib from '../../chain/lib.mjs';
import { cli } from '../../tools/cli.mjs';

const { parseArgs, parseKey, parseUint, die, connect, ensureBuilt, loadArtifact, requireState, ensureGas, waitReceipt, sendCall, tool } = lib;

const USAGE = 'usage: node send-preview.mjs --rpc URL --state FILE (--key K [--preview FILE] | --decode [--preview FILE] | --key K --fund-only [--usdc N] [--boon N])';

const jsonValue = (v) => {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]));
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)) return getAddress(v);
  return v;
};
const same = (a, b) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(
      argv,
      { rpc: 'string', state: 'string', key: 'string', preview: 'string', decode: 'bool', 'fund-only': 'bool', usdc: 'string', boon: 'string' },
      ['rpc', 'state'],
      USAGE,
    );

    ensureBuilt({ err: io.err });
    const st = requireState(args.state, ['tips', 'identityRegistry'], io);
    const abis = {
      usdc: loadArtifact('TestUSDC').abi,
      boon: loadArtifact('BoonToken').abi,
      tips: loadArtifact('TipSettlement').abi,
    };
    const targets = { usdc: st.usdc, boon: st.boon, tips: st.tips };
    const targetOf = (to) => Object.keys(targets).find((k) => same(targets[k], to)) ?? null;

    function decodeCall(tx) {
      const target = targetOf(tx.to);
      if (!target) return { target: null, call: null };
      try {
        const d = decodeFunctionData({ abi: abis[target], data: tx.data });
        // Named arguments when the ABI names them.
        const fn = abis[target].find((x) => x.type === 'function' && x.name === d.functionName && x.inputs.length === (d.args ?? []).length);
        const named = {};
        (d.args ?? []).forEach((a, i) => (named[fn?.inputs[i]?.name || String(i)] = jsonValue(a)));
        return { target, call: { functionName: d.functionName, args: named } };
      } catch (e) {
        return { target, call: { error: String(e.shortMessage ?? e.message ?? e) } };
      }
    }

    async function readPreview() {
      const src = args.preview === undefined || args.preview === '-' ? 0 : args.preview;
      let p;
      try {
        p = JSON.parse(src === 0 ? await io.stdin() : readFileSync(io.resolve(src), 'utf8'));
      } catch (e) {
        die(`cannot read the preview: ${e.message}`);
      }
      if (!p || !Array.isArray(p.transactions)) die('the preview has no transactions array');
      return p;
    }

    const ctx = await connect(args.rpc);
    if (Number(st.chainId) !== ctx.chainId) die(`state is for chain ${st.chainId}, RPC is chain ${ctx.chainId}`, 1);
    const read = (address, abi, functionName, a) => ctx.publicClient.readContract({ address, abi, functionName, args: a });

    if (args.decode) {
      const p = await readPreview();
      const out = p.transactions.map((tx) => ({ step: tx.step, purpose: tx.purpose, ...decodeCall(tx) }));
      io.out(JSON.stringify({ transactions: out }) + '\n');
      return 0;
    }

    if (args.key === undefined) die(`--key is required\n${USAGE}`);
    const key = parseKey(args.key, '--key');
    const payer = getAddress(privateKeyToAccount(key).address);
    const wallet = ctx.wallet(key);

    async function allowances() {
      return {
        usdc: (await read(st.usdc, abis.usdc, 'allowance', [payer, st.tips])).toString(),
        boon: (await read(st.boon, abis.boon, 'allowance', [payer, st.tips])).toString(),
      };
    }

    if (args['fund-only']) {
      await ensureGas(ctx, payer);
      const usdc = args.usdc === undefined ? 0n : parseUint(args.usdc, '--usdc');
      const boon = args.boon === undefined ? 0n : parseUint(args.boon, '--boon');
      // The open test mints, called by the payer itself; no approve.
      if (usdc > 0n) await sendCall(ctx, wallet, { address: st.usdc, abi: abis.usdc, functionName: 'mint', args: [payer, usdc] });
      if (boon > 0n) await sendCall(ctx, wallet, { address: st.boon, abi: abis.boon, functionName: 'mint', args: [payer, boon] });
      const al = await allowances();
      io.out(JSON.stringify({
        payer,
        usdc: (await read(st.usdc, abis.usdc, 'balanceOf', [payer])).toString(),
        boon: (await read(st.boon, abis.boon, 'balanceOf', [payer])).toString(),
        usdcAllowance: al.usdc,
        boonAllowance: al.boon,
      }) + '\n');
      return 0;
    }

    const p = await readPreview();
    await ensureGas(ctx, payer);
    const report = { payer, chainId: ctx.chainId, transactions: [], tip: null, boonBurned: null, usdcPaid: null };
    const finish = async (code) => {
      report.allowancesAfter = await allowances();
      io.out(JSON.stringify(report) + '\n');
      return code;
    };

    for (const tx of p.transactions) {
      if (!same(tx.from, payer)) die(`step ${tx.step}: from ${tx.from} is not the payer ${payer}`);
      if (String(tx.chainId) !== String(ctx.chainId)) die(`step ${tx.step}: chainId ${tx.chainId} is not the RPC's ${ctx.chainId}`);
      if (!/^[0-9]+$/.test(String(tx.value))) die(`step ${tx.step}: value ${tx.value} is not a decimal integer`);
      const entry = { step: tx.step, purpose: tx.purpose, ...decodeCall(tx) };
      report.transactions.push(entry);
      let hash;
      try {
        hash = await wallet.sendTransaction({ to: getAddress(tx.to), data: tx.data, value: BigInt(tx.value) });
      } catch (e) {
        entry.status = 'refused';
        entry.error = String(e.shortMessage ?? e.message ?? e);
        return finish(1);
      }
      const receipt = await waitReceipt(ctx.publicClient, hash);
      entry.txHash = hash;
      entry.blockNumber = Number(receipt.blockNumber);
      entry.status = receipt.status;
      if (receipt.status !== 'success') return finish(1);
      if (tx.purpose !== 'agent_tip') continue;
      let burned = 0n;
      const transfers = [];
      for (const log of receipt.logs) {
        const target = targetOf(log.address);
        if (!target) continue;
        let ev;
        try {
          ev = decodeEventLog({ abi: abis[target], data: log.data, topics: log.topics });
        } catch {
          continue;
        }
        if (target === 'tips' && ev.eventName === 'TipAgent') {
          report.tip = { txHash: hash, blockNumber: Number(receipt.blockNumber), logIndex: Number(log.logIndex), ...jsonValue(ev.args) };
        }
        if (target === 'boon' && ev.eventName === 'Transfer' && same(ev.args.from, payer) && same(ev.args.to, lib.BURN_ADDRESS)) {
          burned += ev.args.value;
        }
        if (target === 'usdc' && ev.eventName === 'Transfer' && same(ev.args.from, payer)) transfers.push(ev.args);
      }
      report.boonBurned = burned.toString();
      report.usdcPaid = transfers
        .filter((t) => same(t.to, report.tip?.resolvedAgentWallet))
        .reduce((a, t) => a + t.value, 0n)
        .toString();
    }
    return finish(0);
  });
}

cli(import.meta.url, main);
