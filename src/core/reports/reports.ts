// Saved-test reads and reports by URL: the runs of each matching saved test, newest first,
// each as a compact summary (visibility: overall_score + visibility_band; Content
// Intelligence: overall_score + overall_band).
import type { Store } from '../../db/store.ts';
import { compactVisibilityRuns, runIdsForTest } from '../visibility/read.ts';
import { compactCiRuns, ciRunIdsForTest } from '../content/runs.ts';
import { findTestsByUrl, getTestRow, type TestType } from '../tracking/tests.ts';
import { absoluteUrlMessage, parseHttpUrl } from '../../lib/url.ts';
import { AppError } from '../errors.ts';

async function runsOfTest(store: Store, test: { id: string; test_type: string }, limit: number, sinceIso?: string) {
  if (test.test_type === 'ai_citations') return compactVisibilityRuns(store.db, await runIdsForTest(store.db, test.id, limit, sinceIso));
  return compactCiRuns(store.db, await ciRunIdsForTest(store.db, test.id, limit, sinceIso));
}

export async function getTestWithRuns(store: Store, accountId: string, testId: string) {
  const { row, rendered } = await getTestRow(store, accountId, testId);
  return { ...rendered, runs: await runsOfTest(store, row, 100) };
}

export async function reportsByUrl(store: Store, accountId: string, opts: { url: string; testType?: TestType; days: number; limit: number }) {
  if (!parseHttpUrl(opts.url)) throw new AppError('invalid_url', absoluteUrlMessage('url', opts.url));
  const since = new Date(Date.now() - opts.days * 86_400_000).toISOString();
  const tests = await findTestsByUrl(store, accountId, opts.url, opts.testType);
  const matches = [];
  for (const t of tests) matches.push({ test: t.rendered, runs: await runsOfTest(store, t.row, opts.limit, since) });
  return { url: opts.url, days: opts.days, match_count: matches.length, matches };
}
