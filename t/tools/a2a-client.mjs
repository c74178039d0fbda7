// The official A2A JavaScript SDK (@a2a-js/sdk, pinned in package.json)
// against waymark's A2A surface (docs/PROTOCOL.md, Agents: A2A and ACP).
// Prints one JSON report on stdout for t/0980-a2a.t to check with jq.
//
//   node a2a-client.mjs send BASE CASES.json
//     The SDK's ClientFactory, with the HTTP+JSON (REST) transport only,
//     resolves the Agent Card from BASE/.well-known/agent-card.json through
//     its card resolver, picks the card's interface, and sends each case
//     with Client.sendMessage. A case is {name, text?, data?, metadata?,
//     requestMetadata?, acceptedOutputModes?, extensions?}: a user message
//     with a text part, a data part, message metadata; request metadata;
//     configuration.acceptedOutputModes; extension URIs for the
//     A2A-Extensions header. Every HTTP exchange the SDK made is recorded.
//
//   node a2a-client.mjs parse FILE[:STATUS]...
//     Each FILE is a raw response body (collected with curl), answered
//     with STATUS (default 200) to the SDK's own RestTransport.sendMessage
//     through a fetch that returns it: a 2xx goes through the transport's
//     SendMessageResponse.fromJSON and its result check, anything else
//     through its google.rpc.Status error mapping. Reported per file (named
//     by its basename without .json): what the SDK made of it and which
//     members its proto types dropped or changed (a strict proto parser
//     would refuse those).
//
//   node a2a-client.mjs validate LIST
//     Many documents at once, as validate.mjs judges one: each line of LIST
//     is "SCHEMA DOCUMENT" (two file paths); each schema is compiled with
//     ajv (JSON Schema 2020-12, strict, formats) beside the other schemas of
//     its folder, so a $ref by file name resolves. Prints a JSON array, in
//     the order of LIST, of "valid" or the errors (instance path, message).
//
// Exits 1 only when the arguments are wrong or the card cannot be resolved
// (the report then says why).
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  ClientFactory,
  RestTransportFactory,
  withA2AExtensions,
  ServiceParameters,
} from '@a2a-js/sdk/client';
import { Role, SendMessageResponse, Task, Message, taskStateToJSON, roleToJSON } from '@a2a-js/sdk';
import { cli, fail } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const [mode, ...rest] = argv;
  if (mode === 'send' && rest.length === 2) return send(io, rest[0], rest[1]);
  else if (mode === 'validate' && rest.length === 1) await validateAll(io, rest[0]);
  else if (mode === 'parse' && rest.length >= 1) await parse(io, rest);
  else fail(1, 'usage: node a2a-client.mjs send BASE CASES.json | parse FILE[:STATUS]... | validate LIST\n');
}

// fn(the caller's path p made absolute); an error names p as the caller gave it.
function atCallerPath(io, p, fn) {
  if (typeof p !== 'string') return fn(p);
  const abs = io.resolve(p);
  try {
    return fn(abs);
  } catch (e) {
    if (abs !== p && typeof e?.message === 'string') e.message = e.message.split(abs).join(p);
    throw e;
  }
}
const readText = (io, p) => atCallerPath(io, p, (abs) => readFileSync(abs, 'utf8'));

// Paths of the members of `orig` that `back` (its proto round trip) lost
// or changed. Members whose value is a proto default (empty string or
// array, false, 0), which toJSON omits, are not drift.
function drift(orig, back, path = '', out = []) {
  const isDefault = (v) => v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0);
  if (orig === null || typeof orig !== 'object') {
    if (orig !== back) out.push(`${path || '/'} changed ${JSON.stringify(orig)} -> ${JSON.stringify(back)}`);
    return out;
  }
  if (Array.isArray(orig)) {
    if (!Array.isArray(back) || back.length !== orig.length) {
      out.push(`${path || '/'} array changed`);
      return out;
    }
    orig.forEach((v, i) => drift(v, back[i], `${path}/${i}`, out));
    return out;
  }
  if (back === null || typeof back !== 'object' || Array.isArray(back)) {
    out.push(`${path || '/'} object changed`);
    return out;
  }
  for (const [k, v] of Object.entries(orig)) {
    if (!(k in back)) {
      if (!isDefault(v)) out.push(`${path}/${k} dropped`);
      continue;
    }
    drift(v, back[k], `${path}/${k}`, out);
  }
  return out;
}

