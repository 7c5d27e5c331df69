// `npm run test:fuzz`: every route of the OpenAPI document and every MCP tool, called with
// bodies mutated from a valid one (fields dropped, replaced by other JSON values, long or
// NUL-holding strings, unknown fields), arbitrary path ids and query values, and odd headers
// (content types, charsets, keys). Properties: never a 5xx other than a documented page-fetch
// failure (500 extraction_failed: the fuzzed URLs do not resolve), and a request that is
// refused changes no balance. Bounded (FUZZ_RUNS cases per route, default 60); runs on the
// database DATABASE_URL names (SQLite when unset), so CI runs it on both.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getBalance } from '../../src/core/billing/ledger.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** A valid body per POST route: the fuzzer mutates these. */
const VALID: Record<string, Record<string, unknown>> = {
  '/v1/visibility/runs': { url: 'https://acme.invalid', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'], competitors: ['Globex'], idempotency_key: 'k1' },
  '/v1/visibility/runs/{run_id}/cancel': {},
  '/v1/pages/content/serialize': { url: 'https://acme.invalid/page', max_chars: 100, offset: 0 },
  '/v1/visibility/prompts/suggest': { url: 'https://acme.invalid', brand_name: 'Acme', count: 3 },
  '/v1/content-intelligence/trends/discover': { url: 'https://acme.invalid', max_trends: 3 },
  '/v1/content-intelligence/content/score': { url: 'https://acme.invalid', trends: ['crm'] },
  '/v1/content-intelligence/runs': { url: 'https://acme.invalid', analysis_depth: 'score', idempotency_key: 'c1' },
  '/v1/tests': {
    test_type: 'ai_citations',
    name: 'Fuzz',
    definition: { url: 'https://acme.invalid', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] },
    schedule: { cron: '0 6 * * 1', timezone: 'Europe/Berlin' },
    monthly_credit_budget: '10.00',
  },
  '/v1/tests/{test_id}': { name: 'Renamed', paused: true, schedule: null },
  '/v1/tests/{test_id}/runs': { idempotency_key: 't1' },
};

// biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
const TEMPLATE_PROBE = '${x}';
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '%00', '../../etc/passwd', TEMPLATE_PROBE, "' or 1=1 --", '\uFFFD', '\uD800', 'https://127.0.0.1/', 'file:///etc/passwd', 'javascript:alert(1)'),
  fc.nat({ max: 5000 }).map((n) => 'x'.repeat(n)),
);
const anyJson = fc.oneof(oddString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(oddString, { maxLength: 5 }), fc.dictionary(oddString, oddString, { maxKeys: 3 }));

/** A body mutated from `valid`: some fields dropped, some replaced, maybe an unknown one. */
function mutatedBody(valid: Record<string, unknown>) {
  const keys = Object.keys(valid);
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({
      drop: fc.subarray(keys),
      replace: fc.dictionary(fc.constantFrom(...(keys.length ? keys : ['x'])), anyJson, { maxKeys: 3 }),
      extra: fc.option(fc.tuple(oddString, anyJson), { nil: undefined }),
    }).map(({ drop, replace, extra }) => {
      const body: Record<string, unknown> = { ...valid, ...replace };
      for (const k of drop) delete body[k];
      if (extra) body[extra[0]] = extra[1];
      return body as unknown;
    }) },
    { weight: 1, arbitrary: anyJson as fc.Arbitrary<unknown> },
  );
}

/** Percent-encoded; a lone surrogate becomes the invalid UTF-8 it would be on the wire. */
function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', undefined);

describe('fuzz', () => {
  let s: TestServer;
  let key: string;
  let mcpToken: string;
  let accountId: string;
  let paths: [string, string][];
  before(async () => {
    s = await startTestServer({ SIGHTLINE_RATE_LIMIT_PER_MINUTE: '1000000' }, { worker: false });
    ({ key, accountId } = await s.account({ credits: 100_000 }));
    mcpToken = await s.key(accountId, { kind: 'mcp' });
    const doc = (await s.request('GET', '/openapi.json')).json();
    paths = Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), p] as [string, string]));
  });
  after(async () => s.close());

  async function balance() {
    const b = await getBalance(s.runtime.core.store.db, accountId);
    return `${b.available}/${b.reserved}/${b.settled}`;
  }

  /** A 5xx is allowed only when it is the documented page-fetch failure. */
  function acceptable(status: number, body: string): boolean {
    if (status < 500) return true;
    return status === 500 && /"error":"extraction_failed"/.test(body);
  }

  test('HTTP routes: no unexpected 5xx; a refused request changes no balance', async () => {
    for (const [method, path] of paths) {
      await fc.assert(
        fc.asyncProperty(
          fc.option(oddString, { nil: undefined }),
          fc.dictionary(fc.constantFrom('limit', 'starting_after', 'status', 'kind', 'include_probes', 'include_results', 'url', 'days', 'test_type', 'recent_limit'), oddString, { maxKeys: 3 }),
          mutatedBody(VALID[path] ?? {}),
          contentType,
          fc.constantFrom('valid', 'valid', 'valid', 'none', 'mcp', 'garbage'),
          async (id, query, body, ctype, auth) => {
            const url =
              path.replace(/\{[a-z_]+\}/g, () => pathSegment(id ?? 'vis_missing')) +
              (Object.keys(query).length ? '?' + new URLSearchParams(query as Record<string, string>).toString() : '');
            const headers: Record<string, string> = {};
            if (auth === 'valid') headers.authorization = `Bearer ${key}`;
            if (auth === 'mcp') headers.authorization = `Bearer ${mcpToken}`;
            if (auth === 'garbage') headers.authorization = 'Bearer svc_api_live_\u00e9\u00e9';
            if (ctype) headers['content-type'] = ctype;
            const before = await balance();
            const res = await s.app.inject({
              method: method as 'GET',
              url,
              headers,
              ...(method === 'POST' || method === 'PATCH' ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
            });
            assert.ok(acceptable(res.statusCode, res.body), `${method} ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
            if (res.statusCode !== 200) assert.equal(await balance(), before, `${method} ${url} → ${res.statusCode} moved credits`);
          },
        ),
        { numRuns: RUNS },
      );
    }
  });

  test('MCP tools: no unexpected 5xx or transport failure; a refused call changes no balance', async () => {
    const list = await s.request('POST', '/mcp', {
      key: mcpToken,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const tools: { name: string }[] = list.json().result.tools;
    assert.ok(tools.length > 5);
    for (const tool of tools) {
      const valid = VALID[Object.keys(VALID).find((p) => p.replaceAll('/', '_').includes(tool.name.split('_').slice(1).join('_'))) ?? ''] ?? { url: 'https://acme.invalid', run_id: 'vis_x' };
      await fc.assert(
        fc.asyncProperty(mutatedBody(valid), async (args) => {
          const before = await balance();
          const res = await s.request('POST', '/mcp', {
            key: mcpToken,
            headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
            body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool.name, arguments: args } },
          });
          assert.ok(res.statusCode < 500, `${tool.name} → HTTP ${res.statusCode} ${res.body.slice(0, 300)}`);
          const result = res.json().result;
          if (!result) return; // a JSON-RPC error (arguments not an object): refused by the SDK
          if (result.isError) {
            const failure = JSON.parse(result.content[0].text);
            assert.ok(failure.error !== 'internal_error' && failure.error !== 'database_unavailable', `${tool.name} → ${result.content[0].text.slice(0, 300)}`);
            assert.equal(await balance(), before, `${tool.name} refused but moved credits`);
          }
        }),
        { numRuns: Math.max(10, Math.floor(RUNS / 2)) },
      );
    }
  });
});
