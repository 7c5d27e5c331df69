// Share links of a project report through the real server and database (sandbox engine): make a
// link, read the HTML report and its PDF (rendered to PNG with pdftoppm when installed), list and
// revoke; expiry, a deleted project and another account's project; and the token opens nothing
// else: as a Bearer key or a cookie on every operation of the catalog and on /mcp it is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS } from '../../src/operations/index.ts';
import { sharePdfCache } from '../../src/share/routes.ts';
import { SHARE_MAX_LIVE } from '../../src/core/reports/shares.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { runCli, serverForCli } from '../helpers/cli.ts';
import { connectMcp } from '../helpers/mcp-client.ts';

const hasPdftoppm = spawnSync('pdftoppm', ['-v']).error === undefined;

describe('report share links', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_PUBLIC_URL: 'https://sightline.example' });
  });
  after(async () => s.close());

  const project = {
    name: 'Acme <Report>',
    url: 'https://acme-crm.example/',
    brand: { name: 'Acme CRM', aliases: ['Acme'] },
    competitors: [{ name: 'HubSpot' }, { name: 'Pipedrive' }],
    platforms: ['deepseek', 'openai'],
    repeats: 2,
    prompts: [
      { prompt: 'best crm for agencies [[sandbox:mention]]', topics: ['agencies'] },
      { prompt: 'cheapest crm [[sandbox:no-mention]]', topics: ['pricing'] },
      { prompt: 'crm with free tier', topics: ['pricing'] },
      { prompt: 'crm for developers', topics: ['integrations'] },
    ],
  };

  async function projectWithRuns(key: string) {
    const p = (await s.request('POST', '/v1/projects', { key, body: project })).json();
    const runIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
      for (const r of run.runs) {
        await s.waitForRun(key, r.run_id, 60_000);
        runIds.push(r.run_id);
      }
    }
    // Spread the runs over three weeks, so the report's series has three periods.
    const db = s.runtime.core.store.db;
    for (const [i, id] of runIds.entries()) {
      const at = new Date(Date.now() - (runIds.length - 1 - i) * 8 * 86_400_000).toISOString();
      await db.updateTable('visibility_runs').set({ created_at: at }).where('id', '=', id).execute();
    }
    return p;
  }

  test('make a link, read the report as HTML and PDF, list, revoke', async (t) => {
    const { key } = await s.account({ credits: 500 });
    const p = await projectWithRuns(key);

    const created = await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: { expires_in_days: 7 } });
    assert.equal(created.statusCode, 200, created.body);
    const share = created.json();
    assert.match(share.id, /^shr_/);
    assert.match(share.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(share.url, `https://sightline.example/share/${share.token}`);
    assert.equal(share.status, 'active');
    const days = (Date.parse(share.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `expires in 7 days (${days})`);
    const stored = await s.runtime.core.store.db.selectFrom('project_shares').selectAll().where('id', '=', share.id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes(share.token), 'only the hash is stored');

    const page = await s.request('GET', `/share/${share.token}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.match(page.headers['x-robots-tag'] as string, /noindex/);
    const csp = page.headers['content-security-policy'] as string;
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src|unsafe-inline/);
    assert.doesNotMatch(page.body, /<script/i);
    assert.match(page.body, /<h1>Acme &lt;Report&gt;<\/h1>/, 'project name escaped');
    assert.match(page.body, /<svg class="chart wide"/);
    assert.equal((page.body.match(/<polyline /g) ?? []).length >= 3, true, 'brand and competitor lines');
    assert.match(page.body, /@media print/);
    for (const text of ['HubSpot', 'Pipedrive', 'Prompt × platform', 'best crm for agencies', 'pricing', 'n=', '95% interval', 'thin'])
      assert.ok(page.body.includes(text), text);
    assert.ok(!page.body.includes(p.tests[0].test_id), 'no ids of other resources on the page');
    assert.doesNotMatch(page.body, /no trend yet/, 'three periods are a trend');

    const pdf = await s.request('GET', `/share/${share.token}/report.pdf`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.headers['cache-control'], 'no-store');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'sightline-share-'));
    writeFileSync(join(dir, 'report.pdf'), pdf.rawPayload);
    writeFileSync(join(dir, 'report.html'), page.body);
    if (hasPdftoppm) {
      execFileSync('pdftoppm', ['-png', '-r', '70', join(dir, 'report.pdf'), join(dir, 'page')]);
      const pages = readdirSync(dir).filter((f) => f.startsWith('page') && f.endsWith('.png'));
      assert.ok(pages.length >= 2, `pages rendered: ${pages.join(', ')}`);
      t.diagnostic(`PDF pages rendered to ${dir}: ${pages.join(', ')}`);
    } else if (process.env.CI === 'true') {
      assert.fail('pdftoppm is required on CI (apt-get install poppler-utils)');
    } else {
      t.diagnostic('SKIPPED rendering the PDF: pdftoppm not installed (apt-get install poppler-utils)');
    }

    const list = (await s.request('GET', `/v1/projects/${p.id}/shares`, { key })).json();
    assert.equal(list.shares.length, 1);
    assert.equal(list.shares[0].id, share.id);
    assert.ok(!JSON.stringify(list).includes(share.token), 'tokens are not listed');

    const revoked = await s.request('DELETE', `/v1/projects/${p.id}/shares/${share.id}`, { key });
    assert.deepEqual(revoked.json(), { id: share.id, revoked: true });
    for (const path of [`/share/${share.token}`, `/share/${share.token}/report.pdf`]) {
      const gone = await s.request('GET', path);
      assert.equal(gone.statusCode, 404, path);
      assert.match(gone.body, /Report not found/);
      assert.equal(gone.headers['cache-control'], 'no-store');
    }
    assert.equal((await s.request('GET', `/v1/projects/${p.id}/shares`, { key })).json().shares[0].status, 'revoked');
    assert.equal((await s.request('DELETE', `/v1/projects/${p.id}/shares/${share.id}`, { key })).statusCode, 200, 'revoking twice is harmless');
  });

  test('the PDF prints Polish, Turkish, Russian and Greek names as written; CJK as "?"', async (t) => {
    const { key } = await s.account({ credits: 100 });
    const body = {
      name: 'Łódź Żabka — отчёт',
      url: 'https://zabka.example/',
      brand: { name: 'Żabka' },
      competitors: [{ name: 'Яндекс Лавка' }, { name: 'Şok Marketler' }, { name: 'Σκλαβενίτης' }, { name: 'ソニー' }],
      platforms: ['deepseek'],
      prompts: [{ prompt: 'sklep całodobowy w Łodzi' }],
    };
    const p = (await s.request('POST', '/v1/projects', { key, body })).json();
    const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
    for (const r of run.runs) await s.waitForRun(key, r.run_id, 60_000);
    const share = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
    const pdf = await s.request('GET', `/share/${share.token}/report.pdf`);
    assert.equal(pdf.statusCode, 200);
    if (!hasPdftoppm) {
      if (process.env.CI === 'true') assert.fail('pdftotext is required on CI (apt-get install poppler-utils)');
      t.diagnostic('SKIPPED reading the PDF text: poppler-utils not installed');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'sightline-share-'));
    writeFileSync(join(dir, 'report.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', join(dir, 'report.pdf'), '-']).toString('utf8');
    for (const name of ['Łódź Żabka — отчёт', 'Żabka', 'Яндекс Лавка', 'Şok Marketler', 'Σκλαβενίτης', 'sklep całodobowy w Łodzi'])
      assert.ok(text.includes(name), `${name} in the PDF text`);
    assert.ok(!text.includes('ソニー'), 'no glyph for Japanese in the embedded font');
    assert.ok(text.includes('???'), 'the Japanese name prints as question marks, not as empty boxes');
  });

  test('expiry, limits, a deleted project, another account, unknown tokens', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...project, prompts: [{ prompt: 'a' }] } })).json();
    const a = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
    const days = (Date.parse(a.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, 'default 30 days');
    assert.equal((await s.request('GET', `/share/${a.token}`)).statusCode, 200, 'a project without runs still has a report');
    assert.equal((await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: { expires_in_days: 366 } })).statusCode, 422);
    assert.equal((await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: { expires_in_days: 0 } })).statusCode, 422);

    // Expired: the clock passes expires_at.
    await s.runtime.core.store.db.updateTable('project_shares').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', a.id).execute();
    assert.equal((await s.request('GET', `/share/${a.token}`)).statusCode, 404);
    assert.equal((await s.request('GET', `/share/${a.token}/report.pdf`)).statusCode, 404);
    assert.equal((await s.request('GET', `/v1/projects/${p.id}/shares`, { key })).json().shares[0].status, 'expired');

    for (const token of ['x', 'A'.repeat(43), `${a.token.slice(0, -1)}${a.token.endsWith('A') ? 'B' : 'A'}`]) {
      assert.equal((await s.request('GET', `/share/${token}`)).statusCode, 404, token);
    }

    // Another account reaches neither the project's links nor makes one.
    const other = await s.account({ credits: 1 });
    assert.equal((await s.request('POST', `/v1/projects/${p.id}/shares`, { key: other.key, body: {} })).statusCode, 404);
    assert.equal((await s.request('GET', `/v1/projects/${p.id}/shares`, { key: other.key })).statusCode, 404);
    assert.equal((await s.request('DELETE', `/v1/projects/${p.id}/shares/${a.id}`, { key: other.key })).statusCode, 404);

    // A read-only key lists but cannot make or revoke a link.
    const readOnly = await s.key(accountId, { scopes: ['tests:read'] });
    assert.equal((await s.request('GET', `/v1/projects/${p.id}/shares`, { key: readOnly })).statusCode, 200);
    assert.equal((await s.request('POST', `/v1/projects/${p.id}/shares`, { key: readOnly, body: {} })).statusCode, 403);

    // A deleted project takes its links with it.
    const b = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
    assert.equal((await s.request('GET', `/share/${b.token}`)).statusCode, 200);
    await s.request('DELETE', `/v1/projects/${p.id}`, { key });
    assert.equal((await s.request('GET', `/share/${b.token}`)).statusCode, 404);
  });

  test(`a project has at most ${SHARE_MAX_LIVE} live links; a revoked or expired one makes room`, async () => {
    const { key } = await s.account({ credits: 0 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...project, prompts: [{ prompt: 'a' }] } })).json();
    const make = () => s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} });
    const made = [];
    for (let i = 0; i < SHARE_MAX_LIVE - 2; i++) made.push((await make()).json());
    // The last two places taken by four requests at once: two fit.
    const racing = await Promise.all(Array.from({ length: 4 }, make));
    assert.deepEqual(racing.map((r) => r.statusCode).sort(), [200, 200, 409, 409]);
    const refused = racing.find((r) => r.statusCode === 409)!.json().detail;
    assert.equal(refused.error, 'limit_reached');
    assert.equal(refused.limit, SHARE_MAX_LIVE);
    // A revoked link makes room, and so does an expired one.
    assert.equal((await s.request('DELETE', `/v1/projects/${p.id}/shares/${made[0].id}`, { key })).statusCode, 200);
    assert.equal((await make()).statusCode, 200);
    assert.equal((await make()).statusCode, 409);
    await s.runtime.core.store.db.updateTable('project_shares').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', made[1].id).execute();
    assert.equal((await make()).statusCode, 200);
  });

  test('the token opens nothing else: every operation, /mcp and the console refuse it', async () => {
    const { key } = await s.account({ credits: 10 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...project, prompts: [{ prompt: 'a' }] } })).json();
    const { token, id } = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
    const seen: string[] = [];
    for (const op of OPERATIONS) {
      const url = op.url.replace(/:project_id/g, p.id).replace(/:share_id/g, id).replace(/:[a-z_]+/g, token);
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      for (const headers of [{ authorization: `Bearer ${token}` }, { cookie: `sightline_session=${token}` }, { 'x-api-key': token }, {}] as Record<string, string>[]) {
        const res = await s.request(op.method, `${url}?token=${token}`, { headers, body });
        assert.ok([401, 404].includes(res.statusCode), `${op.method} ${op.url} with ${Object.keys(headers)[0] ?? 'no header'}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      seen.push(`${op.method} ${op.url}`);
    }
    assert.ok(seen.length === OPERATIONS.length && seen.includes('GET /v1/projects/:project_id/dashboard'));
    const mcp = await s.request('POST', '/mcp', {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    assert.equal(mcp.statusCode, 401);
    const session = (await s.request('GET', '/console/api/session', { headers: { cookie: `sightline_session=${token}` } })).json();
    assert.equal(session.signed_in, false);
    for (const path of [`/share/${token}/report.html`, `/share/${token}/../../v1/usage`, `/share/${token}/v1/projects`]) {
      assert.ok([401, 404].includes((await s.request('GET', path)).statusCode), path);
    }
    assert.equal((await s.request('GET', `/share/${token}`)).statusCode, 200, 'the link itself still works');
  });

  test('token lookups are limited per client address', async () => {
    const limited = await startTestServer({ SIGHTLINE_SHARE_LIMIT_PER_MINUTE: '3' }, { worker: false });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await limited.request('GET', `/share/${'A'.repeat(43)}`)).statusCode, 404);
      const refused = await limited.request('GET', `/share/${'A'.repeat(43)}`);
      assert.equal(refused.statusCode, 429);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal(refused.headers['cache-control'], 'no-store');
    } finally {
      await limited.close();
    }
  });
});

