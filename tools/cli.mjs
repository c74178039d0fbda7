// tools/cli.mjs: how the project's Node tools run (docs/ARCHITECTURE.md,
// Test suite). A tool exports
//
//   export async function main(argv, io) { ... }
//
// argv: its arguments (after node and the script); io: where it talks to
//   io.out(text), io.err(text)   its standard output and error
//   io.stdin()                   a promise of its whole standard input (a string)
//   io.env                       its environment
//   io.resolve(path)             a path of its caller's, made absolute
//   io.signal                    an AbortSignal, aborted when its caller is gone
//                                (a server's main runs until then; as a process
//                                of its own, it is stopped by a signal instead)
// It returns its exit status (nothing is 0) or ends with fail(status, message).
// It keeps no state between calls: clients, accounts and options are made
// in main, so the suite's helper (tools/node-helper.mjs) can run many calls
// of it in one process, at once, each as if it were a process of its own.
// The last line of a tool, cli(import.meta.url, main), runs it when it is
// the script node was started with, and does nothing when it is imported.
import { realpathSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The end of a tool with a status (and a message for standard error). */
export class Exit extends Error {
  constructor(status, message = '') {
    super(message);
    this.status = status;
  }
}

export function fail(status, message) {
  throw new Exit(status, message);
}

/** Runs main on argv with io: its exit status, whatever it threw. */
export async function run(main, argv, io) {
  try {
    const status = await main(argv, io);
    return typeof status === 'number' ? status : 0;
  } catch (e) {
    if (e instanceof Exit) {
      if (e.message) io.err(e.message.endsWith('\n') ? e.message : `${e.message}\n`);
      return e.status;
    }
    io.err(`${e && e.stack ? e.stack : String(e)}\n`);
    return 1;
  }
}

/** io for a process of its own. */
export function processIo() {
  return {
    out: (s) => { process.stdout.write(s); },
    err: (s) => { process.stderr.write(s); },
    stdin: async () => readFileSync(0, 'utf8'),
    env: process.env,
    resolve: (p) => path.resolve(p),
    signal: new AbortController().signal,
  };
}

/** Runs main when the module at url is the script of this process. */
export function cli(url, main) {
  if (!process.argv[1]) return;
  let script;
  try { script = pathToFileURL(realpathSync(process.argv[1])).href; } catch { return; }
  if (script !== url) return;
  // Standard output and error are pipes or files here, written at once,
  // so nothing is lost by exiting as soon as main is done (an idle
  // keep-alive connection would otherwise hold the process for seconds).
  run(main, process.argv.slice(2), processIo()).then((status) => process.exit(status));
}
