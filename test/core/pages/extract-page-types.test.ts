// Heuristics for pages that are not articles (forums, listings, products, collections), each
// named in the extractor's source and checked here on a small page written for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractPage } from '../../../src/core/pages/extract/index.ts';

const shopFixture = (name: string) => readFileSync(new URL(`../../fixtures/extract/shop/${name}`, import.meta.url), 'utf8');

const prose = (topic: string, n = 3) =>
  Array.from({ length: n }, (_, i) => `<p>${topic} sentence ${i} gives readers enough plain words, with commas, to read as prose in a post.</p>`).join('');

test('code-block-not-main: a long log in one reply does not narrow a thread to that reply', () => {
  const log = Array.from(
    { length: 80 },
    (_, i) => `2024-05-03 10:09:${String(i).padStart(2, '0')} ERROR (MainThread) [core] Error doing job: Future exception was never retrieved`,
  ).join('\n');
  const html = `<html><head><title>Stuck on starting</title></head><body><nav><a href="/">Home</a></nav>
    <div class="thread">
      <div class="post" id="p1"><h1>Stuck on starting</h1>${prose('The question', 2)}</div>
      <div class="post" id="p2">${prose('The log intro', 1)}<pre>${log}</pre></div>
      <div class="post" id="p3">${prose('The answer', 2)}</div>
    </div></body></html>`;
  const doc = extractPage(html, 'https://forum.example.com/t/stuck/1');
  assert.ok(doc.bodyText.includes('The question sentence 0'), doc.bodyText.slice(0, 300));
  assert.ok(doc.bodyText.includes('ERROR (MainThread)'));
  assert.ok(doc.bodyText.includes('The answer sentence 1'));
});

test('code-block-not-main: an article that is mostly one code sample is still narrowed past the chrome around it', () => {
  const code = Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}); // step ${i} of the example`).join('\n');
  const html = `<html><head><title>Example</title></head><body>
    <div class="wrap"><div class="promo">${prose('Promo', 1).replace(/<p>/, '<p class="x">')}</div>
    <div class="content"><h1>Example</h1>${prose('The guide', 6)}<pre>${code}</pre></div></div></body></html>`;
  const doc = extractPage(html, 'https://docs.example.com/example');
  assert.ok(doc.bodyText.includes('const value59'));
  assert.ok(!doc.bodyText.includes('Promo sentence'), doc.bodyText.slice(0, 300));
});

test('consent-layer-never-spared: a consent manager layer goes even when it holds most of a short page', () => {
  const purposes = Array.from(
    { length: 12 },
    (_, i) =>
      `<h4>Purpose ${i}</h4><p>Information about your activity on this service may be matched and combined with other information relating to you, in support of purpose ${i} explained in this notice. 255 partners can use this feature.</p>`,
  ).join('');
  const html = `<html><head><title>Showcase thread</title></head><body>
    <main><h1>Showcase thread</h1><p>No stream link this time; the video goes up on their channel in one hour from now.</p></main>
    <div id="onetrust-consent-sdk"><div class="ot-pc-content">${purposes}</div></div></body></html>`;
  const doc = extractPage(html, 'https://boards.example.com/thread/1');
  assert.ok(doc.bodyText.includes('No stream link this time'));
  assert.ok(!doc.bodyText.includes('partners can use this feature'), doc.bodyText.slice(0, 400));
});

test('consent-layer-never-spared: a wrapper that names a consent state but holds the page heading stays', () => {
  const html = `<html><head><title>Guide</title></head><body><div class="cookie-consent-given page">
    <h1>Guide</h1>${prose('The guide', 4)}</div></body></html>`;
  const doc = extractPage(html, 'https://example.com/guide');
  assert.ok(doc.bodyText.includes('The guide sentence 3'));
});

test('forum-post-chrome-lines: counters, poster details, post tools and Q&A prompts go on a forum; the posts stay', () => {
  const post = (who: string, text: string) =>
    `<div class="post"><div class="author">${who}</div><div class="stats">Posts: 1,077</div><div class="stats">Join Date: Aug 2008</div><div class="body">${text}</div><div class="tools">Reply With Quote</div><div class="counter">12 likes</div></div>`;
  const html = `<html><head><title>Best closed headphones</title><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Best closed headphones"}</script></head><body>
    <div class="thread"><h1>Best closed headphones</h1>
    ${post('alice', '<p>I am looking for closed headphones for the office, something that leaks little sound and is comfortable all day.</p>')}
    ${post('bob', '<p>I have 12 likes on my old review of these; the pads matter more than the drivers for comfort over a long day.</p>')}
    <p>Not open for further replies.</p><p>Explore related questions</p></div></body></html>`;
  const doc = extractPage(html, 'https://forum.example.com/threads/best-closed-headphones.1/');
  assert.ok(doc.bodyText.includes('I am looking for closed headphones'));
  assert.ok(doc.bodyText.includes('I have 12 likes on my old review'), 'a sentence that starts like a counter stays');
  for (const chrome of ['Posts: 1,077', 'Join Date', 'Reply With Quote', '\n12 likes', 'Not open for further replies', 'Explore related questions']) {
    assert.ok(!doc.bodyText.includes(chrome), `${chrome} in:\n${doc.bodyText}`);
  }
});

test('forum-post-chrome-lines: on an article the same lines are left alone', () => {
  const html = `<html><head><title>Counting</title></head><body><article><h1>Counting</h1>
    <p>Our survey asked how people count the reactions they get on a forum, and what they think the numbers mean.</p>
    <p>12 likes</p><p>Posts: 4</p><p>The answers were as varied as the forums themselves, and most people did not count at all.</p></article></body></html>`;
  const doc = extractPage(html, 'https://example.com/blog/counting');
  assert.ok(doc.bodyText.includes('12 likes'));
  assert.ok(doc.bodyText.includes('Posts: 4'));
});

