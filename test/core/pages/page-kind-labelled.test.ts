// Page types against a person's labels, and one hand-written page per named rule.
//
// The labelled part reads 335 real pages of the WCXB development split (the dataset is not part
// of this repository: it is looked for beside the checkout, or at WCXB_DATASET) and holds the
// rule to a floor on them. Both halves have been tuned on since issue 29, the second set
// (labels-held-out-2.json) since session 35, the third (labels-held-out-3.json) since its second
// round and the fourth (labels-held-out-4.json) since its third, the fifth (labels-held-out-5.json)
// since session 36 (the learned layer is fitted on all five); the fresh held-out set
// (labels-held-out-6.json) is only measured, by the bench. Without
// the dataset that part is skipped; the named cases always run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  evaluateFreshTypes,
  evaluateLabelledTypes,
  FIFTH_LABELS_FILE,
  FOURTH_LABELS_FILE,
  FRESH_LABELS_FILE,
  readLabels,
  SECOND_LABELS_FILE,
  THIRD_LABELS_FILE,
} from '../../../bench/lib/wcxb-types.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { detectPageType, explainPageType, numberedRun } from '../../../src/core/pages/page-kind.ts';

const DATASET = process.env.WCXB_DATASET ?? join(import.meta.dirname, '../../../../shared/datasets/wcxb-dev');
const haveDataset = existsSync(join(DATASET, 'html'));

const page = (body: string, head = '', title = 'Page') =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
const typeOf = (html: string, url: string) => detectPageType(extractPage(html, url));
const para = (n: number, topic: string) =>
  Array.from(
    { length: n },
    (_, i) => `<p>Paragraph ${i + 1} about ${topic}, written out as a full sentence so that it reads as prose to the extractor and counts as words.</p>`,
  ).join('');
const ogArticle = '<meta property="og:type" content="article"><meta property="article:published_time" content="2025-03-01T08:00:00Z">';
const priced = (n: number, extra = '') =>
  Array.from(
    { length: n },
    (_, i) => `<li class="card"><a href="/item/${i}"><img src="/i${i}.jpg" alt=""><h3>Lamp ${i}</h3></a><p>Lamp ${i} $${30 + i}.00</p>${extra}</li>`,
  ).join('');

test('the labels: 335 pages, every one with a type of ours and a reason, WCXB disagreements explained', () => {
  const labels = readLabels();
  assert.ok(labels.length >= 320);
  const types = new Set(['article', 'product', 'collection', 'listing', 'documentation', 'service', 'forum', 'home']);
  for (const l of labels) {
    assert.ok(types.has(l.label), `${l.id}: ${l.label}`);
    assert.ok(l.reason.length >= 8, l.id);
    if (l.label !== l.wcxb && l.label !== 'home') assert.match(l.reason, /WCXB/, `${l.id} differs from WCXB (${l.wcxb}) without saying why`);
  }
  assert.equal(new Set(labels.map((l) => l.id)).size, labels.length);
});

for (const [name, file, earlier] of [
  ['the second set', SECOND_LABELS_FILE, [readLabels()]],
  ['the third set', THIRD_LABELS_FILE, [readLabels(), readLabels(SECOND_LABELS_FILE)]],
  ['the fourth set', FOURTH_LABELS_FILE, [readLabels(), readLabels(SECOND_LABELS_FILE), readLabels(THIRD_LABELS_FILE)]],
  ['the fifth set', FIFTH_LABELS_FILE, [readLabels(), readLabels(SECOND_LABELS_FILE), readLabels(THIRD_LABELS_FILE), readLabels(FOURTH_LABELS_FILE)]],
  [
    'the fresh held-out set',
    FRESH_LABELS_FILE,
    [readLabels(), readLabels(SECOND_LABELS_FILE), readLabels(THIRD_LABELS_FILE), readLabels(FOURTH_LABELS_FILE), readLabels(FIFTH_LABELS_FILE)],
  ],
] as const) {
  test(`${name}: at least 120 pages, none of them in an earlier labels file, each with a type and a reason`, () => {
    const fresh = readLabels(file);
    const seen = new Set(earlier.flat().map((l) => l.id));
    assert.ok(fresh.length >= 120);
    const types = new Set(['article', 'product', 'collection', 'listing', 'documentation', 'service', 'forum', 'home']);
    for (const l of fresh) {
      assert.ok(!seen.has(l.id), `${l.id} is in an earlier labels file`);
      assert.ok(types.has(l.label), `${l.id}: ${l.label}`);
      assert.ok(l.reason.length >= 8, l.id);
      if (l.label !== l.wcxb && l.label !== 'home') assert.match(l.reason, /WCXB/, `${l.id} differs from WCXB (${l.wcxb}) without saying why`);
    }
    assert.equal(new Set(fresh.map((l) => l.id)).size, fresh.length);
  });
}

