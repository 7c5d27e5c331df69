// The project dashboard's site activity: AI crawler requests, refusals and AI referral visits
// from the access logs of the account's sites on the brand's domains, beside the visibility
// numbers; another domain's site and another account's logs stay out, and so do the sites for
// a reader without sites:read (a read-only key, an MCP token, a share link).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openShare, shareReport } from '../../src/core/reports/shares.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const stamp = (d: Date) => d.toUTCString().replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15';

describe('project dashboard: site activity', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  async function upload(key: string, siteId: string, lines: string[]) {
    const res = await s.request('POST', `/v1/sites/${siteId}/logs`, { key, body: `${lines.join('\n')}\n`, headers: { 'content-type': 'text/plain' } });
    assert.equal(res.statusCode, 200, res.body);
  }

  test('the brand domains’ sites are counted per crawler, assistant and day', async () => {
    const { key } = await s.account({ credits: 10 });
    const project = (
      await s.request('POST', '/v1/projects', {
        key,
        body: { name: 'Acme', url: 'https://acme-crm.example/', brand: { name: 'Acme CRM', domains: ['acme.io'] }, markets: [{ language: 'en', country: 'US' }], platforms: ['deepseek'], prompts: [{ prompt: 'best crm' }] },
      })
    ).json();
    const none = (await s.request('GET', `/v1/projects/${project.id}/dashboard`, { key })).json();
    assert.equal(none.site_activity, null);

    const main = (await s.request('POST', '/v1/sites', { key, body: { domain: 'www.acme-crm.example' } })).json();
    const second = (await s.request('POST', '/v1/sites', { key, body: { domain: 'acme.io' } })).json();
    const unrelated = (await s.request('POST', '/v1/sites', { key, body: { domain: 'globex.example' } })).json();
    const now = new Date();
    const yesterday = new Date(now.getTime() - 86_400_000);
    await upload(key, main.id, [
      `203.0.113.9 - - [${stamp(now)}] "GET /pricing HTTP/1.1" 403 120 "-" "${GPTBOT}"`,
      `203.0.113.9 - - [${stamp(yesterday)}] "GET /features HTTP/1.1" 200 5120 "-" "${GPTBOT}"`,
      `198.51.100.4 - - [${stamp(now)}] "GET /features HTTP/1.1" 200 5120 "https://chatgpt.com/" "${SAFARI}"`,
    ]);
    await upload(key, second.id, [`198.51.100.5 - - [${stamp(now)}] "GET / HTTP/1.1" 200 5120 "https://www.perplexity.ai/" "${SAFARI}"`]);
    await upload(key, unrelated.id, [`203.0.113.9 - - [${stamp(now)}] "GET / HTTP/1.1" 200 120 "-" "${GPTBOT}"`]);
    const other = await s.account({ credits: 1 });
    const foreign = (await s.request('POST', '/v1/sites', { key: other.key, body: { domain: 'acme-crm.example' } })).json();
    await upload(other.key, foreign.id, [`203.0.113.9 - - [${stamp(now)}] "GET / HTTP/1.1" 200 120 "-" "${GPTBOT}"`]);

    const a = (await s.request('GET', `/v1/projects/${project.id}/dashboard?days=30`, { key })).json().site_activity;
    assert.deepEqual(a.sites.map((x: { domain: string }) => x.domain).sort(), ['acme-crm.example', 'acme.io']);
    assert.equal(a.crawler_requests, 2);
    assert.equal(a.crawler_refused, 1);
    assert.equal(a.referral_visits, 2);
    assert.deepEqual(a.crawlers, [{ name: 'GPTBot', requests: 2, refused: 1 }]);
    assert.deepEqual(a.referrals.map((r: { visits: number }) => r.visits), [1, 1]);
    assert.deepEqual(
      a.days.map((d: { day: string }) => d.day),
      [...new Set([yesterday.toISOString().slice(0, 10), now.toISOString().slice(0, 10)])],
    );
    assert.equal(a.days.reduce((n: number, d: { crawler_requests: number }) => n + d.crawler_requests, 0), 2);
  });

  test('a reader without sites:read gets site_activity null: read-only key, MCP token, share link', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const project = (
      await s.request('POST', '/v1/projects', {
        key,
        body: { name: 'Initech', url: 'https://initech.example/', brand: { name: 'Initech' }, markets: [{ language: 'en', country: 'US' }], platforms: ['deepseek'], prompts: [{ prompt: 'best tps' }] },
      })
    ).json();
    const site = (await s.request('POST', '/v1/sites', { key, body: { domain: 'initech.example' } })).json();
    await upload(key, site.id, [`203.0.113.9 - - [${stamp(new Date())}] "GET / HTTP/1.1" 200 120 "-" "${GPTBOT}"`]);
    const full = (await s.request('GET', `/v1/projects/${project.id}/dashboard`, { key })).json();
    assert.equal(full.site_activity.sites[0].id, site.id, 'a key with sites:read sees them');

    const readOnly = await s.key(accountId, { scopes: ['tests:read', 'runs:read'] });
    assert.equal((await s.request('GET', '/v1/sites', { key: readOnly })).statusCode, 403);
    const res = await s.request('GET', `/v1/projects/${project.id}/dashboard`, { key: readOnly });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.ok('site_activity' in body, 'the field stays');
    assert.equal(body.site_activity, null);
    assert.ok(!res.body.includes(site.id) && !res.body.includes('initech.example"'), res.body);
    const withSites = await s.key(accountId, { scopes: ['tests:read', 'sites:read'] });
    assert.equal((await s.request('GET', `/v1/projects/${project.id}/dashboard`, { key: withSites })).json().site_activity.crawler_requests, 1);

    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const token = await s.key(accountId, { kind: 'mcp', scopes: ['tests:read', 'runs:read'] });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const r = (await client.callTool({ name: 'get_project_dashboard', arguments: { project_id: project.id } })) as { content: { text: string }[] };
    assert.equal(JSON.parse(r.content[0].text).site_activity, null);
    await client.close();

    // A share link is opened by anyone holding it and made without sites:read: never the sites.
    const share = (await s.request('POST', `/v1/projects/${project.id}/shares`, { key, body: {} })).json();
    const opened = await openShare(s.runtime.core.store, share.token);
    assert.ok(opened);
    const view = await shareReport(s.runtime.core.store, s.runtime.core.catalog, opened);
    assert.ok(view.status === 'ok');
    assert.equal(view.report.dashboard.site_activity, null);
  });
});
