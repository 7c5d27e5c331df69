// Sites and access logs through the real server and database: every log format with exactly
// known counts (spoofed crawlers, Claude-User vs ClaudeBot, assets vs pages, other hosts,
// garbage lines, duplicates, gzip), the reports read back, and another account's site.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { IP, logText, render, scenario, UA, type Format, type LogEvent } from '../helpers/access-logs.ts';

const CONTENT_TYPE: Record<Format, string> = {
  combined: 'text/plain',
  common: 'text/plain',
  cloudflare: 'application/x-ndjson',
  cloudfront: 'text/plain',
  vercel: 'application/x-ndjson',
};

/** Expected upload summaries, counted by hand from test/helpers/access-logs.ts. */
const EXPECTED: Record<Format, { lines: number; parsed: number; skipped: number; ai_crawler_hits: number; ai_referral_visits: number }> = {
  combined: { lines: 30, parsed: 28, skipped: 2, ai_crawler_hits: 17, ai_referral_visits: 5 },
  // No user agent or Referer in the common format: only the utm_source visit is seen.
  common: { lines: 30, parsed: 28, skipped: 2, ai_crawler_hits: 0, ai_referral_visits: 1 },
  cloudflare: { lines: 33, parsed: 29, skipped: 4, ai_crawler_hits: 18, ai_referral_visits: 5 },
  cloudfront: { lines: 32, parsed: 28, skipped: 4, ai_crawler_hits: 17, ai_referral_visits: 5 },
  vercel: { lines: 32, parsed: 28, skipped: 4, ai_crawler_hits: 17, ai_referral_visits: 5 },
};

