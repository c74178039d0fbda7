// Validate a JSON document against a JSON Schema (2020-12) with ajv.
// Usage: node validate.mjs SCHEMA.json < document.json
// Prints "valid", or each error (instance path and message) and exits 1.
// The other schemas in SCHEMA.json's folder are loaded too, so a $ref to
// one of them by its file name (the schemas share one base URI) resolves.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const schema = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const doc = JSON.parse(readFileSync(0, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const dir = dirname(process.argv[2]);
for (const f of readdirSync(dir)) {
  if (f.endsWith('.json') && f !== basename(process.argv[2])) ajv.addSchema(JSON.parse(readFileSync(join(dir, f), 'utf8')));
}
const validate = ajv.compile(schema);
if (validate(doc)) {
  console.log('valid');
} else {
  for (const e of validate.errors) console.log(`${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  process.exit(1);
}
