// Content Intelligence output a content lead would sign (session 43 walkthrough), on pages written
// here, each failing before its fix: a short "CRM CRM CRM…" page and "Lorem ipsum" filler not
// flagged; a generic title ("Home") quoted back as the example H1 and earning no title advice; a
// trend keeping the capital of a list item's first word; tax software named like a person
// ("Drake") taken for one; and "What should I know about client portal".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreDocument } from '../../../src/core/content/index.ts';
import { extractEntities, extractKeyphrases } from '../../../src/core/content/keyphrases.ts';
import { englishForms, topicQuestions } from '../../../src/core/content/questions.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const page = (title: string, body: string, url = 'https://crm.example/page') =>
  extractPage(`<!doctype html><html lang="en"><head><title>${title}</title></head><body><main>${body}</main></body></html>`, url);

test('keyword stuffing and placeholder text are flagged on a short page too', () => {
  const crm = scoreDocument(page('CRM', `<p>${Array(54).fill('CRM').join(' ')}</p>`), { now: NOW });
  assert.equal(crm.signals.evidence.keyword_stuffing?.phrase, 'crm');
  assert.equal(crm.signals.evidence.keyword_stuffing?.count, crm.signals.structure.word_count);
  assert.ok(crm.recommendations.some((r) => r.signal === 'keyword_stuffing'), crm.recommendations.map((r) => r.signal).join(', '));
  const lorem = scoreDocument(
    page('Our services', '<h1>Our services</h1><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>'),
    { now: NOW },
  );
  assert.match(lorem.signals.evidence.placeholder_text[0] ?? '', /^Lorem ipsum/);
  const rec = lorem.recommendations.find((r) => r.signal === 'placeholder_text');
  assert.ok(rec, lorem.recommendations.map((r) => r.signal).join(', '));
  assert.match(rec.recommendation, /Lorem ipsum/);
  // A short page that names its topic a few times, and Latin quoted in prose, are neither.
  const fine = scoreDocument(
    page('CRM for plumbers', '<h1>CRM for plumbers</h1><p>A CRM keeps every customer, quote and job in one place. For a plumber, the CRM should book visits, send reminders and take payment on site, so no job is lost between the van and the office.</p>'),
    { now: NOW },
  );
  assert.equal(fine.signals.evidence.keyword_stuffing, null);
  assert.deepEqual(fine.signals.evidence.placeholder_text, []);
});

test('a generic title ("Home") gets a title recommendation and is never quoted as the H1 or the promise', () => {
  for (const title of ['Home', 'Welcome', 'Untitled', 'Index | Ledgerly', 'Page']) {
    const r = scoreDocument(
      page(title, '<p>Ledgerly keeps the books of small accounting firms: bank feeds, invoices and payroll in one ledger, with month-end close checklists for every client.</p><p>Bookkeeping for accounting firms takes less time when every client ledger lives in one place.</p>'),
      { now: NOW },
    );
    const rec = r.recommendations.find((x) => x.signal === 'title');
    assert.ok(rec, `${title}: ${r.recommendations.map((x) => x.signal).join(', ')}`);
    assert.match(rec.recommendation, /generic title/);
    const all = r.recommendations.map((x) => x.recommendation).join('\n');
    assert.doesNotMatch(all, /e\.g\. "(?:Home|Welcome|Untitled|Index|Page)"|"(?:Home|Welcome|Untitled|Index|Page)" promises/, `${title}: ${all}`);
    const h1 = r.recommendations.find((x) => x.signal === 'h1');
    if (h1) assert.match(h1.recommendation, /e\.g\. "[^"]*(?:ledger|accounting|bookkeeping)[^"]*"/i, h1.recommendation);
  }
  // A descriptive title is still the example.
  const named = scoreDocument(page('Bookkeeping for accounting firms', '<p>Ledgerly keeps the books of small accounting firms in one ledger.</p>'), { now: NOW });
  assert.match(named.recommendations.find((x) => x.signal === 'h1')?.recommendation ?? '', /e\.g\. "Bookkeeping for accounting firms"/);
});

