// Recompute an export's contentDigest independently of the service: the
// canonical JSON of a value (RFC 8785 JCS for integer-only JSON: no
// whitespace, member names sorted by UTF-16 code units, strings as
// JSON.stringify writes them, integers in decimal), then SHA-256.
// Usage: node jcs-digest.mjs [MEMBER] < document.json
// Prints "sha256:<64 hex>" of document[MEMBER] (of the whole document
// without MEMBER). Exits 1 on a number that is not a safe integer.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { createHash } from 'node:crypto';
import { cli } from '../../tools/cli.mjs';

function canonical(v) {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`not a safe integer: ${v}`);
    return String(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  // The default sort compares UTF-16 code units, as JCS requires.
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
}

export async function main(argv, io) {
  const doc = JSON.parse(await io.stdin());
  const value = argv[0] ? doc[argv[0]] : doc;
  try {
    io.out(`sha256:${createHash('sha256').update(canonical(value), 'utf8').digest('hex')}\n`);
  } catch (e) {
    io.out(`${String(e.message)}\n`);
    return 1;
  }
}

cli(import.meta.url, main);