// --- News articles

const story = (body: string, head = '<meta property="og:type" content="article">') =>
  `<html><head><title>Harbour story</title>${head}</head><body><main><article><h1>Harbour story</h1>
    <p>The harbour board voted on Tuesday to rebuild the north quay, ending a decade of arguments over who should pay for the work and when it should start.</p>
    ${body}
    <p>Work is due to start in the spring, and the board expects the quay to reopen to fishing boats within two years of the first pile being driven.</p></article></main></body></html>`;

test('shopping-story-is-article: a roundup that declares an Article beside the Products it reviews gets the article rules', () => {
  const ld = `<script type="application/ld+json">[{"@type":"NewsArticle","headline":"Best dishwashers"},{"@type":"Product","name":"Quiet 300"},{"@type":"Product","name":"Quiet 500"}]</script>`;
  const html = story('<p>Prices were accurate at the time this article was published but may change over time.</p>', ld);
  const text = extractPage(html, 'https://reviews.example/dishwashers/best-of-2025').bodyText;
  assert.ok(text.includes('rebuild the north quay'));
  assert.ok(!text.includes('Prices were accurate'), text);
  // A product's own page (a product URL) stays a product page.
  const product = extractPage(html, 'https://shop.example/products/quiet-300').bodyText;
  assert.ok(product.includes('Prices were accurate'));
});

test("sponsored-section: a section under a sponsor's title goes up to the next heading; a heading that mentions sponsors stays", () => {
  const html =
    story(`<h2>Analytics for your pipelines (Sponsored)</h2><p>You run builds every day but do not know which jobs are slow; our tool shows you trends and job-level insights.</p><p><a href="/sponsor">Sponsor this newsletter</a></p>
    <h2>Who sponsors the rebuild</h2><p>The port authority and two fishing cooperatives will share the cost, with the council paying for the new lighting along the quay.</p>`);
  const text = extractPage(html, 'https://gazette.example/news/quay').bodyText;
  assert.ok(!text.includes('Analytics for your pipelines'), text);
  assert.ok(!text.includes('job-level insights'));
  assert.ok(text.includes('Who sponsors the rebuild'));
  assert.ok(text.includes('two fishing cooperatives'));
});

test('credit-data-attributes: a credit named only by a data attribute (data-theme-key="photo-credit-creditor") goes', () => {
  const html = story(
    '<div><span data-theme-key="photo-credit-creditor" class="css-s3tu6h">Trevor Raab; Thomas Hengge</span></div><p>Engineers surveyed the old piles in the autumn and found most of them rotten below the waterline, which settled the argument.</p>',
  );
  const text = extractPage(html, 'https://gazette.example/news/quay').bodyText;
  assert.ok(!text.includes('Trevor Raab'), text);
  assert.ok(text.includes('found most of them rotten'));
});

test('news pitch lines: "Follow us on …", a donation appeal and "You need to log in to view …" go; prose about following or supporting stays', () => {
  const html = story(`<p>Follow Us On Social Media</p>
    <p>The product experts at the Gazette have all your harbour news covered. Follow the Gazette on Facebook, Instagram or Flipboard for the latest.</p>
    <p>Support Harbour Gazette! Donate via bank transfer or become a Patron on Patreon.</p>
    <p>You need to login or register to view and manage your bookmarks.</p>
    <p>Fishermen who follow the board's meetings on the radio said they would support the plan if the quay reopens before the herring season.</p>`);
  const text = extractPage(html, 'https://gazette.example/news/quay').bodyText;
  for (const pitch of ['Follow Us On Social Media', 'Follow the Gazette on Facebook', 'Donate via bank transfer', 'manage your bookmarks']) {
    assert.ok(!text.includes(pitch), `${pitch} in:\n${text}`);
  }
  assert.ok(text.includes("Fishermen who follow the board's meetings"));
});

test("photo-captions-beside-article: a photo's caption goes from a story; a data figure's caption and a caption outside a story stay", () => {
  const figures = `<figure><img src="/quay.jpg" alt=""><figcaption>The north quay at low tide on Monday, with the old piles showing.</figcaption></figure>
    <figure><img src="/chart.png" alt=""><figcaption>Figure 2. Boats landing at the quay each year, 2010–2024.</figcaption></figure>
    <figure><table><tr><td>2024</td><td>312 boats</td></tr></table><figcaption>Landings by year, harbour board figures.</figcaption></figure>`;
  const text = extractPage(story(figures), 'https://gazette.example/news/quay').bodyText;
  assert.ok(!text.includes('The north quay at low tide'), text);
  assert.ok(text.includes('Figure 2. Boats landing at the quay'));
  assert.ok(text.includes('Landings by year'));
  const gallery = `<html><head><title>Quay photos</title></head><body><main><h1>Quay photos</h1>${figures}
    <p>Readers sent us these pictures of the quay over the years, from the first steamers to the last of the herring fleet.</p></main></body></html>`;
  assert.ok(extractPage(gallery, 'https://gazette.example/photos/quay').bodyText.includes('The north quay at low tide'));
});

test("notices-anywhere: an affiliate disclosure above the text goes; a pointer to the site's own guide inside the text stays", () => {
  const html = `<html><head><title>Harbour story</title><meta property="og:type" content="article"></head><body><main><article><h1>Harbour story</h1>
    <p>While each product featured is independently selected by our editors, we may include paid promotion. If you buy something through our links, we may earn commission.</p>
    <p>The harbour board voted on Tuesday to rebuild the north quay, ending a decade of arguments over who should pay for the work and when it should start.</p>
    <p>Want to know what the old quay looked like? Check out our guide to the harbour's history.</p>
    <p>Work is due to start in the spring, and the board expects the quay to reopen to fishing boats within two years of the first pile being driven.</p></article></main></body></html>`;
  const text = extractPage(html, 'https://gazette.example/news/quay').bodyText;
  assert.ok(!text.includes('independently selected'), text);
  assert.ok(text.includes('Check out our guide to the harbour'));
  assert.ok(text.includes('rebuild the north quay'));
});