test('accuracy on our labels stays above its floor', { skip: haveDataset ? false : `WCXB dataset not found at ${DATASET}` }, () => {
  const [development, heldOut, all] = evaluateLabelledTypes(DATASET);
  // Both halves are development data since issue 29's rules: measured at this change 94.0 % of all
  // 335 (bench/HISTORY.md); each half is held to a floor of its own too.
  assert.ok(all!.right / all!.pages >= 0.93, `all ${all!.right}/${all!.pages}`);
  assert.ok(heldOut!.right / heldOut!.pages >= 0.9, `odd half ${heldOut!.right}/${heldOut!.pages}`);
  assert.ok(development!.right / development!.pages >= 0.9, `even half ${development!.right}/${development!.pages}`);
  // The second set, tuned on since session 35: 85.4 % at this change.
  const second = evaluateFreshTypes(DATASET, readLabels(SECOND_LABELS_FILE), 'second set');
  assert.ok(second.right / second.pages >= 0.84, `second set ${second.right}/${second.pages}`);
  // The third set, tuned on since session 35's second round: 91.5 % at this change.
  const third = evaluateFreshTypes(DATASET, readLabels(THIRD_LABELS_FILE), 'third set');
  assert.ok(third.right / third.pages >= 0.9, `third set ${third.right}/${third.pages}`);
  // The fourth set, tuned on since session 35's third round: 92.4 % at this change (84.0 % when it
  // was measured unseen).
  const fourth = evaluateFreshTypes(DATASET, readLabels(FOURTH_LABELS_FILE), 'fourth set');
  assert.ok(fourth.right / fourth.pages >= 0.91, `fourth set ${fourth.right}/${fourth.pages}`);
  // The fifth set, tuned on since session 36 (the learned layer is fitted on it): 85.5 % at this
  // change (81.9 % when it was measured unseen).
  const fifth = evaluateFreshTypes(DATASET, readLabels(FIFTH_LABELS_FILE), 'fifth set');
  assert.ok(fifth.right / fifth.pages >= 0.85, `fifth set ${fifth.right}/${fifth.pages}`);
});

test('site root: the front page, whatever it shows; a search at the root is a listing', () => {
  const shopFront = page(`<main><h1>Sharpening stones</h1><ul>${priced(8)}</ul></main>`);
  assert.deepEqual(typeOf(shopFront, 'https://stones.example/?srsltid=abc123'), { type: 'home', reason: 'site root URL' });
  assert.equal(typeOf(page(`<main><h1>Results</h1>${para(3, 'lamps')}</main>`), 'https://stones.example/?s=lamp').type, 'listing');
});

test('documentation host and title; forum host and thread script', () => {
  const prose = page(`<main><h1>Understanding workflows</h1>${para(4, 'workflows')}</main>`, ogArticle);
  assert.equal(typeOf(prose, 'https://docs.example.com/actions/workflows').type, 'documentation');
  assert.equal(
    typeOf(page(`<main><h1>Searching</h1>${para(4, 'searching')}</main>`, '', 'searching [Acme Documentation]'), 'https://acme.example/support/searching').type,
    'documentation',
  );
  const thread = page(`<main><h1>Wrong refresh rate</h1>${para(2, 'my graphics card')}</main>`);
  assert.deepEqual(typeOf(thread, 'https://forum.videos.example/showthread.php?t=186269'), { type: 'forum', reason: 'forum host or script' });
  assert.equal(typeOf(thread, 'https://bbs.distro.example/viewtopic.php?id=42').type, 'forum');
});

test('a grid of priced items is a category even when the cards carry Product markup; a product page with a related rail stays a product', () => {
  const ld = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Lamp 0' })}</script>`;
  const grid = page(`<main><h1>Table lamps</h1><ul class="grid">${priced(24, '<button class="add-to-cart">Add to cart</button>')}</ul></main>`, ld);
  assert.equal(typeOf(grid, 'https://lamps.example/11-table-lamps').type, 'collection');
  // Its own cart button and three more in the rail: cart buttons without a grid.
  const item = page(
    `<main><h1>Lamp 0</h1><p class="price">$30.00</p><button class="add-to-cart">Add to cart</button>${para(3, 'the lamp')}</main><aside><h2>You may also like</h2><ul>${priced(3, '<button class="add-to-cart">Add to cart</button>')}</ul></aside>`,
  );
  assert.deepEqual(typeOf(item, 'https://lamps.example/lamp-0.html'), { type: 'product', reason: 'add-to-cart buttons' });
});

test("a /products/ address with nothing for sale is a vendor's service page, not a product", () => {
  const html = page(
    `<main><h1>Content delivery network</h1>${para(5, 'our network')}<a class="btn" href="/contact">Contact sales</a><a class="btn" href="/signup">Get started</a></main>`,
  );
  assert.equal(typeOf(html, 'https://cloud.example/application-services/products/cdn/').type, 'service');
});

test('headings that link within the site make a listing; a round-up whose headings link to other sites stays an article', () => {
  const heads = (host: string) =>
    Array.from(
      { length: 6 },
      (_, i) =>
        `<h2><a href="https://${host}/project-${i}">Project idea number ${i}</a></h2><p>Why project ${i} is worth a weekend, in a sentence or two of prose.</p>`,
    ).join('');
  assert.equal(typeOf(page(`<main><h1>Projects</h1>${heads('crafts.example')}</main>`), 'https://crafts.example/projects').type, 'listing');
  assert.equal(
    typeOf(
      page(`<main><h1>Ten weekend projects</h1>${heads('other-blog.example')}</main>`, ogArticle),
      'https://crafts.example/ten-diy-woodworking-projects-for-your-home',
    ).type,
    'article',
  );
});

test("code in a blog post is a developer's article; code without a date or a blog address is documentation", () => {
  const code = Array.from({ length: 4 }, (_, i) => `<pre><code>let step${i} = run(${i});</code></pre>`).join('');
  assert.equal(
    typeOf(page(`<main><h1>Porting a parser</h1>${para(3, 'the port')}${code}</main>`), 'https://dev.example/blog/porting-a-parser').type,
    'article',
  );
  assert.equal(
    typeOf(page(`<main><h1>Configure the client</h1>${para(3, 'configuration')}${code}</main>`), 'https://lib.example/guide/configure-the-client').type,
    'documentation',
  );
});

