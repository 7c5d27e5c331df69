// Strict bodies: an unknown body field is a 422 extra_forbidden with the
// field's loc on every route that takes a body, and on every MCP tool; nothing is charged. The
// schemas a client plans with (OpenAPI request bodies, MCP tool arguments) say so: every object
// the server closes is `additionalProperties: false`, every object it keeps open says `{}`. And
// Fastify's own router errors (414 for an over-long path parameter) come out in the API's shape.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectMcp } from '../helpers/mcp-client.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

/** Paths of object schemas that say nothing of other keys: open by omission, to a client. */
function openByOmission(node: unknown, path: string, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n, i) => openByOmission(n, `${path}[${i}]`, found));
  else if (node !== null && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.type === 'object' && o.additionalProperties === undefined) found.push(path);
    for (const [k, v] of Object.entries(o)) openByOmission(v, `${path}.${k}`, found);
  }
  return found;
}

describe('strict request bodies', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('every documented operation with a body refuses an unknown field with 422 extra_forbidden at its loc', async () => {
    const { key } = await s.account({ credits: 50 });
    const doc = (await s.request('GET', '/openapi.json')).json();
    let walked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        // A raw upload (access log lines) takes no JSON, so no JSON field is unknown to it.
        const schema = op.requestBody?.content['application/json']?.schema;
        if (!schema) continue;
        // An optional body is anyOf [the object, null].
        const top = schema.anyOf?.find((o: any) => o.type === 'object') ?? schema;
        assert.equal(top.additionalProperties, false, `${method} ${path}: body schema open at the top`);
        assert.deepEqual(openByOmission(schema, `${method} ${path}`), []);
        const url = path.replace(/\{[^}]+\}/g, 'vis_00000000000000000000000000');
        const res = await s.request(method.toUpperCase(), url, { key, body: { competitor: 'Globex' } });
        assert.equal(res.statusCode, 422, `${method} ${path}: ${res.body}`);
        const detail = res.json().detail;
        assert.deepEqual(
          detail.find((d: any) => d.type === 'extra_forbidden'),
          { loc: ['body', 'competitor'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
          `${method} ${path}`,
        );
        walked++;
      }
    }
    assert.ok(walked >= 9, `walked ${walked} operations with a body`);
  });

  test('a misspelled field on a run create (also nested in a probe) charges nothing', async () => {
    const { key } = await s.account({ credits: 20 });
    const base = { url: 'https://acme.example', target_entity: 'Acme' };
    const top = await s.request('POST', '/v1/visibility/runs', { key, body: { ...base, prompts: ['best anvils'], platforms: ['openai'], competitor: 'Globex' } });
    assert.equal(top.statusCode, 422);
    assert.deepEqual(top.json().detail.map((d: any) => d.loc), [['body', 'competitor']]);
    const nested = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { ...base, probes: [{ prompt: 'best anvils', platform: 'openai' }, { prompt: 'x', platform: 'openai', modle: 'gpt' }] },
    });
    assert.equal(nested.statusCode, 422);
    assert.deepEqual(nested.json().detail, [{ loc: ['body', 'probes', 1, 'modle'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '20.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    // Unknown query parameters are still ignored.
    assert.equal((await s.request('GET', '/v1/visibility/runs?colour=blue', { key })).statusCode, 200);
  });

  test('a path parameter over 100 characters is 414 uri_too_long in the API error shape; a non-JSON body 415', async () => {
    const { key } = await s.account();
    const res = await s.request('GET', `/v1/visibility/runs/vis_${'a'.repeat(200)}`, { key });
    assert.equal(res.statusCode, 414);
    assert.equal(res.json().detail.error, 'uri_too_long');
    assert.match(res.headers['x-request-id'] as string, /^req_/);
    const text = await s.request('POST', '/v1/visibility/runs', { key, body: 'url=x', headers: { 'content-type': 'text/plain' } });
    assert.equal(text.statusCode, 415);
    assert.equal(text.json().detail.error, 'unsupported_media_type');
    const doc = (await s.request('GET', '/openapi.json')).json();
    assert.ok(doc.paths['/v1/visibility/runs/{run_id}'].get.responses['414'], 'documents 414');
  });

  test('every MCP tool refuses an unknown argument with extra_forbidden', async () => {
    const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const { accountId } = await s.account({ credits: 20 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const client = await connectMcp(base, token);
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 20);
    for (const t of tools) {
      assert.equal(t.inputSchema.additionalProperties, false, `${t.name}: arguments open at the top`);
      assert.deepEqual(openByOmission(t.inputSchema, t.name), []);
      const r: any = await client.callTool({ name: t.name, arguments: { competitor: 'Globex' } });
      assert.equal(r.isError, true, t.name);
      const body = JSON.parse(r.content[0].text);
      assert.equal(body.error, 'validation_error', t.name);
      assert.deepEqual(body.detail, [{ loc: ['arguments', 'competitor'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }], t.name);
    }
    await client.close();
  });

  test('nested schemas: a probe and a competitor object are closed, a trend object and a definition stay open, as the server treats them', async () => {
    const doc = (await s.request('GET', '/openapi.json')).json();
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties;
    const run = body('/v1/visibility/runs');
    assert.equal(run.probes.items.additionalProperties, false);
    assert.equal(run.competitors.items.anyOf.find((o: any) => o.type === 'object').additionalProperties, false);
    const trends = body('/v1/content-intelligence/content/score').trends;
    const trendObject = (trends.anyOf ?? [trends]).find((o: any) => o.type === 'array').items.anyOf.find((o: any) => o.type === 'object');
    assert.deepEqual(trendObject.additionalProperties, {}, JSON.stringify(trends));
    assert.notEqual(body('/v1/tests').definition.additionalProperties, false);

    // The server agrees: a stray key in a competitor object is refused, one in a trend object kept.
    const { key } = await s.account({ credits: 20 });
    const study = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['openai'] };
    const competitor = await s.request('POST', '/v1/visibility/runs/estimate', { key, body: { ...study, competitors: [{ name: 'Globex', alias: ['GX'] }] } });
    assert.equal(competitor.statusCode, 422);
    assert.deepEqual(competitor.json().detail[0].loc, ['body', 'competitors', 0, 'alias']);
    const tracked = await s.request('POST', '/v1/tests/estimate', { key, body: { test_type: 'ai_citations', definition: study } });
    assert.equal(tracked.statusCode, 200, tracked.body);
  });

  test("keys named like Object.prototype's members (valueOf, constructor, toString) are unknown fields, not a 500", async () => {
    const { accountId, key } = await s.account({ credits: 20 });
    for (const field of ['valueOf', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await s.request('POST', '/v1/visibility/runs', {
        key,
        body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['x'], platforms: ['deepseek'], [field]: 0 },
      });
      assert.equal(res.statusCode, 422, field);
      assert.deepEqual(res.json().detail[0].loc, ['body', field]);
    }
    const base = s.app.server.listening ? `http://127.0.0.1:${(s.app.server.address() as { port: number }).port}` : await s.app.listen({ port: 0, host: '127.0.0.1' });
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    const r: any = await client.callTool({ name: 'get_visibility_run', arguments: { run_id: 'vis_x', valueOf: 0 } });
    assert.equal(r.isError, true);
    assert.deepEqual(JSON.parse(r.content[0].text).detail, [{ loc: ['arguments', 'valueOf'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
    await client.close();
  });
});
