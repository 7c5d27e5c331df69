// Technical AI-readiness audit of one URL: robots.txt rules for the AI crawlers (parsed with
// `robots-parser`, which implements RFC 9309 matching), llms.txt (per the llms.txt proposal),
// the sitemap, canonical, meta robots, JSON-LD and Open Graph. Each check is
// {id, status, detail}; failures and warnings also become ranked recommendations keyed by a
// stable `signal`. The one thing to know: robots.txt that answers 5xx means "disallow all"
// (RFC 9309 §2.3.1.4), a 4xx means "allow all".
import { crawlFactsFor, refetchAsCrawlers, robotsFor } from './access.ts';
import { SEARCH_ROLES, type CrawlerAccess } from './crawlers.ts';
import { jsonLdTypes } from './keyphrases.ts';
import { hostOf } from '../../lib/url.ts';
import { sameUrl } from './signals.ts';
import { loadPrimary } from './site.ts';
import { cmp } from './text.ts';
import { bandOf, clampScore, notThere, type AuditCheck, type AuditResult, type Priority, type Recommendation, type SiteLoader } from './types.ts';

const WEIGHTS: Record<string, number> = {
  robots_txt: 2,
  llms_txt: 2, // an optional hint (llmstxt.org); no assistant is known to require it
  sitemap: 10,
  sitemap_lists_page: 5,
  canonical: 8,
  meta_robots: 20,
  json_ld: 10,
  open_graph: 5,
};

export interface LlmsTxtReport {
  present: boolean;
  valid: boolean;
  title: string | null;
  summary: string | null;
  sections: number;
  links: number;
  errors: string[];
}

/** Validates llms.txt against the published format (llmstxt.org): an H1 title first (the only
 * required part), then optionally a blockquote summary, free text, and H2 sections whose
 * content is a Markdown list of links. A file with just the H1 is valid. */
export function validateLlmsTxt(body: string): LlmsTxtReport {
  const lines = body.replace(/^\ufeff/, '').split(/\r?\n/);
  const errors: string[] = [];
  let title: string | null = null;
  let summary: string | null = null;
  let sections = 0;
  let links = 0;
  let currentSectionLinks = -1;
  let currentSection = '';
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return { present: true, valid: false, title: null, summary: null, sections: 0, links: 0, errors: ['The file is empty.'] };
  const firstLine = lines[first]!.trim();
  if (/^#\s+\S/.test(firstLine)) title = firstLine.replace(/^#\s+/, '').trim();
  else errors.push('The first line must be an H1 title ("# Site name").');
  const closeSection = () => {
    if (currentSectionLinks === 0) errors.push(`Section "${currentSection}" has no links.`);
  };
  for (let i = first + (title ? 1 : 0); i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    if (/^#\s/.test(line)) {
      errors.push(`Line ${i + 1}: only one H1 is allowed.`);
    } else if (/^##\s+\S/.test(line)) {
      closeSection();
      sections++;
      currentSection = line.replace(/^##\s+/, '');
      currentSectionLinks = 0;
    } else if (/^>\s?/.test(line) && sections === 0 && summary === null) {
      summary = line.replace(/^>\s?/, '').trim();
    } else if (/^[-*+]\s/.test(line)) {
      if (/^[-*+]\s+\[[^\]]+\]\([^)\s]+\)/.test(line)) {
        links++;
        if (currentSectionLinks >= 0) currentSectionLinks++;
      } else if (currentSectionLinks >= 0) {
        errors.push(`Line ${i + 1}: a list item in a section should be a Markdown link "- [name](url): notes".`);
      }
    } else if (/^#{3,}\s/.test(line) && sections === 0) {
      errors.push(`Line ${i + 1}: use H2 ("## ") for link sections.`);
    }
  }
  closeSection();
  return { present: true, valid: errors.length === 0, title, summary, sections, links, errors };
}