describe('what a client sees on a shared report', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_SHARE_PDF_LIMIT_PER_MINUTE: '1000' });
  });
  after(async () => s.close());

  const body = {
    name: 'Acme',
    url: 'https://acme-crm.example/',
    brand: { name: 'Acme CRM' },
    competitors: [{ name: 'HubSpot' }],
    platforms: ['deepseek'],
    markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }],
    prompts: [
      { prompt: 'best crm for agencies [[sandbox:mention]]', topics: ['agencies'] },
      { prompt: 'cheapest crm [[sandbox:mention]]', topics: ['pricing'] },
    ],
  };

  async function run(key: string, projectId: string) {
    const made = (await s.request('POST', `/v1/projects/${projectId}/runs`, { key, body: {} })).json();
    const ids: string[] = [];
    for (const r of made.runs) {
      await s.waitForRun(key, r.run_id, 60_000);
      ids.push(r.run_id);
    }
    return ids;
  }

  async function share(key: string, projectId: string, settings: Record<string, unknown> = {}) {
    const res = await s.request('POST', `/v1/projects/${projectId}/shares`, { key, body: settings });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  test('sandbox answers are labelled simulated on the page and the PDF, as in the console', async () => {
    const { key } = await s.account({ credits: 100 });
    const p = (await s.request('POST', '/v1/projects', { key, body })).json();
    const none = await share(key, p.id);
    const empty = await s.request('GET', `/share/${none.token}`);
    assert.doesNotMatch(empty.body, /simulated/, 'no runs: nothing to label');

    const runIds = await run(key, p.id);
    const page = (await s.request('GET', `/share/${none.token}`)).body;
    assert.match(page, /<strong>Sandbox engine: answers are simulated<\/strong>, not asked of real AI platforms/);
    const text = pdfText((await s.request('GET', `/share/${none.token}/report.pdf`)).rawPayload);
    if (text !== null) assert.ok(text.includes('Sandbox engine: answers are simulated, not asked of real AI platforms'), text.slice(0, 400));

    // One run of two answered live: the label says how many were simulated.
    const db = s.runtime.core.store.db;
    await db.updateTable('visibility_runs').set({ engine: 'live' }).where('id', '=', runIds[0]!).execute();
    assert.match((await s.request('GET', `/share/${none.token}`)).body, /Sandbox engine: answers are simulated<\/strong> in 1 of this report&#39;s 2 runs/);
    const mixed = pdfText((await s.request('GET', `/share/${none.token}/report.pdf`)).rawPayload);
    if (mixed !== null) assert.ok(mixed.includes("Sandbox engine: answers are simulated in 1 of this report's 2 runs"), mixed.slice(0, 400));
    // Every run live: no label.
    await db.updateTable('visibility_runs').set({ engine: 'live' }).where('id', 'in', runIds).execute();
    assert.doesNotMatch((await s.request('GET', `/share/${none.token}`)).body, /simulated/);
    const live = pdfText((await s.request('GET', `/share/${none.token}/report.pdf`)).rawPayload);
    if (live !== null) assert.ok(!live.includes('simulated'));
  });

  test('a report of one period says it is not a trend yet, as the console does', async () => {
    const { key } = await s.account({ credits: 100 });
    const p = (await s.request('POST', '/v1/projects', { key, body })).json();
    const link = await share(key, p.id);
    assert.doesNotMatch((await s.request('GET', `/share/${link.token}`)).body, /no trend yet/, 'no runs: no chart to qualify');
    await run(key, p.id);
    const line = 'One period so far, so no trend yet: the line starts with the next period.';
    assert.ok((await s.request('GET', `/share/${link.token}`)).body.includes(line));
    const text = pdfText((await s.request('GET', `/share/${link.token}/report.pdf`)).rawPayload);
    if (text !== null) assert.ok(text.replace(/\s+/g, ' ').includes(line), text.slice(0, 800));
  });

  test('a link whose topic or market is gone says so (410), and the list marks it; never an empty report', async () => {
    const { key } = await s.account({ credits: 100 });
    const p = (await s.request('POST', '/v1/projects', { key, body })).json();
    await run(key, p.id);
    const byTopic = await share(key, p.id, { topic: 'pricing' });
    const byMarket = await share(key, p.id, { market: 'de-DE' });
    const whole = await share(key, p.id);
    assert.equal(byTopic.report_status, 'ok');
    for (const x of [byTopic, byMarket, whole]) assert.equal((await s.request('GET', `/share/${x.token}`)).statusCode, 200);

    // The topic's only prompt is deleted and the market removed.
    const full = (await s.request('GET', `/v1/projects/${p.id}`, { key })).json();
    const pricing = full.prompts.find((x: { topics: string[] }) => x.topics.includes('pricing'));
    assert.equal((await s.request('DELETE', `/v1/projects/${p.id}/prompts/${pricing.id}`, { key })).statusCode, 200);
    assert.equal((await s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { markets: [{ language: 'en', country: 'US' }] } })).statusCode, 200);
    // The dashboard refuses those filters; the links say the same, in words a client reads.
    assert.equal((await s.request('GET', `/v1/projects/${p.id}/dashboard?topic=pricing`, { key })).statusCode, 400);
    assert.equal((await s.request('GET', `/v1/projects/${p.id}/dashboard?market=de-DE`, { key })).statusCode, 400);
    for (const [x, words] of [
      [byTopic, 'topic “pricing” is no longer part of the project Acme'],
      [byMarket, 'market de-DE is no longer part of the project Acme'],
    ] as const) {
      for (const path of [`/share/${x.token}`, `/share/${x.token}/report.pdf`]) {
        const res = await s.request('GET', path);
        assert.equal(res.statusCode, 410, path);
        assert.match(res.headers['content-type'] as string, /^text\/html/);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.ok(res.body.includes(words), res.body);
        assert.doesNotMatch(res.body, /no answers yet|n=0/i, 'no empty report');
      }
    }
    assert.equal((await s.request('GET', `/share/${whole.token}`)).statusCode, 200, 'an unfiltered link still shows the report');
    const listed = new Map((await s.request('GET', `/v1/projects/${p.id}/shares`, { key })).json().shares.map((x: { id: string; report_status: string }) => [x.id, x.report_status]));
    assert.deepEqual([listed.get(byTopic.id), listed.get(byMarket.id), listed.get(whole.id)], ['topic_gone', 'market_gone', 'ok']);

    // The topic back in the library: the link shows its report again.
    await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { prompts: [{ prompt: 'cheapest crm [[sandbox:mention]]', topics: ['pricing'] }] } });
    assert.equal((await s.request('GET', `/share/${byTopic.token}`)).statusCode, 200);

    // A view reads the project's prompts and tests once: whether the link's report still exists
    // is decided from the same read as the report (a gone one too).
    for (const [x, status] of [[byTopic, 200], [whole, 200], [byMarket, 410]] as const) {
      const reads = await statementsDuring(async () => assert.equal((await s.request('GET', `/share/${x.token}`)).statusCode, status));
      assert.deepEqual([reads.filter((q) => /from "project_prompts"/.test(q)).length, reads.filter((q) => /from "tests" where "project_id"/.test(q)).length], [1, 1], reads.join('\n'));
    }
  });

  /** The SQL statements the server sends through Kysely while `fn` runs. */
  async function statementsDuring(fn: () => Promise<void>): Promise<string[]> {
    const executor = s.runtime.core.store.db.getExecutor();
    const original = executor.executeQuery;
    const seen: string[] = [];
    executor.executeQuery = function (this: typeof executor, query, ...rest) {
      seen.push(query.sql);
      return original.call(this, query, ...rest);
    } as typeof original;
    try {
      await fn();
    } finally {
      executor.executeQuery = original;
    }
    return seen;
  }

  test('the competitors-named line: the console\'s wording, and "no answers yet" on an empty report', async () => {
    const { key } = await s.account({ credits: 100 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...body, markets: undefined } })).json();
    const x = await share(key, p.id);
    const gaps = (html: string) => html.slice(html.indexOf('<h2>Prompts where competitors are named'), html.indexOf('<section class="matrix">'));
    const before = (await s.request('GET', `/share/${x.token}`)).body;
    assert.match(gaps(before), /No answers in this period yet\./);
    assert.doesNotMatch(before, /so was the brand/);
    const emptyPdf = pdfText((await s.request('GET', `/share/${x.token}/report.pdf`)).rawPayload);
    if (emptyPdf !== null) assert.ok(!emptyPdf.includes('so was the brand') && !emptyPdf.includes('names a competitor without'), emptyPdf);

    await run(key, p.id);
    const after = (await s.request('GET', `/share/${x.token}`)).body;
    assert.match(gaps(after), /No prompt in the latest period names a competitor without naming Acme CRM\./);
    const pdf = pdfText((await s.request('GET', `/share/${x.token}/report.pdf`)).rawPayload);
    if (pdf !== null) assert.ok(pdf.includes('No prompt in the latest period names a competitor without naming Acme CRM.'), pdf);
  });

  test('the PDF is rendered once per version of its numbers; a settled run renders it again', async () => {
    const { key } = await s.account({ credits: 100 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...body, markets: undefined } })).json();
    await run(key, p.id);
    const x = await share(key, p.id);
    const cache = sharePdfCache(s.app)!;
    const renders = cache.renders;
    const first = await s.request('GET', `/share/${x.token}/report.pdf`);
    const second = await s.request('GET', `/share/${x.token}/report.pdf`);
    assert.equal(first.statusCode, 200);
    assert.equal(cache.renders, renders + 1, 'rendered once');
    assert.ok(first.rawPayload.equals(second.rawPayload), 'the same bytes');
    assert.equal(second.headers['cache-control'], 'no-store', 'kept by the server, never by a browser or proxy');

    await run(key, p.id);
    const third = await s.request('GET', `/share/${x.token}/report.pdf`);
    assert.equal(cache.renders, renders + 2, 'a new settled run: rendered again');
    assert.ok(!third.rawPayload.equals(first.rawPayload));
    await s.request('GET', `/share/${x.token}/report.pdf`);
    assert.equal(cache.renders, renders + 2);
    assert.ok(cache.bytes > 0 && cache.bytes <= cache.maxBytes);
  });

  test('PDFs have a stricter limit per client address than the page', async () => {
    const limited = await startTestServer({ SIGHTLINE_SHARE_PDF_LIMIT_PER_MINUTE: '2' }, { worker: false });
    try {
      const { key } = await limited.account({ credits: 10 });
      const p = (await limited.request('POST', '/v1/projects', { key, body: { ...body, markets: undefined } })).json();
      const x = (await limited.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
      for (let i = 0; i < 2; i++) assert.equal((await limited.request('GET', `/share/${x.token}/report.pdf`)).statusCode, 200);
      const refused = await limited.request('GET', `/share/${x.token}/report.pdf`);
      assert.equal(refused.statusCode, 429);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal((await limited.request('GET', `/share/${x.token}`)).statusCode, 200, 'the page still opens');
    } finally {
      await limited.close();
    }
  });
});

