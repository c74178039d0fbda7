// Validate an OpenAPI document with @apidevtools/swagger-parser (pinned in
// package.json): the OpenAPI 3.1 schema, every $ref resolving, unique
// operationIds, path parameters matching their templates.
// Usage: node openapi-validate.mjs < openapi.json
// Prints "valid <openapi version> <number of operations>", or the
// validator's message and exits 1.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import SwaggerParser from '@apidevtools/swagger-parser';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const doc = JSON.parse(await io.stdin());
  try {
    // validate() dereferences the object it is given: hand it a copy.
    const api = await SwaggerParser.validate(structuredClone(doc));
    let ops = 0;
    for (const item of Object.values(api.paths ?? {}))
      for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
        if (item[m]) ops++;
    io.out(`valid ${api.openapi} ${ops}\n`);
  } catch (e) {
    io.out(`invalid: ${e.message}\n`);
    return 1;
  }
}

cli(import.meta.url, main);