test('service: headings that sell on an undated page, an about address, a services address over og:type article, an offer address, a one-word standing page, a local business in JSON-LD', () => {
  const selling = page(
    `<main><h1>Interior design for your home</h1>${para(2, 'our design work')}<h2>Why choose us</h2>${para(2, 'our team')}<h2>What our clients say</h2>${para(2, 'reviews')}</main>`,
  );
  assert.deepEqual(typeOf(selling, 'https://design.example/interior-design-for-homes'), { type: 'service', reason: 'headings that sell, no publication date' });
  assert.equal(typeOf(page(`<main><h1>About us</h1>${para(3, 'the brand')}</main>`), 'https://brand.example/pages/about').type, 'service');
  const consulting = page(`<main><h1>HR consulting</h1>${para(6, 'our consulting')}</main>`, ogArticle);
  assert.deepEqual(typeOf(consulting, 'https://firm.example/services/hr-solutions/hr-consulting/'), { type: 'service', reason: 'service URL' });
  assert.equal(
    typeOf(page(`<main><h1>Project management certificate</h1>${para(4, 'the programme')}</main>`), 'https://school.example/certificates/project-management')
      .type,
    'service',
  );
  assert.deepEqual(typeOf(page(`<main><h1>Lambda</h1>${para(10, 'serverless functions')}</main>`), 'https://cloud.example/lambda/'), {
    type: 'service',
    reason: 'a standing page, named in one word',
  });
  const hvac = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'HVACBusiness', name: 'Cool Air Co' })}</script>`;
  assert.deepEqual(
    typeOf(page(`<main><h1>Air conditioning repair</h1>${para(4, 'repairs')}</main>`, hvac), 'https://coolair.example/air-conditioning-repair-in-town'),
    { type: 'service', reason: 'JSON-LD Service' },
  );
  const oneButton = page(`<main><h1>Self-host the builder</h1>${para(3, 'self-hosting')}<a class="btn" href="/signup">Get started</a></main>`);
  assert.deepEqual(typeOf(oneButton, 'https://builder.example/on-premise-app-builder'), { type: 'service', reason: 'calls to action, no publication date' });
  // A dated story at a one-word address is still a story.
  assert.equal(typeOf(page(`<main><h1>Lambda</h1>${para(10, 'serverless functions')}</main>`, ogArticle), 'https://news.example/lambda').type, 'article');
});

test('listing: a blog\'s category page; "Results for" names a results list only before a quoted query', () => {
  assert.equal(
    typeOf(page(`<main><h1>Electronic gadgets</h1>${para(3, 'gadgets')}</main>`), 'https://volts.example/magazine/category/electronic-gadgets').type,
    'listing',
  );
  const results = page(`<main><h2>Results for "harbour"</h2>${para(2, 'a harbour result')}</main>`);
  assert.equal(typeOf(results, 'https://gazette.example/x/find').type, 'listing');
  const named = page(`<main><h1>Academic tutoring</h1><p>Results for America</p>${para(4, 'tutoring')}</main>`, ogArticle);
  assert.equal(typeOf(named, 'https://tutoring.example/academic-tutoring-explained-for-schools').type, 'article');
});

// --- Rules written from the confusions of both halves of labels.json (issue 29), one page each.

test('a title that names a list: jobs, courses, homes for sale, a schedule are listings; a ranking or a story with the same words is not', () => {
  const body = `<main><h1>Openings</h1>${para(3, 'the openings')}</main>`;
  assert.deepEqual(typeOf(page(body, '', 'Remote Software Engineer Jobs (March 2026) - Arc'), 'https://jobs.example/remote-jobs?role=eng'), {
    type: 'listing',
    reason: 'a title that names a list',
  });
  assert.equal(typeOf(page(body, '', 'Sparks, NV Homes for Sale & Real Estate | Homes'), 'https://homes.example/city/17527/NV/Sparks').type, 'listing');
  assert.equal(typeOf(page(body, '', 'Data Science Courses | University'), 'https://learn.example/subject/data-science').type, 'listing');
  assert.equal(typeOf(page(body, '', 'NFL Schedule - 2026 Season - Sports'), 'https://sports.example/nfl/schedule').type, 'listing');
  // A ranking, a sentence that ends in the word, a story address: not a list of results.
  assert.notEqual(typeOf(page(body, ogArticle, 'Best Online Courses for Designers'), 'https://mag.example/best-online-courses').type, 'listing');
  assert.notEqual(typeOf(page(body, '', 'Web Courses Defined - Online Learning'), 'https://college.example/online/web-courses-defined/').type, 'listing');
  assert.notEqual(
    typeOf(page(body, '', 'Graduates Find Their Degrees No Longer Guarantee Jobs'), 'https://news.example/story/25/12/19/grads-jobs').type,
    'listing',
  );
});

test('numbered headings over prose make a list article, not a service; not on a /services/ address', () => {
  const numbered = Array.from({ length: 5 }, (_, i) => `<h2>${i + 1}. Trend number ${i + 1} in care</h2>${para(7, `trend ${i + 1}`)}`).join('');
  const cta = '<a class="btn" href="/contact">Contact us</a>';
  const html = page(`<main><h1>Seven trends in care</h1>${para(2, 'care')}${numbered}${cta}</main>`);
  assert.deepEqual(typeOf(html, 'https://clinic.example/b/care-trends'), { type: 'article', reason: 'numbered headings over prose' });
  assert.equal(typeOf(html, 'https://agency.example/services/marketing/care-trends').type, 'service');
  assert.equal(numberedRun(['1. One', '2) Two', '3 – Three', 'Summary']), 3);
  assert.equal(numberedRun(['1. One', '3. Three', '4. Four']), 1);
});

test('a blog host votes like a blog address: its undated post with calls to action stays an article', () => {
  const html = page(
    `<main><h1>Index types for journals</h1>${para(8, 'journal indexes')}<a class="btn" href="/demo">Book a demo</a><a class="btn" href="/trial">Start free trial</a></main>`,
  );
  assert.equal(typeOf(html, 'https://blog.journals.example/post/index-types').type, 'article');
  assert.equal(typeOf(html, 'https://journals.example/post/index-types').type, 'service');
});

test('prices in prose are figures, not items, where the page shows no price box; "quote" is not a forum word', () => {
  const costs = Array.from(
    { length: 8 },
    (_, i) => `<p>Cover for a ${i + 2}-year-old dog costs about $${40 + i} a month, and a quote for a policy like that takes minutes.</p>`,
  ).join('');
  const html = page(`<main><h1>How much pet insurance costs</h1>${costs}</main>`);
  assert.equal(typeOf(html, 'https://insure.example/research/pet-insurance-cost').type, 'article');
});

test('a shop address: no service vote from "Contact us" or a one-word name; /list/ is an archive', () => {
  const cards = Array.from({ length: 9 }, (_, i) => `<li class="tile"><a href="/item/${i}"><img src="/c${i}.jpg" alt=""><h3>Cable ${i}</h3></a></li>`).join('');
  const shop = page(
    `<main><h1>Chargers and cables</h1><ul>${cards}</ul>${para(2, 'cables')}<p>Questions? Contact us.</p><a class="btn" href="/contact">Contact us</a></main>`,
  );
  assert.equal(typeOf(shop, 'https://surplus.example/sub-categories/mobile-adapters-cables').type, 'collection');
  assert.equal(typeOf(page(`<main><h1>Recent papers</h1>${para(8, 'new papers')}</main>`), 'https://papers.example/list/cs.AI/recent').type, 'listing');
});

test('offer words in the address, a -department slug and programme headings are a service', () => {
  assert.deepEqual(typeOf(page(`<main><h1>Vacation deals</h1>${para(6, 'the packages')}</main>`), 'https://air.example/us/en/vacations/offers-deals'), {
    type: 'service',
    reason: 'offer words in the URL',
  });
  assert.equal(
    typeOf(page(`<main><h1>Individual health plans</h1>${para(4, 'coverage')}</main>`), 'https://health.example/explore-affordable-health-plans/individual')
      .type,
    'service',
  );
  assert.equal(typeOf(page(`<main><h1>Building Department</h1>${para(4, 'permits')}</main>`), 'https://town.example/151/Building-Department').type, 'service');
  const programme = page(
    `<main><h1>Digital marketing certification</h1>${para(2, 'the course')}<h2>Course Overview</h2>${para(2, 'the overview')}<h2>Who Should Attend</h2>${para(1, 'attendees')}<h2>Course Details</h2>${para(1, 'dates')}</main>`,
    '<meta property="og:type" content="article">',
  );
  assert.deepEqual(typeOf(programme, 'https://campus.example/outreach/digital-marketing-certification'), {
    type: 'service',
    reason: 'headings that sell, no publication date',
  });
});

test('og:type book with nothing for sale is a chapter of a book read online', () => {
  const html = page(`<main><h1>Plan and intended audience</h1>${para(5, 'the course of the book')}</main>`, '<meta property="og:type" content="book">');
  assert.deepEqual(typeOf(html, 'https://qubits.example/plan-and-intended-audience'), { type: 'documentation', reason: 'og:type book, nothing for sale' });
});

test('a JSON-LD Product beside a local business and no Offer is rating markup: the mover stays a service', () => {
  const ld = `<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'MovingCompany', name: 'Van Co' },
      { '@type': 'Product', name: 'Moving', aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.9 } },
    ],
  })}</script>`;
  assert.equal(
    typeOf(page(`<main><h1>Affordable movers</h1>${para(5, 'our moves')}</main>`, ld), 'https://vanco.example/residential-movers/affordable').type,
    'service',
  );
  const sold = ld.replace('"name":"Moving"', '"name":"Box","offers":{"@type":"Offer","price":"3.00"}');
  assert.equal(typeOf(page(`<main><h1>Moving box</h1>${para(2, 'the box')}</main>`, sold), 'https://vanco.example/box').type, 'product');
});

test('"add to cart" text without a cart button is a grid label; many items each with a cart button are a category', () => {
  const shoes = page(`<main><h1>Sneakers</h1>${para(2, 'sneakers')}<p>Add to cart to see the price.</p></main>`);
  assert.equal(typeOf(shoes, 'https://shoes.example/browse/shoes/mens/sneakers').type, 'collection');
  const rows = Array.from(
    { length: 8 },
    (_, i) => `<div class="row"><p>Gummies ${i}</p><span class="price">$${20 + i}.99</span><button>Add to cart</button></div>`,
  ).join('');
  assert.deepEqual(typeOf(page(`<main><h1>Gummies</h1>${rows}${para(8, 'gummies')}</main>`), 'https://cbd.example/cbd-gummies'), {
    type: 'collection',
    reason: 'many items with their own cart buttons',
  });
});

test('a shop host below its root is a category; a model code in the address is one item; three code blocks outweigh selling headings', () => {
  assert.deepEqual(typeOf(page(`<main><h1>Carry-on luggage</h1>${para(6, 'carry-on bags')}</main>`), 'https://shop.bags.example/luggage-carry-on-luggage/'), {
    type: 'collection',
    reason: 'a shop host',
  });
  const pitch = page(`<main><h1>Robot vacuum</h1>${para(6, 'the robot')}<a class="btn" href="/contact">Contact us</a></main>`);
  assert.deepEqual(typeOf(pitch, 'https://robots.example/en_US/robot-vacuum/J755020.html'), { type: 'product', reason: 'a model code in the URL' });
  assert.notEqual(typeOf(pitch, 'https://news.example/2023/10/17/1206601882/robots').type, 'product');
  const code = Array.from({ length: 3 }, (_, i) => `<pre><code>node step${i}.js</code></pre>`).join('');
  const readme = page(
    `<main><h1>About this book</h1>${para(2, 'the book')}<h2>How it works</h2>${para(1, 'reading')}<h2>FAQ</h2>${para(1, 'questions')}${code}</main>`,
  );
  assert.equal(typeOf(readme, 'https://books.example/functional-guide').type, 'documentation');
});

test('an item address with its buy button stays a product beside rails of priced cards; a grid that is the whole page outweighs og:type article', () => {
  const buy = '<button>Add to cart</button><button>Buy now</button><button>Add to cart</button>';
  const item = page(
    `<main><h1>A book about habits</h1><span class="price">$14.99</span>${buy}${para(6, 'the book')}</main><aside><ul>${priced(24)}</ul></aside>`,
  );
  assert.equal(typeOf(item, 'https://books.example/Habits-Book/dp/0735211299').type, 'product');
  const bottles = page(`<main><h1>Our sake brand</h1>${para(4, 'the brewery')}<ul class="grid">${priced(12)}</ul></main>`, ogArticle);
  assert.equal(typeOf(bottles, 'https://importer.example/premier-imports/brand/').type, 'collection');
});

test('a model code of three digits in a long token is one item', () => {
  const pitch = page(`<main><h1>Tab S9 FE</h1>${para(6, 'the tablet')}</main>`, '<meta property="article:published_time" content="2023-11-02T00:00:00Z">');
  assert.deepEqual(typeOf(pitch, 'https://maker.example/levant/tablets/galaxy-tab-s9-fe-wifi-gray-128gb-sm-x510nzaamea/'), {
    type: 'product',
    reason: 'a model code in the URL',
  });
});

// --- Rules written from the confusions of the second set (labels-held-out-2.json, session 35), one page each.

test("a thread's address (/questions/123/…, /t/…/123, /threads/….123, /topic/123…) is a forum, over code blocks and a sidebar", () => {
  const tree = `<aside class="sidebar"><ul><li>Tags<ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/tags/t${i}">tag ${i}</a></li>`).join('')}</ul></li></ul></aside>`;
  const code = Array.from({ length: 3 }, (_, i) => `<pre><code>mdadm --create /dev/md${i} --level=linear</code></pre>`).join('');
  const question = page(`${tree}<main><h1>Join devices in linear mode</h1>${para(2, 'my disks')}${code}</main>`);
  assert.equal(typeOf(question, 'https://unix.qa.example/questions/780353/join-devices-in-linear-mode').type, 'forum');
  assert.equal(typeOf(question, 'https://talk.example/t/join-devices/4411').type, 'forum');
  assert.equal(typeOf(question, 'https://talk.example/threads/join-devices.4411/').type, 'forum');
  // Without the thread's number, /topic/ is a news site's tag page, and the page stays what it was.
  assert.notEqual(typeOf(question, 'https://news.example/topic/devices').type, 'forum');
});

