// A mixed load for the cluster fault tests (t/cluster/): free reads, paid
// reads with the real x402 client (t/tools/x402-client.mjs) and activity
// publications with the reference SIWX client (t/tools/siwx-client.mjs),
// until a time is up or the process is signalled; then a JSON summary a
// test checks against the database and the chain (t/lib/cluster.sh).
//
// Usage: node t/tools/cluster-load.mjs --url BASE[,BASE...] --keys 0xK1[,0xK2...] --out FILE
//          [--seconds S] [--free-c 4] [--paid-c 2] [--pub-c 1]
//          [--free-paths P1,P2] [--paid-path /api/v1/x402/routes]
//          [--retry-ms 200] [--retry-for-ms 30000] [--rpc URL] [--usdc 0xADDR]
//   --url: one base URL, or several (one per worker host); requests take
//     them in turn. --seconds: no new operation starts after S seconds;
//     without it the load runs until SIGTERM or SIGINT. Either way the
//     operations under way finish (with their retries), the publications
//     still queued are made, and the summary is written to --out.
//   Free reads: --free-c workers GET the --free-paths in turn (default
//     /api/v1/x402/discovery?q=route). Each answer counts once, no retry.
//   Paid reads: --paid-c workers GET --paid-path, worker i paying with key
//     i mod k. A paid read whose paid retry got no 200 (a 5xx, a lost
//     connection) presents the same PAYMENT-SIGNATURE again, as a client
//     retrying an idempotent read would, every --retry-ms for at most
//     --retry-for-ms, and goes on after a 402 that follows such a failure
//     (a request that died may hold the payment's reservation until
//     payment_abandoned_s); one whose unpaid request failed starts again
//     (nothing was signed). Each settled paid read queues a publication.
//   Publications: --pub-c workers publish each settlement as a
//     paid_settlement fact (evidence usdc_transfer) of its payer's profile,
//     which the load makes (or finds) before it starts, POST
//     /api/v1/x402/profiles/{id}/activity, retried on a 5xx, a 429, a lost
//     connection or 422 evidence_unverified (too few confirmations: with
//     --rpc a block is mined) until 201, for at most --retry-for-ms.
//   --rpc and --usdc: each payer's USDC balance is read before and after,
//     and each settlement's receipt is looked up (summary.chain).
// Prints "running" on stdout once the profiles exist and the load starts.
// The summary:
//   {seconds, stoppedBy: "time"|"signal",
//    free: {requests, byStatus: {"200": n, ..., "error": n}, errors, firstError,
//           failures: [{start, at, status}] (the first 1000 answers of 400
//           or more and the requests that threw, status 0; start: when
//           the request was sent, at: when it failed, Unix ms)},
//    paid: {requests, ok, failed, byStatus (final answers), retried,
//           reads: [{payer, nonce, amount, tx, status, statuses: [...], ms}]},
//    publications: {requests, ok, failed, byStatus,
//           items: [{payer, profileId, tx, id, status, statuses: [...], ms}]},
//    profiles: {payer: profileId},
//    chain: null | {payers: {payer: {before, after, spent}},
//                   receipts: {tx: {status, transfers}}}}
// where statuses lists every answer of the operation in order (0: no
// answer), ms is the operation's time from its first request to its final
// answer (retries included), byStatus counts final answers ("error": thrown), transfers counts
// the receipt's USDC Transfer logs from the payer, amounts are atomic units
// as decimal strings, and addresses, nonces and hashes are lower case.
import fs from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { payingFetch, recordingFetch, paymentResponse, paymentNonce } from './x402-client.mjs';
import { siwxSigner, siwxFetch } from './siwx-client.mjs';

