// The weekly digest through the real server, database and worker, mailed to a local SMTP sink:
// which week is due when, one claim per account and week however many processes tick, the mail's
// numbers against the project dashboard, site highlights from uploaded logs, and who gets it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, nowIso } from '../../../src/lib/ids.ts';
import { claimDigests, dueDigestWeek } from '../../../src/core/webhooks/digest.ts';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { until } from '../../helpers/webhook-receiver.ts';

const DAY = 86_400_000;

/** The whole mail with quoted-printable undone (soft breaks and =XX bytes, read as UTF-8). */
const decoded = (mail: { data: string }) =>
  Buffer.from(mail.data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))), 'latin1').toString('utf8');

describe('dueDigestWeek', () => {
  test('from Monday 08:00 UTC the week that ended at Monday 00:00 is due; before it, the week before', () => {
    const at = (iso: string) => dueDigestWeek(new Date(iso));
    assert.deepEqual({ ...at('2026-11-30T08:00:00Z'), from: undefined, to: undefined, dueAt: undefined }, { week: '2026-11-23', from: undefined, to: undefined, dueAt: undefined });
    assert.equal(at('2026-11-30T08:00:00Z').to.toISOString(), '2026-11-30T00:00:00.000Z');
    assert.equal(at('2026-11-30T07:59:59Z').week, '2026-11-16');
    assert.equal(at('2026-12-06T23:59:59Z').week, '2026-11-23');
    assert.equal(at('2026-12-07T08:00:00Z').dueAt.toISOString(), '2026-12-07T08:00:00.000Z');
  });
});

