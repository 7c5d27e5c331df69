// Production runs compiled JavaScript (scripts/build.mjs → dist/), and never code older than its
// sources: the bin rebuilds dist/ when a file under src/ is newer than the build (bin/dist.js).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
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
  // On a copy of the checkout (sources, bin, build script, the current dist/ if any), so the
  // rebuild swaps no dist/ under the other test files' CLI processes running at the same time.
  const copy = mkdtempSync(join(tmpdir(), 'sightline-dist-'));
  after(() => rmSync(copy, { recursive: true, force: true }));
  for (const p of ['src', 'bin', 'scripts', 'package.json', 'dist']) {
    if (existsSync(root(p))) cpSync(root(p), join(copy, p), { recursive: true, preserveTimestamps: true });
  }
  symlinkSync(root('node_modules'), join(copy, 'node_modules'), 'dir');
  const at = (p: string) => join(copy, p);
  const stamp = at('dist/.built-at');
  execFileSync(process.execPath, [at('bin/sightline.js'), '--version'], { encoding: 'utf8' }); // builds if missing
  writeFileSync(stamp, '0\n'); // as if built before every source
  // Run from another directory, as a service unit or a shell elsewhere does: the build still
  // finds the packages it bundles (beside the checkout, not in the working directory).
  const run = spawnSync(process.execPath, [at('bin/sightline.js'), '--version'], { encoding: 'utf8', cwd: tmpdir() });
  assert.equal(run.stderr, '', 'no build failure reported');
  assert.equal(run.stdout.trim(), JSON.parse(readFileSync(at('package.json'), 'utf8')).version);
  const builtAt = Number(readFileSync(stamp, 'utf8'));
  assert.ok(builtAt >= statSync(at('src/cli/main.ts')).mtimeMs, 'dist/ was rebuilt');
  assert.ok(statSync(at('dist/cli/main.js')).mtimeMs >= statSync(at('src/cli/main.ts')).mtimeMs);
});