const opt = {
  'free-c': '4', 'paid-c': '2', 'pub-c': '1', 'free-paths': '/api/v1/x402/discovery?q=route',
  'paid-path': '/api/v1/x402/routes', 'retry-ms': '200', 'retry-for-ms': '30000',
};
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const urls = (opt.url || '').split(',').filter(Boolean).map((u) => u.replace(/\/$/, ''));
const keys = (opt.keys || '').split(',').filter(Boolean);
const n = (k) => Number(opt[k]);
const seconds = opt.seconds !== undefined ? Number(opt.seconds) : null;
const freePaths = opt['free-paths'].split(',').filter(Boolean);
if (urls.length === 0 || !opt.out || !keys.every((k) => /^0x[0-9a-fA-F]{64}$/.test(k)) ||
    ['free-c', 'paid-c', 'pub-c', 'retry-ms', 'retry-for-ms'].some((k) => !(n(k) >= 0)) ||
    (n('paid-c') > 0 && keys.length === 0) || (seconds !== null && !(seconds > 0)) ||
    (opt.usdc !== undefined) !== (opt.rpc !== undefined)) {
  process.stderr.write('usage: see the head of t/tools/cluster-load.mjs\n');
  process.exit(2);
}
const retryMs = n('retry-ms'), retryFor = n('retry-for-ms');
const P = '/api/v1/x402/profiles';
const CHAIN = 'eip155:8453';
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let stopping = false, stoppedBy = 'time';
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => { stopping = true; stoppedBy = 'signal'; });
let turn = 0;
const base = () => urls[turn++ % urls.length];
const count = (m, k) => { m[k] = (m[k] ?? 0) + 1; };
// An answer that a retry may change: a server fault, a lost connection, a rate limit.
const transient = (st) => st === 0 || st === 429 || st >= 500;

const accounts = keys.map((k) => ({ key: k, address: privateKeyToAccount(k).address }));
const out = {
  seconds: 0, stoppedBy,
  free: { requests: 0, byStatus: {}, errors: 0, firstError: null, failures: [] },
  paid: { requests: 0, ok: 0, failed: 0, byStatus: {}, retried: 0, reads: [] },
  publications: { requests: 0, ok: 0, failed: 0, byStatus: {}, items: [] },
  profiles: {}, chain: null,
};