describe('weekly digest e-mail', () => {
  let s: TestServer;
  let smtp: SmtpSink;
  before(async () => {
    smtp = await startSmtpSink();
    s = await startTestServer({
      SIGHTLINE_SCHEDULER_INTERVAL_MS: '0',
      SIGHTLINE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SIGHTLINE_PUBLIC_URL: 'https://sightline.example.com',
    });
  });
  after(async () => {
    await s.close();
    await smtp.close();
  });

  async function userOf(accountId: string, email: string) {
    await s.runtime.core.store.db
      .insertInto('users')
      .values({ id: newId('usr'), account_id: accountId, email, password_hash: null, role: 'member', created_at: nowIso(), password_changed_at: null })
      .execute();
  }

  test('one digest per subscribed user and week: the brand rate, prompts and site highlights, in text and HTML', async () => {
    const { key, accountId } = await s.account({ credits: 500 });
    await userOf(accountId, 'cmo@example.com');
    await userOf(accountId, 'analyst@example.com');
    const project = (
      await s.request('POST', '/v1/projects', {
        key,
        body: {
          name: 'Acme <weekly>',
          url: 'https://acme-crm.example/',
          brand: { name: 'Acme CRM', domains: ['acme-crm.example'] },
          competitors: [{ name: 'HubSpot' }],
          markets: [{ language: 'en', country: 'US' }],
          platforms: ['deepseek', 'openai'],
          repeats: 2,
          prompts: [{ prompt: 'best crm for agencies', topics: ['agencies'] }, { prompt: 'crm with email sync' }],
        },
      })
    ).json();
    assert.match(project.id, /^proj_/);
    const started = (await s.request('POST', `/v1/projects/${project.id}/runs`, { key, body: {} })).json();
    for (const r of started.runs) await s.waitForRun(key, r.run_id, 60_000);

    // A site with a refused GPTBot and a ChatGPT referral this week.
    const site = (await s.request('POST', '/v1/sites', { key, body: { domain: 'acme-crm.example' } })).json();
    const stamp = new Date().toUTCString().replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
    const lines = [
      `203.0.113.9 - - [${stamp}] "GET /pricing HTTP/1.1" 403 120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"`,
      `198.51.100.4 - - [${stamp}] "GET /features HTTP/1.1" 200 5120 "https://chatgpt.com/" "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15"`,
    ].join('\n');
    const up = await s.request('POST', `/v1/sites/${site.id}/logs`, { key, body: `${lines}\n`, headers: { 'content-type': 'text/plain' } });
    assert.equal(up.statusCode, 200, up.body);
    assert.equal(up.json().ai_crawler_hits, 1);
    assert.equal(up.json().ai_referral_visits, 1);
    // A second site of the account, read in the same statements: its numbers stay its own.
    const blog = (await s.request('POST', '/v1/sites', { key, body: { domain: 'blog.acme-crm.example' } })).json();
    const blogLines = [1, 2].map((i) => `203.0.113.${20 + i} - - [${stamp}] "GET /post-${i} HTTP/1.1" 200 900 "-" "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"`).join('\n');
    const blogUp = await s.request('POST', `/v1/sites/${blog.id}/logs`, { key, body: `${blogLines}\n`, headers: { 'content-type': 'text/plain' } });
    assert.equal(blogUp.json().ai_crawler_hits, 2, blogUp.body);

    // The analyst chooses the digest; the CMO only run alerts.
    const set = await s.request('PATCH', '/v1/notification-settings', {
      key,
      body: { email_alerts: [{ email: 'analyst@example.com', events: ['digest.weekly'] }, { email: 'cmo@example.com', events: ['credits.low'] }] },
    });
    assert.equal(set.statusCode, 200, set.body);

    // The Monday 09:00 UTC after this week: the week holding the runs is due.
    const now = new Date();
    const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ((now.getUTCDay() + 6) % 7) * DAY;
    const claimAt = new Date(monday + 7 * DAY + 9 * 3_600_000);
    const store = s.runtime.core.store;
    // Several processes ticking at once: one claim queues the mail, the others none.
    const claims = await Promise.all([claimDigests(store, claimAt), claimDigests(store, claimAt), claimDigests(store, claimAt)]);
    assert.deepEqual(
      claims.sort((a, b) => b - a),
      [1, 0, 0],
    );
    assert.equal(await claimDigests(store, new Date(claimAt.getTime() + 3_600_000)), 0, 'claimed once per week');
    // Outside the day after the due time nothing is claimed (a later week's digest is not due yet).
    assert.equal(await claimDigests(store, new Date(claimAt.getTime() + 2 * DAY)), 0);
    s.runtime.core.notifyWork();

    const to = (email: string) => smtp.mails.filter((m) => m.to.some((r) => r.includes(`<${email}>`)));
    const mail = await until(async () => to('analyst@example.com')[0], 20_000);
    const week = dueDigestWeek(claimAt).week;
    assert.match(mail.data, new RegExp(`^Subject: \\[sightline\\] Your week in AI answers, ${week}`, 'm'));
    const text = decoded(mail);
    const dashboard = (await s.request('GET', `/v1/projects/${project.id}/dashboard?days=14&window=7d`, { key })).json();
    const latest = dashboard.series.at(-1);
    const n = latest.brand.n;
    assert.equal(n, 8, '2 prompts × 2 platforms × 2 repeats');
    assert.ok(text.includes(`Monday ${week} to Sunday `), text);
    assert.ok(text.includes(`== Acme <weekly>`), text);
    assert.ok(text.includes(`Acme CRM was named in ${Math.round(latest.brand.mention_rate * 100)}% of ${n} answers`), text);
    assert.ok(text.includes('thin evidence'), 'fewer than 10 answers is thin');
    assert.ok(text.includes(`https://sightline.example.com/console/projects/${project.id}`));
    assert.ok(text.includes('acme-crm.example: 1 AI crawler requests (1 refused), 1 visits from AI assistants.'), text);
    assert.ok(text.includes('GPTBot: 1 requests, 1 refused'));
    assert.ok(text.includes('blog.acme-crm.example: 2 AI crawler requests (0 refused), 0 visits from AI assistants.'), text);
    assert.match(mail.data, /Content-Type: text\/html/);
    assert.ok(text.includes('>Acme &lt;weekly&gt;</h2>'), 'names are escaped in HTML');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(to('cmo@example.com').length, 0, 'the CMO did not choose the digest');
    assert.equal(to('analyst@example.com').length, 1);
  });
});
