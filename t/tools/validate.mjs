// Validate a JSON document against a JSON Schema (2020-12) with ajv.
// Usage: node validate.mjs SCHEMA.json < document.json
// Prints "valid", or each error (instance path and message) and exits 1.
// The other schemas in SCHEMA.json's folder are loaded too, so a $ref to
// one of them by its file name (the schemas share one base URI) resolves.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const file = io.resolve(argv[0]);
  const schema = JSON.parse(readFileSync(file, 'utf8'));
  const doc = JSON.parse(await io.stdin());
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const dir = dirname(file);
  for (const f of readdirSync(dir)) {
    if (f.endsWith('.json') && f !== basename(file)) ajv.addSchema(JSON.parse(readFileSync(join(dir, f), 'utf8')));
  }
  const validate = ajv.compile(schema);
  if (validate(doc)) {
    io.out('valid\n');
  } else {
    for (const e of validate.errors) io.out(`${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}\n`);
    return 1;
  }
}

cli(import.meta.url, main);
