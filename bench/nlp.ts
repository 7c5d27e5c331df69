// Benchmark for how compromise is loaded (src/core/content/nlp.ts): the cost of a
// `process.nextTick`, and whether object literals still share maps, once compromise is loaded;
// and compromise's own speed and output, imported directly versus from a V8 context of its own
// (as nlp.ts loads it, and the plain way). Each variant runs in a fresh child process.
// The one thing to know: the nextTick figure is the symptom of the empty-object map running out of
// transitions (see nlp.ts); Node calls nextTick several times per HTTP request.
//
//   npm run bench:nlp
//   npm run bench:nlp -- --pages 300 --dataset ../shared/datasets/wcxb-dev
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import type { Nlp } from '../src/core/content/nlp.ts';
import { parseArgs } from './lib/common.ts';

const here = fileURLToPath(import.meta.url);
const repoRoot = join(dirname(here), '..');
const args = parseArgs();
const variant = args.opt('--variant');

interface Result {
  variant: string;
  nextTickNs: number;
  /** Whether two objects from one literal with computed keys (a tick object's shape) share a map. */
  sharedMaps: boolean;
  msPerPage: number | null;
  pages: number;
  outputDigest: string | null;
}

/** Best of five: ns per nextTick over 2,000,000 ticks, drained every 100,000. */
async function nextTickNs(): Promise<number> {
  const noop = () => {};
  const once = async () => {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < 20; r++) {
      for (let i = 0; i < 100_000; i++) process.nextTick(noop, i);
      await new Promise((done) => setImmediate(done));
    }
    return Number(process.hrtime.bigint() - t0) / 2_000_000;
  };
  for (let i = 0; i < 3; i++) await once();
  let best = Infinity;
  for (let i = 0; i < 5; i++) best = Math.min(best, await once());
  return Math.round(best * 10) / 10;
}

async function child(name: string): Promise<Result> {
  let nlp: Nlp | ((text: string) => ReturnType<Nlp>) | undefined;
  if (name === 'imported') nlp = (await import('compromise')).default;
  else if (name === 'own context') nlp = (await import('../src/core/content/nlp.ts')).nlp;
  else if (name === 'plain context') nlp = plainContext();
  // Loading the way a server does at start (nlp.ts loads on first use: one call).
  nlp?.('Loaded.');
  const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  const [k1, k2] = [Symbol('k1'), Symbol('k2')];
  const literal = () => ({ [k1]: 1, [k2]: 2, callback: null, args: undefined });
  const sharedMaps = sameMap(literal(), literal());
  const ticks = await nextTickNs();
  const pages = pageTexts(args.num('--pages', 200));
  let msPerPage: number | null = null;
  let outputDigest: string | null = null;
  if (nlp) {
    const hash = createHash('sha256');
    const t0 = performance.now();
    for (const text of pages) {
      const doc = nlp(text);
      // Term ids carry a random part: everything else must match.
      const terms = JSON.stringify(doc.terms().json(), (key, value) => (key === 'id' ? undefined : value));
      hash.update(JSON.stringify([doc.people().out('array'), doc.organizations().out('array'), doc.places().out('array')]) + terms);
    }
    msPerPage = Math.round(((performance.now() - t0) / pages.length) * 10) / 10;
    outputDigest = hash.digest('hex').slice(0, 16);
  }
  return { variant: name, nextTickNs: ticks, sharedMaps, msPerPage, pages: nlp ? pages.length : 0, outputDigest };
}

/**
 * compromise in its own context the plain way, for comparison: the UMD file run against a
 * contextified sandbox, so every global name it reads goes through the sandbox's interceptor
 * (nlp.ts copies the builtins into locals instead).
 */
function plainContext(): Nlp {
  const file = createRequire(import.meta.url).resolve('compromise');
  const module = { exports: {} as unknown };
  runInNewContext(readFileSync(file, 'utf8'), { module, exports: module.exports, process: { env: {} }, console });
  return module.exports as Nlp;
}

/** Main-content texts of the dataset's first pages, as the keyphrase code reads them (first 60,000 characters). */
function pageTexts(count: number): string[] {
  const dataset = resolve(args.opt('--dataset') ?? join(repoRoot, '../shared/datasets/wcxb-dev'));
  const lines = gunzipSync(readFileSync(join(dataset, 'ground-truth.jsonl.gz'))).toString('utf8').trim().split('\n');
  return lines
    .map((line) => String(JSON.parse(line).main_content ?? '').slice(0, 60_000))
    .filter((text) => text.length > 0)
    .slice(0, count);
}

if (variant) {
  process.stdout.write(JSON.stringify(await child(variant)) + '\n');
} else {
  const passArgs = process.argv.slice(2);
  const results: Result[] = [];
  for (const name of ['not loaded', 'imported', 'own context', 'plain context']) {
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', here, ...passArgs, '--variant', name], { encoding: 'utf8' });
    const r = JSON.parse(out.trim().split('\n').pop()!) as Result;
    results.push(r);
    console.log(
      `compromise ${name.padEnd(13)} nextTick ${String(r.nextTickNs).padStart(6)} ns   literal maps shared: ${r.sharedMaps ? 'yes' : 'NO '}` +
        (r.msPerPage === null ? '' : `   ${r.msPerPage} ms/page over ${r.pages} pages   output ${r.outputDigest}`),
    );
  }
  const [imported, own, plain] = [results[1]!, results[2]!, results[3]!];
  const same = imported.outputDigest === own.outputDigest && imported.outputDigest === plain.outputDigest;
  console.log(`same output imported and in a context of its own: ${same ? 'yes' : 'NO'}`);
}