test("an item's number on a shop host is one item, even with no price (a free game); the shop's category stays a collection", () => {
  const item = page(`<main><h1>Harbour Legends</h1>${para(4, 'the game')}<a class="btn" href="/play">Play game</a></main>`);
  assert.deepEqual(typeOf(item, 'https://store.games.example/app/1172470/Harbour_Legends/'), { type: 'product', reason: "an item's number on a shop host" });
  assert.equal(typeOf(page(`<main><h1>Co-operative</h1>${para(4, 'games')}</main>`), 'https://store.games.example/category/coop/').type, 'collection');
});

test('a title that offers a service or gives a number to call makes a service; a ranking or a question with the same words does not', () => {
  const body = `<main><h1>Our work</h1>${para(6, 'the work')}</main>`;
  assert.deepEqual(
    typeOf(page(body, ogArticle.split('<meta property="article')[0], 'Organic SEO Consultant | Hire an SEO Expert'), 'https://khor.example/seo-expert'),
    {
      type: 'service',
      reason: 'a title that offers a service',
    },
  );
  assert.equal(typeOf(page(body, '', 'Treadmill Fixing Kankakee, IL (217) 636-4344'), 'https://fix.example/treadmills-kankakee-il.html').type, 'service');
  assert.notEqual(typeOf(page(body, ogArticle, 'Best SEO Services for Small Shops'), 'https://mag.example/best-seo-services').type, 'service');
  assert.notEqual(typeOf(page(body, ogArticle, 'What is a managed service?'), 'https://mag.example/what-is-a-managed-service').type, 'service');
  // A grid of priced parts "for DIY repair" is a shop's category.
  assert.equal(
    typeOf(page(`<main><h1>Parts</h1><ul>${priced(8)}</ul></main>`, '', 'Replacement Parts for DIY Repair'), 'https://fixit.example/Parts').type,
    'collection',
  );
});

