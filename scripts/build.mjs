// `npm run build` (also run by `npm install` as `prepare`): compiles src/ to dist/ with esbuild,
// one JavaScript file per TypeScript file, so production (`npm start`, the `sightline` bin) runs
// plain JavaScript instead of compiling TypeScript through tsx on every start. Plain JavaScript
// itself, so it runs before anything else is set up. The layout of dist/ mirrors src/, which
// keeps every `new URL('…', import.meta.url)` pointing where it points from src/; relative
// imports of `.ts` files become `.js`, the worker threads' `.mjs` entries and the console's
// static files are copied. dist/ is built beside, then swapped in, so a process never loads a
// half-written tree; dist/.built-at records when the sources were read (see bin/dist.js).
// A few pure-JavaScript dependencies that cost most of an operator command's start (kysely alone
// is hundreds of small modules) are bundled into dist/vendor/ as one file each; only dist/ uses
// those copies, and nothing outside src/ shares their objects.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
/** Bundled into dist/vendor/<name>.js; `external`: what the bundle still loads from node_modules. */
const VENDOR = { kysely: [], pg: ['pg-native', 'pg-cloudflare'], nodemailer: [] };
const DIST = join(ROOT, 'dist');
export const STAMP = '.built-at';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * `./x.ts` → `./x.js` in relative import and export specifiers (static and dynamic); with
 * `vendorPrefix` (the way from the file to dist/, e.g. `../`), the vendored packages' bare names
 * become their bundles.
 */
export function rewriteSpecifiers(code, vendorPrefix) {
  const out = code.replace(/((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]*?)\.ts\2/g, '$1$2$3.js$2');
  if (vendorPrefix === undefined) return out;
  return out.replace(/(\bfrom\s*)(["'])([a-z-]+)\2/g, (m, from, q, name) => (name in VENDOR ? `${from}${q}${vendorPrefix}vendor/${name}.js${q}` : m));
}

export async function build({ quiet = false } = {}) {
  const started = Date.now();
  const { build: esbuild } = await import('esbuild');
  const files = walk(SRC);
  const entryPoints = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const out = join(ROOT, `.dist-${process.pid}-${started}`);
  rmSync(out, { recursive: true, force: true });
  const result = await esbuild({
    entryPoints,
    outdir: out,
    outbase: SRC,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
    write: false,
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const toDist = relative(dirname(file.path), out).split('\\').join('/');
    writeFileSync(file.path, file.path.endsWith('.js') ? rewriteSpecifiers(file.text, toDist ? `${toDist}/` : './') : file.contents);
  }
  for (const [name, external] of Object.entries(VENDOR)) {
    await esbuild({
      entryPoints: { [name]: name },
      // The package is found beside the checkout, whatever the working directory.
      absWorkingDir: ROOT,
      outdir: join(out, 'vendor'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external,
      // CommonJS inside an ES module bundle: give it the require() it expects.
      banner: { js: "import { createRequire as __vendorRequire } from 'node:module'; const require = __vendorRequire(import.meta.url);" },
      logLevel: 'silent',
    });
  }
  for (const f of files.filter((f) => f.endsWith('.mjs'))) {
    const target = join(out, relative(SRC, f));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, rewriteSpecifiers(readFileSync(f, 'utf8')));
  }
  cpSync(join(SRC, 'console', 'public'), join(out, 'console', 'public'), { recursive: true });
  writeFileSync(join(out, STAMP), `${started}\n`);
  // Swap: the old tree moves aside first, so dist/ is only ever missing for an instant.
  const old = join(ROOT, `.dist-old-${process.pid}-${started}`);
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(out, DIST);
  rmSync(old, { recursive: true, force: true });
  if (!quiet) console.log(`built ${entryPoints.length} files into dist/ in ${Date.now() - started} ms`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await build();