async function rpc(method, params) {
  const res = await fetch(opt.rpc, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const j = await res.json();
  if (j.error) throw new Error(`${method}: ${j.error.message}`);
  return j.result;
}
const balanceOf = async (a) => BigInt(await rpc('eth_call', [{ to: opt.usdc,
  data: '0x70a08231' + a.slice(2).toLowerCase().padStart(64, '0') }, 'latest']));

// One SIWX exchange, retried while its answer is transient; resolves to
// {status, body, statuses}.
async function signed(signer, path, method, body) {
  const statuses = [];
  const until = Date.now() + retryFor;
  for (;;) {
    let r;
    try {
      r = await siwxFetch(signer, base() + path, { method, headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      r = { status: 0, body: { error: String(e.message || e) } };
    }
    statuses.push(r.status);
    const unconfirmed = r.status === 422 && r.body?.error === 'evidence_unverified';
    if (!(transient(r.status) || unconfirmed) || Date.now() >= until) return { ...r, statuses };
    if (unconfirmed && opt.rpc) await rpc('evm_mine', []).catch(() => {});
    await sleep(retryMs);
  }
}

async function makeProfiles() {
  for (const a of accounts) {
    const r = await signed(siwxSigner(a.key), P, 'POST', { controllerAccount: `${CHAIN}:${a.address}` });
    if (!r.body?.profileId) throw new Error(`no profile for ${a.address}: ${r.status} ${JSON.stringify(r.body)}`);
    a.profileId = r.body.profileId;
    out.profiles[a.address.toLowerCase()] = a.profileId;
  }
}

function failed(start, status) {
  out.free.errors++;
  if (out.free.failures.length < 1000) out.free.failures.push({ start, at: Date.now(), status });
}

async function freeWorker() {
  let i = 0;
  while (!stopping) {
    const path = freePaths[i++ % freePaths.length];
    out.free.requests++;
    const start = Date.now();
    try {
      const res = await fetch(base() + path);
      await res.arrayBuffer();
      count(out.free.byStatus, String(res.status));
      if (res.status >= 400) failed(start, res.status);
    } catch (e) {
      count(out.free.byStatus, 'error');
      failed(start, 0);
      out.free.firstError ??= String(e.message || e);
    }
  }
}

const queue = [];
async function paidOne(a) {
  const read = { payer: a.address.toLowerCase(), nonce: null, amount: null, tx: null, status: 0, statuses: [], ms: 0 };
  const t0 = performance.now();
  out.paid.reads.push(read);
  out.paid.requests++;
  const until = Date.now() + retryFor;
  let sig = null;
  for (;;) {
    let res = null;
    try {
      res = sig
        ? await fetch(base() + opt['paid-path'], { headers: { 'PAYMENT-SIGNATURE': sig } })
        : await payingFetch(a.key, recordingFetch((s) => { sig = s; }))(base() + opt['paid-path']);
      await res.arrayBuffer();
    } catch {
      res = null;
    }
    read.status = res ? res.status : 0;
    read.statuses.push(read.status);
    if (sig && !read.nonce) {
      const p = paymentNonce(sig);
      read.nonce = p?.nonce ?? null;
      try {
        read.amount = String(JSON.parse(Buffer.from(sig, 'base64').toString('utf8')).payload.authorization.value);
      } catch { /* left null: the summary shows it */ }
    }
    if (res && res.status === 200) read.tx = (paymentResponse(res)?.transaction ?? '').toLowerCase() || null;
    // A 402 for the same signature after a lost attempt: the attempt's
    // request may have died holding the payment's reservation, which the
    // identical request may claim once payment_abandoned_s has passed.
    const held = read.status === 402 && sig && read.statuses.slice(0, -1).some(transient);
    if (!(transient(read.status) || held) || Date.now() >= until) break;
    out.paid.retried++;
    await sleep(retryMs);
  }
  read.ms = Math.round((performance.now() - t0) * 1000) / 1000;
  count(out.paid.byStatus, read.status === 0 ? 'error' : String(read.status));
  if (read.status === 200 && read.tx) {
    out.paid.ok++;
    if (n('pub-c') > 0) queue.push({ a, tx: read.tx });
  } else {
    out.paid.failed++;
  }
}

async function paidWorker(i) {
  while (!stopping) await paidOne(accounts[i % accounts.length]);
}

async function publishOne({ a, tx }) {
  const item = { payer: a.address.toLowerCase(), profileId: a.profileId, tx, id: null, status: 0, statuses: [], ms: 0 };
  const t0 = performance.now();
  out.publications.items.push(item);
  out.publications.requests++;
  const r = await signed(siwxSigner(a.key), `${P}/${a.profileId}/activity`, 'POST',
    { accountId: `${CHAIN}:${a.address}`, evidence: { kind: 'usdc_transfer', transaction: tx } });
  item.ms = Math.round((performance.now() - t0) * 1000) / 1000;
  item.status = r.status;
  item.statuses = r.statuses;
  item.id = r.status === 201 ? r.body?.id ?? null : null;
  count(out.publications.byStatus, r.status === 0 ? 'error' : String(r.status));
  if (r.status === 201 && item.id) out.publications.ok++; else out.publications.failed++;
}

// Publishes while the load runs and, once it stops, until the queue is empty.
let paidDone = false;
async function pubWorker() {
  for (;;) {
    const job = queue.shift();
    if (job) await publishOne(job);
    else if (paidDone) return;
    else await sleep(retryMs);
  }
}

async function main() {
  if (accounts.length > 0 && n('pub-c') > 0) await makeProfiles();
  const before = {};
  if (opt.rpc) for (const a of accounts) before[a.address.toLowerCase()] = await balanceOf(a.address);
  process.stdout.write('running\n');
  const start = performance.now();
  if (seconds !== null) setTimeout(() => { stopping = true; }, seconds * 1000).unref();
  const pubs = Array.from({ length: n('pub-c') }, () => pubWorker());
  await Promise.all([
    ...Array.from({ length: n('free-c') }, () => freeWorker()),
    ...Array.from({ length: n('paid-c') }, (_, i) => paidWorker(i)),
  ]);
  paidDone = true;
  await Promise.all(pubs);
  out.seconds = Math.round((performance.now() - start)) / 1000;
  out.stoppedBy = stoppedBy;
  if (opt.rpc) {
    out.chain = { payers: {}, receipts: {} };
    for (const a of accounts) {
      const k = a.address.toLowerCase(), after = await balanceOf(a.address);
      out.chain.payers[k] = { before: String(before[k]), after: String(after), spent: String(before[k] - after) };
    }
    for (const r of out.paid.reads) {
      if (!r.tx) continue;
      const rc = await rpc('eth_getTransactionReceipt', [r.tx]);
      const from = '0x' + r.payer.slice(2).padStart(64, '0');
      out.chain.receipts[r.tx] = {
        status: rc?.status ?? null,
        transfers: (rc?.logs ?? []).filter((l) => l.address.toLowerCase() === opt.usdc.toLowerCase() &&
          l.topics[0] === TRANSFER && l.topics[1]?.toLowerCase() === from).length,
      };
    }
  }
  fs.writeFileSync(opt.out, JSON.stringify(out) + '\n');
}
main().catch((e) => {
  process.stderr.write(`cluster-load: ${e.message || e}\n`);
  try { fs.writeFileSync(opt.out, JSON.stringify({ ...out, fatal: String(e.message || e) }) + '\n'); } catch { /* none */ }
  process.exit(1);
});