test('a calculator is a tool a business offers: service', () => {
  const html = page(
    `<main><h1>Retirement planning</h1>${para(3, 'your savings')}<form><input name="age"><input name="savings"></form></main>`,
    '',
    'Retirement Planning Calculator | Capital',
  );
  assert.deepEqual(typeOf(html, 'https://funds.example/individual/planning/tools/retirement-planning-calculator.htm'), {
    type: 'service',
    reason: 'a tool page',
  });
});

test('a title that sells goods ("Buy …", "free shipping") makes its cards, priced or not, a shop\'s category', () => {
  const cards = Array.from(
    { length: 12 },
    (_, i) => `<div class="card"><a href="/cam-${i}"><img src="/c${i}.jpg" alt=""><span class="name">Dash cam ${i}</span></a></div>`,
  ).join('');
  const html = (title: string) =>
    page(`<main><h1>4K dash cams</h1>${cards}<nav class="pagination"><a href="?page=2" rel="next">Next</a></nav></main>`, '', title);
  assert.equal(typeOf(html('Buy 4K Dash Cams | Cams Store'), 'https://cams.example/4k-dashcams/').type, 'collection');
  assert.equal(typeOf(html('GPS Watches | Free Shipping over $99'), 'https://run.example/gps-watches').type, 'collection');
  assert.equal(typeOf(html('4K dash cams we wrote about'), 'https://cams.example/4k-dashcams/').type, 'listing');
});