test('a trend takes the case of the word, not of the list item or sentence it starts', () => {
  const html = `<!doctype html><html lang="en"><head><title>Task tracking for small agencies</title></head><body><main><h1>Task tracking for small agencies</h1>
    <p>Task tracking keeps a small agency's client work on schedule. Each task has an owner and a due date; boards sync with Trello and Jira.</p>
    <h2>What you get</h2><ul><li>Deadline reminders by email the day before a task is due</li><li>Deadlines per client, reported every Friday</li><li>Time logs on every task</li></ul>
    <p>Set a due date on any task and the owner gets a reminder. Import boards from Trello in one click.</p><h2>Deadline alerts</h2><p>Deadlines that slip show in red. Trello cards keep their labels.</p></main></body></html>`;
  const doc = extractPage(html, 'https://tasks.example/features');
  const scored = scoreDocument(doc, { now: NOW });
  const phrases = scored.signals.keyphrases.map((k) => k.phrase);
  assert.ok(phrases.includes('deadline'), phrases.join(', '));
  assert.ok(!phrases.some((p) => /Deadline/.test(p)), phrases.join(', '));
  assert.ok(!scored.trend_coverage.some((t) => /Deadline/.test(t.trend)), scored.trend_coverage.map((t) => t.trend).join(', '));
  // A name the prose capitalizes in mid-sentence, an acronym and a mixed-case name keep theirs.
  const kp = extractKeyphrases(
    [
      { text: 'Trello boards', zone: 'heading' },
      { text: 'We moved our Trello boards and the CRM into QuickBooks exports.', zone: 'body' },
      { text: 'Trello board owners keep their CRM and QuickBooks access.', zone: 'body' },
    ],
    'en',
  ).map((k) => k.phrase);
  assert.ok(kp.some((p) => /Trello/.test(p)) && kp.includes('CRM') && kp.some((p) => /QuickBooks/.test(p)), kp.join(', '));
  // A name that only ever opens an item or a sentence keeps its capital when it is no everyday word.
  const opening = extractKeyphrases(
    [
      { text: 'Xero bank feeds', zone: 'heading' },
      { text: 'Xero bank feeds arrive every morning.\nXero bank feed rules sort them.', zone: 'body' },
      { text: 'Xero bank feeds reconcile in minutes.', zone: 'body' },
    ],
    'en',
  ).map((k) => k.phrase);
  assert.ok(opening.some((p) => /Xero/.test(p)) && !opening.some((p) => /xero/.test(p)), opening.join(', '));
});

test('a product named like a person ("Drake" tax software) is a product where the page writes it as one', () => {
  const text = `Accounting software for tax season

Most small firms run one of four tax packages: Drake, Lacerte, UltraTax or ProSeries. Drake is the cheapest per return.

We compared Drake software with Lacerte on 40 returns, and the Drake app filed fastest.

Maria Lopez, a CPA in Austin, said the bank feeds saved her a day a month.`;
  const type = (t: string, name: string) => extractEntities(t, [], 'en').find((e) => e.name === name)?.type;
  assert.equal(type(text, 'Drake'), 'product');
  assert.equal(type(text, 'Maria Lopez'), 'person');
  // Where the page writes the name as a person's, it stays one, software nearby or not.
  assert.equal(type('Drake said the new album took two years. Drake wrote most of it on tour.', 'Drake'), 'person');
  assert.equal(type('Our founder, Drake, said the accounting software took two years to build. Drake and his team still answer support.', 'Drake'), 'person');
});

test('a secondary topic gets the question a reader would ask, with its article where the page counts it', () => {
  const text = `Accounting software for small firms
Our client portal lets clients upload receipts and sign returns. The client portal keeps every document in one place, so no email gets lost.
Secure storage is included: we sell storage by the gigabyte.
To set up bank feeds, connect each account once; bank feeds then import transactions every night.
Compare payroll add-ons before you choose one: the best payroll add-on files taxes for you.`;
  const ask = (topic: string) => topicQuestions(topic, { lang: 'en', commercial: false, main: false, text }).map((q) => q.question);
  // "client portal" only ever follows "our" or "the": a countable noun, not a mass one.
  assert.deepEqual(englishForms('client portal', text), { single: 'a client portal', plural: 'client portals', mass: false });
  assert.equal(englishForms('storage', text).mass, true, 'used bare: "we sell storage"');
  assert.deepEqual(ask('client portal'), ['Why use a client portal?']);
  assert.deepEqual(ask('bank feeds'), ['How does a bank feed work?']);
  assert.deepEqual(ask('payroll add-on'), ['Which payroll add-on should I choose?']);
  assert.deepEqual(ask('storage'), ['What is storage?']);
  // How it works, of "client work", would double the word.
  const work = 'How client work is billed: set up a rate per client, and client work is invoiced monthly.';
  assert.deepEqual(topicQuestions('client work', { lang: 'en', commercial: false, main: false, text: work }).map((q) => q.question), ['What is client work?']);
  for (const topic of ['client portal', 'bank feeds', 'payroll add-on', 'storage']) assert.ok(!ask(topic).some((q) => /should I know about/.test(q)));
});
