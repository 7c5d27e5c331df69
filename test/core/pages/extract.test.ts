// Behaviour of the main-content extractor and the content view on small hand-written pages:
// boilerplate goes, the body stays in order, metadata is read, and broken input never throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { weakBoilerplate } from '../../../src/core/pages/extract/boilerplate.ts';
import { findFirst, parseHtml } from '../../../src/core/pages/extract/dom.ts';
import { renderContentView } from '../../../src/core/pages/content-view.ts';
import { scoreDocument } from '../../../src/core/content/score.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/extract/${name}`, import.meta.url), 'utf8');

function inOrder(text: string, parts: string[]): void {
  let at = -1;
  for (const p of parts) {
    const i = text.indexOf(p, at + 1);
    assert.ok(i > at, `expected "${p}" after position ${at} in:\n${text}`);
    at = i;
  }
}

test('article: body kept in order, boilerplate removed', () => {
  const doc = extractPage(fixture('article.html'), 'https://example.com/guides/coffee');
  inOrder(doc.bodyText, [
    'How to Brew Better Coffee',
    'Good coffee starts with fresh beans',
    'Grind size',
    'Match the grind to the brewer',
    'French press: coarse',
    'Water temperature',
    'Coffee is a language in itself.',
  ]);
  for (const junk of ['cookies', 'News', 'Guides', 'Related articles', 'Ten mugs', 'Leave a comment', 'Copyright', 'Share on', 'SCRIPT_SHOULD_NOT_APPEAR']) {
    assert.ok(!doc.bodyText.includes(junk), `"${junk}" should be removed`);
  }
  assert.deepEqual(doc.headings, [
    { level: 1, text: 'How to Brew Better Coffee' },
    { level: 2, text: 'Grind size' },
    { level: 2, text: 'Water temperature' },
  ]);
  const kinds = doc.blocks.map((b) => b.kind);
  assert.ok(kinds.includes('list') && kinds.includes('quote'));
  assert.equal(doc.wordCount, doc.bodyText.match(/[\p{L}\p{N}_]+/gu)!.length);
});

test('metadata: title, description, lang, canonical, robots, og, JSON-LD with an invalid block, dates', () => {
  const doc = extractPage(fixture('article.html'), 'https://example.com/guides/coffee');
  assert.equal(doc.title, 'How to Brew Better Coffee | Bean Journal');
  assert.equal(doc.description, 'A practical guide to brewing coffee at home.');
  assert.equal(doc.language, 'en-GB');
  assert.equal(doc.canonicalUrl, 'https://example.com/guides/brew-better-coffee');
  assert.equal(doc.metaRobots, 'index, follow');
  assert.deepEqual(doc.openGraph, { title: 'How to Brew Better Coffee', type: 'article' });
  assert.equal(doc.jsonLd.length, 1);
  assert.equal((doc.jsonLd[0] as { '@type': string })['@type'], 'Article');
  assert.equal(doc.jsonLdErrors, 1);
  // JSON-LD wins over the meta tag; all sources are listed in found.
  assert.equal(doc.dates.published, '2024-03-02T09:30:00.000Z');
  assert.equal(doc.dates.modified, '2024-04-10T12:00:00.000Z');
  assert.ok(doc.dates.found.includes('2024-03-01T08:00:00.000Z')); // article:published_time
  assert.ok(doc.dates.found.includes('2024-03-02T00:00:00.000Z')); // <time datetime>
  assert.ok(doc.links.all.some((l) => l.href === 'https://example.com/privacy' && l.text === 'Privacy policy'));
});

test('dates from <time> and meta alone', () => {
  const html = `<html><head><meta name="date" content="2023-07-04"></head><body><article><p>Posted <time datetime="2023-07-05T10:00:00+02:00">yesterday</time></p><p>${'Some words of the story. '.repeat(10)}</p></article></body></html>`;
  const doc = extractPage(html, 'https://example.com/');
  assert.equal(doc.dates.published, '2023-07-04T00:00:00.000Z');
  assert.ok(doc.dates.found.includes('2023-07-05T08:00:00.000Z'));
});

test('product page: description, features and specs kept; menus and recommendations removed', () => {
  const doc = extractPage(fixture('product.html'), 'https://shop.example.com/p/trail-runner-3');
  inOrder(doc.bodyText, ['Trail Runner 3', '$129.00', 'lightweight shoe built for rocky paths', 'Vibram rubber outsole', 'Stack height']);
  for (const junk of ['Free shipping', 'Women', 'Home', 'You may also like', 'Road Runner 2', '© Example']) {
    assert.ok(!doc.bodyText.includes(junk), `"${junk}" should be removed`);
  }
  assert.equal((doc.jsonLd[0] as { '@type': string })['@type'], 'Product');
});

test('documentation page: code block with language and a table with header', () => {
  const doc = extractPage(fixture('docs.html'), 'https://docs.example.com/config');
  const code = doc.blocks.find((b) => b.kind === 'code');
  assert.ok(code && code.kind === 'code');
  assert.equal(code.language, 'json');
  assert.ok(code.text.includes('"port": 8080'));
  const table = doc.blocks.find((b) => b.kind === 'table');
  assert.ok(table && table.kind === 'table');
  assert.equal(table.header, true);
  assert.deepEqual(table.rows[0], ['Key', 'Default', 'Meaning']);
  assert.deepEqual(table.rows[1], ['port', '8080', 'Port the server listens on']);
  const list = doc.blocks.find((b) => b.kind === 'list');
  assert.ok(list && list.kind === 'list' && list.ordered);
  assert.ok(!doc.bodyText.includes('Install'));
  assert.ok(!doc.bodyText.includes('Edit this page'));
});

test('forum thread: every post kept in order, sidebar removed', () => {
  const doc = extractPage(fixture('forum.html'), 'https://forum.example.com/t/1');
  inOrder(doc.bodyText, ['My starter has been sitting', 'Try switching to whole wheat', 'Temperature matters too']);
  assert.ok(!doc.bodyText.includes('Similar threads'));
  assert.ok(!doc.bodyText.includes('Log in'));
});

test('listing page: the items are the content', () => {
  const doc = extractPage(fixture('listing.html'), 'https://makers.example.com/events');
  inOrder(doc.bodyText, ['Upcoming workshops', 'Hands-on sessions', 'Intro to Woodworking', 'Screen Printing Basics', 'Ceramics for Everyone']);
  assert.ok(!doc.bodyText.includes('About'));
  assert.ok(!doc.bodyText.includes('1 Example Street'));
  assert.ok(doc.links.main.some((l) => l.href === 'https://makers.example.com/e/1' && l.text === 'Intro to Woodworking'));
});

test('broken HTML never throws and keeps what it can', () => {
  const broken =
    '<html><head><title>Broken</ti<body><div><p>Unclosed paragraph with enough words to count as text here<div><span><b>more text <![CDATA[ stray ]]> still here' +
    '<div>'.repeat(20000);
  const doc = extractPage(broken, 'https://example.com/broken');
  assert.equal(typeof doc.bodyText, 'string');
  const garbage = extractPage('<<<>>></////\u0000<script>unterminated', 'not a url');
  assert.equal(garbage.blocks.length >= 0, true);
  assert.doesNotThrow(() => extractPage(undefined as unknown as string, 'https://example.com/'));
  const cdata = extractPage(
    '<html><body><![CDATA[ x ]]><main><p>Text after a stray CDATA marker stays visible to readers.</p></main></body></html>',
    'https://example.com/',
  );
  assert.ok(cdata.bodyText.includes('Text after a stray CDATA marker'));
});

test('empty page gives an empty document', () => {
  for (const html of ['', '<html><head></head><body></body></html>', '   ']) {
    const doc = extractPage(html, 'https://example.com/empty');
    assert.equal(doc.url, 'https://example.com/empty');
    assert.equal(doc.bodyText, '');
    assert.equal(doc.wordCount, 0);
    assert.deepEqual(doc.blocks, []);
    assert.equal(doc.title, null);
  }
});

test('content view: exact format for a small page', () => {
  const html = `<!doctype html><html lang="en"><head><title>Tea Guide | Leaf Co</title>
    <meta name="description" content="How to steep tea.">
    <script>var x = 1;</script></head>
    <body><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
    <div id="cookie-notice">We use cookies.</div>
    <main><h1>Tea Guide</h1>
      <p>Steep green tea at  80 degrees
      for two minutes, and black tea a little longer.</p>
      <h2>Steps</h2>
      <ol><li>Heat the water.</li><li>Add the <a href="/leaves">leaves</a>.</li></ol>
      <ul><li>Loose leaf</li><li>Bags</li></ul>
      <table><tr><th>Tea</th><th>Minutes</th></tr><tr><td>Green</td><td>2</td></tr><tr><td>Black</td><td>4</td></tr></table>
      <pre><code class="language-sh">brew --tea green</code></pre>
      <blockquote>Tea is liquid wisdom.</blockquote>
    </main>
    <footer>© Leaf Co</footer></body></html>`;
  const view = renderContentView(extractPage(html, 'https://leaf.example.com/guide'));
  assert.equal(
    view,
    [
      '# Tea Guide | Leaf Co',
      '',
      'How to steep tea.',
      '',
      'Steep green tea at 80 degrees for two minutes, and black tea a little longer.',
      '',
      '## Steps',
      '',
      '1. Heat the water.',
      '2. Add the leaves.',
      '',
      '- Loose leaf',
      '- Bags',
      '',
      '| Tea | Minutes |',
      '| --- | --- |',
      '| Green | 2 |',
      '| Black | 4 |',
      '',
      '```sh',
      'brew --tea green',
      '```',
      '',
      '> Tea is liquid wisdom.',
      '',
    ].join('\n'),
  );
  // Deterministic: the same page renders to the same bytes.
  assert.equal(renderContentView(extractPage(html, 'https://leaf.example.com/guide')), view);
});

