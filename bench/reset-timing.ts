// Times POST /console/api/password/forgot for an email that has a user and one that has none,
// with mail going to a loopback SMTP server that holds its greeting and DATA answer 700 ms each
// (a slow mail server). Run: node --import tsx bench/reset-timing.ts [rounds]
import { startTestServer } from '../test/helpers/harness.ts';
import { startSmtpSink } from '../test/helpers/smtp-sink.ts';
import { createOwner } from '../src/core/accounts/users.ts';

const rounds = Number(process.argv[2] ?? 20);
const sink = await startSmtpSink({ delayMs: 700 });
const s = await startTestServer({ SIGHTLINE_SMTP_URL: `smtp://127.0.0.1:${sink.port}?ignoreTLS=true`, SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '100000' }, { worker: false });
await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
const first = await s.request('GET', '/console/api/session');
const headers = { cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token };
const times: Record<string, number[]> = { existing: [], unknown: [] };
for (let i = 0; i < rounds; i++) {
  // Alternating which goes first: each request runs beside the previous one's mail task.
  const pair = [['existing', 'owner@example.com'], ['unknown', `nobody${i}@example.com`]] as const;
  for (const [kind, email] of i % 2 ? [...pair].reverse() : pair) {
    const t = performance.now();
    await s.request('POST', '/console/api/password/forgot', { body: { email }, headers });
    times[kind]!.push(performance.now() - t);
  }
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
for (const [kind, xs] of Object.entries(times)) console.log(`${kind}: p50 ${q(xs, 0.5).toFixed(1)} ms, p90 ${q(xs, 0.9).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} requests)`);
await sink.waitFor(rounds, 120_000);
console.log(`mails delivered afterwards: ${sink.mails.length}`);
await s.close();
await sink.close();