test('paywall and plugin leftovers: "Subscribe to get access", "Read more of this content when you subscribe", "follow me on social media" and an empty Jetpack related-posts box go', () => {
  const html = story(`<p>Members watch the harbour webcam here, and the board publishes its minutes on the first Monday of every month.</p>
    <div class="paywall"><h3>Subscribe to get access</h3><p>Read more of this content when you subscribe today.</p></div>
    <p>Be sure to follow me on social media to stay up to date on all the latest harbour news.</p>
    <div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline"><em>Related</em></h3></div>`);
  const text = extractPage(html, 'https://gazette.example/news/quay').bodyText;
  for (const gone of ['Subscribe to get access', 'when you subscribe today', 'follow me on social media', 'Related'])
    assert.ok(!text.includes(gone), `${gone} in:\n${text}`);
  assert.ok(text.includes('publishes its minutes'));
});

test("form-wrapping-posts: a moderation form around a thread's posts is a wrapper; a comment form without posts still goes", () => {
  const post = (who: string, text: string) =>
    `<article class="ipsEntry"><div class="author">${who}</div><div class="ipsRichText"><p>${text}</p></div></article>`;
  const html = `<html><head><title>New case</title><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"New case"}</script></head><body>
    <div class="popover"><p>To install this app on iOS and iPadOS, tap the Share icon in Safari, scroll the menu and tap Add to Home Screen, then tap Add in the top-right corner of the screen.</p>
    <p>To install this app on Android, tap the three-dot menu in the top-right corner of the browser, tap Add to Home screen or Install app, and confirm by tapping Install.</p>
    ${['Safari', 'Edge', 'Firefox', 'Chrome', 'Opera'].map((b) => `<p>To get notifications in ${b}, open its settings, find the site permissions for notifications, look this website up in the list and adjust your preference for it there.</p>`).join('')}</div>
    <main><h1>New case</h1><form action="/topic/1/?do=multimodComment" method="post">
      ${post('ann', 'The new case has room for a 360 mm radiator at the front and the glass panel comes off without tools, which I did not expect at this price.')}
      ${post('ben', 'Mine arrived yesterday; the fans are quiet, but the cable channel behind the board is tight if you use a thick 24-pin extension cable.')}
    </form><form action="/topic/1/?do=addComment" method="post"><p>Reply to this topic with your own experience of the case and its fans, please.</p></form></main></body></html>`;
  const text = extractPage(html, 'https://forum.example.com/topic/1-new-case/').bodyText;
  assert.ok(text.includes('room for a 360 mm radiator'), text);
  assert.ok(text.includes('cable channel behind the board'));
  assert.ok(!text.includes('Reply to this topic'));
});

test('rating-summary: a reviews histogram ("5 ★", "57%", counts) and the "Reviews" title it leaves go from a product page; one star line or a percentage in the copy stays', () => {
  const html = `<html><head><title>Desk riser</title><meta property="og:type" content="product"></head><body><main>
    <h1>Desk riser</h1>${prose('The desk riser')}<p>Rated 5 stars by our testers, it lifts 30% higher than most converters.</p><p>5 stars</p>
    <h2>Customer Reviews</h2><p>4.1 Based on 14 Reviews</p><p>5 ★</p><p>57%</p><p>8</p><p>4 ★</p><p>21%</p><p>3</p><p>3 ★</p><p>7%</p><p>1</p>
    <h2>Specifications</h2><p>Height range: 6 to 17 inches.</p></main></body></html>`;
  const blocks = extractPage(html, 'https://shop.example/products/desk-riser').blocks;
  const lines = blocks.map((b) => ('text' in b ? b.text : ''));
  for (const gone of ['Customer Reviews', '4.1 Based on 14 Reviews', '5 ★', '57%', '21%', '8'])
    assert.ok(!lines.includes(gone), `${gone} in:\n${lines.join('\n')}`);
  for (const kept of ['Rated 5 stars by our testers, it lifts 30% higher than most converters.', '5 stars', 'Specifications', 'Height range: 6 to 17 inches.'])
    assert.ok(lines.includes(kept), `${kept} missing from:\n${lines.join('\n')}`);
});

test('collapsed-disclosure-panel and heading-toggle: an accordion\'s hidden answers and the questions on its header buttons stay; a hidden box that nothing names as collapsed goes', () => {
  const item = (q: string, a: string, panel: string) =>
    `<div class="faq-item"><h3><button type="button" aria-expanded="false">${q}</button></h3><div ${panel}><p>${a}</p></div></div>`;
  const html = `<html><head><title>How to choose running shoes</title><meta property="og:type" content="article"></head><body><main><article><h1>How to choose running shoes</h1>
    ${prose('running shoes', 3)}
    <h2>What to consider</h2>
    ${item('Weight', 'A daily trainer for a men\u2019s size 9 weighs about ten ounces, while a racing flat can weigh half that and feel quicker on the track.', 'hidden data-theme-key="collapsible-section-text"')}
    ${item('Fit', 'Leave a thumb\u2019s width of room at the toe and make sure the heel does not slip when you climb stairs in the store.', 'hidden="until-found"')}
    ${item('Drop', 'The drop is the height difference between heel and toe; lower drops load the calves more and suit runners who land midfoot.', 'class="accordion-panel" hidden')}
    <div hidden class="video-details"><p>How to start meditating for beginners: a video from our partners about breathing and posture.</p></div>
    <p>Whatever you choose, replace the pair after about five hundred miles, or sooner if the midsole feels flat on easy runs.</p>
    </article></main></body></html>`;
  const text = extractPage(html, 'https://gazette.example/gear/shoes').bodyText;
  assert.ok(text.includes('What to consider'));
  for (const kept of ['Weight', 'ten ounces', 'Fit', 'thumb\u2019s width', 'Drop', 'load the calves', 'five hundred miles']) assert.ok(text.includes(kept), `${kept} missing from:\n${text}`);
  assert.ok(!text.includes('How to start meditating'), text);
  // A toggle over nothing (its panel drawn by script) leaves no orphan question behind.
  const empty = extractPage(html.replace(/<p>A daily trainer[^<]*<\/p>/, ''), 'https://gazette.example/gear/shoes').bodyText;
  assert.ok(!/^Weight$/m.test(empty), empty);
});