describe('sites: access logs of every format', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startTestServer();
    ({ key } = await s.account());
  });
  after(async () => s.close());

  const newSite = async (domain: string) => {
    const res = await s.request('POST', '/v1/sites', { key, body: { domain } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { id: string; domain: string };
  };
  const upload = (siteId: string, body: string | Buffer, headers: Record<string, string>, format = 'auto') =>
    s.request('POST', `/v1/sites/${siteId}/logs?format=${format}`, { key, body, headers });

  test('create folds the domain and returns the existing site for the same domain', async () => {
    const a = await s.request('POST', '/v1/sites', { key, body: { domain: 'https://WWW.Shop.Example/pricing', name: 'Shop' } });
    assert.equal(a.statusCode, 200);
    assert.equal(a.json().domain, 'shop.example');
    assert.equal(a.json().name, 'Shop');
    assert.match(a.json().id, /^site_/);
    const b = await s.request('POST', '/v1/sites', { key, body: { domain: 'shop.example' } });
    assert.equal(b.json().id, a.json().id);
    const list = (await s.request('GET', '/v1/sites', { key })).json();
    assert.ok(list.sites.some((x: { id: string }) => x.id === a.json().id));
    const bad = await s.request('POST', '/v1/sites', { key, body: { domain: 'not a host' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().detail.error, 'invalid_request');
  });

  for (const format of Object.keys(EXPECTED) as Format[]) {
    test(`${format}: exact counts, then the same lines again count once`, async () => {
      const site = await newSite(`${format}.example`);
      const { body } = logText(format, site.domain);
      const first = await upload(site.id, body, { 'content-type': CONTENT_TYPE[format] });
      assert.equal(first.statusCode, 200, first.body);
      const sum = first.json();
      assert.equal(sum.format, format);
      assert.deepEqual(
        { lines: sum.lines, parsed: sum.parsed, skipped: sum.skipped, ai_crawler_hits: sum.ai_crawler_hits, ai_referral_visits: sum.ai_referral_visits, duplicates: sum.duplicates },
        { ...EXPECTED[format], duplicates: 0 },
      );
      assert.ok(sum.from < sum.to);
      // The same file again, gzipped, named explicitly: nothing new, every counted line a duplicate.
      const again = await upload(site.id, gzipSync(body), { 'content-type': 'application/gzip' }, format);
      assert.equal(again.statusCode, 200, again.body);
      const dup = again.json();
      assert.equal(dup.ai_crawler_hits, 0);
      assert.equal(dup.ai_referral_visits, 0);
      assert.equal(dup.duplicates, EXPECTED[format].ai_crawler_hits + EXPECTED[format].ai_referral_visits);
      assert.equal(dup.lines, EXPECTED[format].lines);
    });
  }

  test('lines dated over an hour after the server clock are counted and reported as future_lines', async () => {
    const site = await newSite('skewed.example');
    const now = Date.now();
    const line = (ms: number, path: string) => render.combined({ ip: IP.gptbot, time: ms, method: 'GET', host: site.domain, path, status: 200, ua: UA.gptbot });
    // Past, 20 minutes ahead (clocks drift, logs flush late: not after now), and two a day ahead.
    const body = [line(now - 60_000, '/a'), line(now + 20 * 60_000, '/b'), line(now + 86_400_000, '/c'), line(now + 86_400_000 + 1000, '/d')].join('\n');
    const res = await upload(site.id, body, { 'content-type': 'text/plain' });
    assert.equal(res.statusCode, 200, res.body);
    const sum = res.json();
    assert.equal(sum.ai_crawler_hits, 4, 'every line is counted');
    assert.equal(sum.future_lines, 2);
    const past = (await upload(site.id, line(now - 120_000, '/e'), { 'content-type': 'text/plain' })).json();
    assert.equal(past.future_lines, 0);
  });

  test('combined: the crawler and referral reports', async () => {
    const site = await newSite('reports.example');
    // One clock for the lines sent and the times expected (a second may tick between the two).
    const now = Date.now();
    await upload(site.id, logText('combined', site.domain, now).body, { 'content-type': 'text/plain' });
    const res = await s.request('GET', `/v1/sites/${site.id}/crawlers?days=30`, { key });
    assert.equal(res.statusCode, 200, res.body);
    const report = res.json();
    assert.equal(report.site_id, site.id);
    const byName = Object.fromEntries(report.crawlers.map((c: { name: string }) => [c.name, c]));
    assert.deepEqual(report.crawlers.map((c: { name: string; hits: number }) => [c.name, c.hits]), [
      ['GPTBot', 9], ['ClaudeBot', 3], ['Claude-User', 2], ['OAI-SearchBot', 2], ['PerplexityBot', 1],
    ]);
    const gpt = byName.GPTBot;
    assert.deepEqual(
      { vendor: gpt.vendor, role: gpt.role, verified: gpt.verified_hits, unverified: gpt.unverified_hits, status: gpt.status, blocked: gpt.blocked_hits },
      { vendor: 'OpenAI', role: 'training', verified: 7, unverified: 2, status: { '2xx': 7, '3xx': 0, '4xx': 2, '5xx': 0 }, blocked: 2 },
    );
    assert.deepEqual(gpt.top_paths, [
      { path: '/pricing', hits: 5, blocked_hits: 0 },
      { path: '/docs', hits: 2, blocked_hits: 2 },
      { path: '/blog/a', hits: 1, blocked_hits: 0 },
      { path: '/robots.txt', hits: 1, blocked_hits: 0 },
    ]);
    assert.equal(byName.ClaudeBot.unverified_hits, 3);
    assert.equal(byName.ClaudeBot.verified_hits, 0);
    // Unverified because Anthropic publishes no ranges, which the report says, not because spoofed.
    assert.deepEqual([byName.ClaudeBot.verifiable, byName.ClaudeBot.unverifiable_reason], [false, 'Anthropic publishes no IP ranges for its crawlers.']);
    assert.deepEqual([gpt.verifiable, gpt.unverifiable_reason], [true, null]);
    assert.equal(byName['Claude-User'].role, 'user');
    assert.deepEqual(byName['OAI-SearchBot'].status, { '2xx': 0, '3xx': 1, '4xx': 1, '5xx': 0 });
    assert.equal(byName['OAI-SearchBot'].blocked_hits, 1);
    assert.equal(byName['OAI-SearchBot'].verified_hits, 2);
    assert.deepEqual(byName.PerplexityBot.top_paths, [{ path: '/app.css', hits: 1, blocked_hits: 0 }]);
    const newest = Math.max(...scenario(site.domain, now).events.filter((e) => e.ua.includes('GPTBot/')).map((e) => e.time));
    assert.equal(gpt.last_seen, new Date(Math.floor(newest / 1000) * 1000).toISOString().replace('.000Z', 'Z'));

    // Per UTC day: the days of the scenario's own request times, summing to the totals.
    const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
    const gptDays = new Map<string, number>();
    for (const e of scenario(site.domain, now).events.filter((x) => x.ua.includes('GPTBot/'))) gptDays.set(dayOf(e.time), (gptDays.get(dayOf(e.time)) ?? 0) + 1);
    assert.deepEqual(gpt.daily.map((d: { day: string; hits: number }) => [d.day, d.hits]), [...gptDays].sort());
    assert.equal(gpt.daily.reduce((n: number, d: { blocked_hits: number }) => n + d.blocked_hits, 0), 2);

    const refs = (await s.request('GET', `/v1/sites/${site.id}/referrals`, { key })).json();
    for (const src of refs.sources) assert.equal(src.daily.reduce((n: number, d: { visits: number }) => n + d.visits, 0), src.visits, src.source);
    assert.deepEqual(refs.sources.map(({ daily: _, ...rest }: { daily: unknown }) => rest), [
      { source: 'chatgpt', visits: 3, top_landing_pages: [{ path: '/pricing', visits: 2 }, { path: '/blog/a', visits: 1 }] },
      { source: 'gemini', visits: 1, top_landing_pages: [{ path: '/pricing', visits: 1 }] },
      { source: 'perplexity', visits: 1, top_landing_pages: [{ path: '/pricing', visits: 1 }] },
    ]);
  });

  test('cloudflare: a bot challenge is a blocked hit; other hosts are skipped', async () => {
    const site = await newSite('cf-report.example');
    await upload(site.id, logText('cloudflare', site.domain).body, { 'content-type': 'application/x-ndjson' });
    const report = (await s.request('GET', `/v1/sites/${site.id}/crawlers`, { key })).json();
    const user = report.crawlers.find((c: { name: string }) => c.name === 'ChatGPT-User');
    assert.deepEqual({ hits: user.hits, verified: user.verified_hits, blocked: user.blocked_hits, s5: user.status['5xx'] }, { hits: 1, verified: 1, blocked: 1, s5: 1 });
    assert.equal(report.crawlers.find((c: { name: string }) => c.name === 'GPTBot').hits, 9);
  });

  test('an upload that overlaps an earlier one counts only its new lines; Content-Encoding: gzip works', async () => {
    const site = await newSite('overlap.example');
    const { events } = scenario(site.domain);
    const lines = events.map(render.combined);
    const firstHalf = lines.slice(0, 12).join('\n') + '\n';
    const all = lines.join('\n') + '\n';
    const a = (await upload(site.id, firstHalf, { 'content-type': 'text/plain' })).json();
    const b = (await upload(site.id, gzipSync(all), { 'content-type': 'text/plain', 'content-encoding': 'gzip' })).json();
    assert.equal(a.ai_crawler_hits + b.ai_crawler_hits, 17);
    assert.equal(b.duplicates, a.ai_crawler_hits + a.ai_referral_visits);
    const report = (await s.request('GET', `/v1/sites/${site.id}/crawlers`, { key })).json();
    assert.equal(report.crawlers.reduce((n: number, c: { hits: number }) => n + c.hits, 0), 17);
  });

  test('a log of several batches sent in odd pieces: exact counts across pieces and batches', async () => {
    const site = await newSite('batches.example');
    // 12,000 verified GPTBot hits a second apart (over three hours), every 1,000th line sent twice,
    // every 5th ending in CRLF; 3,000 ChatGPT referral visits; one line of 70 KiB (skipped); and a
    // last GPTBot line without a line end. The reader writes 5,000 counted lines per transaction.
    const t0 = Math.floor((Date.now() - 2 * 86_400_000) / 1000) * 1000;
    const gpt = (i: number): LogEvent => ({ ip: IP.gptbot, time: t0 + i * 1000, method: 'GET', host: site.domain, path: `/p/${i % 7}`, status: 200, ua: UA.gptbot });
    const visit = (i: number): LogEvent => ({ ip: IP.browser, time: t0 + i * 1000 + 500, method: 'GET', host: site.domain, path: '/pricing', status: 200, ua: UA.browser, referer: 'https://chatgpt.com/' });
    let text = '';
    for (let i = 0; i < 12_000; i++) {
      const end = i % 5 === 0 ? '\r\n' : '\n';
      text += render.combined(gpt(i)) + end;
      if (i % 1000 === 999) text += render.combined(gpt(i)) + end;
      if (i % 4 === 0) text += render.combined(visit(i)) + '\n';
      if (i === 6000) text += 'x'.repeat(70 * 1024) + '\n';
    }
    // The first line again, thousands of lines (and two batches) after it.
    text += render.combined(gpt(0)) + '\n';
    text += render.combined(gpt(12_000));
    const bytes = Buffer.from(text);
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 997) pieces.push(bytes.subarray(at, at + 997));
    const expected = { lines: 12_000 + 13 + 3000 + 1 + 1, parsed: 12_000 + 13 + 3000 + 1, skipped: 1, ai_crawler_hits: 12_001, ai_referral_visits: 3000, duplicates: 13 };

    const res = await upload(site.id, Readable.from(pieces) as unknown as Buffer, { 'content-type': 'text/plain' });
    assert.equal(res.statusCode, 200, res.body);
    const sum = res.json();
    assert.deepEqual(
      { lines: sum.lines, parsed: sum.parsed, skipped: sum.skipped, ai_crawler_hits: sum.ai_crawler_hits, ai_referral_visits: sum.ai_referral_visits, duplicates: sum.duplicates },
      expected,
    );
    // The site's first upload: its 13 duplicates are lines repeated within it, none sent before
    // (the first line's copy lands two batches after it, counted by this same upload).
    assert.deepEqual([sum.duplicates_in_upload, sum.duplicates_sent_before], [13, 0]);
    const stamp = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    assert.equal(sum.from, stamp(t0));
    assert.equal(sum.to, stamp(t0 + 12_000 * 1000));
    const report = (await s.request('GET', `/v1/sites/${site.id}/crawlers?days=30`, { key })).json();
    const gptbot = report.crawlers.find((c: { name: string }) => c.name === 'GPTBot');
    assert.deepEqual({ hits: gptbot.hits, verified: gptbot.verified_hits, last_seen: gptbot.last_seen }, { hits: 12_001, verified: 12_001, last_seen: stamp(t0 + 12_000 * 1000) });
    assert.deepEqual(gptbot.top_paths.map((p: { hits: number }) => p.hits).sort((a: number, b: number) => b - a), [1715, 1715, 1715, 1714, 1714, 1714, 1714]);
    const refs = (await s.request('GET', `/v1/sites/${site.id}/referrals`, { key })).json();
    assert.deepEqual(refs.sources.map((x: { source: string; visits: number }) => [x.source, x.visits]), [['chatgpt', 3000]]);

    // The same bytes again, gzipped: every counted line is a duplicate, nothing is added.
    const again = (await upload(site.id, gzipSync(bytes), { 'content-type': 'application/gzip' })).json();
    assert.deepEqual(
      { lines: again.lines, ai_crawler_hits: again.ai_crawler_hits, ai_referral_visits: again.ai_referral_visits, duplicates: again.duplicates },
      { lines: expected.lines, ai_crawler_hits: 0, ai_referral_visits: 0, duplicates: 12_001 + 3000 + 13 },
    );
    // Every copy, the repeated ones too, is of a line the first upload counted.
    assert.deepEqual([again.duplicates_in_upload, again.duplicates_sent_before], [0, 12_001 + 3000 + 13]);
  });

  test('errors: unknown format, unrecognised log, wrong media type, missing scope, another account', async () => {
    const site = await newSite('errors.example');
    const badFormat = await upload(site.id, 'x\n', { 'content-type': 'text/plain' }, 'apache');
    assert.equal(badFormat.statusCode, 400);
    assert.equal(badFormat.json().detail.error, 'invalid_filter');
    const unknown = await upload(site.id, 'hello\nworld\n', { 'content-type': 'text/plain' });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().detail.error, 'invalid_request');
    const json = await upload(site.id, '{"a":1}', { 'content-type': 'application/json' });
    assert.equal(json.statusCode, 415);
    const corrupt = await upload(site.id, Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5]), { 'content-type': 'application/gzip' });
    assert.equal(corrupt.statusCode, 400);

    const readOnly = await s.key((await s.account()).accountId, { scopes: ['sites:read'] });
    const other = await s.request('POST', '/v1/sites', { key: readOnly, body: { domain: 'x.example' } });
    assert.equal(other.statusCode, 403);
    assert.equal(other.json().detail.error, 'missing_scope');

    const { key: otherKey } = await s.account();
    for (const [method, path] of [['GET', `/v1/sites/${site.id}`], ['GET', `/v1/sites/${site.id}/crawlers`], ['GET', `/v1/sites/${site.id}/referrals`], ['DELETE', `/v1/sites/${site.id}`]]) {
      const res = await s.request(method, path, { key: otherKey });
      assert.equal(res.statusCode, 404, `${method} ${path}`);
    }
    const up = await s.request('POST', `/v1/sites/${site.id}/logs`, { key: otherKey, body: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(up.statusCode, 404);
  });

  test('a named format that reads no line says which format the lines look like; a good upload has no hint', async () => {
    const site = await newSite('hint.example');
    const { body } = logText('combined', site.domain);
    const wrong = (await upload(site.id, body, { 'content-type': 'text/plain' }, 'vercel')).json();
    assert.equal(wrong.parsed, 0);
    assert.equal(wrong.skipped, wrong.lines);
    assert.equal(wrong.hint, 'No line was read as vercel; the lines look like combined: send them again with format combined (or auto).');
    const none = (await upload(site.id, 'hello\nworld\n', { 'content-type': 'text/plain' }, 'combined')).json();
    assert.match(none.hint, /^No line was read as combined, and the first lines match none of the formats read here \(combined, common, cloudflare, cloudfront, vercel\)\.$/);
    const right = (await upload(site.id, body, { 'content-type': 'text/plain' }, 'combined')).json();
    assert.ok(right.parsed > 0);
    assert.equal('hint' in right, false);
  });

  test('delete removes the site and its log data', async () => {
    const site = await newSite('gone.example');
    await upload(site.id, logText('combined', site.domain).body, { 'content-type': 'text/plain' });
    const del = await s.request('DELETE', `/v1/sites/${site.id}`, { key });
    assert.deepEqual(del.json(), { id: site.id, deleted: true });
    assert.equal((await s.request('GET', `/v1/sites/${site.id}`, { key })).statusCode, 404);
    const db = s.runtime.core.store.db;
    for (const table of ['site_crawler_hits', 'site_referral_visits', 'site_log_lines'] as const) {
      const rows = await db.selectFrom(table).select('site_id').where('site_id', '=', site.id).execute();
      assert.equal(rows.length, 0, table);
    }
    // Nothing of a client address is stored anywhere.
    const hits = await db.selectFrom('site_crawler_hits').selectAll().execute();
    assert.ok(!JSON.stringify(hits).includes('20.171.206'));
  });
});
