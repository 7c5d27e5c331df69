// The OpenAPI document is complete enough to generate a client from: an operationId and a summary
// on every operation, servers, security on every route that needs it (and explicitly none on the
// health checks), the error statuses each route can return with the error schema, the full run
// shape, a branded /docs, and Redocly's recommended rules passing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
