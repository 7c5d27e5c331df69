// The test files of `npm test`, one per line, the slowest first. node's test runner starts files
// in the order given and runs --test-concurrency of them at a time; in alphabetical order a slow
// file that happens to start late runs alone at the end while the other slot has nothing left to
// do. Started first, the slow files overlap the many short ones and the run ends with short files.
// Seconds per file come from test/durations.tsv (measured one file at a time, see its header),
// which lists the slow files; the files it does not list follow them in path order, as before.
// `--json` prints the weights.
// Four at a time on CI's two cores: a file spends most of its wall time waiting (on its server's
// worker, the sandbox's delays, Chromium, a spawned CLI), so two at a time kept the cores under
// half busy (a full SQLite pass: 648 s of CPU, user + sys of every process, against 765 s of wall
// on two cores). Every file has its own database, ports and temp folders (see package.json's
// history), so more of them side by side share nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

/** The measured seconds of each listed file (`seconds<TAB>path` lines; `#` starts a comment). */
export function durations(text) {
  const seconds = new Map();
  for (const line of text.split('\n')) {
    const [s, file] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (file && Number.isFinite(Number(s))) seconds.set(file, Number(s));
  }
  return seconds;
}

/** The files, slowest first; equal weights (the unlisted files weigh 0) in path order. */
export function order(files, seconds) {
  const weight = (f) => seconds.get(f) ?? 0;
  return [...files].sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : a > b ? 1 : 0)).map((f) => [f, weight(f)]);
}

/** Every test file, as a path from the checkout's root (`test/…/x.test.ts`). */
export function testFiles() {
  return walk(join(ROOT, 'test')).map((f) => relative(ROOT, f).split('\\').join('/'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ordered = order(testFiles(), durations(readFileSync(join(ROOT, 'test/durations.tsv'), 'utf8')));
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(Object.fromEntries(ordered), null, 1)}\n`);
  else process.stdout.write(`${ordered.map(([f]) => f).join('\n')}\n`);
}