test('a numbered chapter that pages to the next is documentation; a story with a number in its address is not', () => {
  const pager = '<nav class="pagination"><a href="/book/00_preface.html" rel="prev">Previous</a><a href="/book/02_setup.html" rel="next">Next</a></nav>';
  const chapter = page(`<main><h1>Introduction</h1>${para(4, 'proofs')}${pager}</main>`);
  assert.deepEqual(typeOf(chapter, 'https://someone.example/zero-to-qed/01_introduction.html'), {
    type: 'documentation',
    reason: 'a numbered chapter with its pager',
  });
  assert.notEqual(typeOf(chapter, 'https://mag.example/features/686-the-five-best-headphones').type, 'documentation');
});

// --- Rules written from the confusions of the third set (labels-held-out-3.json, session 35), one page each.

const ld = (graph: object[]) => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@graph': graph })}</script>`;

test("a CMS page (og:type article, a WebPage node, no Article node): og:type counts less, so a standing page's own cue wins; the CMS's post stays an article", () => {
  const tool = `<main><h1>Mortgage calculator</h1>${para(5, 'your loan')}<form><input name="rate"><input name="years"></form></main>`;
  const head = (nodes: object[]) => `${ogArticle}${ld(nodes)}`;
  const pageNode = { '@type': 'WebPage', name: 'Mortgage Calculator' };
  const url = 'https://bank.example/mortgage-calculator/';
  assert.deepEqual(typeOf(page(tool, head([pageNode]), 'Mortgage Calculator | Bank'), url), { type: 'service', reason: 'a tool page' });
  // og:type article alone, or the same CMS with an Article node: a post about the calculator.
  assert.equal(typeOf(page(tool, ogArticle, 'Mortgage Calculator | Bank'), url).type, 'article');
  assert.equal(typeOf(page(tool, head([pageNode, { '@type': 'Article', headline: 'x' }]), 'Mortgage Calculator | Bank'), url).type, 'article');
});

test('software described by its vendor (SoftwareApplication), or a title that offers a trial, is a service; its Product rating card is not an item', () => {
  const body = `<main><h1>Marketing software</h1>${para(6, 'the features')}</main>`;
  const app = ld([
    { '@type': 'SoftwareApplication', name: 'Hub' },
    { '@type': 'Product', name: 'Hub', aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5 } },
  ]);
  assert.deepEqual(typeOf(page(body, app, 'Marketing Software | Hub'), 'https://hub.example/products/marketing'), {
    type: 'service',
    reason: 'JSON-LD SoftwareApplication',
  });
  assert.deepEqual(typeOf(page(body, ogArticle, 'Local SEO Software | Try for Free - Bright'), 'https://bright.example/local-seo-tools/'), {
    type: 'service',
    reason: 'a title that offers a trial',
  });
});

test("a business's coupons page (/coupons/, /coupons-and-discounts/) is its offer, not a shop's grid", () => {
  const coupons = Array.from({ length: 5 }, (_, i) => `<li class="card"><h3>$${25 + i}.00 off any repair</h3><p>Not valid with other offers.</p></li>`).join(
    '',
  );
  const html = page(`<main><h1>Coupons</h1><ul>${coupons}</ul>${para(2, 'the terms of our offers')}</main>`, '', 'Electrician Coupons | Blue Sparks');
  assert.deepEqual(typeOf(html, 'https://sparks.example/coupons/'), { type: 'service', reason: 'offer words in the URL' });
  assert.equal(typeOf(html, 'https://sparks.example/coupons-and-discounts/').type, 'service');
});

test("a CollectionPage with nothing for sale is a list of pages (recipes, stories); with prices it is a shop's category", () => {
  const cards = Array.from({ length: 8 }, (_, i) => `<li class="card"><a href="/recipe/${i}"><h3>Dinner ${i}</h3></a></li>`).join('');
  const node = ld([{ '@type': 'CollectionPage', name: 'Dinner' }]);
  assert.equal(
    typeOf(page(`<main><h1>Dinner recipes</h1><ul>${cards}</ul></main>`, node, 'Dinner Recipes'), 'https://cook.example/recipes/17562/dinner/').type,
    'listing',
  );
  assert.equal(typeOf(page(`<main><h1>Lamps</h1><ul>${priced(8)}</ul></main>`, node, 'Lamps'), 'https://lamps.example/lamps/').type, 'collection');
});

