// Technical AI-readiness audit of one URL: robots.txt rules for the AI crawlers (parsed with
// `robots-parser`, which implements RFC 9309 matching), llms.txt (per the llms.txt proposal),
// the sitemap, canonical, meta robots, JSON-LD and Open Graph. Each check is
// {id, status, detail}; failures and warnings also become ranked recommendations keyed by a
// stable `signal`. The one thing to know: robots.txt that answers 5xx means "disallow all"
// (RFC 9309 §2.3.1.4), a 4xx means "allow all".
import robotsParserModule from 'robots-parser';
import { jsonLdTypes } from './keyphrases.ts';
import { hostOf, sameUrl } from './signals.ts';
import { loadPrimary } from './site.ts';
import { cmp } from './text.ts';
import { bandOf, clampScore, type AuditCheck, type AuditResult, type CrawlerRule, type Priority, type Recommendation, type SiteLoader } from './types.ts';

// robots-parser is CommonJS (module.exports = fn) and its typings declare an ES default export,
// which NodeNext resolution does not see as callable; describe what we use.
interface RobotsTxt {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getSitemaps(): string[];
}
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => RobotsTxt;

export const AI_CRAWLERS: { agent: string; purpose: string; weight: number }[] = [
  { agent: 'GPTBot', purpose: 'OpenAI model training', weight: 4 },
  { agent: 'OAI-SearchBot', purpose: 'ChatGPT search results', weight: 5 },
  { agent: 'ChatGPT-User', purpose: 'ChatGPT fetching a page for a user', weight: 5 },
  { agent: 'PerplexityBot', purpose: 'Perplexity search index', weight: 5 },
  { agent: 'ClaudeBot', purpose: 'Anthropic model training and Claude', weight: 4 },
  { agent: 'Google-Extended', purpose: 'Gemini training and grounding', weight: 4 },
  { agent: 'Applebot-Extended', purpose: 'Apple Intelligence training', weight: 1.5 },
  { agent: 'CCBot', purpose: 'Common Crawl (used by many models)', weight: 1.5 },
];