test('article-at-product-url: a post that declares an article at a shop-shaped path ("/p/slug-63a") keeps its footnotes; a product page there still drops them', () => {
  const page = (ld: string, og: string) => `<html><head><title>Process knowledge, part IV</title><meta property="og:type" content="${og}">
    <script type="application/ld+json">${ld}</script></head><body><main><article><h1>Process knowledge, part IV</h1>
    ${prose('process knowledge', 4)}
    <h2>Footnotes</h2>
    <div class="footnote"><a class="footnote-number" href="#anchor-1">1</a><div class="footnote-content"><p>The ontology paper states its purpose plainly: it is built on requirements collected from three industrial use cases.</p></div></div>
    </article></main></body></html>`;
  const url = 'https://writer.example/p/process-knowledge-part-63a';
  const post = extractPage(page('{"@type":"NewsArticle","headline":"Process knowledge, part IV"}', 'article'), url).bodyText;
  assert.ok(post.includes('three industrial use cases'), post);
  const product = extractPage(page('{"@type":"Product","name":"Process kit"}', 'product'), url).bodyText;
  assert.ok(!product.includes('three industrial use cases'), product);
});

test("review-list-never-spared: on a product page shoppers' rated reviews go even when they outweigh the description; a reviews-named box without rated items stays", () => {
  const review = (i: number) =>
    `<article class="product-review"><header><span class="rating__stars" aria-label="Rated 5 out of 5 stars"></span><div class="product-review__title">Great mic ${i}</div></header>
     <section class="product-review__body"><p>Review ${i}: I record voice-overs every day and this microphone keeps the room out of the take; the preamp gives plenty of headroom, and the switches on the back are easy to reach during a session.</p></section></article>`;
  const page = (reviews: string) => `<html><head><title>Studio microphone SM7</title><script type="application/ld+json">{"@type":"Product","name":"Studio microphone SM7"}</script></head><body><main>
    <section class="product"><h1>Studio microphone SM7</h1><p>A dynamic microphone with a built-in preamp for broadcast and vocals, with a cardioid pattern that rejects the room.</p><p>$499.00</p>
    ${reviews}</section></main></body></html>`;
  const text = extractPage(page(`<section class="product-reviews"><h2>Reviews</h2><div class="product-reviews__list">${[1, 2, 3, 4, 5].map(review).join('')}</div></section>`), 'https://shop.example/store/detail/sm7').bodyText;
  assert.ok(text.includes('built-in preamp for broadcast'), text);
  assert.ok(!text.includes('Review 3: I record voice-overs'), text);
  // A box named for reviews that holds no rated review (the maker's press quotes) stays.
  const quotes = `<section class="product-reviews"><h2>What the press says</h2><p>"The best broadcast microphone of the decade, with a warmth that flatters every voice and a build that survives years of touring." Studio Monthly</p></section>`;
  assert.ok(extractPage(page(quotes), 'https://shop.example/store/detail/sm7').bodyText.includes('best broadcast microphone of the decade'));
});

test("photo-slot-caption: a caption beside an empty media box (its picture drawn by script) is a photo's caption; a figure with text of its own beside the caption stays", () => {
  const figures = `<figure><div class="ResponsiveMedia" style="padding-bottom:75%"><div></div></div><figcaption>Multi-cloud systems are the future of computing, analysts say.</figcaption></figure>
    <figure><blockquote><p>We moved every workload in a single weekend and nobody noticed.</p></blockquote><figcaption>Priya Shah, platform lead at the harbour board</figcaption></figure>`;
  const text = extractPage(story(figures), 'https://gazette.example/news/cloud').bodyText;
  assert.ok(!text.includes('Multi-cloud systems are the future'), text);
  assert.ok(text.includes('nobody noticed') && text.includes('Priya Shah, platform lead'), text);
});

test('link-farm-chrome: a mega menu or a footer of links goes even when it holds most of a thin page; a header that is mostly prose or wraps the <h1> stays', () => {
  const farm = (word: string, n: number) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/${word}/${i}">${word} ${i}</a></li>`).join('')}</ul>`;
  const items = Array.from({ length: 4 }, (_, i) => `<li><a href="/pot/${i}">Stone pot ${i}</a> $${20 + i}.00</li>`).join('');
  const content = `<div class="content"><h1>Indoor pots</h1><p>Pots for every room, glazed and plain, to group on a sill.</p><ul>${items}</ul></div>`;
  for (const html of [
    `<html><body><header><nav>${farm('Perennial', 300)}</nav></header>${content}</body></html>`,
    `<html><body>${content}<footer><h2>Rentals near you</h2>${farm('Perennial', 300)}</footer></body></html>`,
  ]) {
    const doc = extractPage(html, 'https://garden.example.com/indoor-pots');
    assert.ok(doc.bodyText.includes('Pots for every room'), doc.bodyText.slice(0, 300));
    assert.ok(doc.bodyText.includes('Stone pot 3'));
    assert.ok(!doc.bodyText.includes('Perennial 7'), doc.bodyText.slice(0, 300));
  }
  // A header holding the page's <h1> with its list of links is spared as before (a wrapper).
  const wrapped = `<html><body><header><h1>All our guides</h1>${farm('Guide', 80)}</header><p>Short note.</p></body></html>`;
  assert.ok(extractPage(wrapped, 'https://example.com/guides').bodyText.includes('Guide 42'));
  // Chrome that is mostly prose is not a link farm: the share guard still spares it.
  const prosy = `<html><body><header>${prose('Chrome that reads', 8)}<a href="/">Home</a> <a href="/a">About</a></header><p>Tiny.</p></body></html>`;
  assert.ok(extractPage(prosy, 'https://example.com/x').bodyText.includes('Chrome that reads sentence 7'));
});