describe('report share links from the CLI and MCP', () => {
  const srv = serverForCli();

  test('sightline reports share / shares / revoke, and the MCP tools', async () => {
    const { accountId, key } = await srv.s.account({ credits: 10 });
    const p = (await srv.s.request('POST', '/v1/projects', { key, body: { name: 'Acme', url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'], prompts: [{ prompt: 'a', topics: ['pricing'] }] } })).json();
    const env = { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' };
    const made = await runCli(['reports', 'share', p.id, '--expires-in-days', '3', '--window', '30d'], { env });
    assert.equal(made.code, 0, made.err);
    const url = made.out.split('\n')[0]!;
    assert.match(url, /^http:\/\/localhost:\d+\/share\/[A-Za-z0-9_-]{43}$/);
    const token = url.split('/share/')[1]!;
    assert.equal((await srv.s.request('GET', `/share/${token}`)).statusCode, 200);
    const listed = await runCli(['reports', 'shares', p.id, '--json'], { env });
    assert.equal(listed.code, 0, listed.err);
    assert.equal(listed.json.shares[0].window, '30d');
    const human = await runCli(['reports', 'shares', p.id], { env });
    assert.match(human.out, /shr_\S+\s+active/);
    const revoked = await runCli(['reports', 'revoke', p.id, listed.json.shares[0].id], { env });
    assert.equal(revoked.code, 0, revoked.err);
    assert.match(revoked.out, /revoked/);
    assert.equal((await srv.s.request('GET', `/share/${token}`)).statusCode, 404);

    const client = await connectMcp(srv.base, await srv.s.key(accountId, { kind: 'mcp' }));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ['create_project_share', 'list_project_shares', 'revoke_project_share']) assert.ok(tools.includes(name), name);
    const viaMcp = JSON.parse(((await client.callTool({ name: 'create_project_share', arguments: { project_id: p.id, topic: 'pricing' } })) as any).content[0].text);
    assert.equal(viaMcp.topic, 'pricing');
    // A topic or market the project does not have would share an empty report: refused.
    const unknown = await runCli(['reports', 'share', p.id, '--topic', 'nope', '--json'], { env });
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.err, /topic must be one of the project's topics: pricing/);
    assert.equal((await srv.s.request('GET', `/share/${viaMcp.token}`)).statusCode, 200);
    const gone = JSON.parse(((await client.callTool({ name: 'revoke_project_share', arguments: { project_id: p.id, share_id: viaMcp.id } })) as any).content[0].text);
    assert.deepEqual(gone, { id: viaMcp.id, revoked: true });
    await client.close();
  });
});