function looksLikeHtml(body: string, contentType: string | null): boolean {
  return /html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)/i.test(body);
}

/** <loc> URLs of a sitemap or sitemap index (regex is enough: loc holds a plain URL). */
export function sitemapLocs(xml: string): { index: boolean; locs: string[] } {
  const index = /<sitemapindex[\s>]/i.test(xml);
  const locs = [...xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)\s*(?:\]\]>)?\s*<\/loc>/gi)].map((m) =>
    m[1]!.replace(/&amp;/g, '&'),
  );
  return { index, locs };
}

function rec(signal: string, impact: number, title: string, recommendation: string): Recommendation {
  const priority: Priority = impact >= 8 ? 'high' : impact >= 5 ? 'medium' : 'low';
  return { priority, title, recommendation, expected_impact: impact, signal };
}

export async function auditSite(url: string, loader: SiteLoader): Promise<AuditResult> {
  const page = await loadPrimary(url, loader);
  const doc = page.document;
  const pageUrl = doc.url || url;
  const origin = new URL(pageUrl).origin;
  const checks: AuditCheck[] = [];
  const recs: Recommendation[] = [];
  let penalty = 0;
  const add = (id: string, status: AuditCheck['status'], detail: string, weight = WEIGHTS[id] ?? 0) => {
    checks.push({ id, status, detail });
    penalty += status === 'fail' ? weight : status === 'warn' ? weight / 2 : 0;
  };

  // --- robots.txt and AI crawlers (RFC 9309, whatever content type the file is served with)
  const robotsUrl = `${origin}/robots.txt`;
  const { report: robots, access } = await robotsFor(pageUrl, loader);
  const crawlers: CrawlerAccess[] = access;
  const sitemapUrls = robots.sitemaps;
  if (robots.state === 'missing') {
    add('robots_txt', 'warn', robots.status ? `No robots.txt (HTTP ${robots.status}): every crawler is allowed, but there is no place to declare the sitemap.` : 'robots.txt could not be fetched: every crawler is treated as allowed.');
    recs.push(rec('missing_robots_txt', 2, 'Publish a robots.txt', `Serve ${robotsUrl} with explicit "User-agent" groups for the AI crawlers you allow and a "Sitemap: ${origin}/sitemap.xml" line.`));
  } else if (robots.state === 'error') {
    add('robots_txt', 'fail', `robots.txt answered HTTP ${robots.status}: crawlers must treat the whole site as disallowed until it recovers (RFC 9309 §2.3.1.4).`, 30);
    recs.push(rec('robots_txt_error', 15, 'Fix robots.txt errors', `Make ${robotsUrl} answer 200 (or 404); a 5xx answer blocks every crawler, AI crawlers included.`));
  } else if (robots.html_body) {
    add('robots_txt', 'warn', `${robotsUrl} answers with an HTML page (${robots.content_type ?? 'no content type'}): parsed as robots.txt it holds no rules, so every crawler is allowed.`);
    recs.push(rec('robots_txt_html', 2, 'Serve a real robots.txt', `${robotsUrl} returns an HTML page; serve a plain-text robots.txt with your User-agent groups and Sitemap line.`));
  } else {
    add('robots_txt', 'pass', `robots.txt found (${robots.lines} lines${robots.content_type && !/text\/plain/i.test(robots.content_type) ? `, served as ${robots.content_type}; parsed anyway` : ''}).`);
  }
  const path = new URL(pageUrl).pathname;
  const crawl = await crawlFactsFor(page, loader);
  for (const c of crawlers) {
    const searchRole = SEARCH_ROLES.has(c.role);
    checks.push({
      id: `ai_crawler:${c.agent}`,
      // Blocking a training crawler is the owner's choice: reported, never a failure.
      status: c.allowed ? 'pass' : searchRole ? 'fail' : 'pass',
      detail: c.allowed
        ? `${c.agent} (${c.vendor}, ${c.role}: ${c.purpose}) may fetch ${path}${c.rule ? ` (rule "${c.rule}", line ${c.line})` : ' (no rule matches)'}.`
        : `${c.agent} (${c.vendor}, ${c.role}: ${c.purpose}) is blocked from ${path}${c.rule ? ` by "${c.rule}"${c.line ? ` (line ${c.line})` : ''}` : ''}${searchRole ? '' : ': a training crawler, so this is your choice and does not keep the page out of AI answers'}.`,
    });
    if (!c.allowed && searchRole) penalty += c.role === 'search' ? 5 : 4;
  }
  const blocked = crawlers.filter((c) => !c.allowed && SEARCH_ROLES.has(c.role));
  if (blocked.length && robots.state === 'ok') {
    const names = blocked.map((c) => c.agent);
    recs.push(
      rec(
        'ai_crawlers_blocked',
        15,
        'Unblock AI search crawlers',
        `robots.txt blocks ${names.join(', ')} from ${path} (${blocked.filter((c) => c.rule).map((c) => `"${c.rule}" line ${c.line}`).join('; ')}). ` +
          `These fetch pages for AI answers and citations; add "User-agent: ${names[0]}" + "Allow: ${path}" groups (or remove the Disallow). Blocking only training crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot…) is your choice.`,
      ),
    );
  }
  const training = crawlers.filter((c) => !c.allowed && c.role === 'training');
  if (training.length) add('ai_training_crawlers', 'pass', `Training crawlers blocked by choice: ${training.map((c) => c.agent).join(', ')}. This keeps content out of model training, not out of AI search answers.`, 0);

  // --- page directives per agent, snippets, JavaScript
  if (crawl.snippet_restricted.length) {
    add('snippets', 'fail', `Snippets forbidden or limited under 50 characters for ${crawl.snippet_restricted.join(', ')}.`, 15);
    recs.push(rec('snippet_restricted', 10, 'Allow snippets', `Remove nosnippet / raise max-snippet for ${crawl.snippet_restricted.join(', ')}: Google's AI Overviews and AI Mode quote nothing from a page without snippets. Wrap only the passages you must hide in data-nosnippet.`));
  } else add('snippets', 'pass', `Snippets allowed${crawl.nosnippet_regions ? `; ${crawl.nosnippet_regions} data-nosnippet region(s) are kept out of snippets` : ''}.`);
  if (crawl.needs_javascript) {
    add('javascript', 'fail', 'The HTML holds an app shell with almost no copy: the content needs JavaScript, which most AI crawlers do not run.', 25);
    recs.push(rec('needs_javascript', 15, 'Render the content in the HTML', 'Serve the copy in the HTML (server-side rendering or prerendering): GPTBot, ClaudeBot, PerplexityBot and most AI crawlers do not run JavaScript.'));
  } else add('javascript', 'pass', `The copy is in the HTML (${doc.wordCount} words without running scripts).`);
  const refetch = await refetchAsCrawlers(page, loader);
  if (refetch) {
    const differ = refetch.filter((r) => r.outcome !== 'same' && r.outcome !== 'error');
    if (differ.length) {
      add('crawler_fetch', 'fail', differ.map((r) => r.detail).join(' '), 20);
      recs.push(rec('crawler_fetch_blocked', 15, 'Let search crawlers through the CDN/firewall', `${differ.map((r) => r.detail).join(' ')} Allow verified crawlers (by reverse DNS or the vendors' published IP ranges) in the bot-protection rules.`));
    } else add('crawler_fetch', 'pass', `Fetched as ${refetch.map((r) => r.agent).join(', ')}: the same page as for a browser.`);
  }

  // --- llms.txt
  const llmsRes = await loader.fetchText(`${origin}/llms.txt`).catch(notThere);
  let llms: LlmsTxtReport = { present: false, valid: false, title: null, summary: null, sections: 0, links: 0, errors: [] };
  if (llmsRes && llmsRes.status < 300 && !looksLikeHtml(llmsRes.body, llmsRes.contentType)) {
    llms = validateLlmsTxt(llmsRes.body);
    if (llms.valid) add('llms_txt', 'pass', `llms.txt "${llms.title}" with ${llms.sections} sections and ${llms.links} links${llms.summary ? ' and a summary' : ''}.`);
    else {
      add('llms_txt', 'warn', `llms.txt is present but invalid: ${llms.errors.join(' ')}`);
      recs.push(rec('invalid_llms_txt', 2, 'Fix llms.txt', `Fix ${origin}/llms.txt: ${llms.errors.join(' ')} Expected: "# Site name", "> one-sentence summary", then "## Section" headings each followed by "- [Page](url): what it covers".`));
    }
  } else {
    add('llms_txt', 'warn', `No llms.txt at ${origin}/llms.txt${llmsRes ? ` (HTTP ${llmsRes.status}${llmsRes.status < 300 ? ', HTML page' : ''})` : ''}.`);
    recs.push(rec('missing_llms_txt', 1, 'Publish llms.txt', `Publish ${origin}/llms.txt: "# ${doc.openGraph['site_name'] ?? hostOf(pageUrl)}", a "> " one-sentence summary of the site, and "## " sections listing your key pages as "- [Title](url): what it answers", starting with ${pageUrl}.`));
  }

  // --- sitemap
  const candidates = sitemapUrls.length ? sitemapUrls.slice(0, 3) : [`${origin}/sitemap.xml`];
  let sitemapFound: string | null = null;
  const locs: string[] = [];
  for (const sm of candidates) {
    const res = await loader.fetchText(sm).catch(notThere);
    if (!res || res.status >= 300 || !/<(urlset|sitemapindex)[\s>]/i.test(res.body)) continue;
    sitemapFound ??= sm;
    const parsed = sitemapLocs(res.body);
    if (parsed.index) {
      for (const child of parsed.locs.slice(0, 3)) {
        const cr = await loader.fetchText(child).catch(notThere);
        if (cr && cr.status < 300) locs.push(...sitemapLocs(cr.body).locs);
      }
    } else locs.push(...parsed.locs);
  }
  const listsPage = sitemapFound ? locs.some((l) => sameUrl(l, pageUrl) || (doc.canonicalUrl ? sameUrl(l, doc.canonicalUrl) : false)) : null;
  if (!sitemapFound) {
    add('sitemap', 'fail', `No sitemap found (${sitemapUrls.length ? 'Sitemap lines in robots.txt' : `${origin}/sitemap.xml`} did not answer with a sitemap).`);
    add('sitemap_lists_page', 'warn', 'No sitemap, so the page is not listed in one.', 0);
    recs.push(rec('missing_sitemap', 5, 'Publish an XML sitemap', `Publish ${origin}/sitemap.xml listing your indexable pages with <lastmod>, and add "Sitemap: ${origin}/sitemap.xml" to robots.txt.`));
  } else {
    add('sitemap', 'pass', `Sitemap ${sitemapFound} lists ${locs.length} URLs.`);
    if (listsPage) add('sitemap_lists_page', 'pass', `The sitemap lists ${pageUrl}.`);
    else {
      add('sitemap_lists_page', 'warn', `The sitemap does not list ${pageUrl}.`);
      recs.push(rec('page_not_in_sitemap', 3, 'List the page in the sitemap', `Add <url><loc>${doc.canonicalUrl ?? pageUrl}</loc><lastmod>…</lastmod></url> to ${sitemapFound}.`));
    }
  }

  // --- canonical
  if (!doc.canonicalUrl) {
    add('canonical', 'warn', 'No <link rel="canonical">.');
    recs.push(rec('missing_canonical', 3, 'Add a canonical URL', `Add <link rel="canonical" href="${pageUrl}"> to the <head>.`));
  } else if (!sameUrl(doc.canonicalUrl, pageUrl)) {
    add('canonical', 'warn', `Canonical points elsewhere: ${doc.canonicalUrl}; crawlers will credit that URL instead of this one.`);
    recs.push(rec('canonical_mismatch', 4, 'Check the canonical URL', `The canonical is ${doc.canonicalUrl}, not ${pageUrl}; make it self-referencing unless this page is a deliberate duplicate.`));
  } else add('canonical', 'pass', `Canonical is self-referencing (${doc.canonicalUrl}).`);

  // --- meta robots and X-Robots-Tag, general or per agent (the same rules as the content score)
  if (crawl.noindex.length) {
    add('meta_robots', 'fail', `Indexing is forbidden for ${crawl.noindex.join(', ')}.`);
    recs.push(rec('noindex', 15, 'Allow indexing', `Remove "noindex" (${crawl.noindex.join(', ')}) from the meta robots tags and the X-Robots-Tag header so search and AI assistants can index and cite ${pageUrl}.`));
  } else if (/\bnofollow\b/i.test(doc.metaRobots ?? '')) {
    add('meta_robots', 'warn', `Links are not followed (robots "${doc.metaRobots}").`);
    recs.push(rec('nofollow', 3, 'Let crawlers follow links', 'Remove "nofollow" from the robots directives so crawlers discover the pages this one links to.'));
  } else add('meta_robots', 'pass', doc.metaRobots ? `Meta robots "${doc.metaRobots}" allows indexing.` : 'No robots restrictions.');

  // --- JSON-LD
  const types = jsonLdTypes(doc.jsonLd);
  if (doc.jsonLdErrors > 0) {
    add('json_ld', 'fail', `${doc.jsonLdErrors} JSON-LD block${doc.jsonLdErrors === 1 ? '' : 's'} failed to parse${types.length ? `; valid types: ${types.join(', ')}` : ''}.`);
    recs.push(rec('json_ld_errors', 6, 'Fix broken JSON-LD', `Fix the ${doc.jsonLdErrors} <script type="application/ld+json"> block(s) that are not valid JSON (trailing commas, unescaped quotes); validate with a schema.org validator.`));
  } else if (!types.length) {
    add('json_ld', 'warn', 'No schema.org JSON-LD.');
    recs.push(rec('no_json_ld', 6, 'Add structured data', 'Add schema.org JSON-LD describing the page (Article, Product, Service or Organization with name, description, author/publisher and dates).'));
  } else add('json_ld', 'pass', `JSON-LD types: ${types.join(', ')}.`);

  // --- Open Graph
  const ogMissing = ['title', 'description', 'image', 'type', 'url'].filter((k) => !doc.openGraph[k]);
  if (ogMissing.length === 0) add('open_graph', 'pass', 'Open Graph title, description, image, type and url are set.');
  else {
    add('open_graph', ogMissing.length >= 3 ? 'fail' : 'warn', `Open Graph is missing: ${ogMissing.map((k) => 'og:' + k).join(', ')}.`);
    recs.push(rec('og_incomplete', 2, 'Complete Open Graph tags', `Add ${ogMissing.map((k) => `<meta property="og:${k}">`).join(', ')} so link previews and assistants show the right title, summary and image.`));
  }

  recs.sort((a, b) => b.expected_impact - a.expected_impact || cmp(a.signal, b.signal));
  const score = clampScore(100 - penalty);
  return {
    url,
    generator: 'offline',
    score,
    band: bandOf(score),
    checks,
    crawlers,
    robots_txt: robots,
    crawl_access: crawl,
    crawler_fetch: refetch,
    llms_txt: llms,
    sitemap: { url: sitemapFound, found: !!sitemapFound, lists_page: listsPage, url_count: locs.length },
    json_ld: { types, errors: doc.jsonLdErrors },
    recommendations: recs,
  };
}
