// Where Content Intelligence's CPU-bound analysis runs. Scoring a page (signals, keyphrases,
// compromise's tagging, topic clusters), discovering its trends and building prompt ideas take
// tens to hundreds of milliseconds of synchronous work; on the API's event loop eight of them
// held every other request for over a second. The server runs them in worker threads
// (analysis-threads.ts); tests and the CLI may run them here. The one thing to know: the three
// operations take and return plain data (PageDocuments in, results out), so a thread gets a
// structured clone and the answer is the same wherever it ran.
import type { PageDocument } from '../pages/document.ts';
import { promptsFromSite } from './prompts.ts';
import { scoreDocument, type ScoreExtras } from './score.ts';
import type { LoadedSite } from './site.ts';
import { trendsFromSite } from './trends.ts';
import type { ContentScore, DiscoverTrendsInput, PromptsResult, SuggestPromptsInput, TrendsResult } from './types.ts';

export interface Analysis {
  score(doc: PageDocument, extras: ScoreExtras): Promise<ContentScore>;
  trends(site: LoadedSite, input: DiscoverTrendsInput): Promise<TrendsResult>;
  prompts(site: LoadedSite, input: SuggestPromptsInput): Promise<PromptsResult>;
}

/** The operations by name, as a thread runs them. */
export const OPERATIONS = {
  score: (doc: PageDocument, extras: ScoreExtras) => scoreDocument(doc, extras),
  trends: (site: LoadedSite, input: DiscoverTrendsInput) => trendsFromSite(site, input),
  prompts: (site: LoadedSite, input: SuggestPromptsInput) => promptsFromSite(site, input),
} as const;

export type OperationName = keyof typeof OPERATIONS;

/** Analysis on the calling thread. */
export const inProcessAnalysis: Analysis = {
  score: async (doc, extras) => OPERATIONS.score(doc, extras),
  trends: async (site, input) => OPERATIONS.trends(site, input),
  prompts: async (site, input) => OPERATIONS.prompts(site, input),
};
