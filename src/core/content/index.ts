// The Content Intelligence engine's public surface: offline, deterministic analysis of a page
// reached through an injected SiteLoader. The service layer (runs.ts, service.ts) wires these
// to billing and HTTP; nothing here performs network I/O by itself.
export type * from './types.ts';
export { bandOf, clampScore } from './bands.ts';
export { scoreContent, scoreSuppliedContent, suggestPrompts, discoverTrends, type ScoreOptions } from './actions.ts';
export { scoreDocument, tally, REWARDS, PENALTIES, BLOCKED_CAP, EXPECTED_SCHEMA, type ScoreExtras, type ScorePoint, type ScoreFacts } from './score.ts';
export { AI_CRAWLERS, REFETCH_AS, evaluateRobots, directivesFor, crawlFacts, type CrawlerEntry, type CrawlerAccess, type CrawlFacts } from './crawlers.ts';
export { crawlFactsFor, refetchAsCrawlers, needsJavaScript } from './access.ts';
export { trendsFromSite, fieldTopics, assessTrend, trendQuestions, type FieldTopic } from './trends.ts';
export { auditSite, validateLlmsTxt, sitemapLocs, type LlmsTxtReport } from './audit.ts';
export { buildPrompts } from './prompts.ts';
export { measureSignals, visibleDates, type PageSignals, type SignalOptions } from './signals.ts';
export { extractKeyphrases, extractEntities, clusterTopics, type Keyphrase, type Entity, type TopicCluster } from './keyphrases.ts';
export { measureReadability, type ReadabilityResult } from './readability.ts';
export { loadSite, type LoadedSite } from './site.ts';
