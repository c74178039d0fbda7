#!/usr/bin/env node
// Recompute boon.points/v1 straight from tip_events, independently of the C code
// (lib/points, handlers/tippoints): the test compares its numbers with the endpoints'.
//
// Usage: sql "SELECT event, tip_id, block_number, log_index, block_time, LOWER(HEX(handle_hash)),
//   agent_id, LOWER(HEX(actor)), LOWER(HEX(wallet)), usdc_amount, display_handle FROM tip_events" |
//   node points-recompute.mjs --handle H ... --wallet 0xADDR ...
// Prints {handles: {H: {receivedPoints, sentPoints, points, decayedPoints, senders}},
//         wallets: {0xaddr: {sentPoints}}, tips: {tipId: [senderPoints, recipientPoints]}, asOf}
// with points as decimal strings; tips holds every tip's own share of those sums.
// The policy, as docs/PROTOCOL.md (Points) states it: refunded, dust (public < 10000),
// self, circular, one earning tip per (tipper, handle) and UTC day; the n-th earning tip
// of a pair gives 10000/n to the handle and 2000/n to the tipper; decay halves every
// 7776000 s, linear in between, at the newest tip's block time.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { keccak256, toHex } from 'viem';
import { cli } from '../../tools/cli.mjs';

const H = 7776000n, DAY = 86400n, MIN = 10000n, RECV = 10000n, SENT = 2000n;

export async function main(argv, io) {
  const want = { handles: [], wallets: [] };
  for (let i = 0; i < argv.length; i += 2) want[argv[i] === '--handle' ? 'handles' : 'wallets'].push(argv[i + 1]);
  const rows = (await io.stdin()).split('\n').filter(Boolean).map((l) => l.split('\t').map((v) => (v === 'NULL' ? '' : v)));
  const order = (a, b) => a.bn - b.bn || a.li - b.li;
  const ev = rows.map(([event, tip, bn, li, time, hh, agent, actor, wallet, usdc, display]) =>
    ({ event, tip: Number(tip), bn: Number(bn), li: Number(li), time: BigInt(time), hh, agent, actor, wallet, usdc, display })).sort(order);

  // Handle links and agent payout wallets, as the latest events leave them.
  const link = {}, owner = {}, aw = {};
  for (const e of ev) {
    if (e.event === 'Linked' || e.event === 'Relinked') link[e.hh] = e.wallet;
    if (e.event === 'AgentRegistered') { owner[e.agent] = e.actor; aw[e.agent] = e.wallet || null; }
    if (e.event === 'AgentTransfer') { owner[e.agent] = e.wallet; if (!/^0+$/.test(e.actor)) aw[e.agent] = null; }
    if (e.event === 'AgentWalletSet') aw[e.agent] = e.wallet || null;
  }
  const payout = (a) => (a in owner ? aw[a] || owner[a] : null);

  // Tips: creation, then claim or refund.
  const created = ['Tip', 'TipEscrowed', 'TipAgent', 'PrivateTip', 'PrivateTipEscrowed'];
  const tips = {};
  for (const e of ev) {
    if (created.includes(e.event)) {
      // An agent tip (public or private) names its handle agent:<id>.
      const agent = e.event === 'TipAgent' ? e.agent : (e.display || '').startsWith('agent:') ? e.display.slice(6) : null;
      tips[e.tip] = {
        id: e.tip, time: e.time, tipper: e.actor, agent,
        hh: agent ? keccak256(toHex(`agent:${agent}`)).slice(2) : e.hh,
        paid: e.event === 'Tip' || e.event === 'TipAgent' ? e.wallet : null,
        priv: e.event.startsWith('Private'), usdc: e.usdc === '' ? 0n : BigInt(e.usdc), refunded: false,
      };
    }
    if (e.event === 'EscrowedClaimed' && tips[e.tip]) tips[e.tip].paid = e.wallet;
    if (e.event === 'EscrowedRefunded' && tips[e.tip]) { tips[e.tip].paid = null; tips[e.tip].refunded = true; }
  }
  const all = Object.values(tips);
  for (const t of all) t.wallets = [t.paid, t.agent ? payout(t.agent) : link[t.hh]].filter(Boolean);
  const asOf = all.reduce((m, t) => (t.time > m ? t.time : m), 0n);

  // Rules 1-4, then per pair in (time, id) order: one per UTC day, ranks.
  const edges = new Set(all.flatMap((t) => t.wallets.map((w) => `${t.tipper}>${w}`)));
  const byPair = {};
  for (const t of all) {
    t.earns = !t.refunded && (t.priv || t.usdc >= MIN) && !t.wallets.includes(t.tipper) &&
      !t.wallets.some((w) => edges.has(`${w}>${t.tipper}`));
    (byPair[`${t.tipper}/${t.hh}`] ??= []).push(t);
  }
  for (const list of Object.values(byPair)) {
    let n = 0n, day = -1n;
    for (const t of list.sort((a, b) => (a.time === b.time ? a.id - b.id : a.time < b.time ? -1 : 1))) {
      t.rank = 0n;
      if (!t.earns || t.time / DAY === day) continue;
      day = t.time / DAY;
      t.rank = ++n;
    }
  }
  const decay = (v, t) => {
    const d = asOf > t ? asOf - t : 0n, k = d / H, r = d % H;
    return k >= 63n ? 0n : ((v >> k) * (2n * H - r)) / (2n * H);
  };
  const sum = (list, first) => list.filter((t) => t.rank > 0n).reduce(([p, d], t) =>
    [p + first / t.rank, d + decay(first / t.rank, t.time)], [0n, 0n]);

  const out = { handles: {}, wallets: {}, tips: {}, asOf: asOf.toString() };
  for (const t of all) out.tips[t.id] = t.rank > 0n ? [`${SENT / t.rank}`, `${RECV / t.rank}`] : ['0', '0'];
  for (const h of want.handles) {
    const hh = keccak256(toHex(h)).slice(2);
    const agent = h.startsWith('agent:') ? h.slice(6) : null;
    const w = agent ? payout(agent) : link[hh];
    const [rp, rd] = sum(all.filter((t) => t.hh === hh), RECV);
    const [sp, sd] = w ? sum(all.filter((t) => t.tipper === w), SENT) : [0n, 0n];
    const senders = new Set(all.filter((t) => t.hh === hh && t.rank > 0n).map((t) => t.tipper)).size;
    out.handles[h] = { receivedPoints: `${rp}`, sentPoints: `${sp}`, points: `${rp + sp}`, decayedPoints: `${rd + sd}`, senders };
  }
  for (const a of want.wallets) {
    const [sp] = sum(all.filter((t) => t.tipper === a.toLowerCase().slice(2)), SENT);
    out.wallets[a] = { sentPoints: `${sp}` };
  }
  io.out(JSON.stringify(out) + '\n');
}

cli(import.meta.url, main);