const prose = (topic: string) =>
  `<p>${topic} is explained here in full sentences, with enough words and commas to read as prose, and then some more detail about ${topic}.</p>`;

test('a hidden box that holds most of the page is kept (streamed server rendering), small hidden boxes go', () => {
  const html =
    `<html><body><div hidden id="S:0"><main><h1>Guide</h1>${prose('Batteries')}${prose('Charging')}${prose('Range')}</main></div>` +
    `<div class="d-none">Secret promo text</div><div hidden>Hidden note</div></body></html>`;
  const doc = extractPage(html, 'https://example.com/guide');
  inOrder(doc.bodyText, ['Batteries is explained', 'Charging is explained', 'Range is explained']);
  for (const junk of ['Secret promo text', 'Hidden note']) assert.ok(!doc.bodyText.includes(junk), `"${junk}" should be removed`);
});

test('short calls to action drawn as buttons and form captions are removed, the prose around them stays', () => {
  const html =
    `<html><body><main><h1>Plumbing services</h1>${prose('Leak repair')}<a class="btn btn-primary" href="/book">Book now</a>` +
    `${prose('Drain cleaning')}<div class="cta"><a href="/quote">Get a free quote</a></div>${prose('Water heaters')}` +
    `<form><fieldset><legend>Choose a visit time</legend><label>Morning</label></fieldset></form></main></body></html>`;
  const doc = extractPage(html, 'https://example.com/services');
  inOrder(doc.bodyText, ['Leak repair is explained', 'Drain cleaning is explained', 'Water heaters is explained']);
  for (const junk of ['Book now', 'Get a free quote', 'Choose a visit time', 'Morning']) assert.ok(!doc.bodyText.includes(junk), `"${junk}" should be removed`);
});

test('the chosen box is narrowed to the child that holds nearly all of its prose', () => {
  const html =
    `<html><body><div class="page"><div class="hero"><p>Spring sale on now across the whole shop</p></div>` +
    `<div class="story">${prose('Sourdough')}${prose('Starters')}${prose('Proofing')}${prose('Baking')}</div></div></body></html>`;
  const doc = extractPage(html, 'https://example.com/bread');
  inOrder(doc.bodyText, ['Sourdough is explained', 'Baking is explained']);
  assert.ok(!doc.bodyText.includes('Spring sale'));
});

test('inline display:none boxes go (sign-in dialogs), collapsed accordion answers stay', () => {
  const html =
    `<html><body><main><h1>Hiking boots</h1>${prose('Waterproofing')}` +
    `<div class="account-signin" style="display: none"><p>Enter your email to sign in or create an account, we will check for you and send a link.</p></div>` +
    `<div class="faq"><h2>How do they fit?</h2><div class="accordion-body" style="display:none">${prose('Sizing')}</div></div>${prose('Resoling')}</main></body></html>`;
  const doc = extractPage(html, 'https://example.com/boots');
  inOrder(doc.bodyText, ['Waterproofing is explained', 'Sizing is explained', 'Resoling is explained']);
  assert.ok(!doc.bodyText.includes('Enter your email'));
});

test('product page: a rail of other products goes with its title, the next section stays', () => {
  const card = (n: number) => `<li class="card"><a href="/p/${n}">Other kettle ${n}</a><span>$${n}9.00</span></li>`;
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Steel kettle</h1><p>$49.00</p>` +
    `${prose('Boiling')}${prose('Pouring')}` +
    `<section><div class="head"><h2>Customers also viewed</h2><a href="/more">See all</a></div><ul>${[1, 2, 3, 4, 5].map(card).join('')}</ul></section>` +
    `<section><h2>Specifications</h2>${prose('Capacity')}</section></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/kettle');
  inOrder(doc.bodyText, ['Steel kettle', 'Boiling is explained', 'Specifications', 'Capacity is explained']);
  for (const junk of ['Customers also viewed', 'Other kettle', 'See all', '$19.00']) assert.ok(!doc.bodyText.includes(junk), `"${junk}" should be removed`);
});

test('a box named for its pager that wraps the whole product grid is not dropped as a pager', () => {
  const card = (n: number) => `<div class="card"><a href="/p/${n}">Graphic tee number ${n}</a><p>Oversized fit</p><p>$${n}6</p></div>`;
  const html =
    `<html><body><main><h1>T-shirts</h1><div class="filtering-and-pagination_container"><div class="grid">${[1, 2, 3, 4, 5, 6, 7, 8, 9].map(card).join('')}</div>` +
    `<div class="pagination-bottom">Viewing 1 - 9 of 40 products</div></div><div class="seo">${prose('Workout shirts')}${prose('Fabrics')}</div></main></body></html>`;
  const doc = extractPage(html, 'https://example.com/collections/tees');
  inOrder(doc.bodyText, ['Graphic tee number 1', 'Graphic tee number 9', 'Workout shirts is explained']);
});

test('a thin page keeps its few short lines: they are its content, not fragments to drop', () => {
  const doc = extractPage(
    '<html><body><main><h1>Tempo Road Racer</h1><p>A light shoe for tempo runs. $159.</p><p><button>Add to cart</button></p></main></body></html>',
    'https://shop.example.com/products/road-racer',
  );
  inOrder(doc.bodyText, ['Tempo Road Racer', 'A light shoe for tempo runs. $159.']);
  // Lines too short to count as prose still belong to a thin page's <main>, not only its heading.
  const shorter = extractPage(
    '<html><body><nav><a href="/">Home</a> <a href="/shoes">Shoes</a></nav><main><h1>Tempo Road Racer</h1><p>Fast road shoe. $159.</p></main></body></html>',
    'https://shop.example.com/road-racer',
  );
  assert.equal(shorter.bodyText, 'Tempo Road Racer\n\nFast road shoe. $159.');
});

test("product page: the shop's shipping, returns and warranty boxes go, the description stays", () => {
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Stoneware mug</h1><p>$32.00</p>` +
    `${prose('Glaze')}${prose('Handle')}<div class="shipping-and-returns"><p>Returns accepted within 14 days; buyers pay return shipping costs unless the item arrived damaged.</p></div>` +
    `${prose('Capacity')}</main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/mug');
  inOrder(doc.bodyText, ['Stoneware mug', 'Glaze is explained', 'Capacity is explained']);
  assert.ok(!doc.bodyText.includes('Returns accepted'));
});

test('a listing keeps its intro and items and drops the facets beside them', () => {
  const card = (n: number) => `<li class="product-card"><a href="/p/${n}">Silver earring model ${n}</a><span>$${n}5.00</span></li>`;
  const facet = (name: string, n: number) => `<div class="facet-value"><span>${name}</span> <span>(${n})</span></div>`;
  const html =
    `<html><body><main><h1>Silver earrings</h1>${prose('Sterling silver jewellery')}` +
    `<div class="filter-panel"><h3>Material</h3>${facet('Sterling silver', 12)}${facet('Gold plated', 4)}<h3>Stone</h3>${facet('Pearl', 3)}${facet('Cubic zirconia', 7)}</div>` +
    `<ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul>${prose('Caring for silver')}</main></body></html>`;
  const doc = extractPage(html, 'https://example.com/c/earrings');
  inOrder(doc.bodyText, ['Sterling silver jewellery is explained', 'Silver earring model 1', 'Silver earring model 8', 'Caring for silver is explained']);
  for (const junk of ['Gold plated', 'Cubic zirconia', 'Material']) assert.ok(!doc.bodyText.includes(junk), `"${junk}" should be removed`);
});

