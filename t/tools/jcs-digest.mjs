// Recompute an export's contentDigest independently of the service: the
// canonical JSON of a value (RFC 8785 JCS for integer-only JSON: no
// whitespace, member names sorted by UTF-16 code units, strings as
// JSON.stringify writes them, integers in decimal), then SHA-256.
// Usage: node jcs-digest.mjs [MEMBER] < document.json
// Prints "sha256:<64 hex>" of document[MEMBER] (of the whole document
// without MEMBER). Exits 1 on a number that is not a safe integer.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

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

const doc = JSON.parse(readFileSync(0, 'utf8'));
const value = process.argv[2] ? doc[process.argv[2]] : doc;
try {
  console.log(`sha256:${createHash('sha256').update(canonical(value), 'utf8').digest('hex')}`);
} catch (e) {
  console.log(String(e.message));
  process.exit(1);
}
