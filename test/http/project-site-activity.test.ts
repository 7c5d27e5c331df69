// The project dashboard's site activity: AI crawler requests, refusals and AI referral visits
// from the access logs of the account's sites on the brand's domains, beside the visibility
// numbers; another domain's site and another account's logs stay out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const stamp = (d: Date) => d.toUTCString().replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15';

describe('project dashboard: site activity', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
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
});