// What the SDK's parsed Task says, in plain JSON for jq.
function describeTask(task) {
  const parts = (ps) =>
    (ps ?? []).map((p) => ({
      kind: p.content?.$case ?? null,
      mediaType: p.mediaType || null,
      ...(p.content?.$case === 'data' ? { data: p.content.value } : {}),
      ...(p.content?.$case === 'text' ? { text: p.content.value } : {}),
    }));
  return {
    id: task.id,
    contextId: task.contextId,
    state: taskStateToJSON(task.status?.state ?? 0),
    statusRole: task.status?.message ? roleToJSON(task.status.message.role) : null,
    statusText: (task.status?.message?.parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('\n'),
    timestamp: task.status?.timestamp ?? null,
    metadata: task.metadata ?? null,
    artifacts: (task.artifacts ?? []).map((a) => ({
      artifactId: a.artifactId,
      name: a.name,
      extensions: a.extensions,
      metadata: a.metadata ?? null,
      parts: parts(a.parts),
    })),
  };
}

function errorReport(e) {
  return {
    ok: false,
    error: {
      name: e?.name ?? null,
      reason: e?.reason ?? null,
      statusCode: e?.statusCode ?? null,
      metadata: e?.metadata ?? null,
      message: String(e?.message ?? e),
    },
  };
}

async function send(io, base, casesFile) {
  const cases = JSON.parse(readText(io, casesFile));
  const report = { requests: [], cases: {} };
  // Record what the SDK puts on the wire and what it gets back.
  const recordingFetch = async (url, init = {}) => {
    const res = await fetch(url, init);
    const headers = {};
    for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
    report.requests.push({
      method: init.method ?? 'GET',
      url: String(url),
      a2aVersion: headers['a2a-version'] ?? null,
      contentType: headers['content-type'] ?? null,
      a2aExtensions: headers['a2a-extensions'] ?? null,
      body: init.body ? JSON.parse(init.body) : null,
      status: res.status,
      responseContentType: res.headers.get('content-type'),
      responseExtensions: res.headers.get('a2a-extensions'),
    });
    return res;
  };
  const { DefaultAgentCardResolver } = await import('@a2a-js/sdk/client');
  const factory = new ClientFactory({
    transports: [new RestTransportFactory({ fetchImpl: recordingFetch })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: recordingFetch }),
  });
  let client;
  try {
    client = await factory.createFromUrl(base);
  } catch (e) {
    report.resolveError = String(e?.message ?? e);
    io.out(JSON.stringify(report) + '\n');
    return 1;
  }
  const card = client.agentCard;
  report.card = {
    name: card.name,
    version: card.version,
    supportedInterfaces: card.supportedInterfaces,
    skills: (card.skills ?? []).map((s) => s.id),
    extensions: (card.capabilities?.extensions ?? []).map((x) => ({ uri: x.uri, required: x.required })),
    streaming: card.capabilities?.streaming ?? null,
    pushNotifications: card.capabilities?.pushNotifications ?? null,
  };
  report.transport = client.transport?.protocolName ?? null;
  report.protocolVersion = client.protocolVersion ?? null;

  for (const c of cases) {
    const parts = [];
    if (c.text !== undefined) parts.push({ content: { $case: 'text', value: c.text }, mediaType: 'text/plain' });
    if (c.data !== undefined) parts.push({ content: { $case: 'data', value: c.data }, mediaType: 'application/json' });
    const message = {
      messageId: randomUUID(),
      contextId: c.contextId ?? '',
      taskId: '',
      role: Role.ROLE_USER,
      parts,
      metadata: c.metadata,
      extensions: [],
      referenceTaskIds: [],
    };
    const params = {
      tenant: '',
      message,
      configuration: c.acceptedOutputModes ? { acceptedOutputModes: c.acceptedOutputModes } : undefined,
      metadata: c.requestMetadata,
    };
    const options = c.extensions
      ? { serviceParameters: ServiceParameters.create(withA2AExtensions(...c.extensions)) }
      : undefined;
    const n = report.requests.length;
    try {
      const result = await client.sendMessage(params, options);
      if ('messageId' in result && !('status' in result)) {
        report.cases[c.name] = { ok: true, result: 'message', message: Message.toJSON(result) };
      } else {
        report.cases[c.name] = { ok: true, result: 'task', ...describeTask(result) };
      }
    } catch (e) {
      report.cases[c.name] = errorReport(e);
    }
    report.cases[c.name].exchange = report.requests[n] ?? null;
  }
  io.out(JSON.stringify(report) + '\n');
}

