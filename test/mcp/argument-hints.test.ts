// An agent's first wrong guesses, answered so that the next call is right: an argument named as
// the answer it came from names it (`id` from create_project's answer is run_project's
// `project_id`), and a brand, market or prompt sent as a string, as the CLI and the console take
// them, is told the object to send. The detail keeps its FastAPI shape; nothing is made or charged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectMcp } from '../helpers/mcp-client.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('MCP argument errors say what was meant', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer();
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => s.close());

  const errorOf = (r: any) => {
    assert.equal(r.isError, true, JSON.stringify(r));
    return JSON.parse(r.content[0].text);
  };

  test("an id named as the answer names it (id → project_id, runId → run_id); a key with no likely match gets no guess", async () => {
    const { accountId } = await s.account({ credits: 50 });
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    // The description says how its answer chains on, and how a retry stays one project.
    const described = (await client.listTools()).tools.find((t) => t.name === 'create_project')!.description!;
    assert.match(described, /its id is the project_id the other project tools take \(run_project runs it now\)/);
    assert.match(described, /Pass an idempotency_key: a retry with the same key and arguments answers the same project/);
    const made: any = await client.callTool({
      name: 'create_project',
      arguments: { url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'], prompts: [{ prompt: 'best anvils' }] },
    });
    assert.equal(made.isError, undefined, JSON.stringify(made));
    const id = made.structuredContent.id;

    const run = errorOf(await client.callTool({ name: 'run_project', arguments: { id, idempotency_key: 'k1' } }));
    assert.equal(run.error, 'validation_error');
    assert.deepEqual(run.detail, [{ loc: ['arguments', 'id'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
    assert.equal(run.message, 'Invalid arguments: id: Extra inputs are not permitted (id: did you mean project_id?)');

    const read = errorOf(await client.callTool({ name: 'get_visibility_run', arguments: { runId: 'vis_x' } }));
    assert.match(read.message, /\(runId: did you mean run_id\?\)$/);
    const typo = errorOf(await client.callTool({ name: 'get_project_dashboard', arguments: { project_id: id, windw: '30d' } }));
    assert.match(typo.message, /\(windw: did you mean window\?\)$/);
    const stray = errorOf(await client.callTool({ name: 'get_project', arguments: { project_id: id, colour: 'red' } }));
    assert.equal(stray.message, 'Invalid arguments: colour: Extra inputs are not permitted');

    // The call the hint leads to works, and nothing ran before it.
    const usage: any = await client.callTool({ name: 'get_usage', arguments: {} });
    assert.equal(usage.structuredContent.credits.reserved_credit_units, '0.00');
    const ok: any = await client.callTool({ name: 'run_project', arguments: { project_id: id, idempotency_key: 'k1' } });
    assert.equal(ok.isError, undefined, JSON.stringify(ok));
    assert.equal(ok.structuredContent.runs.length, 1);
    await client.close();
  });

  test('a brand, market or prompt sent as a string is told the object to send, on MCP and HTTP', async () => {
    const { accountId, key } = await s.account({ credits: 50 });
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    const args = { url: 'https://acme.example/', brand: 'Acme', competitors: ['Globex'], markets: ['en-US'], platforms: ['openai'], prompts: ['best anvils'] };
    const body = errorOf(await client.callTool({ name: 'create_project', arguments: args }));
    const byLoc = Object.fromEntries(body.detail.map((d: any) => [d.loc.slice(1).join('.'), d]));
    assert.deepEqual(Object.keys(byLoc).sort(), ['brand', 'competitors.0', 'markets.0', 'prompts.0']);
    assert.equal(byLoc.brand.type, 'invalid_type');
    assert.equal(byLoc.brand.msg, 'Invalid input: expected an object such as {"name": "Acme", "aliases": ["Acme Inc"], "domains": ["acme.example"]}, received string');
    assert.match(byLoc['competitors.0'].msg, /expected an object such as \{"name": "Acme"/);
    assert.equal(byLoc['markets.0'].msg, 'Invalid input: expected an object such as {"language": "en", "country": "US"} (en-US), received string');
    assert.match(byLoc['prompts.0'].msg, /expected an object such as \{"prompt": "best crm for agencies", "topics": \["crm"\]\}, received string$/);
    assert.match(body.message, /markets\.0: Invalid input: expected an object such as \{"language": "en", "country": "US"\}/);

    // A missing brand is still zod's plain "received undefined"; a wrong field inside the object its own issue.
    const missing = errorOf(await client.callTool({ name: 'create_project', arguments: { url: 'https://acme.example/', platforms: ['openai'], markets: [{ language: 'en' }] } }));
    const missingByLoc = Object.fromEntries(missing.detail.map((d: any) => [d.loc.slice(1).join('.'), d.msg]));
    assert.equal(missingByLoc.brand, 'Invalid input: expected object, received undefined');
    assert.equal(missingByLoc['markets.0.country'], 'Invalid input: expected string, received undefined');

    const http = await s.request('POST', '/v1/projects', { key, body: args });
    assert.equal(http.statusCode, 422);
    const markets = http.json().detail.find((d: any) => d.loc.join('.') === 'body.markets.0');
    assert.equal(markets.msg, 'Invalid input: expected an object such as {"language": "en", "country": "US"} (en-US), received string');
    const list: any = await client.callTool({ name: 'list_projects', arguments: {} });
    assert.equal(list.structuredContent.projects.length, 0, 'nothing was made');
    await client.close();
  });
});
