// Page types from structure alone: hand-written pages with no schema.org types, no og:type and
// URLs that say nothing (/p/1234), each read right from what the whole page shows (a buy button,
// priced cards, a pager, posts with authors, a docs sidebar with code, calls to action). Before
// the layout facts, every one of them fell back to article.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { detectPageType } from '../../../src/core/pages/page-kind.ts';

const page = (body: string, title = 'Page') => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;
const typeOf = (html: string, url = 'https://shop.example/p/1234') => detectPageType(extractPage(html, url));
const para = (n: number, topic: string) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1} about ${topic}, written out as a full sentence so that it reads as prose to the extractor.</p>`).join('');

test('product: a price and an add-to-cart button, without Product schema or a product URL', () => {
  const html = page(`<main><h1>Oak bread board</h1><div class="product-price">€39.00</div>
    <form action="/basket"><input type="number" name="qty" value="1"><button type="submit">Add to cart</button></form>
    ${para(3, 'the oak board')}</main>`);
  assert.deepEqual(typeOf(html, 'https://shop.example/x/oak-board'), { type: 'product', reason: 'add-to-cart button' });
});

test('collection: a grid of cards that each show a name, a picture and a price', () => {
  const cards = Array.from({ length: 8 }, (_, i) => `<li class="card"><a href="/item/${i}"><img src="/i${i}.jpg" alt=""><h3>Board ${i}</h3></a><span class="price">€${20 + i}.00</span></li>`).join('');
  assert.equal(typeOf(page(`<main><h1>Bread boards</h1><ul class="grid">${cards}</ul></main>`)).type, 'collection');
});

test('listing: many similar cards of titles and a pager, without prices', () => {
  const cards = Array.from({ length: 10 }, (_, i) => `<div class="teaser"><h2><a href="/story/${i}">Story number ${i} of the week</a></h2><p>Short summary ${i}.</p></div>`).join('');
  const html = page(`<main><h1>Stories</h1>${cards}<nav class="pagination"><a href="?page=2" rel="next">Next</a></nav></main>`);
  assert.equal(typeOf(html, 'https://gazette.example/x/all').type, 'listing');
});

test('forum: posts with authors and times', () => {
  const posts = Array.from({ length: 4 }, (_, i) => `<div class="post"><span class="username">user${i}</span><time datetime="2025-01-0${i + 1}">Jan ${i + 1}</time><p>Post ${i}: I tried the tram to the harbour and it was ${i ? 'late again' : 'fine'} this morning, so I wrote it down here.</p></div>`).join('');
  assert.equal(typeOf(page(`<main><h1>Is the harbour tram on time?</h1>${posts}</main>`), 'https://talk.example/x/123').type, 'forum');
});

test('documentation: a sidebar navigation tree and code blocks', () => {
  const tree = `<aside class="sidebar"><ul><li>Guide<ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/g/${i}">Topic ${i}</a></li>`).join('')}</ul></li></ul></aside>`;
  const html = page(`${tree}<main><h1>Configure the client</h1>${para(2, 'configuration')}<pre><code>client.configure({ retries: 3 })</code></pre></main>`);
  assert.deepEqual(typeOf(html, 'https://acme.example/x/configure'), { type: 'documentation', reason: 'sidebar navigation tree and code' });
});

test('service: calls to action and no publication date; a dated article (og:type article) with the same calls to action stays an article', () => {
  const body = `<main><h1>Harbour tours for teams</h1>${para(5, 'our tours')}<a class="btn" href="/contact">Get a quote</a><a href="/demo">Book a call</a></main>`;
  assert.equal(typeOf(page(body), 'https://tours.example/teams').type, 'service');
  const dated = page(body.replace('<h1>', '<time datetime="2025-03-01">1 March 2025</time><h1>')).replace('<head>', '<head><meta property="og:type" content="article"><meta property="article:published_time" content="2025-03-01T08:00:00Z">');
  assert.equal(typeOf(dated, 'https://tours.example/teams').type, 'article');
});

test('listing: a section front URL (/news/technology) and a "Search results for" heading; the words inside a sentence or a story URL say nothing', () => {
  const headlines = page(`<main><h1>Technology</h1>${para(5, 'today\'s technology news')}</main>`);
  assert.deepEqual(typeOf(headlines, 'https://gazette.example/news/technology'), { type: 'listing', reason: 'section front URL' });
  assert.equal(typeOf(headlines, 'https://gazette.example/news/technology/2025/new-chip-factory').type, 'article');
  const results = page(`<main><h2>Search results for "harbour"</h2>${para(2, 'a harbour result')}</main>`);
  assert.equal(typeOf(results, 'https://gazette.example/x/find').type, 'listing');
  const prose = page(`<main><h1>Ranking a practice</h1><p>Good pages rank your practice higher in search results and bring patients who need you.</p>${para(4, 'local search')}</main>`);
  assert.equal(typeOf(prose, 'https://clinic.example/x/seo-tips').type, 'article');
});
