// Validate an OpenAPI document with @apidevtools/swagger-parser (pinned in
// package.json): the OpenAPI 3.1 schema, every $ref resolving, unique
// operationIds, path parameters matching their templates.
// Usage: node openapi-validate.mjs < openapi.json
// Prints "valid <openapi version> <number of operations>", or the
// validator's message and exits 1.
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';

const doc = JSON.parse(readFileSync(0, 'utf8'));
try {
  // validate() dereferences the object it is given: hand it a copy.
  const api = await SwaggerParser.validate(structuredClone(doc));
  let ops = 0;
  for (const item of Object.values(api.paths ?? {}))
    for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
      if (item[m]) ops++;
  console.log(`valid ${api.openapi} ${ops}`);
} catch (e) {
  console.log(`invalid: ${e.message}`);
  process.exit(1);
}
