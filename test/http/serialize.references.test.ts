// A sources list at the end of an article is the article's evidence: through the real server it
// reaches the serialization in every extraction mode, paged or whole, and through the MCP tool,
// under its own title ("Sources", "References", "Quellen", "Fuentes") with the links it cites.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const html = { 'content-type': 'text/html; charset=utf-8' };

function page(lang: string, title: string, prose: string, tail: string): string {
  const paras = Array.from({ length: 5 }, (_, i) => `<p>${prose} (${i + 1})</p>`).join('\n');
  return `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
${tail.replace('PROSE', `<h1>${title}</h1>\n${paras}`)}
<footer><p>© 2026 The Harbour Gazette. Imprint and privacy.</p></footer></body></html>`;
}

interface Case {
  path: string;
  heading: string;
  links: { text: string; href: string }[];
  html: string;
}

const EN = 'The city council approved the budget for the new tram line on Tuesday, ending months of debate about its route, its cost and who pays for the depot';
const DE = 'Der Stadtrat hat am Dienstag den Haushalt für die neue Straßenbahnlinie beschlossen und damit eine monatelange Debatte über Strecke und Kosten beendet';
const ES = 'El pleno del ayuntamiento aprobó el martes el presupuesto de la nueva línea de tranvía tras meses de debate sobre su recorrido y su coste';

/** [path, list title, language, prose, markup around PROSE and LIST, the list's links as "text|href"]. */
const TABLE: [string, string, string, string, string, string[]][] = [
  // A bare list under a title inside the article: pruning reads it as a box of links.
  ['/sources', 'Sources', 'en', EN, '<main><article>PROSE\n<h2>Sources</h2><ul>LIST</ul></article></main>', [
    'Reuters|https://www.reuters.com/world/tram-budget', 'AP News|https://apnews.com/article/tram-costs', 'City council minutes, 12 March 2026|https://council.example.gov/minutes/2026-03-12']],
  // A references section after the article: citations with years and links.
  ['/references', 'References', 'en', EN, '<main><article>PROSE</article>\n<section class="references"><h2>References</h2><ol>LIST</ol></section></main>', [
    'Smith, J. (2024). Light rail in small cities. Transport Review 12(3).|https://doi.org/10.1000/tr.2024.12', 'Jones, K. (2023). What trams cost to run. Urban Studies.|https://journals.example.org/us/2023/trams']],
  ['/quellen', 'Quellen', 'de', DE, '<main><article>PROSE\n<section><h3>Quellen:</h3><ul>LIST</ul></section></article></main>', [
    'Der Spiegel|https://www.spiegel.de/wirtschaft/strassenbahn', 'Die Zeit|https://www.zeit.de/mobilitaet/tram', 'Stadtrat, Protokoll|https://stadt.example.de/protokoll']],
  // A bold paragraph as the title.
  ['/fuentes', 'Fuentes', 'es', ES, '<main><article>PROSE\n<p><strong>Fuentes</strong></p><ol>LIST</ol></article></main>', [
    'El País, «El pleno aprueba el tranvía», 2026|https://elpais.com/espana/tranvia.html', 'ABC, «Cuánto costará el tranvía», 2026|https://www.abc.es/economia/tranvia.html']],
];

const CASES: Case[] = TABLE.map(([path, heading, lang, prose, markup, list]) => {
  const links = list.map((l) => ({ text: l.split('|')[0]!, href: l.split('|')[1]! }));
  const items = links.map((l) => `<li><a href="${l.href}">${l.text}</a></li>`).join('');
  return { path, heading, links, html: page(lang, `Tram line ${heading}`, prose, markup.replace('LIST', items)) };
});

function assertSources(view: string, c: Case): void {
  assert.match(view, new RegExp(`^## ${c.heading}$`, 'm'), view);
  const at = view.indexOf(`## ${c.heading}`);
  assert.ok(at > view.indexOf('(5)'), 'the sources come after the article');
  for (const l of c.links) {
    const line = view.split('\n').find((x) => x.includes(l.href)) ?? '';
    assert.ok(line.startsWith('- ['), `no list item links ${l.href}:\n${view}`);
    assert.ok(line.includes(l.text), `${l.text} missing:\n${view}`);
  }
  assert.equal(view.split(`## ${c.heading}`).length, 2, 'the sources title is printed once');
  for (const junk of ['Sport', 'Imprint']) assert.ok(!view.includes(junk), `"${junk}" in the view`);
}

describe('serialization keeps an article\'s sources list', () => {
  let site: FixtureServer;
  let s: TestServer;
  let base: string;

  before(async () => {
    site = await startFixtureServer(Object.fromEntries(CASES.map((c) => [c.path, { headers: html, body: c.html }])));
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => Promise.all([s.close(), site.close()]));

  /** The serialization of `path` (query: mode, slice), answered 200. */
  const serialize = async (key: string, path: string, query: Record<string, unknown> = {}) => {
    const res = await s.request('POST', '/v1/pages/content/serialize', { key, body: { url: site.url(path), ...query } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().serialization;
  };

  for (const c of CASES) {
    test(`"${c.heading}": in the view and the outline in ssr, csr and full`, async () => {
      const { key } = await s.account({ credits: 10 });
      for (const mode of ['ssr', 'csr', 'full']) {
        const ser = await serialize(key, c.path, { extraction_mode: mode });
        assertSources(ser.content_view, c);
        assert.deepEqual(ser.headings.at(-1), { level: 2, text: c.heading }, mode);
        assert.equal(ser.headings.filter((h: { text: string }) => h.text === c.heading).length, 1, mode);
      }
    });
  }

  test('paged in small slices, the view still ends with the sources', async () => {
    const { key } = await s.account({ credits: 100 });
    const c = CASES[0]!;
    let offset: number | null = 0;
    let view = '';
    while (offset !== null) {
      const ser = await serialize(key, c.path, { max_chars: 200, offset });
      view += ser.content_view;
      offset = ser.next_offset;
    }
    assertSources(view, c);
  });

  test('the MCP tool serialize_page gives the same view with the sources', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const c = CASES[2]!;
      const result = (await client.callTool({ name: 'serialize_page', arguments: { url: site.url(c.path) } })) as { content: { text: string }[] };
      const mcp = JSON.parse(result.content[0]!.text).serialization;
      assertSources(mcp.content_view, c);
      const http = await serialize(key, c.path);
      assert.equal(mcp.content_view, http.content_view);
    } finally {
      await client.close();
    }
  });
});
