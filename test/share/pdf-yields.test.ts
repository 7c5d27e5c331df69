// A shared report's PDF of a library at its limits (400 prompts with 20 topics each, 200 topics)
// never holds the server's event loop: it is rendered in a worker thread, so not one of its texts
// is set on the main thread. Where threads cannot start (threads: 0 here), it is rendered on the
// event loop a few table rows at a time, letting other requests run in between: rendered in one
// go it held every other request of the process (5 s for 1,000 such prompts). Counted, not
// timed: the texts pdfkit sets on this thread, in all and between two turns of the event loop.
import { after, before, describe, test } from 'node:test';
import PDFDocument from 'pdfkit';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { sharePdfCache, sharePdfRenderer } from '../../src/share/routes.ts';
import { MAX_PROJECT_TOPICS, MAX_PROMPT_TOPICS } from '../../src/core/projects/prompts.ts';

/** The large library's PDF through the server, with the texts pdfkit set on this thread. */
async function renderLarge(s: TestServer) {
  const { key } = await s.account({ credits: 0 });
  const prompts = Array.from({ length: 400 }, (_, i) => ({
    prompt: `which customer relationship manager suits a small agency best, case ${i}`,
    topics: Array.from({ length: MAX_PROMPT_TOPICS }, (_, j) => `a rather long topic name ${(i + j) % MAX_PROJECT_TOPICS}`),
  }));
  const p = (await s.request('POST', '/v1/projects', { key, body: { url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'], prompts } })).json();
  const share = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
  const cache = sharePdfCache(s.app)!;
  const renders = cache.renders;

  // Every text pdfkit sets on this thread is counted; the ticker notes the most set between two turns.
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
  assert.equal(cache.renders, renders + 1);
  // Whole: the last prompt of the matrix is printed (when poppler-utils can read it).
  const printed = pdfText(pdf.rawPayload);
  if (printed !== null) assert.match(printed, /case 399 \(/);
  return { texts, mostInOneTurn };
}

describe('share PDF of a large library', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }, { worker: false });
  });
  after(async () => s.close());

  test('renders whole in its worker thread: no text is set on the event loop', async () => {
    const before = sharePdfRenderer(s.app)!.stats();
    const { texts } = await renderLarge(s);
    assert.equal(texts, 0, `${texts} texts set on the main thread`);
    const after = sharePdfRenderer(s.app)!.stats();
    assert.equal(after.completed, before.completed + 1);
    assert.equal(after.broken, false);
  });
});

describe('share PDF of a large library, without threads', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }, { worker: false, app: { sharePdf: { threads: 0 } } });
  });
  after(async () => s.close());

  test('renders whole, and other work runs while it is set', async () => {
    const { texts, mostInOneTurn } = await renderLarge(s);
    // 600 table rows (200 topics, 400 prompts) of 3 to 5 cells: over 2,000 texts in all, at most
    // 10 rows (and a page's header and headings) between two turns.
    assert.ok(texts > 2000, `${texts} texts`);
    assert.ok(mostInOneTurn <= 100, `${mostInOneTurn} texts set without letting the event loop run`);
  });
});
