#!/usr/bin/env node
// Route-context publications ({noteJson, offerJson, signature},
// docs/PROTOCOL.md, Route contexts) built and signed with viem, independently
// of the C code that verifies them (lib/routenote.c).
//
//   cd t/tools && node gen-route-context.mjs
//       writes ../vectors/route-contexts.json. Deterministic (fixed times,
//       RFC 6979 signatures): rerunning it gives the same file.
//   node t/tools/gen-route-context.mjs body < SPEC.json
//       prints one request body for the stack tests (t/0600), built from
//       SPEC (see `build` below; times default to now).
//
// Signatures use the public Anvil/Hardhat keys (never fund them on a real
// chain). The routeId expected for a note is derived here the way the
// deployed client does: WHATWG Request/URL normalization, then
// keccak256("boon:x402-route:v1\n" METHOD "\n" ORIGIN "\n" PATH).
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  hashTypedData,
  keccak256,
  parseSignature,
  recoverTypedDataAddress,
  serializeCompactSignature,
  signatureToCompactSignature,
  stringToHex,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { cli } from '../../tools/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// The brand word (lib/brand.h BRAND_CAPITAL / BRAND_LOWER).
const BRAND = 'Boon';
const brand = 'boon';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'; // Anvil #0
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'; // Anvil #1
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

const TYPES = {
  RouteNoteOffer: [
    { name: 'noteEndpoint', type: 'string' },
    { name: 'method', type: 'string' },
    { name: 'network', type: 'string' },
    { name: 'asset', type: 'address' },
    { name: 'payTo', type: 'address' },
    { name: 'amountAtomic', type: 'uint256' },
    { name: 'responseDigest', type: 'bytes32' },
    { name: 'responseBytes', type: 'uint32' },
    { name: 'expiresAt', type: 'uint64' },
  ],
};

export function routeIdOf(method, url) {
  const m = method.toUpperCase();
  const u = new URL(new Request(url, { method: m }).url);
  return keccak256(stringToHex(`${brand}:x402-route:v1\n${m}\n${u.origin}\n${u.pathname || '/'}`));
}

// The typed data the publisher signs (method uppercased, as the deployed client does).
export function offerTypedData(offer) {
  return {
    domain: { name: `${BRAND} x402 Route Note Offer`, version: '1', chainId: Number(offer.network.slice(7)) },
    types: TYPES,
    primaryType: 'RouteNoteOffer',
    message: {
      noteEndpoint: offer.noteEndpoint,
      method: offer.method.toUpperCase(),
      network: offer.network,
      asset: offer.asset,
      payTo: offer.payTo,
      amountAtomic: BigInt(offer.amountAtomic),
      responseDigest: offer.responseDigest,
      responseBytes: offer.responseBytes,
      expiresAt: BigInt(offer.expiresAt),
    },
  };
}

// Build one publication. spec:
//   key        signer (default Anvil #0)
//   note       the note: a string (exact bytes) or an object (JSON.stringify)
//   offer      members merged over the computed offer (payTo = the signer's
//              address, responseDigest/responseBytes of the note bytes,
//              expiresAt = the note's), signed as merged
//   omit       offer members left out of offerJson after signing
//   extra      members added to offerJson after signing
//   wrap       offerJson as {"offer": {...}}
//   compact    a 64-byte EIP-2098 signature
//   chainId    for network (default 8453)
export async function build(spec) {
  const account = privateKeyToAccount(spec.key ?? KEY);
  const noteJson = typeof spec.note === 'string' ? spec.note : JSON.stringify(spec.note);
  const bytes = new TextEncoder().encode(noteJson);
  let noteExpires;
  try {
    noteExpires = JSON.parse(noteJson).expiresAt;
  } catch {
    noteExpires = undefined;
  }
  const offer = {
    version: '1',
    noteEndpoint: 'https://notes.example.com/route-note',
    method: 'GET',
    network: `eip155:${spec.chainId ?? 8453}`,
    asset: USDC_BASE,
    payTo: account.address,
    amountAtomic: '1000',
    responseDigest: keccak256(bytes),
    responseBytes: bytes.length,
    expiresAt: typeof noteExpires === 'number' ? noteExpires : 4102444800,
    ...(spec.offer ?? {}),
  };
  const signature65 = await account.signTypedData(offerTypedData(offer));
  let signature = signature65;
  if (spec.compact) signature = serializeCompactSignature(signatureToCompactSignature(parseSignature(signature65)));
  const shown = { ...offer, ...(spec.extra ?? {}) };
  for (const k of spec.omit ?? []) delete shown[k];
  const offerJson = JSON.stringify(spec.wrap ? { offer: shown } : shown);
  return { noteJson, offerJson, signature, signature65, offer, account };
}

// ---- stack-test mode

async function bodyMode(io) {
  const spec = JSON.parse(await io.stdin());
  const { noteJson, offerJson, signature } = await build(spec);
  io.out(JSON.stringify({ noteJson, offerJson, signature }) + '\n');
}

// ---- vector file

const CREATED = 1767225600; // 2026-01-01T00:00:00Z
const EXPIRES = 1798761600; // 2027-01-01T00:00:00Z
const NOW = CREATED + 100;