test("hidden-data-box: a box hidden by its class that holds most of a page's text goes when it is a script's data; one that reads as prose or holds the <h1> stays", () => {
  const data = Array.from(
    { length: 40 },
    (_, i) => `<dt>thumb_colour_${i}:</dt><dd>https://cdn.example.com/images/160x160/tee/colour_${i}_thumbnail_front.jpg</dd>`,
  ).join('');
  const shop = `<html><body><div class="product"><h1>Plain tee</h1><p>A regular fit tee in heavy combed cotton, with side seams and a ribbed neck.</p><p>$20.00</p>
    <dl class="info hide"><dt>SKU:</dt><dd>5001</dd>${data}</dl></div></body></html>`;
  const doc = extractPage(shop, 'https://shop.example.com/products/plain-tee');
  assert.ok(doc.bodyText.includes('heavy combed cotton'), doc.bodyText.slice(0, 300));
  assert.ok(!doc.bodyText.includes('thumb_colour_3'), doc.bodyText.slice(0, 300));

  // A methodology a script reveals, hidden by a class: prose, so the share guard spares it.
  const calc = `<html><body><h1>Savings calculator</h1><p>Enter your age.</p><div class="hide" id="methods">${prose('The method', 6)}</div></body></html>`;
  assert.ok(extractPage(calc, 'https://bank.example.com/calculator').bodyText.includes('The method sentence 5'));
  // A whole page parked in a class-hidden root until a script runs: it holds the <h1>.
  const parked = `<html><body><div class="hide"><h1>Unnest</h1><ul>${Array.from({ length: 30 }, (_, i) => `<li>Join table ${i} on its key, then read each of its rows once.</li>`).join('')}</ul></div></body></html>`;
  assert.ok(extractPage(parked, 'https://db.example.com/blog/unnest').bodyText.includes('Join table 29 on its key'));
});

test("shop-terms-section: on a product page the shop's shipping and returns section goes under its title; a one-line claim in the buy box and an article's section so titled stay", () => {
  const terms = `<div class="acc"><h3>Shipping &amp; Returns</h3><div><p>Orders ship within two business days from our warehouse by tracked courier.</p><p>Return any unworn item within 30 days for a full refund to the original payment method.</p></div></div>`;
  const html = `<html><body><main><div class="pdp"><h1>Trail jacket</h1><p>$180.00</p><p>Free delivery and free returns</p>
    <div class="about"><h3>About the jacket</h3>${prose('The jacket', 4)}</div>${terms}</div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/products/trail-jacket');
  assert.ok(doc.bodyText.includes('The jacket sentence 3'), doc.bodyText.slice(0, 300));
  assert.ok(doc.bodyText.includes('Free delivery and free returns'), 'a claim in the buy box is not a section');
  assert.ok(!doc.bodyText.includes('Orders ship within two business days'), doc.bodyText);
  assert.ok(!doc.bodyText.includes('Shipping & Returns'), doc.bodyText);

  // An article about a shop's returns keeps its section: the rule is a product page's.
  const article = `<html><head><meta property="og:type" content="article"></head><body><article><h1>How returns work</h1>${prose('The story', 4)}${terms}</article></body></html>`;
  assert.ok(extractPage(article, 'https://news.example.com/2025/returns').bodyText.includes('Orders ship within two business days'));
});

test('card-counter: a card\'s bare counts ("(24)", "+7", "80 Reviews") go as whole lines; a sentence with a count stays', () => {
  const card = (i: number) =>
    `<div class="card"><a href="/p/${i}">Trail shoe ${i}</a><p>$${90 + i}.00</p><p>(${20 + i})</p><p>+${i + 2}</p><p>${40 + i} Reviews</p></div>`;
  const html = `<html><body><main><h1>Trail shoes</h1><p>Grippy shoes for muddy paths; 80 reviews say they last a season.</p><div class="grid">${[1, 2, 3, 4, 5].map(card).join('')}</div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/trail-shoes');
  assert.ok(doc.bodyText.includes('Trail shoe 5'), doc.bodyText);
  assert.ok(doc.bodyText.includes('$95.00'));
  assert.ok(doc.bodyText.includes('80 reviews say they last a season'));
  for (const counter of ['(21)', '+3', '41 Reviews']) assert.ok(!doc.bodyText.includes(counter), `${counter} in:\n${doc.bodyText}`);

  // A year in parentheses is a film's, not a count; an article numbers its equations "(1)".
  const film = `<html><body><main><h1>Dune: Part Two</h1><p>(2024)</p>${prose('The film', 4)}</main></body></html>`;
  assert.ok(extractPage(film, 'https://films.example.com/dune-part-two').bodyText.includes('(2024)'));
  const paper = `<html><head><meta property="og:type" content="article"></head><body><article><h1>Mass and energy</h1>${prose('The equation', 4)}<p>E = mc^2</p><p>(1)</p>${prose('So it follows', 3)}</article></body></html>`;
  const text = extractPage(paper, 'https://physics.example.com/mass-energy').bodyText;
  assert.ok(/E = mc\^2\s+\(1\)/.test(text), text);
});

