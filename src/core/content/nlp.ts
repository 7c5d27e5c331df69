// compromise (English part-of-speech tagging and named entities), loaded in a V8 context of its
// own, on first use. The one thing to know is why it is not simply imported.
//
// Loading compromise unpacks its lexicon into thousands of small objects, each starting empty
// (`{}`) and getting a different first key. V8 records every such first key as a transition of
// the one map all empty object literals of a context start from, and that map holds at most
// 1,536 transitions. Past that, an object literal that begins with a key the map does not already
// know gets a map of its own instead of a shared one. Node builds such literals on every request:
// `process.nextTick` makes `{ [async_id_symbol]: …, [trigger_async_id_symbol]: … }`, and the
// streams under every HTTP request call it several times. So importing compromise anywhere in the
// process sent every later nextTick through V8's runtime (Runtime_DefineKeyedOwnPropertyInLiteral,
// a map migration each time) and made the reads of those objects megamorphic, whether or not any
// request ever used compromise: under `npm run bench:api`, `perf` put 8–12% of the API server's
// CPU there, and the usage read went from 46% to 62% of the hello-world's throughput once
// compromise was out of the main context (bench/HISTORY.md). test/core/content/nlp.test.ts checks
// the maps with V8's natives syntax.
//
// A separate context (node:vm) has its own `Object` and so its own empty-object map: compromise's
// objects fill that one. Its results are plain strings, arrays and objects of the other context,
// read here with for…of, .filter and .includes, which work across contexts (`instanceof Array`
// would not; nothing here uses it). The code runs inside a function that first copies the
// context's builtins (Object, Array, Math…) into local constants: a contextified global answers
// every name through an interceptor that optimized code cannot cache, which made compromise about
// 35% slower; with locals it runs as fast as imported (`npm run bench:nlp`). Loading lazily also
// keeps processes that never analyse English text from paying its startup and memory.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createContext, runInContext } from 'node:vm';
import type nlpFunction from 'compromise';

export type Nlp = typeof nlpFunction;

let loaded: Nlp | undefined;

/** compromise's `nlp`, from its own context (see above). */
export function nlp(text: string): ReturnType<Nlp> {
  loaded ??= loadCompromise();
  return loaded(text);
}

function loadCompromise(): Nlp {
  // The package's CommonJS build: one self-contained UMD file with no require() of its own.
  const file = createRequire(import.meta.url).resolve('compromise');
  const source = readFileSync(file, 'utf8');
  const context = createContext({});
  const builtins = (runInContext('Object.getOwnPropertyNames(globalThis)', context) as string[]).filter(
    (name) => /^[A-Za-z_$][\w$]*$/.test(name) && !NOT_LOCAL.has(name),
  );
  // Two lines of wrapper before the file's own: lineOffset keeps its stack traces' line numbers.
  const run = runInContext(`(function (module, exports, process, console) {\nconst { ${builtins.join(', ')} } = globalThis;\n${source}\n})`, context, {
    filename: file,
    lineOffset: -2,
  }) as (module: { exports: unknown }, exports: unknown, process: unknown, console: Console) => void;
  const module = { exports: {} as unknown };
  // compromise reads DEBUG_* flags from process.env (else from self.env): an empty env keeps its
  // debug logging off whatever the service's own environment holds.
  run(module, module.exports, { env: {} }, console);
  const fn = module.exports as Nlp;
  if (typeof fn !== 'function') throw new Error(`compromise did not load from ${file}`);
  return fn;
}

/**
 * Globals not copied into locals: the wrapper's own parameters (the context's console is V8's,
 * which prints nowhere), values no code assigns, and eval (a local eval is not eval).
 */
const NOT_LOCAL = new Set(['module', 'exports', 'process', 'console', 'globalThis', 'undefined', 'NaN', 'Infinity', 'eval']);
