// A share-link PDF whose render fails in its worker thread, through the real server: a thread
// that dies mid-render and a render that throws both answer 500 in the documented error shape
// (no stack, nothing of the report), and the next request renders in a fresh thread; a render in
// the thread prints what one on the event loop prints. The failing
// thread is the real entry with a test-only wrapper (test/fixtures/share/pdf-thread-failing-entry.mjs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { sharePdfRenderer } from '../../src/share/routes.ts';
import { reportPdf } from '../../src/share/pdf.ts';
import { openShare, shareReport } from '../../src/core/reports/shares.ts';
import { pdfText } from '../helpers/pdf-text.ts';

const entry = new URL('../fixtures/share/pdf-thread-failing-entry.mjs', import.meta.url);

describe('share PDF render that fails in its thread', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }, { worker: false, app: { sharePdf: { entry } } });
    ({ key } = await s.account({ credits: 0 }));
  });
  after(async () => s.close());

  async function link(name: string) {
    const body = { name, url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'], prompts: [{ prompt: 'best crm for a small agency' }] };
    const p = (await s.request('POST', '/v1/projects', { key, body })).json();
    const share = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
    return { project: p.id as string, token: share.token as string };
  }

  for (const [name, counted] of [
    ['Crash the thread', 'crashes'],
    ['Corrupt the report', 'completed'],
  ] as const) {
    test(`${name}: 500 internal_error, then the next render works`, async () => {
      const renderer = sharePdfRenderer(s.app)!;
      const bad = await link(name);
      const before = renderer.stats();
      const failed = await s.request('GET', `/share/${bad.token}/report.pdf`);
      assert.equal(failed.statusCode, 500);
      const { request_id, ...detail } = failed.json().detail;
      assert.deepEqual(detail, { error: 'internal_error', message: 'Unexpected server error.' });
      assert.match(request_id, /^req_/);
      assert.equal(renderer.stats()[counted], before[counted] + 1);

      // The same link once the project is renamed, and another link: both render.
      await s.request('PATCH', `/v1/projects/${bad.project}`, { key, body: { name: 'Renamed' } });
      const again = await s.request('GET', `/share/${bad.token}/report.pdf`);
      assert.equal(again.statusCode, 200);
      assert.equal(again.rawPayload.subarray(0, 5).toString(), '%PDF-');
      const good = await link('Fine');
      const ok = await s.request('GET', `/share/${good.token}/report.pdf`);
      assert.equal(ok.statusCode, 200);
      const text = pdfText(ok.rawPayload);
      if (text !== null) assert.match(text, /Fine/);
      assert.equal(renderer.stats().broken, false);
    });
  }

  test('the thread prints what the event loop prints', async () => {
    const { token } = await link('Łódź Ünïcode 東京 «quotes»');
    const fromThread = await s.request('GET', `/share/${token}/report.pdf`);
    assert.equal(fromThread.statusCode, 200);
    const core = s.runtime.core;
    const view = await shareReport(core.store, core.catalog, (await openShare(core.store, token))!);
    assert.equal(view.status, 'ok');
    const here = await reportPdf(view.report!);
    // The "Generated" time differs (the thread's report was gathered a moment earlier).
    const text = (pdf: Buffer) => pdfText(pdf)?.replace(/Generated \S+ \S+ UTC/, 'Generated');
    const threaded = text(fromThread.rawPayload);
    if (threaded === undefined) return; // no poppler-utils here (CI requires it)
    assert.equal(threaded, text(here));
    assert.match(threaded, /Łódź Ünïcode \?\? «quotes»/);
  });
});
