// The learned layer of the page-type rule: its evidence, one hand-written page per kind of
// evidence, and the model (fit, probabilities, reasons, the bundled weights).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { explainPageType, type PageType, pageTypeByRules } from '../../../src/core/pages/page-kind.ts';
import { PAGE_TYPES, typeEvidence } from '../../../src/core/pages/page-type-evidence.ts';
import { fitPageTypeModel, learnedChoice, pageTypeModel, strongestEvidence, typeProbabilities } from '../../../src/core/pages/page-type-model.ts';

const page = (body: string, title = 'Page', head = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
const evidenceOf = (html: string, url: string) => {
  const doc = extractPage(html, url);
  const { votes, rules } = pageTypeByRules(doc);
  return typeEvidence(doc, votes, rules.type);
};
const prose = (n: number, sentence: string) => Array.from({ length: n }, (_, i) => `<p>${sentence} (${i + 1})</p>`).join('');

test('voice: a business speaks as "we" to "you"; a blogger as "I"; a story of third parties', () => {
  const offer = evidenceOf(
    page(`<main><h1>Roof repair</h1>${prose(5, 'We repair your roof and our team answers your call the same day, so you can rest.')}</main>`),
    'https://roofs.example/roof-repair',
  );
  assert.ok(offer['voice:we']! > 5 && offer['voice:you']! > 5, JSON.stringify(offer));
  assert.ok(offer['voice:we×you']! > 25);
  const blog = evidenceOf(
    page(`<main><h1>My garden</h1>${prose(5, 'I planted my tomatoes early this year and I think it worked for me.')}</main>`),
    'https://me.example/garden',
  );
  assert.ok(blog['voice:i']! > 10 && blog['voice:we'] === 0);
  const story = evidenceOf(
    page(`<main><h1>Council votes</h1>${prose(5, 'The council voted on Tuesday to widen the harbour road, officials said.')}</main>`),
    'https://news.example/council',
  );
  assert.equal(story['voice:we'] + story['voice:you'] + story['voice:i'], 0);
});

test('calls to action by what they ask: book, quote, contact, consult, cart, read more', () => {
  const links = ['Book a consultation', 'Get a free quote', 'Contact us', 'Add to cart', 'Read more', 'Subscribe to our newsletter']
    .map((t, i) => `<a href="/a${i}">${t}</a>`)
    .join(' ');
  const e = evidenceOf(page(`<header>${links}</header><main><h1>Page</h1>${prose(3, 'Some words of text here.')}</main>`), 'https://x.example/page');
  for (const kind of ['book', 'quote', 'contact', 'consult', 'cart', 'read', 'subscribe']) assert.ok(e[`link:${kind}`]! > 0, kind);
  assert.equal(e['link:download'], 0);
});

test('prices: one price at the top of one item, many distinct prices in a list', () => {
  const item = evidenceOf(
    page(`<main><h1>Oak board</h1><p>$39.00 with free delivery.</p>${prose(3, 'A board of oak, oiled by hand.')}</main>`),
    'https://shop.example/oak',
  );
  assert.equal(item['prices:exactly one'], 1);
  assert.equal(item['prices:one at the top'], 1);
  const rows = Array.from({ length: 6 }, (_, i) => `<p>Board ${i} for $${20 + i}.00</p>`).join('');
  const list = evidenceOf(page(`<main><h1>Boards</h1>${rows}</main>`), 'https://shop.example/boards');
  assert.ok(list['prices:distinct']! > Math.log1p(3), JSON.stringify(list['prices:distinct']));
  assert.equal(list['prices:exactly one'], 0);
});

test("headings' grammar: questions, numbers, imperatives, you and we", () => {
  const body = `<main><h1>Guide</h1><h2>What is a heat pump?</h2>${prose(2, 'Text.')}<h2>1. Size it</h2>${prose(2, 'Text.')}<h2>Get a quote</h2>${prose(2, 'Text.')}<h2>Why choose us</h2>${prose(2, 'Text.')}</main>`;
  const e = evidenceOf(page(body), 'https://x.example/guide');
  assert.equal(e['headings:questions'], 0.25);
  assert.equal(e['headings:numbered'], 0.25);
  assert.equal(e['headings:imperative'], 0.5);
  assert.equal(e['headings:we'], 0.25);
});

test("the address's and the title's shape", () => {
  const e = evidenceOf(
    page(`<main><h1>Best lamps of 2025?</h1>${prose(3, 'Text of the story.')}</main>`, 'Best lamps of 2025?'),
    'https://x.example/blog/2025/04/best-desk-lamps-123?ref=a',
  );
  assert.equal(e['url:depth'], 4);
  assert.equal(e['url:words in last part'], 4);
  assert.equal(e['url:year'], 1);
  assert.equal(e['url:number'], 1);
  assert.equal(e['url:query'], 1);
  assert.equal(e['title:question'], 1);
  assert.equal(e['title:ranking'], 1);
  assert.equal(e['title:year'], 1);
  assert.equal(e['title:is first heading'], 1);
});

test("the rules' votes are evidence too, by name, with their points per type and their answer", () => {
  const e = evidenceOf(page(`<main><h1>Our services</h1>${prose(3, 'We do things.')}</main>`), 'https://x.example/services/cleaning');
  assert.equal(e['vote:service URL>service'], 1);
  assert.ok(e['points:service']! > 0);
  assert.equal(e['rule:service'], 1);
});

test('the fit: deterministic, learns a separable toy problem; probabilities sum to 1; the reason names the evidence', () => {
  const rows = Array.from({ length: 40 }, (_, i) => ({ a: i % 2, b: (i % 5) / 5 }));
  const labels: PageType[] = rows.map((r) => (r.a ? 'service' : 'article'));
  const m1 = fitPageTypeModel(rows, [...labels], 0.01, PAGE_TYPES, 200);
  const m2 = fitPageTypeModel(rows, [...labels], 0.01, PAGE_TYPES, 200);
  assert.deepEqual(m1, m2);
  const m = { ...m1, fitted: { labels: [], pages: rows.length, lambda: 0.01, steps: 200 } };
  const p = typeProbabilities({ a: 1, b: 0 }, m);
  assert.ok(Math.abs(Object.values(p).reduce((x, y) => x + y, 0) - 1) < 1e-9);
  assert.ok(p.service > 0.9);
  assert.ok(typeProbabilities({ a: 0, b: 0 }, m).article > 0.9);
  assert.equal(strongestEvidence({ a: 1, b: 0.2 }, 'service', 'article', 1, m)[0]!.feature, 'a');
});

test('the bundled model: fitted on the five tuned sets only (never the sixth), every number finite', () => {
  const m = pageTypeModel();
  assert.deepEqual(m.types, PAGE_TYPES);
  assert.ok(!m.fitted.labels.some((f) => f.includes('held-out-6')));
  assert.ok(m.fitted.pages >= 900);
  assert.equal(m.weights.length, m.types.length);
  for (const w of m.weights) assert.equal(w.length, m.features.length);
  assert.ok([...m.mean, ...m.sd, ...m.bias, ...m.weights.flat()].every(Number.isFinite));
  assert.ok(m.sd.every((x) => x > 0));
});

test("the learned layer: an offer in a CMS's Article markup is a service, with its reason; a story stays an article", () => {
  const head = '<meta property="og:type" content="article"><meta property="article:published_time" content="2025-03-01T08:00:00Z">';
  const offer = page(
    `<main><h1>Machine learning recruiting</h1>${prose(6, 'We find the engineers your team needs, and our recruiters call you within a day so you can hire faster.')}<a class="btn" href="/contact">Contact us</a> <a href="/book">Book a call</a></main>`,
    'Machine Learning Recruiting | Acme Talent',
    head,
  );
  const e = explainPageType(extractPage(offer, 'https://talent.example/machine-learning-recruiting/'));
  assert.equal(e.rules.type, 'article');
  assert.equal(e.type, 'service');
  assert.match(e.reason, /^learned: service over the rules' article \(.+\); evidence: .+ \+\d/);
  const story = page(
    `<main><h1>Harbour road to be widened</h1>${prose(8, 'The council voted on Tuesday to widen the harbour road, officials said, after a year of complaints from residents.')}<a href="/news/more">Read more</a></main>`,
    'Harbour road to be widened',
    head,
  );
  const s = explainPageType(extractPage(story, 'https://gazette.example/news/harbour-road-widened'));
  assert.equal(s.type, 'article');
  assert.equal(s.reason, s.rules.reason);
});

test("the learned choice: only among the types the rules voted for and article; a site's root and a search stay decisive", () => {
  const p = { article: 0.1, product: 0, collection: 0.6, listing: 0.2, documentation: 0, forum: 0, service: 0.1, home: 0 };
  assert.equal(
    learnedChoice(p, 'listing', [
      { type: 'listing', rule: 'archive URL' },
      { type: 'collection', rule: 'a shop host' },
    ]),
    'collection',
  );
  assert.equal(
    learnedChoice(p, 'listing', [
      { type: 'listing', rule: 'search URL' },
      { type: 'collection', rule: 'a shop host' },
    ]),
    'listing',
  );
  assert.equal(
    learnedChoice(p, 'home', [
      { type: 'home', rule: 'site root URL' },
      { type: 'collection', rule: 'cards with prices' },
    ]),
    'home',
  );
  // No rule voted collection: the layer does not find it.
  assert.equal(learnedChoice(p, 'service', [{ type: 'service', rule: 'service URL' }]), 'service');
  assert.equal(learnedChoice({ ...p, article: 0.5 }, 'service', [{ type: 'service', rule: 'service URL' }]), 'article');
});