test("an ItemPage with a price, or a list price (MSRP) at the top, is one item's page", () => {
  const dryer = page(
    `<main><h1>G3 Pro Hair Dryer</h1><p class="price">$169.95</p>${para(3, 'the dryer')}</main>`,
    `${ogArticle}${ld([{ '@type': 'ItemPage', name: 'G3 Pro' }])}`,
    'G3 Pro Hair Dryer - Karmin',
  );
  assert.equal(typeOf(dryer, 'https://dryers.example/product/g3-pro-hair-dryer').type, 'product');
  const consoleModel = page(
    `<main><h1>Console – OLED Model</h1><h2>Available now</h2><h3>$399.99 MSRP*</h3>${para(4, 'the screen')}</main>`,
    '',
    'Console – OLED Model - Official Site',
  );
  assert.deepEqual(typeOf(consoleModel, 'https://games.example/us/gaming-systems/console/oled-model/'), {
    type: 'product',
    reason: 'a list price (MSRP) at the top',
  });
});

test("on a forum's host, a thread's posts outvote the Article markup its CMS adds", () => {
  const posts = Array.from(
    { length: 6 },
    (_, i) =>
      `<div class="post"><span class="author">user${i}</span><time datetime="2024-05-2${i}">2 years ago</time><p>Reply ${i}: it will work, but do not expect it to be easy.</p></div>`,
  ).join('');
  const html = page(`<main><h1>Will this method work?</h1>${posts}</main>`, `${ogArticle}${ld([{ '@type': 'Article', headline: 'Will this method work?' }])}`);
  assert.equal(typeOf(html, 'https://www.warriorforum.example/beginners-area/1488296-will-this-method-work.html').type, 'forum');
});

test('a Product node with no Offer on a page with nothing priced is review stars: a contractor with a number to call is a service', () => {
  const stars = ld([{ '@type': 'Product', name: 'Sparks Electric', aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.9 } }]);
  const html = page(
    `<main><p>If you need an electrician in a hurry, call today (408) 748-9663. Our team is ready to help.</p><h2>Electrical services in San Jose</h2>${para(5, 'our electricians')}</main>`,
    stars,
    'Award-Winning Electricians in San Jose, CA',
  );
  assert.deepEqual(typeOf(html, 'https://sparks.example/san-jose/'), { type: 'service', reason: 'a number to call at the top' });
  // With an Offer the same node is an item for sale.
  const offer = ld([{ '@type': 'Product', name: 'Lamp', offers: { '@type': 'Offer', price: 30 } }]);
  assert.equal(typeOf(page(`<main><h1>Lamp</h1>${para(3, 'the lamp')}</main>`, offer, 'Lamp'), 'https://lamps.example/lamp-30').type, 'product');
});

test("a Lemmy post's address (/post/123) is a thread; a blog's /post/slug is not", () => {
  const thread = page(
    `<main><h1>Development update</h1>${para(3, 'the release')}${Array.from({ length: 14 }, (_, i) => `<a href="/u/user${i}">user${i}</a>`).join(' ')}</main>`,
  );
  assert.equal(typeOf(thread, 'https://lemmy.example/post/21018364').type, 'forum');
  assert.notEqual(typeOf(page(`<main><h1>Skiplagging</h1>${para(5, 'travel')}</main>`), 'https://blog.example/post/102iphi/skiplagging').type, 'forum');
});

test('"joined" counts as a forum marker only as a member\'s date, not in a manual\'s prose', () => {
  const manual = page(
    `<main><h1>1. Overview</h1>${para(3, 'the SELECT statement')}<p>The tables are joined left to right. Rows joined by a CROSS JOIN keep their order; the joined table is then filtered, and columns joined by USING merge.</p><pre><code>SELECT a FROM t1 JOIN t2;</code></pre><pre><code>SELECT b FROM t1 CROSS JOIN t2;</code></pre></main>`,
    '',
    'SELECT',
  );
  assert.equal(typeOf(manual, 'https://sql.example/lang_select.html').type, 'documentation');
});

test("headings inside cards' links (rating text, then the title) are a list of other pages", () => {
  const cards = Array.from(
    { length: 8 },
    (_, i) =>
      `<article class="cell"><a href="/recipe-${i}"><div><div><span>${20 + i} reviews</span> / <span>5 average</span></div></div><h3>Crispy air fryer dish number ${i}</h3></a></article>`,
  ).join('');
  const html = page(
    `<main><h1>Air Fryer Recipes</h1>${para(2, 'my air fryer')}<div>${cards}</div></main>`,
    ogArticle.split('<meta property="article')[0],
    'Best Air Fryer Recipes',
  );
  const { type, votes } = explainPageType(extractPage(html, 'https://yum.example/recipes/air-fryer-recipes'));
  assert.equal(type, 'listing');
  assert.ok(votes.some((v) => v.rule === 'headings that link to other pages'));
});

// --- Rules written from the confusions of the fourth set (labels-held-out-4.json, session 35's
// third round), one small page each.

test('a title that names software on offer or tutors for hire is a service, also past a short name before " - "; a ranking of software is not', () => {
  const body = `<main><h1>Our product</h1>${para(6, 'the product')}</main>`;
  const dated = '<meta property="article:published_time" content="2016-11-04T00:00:00Z">';
  assert.deepEqual(typeOf(page(body, dated, 'Free CRM Software for SMBs | Agile'), 'https://crm.example/free-crm'), {
    type: 'service',
    reason: 'a title that offers a service',
  });
  assert.equal(typeOf(page(body, '', 'HRMS - Human Resource Management Software | Vendor'), 'https://vendor.example/hcm/hrms/').type, 'service');
  assert.equal(typeOf(page(body, '', 'Online Math Tutors | State Certified'), 'https://tutoring.example/math-tutors/').type, 'service');
  assert.notEqual(typeOf(page(body, ogArticle, '5 Best Self-Employed Accounting Software'), 'https://mag.example/best-accounting-software').type, 'service');
  assert.notEqual(typeOf(page(body, ogArticle, 'What is CRM software?'), 'https://mag.example/what-is-crm-software').type, 'service');
});

