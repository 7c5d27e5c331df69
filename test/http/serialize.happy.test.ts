// POST /v1/pages/content/serialize through the real server against a loopback fixture site:
// the content view of an article without its boilerplate, the exact response shape, 1 credit per
// request (in /v1/usage and /v1/activity), paging a long page back together exactly from one
// upstream fetch, surrogate pairs never split, legacy charsets, broken HTML and redirects.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { renderContentView } from '../../src/core/pages/content-view.ts';
import { extractPage } from '../../src/core/pages/extract/index.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const html = { 'content-type': 'text/html; charset=utf-8' };

const ARTICLE = `<!doctype html><html lang="en"><head>
<title>How to brew pour-over coffee</title>
<meta name="description" content="A step-by-step pour-over guide with ratios and timings.">
</head><body>
<div class="cookie-banner" id="cookie-consent">We use cookies to improve your experience. <button>Accept all cookies</button></div>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop our beans</a></li><li><a href="/about">About us</a></li></ul></nav></header>
<main><article>
<h1>How to brew pour-over coffee</h1>
<p>Good coffee starts with freshly ground beans and water just off the boil. This guide walks
through the pour-over method step by step, with the ratios that work for most roasts.</p>
<h2>What you need</h2>
<ul><li>A pour-over dripper</li><li>Paper filters</li><li>A gooseneck kettle</li></ul>
<h2>The ratio</h2>
<p>Use about sixty grams of coffee per litre of water, and adjust to taste after a few cups.
A finer grind slows the draw-down and extracts more.</p>
<script>window.tracker = "TRACKING_SCRIPT_TEXT";</script>
</article></main>
<footer><p>© 2026 Example Coffee Roasters. All rights reserved. Imprint and privacy policy.</p></footer>
</body></html>`;

/** About 60 000 characters of prose with emoji and accents, so slices straddle surrogate pairs. */
function longPage(): string {
  const sections: string[] = [];
  for (let i = 1; i <= 40; i++) {
    const paras: string[] = [];
    for (let j = 1; j <= 6; j++) {
      paras.push(
        `<p>Section ${i}, paragraph ${j}: roasting curves ☕😀 change how beans taste — crème brûlée notes,
        𝔣𝔯𝔲𝔦𝔱 and chocolate 🍫 appear as the roast develops. Keep a log of every batch, weigh the beans before
        and after, and compare cups side by side so that small changes become visible over time (${i}.${j}).</p>`,
      );
    }
    sections.push(`<h2>Roasting notes ${i} 🔥</h2>${paras.join('\n')}`);
  }
  return `<!doctype html><html lang="en"><head><title>The long roasting handbook</title>
<meta name="description" content="Everything about home roasting."></head><body><main><article>
<h1>The long roasting handbook</h1>${sections.join('\n')}</article></main></body></html>`;
}
const LONG = longPage();

const EMOJI = `<!doctype html><html><head><title>Emoji</title></head><body><main>
<p>${'😀a🍫bc🔥'.repeat(30)} The end of a paragraph that is long enough to be kept as content.</p></main></body></html>`;

// Unclosed tags, stray end tags, misnested inline tags, deep nesting, a NUL byte.
const BROKEN = `<html><head><title>Broken page</title><body><div><div><p>First paragraph of the broken page
has enough words to count as real content for the extractor to keep it around.<p>Second paragraph
</b></i></span> keeps going <a href=x title='a>b'>misnested <b>bold</a></b> after stray end tags.
${'<div>'.repeat(5_000)}<p>Deep inside five thousand unclosed divs the text is still here.\u0000
<table><tr><td>cell one<td>cell two</table></p>`;

/** Shift_JIS encoder for the few characters used here, built from the platform's decoder. */
function shiftJis(text: string): Buffer {
  const table = new Map<string, number[]>();
  const decoder = new TextDecoder('shift_jis');
  for (let lead = 0x81; lead <= 0xfc; lead++) {
    if (lead > 0x9f && lead < 0xe0) continue;
    for (let trail = 0x40; trail <= 0xfc; trail++) {
      const ch = decoder.decode(Uint8Array.of(lead, trail));
      if (ch.length === 1 && !table.has(ch)) table.set(ch, [lead, trail]);
    }
  }
  const bytes: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) bytes.push(ch.charCodeAt(0));
    else bytes.push(...(table.get(ch) ?? assert.fail(`no Shift_JIS code for ${ch}`)));
  }
  return Buffer.from(bytes);
}

