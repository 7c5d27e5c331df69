// `npm run client:generate`: the typed client's types (src/client/schema.d.ts) from the OpenAPI
// document the server serves, with openapi-typescript. The test test/client/client.test.ts fails
// when the committed file differs from what the current document generates.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clientSchemaSource } from './client-schema.ts';

const out = fileURLToPath(new URL('../src/client/schema.d.ts', import.meta.url));
writeFileSync(out, await clientSchemaSource());
console.log(`wrote ${out}`);
