// tools/node-helper.mjs SOCKET: the test suite's long-lived Node process
// (docs/ARCHITECTURE.md, Test suite). It listens on the unix socket SOCKET
// and runs the main(argv, io) of a project tool (tools/cli.mjs) for each
// connection of tools/node-call.c, the `node` the suite finds first on its
// PATH. A tool's modules (viem, the x402 and MPP clients, ajv) are loaded
// once, by the first call, instead of once per process: that load is most
// of a short tool's time. Calls run at once, each with its own arguments,
// environment, output and exit status, and its own clients (a tool makes
// them in main). `node -e CODE ARGS...` is a call too: the code runs as a
// function of its own, with its own process.argv, console, exit status and
// require (evalMain below). A script that has no main (a server, a tool
// not yet made callable), and code that reads its standard input, waits
// for anything or serves, is answered "run it yourself", and node-call
// starts it as a process of its own. A server's main (the facilitator) answers when
// io.signal aborts, which is when its node-call goes away (it was killed):
// the server lives as long as the process its starter holds.
//
// Frames both ways: one type byte, a 4-byte big-endian length, the bytes.
//   from node-call: R {argv, cwd, env} (JSON)   I stdin bytes   E end of stdin
//   to node-call:   O stdout bytes   X stderr bytes   S send your stdin
//                   C exit status (4 bytes)   F run it yourself
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { run, Exit } from './cli.mjs';

const sock = process.argv[2];
if (!sock) {
  process.stderr.write('usage: node tools/node-helper.mjs SOCKET\n');
  process.exit(2);
}