const SJIS_TEXT = '日本語のページです。コーヒーの淹れ方について説明します。豆を挽いて、お湯を注ぎ、三分間待ちます。';
const SJIS_PAGE = shiftJis(
  `<html><head><meta charset="Shift_JIS"><title>コーヒーの淹れ方</title></head><body><main><p>${SJIS_TEXT}</p><p>${SJIS_TEXT}</p></main></body></html>`,
);

// windows-1252: 0x80 is the euro sign and 0x93/0x94 curly quotes (latin1 would give C1 controls).
const CP1252_PAGE = Buffer.concat([
  Buffer.from('<html><head><title>Caf\xe9 prices</title></head><body><main><p>A caf\xe9 cr\xe8me costs 3 ', 'latin1'),
  Buffer.from([0x80]),
  Buffer.from(' at the corner ', 'latin1'),
  Buffer.from([0x93]),
  Buffer.from('Chez Ren\xe9e', 'latin1'),
  Buffer.from([0x94]),
  Buffer.from(', which has served coffee to the neighbourhood for more than forty years now.</p></main></body></html>', 'latin1'),
]);

const SHAPE_KEYS = [
  'billing',
  'content_type',
  'content_view',
  'content_view_chars',
  'content_view_offset',
  'content_view_truncated',
  'description',
  'final_url',
  'headings',
  'http_status',
  'language',
  'next_offset',
  'payload_limits',
  'title',
  'total_chars',
  'url',
  'word_count',
];

