// The sandbox driver: determinism, labelled output, languages, directives, and that answer
// analysis sees both mentioned and not-mentioned outcomes on its answers.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createSandboxDriver, parseSandboxDirectives } from '../../src/platforms/sandbox.ts';
import { PlatformError, API_PLATFORMS as PLATFORMS, type ProbeRequest } from '../../src/platforms/types.ts';
import { analyzeAnswer, registrableDomain } from '../../src/core/visibility/analysis.ts';

const base: ProbeRequest = {
  platform: 'openai',
  modelId: 'gpt-5-mini',
  providerModel: 'gpt-5-mini',
  prompt: 'What is the best CRM for a small agency?',
  language: 'en',
  country: 'US',
  targetEntity: 'Acme CRM',
  targetUrl: 'https://www.acme-crm.io/features',
  competitors: ['HubSpot', 'Pipedrive', 'Zoho CRM'],
};

const analyze = (req: ProbeRequest, a: { text: string; citations: import('../../src/platforms/types.ts').Citation[] }) =>
  analyzeAnswer({
    text: a.text,
    citations: a.citations,
    targetEntity: req.targetEntity,
    targetUrl: req.targetUrl,
    competitors: req.competitors,
  });

describe('sandbox driver', () => {
  const driver = createSandboxDriver('openai');

  test('identity: sandbox engine, always available', () => {
    assert.equal(driver.platform, 'openai');
    assert.equal(driver.engine, 'sandbox');
    assert.equal(driver.available(), true);
  });

  test('deterministic: the same request gives the same answer, a different one differs', async () => {
    const a = await driver.ask(base);
    const b = await createSandboxDriver('openai').ask({ ...base });
    assert.deepEqual(a, b);
    const seeds = new Set<string>();
    for (const change of [
      { prompt: 'Which CRM is best for agencies?' },
      { language: 'de' },
      { country: 'GB' },
      { providerModel: 'gpt-5.1' },
      { targetEntity: 'Other' },
      { competitors: ['HubSpot'] },
    ] satisfies Partial<ProbeRequest>[]) {
      const c = await driver.ask({ ...base, ...change });
      seeds.add((c.raw as { seed: string }).seed);
    }
    seeds.add((a.raw as { seed: string }).seed);
    assert.equal(seeds.size, 7);
  });

  test('labelled, sandbox-prefixed model, raw carries the seed, citations well formed (API platforms)', async () => {
    for (const platform of PLATFORMS) {
      const a = await createSandboxDriver(platform).ask({ ...base, platform });
      assert.match(a.text.split('\n')[0], /^\[sandbox answer — simulated, not (from \w+|a real AI answer)\]$/);
      assert.equal(a.model, 'sandbox:gpt-5-mini');
      assert.equal(a.engine, 'sandbox');
      assert.deepEqual(Object.keys(a.raw as object).sort(), ['engine', 'seed']);
      assert.equal((a.raw as { engine: string }).engine, 'sandbox');
      assert.match((a.raw as { seed: string }).seed, /^[0-9a-f]{16}$/);
      assert.ok(a.citations.length >= 2 && a.citations.length <= 6, `citations: ${a.citations.length}`);
      for (const c of a.citations) {
        assert.match(c.url, /^https:\/\//);
        assert.equal(c.domain, registrableDomain(c.url));
      }
    }
  });

  test('the label never creates a mention by itself', async () => {
    const req = { ...base, platform: 'claude' as const, targetEntity: 'Claude', prompt: 'x [[sandbox:no-mention]]' };
    const a = await createSandboxDriver('claude').ask(req);
    assert.equal(a.text.split('\n')[0], '[sandbox answer — simulated, not a real AI answer]');
    assert.equal(analyze(req, a).brand_mentioned, false);
  });

  test('answers in the request language, falling back to English', async () => {
    const markers: Record<string, RegExp> = {
      de: /\b(Hier|Laut|Kurz gesagt|Folgende|In Tests|Die eine)\b/,
      fr: /\b(Voici|D’après|En bref|Ces outils|Il n’y a)\b/,
      es: /\b(Aquí|Según|Respuesta corta|Estas son|Estas herramientas|No hay)\b/,
      en: /\b(Here|Based on|Short answer|Several tools|There is no)\b/,
    };
    for (const [language, marker] of Object.entries({ ...markers, 'de-AT': markers.de, ja: markers.en })) {
      const a = await driver.ask({ ...base, language });
      assert.match(a.text, marker, `language ${language}`);
    }
  });

  test('[[sandbox:error]] fails with a non-retryable PlatformError', async () => {
    await assert.rejects(driver.ask({ ...base, prompt: 'best CRM [[sandbox:error]]' }), (err: unknown) => {
      assert.ok(err instanceof PlatformError);
      assert.equal(err.code, 'sandbox_error');
      assert.equal(err.retryable, false);
      return true;
    });
  });

  test('[[sandbox:retryable-error]] fails every time with a retryable PlatformError', async () => {
    for (let i = 0; i < 2; i++) {
      await assert.rejects(driver.ask({ ...base, prompt: '[[sandbox:retryable-error]] best CRM' }), (err: unknown) => {
        assert.ok(err instanceof PlatformError);
        assert.equal(err.retryable, true);
        assert.equal(err.retryAfterMs, 0);
        return true;
      });
    }
  });

  test('[[sandbox:mention]] and [[sandbox:no-mention]] force the outcome across many prompts', async () => {
    for (let i = 0; i < 40; i++) {
      const prompt = `Which tool should team ${i} use?`;
      const yes = { ...base, prompt: `${prompt} [[sandbox:mention]]` };
      const ay = await driver.ask(yes);
      const ry = analyze(yes, ay);
      assert.equal(ry.text_mentioned, true, ay.text);
      assert.ok(ay.text.includes('Acme CRM'));

      const no = { ...base, prompt: `[[sandbox:no-mention]] ${prompt} [[sandbox:cite]]` };
      const an = await driver.ask(no);
      const rn = analyze(no, an);
      assert.equal(rn.brand_mentioned, false, an.text);
      assert.equal(rn.citation_mentioned, false);
      assert.ok(!an.text.includes('[[sandbox'));
    }
  });

  test('no-mention holds even when the prompt and competitors contain the brand', async () => {
    const req = {
      ...base,
      targetEntity: 'Best',
      targetUrl: 'https://best.com',
      competitors: ['Best Buy', 'best.com'],
      prompt: 'Is Best the best choice for CRM? [[sandbox:no-mention]]',
    };
    for (const language of ['en', 'de', 'fr', 'es']) {
      const a = await driver.ask({ ...req, language });
      const r = analyze(req, a);
      assert.equal(r.brand_mentioned, false, a.text);
      assert.ok(a.text.startsWith('[sandbox answer'));
    }
  });

  test('directives are stripped before seeding: a forced outcome keeps the same seed', async () => {
    const plain = await driver.ask(base);
    const forced = await driver.ask({ ...base, prompt: `${base.prompt} [[sandbox:mention]]` });
    assert.equal((plain.raw as { seed: string }).seed, (forced.raw as { seed: string }).seed);
  });

  test('[[sandbox:cite]] cites the target URL domain', async () => {
    for (let i = 0; i < 10; i++) {
      const req = { ...base, prompt: `CRM question ${i} [[sandbox:cite]]` };
      const a = await driver.ask(req);
      assert.ok(a.citations.some((c) => c.domain === 'acme-crm.io'));
      assert.equal(analyze(req, a).citation_mentioned, true);
    }
  });

  test('[[sandbox:delay=MS]] waits and honours abort', async () => {
    const started = Date.now();
    await driver.ask({ ...base, prompt: 'slow [[sandbox:delay=30]]' });
    assert.ok(Date.now() - started >= 25);

    const controller = new AbortController();
    const pending = driver.ask({ ...base, prompt: 'slower [[sandbox:delay=20000]]', signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(pending, { name: 'AbortError' });

    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(driver.ask({ ...base, signal: aborted.signal }), { name: 'AbortError' });
  });

  test('latencyMs option delays every answer and is abortable', async () => {
    const slow = createSandboxDriver('gemini', { latencyMs: 20_000 });
    const controller = new AbortController();
    const pending = slow.ask({ ...base, platform: 'gemini', signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(pending, { name: 'AbortError' });
  });

  test('analysis over many prompts shows both outcomes, a lively mention rate, ranks and competitors', async () => {
    let mentioned = 0;
    let ranked = 0;
    let withCompetitors = 0;
    const N = 200;
    for (let i = 0; i < N; i++) {
      const platform = PLATFORMS[i % PLATFORMS.length];
      const req = { ...base, platform, prompt: `Recommend a CRM for use case ${i}` };
      const a = await createSandboxDriver(platform).ask(req);
      const r = analyze(req, a);
      if (r.brand_mentioned) mentioned++;
      if (r.list_rank !== null) ranked++;
      if (r.competitors.length) withCompetitors++;
      if (i < 50 && i === 49) {
        assert.ok(mentioned > 0 && mentioned < 50, `first 50 prompts: ${mentioned} mentioned`);
      }
    }
    const rate = mentioned / N;
    assert.ok(rate >= 0.35 && rate <= 0.65, `mention rate ${rate}`);
    assert.ok(ranked > 0);
    assert.ok(withCompetitors > N / 2);
  });
});

describe('parseSandboxDirectives', () => {
  test('parses, caps and strips directives', () => {
    const d = parseSandboxDirectives('  Best [[sandbox:delay=999999]] CRM [[ SANDBOX:Mention ]] [[sandbox:no-mention]] [[sandbox:unknown]]?');
    assert.equal(d.prompt, 'Best CRM ?');
    assert.equal(d.delayMs, 30_000);
    assert.equal(d.mention, 'forbid');
    assert.equal(d.error, false);
  });
});
