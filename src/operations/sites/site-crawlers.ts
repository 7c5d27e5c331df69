// GET /v1/sites/{id}/crawlers?days=30: AI crawler activity read from the site's logs.
import { z } from 'zod';
import { crawlerRanges } from '../../core/sites/ip-ranges.ts';
import { siteCrawlers } from '../../core/sites/sites.ts';
import { clampedInt, defineRoute } from '../define.ts';
import { CrawlerReport, SiteParams } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/sites/:site_id/crawlers',
  summary: 'AI crawlers seen in the site logs: hits, verification, status classes, blocked hits, top paths',
  tags: ['sites'],
  action: 'sites.crawlers',
  scope: 'sites:read',
  params: SiteParams,
  querystring: z.object({ days: clampedInt(30, 1, 365) }),
  response: CrawlerReport,
  errors: [404, 422],
  run: (a, ctx, core) => siteCrawlers(core.store, ctx.accountId, a.site_id, a.days, crawlerRanges(core.config.SIGHTLINE_CRAWLER_RANGES_PATH)),
  cli: { command: 'sites crawlers', description: 'AI crawlers seen in the logs, most hits first', args: ['site_id'] },
  tool: {
    name: 'get_site_crawlers',
    title: 'AI crawler activity of a site',
    description:
      "Which AI crawlers (GPTBot, OAI-SearchBot, ChatGPT-User, ClaudeBot, PerplexityBot, …) fetched the site over the last `days` days, from its uploaded access logs: hits, hits verified against the vendor's published IP ranges, status classes, blocked hits (401/403/429/451 or a bot challenge), last seen and top paths.",
  },
});