test('product page: an untitled list of other products (name and price cards) goes; a product page without its own price keeps it', () => {
  const card = (n: number) =>
    `<div class="tile"><a href="/p/${n}">Kettle model ${n}</a><p>Brushed steel, 1.7 litres, whistling lid</p><span>$${n}9.00</span></div>`;
  const page = (price: string, og = 'product') =>
    `<html><head><meta property="og:type" content="${og}"></head><body><main><h1>Steel kettle</h1>${price}` +
    `${prose('Boiling')}${prose('Pouring')}<div class="strip">${[1, 2, 3, 4].map(card).join('')}</div>${prose('Capacity')}</main></body></html>`;
  const doc = extractPage(page('<p>$49.00</p>'), 'https://shop.example.com/kettle');
  inOrder(doc.bodyText, ['Steel kettle', 'Boiling is explained', 'Capacity is explained']);
  assert.ok(!doc.bodyText.includes('Kettle model'));
  // No price of its own outside the cards: a category page that calls itself a product.
  const listing = extractPage(page(''), 'https://shop.example.com/kettles');
  inOrder(listing.bodyText, ['Boiling is explained', 'Kettle model 1', 'Kettle model 4', 'Capacity is explained']);
  // og:type product.group: a shop's collection.
  const group = extractPage(page('<p>$49.00</p>', 'product.group'), 'https://shop.example.com/kettles');
  inOrder(group.bodyText, ['Boiling is explained', 'Kettle model 1', 'Kettle model 4', 'Capacity is explained']);
});

test("product page: the product's own slider of feature slides stays (carousel and slider name a layout, not other products)", () => {
  const slide = (topic: string) => `<li class="swiper-slide"><h3>${topic}</h3>${prose(topic)}</li>`;
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Trail pack</h1><p>$99.00</p>${prose('Frame')}` +
    `<div class="feature-carousel"><ul>${slide('Rain cover')}${slide('Hydration sleeve')}</ul></div>${prose('Hip belt')}</main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/trail-pack');
  inOrder(doc.bodyText, ['Frame is explained', 'Rain cover is explained', 'Hydration sleeve is explained', 'Hip belt is explained']);
});

test('product page: a details section named FAQ is not taken for a part of the description', () => {
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Trail pack</h1><p>$99.00</p>` +
    `<p>Ships in two days from our warehouse; free returns within thirty days of delivery.</p>` +
    `<div class="details-section" id="description">${prose('Frame')}${prose('Hip belt')}</div>` +
    `<div class="details-section" id="faq"><h2>Questions</h2>${prose('Carry-on size')}</div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/trail-pack');
  inOrder(doc.bodyText, ['Frame is explained', 'Hip belt is explained']);
  assert.ok(!doc.bodyText.includes('Carry-on size'), doc.bodyText);
});

test("a banner box is a promotion beside a product's description, but on other pages it may hold the page's own intro", () => {
  const card = (n: number) =>
    `<li class="product-card"><a href="/p/${n}">Leather wallet model ${n}</a><p>Slim, holds twelve cards and cash</p><span>$${n}5.00</span></li>`;
  const collection =
    `<html><body><main><div class="collection-banner"><h1>Wallets</h1>${prose('Slim wallets')}</div>` +
    `<ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul>${prose('Caring for leather')}${prose('Engraving')}</main></body></html>`;
  const doc = extractPage(collection, 'https://shop.example.com/collections/wallets');
  inOrder(doc.bodyText, ['Slim wallets is explained', 'Leather wallet model 1', 'Caring for leather is explained']);
  const product =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Slim wallet</h1><p>$45.00</p>${prose('Leather')}` +
    `<div class="sale-banner">${prose('Spring sale')}</div>${prose('Stitching')}${prose('Card slots')}</main></body></html>`;
  const pdoc = extractPage(product, 'https://shop.example.com/slim-wallet');
  inOrder(pdoc.bodyText, ['Leather is explained', 'Stitching is explained', 'Card slots is explained']);
  assert.ok(!pdoc.bodyText.includes('Spring sale'));
});

test('a role=tablist box that holds paragraphs is an accordion (FAQ answers), not a row of tabs', () => {
  const qa = (q: string) => `<div role="tab"><h3>${q}?</h3></div><div role="tabpanel">${prose(q)}</div>`;
  const html =
    `<html><body><main><h1>Charcoal grills</h1>${prose('Charcoal')}${prose('Airflow')}${prose('Grates')}${prose('Lids')}<div role="tablist">${qa('Lighting')}${qa('Cleaning')}${qa('Storing')}</div>` +
    `<div role="tablist"><a href="#a">Specs</a><a href="#b">Reviews</a></div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/charcoal-grills');
  inOrder(doc.bodyText, ['Charcoal is explained', 'Lighting?', 'Lighting is explained', 'Cleaning is explained', 'Storing is explained']);
  assert.ok(!doc.bodyText.includes('Specs'));
});

test("React's streamed segments land in their placeholder (P:n, $RS) as in their Suspense boundary (B:n, $RC)", () => {
  const html =
    `<html><body><main><h1>Meal shake</h1>${prose('Protein')}<template id="P:1"></template>${prose('Fibre')}<template id="B:2"></template></main>` +
    `<footer>${prose('Our company')}</footer><div hidden id="S:1">${prose('Vitamins')}${prose('Minerals')}</div><div hidden id="S:2">${prose('Flavours')}</div>` +
    `<script>$RS("S:1","P:1");$RC("B:2","S:2")</script></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/shake');
  inOrder(doc.bodyText, ['Protein is explained', 'Vitamins is explained', 'Minerals is explained', 'Fibre is explained', 'Flavours is explained']);
});

test('a page drawn by script, whose static HTML leaves only a few words of chrome unrelated to its title, has no main content', () => {
  const shell =
    `<html><head><title>Trail Runner 3 waterproof shoe - ShopCo</title></head><body><div id="root"></div>` +
    `<footer><h4>ShopCo Multi-Language Sites</h4><a href="/de">Deutsch</a> <a href="/fr">Français</a></footer></body></html>`;
  const doc = extractPage(shell, 'https://www.shopco.com/item/123.html');
  assert.equal(doc.bodyText, '');
  assert.equal(doc.wordCount, 0);
  assert.deepEqual(doc.links.main, []);
  // A thin page whose few words name what its title names keeps them.
  const thin = extractPage(
    '<html><head><title>Tempo Road Racer | ShopCo</title></head><body><main><h1>Tempo Road Racer</h1><p>Fast road shoe. $159.</p></main></body></html>',
    'https://www.shopco.com/road-racer',
  );
  assert.equal(thin.bodyText, 'Tempo Road Racer\n\nFast road shoe. $159.');
});

// Broken HTML that never closes its tags must cost work and memory linear in the page: the tree's
// depth is capped (deeper elements flatten under the element at the cap, as in browsers), the
// parser forgets its outermost open tags past a bound, and a link's text stops at nested links.
test('unclosed tags: the tree stays shallow and the content stays', async () => {
  const { parseHtml, MAX_TREE_DEPTH } = await import('../../../src/core/pages/extract/dom.ts');
  const root = parseHtml('<html><body>' + '<div>'.repeat(10_000) + 'deepest words');
  let maxDepth = 0;
  let text = '';
  const stack: [any, number][] = [[root, 0]];
  while (stack.length) {
    const [n, d] = stack.pop()!;
    maxDepth = Math.max(maxDepth, d);
    if (n.type === 'text') text += n.data;
    for (const c of n.children ?? []) stack.push([c, d + 1]);
  }
  assert.ok(maxDepth <= MAX_TREE_DEPTH + 1, `depth ${maxDepth}`);
  assert.equal(text, 'deepest words');
  assert.match(
    extractPage('<html><body><main>' + '<nav><div>'.repeat(20_000) + '</main><p>After the mess, a paragraph of real text.</p>', 'https://example.com/')
      .bodyText,
    /After the mess/,
  );
});

test("htmlparser2's open-tag stacks are where the parser guard expects them", async () => {
  // parseHtml trims these private arrays; a library upgrade that renames them must fail here.
  const { Parser } = await import('htmlparser2');
  const { parserStacks } = await import('../../../src/core/pages/extract/dom.ts');
  const parser = new Parser({});
  parser.write('<div><span>');
  const stacks = parserStacks(parser);
  assert.ok(stacks, 'Parser has stack and foreignContext arrays');
  assert.deepEqual(stacks.stack, ['span', 'div']);
});

test('nested unclosed links: each link keeps its own bounded text', () => {
  const html = '<html><body>' + '<a href="/x">ab '.repeat(8000) + '<a href="/long">' + 'long '.repeat(1000) + '</a>';
  const doc = extractPage(html, 'https://example.com/');
  assert.equal(doc.links.all.length, 8001);
  const total = doc.links.all.reduce((n, l) => n + l.text.length, 0);
  assert.ok(total <= html.length, `link text ${total} chars for ${html.length} chars of HTML`);
  assert.equal(doc.links.all[0]!.text, 'ab');
  assert.ok(doc.links.all.every((l) => l.text.length <= 300));
  const closed = extractPage('<html><body><p><a href="/y">' + 'word '.repeat(200) + '</a></p>', 'https://example.com/');
  assert.equal(closed.links.all[0]!.text.length, 299, 'a long label is cut at 300 characters, trailing space trimmed');
});

test('a grid wrapper named for the facets beside it is looked into: the facets go, the grid stays', () => {
  const card = (n: number) => `<li class="product-card"><a href="/p/${n}">Wool sock model ${n}</a><span>$${n}2.00</span></li>`;
  const facet = (name: string) =>
    `<details class="facet-group"><summary>${name}</summary><ul><li><span>${name} one</span> <span>(12)</span></li><li><span>${name} two</span> <span>(3)</span></li></ul></details>`;
  const html =
    `<html><body><main><h1>Wool socks</h1><div class="collection-grid facets-vertical">` +
    `<div class="facet-list">${facet('Cup style')}${facet('Cushioning')}${facet('Availability')}</div>` +
    `<ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul></div></main></body></html>`;
  const main = findFirst(parseHtml(html), 'main')!;
  const weak = weakBoilerplate(main);
  assert.deepEqual(
    weak.map((el) => el.attribs.class),
    ['facet-list'],
  );
});

test("a page footer beside the page's <main> goes even when its legal notes are most of the page's text", () => {
  const note = (n: number) => `<li><small>${n}. ${prose(`Trade-in offer ${n}`).replace(/<\/?p>/g, '')}</small></li>`;
  const html =
    `<html><body><main><h1>Smart watches</h1><p>Our watches track your runs and your sleep.</p>` +
    `<ul><li><a href="/w/1">Watch One</a> From $399</li><li><a href="/w/2">Watch Two</a> From $249</li></ul></main>` +
    `<footer role="contentinfo"><ul>${[1, 2, 3, 4, 5, 6].map(note).join('')}</ul></footer></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/watch/');
  inOrder(doc.bodyText, ['Smart watches', 'Our watches track', 'Watch One', 'Watch Two']);
  assert.ok(!doc.bodyText.includes('Trade-in offer'), doc.bodyText);
});

