// POST /v1/content-intelligence/content/score: score a page and recommend
// changes without saving a run. 2 credits with supplied trends, 3 without (trends are then
// discovered from the site). extraction_mode is checked by the core, so an unknown mode is 400
// unsupported_extraction_mode rather than a schema error. With `html` (a draft) nothing is
// fetched; its size is checked by the core (413 at the fetcher's cap), so the route takes a body
// larger than the usual 1 MiB.
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { MAX_SUPPLIED_HTML_BYTES, SCORE_ACTION } from '../../core/content/service.ts';
import { defineRoute } from '../define.ts';
import { Band, Billing, Country, Industry, Language, Recommendation, SuppliedTrends } from './shapes.ts';

const Body = z.object({
  url: z.string().max(INPUT_LIMITS.url).describe('Page to score; an invalid URL gives 400 invalid_url. With html: the address the page will have (links resolve against it; nothing is fetched)'),
  html: z
    .string()
    .optional()
    .describe(
      `The page's HTML (a draft not yet published): scored as is, nothing fetched; findings that need the live site (crawler access, HTTP status, redirects, headers) are null and not_checked says why. At most ${MAX_SUPPLIED_HTML_BYTES / 1024 / 1024} MiB (else 413 payload_too_large); empty or not HTML gives 400 invalid_html. Same price`,
    ),
  extraction_mode: z.string().max(INPUT_LIMITS.keyword).nullish().describe('ssr (default), csr or full: all served by static extraction; anything else gives 400'),
  trends: SuppliedTrends,
  industry: Industry,
  language: Language,
  country: Country,
});

const SubScore = z.object({ score: z.number().int(), band: Band, notes: z.array(z.string()) });

export const ContentScore = z
  .object({
    url: z.string(),
    title: z.string().nullable(),
    page_type: z.string(),
    trend_source: z.enum(['supplied', 'discovered']),
    overall_score: z.number().int(),
    overall_band: Band,
    overall: z.object({ score: z.number().int(), band: Band, summary: z.string() }),
    content_depth: SubScore,
    content_freshness: SubScore,
    sufficiency_score: z.number().int(),
    sufficiency_band: Band,
    freshness_score: z.number().int(),
    freshness_band: Band,
    trend_coverage: z.array(z.object({ trend: z.string(), coverage: z.number().int(), gap: z.string(), action: z.string() })),
    recommendations: z.array(Recommendation),
    top_recommendations: z.array(z.string()),
    signals: z.object({}).passthrough().describe('The measurements the scores are derived from'),
    components: z.object({}).passthrough().describe('Sub-scores the overall score is weighted from'),
    generator: z.string(),
    source: z.enum(['fetched', 'supplied']).describe('fetched: the page was loaded from url; supplied: scored from the html given, nothing fetched'),
    not_checked: z
      .object({ reason: z.string(), findings: z.array(z.string()) })
      .optional()
      .describe('Supplied html only: the live-site findings left null (crawl_access, components.access, …) and why'),
  })
  .passthrough();

export default defineRoute({
  method: 'POST',
  url: '/v1/content-intelligence/content/score',
  summary: 'Score a URL and return recommendations without saving a run (2 credits with supplied trends, 3 without)',
  tags: ['content_intelligence'],
  action: SCORE_ACTION,
  scope: 'content_intelligence:content:score',
  body: Body,
  response: ContentScore.extend({ billing: Billing }),
  errors: [400, 402, 413, 422, 500, 503],
  // Room for html at the fetcher's cap once JSON-escaped; the core refuses more with a 413.
  bodyLimit: 2 * MAX_SUPPLIED_HTML_BYTES + 1024 * 1024,
  run: (a, ctx, core) => core.content.scoreContent(ctx, a),
  cli: { command: 'ci score', description: 'score a page for AI citation, with recommendations (2 credits with --trend, 3 without)', args: ['url'], files: ['html'] },
  tool: {
    name: 'score_content',
    title: 'Score a page for AI citation', openWorld: true,
    description:
      'Score a page (overall, depth, freshness, trend coverage) with ranked, concrete recommendations. trends takes names or the trend objects discover_trends returns. html scores the markup of a draft without fetching url (live-site findings are then null, see not_checked). 2 credits with trends supplied, 3 without.',
  },
});
