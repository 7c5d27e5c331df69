// Language and country codes are checked where a request gives them: a run asked in "klingon"
// from country "ZZ" is a 400 naming the parameter, charges nothing and creates nothing; project
// markets, the project estimate and per-probe codes the same; real codes of any case pass. The
// check itself (Intl.DisplayNames over Node's ICU data) is tested apart.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { isCountryCode, isLanguageTag } from '../../src/core/locale.ts';

describe('language and country codes', () => {
  test('the check: ICU-known languages and regions only', () => {
    for (const ok of ['en', 'de', 'pt-BR', 'pt_BR', 'zh-Hans', 'yue', 'fil', 'EN', 'he', 'iw']) assert.ok(isLanguageTag(ok), ok);
    for (const bad of ['klingon', 'english', 'xx', 'und', 'e', '', 'en--US', 'en-US-', '12']) assert.ok(!isLanguageTag(bad), bad);
    for (const ok of ['US', 'de', 'GB', 'XK', 'br']) assert.ok(isCountryCode(ok), ok);
    for (const bad of ['ZZ', 'AA', 'usa', 'U', '', '419', 'place']) assert.ok(!isCountryCode(bad), bad);
  });

  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  const run = { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'] };

  test('a run with an unknown language or country is a 400 that charges nothing', async () => {
    const { key } = await s.account({ credits: 10 });
    const balance = async () => (await s.request('GET', '/v1/usage', { key })).json();
    const before = await balance();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...run, language: 'klingon' }, 'language'],
      [{ ...run, country: 'ZZ' }, 'country'],
      [{ ...run, country: 'usa' }, 'country'],
      [{ url: run.url, target_entity: 'Acme', probes: [{ prompt: 'a', platform: 'deepseek' }, { prompt: 'b', platform: 'deepseek', language: 'english' }] }, 'probes[1].language'],
    ];
    for (const [body, parameter] of cases) {
      const res = await s.request('POST', '/v1/visibility/runs', { key, body });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().detail.error, 'invalid_request');
      assert.equal(res.json().detail.parameter, parameter);
      assert.match(res.json().detail.message, /code such as/);
    }
    assert.deepEqual(await balance(), before, 'nothing reserved, charged or recorded');
    assert.equal((await s.request('GET', '/v1/visibility/runs', { key })).json().runs.length, 0);
    const good = await s.request('POST', '/v1/visibility/runs', { key, body: { ...run, language: 'pt-BR', country: 'br' } });
    assert.equal(good.statusCode, 200, good.body);
    const done = await s.waitForRun(key, good.json().run_id);
    assert.equal(done.country, 'BR');
    assert.equal(done.language, 'pt-BR');
  });

  test('project markets and the estimate check both codes', async () => {
    const { key } = await s.account({ credits: 10 });
    const project = { name: 'Acme', url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['deepseek'], prompts: [{ prompt: 'a' }] };
    for (const path of ['/v1/projects', '/v1/projects/estimate']) {
      const res = await s.request('POST', path, { key, body: { ...project, markets: [{ language: 'english', country: 'usa' }] } });
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      assert.equal(res.json().detail.parameter, 'markets[].language');
    }
    const res = await s.request('POST', '/v1/projects', { key, body: { ...project, markets: [{ language: 'de', country: 'at' }] } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().markets, [{ language: 'de', country: 'AT' }]);
  });
});
