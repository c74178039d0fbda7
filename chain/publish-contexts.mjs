#!/usr/bin/env node
// Demo route contexts for `make run`: for each route of the demo seed, a route note describing what
// the endpoint does, an offer selling it, signed (EIP-712 RouteNoteOffer) by the route's endpoint
// payTo key and POSTed to waymark's POST /api/v1/x402/route-contexts.
//
// Usage: node chain/publish-contexts.mjs --api URL --rpc URL --state FILE --seed FILE
//        [--days N (default 30)] [--wait SECONDS (default 60)]
//
// --seed is chain/seed.mjs's output ({routes:[{routeId, method, url, endpointPayTo}], ...}). The
// endpoint payTo key of a route is the seed's: keccak256("waymark:seed:payto:" + origin); a route
// whose endpointPayTo is not that key's address is reported and skipped. Before publishing, the
// script waits (at most --wait seconds) until /health shows the indexer at the chain head, because
// only indexed participants may publish; a 403 not_a_participant is retried until then too.
// Each run dates its notes now, so a later run replaces the earlier contexts (one slot per wallet
// and route).
//
// Prints one JSON object on stdout:
//   {published, replaced, unchanged, rejected:[{routeId, url, status, error, message}]}
// and exits 1 when any route was rejected or skipped, 2 on bad arguments.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { getAddress, keccak256, toBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseArgs, die, connect, requireState, readState, tool, orDie } from './lib.mjs';
import { cli } from '../tools/cli.mjs';
import { pacedFetch } from './paced-fetch.mjs';

const USAGE =
  'usage: node chain/publish-contexts.mjs --api URL --rpc URL --state FILE --seed FILE [--days N] [--wait SECONDS]';