test('a checker is a tool a business offers, like a calculator: service over og:type article', () => {
  const html = page(
    `<main><h1>Free SEO checker</h1>${para(6, 'your website')}<form><input name="url"></form></main>`,
    ogArticle.split('<meta property="article')[0],
    'SEO Checker | Test your website for free',
  );
  assert.deepEqual(typeOf(html, 'https://seo.example/en/seocheck/'), { type: 'service', reason: 'a tool page' });
});

test("a post of a shop's blog (/blogs/…) is a story, not the shop's department; a buy button beside a /blog-posts/ story is its rail", () => {
  const post = page(`<main><h1>Cheap laptops for students</h1>${para(6, 'laptops')}</main>`, ogArticle, 'Best Cheap Laptops for College Students');
  assert.equal(typeOf(post, 'https://shop.laptops.example/blogs/electronics/best-cheap-laptops-572076').type, 'article');
  const numbered = Array.from({ length: 4 }, (_, i) => `<h2>${i + 1}. Builder ${i}</h2>${para(3, `builder ${i}`)}`).join('');
  const story = page(`<main><h1>Which website builder is best</h1>${numbered}<button>Add to cart</button></main>`, '', 'Which Website Builder Is Best');
  assert.equal(typeOf(story, 'https://builder.example/blog-posts/which-website-builder-is-best').type, 'article');
  // The same button on an item's own address still makes it a product.
  assert.equal(
    typeOf(page(`<main><h1>Desk lamp</h1>${para(2, 'the lamp')}<button>Add to cart</button></main>`), 'https://lamps.example/products/desk-lamp').type,
    'product',
  );
});

test('a title that names a list (jobs) outweighs a category address; a directory by its address or host is a listing', () => {
  const rows = Array.from({ length: 12 }, (_, i) => `<li><a href="/jobs/${i}">Full-stack engineer ${i}</a> <span>Remote</span></li>`).join('');
  assert.equal(
    typeOf(
      page(`<main><h1>Remote jobs</h1><ul>${rows}</ul></main>`, '', 'Remote Full-Stack Programming Jobs'),
      'https://jobs.example/categories/remote-full-stack-jobs',
    ).type,
    'listing',
  );
  const trails = page(
    `<main><h1>Houston</h1>${para(4, 'the trails')}<a class="btn" href="/signup">Sign up</a></main>`,
    '',
    'Mountain Bike Trails near Houston',
  );
  assert.deepEqual(typeOf(trails, 'https://trails.example/directory/8010427/houston'), { type: 'listing', reason: 'a directory' });
  const shows = page(`<main><h1>Podcasts</h1>${para(3, 'podcasts')}</main>`, '', 'Podcast Directory');
  assert.equal(typeOf(shows, 'https://directory.podcasts.example/categories/inspect/id/62').type, 'listing');
  // A shop's category address without such a title stays a collection.
  assert.equal(
    typeOf(page(`<main><h1>Sneakers</h1>${para(3, 'sneakers')}</main>`, '', 'Sneakers'), 'https://shoes.example/browse/shoes/sneakers').type,
    'collection',
  );
});

test("lines that are each a link's text (a news aggregator's newest) are a listing, even on a news host; a dated story with linked lines is not", () => {
  const lines = Array.from(
    { length: 20 },
    (_, i) =>
      `<p>${i + 1}. <a href="https://site${i}.example/story">A story somebody shared, number ${i}</a> (site${i}.example)</p><p>${i + 3} points by <a href="/user?id=user${i}">user${i}</a> | <a href="/item?id=${i}">discuss</a></p>`,
  ).join('');
  const html = page(`<main>${lines}</main>`, '', 'New Links | Aggregator');
  assert.deepEqual(typeOf(html, 'https://news.aggregator.example/newest'), { type: 'listing', reason: 'lines that are links' });
  assert.notEqual(typeOf(page(`<main>${lines}</main>`, ogArticle, 'Links I liked this week'), 'https://news.aggregator.example/newest').type, 'listing');
});

test('a glossary entry is an article whatever its headings sell; a download page named "community" is the program\'s, not a forum', () => {
  const selling = ['Definition', 'Benefits', 'How it works', 'How much it costs', 'FAQ'].map((h) => `<h2>${h}</h2>${para(2, h.toLowerCase())}`).join('');
  const entry = page(`<main><h1>Fitness training</h1>${selling}</main>`, '', 'What is Fitness Training? | Glossary');
  assert.deepEqual(typeOf(entry, 'https://well.example/glossary/fitness-training'), { type: 'article', reason: 'a glossary entry' });
  const ide = page(
    `<main><h1>Code Studio Community</h1>${para(5, 'the editor')}</main>`,
    ogArticle.split('<meta property="article')[0],
    'Code Studio Community | Download Latest Free Version',
  );
  assert.deepEqual(typeOf(ide, 'https://studio.example/vs/community/'), { type: 'product', reason: 'a title that offers a download' });
  // A thread below a community's address stays a forum; a story about downloads is no product.
  assert.equal(typeOf(page(`<main><h1>Help</h1>${para(3, 'my problem')}</main>`), 'https://app.example/community/how-do-i-export').type, 'forum');
  assert.notEqual(
    typeOf(page(`<main>${para(6, 'downloads')}</main>`, ogArticle, 'How to download videos safely'), 'https://mag.example/download-videos').type,
    'product',
  );
});
