// The official MCP TypeScript SDK client (pinned in package.json) against
// waymark's /mcp. Usage: node mcp-client.mjs URL BRAND ROUTE_ID
// Connects (initialize, notifications/initialized, the GET stream probe),
// lists the tools, compiles each inputSchema with ajv (JSON Schema 2020-12,
// strict), calls every tool with good and bad arguments, and prints one JSON
// report on stdout for t/0710-mcp.t to check with jq. Exits 1 only when the
// client cannot connect at all (the report then says why).
// A tool of tools/cli.mjs: the suite's helper runs it in process; the
// client (and the transport's GET stream) is closed before main returns.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { cli } from '../../tools/cli.mjs';

// A tool call whose outcome is recorded either way: the result, or the
// JSON-RPC error the client threw.
async function call(client, name, args) {
  try {
    const res = await client.callTool({ name, arguments: args });
    return { result: res };
  } catch (e) {
    return { thrown: { code: e.code ?? null, message: String(e.message ?? e) } };
  }
}

export async function main(argv, io) {
  const [url, brand, routeId] = argv;
  const report = { transportErrors: [] };
  const client = new Client({ name: 'waymark-test', version: '1.0.0' });
  client.onerror = (e) => report.transportErrors.push(String(e?.message ?? e));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  let closed = false;
  try {
    try {
      await client.connect(transport);
    } catch (e) {
      report.connectError = String(e?.message ?? e);
      io.out(JSON.stringify(report) + '\n');
      return 1;
    }
    report.protocolVersion = transport.protocolVersion ?? null;
    report.sessionId = transport.sessionId ?? null;
    report.serverVersion = client.getServerVersion();
    report.capabilities = client.getServerCapabilities();
    report.instructions = client.getInstructions() ?? null;
    await client.ping();
    report.ping = true;

    report.tools = (await client.listTools()).tools;

    // Every inputSchema compiles as strict JSON Schema 2020-12 and judges
    // sample arguments as the server does.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const samples = {
      [`${brand}_discovery`]: { good: [{}, { q: 'translate', limit: 20 }], bad: [{ limit: 0 }, { x: 1 }] },
      [`${brand}_economics`]: { good: [{}], bad: [{ x: 1 }] },
      [`${brand}_draft_review`]: {
        good: [{ routeId, observation: 'x' }],
        bad: [{ routeId }, { routeId, observation: '' }, { routeId: '0x12', observation: 'x' }],
      },
      [`${brand}_prepare_review`]: {
        good: [{ routeId, outcome: 'request_failed', schemaCheck: 'not_checked' }],
        bad: [{ routeId, outcome: 'ok', schemaCheck: 'passed' }, { routeId, outcome: 'request_failed' }],
      },
      [`${brand}_suggest_recognition`]: {
        good: [{ recipient: 'agent:1', acpJobId: 'job-1' }, { recipient: 'agent:2', acpJobId: 'j', amountUsdc: '0.5', mintAttestation: true }],
        bad: [{ recipient: 'agent:1' }, { recipient: 'agent:1', acpJobId: 'j', mintAttestation: 'yes' }],
      },
      [`${brand}_prepare_agent_recognition`]: {
        good: [{ recipient: 'agent:1', amountUsdcBaseUnits: '250000' }],
        bad: [{ amountUsdc: '1' }, { recipient: 'agent:1', extra: 1 }],
      },
      [`${brand}_lookup_recognition`]: { good: [{ txHash: routeId }], bad: [{}, { txHash: '0x12' }] },
      [`${brand}_lookup_agent_reputation`]: { good: [{ recipient: 'agent:1' }], bad: [{}] },
      [`${brand}_claim_help`]: { good: [{ handle: 'github:alice' }], bad: [{}, { handle: 'x', y: 1 }] },
    };
    report.schemaChecks = {};
    for (const t of report.tools) {
      const r = { compiles: false, good: 0, bad: 0 };
      try {
        const validate = ajv.compile(t.inputSchema);
        r.compiles = true;
        for (const a of samples[t.name]?.good ?? []) if (validate(a)) r.good++;
        for (const a of samples[t.name]?.bad ?? []) if (!validate(a)) r.bad++;
      } catch (e) {
        r.error = String(e.message ?? e);
      }
      report.schemaChecks[t.name] = r;
    }

    const obs = 'Answered 200 with JSON in about 300 ms.\nThe schema matched.';
    report.economics = await call(client, `${brand}_economics`, {});
    report.draft = await call(client, `${brand}_draft_review`, { routeId, observation: obs });
    report.draftAgain = await call(client, `${brand}_draft_review`, { routeId, observation: obs });
    report.draftBlank = await call(client, `${brand}_draft_review`, { routeId, observation: ' \n\t ' });
    report.draftUnknownArg = await call(client, `${brand}_draft_review`,
      { routeId, observation: 'x', publish: true });
    report.prepare = await call(client, `${brand}_prepare_review`,
      { routeId, outcome: 'response_received', schemaCheck: 'passed' });
    report.prepareInconsistent = await call(client, `${brand}_prepare_review`,
      { routeId, outcome: 'request_failed', schemaCheck: 'failed' });
    report.discovery = await call(client, `${brand}_discovery`, { q: '', limit: 3 });
    report.discoveryBad = await call(client, `${brand}_discovery`, { limit: 21 });
    report.unknownTool = await call(client, `${brand}_publish`, {});

    await client.close();
    closed = true;
    io.out(JSON.stringify(report) + '\n');
  } finally {
    // Whatever ended the call (process exit used to), the client and its
    // streams end with it.
    if (!closed) await client.close().catch(() => {});
  }
}

cli(import.meta.url, main);
