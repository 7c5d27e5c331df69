// Page types against a person's labels, and one hand-written page per named rule.
//
// The labelled part reads 335 real pages of the WCXB development split (the dataset is not part
// of this repository: it is looked for beside the checkout, or at WCXB_DATASET) and holds the
// rule to a floor on the held-out half, the labels the rules were never tuned on. Without the
// dataset that part is skipped; the named cases always run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateLabelledTypes, readLabels } from '../../../bench/lib/wcxb-types.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { detectPageType } from '../../../src/core/pages/page-kind.ts';

const DATASET = process.env.WCXB_DATASET ?? join(import.meta.dirname, '../../../../shared/datasets/wcxb-dev');
const haveDataset = existsSync(join(DATASET, 'html'));

const page = (body: string, head = '', title = 'Page') => `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
const typeOf = (html: string, url: string) => detectPageType(extractPage(html, url));
const para = (n: number, topic: string) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1} about ${topic}, written out as a full sentence so that it reads as prose to the extractor and counts as words.</p>`).join('');
const ogArticle = '<meta property="og:type" content="article"><meta property="article:published_time" content="2025-03-01T08:00:00Z">';
const priced = (n: number, extra = '') => Array.from({ length: n }, (_, i) => `<li class="card"><a href="/item/${i}"><img src="/i${i}.jpg" alt=""><h3>Lamp ${i}</h3></a><p>Lamp ${i} $${30 + i}.00</p>${extra}</li>`).join('');

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

test('held-out accuracy on our labels stays above its floor', { skip: haveDataset ? false : `WCXB dataset not found at ${DATASET}` }, () => {
  const [development, heldOut] = evaluateLabelledTypes(DATASET);
  // Measured at this change: development 89.3 %, held-out 82.0 % (bench/README.md).
  assert.ok(heldOut!.right / heldOut!.pages >= 0.8, `held-out ${heldOut!.right}/${heldOut!.pages}`);
  assert.ok(development!.right / development!.pages >= 0.88, `development ${development!.right}/${development!.pages}`);
});

test('site root: the front page, whatever it shows; a search at the root is a listing', () => {
  const shopFront = page(`<main><h1>Sharpening stones</h1><ul>${priced(8)}</ul></main>`);
  assert.deepEqual(typeOf(shopFront, 'https://stones.example/?srsltid=abc123'), { type: 'home', reason: 'site root URL' });
  assert.equal(typeOf(page(`<main><h1>Results</h1>${para(3, 'lamps')}</main>`), 'https://stones.example/?s=lamp').type, 'listing');
});

test('documentation host and title; forum host and thread script', () => {
  const prose = page(`<main><h1>Understanding workflows</h1>${para(4, 'workflows')}</main>`, ogArticle);
  assert.equal(typeOf(prose, 'https://docs.example.com/actions/workflows').type, 'documentation');
  assert.equal(typeOf(page(`<main><h1>Searching</h1>${para(4, 'searching')}</main>`, '', 'searching [Acme Documentation]'), 'https://acme.example/support/searching').type, 'documentation');
  const thread = page(`<main><h1>Wrong refresh rate</h1>${para(2, 'my graphics card')}</main>`);
  assert.deepEqual(typeOf(thread, 'https://forum.videos.example/showthread.php?t=186269'), { type: 'forum', reason: 'forum host or script' });
  assert.equal(typeOf(thread, 'https://bbs.distro.example/viewtopic.php?id=42').type, 'forum');
});

test('a grid of priced items is a category even when the cards carry Product markup; a product page with a related rail stays a product', () => {
  const ld = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Lamp 0' })}</script>`;
  const grid = page(`<main><h1>Table lamps</h1><ul class="grid">${priced(24, '<button class="add-to-cart">Add to cart</button>')}</ul></main>`, ld);
  assert.equal(typeOf(grid, 'https://lamps.example/11-table-lamps').type, 'collection');
  // Its own cart button and three more in the rail: cart buttons without a grid.
  const item = page(`<main><h1>Lamp 0</h1><p class="price">$30.00</p><button class="add-to-cart">Add to cart</button>${para(3, 'the lamp')}</main><aside><h2>You may also like</h2><ul>${priced(3, '<button class="add-to-cart">Add to cart</button>')}</ul></aside>`);
  assert.deepEqual(typeOf(item, 'https://lamps.example/lamp-0.html'), { type: 'product', reason: 'add-to-cart buttons' });
});

test('a /products/ address with nothing for sale is a vendor\'s service page, not a product', () => {
  const html = page(`<main><h1>Content delivery network</h1>${para(5, 'our network')}<a class="btn" href="/contact">Contact sales</a><a class="btn" href="/signup">Get started</a></main>`);
  assert.equal(typeOf(html, 'https://cloud.example/application-services/products/cdn/').type, 'service');
});