test('labels set side by side in markup without a space (badge, brand, name) stay separate words; a word split by markup stays whole', () => {
  const card = (n: number) =>
    `<li class="card"><a href="/p/${n}"><span>Top Rated</span><span>Merrell</span><span>Moab ${n} Hiking Boot</span></a> <span>$1${n}0.00</span></li>`;
  const html =
    `<html><body><main><h1>Hiking boots</h1><p>Boots for every trail: we test them on rock, mud and snow. Our i<b>P</b>hone app and <b>Gore</b>-Tex guide help you choose.</p>` +
    `<ul>${[1, 2, 3, 4, 5].map(card).join('')}</ul></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/c/hiking-boots');
  inOrder(doc.bodyText, ['iPhone app and Gore-Tex guide', 'Top Rated Merrell Moab 1 Hiking Boot', 'Top Rated Merrell Moab 5 Hiking Boot']);
});

test('a short role=status line (a screen-reader announcement of the result count) is not content', () => {
  const card = (n: number) => `<li class="card"><a href="/p/${n}">Headlamp model ${n}</a> <span>$${n}4.95</span></li>`;
  const html =
    `<html><body><main><div role="status">Loaded 52 results</div><h1>Headlamps</h1>` +
    `<p>Headlamps for camping, running and climbing, tested by our staff on long winter nights.</p><ul>${[1, 2, 3, 4, 5].map(card).join('')}</ul></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/c/headlamps');
  inOrder(doc.bodyText, ['Headlamps', 'tested by our staff', 'Headlamp model 1', 'Headlamp model 5']);
  assert.ok(!doc.bodyText.includes('Loaded 52 results'), doc.bodyText);
});

test("a disclaimer box is small print beside any page's content; a product page's footnotes are too", () => {
  const article =
    `<html><body><main><h1>Index funds</h1>${prose('Fees')}${prose('Diversification')}${prose('Rebalancing')}` +
    `<div class="legal-disclaimer">${prose('Not financial advice')}</div></main></body></html>`;
  const doc = extractPage(article, 'https://news.example.com/index-funds');
  inOrder(doc.bodyText, ['Fees is explained', 'Diversification is explained', 'Rebalancing is explained']);
  assert.ok(!doc.bodyText.includes('Not financial advice'), doc.bodyText);
  const product =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Phone X</h1><p>$799.00</p>${prose('Camera')}${prose('Battery')}` +
    `<ol class="feature-footnotes">${['Image simulated', 'Battery life measured in lab conditions'].map((t) => `<li>${prose(t)}</li>`).join('')}</ol></main></body></html>`;
  const pdoc = extractPage(product, 'https://shop.example.com/phone-x');
  inOrder(pdoc.bodyText, ['Camera is explained', 'Battery is explained']);
  assert.ok(!pdoc.bodyText.includes('Image simulated') && !pdoc.bodyText.includes('lab conditions'), pdoc.bodyText);
});

test("a box named header inside <main> heads a section there (an item's terms line); the site's header outside <main> goes", () => {
  const html =
    `<html><body><div class="header"><p>Free shipping on every order over fifty dollars, today and every day of the week.</p></div>` +
    `<main><h1>Brass lamp</h1>${prose('Shade')}${prose('Base')}<div class="details-tab-header"><p>Seller assumes all responsibility for this listing, item number 2741.</p></div>${prose('Wiring')}</main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/brass-lamp');
  inOrder(doc.bodyText, ['Shade is explained', 'Base is explained', 'Seller assumes all responsibility', 'Wiring is explained']);
  assert.ok(!doc.bodyText.includes('Free shipping'), doc.bodyText);
});

test("a shop theme's card gives its name and price once: the picture area's text-only title and the price state not shown go", () => {
  const card = (n: number, sale: boolean) =>
    `<li class="grid__item"><div class="card card--standard card--media"><div class="card__inner"><div class="card__media"><img alt=""></div>` +
    `<div class="card__content"><div class="card__information"><h3 class="card__heading"><a href="/products/${n}">Roast ${n} Coffee</a></h3></div></div></div>` +
    `<div class="card__content"><div class="card__information"><h3 class="card__heading"><a href="/products/${n}">Roast ${n} Coffee</a></h3>` +
    `<div class="price${sale ? ' price--on-sale' : ''}"><div class="price__container"><div class="price__regular"><span class="price-item">$${n}9.99</span></div>` +
    `<div class="price__sale"><span class="price-item price-item--sale">$${n}5.99</span> <s class="price-item">$${n}9.99</s></div></div></div></div></div></div></li>`;
  const html =
    `<html><body><main><h1>Coffee</h1><p>Whole bean and ground coffee, roasted every week in small batches.</p>` +
    `<ul class="product-grid">${[1, 2, 3, 4].map((n) => card(n, n === 4)).join('')}</ul></main></body></html>`;
  const text = extractPage(html, 'https://shop.example.com/collections/coffee').bodyText;
  inOrder(text, ['Roast 1 Coffee', '$19.99', 'Roast 2 Coffee', 'Roast 4 Coffee', '$45.99', '$49.99']);
  assert.equal(text.split('Roast 1 Coffee').length, 2, text);
  assert.equal(text.split('$19.99').length, 2, text);
  assert.ok(!text.includes('$15.99'), text);
});

test("a listing's counters and sort controls ('Showing 1–24 of 240 results', 'Sort by: Best Match', '(52 products)') are not content; a heading that starts with 'Sort' is", () => {
  const card = (n: number) => `<li class="card"><a href="/p/${n}">Tent model ${n}</a> <span>$${n}49.00</span></li>`;
  const html =
    `<html><body><main><h1>Tents</h1><p>(52 products)</p><div><span>Showing 1–24 of 240 results</span></div><div>Sort by: Best Match</div><div>View:</div>` +
    `<h2>Sort out your campsite</h2><p>Tents for backpacking and car camping, pitched and tested by our staff in wind and rain.</p>` +
    `<ul>${[1, 2, 3, 4, 5].map(card).join('')}</ul><p>1–24 of 240</p></main></body></html>`;
  const text = extractPage(html, 'https://shop.example.com/c/tents').bodyText;
  inOrder(text, ['Tents', 'Sort out your campsite', 'pitched and tested', 'Tent model 1', 'Tent model 5']);
  for (const gone of ['52 products', 'Showing 1', 'Best Match', 'View:', '1–24 of 240']) assert.ok(!text.includes(gone), `${gone} in:\n${text}`);
});

