// What a live driver hands to analysis is the answer a user reads, in the provider's real reply
// shapes (local fakes on 127.0.0.1): Claude's citations are the results its answer cites (not
// every result it read), its narration before searching is not part of the answer, a paused
// server-tool turn is continued (and fails retryably if it never finishes); Perplexity's reasoning
// models' <think> block is not answer text; duplicate citation URLs that differ only by tracking
// parameters, fragments or "www." collapse. Ends with a run through the HTTP API that stores them.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDrivers } from '../../src/platforms/registry.ts';
import { MAX_CONTINUATIONS } from '../../src/platforms/claude.ts';
import { PlatformError, type ApiPlatform as PlatformName, type ProbeAnswer, type ProbeRequest } from '../../src/platforms/types.ts';
import { analyzeAnswer } from '../../src/core/visibility/analysis.ts';
import { probeRequest, startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';
import { startTestServer } from '../helpers/harness.ts';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const fakes: FakeProvider[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function driverFor(platform: PlatformName, script?: Parameters<typeof startFakeProvider>[1]) {
  const fake = await startFakeProvider(platform, script);
  fakes.push(fake);
  return { fake, driver: createDrivers({ engine: 'live', env: fake.env })[platform] };
}

const analyze = (a: ProbeAnswer, req: ProbeRequest) =>
  analyzeAnswer({ text: a.text, citations: a.citations, targetEntity: req.targetEntity, targetUrl: req.targetUrl, competitors: req.competitors });

test('claude: only results the answer cites are citations; a target Claude only read is not citation_mentioned', async () => {
  const { driver } = await driverFor('claude', [
    {
      answer: {
        text: 'Globex makes the best anvils.',
        citations: [
          { url: 'https://globex.example/', title: 'Globex' },
          { url: 'https://www.acme.example/x', title: 'Acme page' },
        ],
        cited: 1,
      },
    },
  ]);
  const req = probeRequest('claude');
  const answer = await driver.ask(req);
  assert.deepEqual(answer.citations.map((c) => c.url), ['https://globex.example/']);
  const r = analyze(answer, req);
  assert.equal(r.citation_mentioned, false);
  assert.equal(r.brand_mentioned, false);
  // What Claude read stays on record in raw.
  assert.match(JSON.stringify(answer.raw), /www\.acme\.example\/x/);
});

test('claude: narration before the search is not answer text; the answer list keeps its ranks', async () => {
  const { driver } = await driverFor('claude', [
    {
      answer: {
        preamble: "I'll search for the best anvil makers.",
        text: '1. **Globex** – solid value\n2. **Acme Anvils** – the best overall\n3. **Initech** – budget',
        citations: [{ url: 'https://globex.example/', title: 'Globex' }],
      },
    },
  ]);
  const req = probeRequest('claude');
  const answer = await driver.ask(req);
  assert.equal(answer.text, '1. **Globex** – solid value\n2. **Acme Anvils** – the best overall\n3. **Initech** – budget');
  assert.equal(analyze(answer, req).list_rank, 2);
});

test('claude: answer blocks split at citations join without separators; cited text before a later search is kept', async () => {
  const block = (text: string, url?: string) => ({
    type: 'text',
    text,
    ...(url ? { citations: [{ type: 'web_search_result_location', url, title: 'T', cited_text: 'x', encrypted_index: 'y' }] } : {}),
  });
  const search = (n: number, url: string) => [
    { type: 'server_tool_use', id: `srvtoolu_${n}`, name: 'web_search', input: { query: 'anvils' } },
    {
      type: 'web_search_tool_result',
      tool_use_id: `srvtoolu_${n}`,
      content: [{ type: 'web_search_result', url, title: 'T', encrypted_content: 'e', page_age: null }],
    },
  ];
  const body = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    stop_reason: 'end_turn',
    stop_sequence: null,
    content: [
      block("I'll look up Acme Anvils first."),
      ...search(1, 'https://globex.example/'),
      block('Globex', 'https://globex.example/'),
      block(' leads the market.'),
      ...search(2, 'https://initech.example/'),
      block('Initech is '),
      block('a budget option', 'https://initech.example/'),
      block('.'),
    ],
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  const { driver } = await driverFor('claude', [{ body }]);
  const req = probeRequest('claude');
  const answer = await driver.ask(req);
  assert.equal(answer.text, 'Globex leads the market.\n\nInitech is a budget option.');
  assert.deepEqual(answer.citations.map((c) => c.url), ['https://globex.example/', 'https://initech.example/']);
  assert.equal(analyze(answer, req).brand_mentioned, false, 'the narration naming Acme Anvils is not the answer');
});

test('claude: a paused turn (pause_turn) is sent back as-is and continued; the answer is the finished turn', async () => {
  const { fake, driver } = await driverFor('claude', [
    {
      answer: {
        preamble: "I'll search for Acme Anvils.",
        paused: true,
        citations: [{ url: 'https://acme.example/anvils', title: 'Acme' }],
      },
    },
    { answer: { text: 'Globex is the best anvil maker.', citations: [{ url: 'https://globex.example/', title: 'Globex' }] } },
  ]);
  const req = probeRequest('claude');
  const answer = await driver.ask(req);
  assert.equal(fake.requests.length, 2);
  const [first, second] = fake.requests;
  const messages = second!.body.messages;
  assert.deepEqual(messages[0], first!.body.messages[0], 'the same user message');
  assert.equal(messages.length, 2);
  assert.equal(messages[1].role, 'assistant');
  assert.deepEqual(
    messages[1].content.map((b: { type: string }) => b.type),
    ['text', 'server_tool_use', 'web_search_tool_result'],
    'the paused content goes back as the assistant turn so far',
  );
  assert.equal(messages[1].content[2].content[0].encrypted_content, 'EqgfCioIARgBIiQ3');
  assert.deepEqual(second!.body.tools, first!.body.tools);
  assert.equal(answer.text, 'Globex is the best anvil maker.');
  assert.deepEqual(answer.citations.map((c) => c.url), ['https://globex.example/']);
  const r = analyze(answer, req);
  assert.equal(r.brand_mentioned, false, 'neither the narration nor the paused search results count');
  assert.deepEqual(answer.usage, { input_tokens: 100, output_tokens: 50 }, 'both requests are counted');
  assert.equal((answer.raw as { pause_turn_continuations: number }).pause_turn_continuations, 1);
});

test('claude: a turn still paused after the bounded continuations fails retryably (provider_incomplete)', async () => {
  const paused = { answer: { preamble: 'Searching.', paused: true, citations: [{ url: 'https://acme.example/', title: 'Acme' }] } };
  const { fake, driver } = await driverFor('claude', () => paused);
  await assert.rejects(driver.ask(probeRequest('claude')), (err: unknown) => {
    assert.ok(err instanceof PlatformError);
    assert.equal(err.code, 'provider_incomplete');
    assert.equal(err.retryable, true);
    return true;
  });
  assert.equal(fake.requests.length, MAX_CONTINUATIONS + 1);
});

test('perplexity sonar-reasoning: the <think> block is not the answer; raw keeps it', async () => {
  const { driver } = await driverFor('perplexity', [
    {
      answer: {
        reasoning: 'The results list Acme Anvils, Globex and others. Acme Anvils looks weak; I will recommend Globex.',
        text: '1. **Globex** is the best anvil maker [1].',
        citations: [{ url: 'https://globex.example/', title: 'Globex' }],
      },
    },
  ]);
  const req = probeRequest('perplexity', { modelId: 'sonar-reasoning', providerModel: 'sonar-reasoning' });
  const answer = await driver.ask(req);
  assert.equal(answer.text, '1. **Globex** is the best anvil maker [1].');
  assert.doesNotMatch(answer.text, /<think>|Acme/);
  const r = analyze(answer, req);
  assert.equal(r.text_mentioned, false);
  assert.equal(r.brand_mentioned, false);
  assert.deepEqual(r.competitors, ['Globex']);
  assert.match(JSON.stringify(answer.raw), /<think>\\nThe results list Acme Anvils/);
});

test('perplexity: a reply cut off inside <think> has no answer: provider_malformed_response, not retried', async () => {
  const { driver } = await driverFor('perplexity', [{ answer: { reasoning: 'Acme Anvils is the best, let me check', reasoningUnclosed: true } }]);
  await assert.rejects(driver.ask(probeRequest('perplexity', { providerModel: 'sonar-reasoning' })), (err: unknown) => {
    assert.ok(err instanceof PlatformError);
    assert.equal(err.code, 'provider_malformed_response');
    assert.equal(err.retryable, false);
    return true;
  });
});

test('openai: citations differing only by utm_*, a text fragment or www. are one entry (first title kept)', async () => {
  const { driver } = await driverFor('openai', [
    {
      answer: {
        citations: [
          { url: 'https://www.acme.example/anvils?utm_source=openai', title: 'Acme' },
          { url: 'https://acme.example/anvils?utm_source=openai', title: 'Acme again' },
          { url: 'https://www.acme.example/anvils#:~:text=best%20anvils', title: 'Acme highlighted' },
          { url: 'https://globex.example/?utm_source=openai', title: 'Globex' },
        ],
      },
    },
  ]);
  const answer = await driver.ask(probeRequest('openai'));
  assert.deepEqual(
    answer.citations.map((c) => [c.url, c.title, c.domain]),
    [
      ['https://www.acme.example/anvils', 'Acme', 'acme.example'],
      ['https://globex.example/', 'Globex', 'globex.example'],
    ],
  );
});

test('through the HTTP API: the stored answer has no <think>; a Claude turn that never finishes releases its credits', async () => {
  const perplexity = await startFakeProvider('perplexity', () => ({
    answer: { reasoning: 'Acme Anvils is on the list but I prefer Globex.', text: 'Globex is the best anvil maker.' },
  }));
  const claude = await startFakeProvider('claude', () => ({ answer: { preamble: 'Searching.', paused: true } }));
  fakes.push(perplexity, claude);
  const s = await startTestServer({ SIGHTLINE_PLATFORM_ENGINE: 'live', SIGHTLINE_PROBE_MAX_ATTEMPTS: '2', ...perplexity.env, ...claude.env });
  try {
    const { key } = await s.account({ credits: 20 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: {
        url: 'https://acme.example/',
        target_entity: 'Acme Anvils',
        prompts: ['best anvil makers'],
        platforms: ['perplexity', 'claude'],
        models: { perplexity: 'prior' },
        competitors: ['Globex'],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const run = await s.waitForRun(key, res.json().run_id);
    const full = (await s.request('GET', `/v1/visibility/runs/${run.run_id}?include_results=true`, { key })).json();
    const p = full.probes.find((x: { platform: string }) => x.platform === 'perplexity');
    const c = full.probes.find((x: { platform: string }) => x.platform === 'claude');
    assert.equal(p.status, 'succeeded');
    assert.equal(p.model, 'sonar-reasoning');
    assert.equal(p.answer, 'Globex is the best anvil maker.');
    assert.equal(p.brand_mentioned, false);
    assert.equal(c.status, 'errored');
    assert.equal(c.error.code, 'provider_incomplete');
    assert.equal(c.credits.released, '4.00');
    assert.equal(claude.requests.length, 2 * (MAX_CONTINUATIONS + 1), 'retried as a retryable failure');
  } finally {
    await s.close();
  }
});

test('claude answerOf: a turn with no text after its last search keeps everything it said', async () => {
  const { answerOf } = await import('../../src/platforms/claude.ts');
  const out = answerOf([
    { type: 'text', text: 'Acme Anvils and Globex both make anvils.' },
    { type: 'server_tool_use' },
    { type: 'web_search_tool_result', content: [] },
  ]);
  assert.equal(out.text, 'Acme Anvils and Globex both make anvils.');
  assert.deepEqual(out.citations, []);
});

test('openai: a status "failed" reply is classified by its error code (server_error retryable, invalid_prompt not)', async () => {
  // The API reference's ResponseError is {code, message}; some replies also carry a type.
  const failed = (code: string, withType = false) => ({
    body: {
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'failed',
      error: { code, message: `The response failed: ${code}.`, ...(withType ? { type: 'server_error' } : {}) },
      incomplete_details: null,
      model: 'gpt-5-mini',
      output: [],
      usage: null,
    },
  });
  const { driver } = await driverFor('openai', [
    failed('server_error'),
    failed('server_error', true),
    failed('rate_limit_exceeded'),
    failed('invalid_prompt', true),
  ]);
  const outcomes: Array<[string, boolean]> = [];
  for (let i = 0; i < 4; i++) {
    await driver.ask(probeRequest('openai')).then(
      () => assert.fail('a failed response must not succeed'),
      (err: unknown) => {
        assert.ok(err instanceof PlatformError);
        outcomes.push([err.code, err.retryable]);
      },
    );
  }
  assert.deepEqual(outcomes, [
    ['provider_unavailable', true],
    ['provider_unavailable', true],
    ['provider_rate_limited', true],
    ['provider_bad_request', false],
  ]);
});