const WEIGHTS: Record<string, number> = {
  robots_txt: 2,
  llms_txt: 10,
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

/** Validates llms.txt against the proposal: an H1 title first, an optional blockquote summary,
 * optional free text, then H2 sections whose content is a Markdown list of links. */
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
  if (sections === 0) errors.push('No H2 sections with link lists ("## Docs" followed by "- [name](url)").');
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

  // --- robots.txt and AI crawlers
  const robotsUrl = `${origin}/robots.txt`;
  const robots = await loader.fetchText(robotsUrl).catch(() => null);
  const crawlers: CrawlerRule[] = [];
  let sitemapUrls: string[] = [];
  if (!robots || (robots.status >= 400 && robots.status < 500) || (robots.status < 300 && looksLikeHtml(robots.body, robots.contentType))) {
    add('robots_txt', 'warn', robots ? `No robots.txt (HTTP ${robots.status}): every crawler is allowed, but there is no place to declare the sitemap.` : 'robots.txt could not be fetched: every crawler is treated as allowed.');
    recs.push(rec('missing_robots_txt', 2, 'Publish a robots.txt', `Serve ${robotsUrl} with explicit "User-agent" groups for the AI crawlers you allow and a "Sitemap: ${origin}/sitemap.xml" line.`));
    for (const c of AI_CRAWLERS) crawlers.push({ agent: c.agent, purpose: c.purpose, allowed: true, rule: null, line: null });
  } else if (robots.status >= 500) {
    add('robots_txt', 'fail', `robots.txt answered HTTP ${robots.status}: crawlers must treat the whole site as disallowed until it recovers.`, 30);
    recs.push(rec('robots_txt_error', 15, 'Fix robots.txt errors', `Make ${robotsUrl} answer 200 (or 404); a 5xx answer blocks every crawler, AI crawlers included.`));
    for (const c of AI_CRAWLERS) crawlers.push({ agent: c.agent, purpose: c.purpose, allowed: false, rule: `HTTP ${robots.status}`, line: null });
  } else {
    add('robots_txt', 'pass', `robots.txt found (${robots.body.split(/\r?\n/).length} lines).`);
    const parsed = robotsParser(robotsUrl, robots.body);
    const lines = robots.body.split(/\r?\n/);
    sitemapUrls = parsed.getSitemaps();
    let target = pageUrl;
    if (new URL(pageUrl).origin !== origin) target = origin + new URL(pageUrl).pathname;
    for (const c of AI_CRAWLERS) {
      const allowed = parsed.isAllowed(target, c.agent) !== false;
      const lineNo = parsed.getMatchingLineNumber(target, c.agent);
      const rule = lineNo > 0 ? (lines[lineNo - 1] ?? '').trim() : null;
      crawlers.push({ agent: c.agent, purpose: c.purpose, allowed, rule, line: lineNo > 0 ? lineNo : null });
    }
  }
  const path = new URL(pageUrl).pathname;
  const blocked = crawlers.filter((c) => !c.allowed);
  for (const c of crawlers) {
    const weight = AI_CRAWLERS.find((x) => x.agent === c.agent)!.weight;
    checks.push({
      id: `ai_crawler:${c.agent}`,
      status: c.allowed ? 'pass' : 'fail',
      detail: c.allowed
        ? `${c.agent} (${c.purpose}) may fetch ${path}${c.rule ? ` (rule "${c.rule}", line ${c.line})` : ' (no rule matches)'}.`
        : `${c.agent} (${c.purpose}) is blocked from ${path}${c.rule ? ` by "${c.rule}"${c.line ? ` (line ${c.line})` : ''}` : ''}.`,
    });
    if (!c.allowed) penalty += weight;
  }
  if (blocked.length && robots && robots.status < 500) {
    const names = blocked.map((c) => c.agent);
    const search = blocked.filter((c) => ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot'].includes(c.agent)).length;
    recs.push(
      rec(
        'ai_crawlers_blocked',
        search ? 15 : 8,
        'Unblock AI crawlers',
        `robots.txt blocks ${names.join(', ')} from ${path} (${blocked.map((c) => `"${c.rule}" line ${c.line}`).filter((x) => !x.startsWith('"null"')).join('; ')}). ` +
          `Add "User-agent: ${names[0]}" + "Allow: ${path}" groups (or remove the Disallow) for the assistants you want to be cited by; search and user agents (OAI-SearchBot, ChatGPT-User, PerplexityBot) matter most.`,
      ),
    );
  }

  // --- llms.txt
  const llmsRes = await loader.fetchText(`${origin}/llms.txt`).catch(() => null);
  let llms: LlmsTxtReport = { present: false, valid: false, title: null, summary: null, sections: 0, links: 0, errors: [] };
  if (llmsRes && llmsRes.status < 300 && !looksLikeHtml(llmsRes.body, llmsRes.contentType)) {
    llms = validateLlmsTxt(llmsRes.body);
    if (llms.valid) add('llms_txt', 'pass', `llms.txt "${llms.title}" with ${llms.sections} sections and ${llms.links} links${llms.summary ? ' and a summary' : ''}.`);
    else {
      add('llms_txt', 'warn', `llms.txt is present but invalid: ${llms.errors.join(' ')}`);
      recs.push(rec('invalid_llms_txt', 4, 'Fix llms.txt', `Fix ${origin}/llms.txt: ${llms.errors.join(' ')} Expected: "# Site name", "> one-sentence summary", then "## Section" headings each followed by "- [Page](url): what it covers".`));
    }
  } else {
    add('llms_txt', 'warn', `No llms.txt at ${origin}/llms.txt${llmsRes ? ` (HTTP ${llmsRes.status}${llmsRes.status < 300 ? ', HTML page' : ''})` : ''}.`);
    recs.push(rec('missing_llms_txt', 4, 'Publish llms.txt', `Publish ${origin}/llms.txt: "# ${doc.openGraph['site_name'] ?? hostOf(pageUrl)}", a "> " one-sentence summary of the site, and "## " sections listing your key pages as "- [Title](url): what it answers", starting with ${pageUrl}.`));
  }

  // --- sitemap
  const candidates = sitemapUrls.length ? sitemapUrls.slice(0, 3) : [`${origin}/sitemap.xml`];
  let sitemapFound: string | null = null;
  const locs: string[] = [];
  for (const sm of candidates) {
    const res = await loader.fetchText(sm).catch(() => null);
    if (!res || res.status >= 300 || !/<(urlset|sitemapindex)[\s>]/i.test(res.body)) continue;
    sitemapFound ??= sm;
    const parsed = sitemapLocs(res.body);
    if (parsed.index) {
      for (const child of parsed.locs.slice(0, 3)) {
        const cr = await loader.fetchText(child).catch(() => null);
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

  // --- meta robots (and X-Robots-Tag)
  const headerRobots = Object.entries(page.headers).find(([k]) => k.toLowerCase() === 'x-robots-tag')?.[1] ?? '';
  const robotsMeta = `${doc.metaRobots ?? ''} ${headerRobots}`.toLowerCase();
  if (/\b(noindex|none)\b/.test(robotsMeta)) {
    add('meta_robots', 'fail', `Indexing is forbidden (${[doc.metaRobots && `meta robots "${doc.metaRobots}"`, headerRobots && `X-Robots-Tag "${headerRobots}"`].filter(Boolean).join(', ')}).`);
    recs.push(rec('noindex', 15, 'Allow indexing', `Remove "noindex" from ${doc.metaRobots ? 'the meta robots tag' : 'the X-Robots-Tag header'} so search and AI assistants can index and cite ${pageUrl}.`));
  } else if (/\bnofollow\b/.test(robotsMeta)) {
    add('meta_robots', 'warn', `Links are not followed (robots "${robotsMeta.trim()}").`);
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
    llms_txt: llms,
    sitemap: { url: sitemapFound, found: !!sitemapFound, lists_page: listsPage, url_count: locs.length },
    json_ld: { types, errors: doc.jsonLdErrors },
    recommendations: recs,
  };
}