const baseNote = {
  version: '1',
  route: { publicEndpointUrl: 'https://api.example.com/v1/forecast', method: 'GET' },
  intent: 'Returns a 7-day weather forecast for a latitude and longitude.',
  fit: 'Use when an agent needs hourly or daily forecasts for one place; one paid call per place.',
  limits: ['Land areas only.', 'No forecasts beyond 7 days.'],
  requestSchemaUri: 'https://api.example.com/schemas/forecast.json',
  documentationUri: null,
  contextUris: ['ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'],
  createdAt: CREATED,
  expiresAt: EXPIRES,
};

const trimJs = (s) => s.trim();

async function valid(name, spec, expect = {}) {
  const { noteJson, offerJson, signature, signature65, offer, account } = await build(spec);
  const td = offerTypedData(offer);
  // (this viem recovers from 65-byte signatures only; the compact form is derived from it)
  const recovered = await recoverTypedDataAddress({ ...td, signature: signature65 });
  if (recovered !== account.address) throw new Error(`${name}: viem does not recover its own signature`);
  const note = JSON.parse(noteJson);
  const u = new URL(new Request(note.route.publicEndpointUrl, { method: note.route.method.toUpperCase() }).url);
  return {
    name,
    noteJson,
    offerJson,
    signature,
    signer: account.address,
    routeId: routeIdOf(note.route.method, note.route.publicEndpointUrl),
    method: note.route.method.toUpperCase(),
    origin: u.origin,
    publicPath: u.pathname,
    noteDigest: keccak256(toHex(new TextEncoder().encode(noteJson))),
    offerDigest: hashTypedData(td),
    intent: trimJs(note.intent),
    fit: trimJs(note.fit),
    limits: note.limits.map(trimJs),
    ...expect,
  };
}

async function invalid(name, spec, code, field) {
  const { noteJson, offerJson, signature } = await build(spec);
  return { name, noteJson, offerJson, signature, code, field };
}

async function vectorFile(io) {
  const viemVersion = JSON.parse(readFileSync(join(here, 'node_modules/viem/package.json'), 'utf8')).version;
  const out = {
    description:
      'Route-context publications signed with viem (t/tools/gen-route-context.mjs); lib/routenote.c must ' +
      'accept every "valid" one at time `now` on chain `chainId` with the recorded routeId, digests and ' +
      'signer, and reject every "invalid" one with the recorded code and field.',
    generator: 't/tools/gen-route-context.mjs',
    viem: viemVersion,
    chainId: 8453,
    now: NOW,
    signer: { address: privateKeyToAccount(KEY).address, privateKey: KEY, note: 'public Anvil key #0; never fund it' },
    valid: [
      await valid('base note, plain offer', { note: baseNote }),
      await valid('wrapped offer {"offer": {...}}', { note: baseNote, wrap: true }),
      await valid('64-byte EIP-2098 signature', { note: baseNote, compact: true }),
      await valid('pretty-printed note with non-ASCII text and JavaScript-trimmed whitespace', {
        note: JSON.stringify(
          {
            ...baseNote,
            route: { publicEndpointUrl: 'https://API.Example.COM:443/v1/./forecast', method: 'get' },
            intent: '\u3000\u00a0 Prévisions météo à 7 jours — 東京 included.\t\n',
            fit: 'Line one.\nLine two\twith a tab.',
            limits: [' \ufeffNo marine forecasts. '],
            contextUris: [],
          },
          null,
          2,
        ),
        offer: { method: 'post', noteEndpoint: 'https://notes.example.com/route-note?route=forecast', amountAtomic: '115792089237316195423570985008687907853269984665640564039457584007913129639935', expiresAt: EXPIRES - 86400 },
      }),
      await valid('five URIs in all, ar:// and an https URI with a query', {
        note: {
          ...baseNote,
          route: { publicEndpointUrl: 'https://translate.example.net/v2/translate', method: 'POST' },
          limits: [],
          requestSchemaUri: 'https://translate.example.net/schema.json',
          documentationUri: 'https://docs.example.net/translate?lang=en',
          contextUris: ['ar://bNbA3TEQVL60xlgCcqdz4ZPHFZ711cZ3hmkpGttDt_U', 'ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', 'https://example.org/a'],
        },
      }),
    ],
    invalid: [
      await invalid('signed by a key that is not payTo', { note: baseNote, key: OTHER_KEY, offer: { payTo: privateKeyToAccount(KEY).address } }, 'signer_mismatch', 'signature'),
      await invalid('signed for Base Sepolia', { note: baseNote, chainId: 84532 }, 'wrong_chain', 'offer.network'),
      await invalid('responseBytes one short, signed', { note: baseNote, offer: { responseBytes: JSON.stringify(baseNote).length - 1 } }, 'response_bytes_mismatch', 'offer.responseBytes'),
      await invalid('offer outlives the note', { note: baseNote, offer: { expiresAt: EXPIRES + 1 } }, 'offer_outlives_note', 'offer.expiresAt'),
      await invalid('route on a reserved .example host', { note: { ...baseNote, route: { publicEndpointUrl: 'https://api.weatherdata.example/v1/forecast', method: 'GET' } } }, 'invalid_route_url', 'note.route.publicEndpointUrl'),
    ],
  };
  const file = join(here, '..', 'vectors', 'route-contexts.json');
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  io.err(`wrote ${file}: ${out.valid.length} valid, ${out.invalid.length} invalid\n`);
}

export async function main(argv, io) {
  const mode = argv[0] === 'body' ? bodyMode : vectorFile;
  try {
    await mode(io);
  } catch (e) {
    io.err(`gen-route-context: ${e.stack || e.message}\n`);
    return 1;
  }
}

cli(import.meta.url, main);
