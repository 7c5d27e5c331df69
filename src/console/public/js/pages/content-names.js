// The names the Content Intelligence report gives its components and audit checks. No imports,
// so the API's ids can be checked against these names outside a browser
// (test/console/content-names.test.ts).

const COMPONENT_NAMES = {
  depth: 'Depth',
  freshness: 'Freshness',
  structure: 'Structure',
  citability: 'Citability',
  metadata: 'Metadata',
  trend_coverage: 'Trend coverage',
  trust: 'Trust',
  access: 'Crawler access',
};

/** The audit's checks by name; one check per AI crawler is left out of the list (the crawler table has them). */
const CHECK_NAMES = {
  robots_txt: 'robots.txt',
  llms_txt: 'llms.txt',
  json_ld: 'Structured data (JSON-LD)',
  open_graph: 'Open Graph',
  meta_robots: 'Meta robots',
  sitemap: 'Sitemap',
  sitemap_lists_page: 'Sitemap lists the page',
  crawler_fetch: 'Fetch as a crawler',
  javascript: 'Readable without JavaScript',
  snippets: 'Search snippets',
  canonical: 'Canonical URL',
  ai_training_crawlers: 'AI training crawlers',
};

/** Words of an id that are acronyms: they stay in capitals ("ai_training_crawlers" → "AI training crawlers"). */
const ACRONYMS = new Set(['ai', 'api', 'faq', 'html', 'http', 'json', 'ld', 'llms', 'og', 'seo', 'url']);

/** An id in words, for one the names above miss: "trend_coverage" → "Trend coverage", "ai_x" → "AI x". */
export function idWords(id) {
  return id
    .split('_')
    .map((w, i) => (ACRONYMS.has(w) ? w.toUpperCase() : i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** A component in words. */
export const componentName = (k) => COMPONENT_NAMES[k] || idWords(k);

/** An audit check in words. */
export const checkName = (id) => CHECK_NAMES[id] || idWords(id);
