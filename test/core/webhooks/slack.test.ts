// The Slack destination: each event becomes a Block Kit message, checked here against the shape
// Slack documents for incoming webhooks and blocks, and sent to a local receiver standing in for
// hooks.slack.com.
// Sources (Slack's Block Kit reference, docs.slack.dev/reference/block-kit/blocks/…):
//   section-block: text is a text object of 1..3000 characters, or `fields`, at most 10 text
//   objects of at most 2000 characters each; header-block: a plain_text object of at most 150
//   characters; context-block: at most 10 elements; a message holds at most 50 blocks; text
//   objects are {type: "plain_text" | "mrkdwn", text}; mrkdwn links are written <url|label>.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { slackMessage } from '../../../src/core/webhooks/slack.ts';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.ts';

type Text = { type: string; text: string; emoji?: boolean };

/** Throws unless `msg` has the documented shape of a Block Kit message. */
function assertBlockKit(msg: any): void {
  assert.equal(typeof msg.text, 'string', 'top-level text: the notification fallback');
  assert.doesNotMatch(msg.text, /[<>]/, 'the fallback is mrkdwn as well: < and > escaped, no mention or link of its own');
  assert.ok(Array.isArray(msg.blocks) && msg.blocks.length >= 1 && msg.blocks.length <= 50, 'blocks: 1..50');
  const textObject = (t: Text, max: number, kinds = ['plain_text', 'mrkdwn']) => {
    assert.ok(kinds.includes(t.type), `text object type ${t.type}`);
    assert.equal(typeof t.text, 'string');
    assert.ok(t.text.length >= 1 && t.text.length <= max, `text length ${t.text.length} ≤ ${max}`);
    if (t.type === 'mrkdwn') assert.doesNotMatch(t.text.replace(/<(https?:\/\/[^|>\s]+)\|[^>]+>/g, ''), /[<>]/, 'raw < or > outside links must be escaped');
  };
  for (const b of msg.blocks) {
    switch (b.type) {
      case 'header':
        textObject(b.text, 150, ['plain_text']);
        break;
      case 'section':
        assert.ok(b.text || b.fields, 'a section has text or fields');
        if (b.text) textObject(b.text, 3000);
        if (b.fields) {
          assert.ok(b.fields.length <= 10);
          for (const f of b.fields) textObject(f, 2000);
        }
        break;
      case 'context':
        assert.ok(b.elements.length >= 1 && b.elements.length <= 10);
        for (const e of b.elements) textObject(e, 3000);
        break;
      case 'divider':
        break;
      default:
        assert.fail(`unexpected block type ${b.type}`);
    }
  }
}

describe('Slack messages', () => {
  test('tracked_test.changed says what changed, by how much, and links to the test in the console', () => {
    const msg = slackMessage(
      'tracked_test.changed',
      {
        test_id: 'test_1',
        name: 'Acme <pricing> & more',
        previous: { mention_rate: 0.8 },
        latest: { mention_rate: 0.35 },
        change: -0.45,
        direction: 'down',
        size: 0.45,
        interval: { low: 0.2, high: 0.5 },
        competitors_moved: [{ name: 'Globex', change: 0.3 }],
      },
      'https://sightline.example.com/',
    );
    assertBlockKit(msg);
    const all = JSON.stringify(msg);
    assert.match((msg.blocks[0] as any).text.text, /fell/);
    assert.match(all, /80\.0%.*35\.0%/);
    assert.match(all, /-45\.0 points/);
    assert.match(all, /Globex \+30\.0 points/);
    assert.match(all, /<https:\/\/sightline\.example\.com\/console\/tests\/test_1\|Open in sightline>/);
    assert.match(all, /Acme &lt;pricing&gt; &amp; more|Acme <pricing> & more/); // header is plain_text; mrkdwn parts escaped
  });

  test('every event type makes a valid message, long values cut to the limits', () => {
    const long = 'x'.repeat(5000);
    for (const [type, data] of [
      ['run.completed', { run_id: 'vis_1', status: 'completed', target_entity: long, url: 'https://a.example', summary: { mention_rate: 0.5, visibility_band: 'Good' }, probe_count: 4, probe_counts: { succeeded: 4 } }],
      ['run.completed', { run_id: 'ci_1', status: 'failed', url: long, overall_score: null }],
      ['tracked_test.skipped', { test_id: 'test_2', slot: '2026-11-27T06:00:00Z', reason: 'budget_exceeded', message: long }],
      ['credits.low', { available_credits: '3.00', threshold: '10.00' }],
      ['crawler.blocked', { site_id: 'site_1' }],
    ] as const) {
      assertBlockKit(slackMessage(type, data, 'http://localhost:8080'));
    }
  });
});

describe('Slack destination end to end', () => {
  let s: TestServer;
  let rx: Receiver;
  before(async () => {
    rx = await startReceiver();
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_PUBLIC_URL: 'https://sightline.example.com' });
  });
  after(async () => {
    await s.close();
    await rx.close();
  });

  test('a run.completed event posted to a slack endpoint is a Block Kit message linking to the run', async () => {
    const { key } = await s.account({ credits: 10 });
    const wh = (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/services/T000/B000/XXX'), events: ['run.completed'], format: 'slack' } })).json();
    assert.equal(wh.format, 'slack');
    assert.equal(wh.secret, null, 'a Slack channel checks no signature: no secret is shown');
    // A name with Slack's control characters: a mention of the whole channel and a link of its own.
    const brand = 'Acme <!channel> <https://evil.example|Reset your password>';
    const run = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.example', target_entity: brand, prompts: ['crm'], platforms: ['deepseek'] } })).json();
    await s.waitForRun(key, run.run_id);
    const [hit] = await rx.waitFor(1, (r) => r.path.startsWith('/services/'));
    assert.equal(hit!.headers['content-type'], 'application/json');
    const msg = JSON.parse(hit!.body);
    assertBlockKit(msg);
    assert.match(JSON.stringify(msg), new RegExp(`https://sightline\\.example\\.com/console/runs/${run.run_id}\\|Open in sightline`));
    assert.equal(msg.text, 'Run completed: Acme &lt;!channel&gt; &lt;https://evil.example|Reset your password&gt;');
    assert.equal(msg.blocks[0].text.type, 'plain_text', 'the header shows the name as it is: plain text is not parsed');
  });
});