test('headings that link within the site make a listing; a round-up whose headings link to other sites stays an article', () => {
  const heads = (host: string) => Array.from({ length: 6 }, (_, i) => `<h2><a href="https://${host}/project-${i}">Project idea number ${i}</a></h2><p>Why project ${i} is worth a weekend, in a sentence or two of prose.</p>`).join('');
  assert.equal(typeOf(page(`<main><h1>Projects</h1>${heads('crafts.example')}</main>`), 'https://crafts.example/projects').type, 'listing');
  assert.equal(typeOf(page(`<main><h1>Ten weekend projects</h1>${heads('other-blog.example')}</main>`, ogArticle), 'https://crafts.example/ten-diy-woodworking-projects-for-your-home').type, 'article');
});

test('code in a blog post is a developer\'s article; code without a date or a blog address is documentation', () => {
  const code = Array.from({ length: 4 }, (_, i) => `<pre><code>let step${i} = run(${i});</code></pre>`).join('');
  assert.equal(typeOf(page(`<main><h1>Porting a parser</h1>${para(3, 'the port')}${code}</main>`), 'https://dev.example/blog/porting-a-parser').type, 'article');
  assert.equal(typeOf(page(`<main><h1>Configure the client</h1>${para(3, 'configuration')}${code}</main>`), 'https://lib.example/guide/configure-the-client').type, 'documentation');
});

test('service: headings that sell on an undated page, an about address, a services address over og:type article, an offer address, a one-word standing page, a local business in JSON-LD', () => {
  const selling = page(`<main><h1>Interior design for your home</h1>${para(2, 'our design work')}<h2>Why choose us</h2>${para(2, 'our team')}<h2>What our clients say</h2>${para(2, 'reviews')}</main>`);
  assert.deepEqual(typeOf(selling, 'https://design.example/interior-design-for-homes'), { type: 'service', reason: 'headings that sell, no publication date' });
  assert.equal(typeOf(page(`<main><h1>About us</h1>${para(3, 'the brand')}</main>`), 'https://brand.example/pages/about').type, 'service');
  const consulting = page(`<main><h1>HR consulting</h1>${para(6, 'our consulting')}</main>`, ogArticle);
  assert.deepEqual(typeOf(consulting, 'https://firm.example/services/hr-solutions/hr-consulting/'), { type: 'service', reason: 'service URL' });
  assert.equal(typeOf(page(`<main><h1>Project management certificate</h1>${para(4, 'the programme')}</main>`), 'https://school.example/certificates/project-management').type, 'service');
  assert.deepEqual(typeOf(page(`<main><h1>Lambda</h1>${para(10, 'serverless functions')}</main>`), 'https://cloud.example/lambda/'), { type: 'service', reason: 'a standing page, named in one word' });
  const hvac = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'HVACBusiness', name: 'Cool Air Co' })}</script>`;
  assert.deepEqual(typeOf(page(`<main><h1>Air conditioning repair</h1>${para(4, 'repairs')}</main>`, hvac), 'https://coolair.example/air-conditioning-repair-in-town'), { type: 'service', reason: 'JSON-LD Service' });
  const oneButton = page(`<main><h1>Self-host the builder</h1>${para(3, 'self-hosting')}<a class="btn" href="/signup">Get started</a></main>`);
  assert.deepEqual(typeOf(oneButton, 'https://builder.example/on-premise-app-builder'), { type: 'service', reason: 'calls to action, no publication date' });
  // A dated story at a one-word address is still a story.
  assert.equal(typeOf(page(`<main><h1>Lambda</h1>${para(10, 'serverless functions')}</main>`, ogArticle), 'https://news.example/lambda').type, 'article');
});

test('listing: a blog\'s category page; "Results for" names a results list only before a quoted query', () => {
  assert.equal(typeOf(page(`<main><h1>Electronic gadgets</h1>${para(3, 'gadgets')}</main>`), 'https://volts.example/magazine/category/electronic-gadgets').type, 'listing');
  const results = page(`<main><h2>Results for "harbour"</h2>${para(2, 'a harbour result')}</main>`);
  assert.equal(typeOf(results, 'https://gazette.example/x/find').type, 'listing');
  const named = page(`<main><h1>Academic tutoring</h1><p>Results for America</p>${para(4, 'tutoring')}</main>`, ogArticle);
  assert.equal(typeOf(named, 'https://tutoring.example/academic-tutoring-explained-for-schools').type, 'article');
});