test('on a product page a line repeated in another box (case and punctuation aside) is written once; elsewhere repeated lines stay', () => {
  const product =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Trail runner</h1><p>$120.00</p>${prose('Grip')}` +
    `<ul><li>Weight: 280 g</li><li>Drop: 6 mm</li></ul>${prose('Cushioning')}<h2>Specifications</h2>` +
    `<table><tr><td>Weight</td><td>280 g</td></tr><tr><td>Upper</td><td>Recycled mesh</td></tr></table><div class="sticky-bar"><p>$120.00</p></div></main></body></html>`;
  const doc = extractPage(product, 'https://shop.example.com/trail-runner');
  inOrder(doc.bodyText, ['Trail runner', '$120.00', 'Grip is explained', 'Weight: 280 g', 'Drop: 6 mm', 'Cushioning is explained', 'Specifications', 'Upper']);
  assert.equal(doc.bodyText.split('$120.00').length, 2, doc.bodyText);
  assert.equal(doc.bodyText.split('280 g').length, 2, doc.bodyText);
  const article =
    `<html><body><main><h1>Two recipes</h1><h2>Pancakes</h2><ul><li>Flour</li><li>Two eggs</li></ul>${prose('Batter')}` +
    `<h2>Waffles</h2><ul><li>Flour</li><li>Butter</li></ul>${prose('Iron')}</main></body></html>`;
  const adoc = extractPage(article, 'https://blog.example.com/two-recipes');
  assert.equal(adoc.bodyText.split('Flour').length, 3, adoc.bodyText);
});

test('a page whose microdata holds one schema.org Product is a product page; several Product items are a list', () => {
  const rail = `<section><h2>Customers also viewed</h2>${prose('Other kettle')}${prose('Another kettle')}</section>`;
  const product =
    `<html><body><main><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Gooseneck kettle</h1><p>$89.00</p>` +
    `${prose('Pour control')}${prose('Temperature hold')}${prose('Base')}</div>${rail}</main></body></html>`;
  const doc = extractPage(product, 'https://shop.example.com/gooseneck-kettle');
  inOrder(doc.bodyText, ['Gooseneck kettle', 'Pour control is explained', 'Base is explained']);
  assert.ok(!doc.bodyText.includes('Other kettle'), doc.bodyText);
  const item = (n: number) => `<div itemscope itemtype="https://schema.org/Product"><h2>Kettle ${n}</h2>${prose(`Kettle ${n} body`)}</div>`;
  const list = `<html><body><main><h1>Kettle reviews</h1>${item(1)}${item(2)}${rail}</main></body></html>`;
  const ldoc = extractPage(list, 'https://blog.example.com/kettles');
  inOrder(ldoc.bodyText, ['Kettle 1 body is explained', 'Kettle 2 body is explained', 'Other kettle is explained']);
});

test("a product shown without a price (sold out) still loses a minority list of other products' cards", () => {
  const card = (n: number) => `<li class="card"><a href="/p/${n}">Mug model ${n}</a><span>$${n}2.00</span></li>`;
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Stoneware mug</h1><p>Currently unavailable.</p>` +
    `${prose('Glaze')}${prose('Handle')}${prose('Capacity')}${prose('Care')}<ul class="carousel">${[1, 2, 3, 4].map(card).join('')}</ul></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/stoneware-mug');
  inOrder(doc.bodyText, ['Stoneware mug', 'Glaze is explained', 'Care is explained']);
  assert.ok(!doc.bodyText.includes('Mug model'), doc.bodyText);
});

test('placeholder copy (a paragraph starting "Lorem ipsum") left in a template is not content', () => {
  const html =
    `<html><body><main><h1>Card wallet</h1>${prose('Leather')}${prose('Slots')}` +
    `<div class="slide"><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p></div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/card-wallet');
  inOrder(doc.bodyText, ['Leather is explained', 'Slots is explained']);
  assert.ok(!/lorem/i.test(doc.bodyText), doc.bodyText);
});

test("a product page's buy box (delivery options, sellers, add to cart) is the shop's widget, not the description", () => {
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Countertop blender</h1>${prose('Motor')}${prose('Pitcher')}${prose('Blades')}` +
    `<div id="buy-box-container"><p>Current price is $179.00</p><p>How do you want your item? Pickup today, delivery today, or shipping that arrives tomorrow.</p><p>Sold and shipped by the store</p></div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/blender');
  inOrder(doc.bodyText, ['Countertop blender', 'Motor is explained', 'Blades is explained']);
  assert.ok(!doc.bodyText.includes('How do you want your item'), doc.bodyText);
});

test('on a product page a list of tiles that are each one link around a title (no price in the HTML) is other products', () => {
  const tile = (n: number) =>
    `<div class="tile"><a href="/p/${n}"><div><h2>Bookcase model ${n}, five tiers of oak shelving with iron frame</h2></div></a></div>`;
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Executive chair</h1><p>$273.99</p>${prose('Upholstery')}${prose('Casters')}${prose('Armrests')}` +
    `<section><div class="rail">${[1, 2, 3, 4, 5, 6].map(tile).join('')}</div></section>${prose('Warranty terms')}</main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/executive-chair');
  inOrder(doc.bodyText, ['Executive chair', 'Upholstery is explained', 'Armrests is explained']);
  assert.ok(!doc.bodyText.includes('Bookcase model'), doc.bodyText);
});

test("a gallery's position, a loading placeholder and a missing image's note are widget states, not copy", () => {
  const html =
    `<html><body><main><h1>Hiking boot</h1><div class="gallery"><p>Image 1 of 8</p><p>3 of 8</p><p>Image unavailable</p></div>` +
    `${prose('Sole')}${prose('Lacing')}<div class="reviews-slot"><p>Loading reviews...</p></div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/hiking-boot');
  inOrder(doc.bodyText, ['Hiking boot', 'Sole is explained', 'Lacing is explained']);
  for (const junk of ['Image 1 of 8', '3 of 8', 'Image unavailable', 'Loading']) assert.ok(!doc.bodyText.includes(junk), `${junk} in ${doc.bodyText}`);
});

test("the JSON-LD fallback for a page drawn by script takes the product's description, never a shopper's review", () => {
  const long = (topic: string) => Array.from({ length: 8 }, (_, i) => `${topic} sentence ${i} with several more words in it.`).join(' ');
  const ld = {
    '@type': 'Product',
    name: 'Face cream',
    description: long('Described cream'),
    review: [{ '@type': 'Review', reviewBody: long('Review body'), description: long('Reviewer wrote') + ' ' + long('More of the review') }],
  };
  const html = `<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><div id="root"><h1>Face cream</h1></div></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/products/face-cream');
  assert.ok(doc.bodyText.includes('Described cream sentence 0'), doc.bodyText);
  assert.ok(!doc.bodyText.includes('Reviewer wrote'), doc.bodyText);
});

test('rails titled "Bundles & offers", "Compare options", "Consider these…" or "Featured products" beside a product are other products', () => {
  const rail = (title: string, n: number) =>
    `<section><h2>${title}</h2><ul>${[1, 2].map((i) => `<li><a href="/p/${n}${i}">Other guitar ${n}${i}</a><p>Has slight traces of use, sold as B-stock with full warranty.</p></li>`).join('')}</ul></section>`;
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Electric guitar</h1><p>£599</p>${prose('Body')}${prose('Neck')}${prose('Pickups')}${prose('Hardware')}` +
    `${rail('Bundles & offers', 1)}${rail('Compare options', 2)}${rail('Consider these available items', 3)}${rail('Featured Products', 4)}</main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/electric-guitar');
  inOrder(doc.bodyText, ['Electric guitar', 'Body is explained', 'Hardware is explained']);
  assert.ok(!doc.bodyText.includes('Other guitar'), doc.bodyText);
});

test("a CMS sidebar of widgets goes even when it holds more text than the page's short content", () => {
  const cats = ['Radios', 'Power Banks', 'Speakers', 'Cameras'];
  const html =
    `<html><body><div id="main-content"><div class="container"><div id="left-area"><h1>Gadgets</h1>` +
    `<ul class="products">${cats.map((c, i) => `<li class="product-category"><a href="/c/${i}"><h2>${c} <mark>(${i + 3})</mark></h2></a></li>`).join('')}</ul></div>` +
    `<div id="sidebar"><div class="widget woocommerce widget_product_categories"><h4 class="widgettitle">Product Categories</h4><ul>` +
    [...cats, 'Outdoor items', 'Garden tools', 'Kitchen helpers', 'Travel gear'].map((c) => `<li><a href="/c/${c}">${c}</a> <span>(12)</span></li>`).join('') +
    `</ul></div><div class="widget widget_text"><h4 class="widgettitle">Newsletter</h4><p>Sign up for our weekly deals on gadgets and outdoor gear, sent every Friday morning.</p></div></div></div></div></body></html>`;
  const text = extractPage(html, 'https://shop.example.com/product-category/gadgets/').bodyText;
  inOrder(text, ['Gadgets', 'Radios', 'Cameras']);
  for (const gone of ['Product Categories', 'Outdoor items', 'weekly deals']) assert.ok(!text.includes(gone), `${gone} in:\n${text}`);
});

test("whole lines of site chrome go (account links, call-to-action labels, badges); the same words inside a sentence, or a guide's 'Sign in' heading, stay", () => {
  const html =
    `<html><body><main><h1>Setting up your account</h1><p>Best seller</p>${prose('Profiles')}<p>Read more</p>` +
    `<h2>Sign in</h2><p>Sign in to your dashboard and open Settings, then choose a team.</p><ul><li>Log in</li><li>Register</li><li>Pick a plan that suits the team</li></ul>` +
    `<p>Click here to register</p>${prose('Billing')}<p>Shop now</p></main></body></html>`;
  const text = extractPage(html, 'https://help.example.com/setup').bodyText;
  inOrder(text, ['Setting up your account', 'Profiles is explained', 'Sign in', 'Sign in to your dashboard', 'Pick a plan', 'Billing is explained']);
  for (const gone of ['Best seller', 'Read more', 'Log in', 'Register\n', 'Click here to register', 'Shop now'])
    assert.ok(!text.includes(gone), `${gone} in:\n${text}`);
});

