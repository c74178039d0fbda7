// The MPP discovery reading of a service (the Payment discovery draft, as
// mppx's own discovery module reads it): fetches URL/openapi.json, runs
// mppx's validate over the whole document, and reads each paid operation's
// x-payment-info with mppx's PaymentInfo schema (which turns either form,
// one flat offer or {offers: [...]}, into a list of offers).
//
// Usage: node t/mpp/discovery.mjs --url BASE | --file DOCUMENT.json
// Prints one JSON line: {errors: [{severity, path, message}] (mppx's,
// warnings included), serviceInfo (the document's x-service-info or null),
// paid (operations with x-payment-info), offers: [{operation, intent,
// method, amount, currency}] (every offer read)}; exits 1 when the document
// cannot be fetched.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import fs from 'node:fs';
import { DiscoveryDocument, PaymentInfo, validate } from 'mppx/discovery';
import { cli, fail } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!opt.url === !opt.file) fail(2, 'usage: node t/mpp/discovery.mjs --url BASE | --file DOCUMENT.json');
  let doc;
  if (opt.file) {
    doc = JSON.parse(fs.readFileSync(io.resolve(opt.file), 'utf8'));
  } else {
    const res = await fetch(new URL('/openapi.json', opt.url));
    if (!res.ok) fail(1, `GET /openapi.json: HTTP ${res.status}`);
    doc = await res.json();
  }
  const errors = validate(doc).map((e) => ({ severity: e.severity, path: e.path, message: e.message }));
  const parsed = DiscoveryDocument.safeParse(doc);
  const offers = [];
  let paid = 0;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !op['x-payment-info']) continue;
      paid++;
      const info = PaymentInfo.safeParse(op['x-payment-info']);
      if (!info.success) continue;
      for (const o of info.data.offers)
        offers.push({ operation: `${method.toUpperCase()} ${path}`, intent: o.intent ?? null, method: o.method ?? null,
          amount: o.amount ?? null, currency: o.currency ?? null });
    }
  }
  io.out(JSON.stringify({ errors, serviceInfo: parsed.success ? parsed.data['x-service-info'] ?? null : null,
    paid, offers }) + '\n');
  return 0;
}

cli(import.meta.url, main);
