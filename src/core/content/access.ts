// Crawl access of one loaded page, for the content score and the audit: robots.txt for every AI
// crawler, the page's robots directives per agent, JavaScript dependence, and (audit only) the
// page fetched again as each major search crawler to catch a CDN or firewall that answers them
// differently. The one thing to know: every fetch goes through the injected SiteLoader, so tests
// serve fixtures and production uses the SSRF-safe fetcher; a fetch that fails is "not known",
// never a guess.
import { crawlFacts, evaluateRobots, headerValue, REFETCH_AS, type CrawlFacts, type CrawlerAccess, type RobotsReport } from './crawlers.ts';
import { notThere } from './site.ts';
import type { LoadedPage, RefetchResult, SiteLoader } from './types.ts';

export type { RefetchResult };

/** The copy needs JavaScript: an empty app root or a "please enable JavaScript" notice with almost no text. */
export function needsJavaScript(page: LoadedPage): boolean {
  const doc = page.document;
  const facts = doc.page;
  if (!facts) return false;
  if (doc.wordCount >= 80) return false;
  return facts.appRoot || facts.noscriptNeedsJs || (facts.scripts >= 5 && doc.wordCount < 20);
}

export async function robotsFor(pageUrl: string, loader: SiteLoader): Promise<{ report: RobotsReport; access: CrawlerAccess[] }> {
  if (!URL.canParse(pageUrl)) return evaluateRobots(null, 'http://invalid/robots.txt', 'http://invalid/');
  const origin = new URL(pageUrl).origin;
  const robotsUrl = `${origin}/robots.txt`;
  const res = await loader.fetchText(robotsUrl).catch(notThere);
  return evaluateRobots(res, robotsUrl, pageUrl);
}

export async function crawlFactsFor(page: LoadedPage, loader: SiteLoader): Promise<CrawlFacts> {
  const doc = page.document;
  const robots = await robotsFor(doc.url, loader);
  const meta = doc.page?.robotsMeta ?? (doc.metaRobots ? { robots: doc.metaRobots } : {});
  return crawlFacts(robots.access, robots.report.state, meta, headerValue(page.headers, 'x-robots-tag'), {
    nosnippetRegions: doc.page?.nosnippetRegions ?? 0,
    needsJs: needsJavaScript(page),
  });
}


const CHALLENGE = /\b(just a moment|attention required|checking your browser|verify you are (a )?human|access denied|captcha|cf-chl|are you a robot|request blocked|bot detection|ddos protection)\b/i;

/**
 * The page fetched again as each major search crawler. Only when the loader can fetch with a
 * user agent (the production loader can; a loader without `fetchAs` reports nothing).
 */
export async function refetchAsCrawlers(page: LoadedPage, loader: SiteLoader): Promise<RefetchResult[] | null> {
  if (!loader.fetchAs) return null;
  const baseWords = page.document.wordCount;
  const out: RefetchResult[] = [];
  for (const c of REFETCH_AS) {
    const res = await loader.fetchAs(page.document.url, c.user_agent!).catch(notThere);
    if (!res) {
      out.push({ agent: c.token, status: null, words: null, outcome: 'error', detail: `The fetch as ${c.token} failed (connection refused, reset or timed out).` });
      continue;
    }
    const words = res.words;
    let outcome: RefetchResult['outcome'] = 'same';
    let detail = `HTTP ${res.status}, ${words} words (as a browser: ${page.status}, ${baseWords} words).`;
    if (res.status >= 400 && page.status < 400) {
      outcome = 'blocked';
      detail = `Answered ${c.token} with HTTP ${res.status} while a browser gets ${page.status}: a CDN or firewall rule blocks it.`;
    } else if (CHALLENGE.test(res.title ?? '') || (words < 80 && CHALLENGE.test(res.text))) {
      outcome = 'challenge';
      detail = `Answered ${c.token} with a bot challenge page ("${(res.title ?? res.text).slice(0, 60)}").`;
    } else if (baseWords >= 100 && words < baseWords * 0.2) {
      outcome = 'empty';
      detail = `Answered ${c.token} with ${words} words of copy against ${baseWords} for a browser.`;
    }
    out.push({ agent: c.token, status: res.status, words, outcome, detail });
  }
  return out;
}