test('a reference list after the article is kept beside the main text (its evidence); comments and "more from" rails are not', () => {
  const body = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i} explains how adults need seven to nine hours of sleep, according to the CDC, and what happens when they sleep less for weeks.</p>`,
  ).join('');
  const html = `<html><head><title>Sleep</title></head><body><main><article><h1>How much sleep do adults need?</h1>${body}
    <figure><img src="x.png"><figcaption>Figure 1: 35% of US adults sleep less than 7 hours (CDC, 2022).</figcaption></figure></article>
    <section class="references"><h2>References</h2><ol>
      <li><a href="https://www.cdc.gov/sleep/data">CDC. Sleep and Sleep Disorders: Data and Statistics. 2022.</a></li>
      <li><a href="https://aasm.org/consensus">Watson NF et al. Recommended Amount of Sleep for a Healthy Adult. Sleep, 2015.</a></li></ol></section>
    <section class="comments"><h3>3 comments</h3><p>Great post! Reply</p></section>
    <aside class="related"><h3>More from Health</h3><ul><li><a href="/x">Ten foods for better sleep</a></li><li><a href="/y">Why naps work</a></li></ul></aside>
    </main></body></html>`;
  const doc = extractPage(html, 'https://news.example/health/sleep');
  // Beside, not in, the main text: WCXB's ground truth (and the content view) end with the article.
  assert.ok(!doc.bodyText.includes('Recommended Amount of Sleep'));
  assert.deepEqual(
    doc.page!.references!.map((r) => r.href),
    ['https://www.cdc.gov/sleep/data', 'https://aasm.org/consensus'],
  );
  assert.match(doc.page!.references![1]!.text, /Recommended Amount of Sleep for a Healthy Adult/);
  assert.ok(doc.bodyText.includes('Figure 1: 35% of US adults'), 'a data caption stays');
  assert.ok(!doc.bodyText.includes('Great post'));
  assert.ok(!doc.bodyText.includes('Ten foods for better sleep'));
});

test('sources box inside the main text: an "Article Sources" section of its own goes beside the text; a "References" title and list written in the text stay', () => {
  const body = Array.from(
    { length: 6 },
    (_, i) => `<p>Paragraph ${i} explains how advisers sell a practice, what buyers pay for recurring revenue and how long the handover takes.</p>`,
  ).join('');
  const boxed = `<html><head><title>Selling a practice</title></head><body><main><article><h1>How to sell a financial planning business</h1>${body}
    <section class="FootnotesComponent_section"><h2 id="citations">Article Sources</h2><p>All articles are reviewed by our fact-checkers.</p><ol>
      <li>\u201c2025 RIA Benchmarking Study.\u201d Charles Schwab, https://advisorservices.schwab.com/study. Accessed 4 Nov. 2025.</li>
      <li>\u201cM&amp;A Opportunities.\u201d FP Transitions, https://www.fptransitions.com/ma. Accessed 11 Apr. 2025.</li></ol></section>
    </article></main></body></html>`;
  const doc = extractPage(boxed, 'https://advice.example/sell-a-practice');
  assert.ok(doc.bodyText.includes('Paragraph 5 explains'));
  for (const gone of ['Article Sources', 'fact-checkers', 'RIA Benchmarking Study']) assert.ok(!doc.bodyText.includes(gone), `${gone} in:\n${doc.bodyText}`);
  assert.deepEqual(
    doc.page!.references!.map((r) => r.heading),
    ['Article Sources', 'Article Sources'],
  );
  assert.match(doc.page!.references![0]!.text, /RIA Benchmarking Study/);
  // The same list written in the post itself, a heading then a bare list, is the author's text.
  const written = boxed
    .replace(/<section[^>]*>/, '')
    .replace('</section>', '')
    .replace('<p>All articles are reviewed by our fact-checkers.</p>', '')
    .replace('Article Sources', 'References');
  const text = extractPage(written, 'https://advice.example/sell-a-practice').bodyText;
  inOrder(text, ['Paragraph 5 explains', 'References', 'RIA Benchmarking Study', 'M&A Opportunities']);
});

test('bare-url-sources: "Article Sources:" over bare addresses at the end of the text goes beside it; bare addresses under another title, or a sources title over written entries, stay', () => {
  const body = Array.from({ length: 5 }, (_, i) => `<p>Plant ${i} employs about two thousand people and makes dryers, ranges and water heaters for the home market.</p>`).join('');
  const page = (tail: string) => `<html><head><title>Top appliance makers</title><meta property="og:type" content="article"></head><body><main><article><h1>Top appliance makers</h1>${body}${tail}</article></main></body></html>`;
  const urls = '<p>https://finance.example.com/news/appliances-2023.html<br>https://www.maker.example/about/<br>https://www.recalls.example/2019/heaters</p>';
  const doc = extractPage(page(`<p><strong>Article Sources:</strong></p>${urls}`), 'https://blog.example/top-makers');
  assert.ok(doc.bodyText.includes('Plant 4 employs'));
  absent(doc.bodyText, ['Article Sources', 'finance.example.com', 'recalls.example']);
  assert.deepEqual(
    doc.page!.references!.map((r) => [r.heading, r.href]),
    [
      ['Article Sources', 'https://finance.example.com/news/appliances-2023.html'],
      ['Article Sources', 'https://www.maker.example/about/'],
      ['Article Sources', 'https://www.recalls.example/2019/heaters'],
    ],
  );
  const images = extractPage(page(`<h2>Image References</h2>${urls}`), 'https://blog.example/top-makers').bodyText;
  inOrder(images, ['Plant 4 employs', 'Image References', 'finance.example.com', 'recalls.example']);
  const written = extractPage(page('<p><strong>Sources:</strong></p><p>Annual report 2023, https://www.maker.example/about/</p><p>https://www.recalls.example/2019/heaters</p>'), 'https://blog.example/top-makers').bodyText;
  inOrder(written, ['Plant 4 employs', 'Sources:', 'Annual report 2023', 'recalls.example']);
});

// News pages: what sits beside the article is not the article. Each fixture under
// test/fixtures/extract/news is one class of such boxes, found by generic signals.
const news = (name: string, url: string) => extractPage(fixture(`news/${name}`), url);
const absent = (text: string, parts: string[]) => {
  for (const p of parts) assert.ok(!text.includes(p), `"${p}" should be removed from:\n${text}`);
};

test("news: a readers' comment thread under the article goes, even when it holds more prose than the article", () => {
  const doc = news('comments.html', 'https://gazette.example/news/tram-line');
  inOrder(doc.bodyText, ['ending a debate', 'first trams to carry passengers', 'only a tram would carry']);
  absent(doc.bodyText, ['thoughts on', 'Finally!', 'Buses would have been cheaper', 'Priya', 'Reply']);
});

test('news: schema.org Comment items and a "Discussion about this post" title go with their box', () => {
  const doc = news('comment-microdata.html', 'https://gazette.example/news/bread');
  inOrder(doc.bodyText, ['Every morning before dawn', 'since 1911']);
  absent(doc.bodyText, ['Discussion about this post', 'I walk my dog', 'My grandfather', 'Does anyone know']);
});

test('news: "More from …" and "Read next" rails of other stories go, boxed or as a title followed by links', () => {
  const doc = news('rails.html', 'https://gazette.example/news/coast-road');
  inOrder(doc.bodyText, ['coast road between the harbour', 'Engineers will inspect', 'two extra services']);
  absent(doc.bodyText, ['More from The Harbour Gazette', 'Ferry timetable', 'Lighthouse keeper', 'Read next', 'Who pays for the sea wall', 'harbour budget']);
});

test('news: a newsletter sign-up (a form taking only an e-mail), a paywall teaser and a share bar go; the article around them stays', () => {
  const doc = news('teasers.html', 'https://gazette.example/news/net-maker');
  inOrder(doc.bodyText, ['Anna Berg has mended', 'three weeks', 'teach a course next summer']);
  absent(doc.bodyText, ['in your inbox', 'Sign me up', 'Already a subscriber', 'keep reading', 'Share on Facebook']);
});

test('news: one-line pointers to other stories ("Related: …", "Read more: …", "Also read: …") go; prose that starts with those words stays', () => {
  const doc = news('story-links.html', 'https://gazette.example/news/night-ferry');
  inOrder(doc.bodyText, [
    'night ferry to the outer islands',
    'stranded on the mainland',
    'Related questions came up',
    "Read more: the board's report",
    'Tickets go on sale',
  ]);
  absent(doc.bodyText, ['Harbour board cuts the night ferry', "harbour's oldest ferry", "Europe's longest ferry routes"]);
});

test('news: photo credits as lines of their own (labelled, or marked as a credit) go, and so do photo captions (photo-captions-beside-article)', () => {
  const doc = news('credits.html', 'https://gazette.example/news/lifeboat');
  inOrder(doc.bodyText, ['took delivery of a new all-weather lifeboat', 'twenty-five knots', 'since 1961']);
  absent(doc.bodyText, [
    'Maria Lund',
    'Jonas Ek',
    'Harbour Gazette Pictures',
    'The new lifeboat arrives at the north quay.',
    'Photo: the crew at their first training night',
  ]);
});

test('news: a paywall pitch ("exclusive to … subscribers", "Unlock this article") and an end-of-story appeal go; prose about subscribers stays', () => {
  const doc = news('paywall.html', 'https://gazette.example/news/fish-prices');
  inOrder(doc.bodyText, ['Cod sold for more', 'twice last month', 'end of the week', "The Gazette's subscribers asked"]);
  absent(doc.bodyText, ['exclusive to Gazette+', 'Unlock this article', 'Monthly: $9', 'small favor to ask', 'Give what you can']);
});

test('news: an ad slot\'s label ("Advertisement"), a caption toggle, "End of Article" and an "Also in the news" rail go; prose about an advertisement stays', () => {
  const doc = news('labels.html', 'https://gazette.example/news/fish-market');
  inOrder(doc.bodyText, ['forty stalls', 'cold rooms', "The market's first advertisement ran", 'six days a week']);
  absent(doc.bodyText, [
    'Stalls on the first morning',
    'Show Caption',
    'Advertisement\n',
    'Advertisement.',
    'Scroll to continue',
    'End of Article',
    'Also in the news',
    'Night ferries return',
  ]);
});

test('news: outside an article (a page that declares none and has no <article>) credit-like and "Related:" lines are left alone', () => {
  const html = `<html><head><title>Harbour photo archive</title></head><body><main><h1>Harbour photo archive</h1>
    <p>The archive holds ten thousand pictures of the harbour, taken between 1890 and 1990 by the Gazette's photographers and by visitors.</p>
    <p>Photo: Jonas Ek/Reuters</p><p>Related: <a href="/archive/ships">Pictures of ships</a></p>
    <p>Prints can be ordered at the front desk, and the reading room is open on weekdays from nine to five.</p></main></body></html>`;
  inOrder(extractPage(html, 'https://gazette.example/archive').bodyText, [
    'ten thousand pictures',
    'Photo: Jonas Ek/Reuters',
    'Related: Pictures of ships',
    'Prints can be ordered',
  ]);
});

test('news: a rail title alone in its box ("ALSO IN THE NEWS" in a label widget) takes the story cards after it, whose excerpts are cut off with an ellipsis', () => {
  const doc = news('card-rail.html', 'https://islandtimes.example/news/cold-store');
  inOrder(doc.bodyText, ['second cold store, doubling', 'forty-one votes to three', 'that should not happen again']);
  absent(doc.bodyText, ['ALSO IN THE NEWS', 'School roof repairs', 'Ferry fares to rise', 'METHODIST church choir', 'Webmaster', 'Front Page']);
});

test("news: a box about the author after the article goes (named by its class, or opening with a link to the author's page on a line of its own, then a bio)", () => {
  const doc = news('author-box.html', 'https://gazette.example/news/night-market');
  inOrder(doc.bodyText, ['Friday night market is back', 'covered hall', 'Parking is free after five']);
  absent(doc.bodyText, ['Local Reporter', 'lives above a bakery', 'Gazette Desk', 'writes up press releases']);
});

test('news: author-end-note — closing lines in italics that introduce the writer or say how to reach them go; an italic closing line about something else, a plain closing paragraph about a person and an italic line inside the story stay', () => {
  const story = (closing: string) => `<html><head><title>Meditation and the brain</title><meta property="og:type" content="article"></head><body><main><article><h1>Meditation and the brain</h1>
    <p>Brains hum with electricity. Tiny pulses fire when we are awake, when we concentrate and when we sleep, and an EEG can measure what happens when we sit still.</p>
    <p><em>Ana Ruiz is a neurologist who has studied sleep for twenty years.</em> She ran the study described here with a team of eleven at the city hospital over two winters.</p>
    <p><em>"Stillness is a skill," one volunteer wrote in her diary, and the team took the line as its motto.</em></p>
    <p>Maria Lopez is the hospital's new head of research, a post she takes up in May after the study closes and its data are published.</p>
    ${closing}</article></main></body></html>`;
  const notes = `<p><em><a href="/author/mirel-zaman">Mirel Zaman</a> is the health and fitness director at the Gazette. She has covered fitness for fifteen years.</em></p>
    <p><em>Jagpreet Chhatwal is an associate professor of radiology at the medical school.</em></p>
    <p><em>Contact staff writer Jill Barshay at 212-555-0100 or jill@gazette.example.</em></p>`;
  const text = extractPage(story(notes), 'https://gazette.example/health/meditation').bodyText;
  inOrder(text, ['Brains hum with electricity', 'Ana Ruiz is a neurologist', 'Stillness is a skill', 'Maria Lopez is the hospital']);
  absent(text, ['Mirel Zaman', 'fifteen years', 'Jagpreet Chhatwal', 'Contact staff writer']);
  // An italic closing line that is not about the writer (an editor's note) stays.
  const note = extractPage(story("<p><em>This story was updated on May 2 to correct the number of volunteers.</em></p>"), 'https://gazette.example/health/meditation').bodyText;
  assert.match(note, /This story was updated on May 2/);
  // The same note in plain type, not set off in italics, is read as the story's last paragraph.
  const plain = extractPage(story('<p>Jagpreet Chhatwal is an associate professor of radiology at the medical school.</p>'), 'https://gazette.example/health/meditation').bodyText;
  assert.match(plain, /Jagpreet Chhatwal is an associate professor/);
});

test('news: reader-appeal and notices — "consider supporting our journalism", "Republish our articles for free", "Add as a trusted news source" go; prose about supporting a paper stays', () => {
  const html = `<html><head><title>Cells that solve puzzles</title><meta property="og:type" content="article"></head><body><main><article><h1>Cells that solve puzzles</h1>
    <p>Add as a Reliable and Trusted News Source</p><p>Add Now!</p>
    <p>Single cells can learn to avoid a mild shock after a few trials, researchers report, which suggests that problem solving does not need a brain at all.</p>
    <p>Readers who consider supporting the lab's open data effort can find the raw recordings online, the team said, and several schools already use them in class.</p>
    <h2>On supporting science journalism</h2>
    <p>If you're enjoying this article, consider supporting our award-winning journalism by subscribing. By purchasing a subscription you are helping to ensure the future of impactful stories.</p>
    <p>Republish our articles for free, online or in print, under a Creative Commons license.</p>
    </article></main></body></html>`;
  const text = extractPage(html, 'https://gazette.example/science/cells').bodyText;
  inOrder(text, ['Single cells can learn', 'Readers who consider supporting the lab']);
  absent(text, ['Trusted News Source', 'Add Now', 'On supporting science journalism', 'award-winning journalism', 'Republish our articles']);
});

test('news: an author link inside a paragraph of the article is not an author box', () => {
  const html = `<html><head><title>Town hall clock restored</title><meta property="og:type" content="article"></head><body><main><article><h1>Town hall clock restored</h1>
    <p>The town hall clock is running again after a year of repairs by a clockmaker from the next valley, who replaced two worn gears and cleaned the whole movement by hand.</p>
    <p><a href="/authors/jo-penn/">Jo Penn</a>, who wrote about the broken clock for this paper last spring, was there when it struck noon for the first time; she said the chime sounded just as she remembered it from school.</p>
    <p>The clock will be wound every Monday by volunteers from the history society, who have kept the key since 1952.</p></article></main></body></html>`;
  inOrder(extractPage(html, 'https://gazette.example/news/clock').bodyText, [
    'running again',
    'Jo Penn, who wrote about the broken clock',
    'wound every Monday',
  ]);
});

test('news: a photo credit set in a caption\'s source slot, or a stock-site credit ("©iStock.com/…"), goes, with the photo\'s caption', () => {
  const html = `<html><head><title>Gyms fill up in January</title><meta property="og:type" content="article"></head><body><main><article><h1>Gyms fill up in January</h1>
    <p>Gyms across the region report their busiest January in a decade, with classes booked out a week ahead and waiting lists for the early morning slots that commuters prefer.</p>
    <figure><img src="/a.jpg" alt=""><figcaption class="caption"><span class="caption__container">Pilates was the most-booked class of the month.</span><span class="caption__source">Mikolette / Getty Images</span></figcaption></figure>
    <p>Owners say the rush usually fades by March, but this year more members have signed up for a whole year rather than a month at a time.</p>
    <p>Photo credit: ©iStock.com/gorodenkoff, ©iStock.com/fizkes</p></article></main></body></html>`;
  const text = extractPage(html, 'https://gazette.example/news/gyms').bodyText;
  inOrder(text, ['busiest January in a decade', 'whole year rather than a month']);
  absent(text, ['Mikolette', 'Getty Images', 'iStock', 'Pilates was the most-booked class of the month.']);
});

test('news: between the headline and the first paragraph a sponsor\'s label, a reading time, a bare "By" and a standfirst that repeats the description go; the date stays, and so does a later line that looks like a label', () => {
  const doc = news('header-labels.html', 'https://gazette.example/deals/rower');
  inOrder(doc.bodyText, [
    'Put a rowing machine in the spare room',
    'on March 2, 2026',
    'Rowing works the legs',
    'five times a week',
    '4 min read is not a phrase',
  ]);
  absent(doc.bodyText, ['SPONSORED', 'fits under the bed, tested', '4 min read\n']);
});

test('news: a sign-up pitch as a line of its own, an SMS alert box, consent fine print, a price disclaimer and widget labels ("Share this:", "Back to top", visit counters) go; prose about a newsletter stays', () => {
  const doc = news('pitches.html', 'https://gazette.example/film/wet-weekend');
  inOrder(doc.bodyText, ['Rain is forecast', 'lighthouse keeper and his daughter', 'sign-ups doubled after the festival', 'fish-and-chip shop']);
  absent(doc.bodyText, [
    'Screen Time newsletter',
    'Be the first to know',
    'texted right to your phone',
    'By signing up',
    'Thanks for signing up',
    'Prices were accurate',
    'Share this',
    'Visited 1,902',
    'Back to top',
  ]);
});

test('news: paywall pitches in French and German ("Cet article est réservé aux abonnés", "Weiterlesen mit …") go with their box; prose about subscribers stays', () => {
  const para = (t: string) => `<p>${t}</p>`;
  const fr = `<html lang="fr"><head><title>Vendanges précoces</title><meta property="og:type" content="article"></head><body><main><article><h1>Vendanges précoces</h1>
    ${para("Les premiers sécateurs sont sortis mardi dans les vignes du Beaujolais, près de trois semaines plus tôt qu'une année ordinaire, après un été très chaud.")}
    ${para('Les abonnés du journal ont été nombreux à nous écrire pour raconter leurs propres vendanges, dont certaines ont commencé dès le 15 août.')}
    <section class="paywall"><p>Cet article est réservé aux abonnés.</p><p>Il vous reste 40 % de cet article à lire.</p><a href="/abo">Je m'abonne</a> <a href="/login">Déjà abonné ? Se connecter</a></section></article></main></body></html>`;
  const frText = extractPage(fr, 'https://courrier.example/vendanges').bodyText;
  inOrder(frText, ['premiers sécateurs', 'Les abonnés du journal ont été nombreux']);
  absent(frText, ['réservé aux abonnés', 'Il vous reste', 'Déjà abonné']);
  const de = `<html lang="de"><head><title>Neue S-Bahn</title><meta property="og:type" content="article"></head><body><main><article><h1>Neue S-Bahn</h1>
    ${para('Der Verkehrsverbund will bis 2031 eine neue S-Bahn-Linie von der Innenstadt nach Nordheim bauen, die sechs Gemeinden im Halbstundentakt anbindet.')}
    ${para('Dafür soll eine stillgelegte Güterstrecke reaktiviert und auf zwölf Kilometern elektrifiziert werden; die Kosten schätzt der Verbund auf 310 Millionen Euro.')}
    <div class="plus-teaser"><p>Weiterlesen mit Rundschau Plus</p><p>Alle Artikel lesen, jederzeit kündbar.</p><a href="/abo">Jetzt testen</a></div></article></main></body></html>`;
  const deText = extractPage(de, 'https://rundschau.example/s-bahn').bodyText;
  inOrder(deText, ['neue S-Bahn-Linie']);
  absent(deText, ['Weiterlesen mit', 'jederzeit kündbar']);
});

