// The offline demo site of the quick start (`npm run demo:site`): served on loopback, every
// Content Intelligence feature works against it with no internet: the good guide scores Strong,
// the keyword-stuffed article Poor, and a full run audits its robots.txt (training crawlers opted
// out, not a defect), llms.txt and sitemap.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const SCRIPT = fileURLToPath(new URL('../../src/cli/demo-site.ts', import.meta.url));

describe('npm run demo:site', () => {
  let demo: ChildProcess;
  let origin: string;
  let s: TestServer;
  before(async () => {
    demo = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const first = await new Promise<string>((resolve) => createInterface({ input: demo.stdout! }).once('line', resolve));
    origin = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(first)![1]!;
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: origin.replace('http://', '') });
  });
  after(async () => {
    await s.close();
    demo.kill();
  });

  test('scores, trends and a full run work offline against the demo site', async () => {
    const { key } = await s.account({ credits: 30 });
    const score = async (path: string) => {
      const res = await s.request('POST', '/v1/content-intelligence/content/score', { key, body: { url: origin + path } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    assert.equal((await score('/blog/project-management-guide')).overall_band, 'Strong');
    const stuffed = await score('/blog/best-project-management-software');
    assert.equal(stuffed.overall_band, 'Poor');
    assert.ok(stuffed.recommendations.some((r: { signal: string }) => r.signal === 'keyword_stuffing'));
    const run = (await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: origin + '/blog/project-management-guide', analysis_depth: 'full' } })).json();
    await s.waitForRun(key, run.run_id);
    const full = (await s.request('GET', `/v1/content-intelligence/runs/${run.run_id}?include_result=true`, { key })).json();
    assert.equal(full.status, 'completed');
    const audit = full.result.audit;
    assert.equal(audit.llms_txt.valid, true);
    assert.equal(audit.sitemap.lists_page, true);
    assert.equal(audit.crawlers.find((c: { agent: string }) => c.agent === 'GPTBot').allowed, false);
    assert.ok(!audit.recommendations.some((r: { signal: string }) => r.signal === 'ai_crawlers_blocked'), 'training opt-outs are not a defect');
    assert.ok(full.result.trends.length > 0 && full.result.prompts.length > 0);
  });
});
