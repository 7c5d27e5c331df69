// `npm run client:generate`: the typed client's types (src/client/schema.d.ts) from the OpenAPI
// document the server serves, with openapi-typescript, and the user CLI's table of commands
// (src/cli/commands.gen.ts) from the catalog of operations. Tests fail when either committed
// file differs from what the current catalog generates (test/cli/user-cli.test.ts,
// test/cli/cli-catalog.test.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clientSchemaSource } from './client-schema.ts';
import { cliTableSource } from './cli-table.ts';

for (const [file, source] of [
  ['../src/client/schema.d.ts', await clientSchemaSource()],
  ['../src/cli/commands.gen.ts', cliTableSource()],
] as const) {
  const out = fileURLToPath(new URL(file, import.meta.url));
  writeFileSync(out, source);
  console.log(`wrote ${out}`);
}