test('pruning: a section heading whose class holds the word "header" (a newsletter platform\'s "header-anchor-post") is a heading, not the site\'s header', () => {
  const doc = news('cms-newsletter.html', 'https://harbournotes.example/p/the-port-strike-explained');
  inOrder(doc.bodyText, ['Dockers at the city', 'What the two sides want', 'one-off payment', 'What it means for the shops', 'conciliation service']);
});

test('news: on a forum the replies are the content and stay', () => {
  const doc = news('forum-thread.html', 'https://anglers.example/forum/best-bait-for-mackerel');
  inOrder(doc.bodyText, ['catch nothing but weed', 'Feathers, always feathers', 'Strips of fresh mackerel', 'Try the west quay']);
});

test('news: on a page that is not an article (a section front of headlines), "Most read" and "More on …" are part of the list', () => {
  const html = `<html><head><title>Science news</title></head><body><main><h1>Science</h1>
    <section><h2>Top stories</h2><ul>${[1, 2, 3, 4].map((i) => `<li><a href="/s/${i}">Science headline number ${i} about the sea</a></li>`).join('')}</ul></section>
    <section><h2>Most read</h2><ul>${[5, 6, 7, 8].map((i) => `<li><a href="/s/${i}">Popular headline number ${i} about the moon</a></li>`).join('')}</ul></section>
    </main></body></html>`;
  const doc = extractPage(html, 'https://gazette.example/science');
  inOrder(doc.bodyText, ['Science headline number 1', 'Most read', 'Popular headline number 8']);
});