export async function main(argv, io) {
  return tool(import.meta.url, io, async () => {
    const args = parseArgs(
      argv,
      { api: 'string', rpc: 'string', state: 'string', seed: 'string', days: 'string', wait: 'string' },
      ['api', 'rpc', 'state', 'seed'],
      USAGE,
    );
    const DAYS = Number(args.days ?? 30);
    const WAIT_MS = Number(args.wait ?? 60) * 1000;
    if (!Number.isInteger(DAYS) || DAYS < 1) die('--days must be a positive integer');
    if (!Number.isFinite(WAIT_MS) || WAIT_MS < 0) die('--wait must be a number of seconds');
    const API = args.api.replace(/\/+$/, '');

    // What each demo endpoint does, by method and URL; anything else gets a generic note.
    const NOTES = {
      'GET https://api.weatherdata.example.com/v1/forecast': {
        intent: 'Hourly and daily weather forecast for one latitude/longitude, up to 7 days ahead.',
        fit: 'Use when an agent plans around the weather at one place; one paid call per place and day.',
        limits: ['Land areas only.', 'No forecasts beyond 7 days.', 'Units are metric.'],
      },
      'POST https://api.translate.example.com/v2/translate': {
        intent: 'Translates up to 5,000 characters of plain text between 40 languages.',
        fit: 'Use for short user-facing texts; send the source language when it is known.',
        limits: ['Plain text only, no HTML.', 'At most 5,000 characters per call.'],
      },
      'GET https://api.weatherdata.example.com/v1/alerts': {
        intent: 'Active severe-weather alerts (storms, floods, heat) for a point or a region code.',
        fit: 'Use to check whether official warnings are in force before travel or outdoor work.',
        limits: ['Official national sources only.', 'Empty when no alert is active.'],
      },
      'GET https://maps.geocode.example.com/v1/reverse': {
        intent: 'Reverse geocoding: the street address and place names nearest a coordinate.',
        fit: 'Use to turn GPS coordinates into an address a person can read.',
        limits: ['One coordinate per call.', 'Addresses may be approximate in rural areas.'],
      },
      'POST https://api.imagegen.example.com/v1/images/generations': {
        intent: 'Generates one to four images from a text prompt, returned as PNG URLs valid for 24 hours.',
        fit: 'Use for illustrations and drafts; not for photos of real people.',
        limits: ['At most 4 images per call.', 'Prompts over 1,000 characters are cut.', 'URLs expire after 24 hours.'],
      },
      'GET https://data.markets.example.com/v3/quotes': {
        intent: 'Delayed equity and FX quotes (last, bid, ask, volume) for up to 50 symbols.',
        fit: 'Use for dashboards and summaries, not for trading decisions.',
        limits: ['Quotes are delayed 15 minutes.', 'At most 50 symbols per call.'],
      },
      'POST https://api.summarize.example.com/v1/summarize': {
        intent: 'Summarizes a document of up to 20,000 words into a short abstract and key points.',
        fit: 'Use when an agent must read long reports quickly; send text, not files.',
        limits: ['English, French and German only.', 'At most 20,000 words per call.'],
      },
      'GET https://search.papers.example.com/api/search': {
        intent: 'Searches titles and abstracts of open-access research papers; returns DOIs and links.',
        fit: 'Use to find citations for a claim or a literature overview on a topic.',
        limits: ['Open-access papers only.', 'At most 25 results per call.'],
      },
      'POST https://api.ocr.example.com/v1/extract': {
        intent: 'Extracts text and table cells from a scanned page or photo (PNG, JPEG or PDF page).',
        fit: 'Use on receipts, forms and printed pages; handwriting is best effort.',
        limits: ['One page per call.', 'Images up to 10 MB.'],
      },
      'GET https://news.feedhub.example.com/v2/headlines': {
        intent: 'Current news headlines with source, time and link, filtered by topic or country.',
        fit: 'Use for a quick briefing; open the source link before quoting.',
        limits: ['Headlines and links only, no full articles.', 'Updated every 10 minutes.'],
      },
      'POST https://api.speech.example.com/v1/transcribe': {
        intent: 'Transcribes speech in an audio file to text with word timestamps.',
        fit: 'Use for meetings, interviews and voice notes up to one hour long.',
        limits: ['Audio up to 60 minutes.', 'MP3, WAV and OGG only.'],
      },
      'GET https://chain.insights.example.com/v1/wallet/risk': {
        intent: 'A risk summary of an EVM wallet: sanctioned counterparties, mixers and known scams.',
        fit: 'Use as one signal before sending funds to an unknown address; never as the only one.',
        limits: ['EVM chains only.', 'Heuristics can be wrong; check the reasons given.'],
      },
    };

    function noteFor(method, url, now) {
      const d = NOTES[`${method} ${url}`] ?? {
        intent: `The paid ${method} endpoint ${new URL(url).pathname} of ${new URL(url).host}.`,
        fit: 'Use when the task needs exactly what this endpoint returns; read its documentation first.',
        limits: ['Described by its endpoint wallet; not verified by waymark.'],
      };
      const origin = new URL(url).origin;
      return {
        version: '1',
        route: { publicEndpointUrl: url, method },
        intent: d.intent,
        fit: d.fit,
        limits: d.limits,
        requestSchemaUri: null,
        documentationUri: `${origin}/docs`,
        contextUris: [],
        createdAt: now,
        expiresAt: now + DAYS * 86400,
      };
    }

    const OFFER_TYPES = {
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

    async function sign(account, chainId, offer) {
      return account.signTypedData({
        domain: { name: 'Boon x402 Route Note Offer', version: '1', chainId },
        types: OFFER_TYPES,
        primaryType: 'RouteNoteOffer',
        message: { ...offer, amountAtomic: BigInt(offer.amountAtomic), expiresAt: BigInt(offer.expiresAt) },
      });
    }

    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

    // Wait until the indexer has reached the chain head (or the deadline passes).
    async function waitIndexed(ctx, deadline) {
      const head = Number(await ctx.publicClient.getBlockNumber());
      for (;;) {
        try {
          const h = await (await fetch(`${API}/health`)).json();
          if (Number(h?.indexer?.indexedBlock) >= head) return true;
        } catch {
          // not up yet
        }
        if (Date.now() >= deadline) return false;
        await sleep(200);
      }
    }

    async function post(body) {
      const res = await pacedFetch(`${API}/api/v1/x402/route-contexts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      let json = null;
      try {
        json = await res.json();
      } catch {
        // not JSON
      }
      return { status: res.status, json };
    }

    async function body() {
      const st = requireState(args.state, [], io);
      const seed = readState(args.seed, io);
      if (!seed || !Array.isArray(seed.routes)) die(`${args.seed} is not the seed's output ({routes:[...]})`, 1);
      const ctx = await connect(args.rpc);
      const deadline = Date.now() + WAIT_MS;
      if (!(await waitIndexed(ctx, deadline))) io.err('publish-contexts: the indexer is behind the chain head; trying anyway\n');

      const out = { published: 0, replaced: 0, unchanged: 0, rejected: [] };
      const now = Math.floor(Date.now() / 1000);
      for (const r of seed.routes) {
        const origin = new URL(r.url).origin;
        const account = privateKeyToAccount(keccak256(toBytes(`waymark:seed:payto:${origin}`)));
        if (getAddress(r.endpointPayTo) !== account.address) {
          out.rejected.push({ routeId: r.routeId, url: r.url, status: 0, error: 'unknown_key',
            message: `endpointPayTo ${r.endpointPayTo} is not the seed's key for ${origin}` });
          continue;
        }
        const noteJson = JSON.stringify(noteFor(r.method, r.url, now));
        const bytes = toBytes(noteJson);
        const offer = {
          noteEndpoint: new URL(`/.well-known/x402/route-notes${new URL(r.url).pathname}`, origin).href,
          method: 'GET',
          network: `eip155:${ctx.chainId}`,
          asset: getAddress(st.usdc),
          payTo: account.address,
          amountAtomic: '1000',
          responseDigest: keccak256(bytes),
          responseBytes: bytes.length,
          expiresAt: now + DAYS * 86400,
        };
        const signature = await sign(account, ctx.chainId, offer);
        const body = { noteJson, offerJson: JSON.stringify({ version: '1', ...offer }), signature };
        let res = await post(body);
        while (res.status === 403 && res.json?.error === 'not_a_participant' && Date.now() < deadline) {
          await sleep(500);
          res = await post(body);
        }
        if (res.status === 201) out.published++;
        else if (res.status === 200 && res.json?.publishedAt) {
          // 200: replaced an earlier run's context, or the same bytes again
          if (Date.parse(res.json.publishedAt) >= (now - 1) * 1000) out.replaced++;
          else out.unchanged++;
        } else {
          out.rejected.push({ routeId: r.routeId, url: r.url, status: res.status, error: res.json?.error ?? null,
            message: res.json?.message ?? null });
        }
      }
      io.out(JSON.stringify(out) + '\n');
      if (out.rejected.length) return 1;
    }

    return orDie(body);
  });
}

cli(import.meta.url, main);
