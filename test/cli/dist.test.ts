// Production runs compiled JavaScript (scripts/build.mjs → dist/), and never code older than its
// sources: the bin rebuilds dist/ when a file under src/ is newer than the build (bin/dist.js).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { rewriteSpecifiers } from '../../scripts/build.mjs';

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

test('relative .ts specifiers become .js; packages and other strings stay', () => {
  const code = [
    'import { a } from "./a.ts";',
    'export * from "../b/c.ts";',
    'const m = await import("./d.ts");',
    "import x from './e.ts';",
    'import z from "zod";',
    'const s = "./not-an-import.ts";',
  ].join('\n');
  assert.equal(
    rewriteSpecifiers(code),
    [
      'import { a } from "./a.js";',
      'export * from "../b/c.js";',
      'const m = await import("./d.js");',
      "import x from './e.js';",
      'import z from "zod";',
      'const s = "./not-an-import.ts";',
    ].join('\n'),
  );
});

test('the vendored packages are imported from their bundles in dist/vendor/', () => {
  assert.equal(
    rewriteSpecifiers('import { Kysely } from "kysely";\nimport pg from "pg";\nimport z from "zod";', '../'),
    'import { Kysely } from "../vendor/kysely.js";\nimport pg from "../vendor/pg.js";\nimport z from "zod";',
  );
});

test('a stale dist/ is rebuilt before the bin runs it', () => {
  const stamp = root('dist/.built-at');
  execFileSync(process.execPath, [root('bin/sightline.js'), '--version'], { encoding: 'utf8' }); // builds if missing
  writeFileSync(stamp, '0\n'); // as if built before every source
  const out = execFileSync(process.execPath, [root('bin/sightline.js'), '--version'], { encoding: 'utf8' });
  assert.equal(out.trim(), JSON.parse(readFileSync(root('package.json'), 'utf8')).version);
  const builtAt = Number(readFileSync(stamp, 'utf8'));
  assert.ok(builtAt >= statSync(root('src/cli/main.ts')).mtimeMs, 'dist/ was rebuilt');
  assert.ok(statSync(root('dist/cli/main.js')).mtimeMs >= statSync(root('src/cli/main.ts')).mtimeMs);
});