// A tool has a main when its text exports one; nothing else is imported
// (importing a server's script would start the server here).
const callable = new Map(); // path -> {mtimeMs, yes}
function hasMain(file) {
  let st;
  try { st = fs.statSync(file); } catch { return false; }
  const c = callable.get(file);
  if (c && c.mtimeMs === st.mtimeMs) return c.yes;
  const yes = /^export async function main\(/m.test(fs.readFileSync(file, 'utf8'));
  callable.set(file, { mtimeMs: st.mtimeMs, yes });
  return yes;
}

// node -e CODE: what a call can run. Code that reads standard input
// synchronously, or goes on after its last statement (a timer, a promise,
// a server), needs a process of its own.
function evalable(code) {
  return typeof code === 'string' &&
    !/readFileSync\(\s*(0|['"]\/dev\/stdin)|process\.stdin|createServer|\.listen\(|setTimeout|setInterval|setImmediate|await|async|\.then\(|new Promise|child_process|process\.on\(/.test(code);
}

// The code of `node -e CODE ARGS...` as a call: a function of its own
// whose process, console and require are this call's (argv, environment,
// output, exit status and the caller's directory); process.exit ends the
// call, not the helper.
async function evalMain([code, ...args], io) {
  const stream = (put) => new Writable({ write(chunk, enc, done) { put(chunk); done(); } });
  const con = new Console({ stdout: stream(io.out), stderr: stream(io.err) });
  const proc = {
    argv: [process.execPath, ...args],
    env: io.env,
    exitCode: undefined,
    stdout: { write: (s) => { io.out(s); return true; } },
    stderr: { write: (s) => { io.err(s); return true; } },
    exit: (status) => { throw new Exit(status ?? proc.exitCode ?? 0); },
    cwd: () => io.resolve('.'),
    platform: process.platform,
    version: process.version,
    versions: process.versions,
  };
  const req = createRequire(path.join(io.resolve('.'), '[eval]'));
  new Function('require', 'process', 'console', code)(req, proc, con);
  return proc.exitCode ?? 0;
}

function frame(type, body) {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body ?? '');
  const h = Buffer.alloc(5);
  h.write(type, 0, 'latin1');
  h.writeUInt32BE(b.length, 1);
  return Buffer.concat([h, b]);
}

let calls = 0;
async function serve(conn, req) {
  const [script, ...argv] = req.argv;
  const evalCode = script === '-e';
  const file = evalCode ? '-e' : script ? path.resolve(req.cwd, script) : '';
  if (evalCode ? !evalable(argv[0]) : !/\.mjs$/.test(file) || !hasMain(file)) {
    process.stderr.write(`node-helper: ${file}: ${evalCode ? 'code that needs a process' : 'no main'}, run by node itself\n`);
    conn.end(frame('F'));
    return;
  }
  const t0 = process.hrtime.bigint();
  calls += 1;
  let stdinWaiters = null;
  const stdinChunks = [];
  conn.onStdin = (type, body) => {
    if (type === 'I') stdinChunks.push(body);
    else if (type === 'E' && stdinWaiters) {
      const text = Buffer.concat(stdinChunks).toString('utf8');
      for (const w of stdinWaiters) w(text);
      stdinWaiters = null;
    }
  };
  const write = (type) => (s) => { if (!conn.destroyed) conn.write(frame(type, s)); };
  let stdinText = null;
  // The caller is gone when node-call shuts its end (it was stopped by a
  // signal and waits for this call's end) or the connection drops.
  const gone = new AbortController();
  conn.on('end', () => gone.abort());
  conn.on('close', () => gone.abort());
  // A tool waiting for standard input its caller will never finish gets
  // what came (as a process whose stdin closed would).
  gone.signal.addEventListener('abort', () => conn.onStdin('E'), { once: true });
  const io = {
    out: write('O'),
    err: write('X'),
    stdin: () => {
      if (stdinText) return stdinText;
      stdinText = new Promise((resolve) => {
        stdinWaiters = [resolve];
        conn.write(frame('S'));
      });
      return stdinText;
    },
    env: req.env,
    resolve: (p) => path.resolve(req.cwd, p),
    signal: gone.signal,
  };
  let status;
  try {
    if (evalCode) {
      status = await run(evalMain, argv, io);
    } else {
      const mod = await import(pathToFileURL(file).href);
      if (typeof mod.main !== 'function') throw new Error(`${file} exports no main function`);
      status = await run(mod.main, argv, io);
    }
  } catch (e) {
    io.err(`node-helper: ${e && e.stack ? e.stack : String(e)}\n`);
    status = 1;
  }
  process.stderr.write(`node-helper: ${file}: exit ${status} in ${Number(process.hrtime.bigint() - t0) / 1e6} ms\n`);
  const c = Buffer.alloc(4);
  c.writeInt32BE(status | 0, 0);
  if (!conn.destroyed) conn.end(frame('C', c));
}

// A frame reader over one connection.
function onConnection(conn) {
  let buf = Buffer.alloc(0);
  let started = false;
  // A caller gone before its request arrived whole leaves nothing to answer.
  conn.on('end', () => { if (!started) conn.destroy(); });
  conn.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 5) {
      const len = buf.readUInt32BE(1);
      if (buf.length < 5 + len) break;
      const type = String.fromCharCode(buf[0]);
      const body = buf.subarray(5, 5 + len);
      buf = buf.subarray(5 + len);
      if (type === 'R' && !started) {
        started = true;
        let req;
        try { req = JSON.parse(body.toString('utf8')); } catch { conn.destroy(); return; }
        serve(conn, req);
      } else if ((type === 'I' || type === 'E') && conn.onStdin) {
        conn.onStdin(type, Buffer.from(body));
      }
    }
  });
  conn.on('error', () => {});
}

// A tool's stray error (a rejected promise nobody awaited) is its own
// affair: it is logged, and the other calls go on.
process.on('unhandledRejection', (e) => { process.stderr.write(`node-helper: unhandled rejection: ${e && e.stack ? e.stack : e}\n`); });
process.on('uncaughtException', (e) => { process.stderr.write(`node-helper: uncaught exception: ${e && e.stack ? e.stack : e}\n`); });

try { fs.unlinkSync(sock); } catch { /* none */ }
// Half-open: a node-call that shut its end still reads the call's end.
const server = net.createServer({ allowHalfOpen: true }, onConnection);
server.listen(sock, () => {
  fs.chmodSync(sock, 0o600);
  process.stdout.write(`node-helper: listening on ${sock}\n`);
});
const stop = () => {
  process.stderr.write(`node-helper: ${calls} calls\n`);
  server.close();
  try { fs.unlinkSync(sock); } catch { /* gone */ }
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
