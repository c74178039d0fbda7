// Twenty-way races for the cluster tests (t/cluster/0020-races.t): N
// attempts at something only a limited number may win, sent at once and
// spread over the base URLs given (one per worker host), through the real
// clients. Prints one JSON line.
//
//   node t/tools/race.mjs link --url BASE[,BASE...] --key 0xCONTROLLER --have H [--n 20]
//     A profile controlled by --key (made, or found, with the SIWX client)
//     is brought to H active wallets (1..L, L the walletLimit the profile
//     reads; members are keys derived from the controller's), N further
//     members each get a pending link (prepared by the controller while the
//     profile has room), and then the N members confirm at once: exactly
//     L - H confirmations may succeed. The profile must have no other
//     member than those this tool links (a fresh controller key).
//     Prints {profileId, limit: L, have, allowed: L - H, attempts, won,
//     statuses: {status: n}, byUrl: {base: n}, active}: won counts the 200
//     answers, active the wallets the profile lists afterwards.
//   node t/tools/race.mjs pay --url BASE[,BASE...] --key 0xPAYER --path PATH [--n 20]
//     One payment authorization, signed once by the real x402 client for
//     PATH's 402 answer, presented N times at once. Exactly one may be
//     served. Prints {attempts, won, statuses, byUrl, payer, nonce, amount,
//     transactions: [the distinct PAYMENT-RESPONSE transactions]}.
// Attempt i goes to base URL i mod k; every signature and challenge is made
// before the first racing request is sent, so the N requests leave together.
import { privateKeyToAccount } from 'viem/accounts';
import { keccak256, concat, toHex } from 'viem';
import { signPayment, paymentNonce, paymentResponse } from './x402-client.mjs';
import { siwxSigner, siwxFetch, siwxProof } from './siwx-client.mjs';

const [mode, ...rest] = process.argv.slice(2);
const opt = { n: '20' };
for (let i = 0; i < rest.length; i += 2) opt[rest[i].replace(/^--/, '')] = rest[i + 1];
const urls = (opt.url || '').split(',').filter(Boolean).map((u) => u.replace(/\/$/, ''));
const N = Number(opt.n), have = Number(opt.have);
if (!['link', 'pay'].includes(mode) || urls.length === 0 || !/^0x[0-9a-fA-F]{64}$/.test(opt.key ?? '') ||
    !(N >= 1) || (mode === 'link' && !(Number.isInteger(have) && have >= 1)) ||
    (mode === 'pay' && !opt.path)) {
  process.stderr.write('usage: see the head of t/tools/race.mjs\n');
  process.exit(2);
}
const P = '/api/v1/x402/profiles';
const CHAIN = 'eip155:8453';
const acct = (a) => `${CHAIN}:${a}`;
const urlOf = (i) => urls[i % urls.length];
const tally = (list) => list.reduce((m, k) => ({ ...m, [k]: (m[k] ?? 0) + 1 }), {});

// One SIWX call that must answer `want`; throws otherwise (setup, not the race).
async function must(want, key, base, path, method, body) {
  const r = await siwxFetch(siwxSigner(key), base + path, {
    method, headers: { 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  if (r.status !== want) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}, not ${want}`);
  return r.body;
}

// The i-th member key of a controller: derived, so a rerun finds the same wallets.
const memberKey = (i) => keccak256(concat([opt.key, toHex(`race member ${i}`)]));

async function link() {
  const ctl = privateKeyToAccount(opt.key);
  const base = urls[0];
  const p = await siwxFetch(siwxSigner(opt.key), base + P, { method: 'POST',
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ controllerAccount: acct(ctl.address) }) });
  const pid = p.body?.profileId;
  if (!pid) throw new Error(`no profile: ${p.status} ${JSON.stringify(p.body)}`);
  const prepare = async (k) => {
    const b = await must(201, opt.key, base, `${P}/${pid}/wallet-links`, 'POST',
      { memberAccount: acct(privateKeyToAccount(k).address) });
    return { key: k, linkId: b.linkId, intentDigest: b.intentDigest };
  };
  const confirm = (l) => must(200, l.key, base, `${P}/${pid}/wallet-links/${l.linkId}/confirm`, 'POST',
    { intentDigest: l.intentDigest });
  const limit = (await must(200, opt.key, base, `${P}/${pid}`, 'GET')).walletLimit;
  if (!(limit >= 2 && have <= limit)) throw new Error(`walletLimit ${limit}: --have must be 1..${limit}`);
  // Up to min(H, L - 1) active wallets, so the racers' links can be prepared.
  let k = 0;
  for (let a = 1; a < Math.min(have, limit - 1); a++) await confirm(await prepare(memberKey(k++)));
  const racers = [];
  for (let i = 0; i < N; i++) racers.push(await prepare(memberKey(k++)));
  if (have === limit) await confirm(await prepare(memberKey(k++)));
  // Every racer's challenge, then every proof, then the N confirmations at once.
  const reqs = await Promise.all(racers.map(async (l, i) => {
    const url = `${urlOf(i)}${P}/${pid}/wallet-links/${l.linkId}/confirm`;
    const init = { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ intentDigest: l.intentDigest }) };
    const ch = await fetch(url, init);
    await ch.arrayBuffer();
    const pr = ch.headers.get('PAYMENT-REQUIRED');
    if (ch.status !== 402 || !pr) throw new Error(`confirm challenge: ${ch.status}`);
    const proof = await siwxProof(siwxSigner(l.key), pr, ch.url || url);
    return { url, init: { ...init, headers: { ...init.headers, 'SIGN-IN-WITH-X': proof } }, base: urlOf(i) };
  }));
  const statuses = await Promise.all(reqs.map(async (r) => {
    try {
      const res = await fetch(r.url, r.init);
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }));
  const after = await must(200, opt.key, base, `${P}/${pid}`, 'GET');
  return {
    profileId: pid, limit, have, allowed: limit - have, attempts: N, won: statuses.filter((s) => s === 200).length,
    statuses: tally(statuses), byUrl: tally(reqs.map((r) => r.base)), active: after.wallets.length,
  };
}

async function pay() {
  const sig = await signPayment(opt.key, urls[0] + opt.path);
  const auth = JSON.parse(Buffer.from(sig, 'base64').toString('utf8')).payload.authorization;
  const answers = await Promise.all(Array.from({ length: N }, async (_, i) => {
    try {
      const res = await fetch(urlOf(i) + opt.path, { headers: { 'PAYMENT-SIGNATURE': sig } });
      await res.arrayBuffer();
      return { status: res.status, tx: res.status === 200 ? paymentResponse(res)?.transaction ?? null : null };
    } catch {
      return { status: 0, tx: null };
    }
  }));
  return {
    attempts: N, won: answers.filter((a) => a.status === 200).length, statuses: tally(answers.map((a) => a.status)),
    byUrl: tally(answers.map((_, i) => urlOf(i))), payer: paymentNonce(sig).payer, nonce: paymentNonce(sig).nonce,
    amount: String(auth.value),
    transactions: [...new Set(answers.map((a) => a.tx).filter(Boolean).map((t) => t.toLowerCase()))],
  };
}

(mode === 'link' ? link() : pay())
  .then((r) => process.stdout.write(JSON.stringify(r) + '\n'))
  .catch((e) => { process.stderr.write(`race: ${e.message || e}\n`); process.exit(1); });
