// The floors rules of .dependency-cruiser.cjs (docs/architecture.md, "Floors") catch what they
// should and nothing else: a small src/ tree with one breach of each rule and some imports that
// are allowed (a type-only import closing a circle, a surface importing itself, cli starting the
// server, lib reading config) is checked with the real configuration.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }),
  'src/config.ts': 'export const config = 1;\n',
  // allowed
  'src/lib/ids.ts': "import { config } from '../config.ts';\nexport const id = () => String(config);\n",
  'src/db/store.ts': "import { id } from '../lib/ids.ts';\nexport const store = id();\n",
  'src/core/types-a.ts': "import type { B } from './types-b.ts';\nexport type A = { b?: B };\nexport const a = 1;\n",
  'src/core/types-b.ts': "import { a } from './types-a.ts';\nexport type B = { a: typeof a };\n",
  'src/http/app.ts': "import { route } from './route.ts';\nimport { store } from '../db/store.ts';\nexport const app = route + store;\n",
  'src/http/route.ts': "export const route = 'r';\n",
  'src/server/serve.ts': "import { app } from '../http/app.ts';\nexport const serve = app;\n",
  'src/cli/main.ts': "import { serve } from '../server/serve.ts';\nexport const main = serve;\n",
  // breaches
  'src/lib/bad.ts': "import { store } from '../db/store.ts';\nexport const bad = store;\n",
  'src/jobs/queue.ts': "import { feature } from '../core/feature.ts';\nexport const queue = feature;\n",
  'src/core/feature.ts': "export const feature = 1;\n",
  'src/core/protocol.ts': "import { route } from '../http/route.ts';\nexport const protocol = route;\n",
  'src/mcp/tools.ts': "import { route } from '../http/route.ts';\nexport const tools = route;\n",
  'src/core/loop-a.ts': "import { b } from './loop-b.ts';\nexport const a = () => b;\n",
  'src/core/loop-b.ts': "import { a } from './loop-a.ts';\nexport const b = () => a;\n",
  'src/core/lazy-a.ts': "export const lazy = () => import('./lazy-b.ts');\n",
  'src/core/lazy-b.ts': "import { lazy } from './lazy-a.ts';\nexport const again = lazy;\n",
  'src/operations/op.ts': "import { serve } from '../server/serve.ts';\nexport const op = serve;\n",
};

test('each floors rule flags its breach, and only the breaches', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-floors-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const bin = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
    const config = join(ROOT, '.dependency-cruiser.cjs');
    // Exit code = number of violations: read the report whatever it is.
    const out = await promisify(execFile)(process.execPath, [bin, 'src', '--config', config, '--output-type', 'json'], { cwd: dir, maxBuffer: 1 << 24 }).catch(
      (err: { stdout: string }) => ({ stdout: err.stdout }),
    );
    const report = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    // A circle is reported once, at one of its edges.
    const found = report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    assert.deepEqual(found, [
      'below-core-stays-below: src/jobs/queue.ts -> src/core/feature.ts',
      'core-imports-no-surface: src/core/protocol.ts -> src/http/route.ts',
      'lib-imports-only-config: src/lib/bad.ts -> src/db/store.ts',
      'no-cycle: src/core/lazy-a.ts -> src/core/lazy-b.ts',
      'no-cycle: src/core/loop-a.ts -> src/core/loop-b.ts',
      'only-cli-starts-server: src/operations/op.ts -> src/server/serve.ts',
      'operations-import-no-surface: src/operations/op.ts -> src/server/serve.ts',
      'surfaces-apart: src/mcp/tools.ts -> src/http/route.ts',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
