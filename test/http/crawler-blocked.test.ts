// `crawler.blocked` end to end through the real server and database: a site on 127.0.0.1 (an
// allow-listed host:port domain) serving robots.txt, a webhook receiver, and access log uploads
// in which OAI-SearchBot, ChatGPT-User and GPTBot are answered 403. One event for the search
// crawler refused on a path robots.txt allows; none for the path robots.txt disallows, none for
// the training crawler; none again on a re-upload or a later check of the same day; none when
// robots.txt cannot be fetched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.ts';
import { IP, render, UA, type LogEvent } from '../helpers/access-logs.ts';
import { describeEvent } from '../../src/core/webhooks/slack.ts';

const ROBOTS = ['User-agent: OAI-SearchBot', 'User-agent: ChatGPT-User', 'Disallow: /private', '', 'User-agent: *', 'Allow: /', ''].join('\n');

describe('crawler.blocked from site logs', () => {
  let s: TestServer;
  let rx: Receiver;
  let site: FixtureServer;
  before(async () => {
    rx = await startReceiver();
    site = await startFixtureServer({ '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: ROBOTS } });
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: '127.0.0.1' });
  });
  after(async () => {
    await s.close();
    await rx.close();
    await site.close();
  });

  const now = Date.now();
  const line = (ip: string, path: string, status: number, ua: string, minutesAgo: number) =>
    render.combined({ ip, time: now - minutesAgo * 60_000, method: 'GET', host: '', path, status, ua } satisfies LogEvent);
  const upload = async (key: string, siteId: string, lines: string[]) => {
    const res = await s.request('POST', `/v1/sites/${siteId}/logs?format=combined`, { key, body: lines.join('\n') + '\n', headers: { 'content-type': 'text/plain' } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const db = () => s.runtime.core.store.db;
  /** Waits until no crawler.blocked check of the site is queued or running. */
  const checksDone = (siteId: string) =>
    until(async () => {
      const open = await db().selectFrom('jobs').select('id').where('kind', '=', 'site.crawler_blocked').where('ref_id', '=', siteId).where('status', 'in', ['queued', 'running']).execute();
      return open.length === 0;
    });
  const eventsOf = async (accountId: string) =>
    db().selectFrom('webhook_events').select(['type', 'dedupe_key', 'data']).where('account_id', '=', accountId).where('type', '=', 'crawler.blocked').execute();

  test('one event for the search crawler refused on an allowed path; none for a disallowed path or a training crawler; none again', async () => {
    const { key, accountId } = await s.account();
    const wh = (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/blocked'), events: ['crawler.blocked'] } })).json();
    const created = await s.request('POST', '/v1/sites', { key, body: { domain: `127.0.0.1:${site.port}` } });
    assert.equal(created.statusCode, 200, created.body);
    const siteId = created.json().id;
    assert.equal(created.json().domain, `127.0.0.1:${site.port}`);

    const lines = [
      line(IP.searchbot, '/docs', 403, UA.searchbot, 30), // allowed by robots.txt, refused: the finding
      line(IP.searchbot, '/docs', 403, UA.searchbot, 20),
      line(IP.searchbot, '/pricing', 200, UA.searchbot, 25), // answered: nothing to say
      line(IP.chatgptUser, '/private/report', 403, UA.chatgptUser, 15), // robots.txt disallows it: the owner's choice
      line(IP.gptbot, '/docs', 403, UA.gptbot, 10), // training crawler: blocking it is a choice
    ];
    const first = await upload(key, siteId, lines);
    assert.equal(first.ai_crawler_hits, 5);

    const [got] = await rx.waitFor(1, (r) => r.path === '/blocked');
    const body = new Webhook(wh.secret).verify(got!.body, got!.headers as Record<string, string>) as any;
    assert.equal(body.type, 'crawler.blocked');
    assert.deepEqual(
      { ...body.data, from: undefined, to: undefined },
      { site_id: siteId, crawler: 'OAI-SearchBot', vendor: 'OpenAI', role: 'search', path: '/docs', blocked_hits: 2, hits: 2, from: undefined, to: undefined },
    );
    assert.ok(Date.parse(body.data.from) < Date.parse(body.data.to));
    assert.equal(site.hits('/robots.txt'), 1);
    // Slack and e-mail alerts say it in words.
    assert.equal(describeEvent('crawler.blocked', body.data).title, 'OAI-SearchBot is refused on /docs');
    await checksDone(siteId);

    // The same lines again: duplicates, nothing new. A new refusal the same UTC day: the check
    // runs again and finds the event already recorded (the dedupe key names the day of the last refusal).
    const again = await upload(key, siteId, lines);
    assert.equal(again.duplicates, 5);
    await upload(key, siteId, [line(IP.searchbot, '/docs', 403, UA.searchbot, 21)]);
    await checksDone(siteId);
    await new Promise((r) => setTimeout(r, 300));
    const events = await eventsOf(accountId);
    assert.equal(events.length, 1);
    assert.equal(rx.received.filter((r) => r.path === '/blocked').length, 1);
    const done = await db().selectFrom('jobs').select(['status']).where('kind', '=', 'site.crawler_blocked').where('ref_id', '=', siteId).execute();
    assert.deepEqual(done.map((j) => j.status), ['done', 'done']); // the duplicate upload queued no check
  });

  test('robots.txt that cannot be fetched: access unknown, no event', async () => {
    const { key, accountId } = await s.account();
    await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/unknown'), events: ['*'] } });
    const gone = await startFixtureServer();
    const port = gone.port;
    await gone.close(); // nothing listens there any more: connection refused
    const siteId = (await s.request('POST', '/v1/sites', { key, body: { domain: `127.0.0.1:${port}` } })).json().id;
    await upload(key, siteId, [line(IP.searchbot, '/docs', 403, UA.searchbot, 5)]);
    await checksDone(siteId);
    assert.equal((await eventsOf(accountId)).length, 0);
    assert.equal(rx.received.filter((r) => r.path === '/unknown').length, 0);
  });

  test('a host:port domain only when SIGHTLINE_FETCH_ALLOW names it', async () => {
    const { key } = await s.account();
    const res = await s.request('POST', '/v1/sites', { key, body: { domain: 'intranet.example:8080' } });
    // Not allow-listed: read as a host name (the port dropped), as before.
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().domain, 'intranet.example');
  });
});
