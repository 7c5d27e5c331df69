// Which code the `sightline` bin runs: the compiled JavaScript in dist/ (scripts/build.mjs) when
// it is at least as new as every file under src/, else it rebuilds dist/ first (about a second),
// so a checkout never runs code older than its sources. Without esbuild, with a failed build, or
// with SIGHTLINE_NO_DIST=1 it runs the TypeScript through tsx, as development and the tests do.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const LOCK = join(ROOT, '.dist-lock');

/** The newest modification time of any file or folder under src/ (a deleted file touches its folder). */
function newestSource(dir = SRC) {
  let newest = statSync(dir).mtimeMs;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const t = e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

function builtAt() {
  try {
    return Number(readFileSync(join(DIST, '.built-at'), 'utf8'));
  } catch {
    return 0;
  }
}

/** Rebuilds dist/ unless another process is doing it (then this one runs the sources). */
async function rebuild() {
  try {
    mkdirSync(LOCK);
  } catch {
    // A lock left by a build that died more than a minute ago is stale.
    if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs > 60_000) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
  try {
    const { build } = await import('../scripts/build.mjs');
    await build({ quiet: true });
    return true;
  } catch (err) {
    process.stderr.write(`sightline: could not build dist/ (${err?.message ?? err}); running the TypeScript sources\n`);
    return false;
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The URL of the CLI's entry to import: dist/cli/main.js, or src/cli/main.ts with tsx registered. */
export async function cliEntry() {
  if (process.env.SIGHTLINE_NO_DIST !== '1') {
    const fresh = builtAt() >= newestSource() || (await rebuild());
    if (fresh) return pathToFileURL(join(DIST, 'cli', 'main.js')).href;
  }
  const { register } = await import('tsx/esm/api');
  register();
  return pathToFileURL(join(SRC, 'cli', 'main.ts')).href;
}