test('name-cloud-chrome: a page footer of plain names (every town served) goes even when it holds most of the page; a footer of prose that does stays', () => {
  const towns = Array.from({ length: 400 }, (_, i) => `Town${i}&nbsp;`).join('\n');
  const content = `<div class="content"><h1>Treadmill rentals</h1><p>Rent a treadmill by the week, delivered and set up in your home gym.</p></div>`;
  const html = `<html><body>${content}<footer><div>Our shop serves the following cities:</div><div>${towns}</div></footer></body></html>`;
  const doc = extractPage(html, 'https://rent.example.com/treadmills');
  assert.ok(doc.bodyText.includes('Rent a treadmill by the week'), doc.bodyText.slice(0, 300));
  assert.ok(!doc.bodyText.includes('Town42'), doc.bodyText.slice(0, 300));

  const prosy = `<html><body><p>Short.</p><footer>${prose('The footer story', 10)}</footer></body></html>`;
  assert.ok(extractPage(prosy, 'https://example.com/x').bodyText.includes('The footer story sentence 9'));
});

test("title-block: on a page that is not an article, a small box named as chrome that holds the <h1> and its description stays; a logo <h1> in a menu bar and an article's header still go", () => {
  const shop = `<html><body><div class="offer-holder sticky-navbar"><h1>Nano puff jacket</h1><p>$199.00</p>
    <div class="product-description"><p>A warm, light and packable synthetic layer for climbers that stays warm when wet.</p>${prose('The jacket', 3)}</div></div>
    <div class="directory">${Array.from({ length: 150 }, (_, i) => `<a href="/b/${i}">Brand number ${i}</a>`).join(' ')}</div></body></html>`;
  const doc = extractPage(shop, 'https://outfitter.example.com/nano-puff-jacket.html');
  assert.ok(doc.bodyText.includes('stays warm when wet'), doc.bodyText.slice(0, 400));

  const menu = (n: number) => Array.from({ length: n }, (_, i) => `<a href="/c/${i}">Category ${i}</a>`).join(' ');
  const logo = `<html><body><div class="navbar"><h1><a href="/">Outfitter</a></h1>${menu(12)}</div><div class="content">${prose('The page', 8)}</div></body></html>`;
  assert.ok(!extractPage(logo, 'https://outfitter.example.com/about').bodyText.includes('Category 3'));

  const article = `<html><head><meta property="og:type" content="article"></head><body><div class="page-header"><h1>Why wool</h1><p>A short dek about wool that is not the story.</p></div>
    <div class="content">${prose('The story', 12)}</div></body></html>`;
  assert.ok(!extractPage(article, 'https://news.example.com/why-wool').bodyText.includes('A short dek about wool'));
});

test('adjacent-figures: a year, a running time and a rating set side by side in markup stay apart; a figure and its ordinal or unit stay one word', () => {
  const row = (i: number) =>
    `<li class="title"><h3>#${i} Film number ${i}</h3><div class="meta"><span>2026</span><span>1h ${40 + i}m</span><span>R</span></div><span>6.${i} (2${i}K)</span></li>`;
  const html = `<html><body><main><h1>Most popular films</h1><ul>${[1, 2, 3, 4, 5].map(row).join('')}</ul>
    <p>The 1<sup>st</sup> chart ran in 1998 and weighed 5<span>kg</span> printed.</p></main></body></html>`;
  const text = extractPage(html, 'https://films.example.com/chart/popular').bodyText;
  assert.ok(text.includes('2026 1h 43m R'), text);
  assert.ok(!text.includes('20261h'), text);
  assert.ok(text.includes('The 1st chart ran in 1998 and weighed 5kg printed.'), text);
});

test("list-description: a category's or archive's own description above the list that won the main box joins it; one after the list, or one of links, stays out", () => {
  const post = (i: number) => `<article class="entry"><h2><a href="/recipe-${i}">Air fryer recipe number ${i}</a></h2><p>Crisp in ${10 + i} minutes with a spoon of oil, then rest for two.</p></article>`;
  const page = (before: string, after: string) =>
    `<html><body><div class="site">${before}<main class="content">${[1, 2, 3, 4, 5, 6].map(post).join('')}</main>${after}</div></body></html>`;
  const intro = `<div class="archive-description"><h1>Air fryer</h1><p>We love our air fryer and how it makes everything crispy in record time with little oil.</p></div>`;
  const text = extractPage(page(intro, ''), 'https://recipes.example.com/category/air-fryer/').bodyText;
  const at = (part: string) => text.indexOf(part);
  assert.ok(at('We love our air fryer') >= 0 && at('We love our air fryer') < at('Air fryer recipe number 1'), text);
  assert.ok(at('Air fryer recipe number 6') > at('Air fryer recipe number 1'), text);

  // After the list, the box is not the list's intro; a box of links is a menu.
  assert.ok(!extractPage(page('', intro), 'https://recipes.example.com/category/air-fryer/').bodyText.includes('We love our air fryer'));
  const links = `<div class="category-description">${Array.from({ length: 8 }, (_, i) => `<a href="/c/${i}">Other category number ${i}</a>`).join(' ')}</div>`;
  assert.ok(!extractPage(page(links, ''), 'https://recipes.example.com/category/air-fryer/').bodyText.includes('Other category number 3'));
});