describe('POST /v1/pages/content/serialize (happy paths)', () => {
  let site: FixtureServer;
  let s: TestServer;

  before(async () => {
    site = await startFixtureServer({
      '/article': { headers: html, body: ARTICLE },
      '/long': { headers: html, body: LONG },
      '/emoji': { headers: html, body: EMOJI },
      '/broken': { headers: html, body: BROKEN },
      '/sjis': { headers: { 'content-type': 'text/html' }, body: SJIS_PAGE },
      '/cp1252': { headers: { 'content-type': 'text/html; charset=windows-1252' }, body: CP1252_PAGE },
      '/old': { redirect: '/older' },
      '/older': { status: 301, redirect: '/article' },
    });
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  const serialize = async (key: string, body: Record<string, unknown>) => {
    const res = await s.request('POST', '/v1/pages/content/serialize', { key, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().serialization;
  };

  test('an article serializes to its content view without boilerplate, for exactly 1 credit', async () => {
    const { key } = await s.account({ credits: 10 });
    const res = await s.request('POST', '/v1/pages/content/serialize', { key, body: { url: site.url('/article') } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['serialization']);
    const ser = body.serialization;
    assert.deepEqual(Object.keys(ser).sort(), SHAPE_KEYS);

    const view: string = ser.content_view;
    assert.ok(view.startsWith('# How to brew pour-over coffee\n\nA step-by-step pour-over guide with ratios and timings.\n'), view);
    assert.match(view, /^## What you need$/m);
    assert.match(view, /^- A gooseneck kettle$/m);
    assert.match(view, /sixty grams of coffee per litre of water/);
    for (const junk of ['cookies', 'Shop our beans', 'About us', 'All rights reserved', 'TRACKING_SCRIPT_TEXT']) {
      assert.ok(!view.includes(junk), `content view still contains "${junk}"`);
    }

    assert.equal(ser.url, site.url('/article'));
    assert.equal(ser.final_url, site.url('/article'));
    assert.equal(ser.http_status, 200);
    assert.equal(ser.content_type, 'text/html');
    assert.equal(ser.title, 'How to brew pour-over coffee');
    assert.equal(ser.description, 'A step-by-step pour-over guide with ratios and timings.');
    assert.equal(ser.language, 'en');
    assert.deepEqual(ser.headings, [
      { level: 1, text: 'How to brew pour-over coffee' },
      { level: 2, text: 'What you need' },
      { level: 2, text: 'The ratio' },
    ]);
    assert.ok(ser.word_count > 40);
    assert.equal(ser.content_view_offset, 0);
    assert.equal(ser.content_view_chars, view.length);
    assert.equal(ser.total_chars, view.length);
    assert.equal(ser.content_view_truncated, false);
    assert.equal(ser.next_offset, null);
    assert.deepEqual(ser.billing, { billable: true, estimated_credits: '1.00' });
    assert.deepEqual(ser.payload_limits, { raw_extraction_returned: false, max_chars: 12000 });

    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '9.00');
    assert.equal(usage.credits.used_credit_units, '1.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal(usage.recent[0].action, 'pages.content.serialize');
    assert.equal(usage.recent[0].credits, '1.00');
    assert.equal(usage.recent[0].status, 'settled');

    const activity = (await s.request('GET', '/v1/activity?kind=pages', { key })).json().items;
    assert.equal(activity.length, 1);
    assert.equal(activity[0].action, 'pages.content.serialize');
    assert.equal(activity[0].path, '/v1/pages/content/serialize');
    assert.equal(activity[0].http_status, 200);
    assert.equal(activity[0].credits, '1.00');
  });

  test('extraction_mode ssr, csr and full are all accepted and give the same static view', async () => {
    const { key } = await s.account({ credits: 10 });
    const views = [];
    for (const mode of ['ssr', 'csr', 'full']) views.push((await serialize(key, { url: site.url('/article'), extraction_mode: mode })).content_view);
    assert.equal(views[0], views[1]);
    assert.equal(views[0], views[2]);
  });

  test('a long page pages to the end, reassembles exactly, and is fetched upstream once', async () => {
    const { key } = await s.account({ credits: 50 });
    const expected = renderContentView(extractPage(LONG, site.url('/long')));
    assert.ok(expected.length > 50_000, `fixture view only ${expected.length} chars`);

    const slices: string[] = [];
    let offset: number | null = 0;
    let requests = 0;
    while (offset !== null) {
      const ser = await serialize(key, { url: site.url('/long'), offset, max_chars: 9_999 });
      requests++;
      assert.equal(ser.content_view_offset, offset);
      assert.equal(ser.content_view_chars, ser.content_view.length);
      assert.ok(ser.content_view_chars <= 9_999);
      assert.equal(ser.total_chars, expected.length);
      assert.equal(ser.payload_limits.max_chars, 9_999);
      assert.equal(ser.content_view_truncated, ser.next_offset !== null);
      if (ser.next_offset !== null) assert.equal(ser.next_offset, offset + ser.content_view_chars);
      slices.push(ser.content_view);
      offset = ser.next_offset;
    }
    assert.equal(slices.join(''), expected);
    assert.ok(requests >= Math.ceil(expected.length / 9_999));
    assert.equal(site.hits('/long'), 1, 'the cache must serve every slice after the first');

    // Each successful request is billed on its own, cached or not.
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, `${requests}.00`);

    // An offset at or beyond the end is an empty slice: a 200 that says `billable: false` and
    // leaves the ledger as it was (nothing reserved, nothing used, no new ledger row).
    const ledgerBefore = (await s.request('GET', '/v1/usage?recent_limit=100', { key })).json();
    for (const past of [expected.length, expected.length + 5_000]) {
      const end = await serialize(key, { url: site.url('/long'), offset: past });
      assert.equal(end.content_view, '');
      assert.equal(end.content_view_chars, 0);
      assert.equal(end.content_view_offset, past);
      assert.equal(end.content_view_truncated, false);
      assert.equal(end.next_offset, null);
      assert.equal(end.total_chars, expected.length);
      assert.deepEqual(end.billing, { billable: false, estimated_credits: '1.00' });
    }
    const ledgerAfter = (await s.request('GET', '/v1/usage?recent_limit=100', { key })).json();
    assert.deepEqual(ledgerAfter.credits, ledgerBefore.credits);
    assert.equal(ledgerAfter.credits.used_credit_units, `${requests}.00`);
    assert.equal(ledgerAfter.credits.reserved_credit_units, '0.00');
    assert.deepEqual(
      ledgerAfter.recent.filter((r: { status: string }) => r.status !== 'released'),
      ledgerBefore.recent.filter((r: { status: string }) => r.status !== 'released'),
    );
    assert.equal(site.hits('/long'), 1);
  });

  test('slices never split a surrogate pair, and still reassemble exactly', async () => {
    const { key } = await s.account({ credits: 200 });
    const expected = renderContentView(extractPage(EMOJI, site.url('/emoji')));
    const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
    const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
    const slices: string[] = [];
    let offset: number | null = 0;
    let shortened = 0;
    while (offset !== null) {
      const ser = await serialize(key, { url: site.url('/emoji'), offset, max_chars: 7 });
      const text: string = ser.content_view;
      assert.ok(!isHigh(text.charCodeAt(text.length - 1)), `slice at ${offset} ends inside a pair`);
      assert.ok(!isLow(text.charCodeAt(0)), `slice at ${offset} starts inside a pair`);
      assert.ok(text.length <= 7);
      if (text.length === 6) shortened++;
      slices.push(text);
      offset = ser.next_offset;
    }
    assert.equal(slices.join(''), expected);
    assert.ok(shortened > 0, 'the fixture should force at least one slice to end early');

    // max_chars 1 at an astral character returns the whole character, so paging moves forward.
    const at = expected.indexOf('😀');
    const one = await serialize(key, { url: site.url('/emoji'), offset: at, max_chars: 1 });
    assert.equal(one.content_view, '😀');
    assert.equal(one.next_offset, at + 2);
    // An offset inside a pair starts at the pair.
    const inside = await serialize(key, { url: site.url('/emoji'), offset: at + 1, max_chars: 3 });
    assert.equal(inside.content_view_offset, at);
    assert.ok(inside.content_view.startsWith('😀'));
  });

  test('legacy charsets are decoded: windows-1252 from the header, Shift_JIS from a meta tag', async () => {
    const { key } = await s.account({ credits: 10 });
    const cp = await serialize(key, { url: site.url('/cp1252') });
    assert.equal(cp.title, 'Café prices');
    assert.match(cp.content_view, /A café crème costs 3 € at the corner “Chez Renée”, which has served/);

    const sj = await serialize(key, { url: site.url('/sjis') });
    assert.equal(sj.title, 'コーヒーの淹れ方');
    assert.ok(sj.content_view.startsWith('# コーヒーの淹れ方\n'), sj.content_view);
    assert.ok(sj.content_view.includes(SJIS_TEXT), sj.content_view);
  });

  test('broken HTML still serializes', async () => {
    const { key } = await s.account({ credits: 10 });
    const ser = await serialize(key, { url: site.url('/broken') });
    assert.equal(ser.billing.billable, true);
    assert.equal(ser.title, 'Broken page');
    assert.match(ser.content_view, /First paragraph of the broken page/);
    assert.match(ser.content_view, /Deep inside five thousand unclosed divs the text is still here/);
  });

  test('redirects are followed: url is the request, final_url where the content came from', async () => {
    const { key } = await s.account({ credits: 10 });
    const ser = await serialize(key, { url: site.url('/old#section') });
    assert.equal(ser.url, site.url('/old'));
    assert.equal(ser.final_url, site.url('/article'));
    assert.equal(ser.http_status, 200);
    assert.equal(ser.title, 'How to brew pour-over coffee');
    assert.equal(ser.billing.billable, true);
  });

  test('the OpenAPI document describes the endpoint, its body bounds and its errors', async () => {
    const doc = (await s.request('GET', '/openapi.json')).json();
    const op = doc.paths['/v1/pages/content/serialize'].post;
    assert.ok(op, 'route documented');
    for (const status of ['200', '400', '401', '402', '403', '422', '429', '500', '503']) assert.ok(op.responses[status], status);
    const schema = op.requestBody.content['application/json'].schema;
    assert.deepEqual(schema.required, ['url']);
    assert.equal(schema.properties.max_chars.anyOf?.[0]?.maximum ?? schema.properties.max_chars.maximum, 25000);
  });
});
