// The OpenAPI document is complete enough to generate a client from: an operationId and a summary
// on every operation, servers, security on every route that needs it (and explicitly none on the
// health checks), the error statuses each route can return with the error schema, the full run
// shape, a branded /docs, and Redocly's recommended rules passing. Downloads (CSV, JSON Lines) and
// the raw log upload state the media types the server really answers and reads, so the typed
// client generated from the document handles them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSightlineClient } from '../../src/client/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const METHODS = ['get', 'post', 'patch', 'delete', 'put'];

describe('OpenAPI document', () => {
  let s: TestServer;
  let doc: any;
  before(async () => {
    s = await startTestServer();
    doc = (await s.request('GET', '/openapi.json')).json();
  });
  after(async () => s.close());

  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ path, method, op })));

  test('every operation has a unique operationId, a summary, and its security and error statuses', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.servers?.length >= 1);
    assert.deepEqual(doc.security, [{ bearer: [] }]);
    const ids = new Set<string>();
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${where} operationId`);
      assert.ok(!ids.has(op.operationId), `${where} operationId unique`);
      ids.add(op.operationId);
      assert.ok(op.summary?.length > 8, `${where} summary`);
      assert.ok(op.responses['200'], `${where} 200`);
      if (path.startsWith('/v1/')) {
        assert.deepEqual(op.security, [{ bearer: [] }], `${where} security`);
        for (const status of ['401', '403', '429', '500']) {
          const schema = op.responses[status]?.content?.['application/json']?.schema;
          assert.ok(schema?.properties?.detail, `${where} documents ${status} with the error schema`);
        }
        if (op.parameters?.some((p: any) => p.in === 'path')) assert.ok(op.responses['414'], `${where} 414`);
        if (op.requestBody) assert.ok(op.responses['422']?.content, `${where} 422`);
      } else {
        assert.deepEqual(op.security, [], `${where} needs no key`);
      }
    }
    assert.ok(ids.has('visibilityRunsCreate') && ids.has('visibilityRunsEstimate') && ids.has('visibilityProbesRead'));
  });

  test('downloads list the media types the server answers; the log upload its body types; the typed client uses both', async () => {
    const { key } = await s.account({ credits: 20 });
    const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const client = createSightlineClient({ baseUrl: base, apiKey: key });
    const types = (path: string, method = 'get') => Object.keys(doc.paths[path][method].responses['200'].content).sort();
    assert.deepEqual(types('/v1/visibility/runs/{run_id}/export'), ['application/x-ndjson', 'text/csv']);
    assert.deepEqual(types('/v1/tests/{test_id}/history'), ['application/json', 'text/csv']);
    const upload = doc.paths['/v1/sites/{site_id}/logs'].post.requestBody;
    assert.ok(upload?.required, 'the log upload documents its body');
    assert.deepEqual(Object.keys(upload.content).sort(), ['application/gzip', 'application/octet-stream', 'application/x-gzip', 'application/x-ndjson', 'text/plain']);

    const created = await client.POST('/v1/visibility/runs', { body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'] } });
    const run = await s.waitForRun(key, created.data!.run_id);
    const served = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0];
    for (const format of ['csv', 'jsonl'] as const) {
      const r = await client.GET('/v1/visibility/runs/{run_id}/export', { params: { path: { run_id: run.run_id }, query: { format } }, parseAs: 'text' });
      assert.ok(types('/v1/visibility/runs/{run_id}/export').includes(served(r.response)), `${format}: ${served(r.response)}`);
      assert.match(String(r.data), /best anvils/);
    }
    for (const format of ['json', 'csv'] as const) {
      const r = await client.GET('/v1/tests/{test_id}/history', { params: { path: { test_id: run.test_id }, query: { format } }, parseAs: 'text' });
      assert.equal(r.response.status, 200);
      assert.ok(types('/v1/tests/{test_id}/history').includes(served(r.response)), `${format}: ${served(r.response)}`);
    }
    const site = await client.POST('/v1/sites', { body: { domain: 'acme.example' } });
    const line = `20.171.207.1 - - [${new Date().toUTCString().slice(5, 25).replace(/ /g, '/').replace(/\/(\d\d:)/, ':$1')} +0000] "GET / HTTP/1.1" 200 5 "-" "GPTBot/1.2"\n`;
    const sent = await client.POST('/v1/sites/{site_id}/logs', { params: { path: { site_id: site.data!.id } }, body: line, headers: { 'content-type': 'text/plain' }, bodySerializer: (b) => b });
    assert.equal(sent.response.status, 200, JSON.stringify(sent.error));
    assert.equal(sent.data!.lines, 1);
  });

  test('the run read documents every field of the run, its summary and its probes', () => {
    const schema = doc.paths['/v1/visibility/runs/{run_id}'].get.responses['200'].content['application/json'].schema;
    const text = JSON.stringify(schema);
    for (const field of [
      'run_id', 'status', 'source', 'engine', 'url', 'target_entity', 'competitors', 'language', 'country', 'created_at', 'started_at',
      'completed_at', 'prompt_count', 'platform_count', 'probe_count', 'queued_probe_count', 'skipped_probe_count', 'skipped_reason',
      'probe_counts', 'billing', 'summary', 'probes', 'overall_score', 'visibility_band', 'mention_rate_ci', 'share_of_voice',
      'brand_mentioned', 'citation_mentioned', 'mention_position', 'list_rank', 'citations', 'answer', 'brands', 'judge', 'repeat',
    ]) {
      assert.ok(text.includes(`"${field}"`), `run schema names ${field}`);
    }
    assert.ok(text.includes('"partially_completed"'), 'status enum');
    assert.ok(text.includes('"Invisible"'), 'band enum');
    const create = doc.paths['/v1/visibility/runs'].post.requestBody.content['application/json'];
    assert.ok(create.example?.prompts?.length, 'create body example');
  });

  test('/docs is titled and branded sightline', async () => {
    const res = await s.request('GET', '/docs/');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<title>sightline API reference<\/title>/);
    // The wordmark replaces Swagger's logo: it is inlined (base64) into the UI's initializer.
    const init = await s.request('GET', '/docs/static/swagger-initializer.js');
    const inlined = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(init.body)?.[1];
    assert.ok(inlined, 'an inlined SVG logo');
    assert.match(Buffer.from(inlined, 'base64').toString('utf8'), />sightline</);
  });

  test('Redocly recommended rules pass (npm run lint:openapi)', () => {
    const script = fileURLToPath(new URL('../../scripts/openapi-lint.ts', import.meta.url));
    const res = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
    assert.equal(res.status, 0, res.stdout + res.stderr);
    assert.match(res.stdout + res.stderr, /valid/);
  });
});