test("feedback-prompt: a page's prompts for feedback on itself go as whole lines; a table row and a sentence that use the words stay", () => {
  const html = `<html><body><main><h1>Studio monitor lamp</h1>${prose('The lamp', 3)}
    <p>Print</p><p>Share:</p><p>See any errors on this page?</p>
    <ul><li>Report an issue with this product or seller</li><li>Would you like to tell us about a lower price?</li></ul>
    <p>Found a lower price? Let us know. Although we can't match every price reported, we'll use your feedback.</p>
    <p>Please sign in to provide feedback.</p><h3>Write a review</h3><p>Was this page helpful?</p></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/p/studio-lamp-42');
  assert.ok(doc.bodyText.includes('The lamp sentence 2'), doc.bodyText);
  for (const prompt of ['Print', 'Share:', 'errors on this page', 'Report an issue', 'lower price', 'provide feedback', 'Write a review', 'helpful'])
    assert.ok(!doc.bodyText.includes(prompt), `${prompt} in:\n${doc.bodyText}`);

  const manual = `<html><body><main><h1>Runtime events</h1>${prose('The event table', 3)}
    <table><tr><th>Event</th><th>Action</th></tr><tr><td>Report an error regarding a particular runtime event</td><td>Raise an exception</td></tr>
    <tr><td>Print</td><td>Write the page to the printer</td></tr></table>
    <p>Was this helpful to readers? We asked them, and most said the print edition was.</p></main></body></html>`;
  const text = extractPage(manual, 'https://docs.example.com/runtime-events').bodyText;
  assert.ok(text.includes('Report an error regarding a particular runtime event'), text);
  assert.ok(text.includes('Write the page to the printer'), text);
  assert.ok(text.includes('Was this helpful to readers?'), text);
});

test("screen-reader-copy: on a shop's page, a label or price written again for screen readers goes whatever the class's spelling; a sentence for them and a box about them stay", () => {
  const card = (i: number) =>
    `<div class="tile"><a href="/p/lamp-${i}">Desk lamp ${i}</a><p class="price"><span aria-hidden="true">$${40 + i}.00</span><span class="tile-price__sr-text">Price $ ${40 + i}.00</span></p>
    <p><span class="u-screen-reader-only">Sale price: </span>$${30 + i}.50 <span class="is-screenreader-only">Original price: </span>$${50 + i}.00</p></div>`;
  const html = `<html><head><meta property="og:type" content="product.group"></head><body><main><h1>Desk lamps</h1><p>Lamps for a desk, a drafting table or a bedside. <span class="screen-reader-only">Shoppers rate the range four and a half stars out of five.</span></p><div class="grid">${[1, 2, 3, 4, 5, 6].map(card).join('')}</div></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/collections/desk-lamps');
  assert.ok(doc.bodyText.includes('Desk lamp 6'), doc.bodyText);
  assert.ok(doc.bodyText.includes('$46.00') && doc.bodyText.includes('$36.50'), doc.bodyText);
  for (const copy of ['Price $', 'Sale price', 'Original price']) assert.ok(!doc.bodyText.includes(copy), `${copy} in:\n${doc.bodyText}`);
  // A sentence written for screen readers stands for a picture (the stars): it stays.
  assert.ok(doc.bodyText.includes('four and a half stars out of five'), doc.bodyText);

  const guide = `<html><body><main><h1>Reading the web aloud</h1><div class="screen-readers">${prose('Screen readers', 4)}</div><p>Rated <span class="screen-reader-only">four and a half stars out of five by readers</span></p></main></body></html>`;
  const guideText = extractPage(guide, 'https://a11y.example.com/screen-readers').bodyText;
  assert.ok(guideText.includes('Screen readers sentence 3'), guideText);
  // A sentence written for screen readers stands for a picture (the stars): it stays.
  assert.ok(guideText.includes('four and a half stars out of five'), guideText);
});

