// `npm run lint:openapi`: builds the app on an in-memory database, writes the OpenAPI document it
// serves at /openapi.json to a temporary file and lints it with Redocly's recommended rules
// (offline; exit code is Redocly's). `--out FILE` keeps the document (the typed client is
// generated from it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi-document.ts';

const doc = await openApiDocument();
const outAt = process.argv.indexOf('--out');
const dir = mkdtempSync(join(tmpdir(), 'sightline-openapi-'));
const file = outAt > 0 ? process.argv[outAt + 1] : join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(doc, null, 2));
const redocly = fileURLToPath(new URL('../node_modules/.bin/redocly', import.meta.url));
const res = spawnSync(redocly, ['lint', file, '--extends=recommended', '--format=stylish'], {
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
rmSync(dir, { recursive: true, force: true });
process.exitCode = res.status ?? 1;
