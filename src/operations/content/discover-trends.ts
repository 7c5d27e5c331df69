// POST /v1/content-intelligence/trends/discover: the topics a page's field
// talks about, how well the page covers each, and what to add. 1 credit, released when the page
// cannot be loaded.
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { MAX_TRENDS, TRENDS_ACTION } from '../../core/content/service.ts';
import { defineRoute } from '../define.ts';
import { Billing, Country, GeneratorFields, Industry, Language, Trend } from './shapes.ts';

const Body = z.object({
  url: z.string().max(INPUT_LIMITS.url).describe('Page to discover trends for; an invalid URL gives 400 invalid_url'),
  language: Language,
  country: Country,
  industry: Industry,
  max_trends: z.number().int().min(MAX_TRENDS.min).max(MAX_TRENDS.max).nullish().describe(`${MAX_TRENDS.min}..${MAX_TRENDS.max}, default ${MAX_TRENDS.default}`),
});

const Response = z
  .object({
    url: z.string(),
    industry: z.string(),
    trends: z.array(Trend),
    sources: z.array(z.object({ title: z.string(), url: z.string() })),
    generator: z.string().describe('offline, or model when SIGHTLINE_CONTENT_MODEL wrote it'),
    ...GeneratorFields,
    billing: Billing,
  })
  .describe('Discovered trends');

export default defineRoute({
  method: 'POST',
  url: '/v1/content-intelligence/trends/discover',
  summary: 'Discover content trends for a URL (1 credit)',
  tags: ['content_intelligence'],
  action: TRENDS_ACTION,
  scope: 'content_intelligence:trends:discover',
  body: Body,
  response: Response,
  errors: [400, 402, 413, 422, 500, 503],
  run: (a, ctx, core) => core.content.discoverTrends(ctx, a),
  cli: { command: 'trends', description: "content trends for a page's field, with the gap on the page (1 credit)", args: ['url'] },
  tool: {
    name: 'discover_trends',
    title: 'Discover content trends', openWorld: true,
    description:
      "Ranked content trends for a page's field, each with the gap on this page, the action to take and the questions people ask. 1 credit.",
  },
});
