// crawler.blocked: search and user crawlers refused where robots.txt allows them; training crawlers and disallowed paths are not findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlerBlockedFindings } from '../../src/core/sites/findings.ts';

const crawler = (name: string, role: 'training' | 'search' | 'user', paths: [string, number, number][]) => ({
  name, vendor: 'V', role, hits: 0, verified_hits: 0, unverified_hits: 0, verifiable: true, unverifiable_reason: null, status: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }, blocked_hits: 0, last_seen: '',
  top_paths: paths.map(([path, hits, blocked_hits]) => ({ path, hits, blocked_hits })),
  daily: [],
});

test('only allowed paths with blocked hits of search and user crawlers', () => {
  const report = {
    site_id: 'site_1', from: '2026-11-01T00:00:00Z', to: '2026-11-27T00:00:00Z',
    crawlers: [
      crawler('GPTBot', 'training', [['/pricing', 10, 10]]),
      crawler('OAI-SearchBot', 'search', [['/pricing', 60, 52], ['/private', 5, 5], ['/ok', 9, 0]]),
      crawler('Claude-User', 'user', [['/docs', 3, 1]]),
    ],
  };
  const allows = (path: string) => !path.startsWith('/private');
  assert.deepEqual(
    crawlerBlockedFindings(report, allows).map((e) => [e.type, e.crawler, e.path, e.blocked_hits]),
    [['crawler.blocked', 'OAI-SearchBot', '/pricing', 52], ['crawler.blocked', 'Claude-User', '/docs', 1]],
  );
  assert.equal(crawlerBlockedFindings(report, allows, { minBlocked: 2 }).length, 1);
});