test("related-rail-titles: a product's rail titled \"We know you'll love these too\", \"Recommended accessories\" or \"Choose your add-ons\" goes with its cards; a section that only mentions accessories, or copy that says \"you'll love\", stays", () => {
  const card = (n: number) => `<li class="card"><a href="/p/${n}">Spare filter ${n}</a><span>$${n}9.00</span></li>`;
  const rail = (title: string) => `<section><h2>${title}</h2><ul>${[1, 2, 3, 4].map(card).join('')}</ul></section>`;
  for (const title of ["We know you'll love these too", 'You’ll also like', 'Recommended Accessories', 'Choose your add-ons']) {
    const html =
      `<html><head><meta property="og:type" content="product"></head><body><main><h1>Water jug</h1><p>$39.00</p>${prose('Filtering', 3)}` +
      `${rail(title)}<section><h2>What's in the box</h2>${prose('The jug and one filter', 2)}</section></main></body></html>`;
    const doc = extractPage(html, 'https://shop.example.com/products/water-jug');
    assert.ok(doc.bodyText.includes('Filtering sentence 2') && doc.bodyText.includes('The jug and one filter sentence 1'), doc.bodyText);
    for (const junk of [title, 'Spare filter 3']) assert.ok(!doc.bodyText.includes(junk), `${junk} in:\n${doc.bodyText}`);
  }
  const own =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Water jug</h1><p>$39.00</p>${prose('Filtering', 3)}` +
    `<section><h2>Accessories included</h2>${prose('A spare lid', 2)}</section><section><h2>If you love tea, you’ll love this jug.</h2>${prose('Brewing', 2)}</section></main></body></html>`;
  const ownText = extractPage(own, 'https://shop.example.com/products/water-jug').bodyText;
  assert.ok(ownText.includes('A spare lid sentence 1'), ownText);
  // A line of copy that says "you'll love" is not a rail's title.
  assert.ok(ownText.includes('Brewing sentence 1'), ownText);
});

test('tooltip-text: a gloss shown on hover (beside a spec, a form field, as a footnote bubble) goes; the term a reader points at, and a section whose class only mentions tooltips, stay', () => {
  const row = (term: string, value: string, gloss: string) =>
    `<tr><td class="spec-title">${term}<tool-tip class="tool-tip"><span class="visually-hidden">More information</span><div class="tool-tip__content">${gloss}</div></tool-tip></td><td>${value}</td></tr>`;
  const html =
    `<html><head><meta property="og:type" content="product"></head><body><main><h1>Studio headphones</h1><p>$349.00</p>${prose('Open-back sound', 3)}` +
    `<table>${row('Impedance', '32 ohm', 'Usually between 8 and 600 ohm; high impedance needs an amplifier.')}${row('Weight', '372 grams', 'Heavier headphones can tire the neck over long sessions.')}</table>` +
    `<p>Sizes run small<span role="tooltip">Most reviewers say this product is true to size.</span></p>` +
    `<p>Fits <span class="size-selector_tooltip__XX4OM">Measured on a medium head by our own testers.</span> most heads.</p></main></body></html>`;
  const doc = extractPage(html, 'https://shop.example.com/products/studio-headphones');
  for (const kept of ['Open-back sound sentence 2', 'Impedance', '32 ohm', '372 grams', 'Sizes run small']) assert.ok(doc.bodyText.includes(kept), `${kept} missing:\n${doc.bodyText}`);
  for (const gloss of ['Usually between', 'tire the neck', 'true to size', 'Measured on a medium head']) assert.ok(!doc.bodyText.includes(gloss), `${gloss} in:\n${doc.bodyText}`);

  // The term a reader points at is the text's own: a link, or a box that carries its tooltip in
  // its title, whatever its class; "tooltip-toggle" names a trigger, not the bubble.
  const docs =
    `<html><body><main><h1>Pods</h1><p>A Pod is a group of one or more <a class="glossary-tooltip" title="A lightweight image" data-toggle="tooltip" href="/containers">containers</a> that share storage.</p>` +
    `<p>Each Pod runs <span class="term-tooltip" title="A process">init steps</span> before the app.</p>` +
    `<div class="tooltip-toggle">${prose('Messaging therapy', 2)}</div>${prose('Pods in practice', 2)}</main></body></html>`;
  const docsText = extractPage(docs, 'https://docs.example.com/concepts/pods').bodyText;
  for (const kept of ['one or more containers that share storage', 'runs init steps before', 'Messaging therapy sentence 1']) assert.ok(docsText.includes(kept), `${kept} missing:\n${docsText}`);
});

test("disclaimer-fine-print: a box named a disclaimer goes from the main box whatever its share and its other class words; one that holds half the page stays", () => {
  const fine = `<div class="richtext text cmp-richtext--disclaimer">${prose('All investing is subject to risk', 3)}</div>`;
  const html = `<html><body><main><h1>Index funds</h1>${prose('Index funds track a market', 5)}<div class="feature__disclaimer-wrap"><p>Image simulated. Products sold separately.</p></div>${fine}</main></body></html>`;
  const doc = extractPage(html, 'https://invest.example.com/index-funds');
  assert.ok(doc.bodyText.includes('Index funds track a market sentence 4'), doc.bodyText);
  for (const junk of ['All investing is subject to risk', 'Image simulated']) assert.ok(!doc.bodyText.includes(junk), `${junk} in:\n${doc.bodyText}`);

  // A page that is its terms is the page.
  const terms = `<html><body><main><h1>Legal</h1><p>Read this first.</p><div class="disclaimer">${prose('The terms of use', 4)}</div></main></body></html>`;
  assert.ok(extractPage(terms, 'https://invest.example.com/legal').bodyText.includes('The terms of use sentence 3'));
});

test("shop-page-reviews: on a category page that sells, shoppers' rated reviews under the grid go; on a page that sells nothing they stay", () => {
  const shop = extractPage(shopFixture('category-reviews.html'), 'https://mats.example/collections/yoga-mats').bodyText;
  assert.ok(shop.includes('Natural rubber mats that grip') && shop.includes('Hot yoga towel'), shop);
  assert.ok(!shop.includes('I have tried many brands of yoga mats') && !shop.includes('Saved our carpet'), shop);
  // A directory of local movers sells nothing on the page: its customers' reviews are what a reader compares.
  const directory = extractPage(shopFixture('directory-reviews.html'), 'https://movefinder.example/movers/harbourtown').bodyText;
  assert.ok(directory.includes('carried a piano up three flights') && directory.includes('Compare local moving crews'), directory);
});

test("product-facts-modal: on a product page a specifications or measurements box drawn as a modal stays; a modal sign-up and the same box on an article go", () => {
  const facts =
    `<div class="shelf-measurements-modal"><h2 class="shelf-measurements-modal__title">Measurements</h2><ul class="shelf-measurements-modal__list">` +
    `<li>Width: 30 1/8 in</li><li>Depth: 15 3/8 in</li><li>Max load per shelf: 29 lb</li></ul></div>`;
  const signup = `<div class="newsletter-modal"><p>Join our list for 10% off your first order.</p></div><div class="promo-popup"><p>Free delivery this weekend only.</p></div>`;
  const page = (head: string) =>
    `<html><head>${head}</head><body><main><h1>Cube shelf unit</h1>${prose('A shelf unit that stands or lies down', 3)}${facts}${signup}</main></body></html>`;
  const product = extractPage(page('<meta property="og:type" content="product">'), 'https://furniture.example/p/cube-shelf-unit-80275887/').bodyText;
  for (const kept of ['Measurements', 'Width: 30 1/8 in', 'Max load per shelf: 29 lb']) assert.ok(product.includes(kept), `${kept} missing:\n${product}`);
  for (const junk of ['Join our list', 'Free delivery this weekend']) assert.ok(!product.includes(junk), `${junk} in:\n${product}`);
  // On a page that is not a product's, a modal stays chrome whatever it is named.
  const article = extractPage(page('<meta property="og:type" content="article">'), 'https://furniture.example/blog/shelves').bodyText;
  assert.ok(article.includes('A shelf unit that stands or lies down sentence 2') && !article.includes('Max load per shelf'), article);
});
