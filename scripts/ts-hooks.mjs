// Module hooks (registered by scripts/ts-register.mjs) that run the project's TypeScript under
// Node 20 for the test suite: a `.ts` file outside node_modules is compiled to JavaScript with
// esbuild, the compiler scripts/build.mjs and tsx use, one file at a time (no bundling, no type
// check: `npm run typecheck` does that). Everything else is left to Node's own loader, untouched.
// Why not tsx, which the tests used before: tsx also resolves and loads every package file through
// its hooks, which costs each test process about two seconds of CPU before its first test (some
// 140 processes per database pass). The project imports its sources by their own `.ts` names, so
// resolution needs no help here.
// Compiled files are kept in a cache directory (by the hash of their text and of these settings),
// so the later processes of a run only read them.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  // As tsx compiles (its options, for the same output): this Node's syntax, names kept, source maps.
  target: `node${process.versions.node}`,
  keepNames: true,
  sourcemap: 'inline',
  sourcesContent: false,
  // As tsconfig.json: target ES2022 (so class fields are defined), imports of types only dropped.
  tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: false } },
};
const SETTINGS = `${require('esbuild/package.json').version}|${JSON.stringify(OPTIONS)}`;
const CACHE = join(tmpdir(), `sightline-ts-cache-${userInfo().uid}`);
mkdirSync(CACHE, { recursive: true });
let transformSync;

function compile(source, path) {
  const key = createHash('sha256').update(SETTINGS).update('\0').update(path).update('\0').update(source).digest('hex');
  const cached = join(CACHE, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {}
  transformSync ??= require('esbuild').transformSync;
  const { code } = transformSync(source, { ...OPTIONS, sourcefile: path });
  // Written beside, then renamed: a process reading the cache never sees half a file.
  const temp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(temp, code);
    renameSync(temp, cached);
  } catch {}
  return code;
}

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/')) {
    const path = fileURLToPath(url);
    return { format: 'module', source: compile(readFileSync(path, 'utf8'), path), shortCircuit: true };
  }
  return nextLoad(url, context);
}