test('the page\'s H1 above the main block is the content view\'s title, and the content score sees one H1 (no "Add an H1")', () => {
  const doc = extractPage(fixture('h1-above-main.html'), 'https://harbour.example/tides/inner-harbour');
  // The H1 sits in a band above <main>: not part of the main text (WCXB scores the body alone)…
  assert.ok(!doc.blocks.some((b) => b.kind === 'heading' && b.level === 1));
  assert.ok(!doc.bodyText.includes('Tide tables for the inner harbour'));
  // …but the view keeps it, as its title, in place of the <title>.
  const view = renderContentView(doc);
  assert.equal(view.split('\n')[0], '# Tide tables for the inner harbour');
  assert.equal(view.match(/^# /gm)?.length, 1, 'one H1 in the view');
  const r = scoreDocument(doc, { now: new Date('2025-06-01T00:00:00Z') });
  assert.equal(r.signals.structure.h1_count, 1);
  assert.deepEqual(r.signals.structure.h1_texts, ['Tide tables for the inner harbour']);
  assert.ok(!r.recommendations.some((x) => x.signal === 'h1'), r.recommendations.map((x) => x.signal).join(','));
  // A page whose H1 is in its main block keeps the <title> as the view's title line.
  const inMain = extractPage(
    '<html><head><title>Page title</title></head><body><main><h1>Heading in main</h1><p>Some body text that is long enough to be prose for the extractor to keep.</p></main></body></html>',
    'https://harbour.example/x',
  );
  assert.equal(renderContentView(inMain).split('\n')[0], '# Page title');
});

test("figure captions that carry data (a figure's readings, a table's averages) are kept in the main text and the view", () => {
  const doc = extractPage(fixture('h1-above-main.html'), 'https://harbour.example/tides/inner-harbour');
  inOrder(doc.bodyText, [
    'two high tides a day',
    'Figure 1. Water height at the east quay on 3 March 2025: high water 06:12 (4.6 m), low water 12:31 (0.4 m).',
    'Table 1. Spring tide heights, 2025 average: 4.4 m high water, 0.5 m low water (n = 24 tides).',
    'Boats drawing more than 1.8 metres',
  ]);
  assert.ok(renderContentView(doc).includes('Table 1. Spring tide heights, 2025 average'));
});

test('site names outside the main content: application-name, the header logo, a brand that links home; not customer logos or header slogans', () => {
  const names = (top: string, head = '') =>
    extractPage(
      `<html><head>${head}</head><body>${top}<main><p>Snow chains give a car grip on packed snow and ice, fitted before the road turns white.</p></main></body></html>`,
      'https://outdoor.example/a',
    ).page?.siteNames;
  assert.deepEqual(names('<header><a href="/" class="logo"><img src="/l.svg" alt="Zephyrly logo"></a><nav><a href="/">Home</a></nav></header>'), ['Zephyrly']);
  assert.deepEqual(names('<header><div class="site-logo"><img src="/l.svg" alt="Nordwind"></div></header>'), ['Nordwind']);
  assert.deepEqual(names('<header><p class="site-title"><a href="https://outdoor.example/">Trail Notes</a></p></header>'), ['Trail Notes']);
  assert.deepEqual(names('<nav><a class="navbar-brand" href="/">Acme <b>PM</b></a></nav>'), ['Acme PM']);
  assert.deepEqual(names('', '<meta name="application-name" content="Zephyrly">'), ['Zephyrly']);
  assert.deepEqual(
    names('<header><div class="brand-bar">Free shipping over $50</div></header><section class="logo-cloud"><img alt="Asana"><img alt="Trello"></section>'),
    [],
  );
});
