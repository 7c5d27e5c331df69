// Alert e-mail through the server's nodemailer transport, captured by a local SMTP sink
// (smtp-server on 127.0.0.1): each console user's choice of events, the mail's text and HTML
// parts, and the mail to an account's users when a failing endpoint is disabled.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { newId, nowIso } from '../../../src/lib/ids.ts';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { startReceiver, until, type Receiver } from '../../helpers/webhook-receiver.ts';

interface Captured {
  to: string[];
  raw: string;
}

/** A MIME part's body by its content type, quoted-printable decoded (what nodemailer writes). */
function part(raw: string, type: string): string {
  const at = raw.indexOf(`Content-Type: ${type}`);
  assert.ok(at >= 0, `a ${type} part`);
  const start = raw.indexOf('\r\n\r\n', at) + 4;
  const end = raw.indexOf('\r\n--', start);
  const body = raw.slice(start, end);
  const qp = /Content-Transfer-Encoding: quoted-printable/i.test(raw.slice(at, start));
  return qp ? Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8') : body;
}

describe('alert e-mail', () => {
  let s: TestServer;
  let rx: Receiver;
  let smtp: SMTPServer;
  const mails: Captured[] = [];
  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    rx = await startReceiver();
    s = await startTestServer({
      SIGHTLINE_SCHEDULER_INTERVAL_MS: '0',
      SIGHTLINE_FETCH_ALLOW: '127.0.0.1',
      SIGHTLINE_SMTP_URL: `smtp://127.0.0.1:${port}`,
      SIGHTLINE_PUBLIC_URL: 'https://sightline.example.com',
      SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms',
      SIGHTLINE_WEBHOOK_DISABLE_AFTER_MS: '300',
    });
  });
  after(async () => {
    await s.close();
    await rx.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  async function userOf(accountId: string, email: string) {
    await s.runtime.core.store.db
      .insertInto('users')
      .values({ id: newId('usr'), account_id: accountId, email, password_hash: null, role: 'member', created_at: nowIso(), password_changed_at: null })
      .execute();
  }

  test('each user gets the events they chose, as text and HTML with a link to the console page', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    await userOf(accountId, 'ana@example.com');
    await userOf(accountId, 'bo@example.com');
    const set = await s.request('PATCH', '/v1/notification-settings', { key, body: { email_alerts: [{ email: 'ana@example.com', events: ['run.completed'] }, { email: 'bo@example.com', events: ['credits.low'] }] } });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json().email_alerts, [
      { email: 'ana@example.com', events: ['run.completed'] },
      { email: 'bo@example.com', events: ['credits.low'] },
    ]);
    const stranger = await s.request('PATCH', '/v1/notification-settings', { key, body: { email_alerts: [{ email: 'eve@example.com', events: ['*'] }] } });
    assert.equal(stranger.statusCode, 400);
    assert.equal(stranger.json().detail.error, 'invalid_request');
    const run = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.example', target_entity: 'Acme & Co', prompts: ['crm'], platforms: ['deepseek'] } })).json();
    await s.waitForRun(key, run.run_id);
    const mail = await until(async () => mails.find((m) => m.raw.includes(run.run_id)));
    assert.deepEqual(mail.to, ['ana@example.com']);
    assert.match(mail.raw, /^Subject: \[sightline\] Run completed: Acme & Co/m);
    const text = part(mail.raw, 'text/plain');
    assert.match(text, /Visibility run for Acme & Co \(https:\/\/acme\.example\) ended completed/);
    assert.match(text, new RegExp(`Open in sightline: https://sightline\\.example\\.com/console/runs/${run.run_id}`));
    const html = part(mail.raw, 'text/html');
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /<strong>Acme &amp; Co<\/strong>/);
    assert.match(html, new RegExp(`href="https://sightline\\.example\\.com/console/runs/${run.run_id}"`));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mails.filter((m) => m.to.includes('bo@example.com')).length, 0, 'bo chose credits.low only');
  });

  test("a disabled endpoint is mailed to the account's users", async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    await userOf(accountId, 'ops@example.com');
    rx.answer = () => ({ status: 500 });
    const wh = (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/down'), events: ['run.completed'] } })).json();
    const run = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['crm'], platforms: ['deepseek'] } })).json();
    await s.waitForRun(key, run.run_id);
    const mail = await until(async () => mails.find((m) => m.to.includes('ops@example.com')));
    assert.match(mail.raw, /^Subject: A sightline webhook endpoint was disabled/m);
    assert.ok(part(mail.raw, 'text/plain').includes(wh.id) || mail.raw.includes(wh.id));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mails.filter((m) => m.to.includes('ops@example.com')).length, 1);
  });
});
