// The sandbox simulates the consumer surfaces: labelled answers naming the surface, a provider of
// "sandbox", results without an AI answer (seeded, or forced by [[sandbox:no-ai-answer]]), and the
// same determinism as every sandbox answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSandboxDriver } from '../../src/platforms/sandbox.ts';
import { CONSUMER_PLATFORMS, type ProbeRequest } from '../../src/platforms/types.ts';

const req = (platform: ProbeRequest['platform'], prompt: string): ProbeRequest => ({
  platform,
  modelId: 'm',
  providerModel: 'm',
  prompt,
  language: 'en',
  country: 'US',
  targetEntity: 'Acme',
  targetUrl: 'https://acme.example/',
  competitors: ['Globex'],
});

for (const platform of CONSUMER_PLATFORMS) {
  test(`${platform}: labelled simulated answers, with and without an AI answer`, async () => {
    const d = createSandboxDriver(platform);
    assert.equal(d.provider, 'sandbox');
    const forced = await d.ask(req(platform, 'best anvils [[sandbox:ai-answer]]'));
    assert.equal(forced.aiAnswerPresent, true);
    assert.equal(forced.provider, 'sandbox');
    assert.match(forced.text.split('\n')[0]!, /^\[sandbox answer — simulated, not from [^\]]+\]$/);
    const none = await d.ask(req(platform, 'best anvils [[sandbox:no-ai-answer]]'));
    assert.deepEqual([none.text, none.citations, none.aiAnswerPresent], ['', [], false]);
    // Deterministic.
    const again = await d.ask(req(platform, 'best anvils [[sandbox:ai-answer]]'));
    assert.equal(again.text, forced.text);
  });
}

test('without a directive, AI Overviews are missing more often than ChatGPT app answers', async () => {
  const absent = async (platform: ProbeRequest['platform']) => {
    const d = createSandboxDriver(platform);
    let n = 0;
    for (let i = 0; i < 200; i++) if ((await d.ask(req(platform, `question ${i}`))).aiAnswerPresent === false) n++;
    return n;
  };
  const aio = await absent('google_ai_overview');
  const app = await absent('chatgpt_app');
  assert.ok(aio > 40 && aio < 110, `AI Overview absent ${aio}/200`);
  assert.ok(app < 15, `ChatGPT app absent ${app}/200`);
});
