// `npm run test:fuzz`, nesting and body shapes: JSON texts nested up to three times the limit,
// mixing arrays and objects, with brackets, quotes and escapes inside strings and keys, siblings
// at every level, and odd shapes (scalars at the top, truncated texts, stray closers), sent to a
// /v1 route, a pre-session console route and /mcp. Properties: a valid text nested deeper than
// MAX_JSON_DEPTH is refused as too deep (422 json_too_deep; JSON-RPC -32700 on /mcp) and one
// within it never is; nothing answers a 5xx; every answer comes fast. Bounded by FUZZ_RUNS
// (default 60) per route; runs on the database DATABASE_URL names (SQLite when unset).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { MAX_JSON_DEPTH } from '../../src/text/json-depth.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** Strings that look like structure: brackets, quotes, escapes, non-ASCII. */
const trickyString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('[', ']', '{', '}', '[[[[', '}}}}', '\\', '"', '\\"[', 'é[', '\u2028{', '\uD83D\uDE00]', '\\u005b'),
);
const scalar = fc.oneof(trickyString.map((t) => JSON.stringify(t)), fc.constantFrom('0', '-1.5e3', 'true', 'false', 'null'));
/** A small sibling value: a scalar, or an array/object up to two levels. */
const sibling = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`) },
  { weight: 1, arbitrary: fc.tuple(trickyString, fc.array(scalar, { maxLength: 2 })).map(([k, xs]) => `{${JSON.stringify(k)}:[${xs.join(',')}]}`) },
);
const level = fc.record({ kind: fc.constantFrom('array', 'object'), key: trickyString, before: fc.option(sibling, { nil: undefined }), after: fc.option(sibling, { nil: undefined }) });

/** A valid JSON text built from the innermost level out, and its depth. */
const nestedText = fc.record({ levels: fc.integer({ min: 0, max: MAX_JSON_DEPTH * 3 }).chain((n) => fc.array(level, { minLength: n, maxLength: n })), leaf: scalar, pad: fc.constantFrom('', ' ', '\n\t ') }).map(({ levels, leaf, pad }) => {
  // The depth of the text as written (a repeated key would hide a deep value from JSON.parse).
  let text = leaf;
  let depth = 0;
  for (const l of levels) {
    depth = 1 + Math.max(depth, ...[l.before, l.after].map((x) => (x === undefined ? 0 : depthOf(JSON.parse(x)))));
    if (l.kind === 'array') text = `[${[l.before, text, l.after].filter((x) => x !== undefined).join(',' + pad)}]`;
    else text = `{${l.before !== undefined ? `"b":${l.before},` : ''}${JSON.stringify(l.key)}:${pad}${text}${l.after !== undefined ? `,"z":${l.after}` : ''}}`;
  }
  return { text: pad + text + pad, depth };
});

/** Odd shapes: cut short, stray closers, garbage around a nested text. */
const oddText = fc.oneof(
  fc.tuple(nestedText, fc.nat()).map(([t, n]) => t.text.slice(0, n % (t.text.length + 1))),
  fc.tuple(nestedText, fc.constantFrom(']', '}', ']]]]]', '}{', ',', '"')).map(([t, s]) => t.text + s),
  fc.tuple(fc.constantFrom(']', '}', '"', '\\'), nestedText).map(([s, t]) => s + t.text),
  fc.constantFrom('', ' ', '[', '{', '"', '"\\', ']]]]', '}}}}', '[' + '"]'.repeat(200)),
);

/** Depth of a parsed value, iteratively (`{}` is 1). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, d + 1);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

describe('fuzz: nesting depth and body shapes', () => {
  let s: TestServer;
  let key: string;
  let mcpToken: string;
  let csrf: Record<string, string>;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_RATE_LIMIT_PER_MINUTE: '1000000', SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000000' }, { worker: false });
    const account = await s.account({ credits: 100 });
    key = account.key;
    mcpToken = await s.key(account.accountId, { kind: 'mcp' });
    const session = await s.app.inject({ method: 'GET', url: '/console/api/session' });
    csrf = { cookie: String(session.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': session.json().csrf_token };
  });
  after(async () => s.close());

  const TARGETS: { url: string; headers: () => Record<string, string> }[] = [
    { url: '/v1/visibility/runs', headers: () => ({ authorization: `Bearer ${key}` }) },
    { url: '/v1/tests', headers: () => ({ authorization: `Bearer ${key}` }) },
    { url: '/console/api/sign-in', headers: () => csrf },
    { url: '/mcp', headers: () => ({ authorization: `Bearer ${mcpToken}`, accept: 'application/json, text/event-stream' }) },
  ];

  async function send(url: string, headers: Record<string, string>, payload: string) {
    const started = performance.now();
    const res = await s.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });
    const ms = performance.now() - started;
    assert.ok(res.statusCode < 500, `${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    assert.ok(ms < 1000, `${url} took ${ms.toFixed(0)} ms for ${payload.length} bytes`);
    return res;
  }

  const tooDeep = (url: string, res: { statusCode: number; json(): any }) =>
    url === '/mcp'
      ? res.statusCode === 400 && res.json().error?.code === -32700 && /deeper than/.test(res.json().error.message)
      : res.statusCode === 422 && res.json().detail?.[0]?.type === 'json_too_deep';

  for (const target of TARGETS) {
    test(`${target.url}: refused as too deep exactly when nested deeper than ${MAX_JSON_DEPTH}`, async () => {
      let deep = 0;
      await fc.assert(
        fc.asyncProperty(nestedText, async ({ text, depth }) => {
          if (depth > MAX_JSON_DEPTH) deep++;
          const res = await send(target.url, target.headers(), text);
          assert.equal(tooDeep(target.url, res), depth > MAX_JSON_DEPTH, `depth ${depth} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
      assert.ok(deep > RUNS / 10, `only ${deep} of ${RUNS} cases were nested too deep`);
    });

    test(`${target.url}: odd shapes never answer a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(oddText, async (text) => {
          await send(target.url, target.headers(), text);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
