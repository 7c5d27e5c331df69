// A shared report's PDF of a library at its limits (400 prompts with 20 topics each, 200 topics)
// is set a few table rows at a time, letting the event loop run in between: rendered in one go it
// held every other request of the process (5 s for 1,000 such prompts). Counted, not timed: the
// most text pdfkit sets between two turns of the event loop, which one uninterrupted render makes
// every text of the report (thousands).
import { after, before, describe, test } from 'node:test';
import PDFDocument from 'pdfkit';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { sharePdfCache } from '../../src/share/routes.ts';
import { MAX_PROJECT_TOPICS, MAX_PROMPT_TOPICS } from '../../src/core/projects/prompts.ts';

describe('share PDF of a large library', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('renders whole, and other work runs while it is set', async () => {
    const { key } = await s.account({ credits: 0 });
    const prompts = Array.from({ length: 400 }, (_, i) => ({
      prompt: `which customer relationship manager suits a small agency best, case ${i}`,
      topics: Array.from({ length: MAX_PROMPT_TOPICS }, (_, j) => `a rather long topic name ${(i + j) % MAX_PROJECT_TOPICS}`),
    }));
    const p = (await s.request('POST', '/v1/projects', { key, body: { url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'], prompts } })).json();
    const share = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
    const cache = sharePdfCache(s.app)!;
    const before = cache.renders;

    // Every text pdfkit sets is counted; the ticker notes the most set between two turns.
    let texts = 0;
    const text = PDFDocument.prototype.text;
    PDFDocument.prototype.text = function (this: PDFKit.PDFDocument, ...args: unknown[]) {
      texts++;
      return (text as (...a: unknown[]) => PDFKit.PDFDocument).apply(this, args);
    } as typeof text;
    let done = false;
    let mostInOneTurn = 0;
    const ticker = (async () => {
      let seen = 0;
      while (!done) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        mostInOneTurn = Math.max(mostInOneTurn, texts - seen);
        seen = texts;
      }
    })();
    const pdf = await s.request('GET', `/share/${share.token}/report.pdf`).finally(() => {
      done = true;
      PDFDocument.prototype.text = text;
    });
    await ticker;

    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    assert.equal(cache.renders, before + 1);
    // 600 table rows (200 topics, 400 prompts) of 3 to 5 cells: over 2,000 texts in all, at most
    // 10 rows (and a page's header and headings) between two turns.
    assert.ok(texts > 2000, `${texts} texts`);
    assert.ok(mostInOneTurn <= 100, `${mostInOneTurn} texts set without letting the event loop run`);
  });
});