async function parse(io, specs) {
  const report = {};
  for (const spec of specs) {
    const m = /^(.*?)(?::([0-9]{3}))?$/.exec(spec);
    const file = m[1];
    const status = m[2] ? Number(m[2]) : 200;
    const name = basename(file).replace(/\.json$/, '');
    const text = readText(io, file);
    // The transport fetches; this fetch answers with the collected body.
    const fetchImpl = async () =>
      new Response(text, { status, headers: { 'Content-Type': 'application/a2a+json' } });
    const transport = await new RestTransportFactory({ fetchImpl }).create('http://sdk.invalid/a2a', {
      supportedInterfaces: [],
    });
    const params = {
      tenant: '',
      message: { messageId: randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'x' } }] },
    };
    let r;
    try {
      const result = await transport.sendMessage(params);
      if ('status' in result) {
        const orig = JSON.parse(text);
        const back = SendMessageResponse.toJSON({ payload: { $case: 'task', value: result } });
        r = {
          ok: true,
          result: 'task',
          topLevelKeys: Object.keys(orig),
          drift: drift(orig, back),
          ...describeTask(result),
        };
        // The same body through Task.fromJSON of the SDK's main entry point.
        r.sameAsMainEntry = JSON.stringify(Task.toJSON(Task.fromJSON(orig.task))) === JSON.stringify(back.task);
      } else {
        r = { ok: true, result: 'message', message: Message.toJSON(result) };
      }
    } catch (e) {
      r = errorReport(e);
    }
    report[name] = r;
  }
  io.out(JSON.stringify(report) + '\n');
}

async function validateAll(io, listFile) {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const { default: addFormats } = await import('ajv-formats');
  const compiled = new Map();
  const validator = (schemaFile) => {
    if (!compiled.has(schemaFile)) {
      const ajv = new Ajv2020({ allErrors: true, strict: true });
      addFormats(ajv);
      const dir = dirname(schemaFile);
      for (const f of atCallerPath(io, dir, readdirSync)) {
        if (f.endsWith('.json') && f !== basename(schemaFile)) ajv.addSchema(JSON.parse(readText(io, join(dir, f))));
      }
      compiled.set(schemaFile, ajv.compile(JSON.parse(readText(io, schemaFile))));
    }
    return compiled.get(schemaFile);
  };
  const out = [];
  for (const line of readText(io, listFile).split('\n')) {
    if (!line.trim()) continue;
    const [schemaFile, docFile] = line.split(' ');
    let doc;
    try {
      doc = JSON.parse(readText(io, docFile));
    } catch (e) {
      out.push(`not JSON: ${e.message}`);
      continue;
    }
    const validate = validator(schemaFile);
    out.push(validate(doc) ? 'valid'
      : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('\n'));
  }
  io.out(JSON.stringify(out) + '\n');
}

cli(import.meta.url, main);
