// POST /v1/content-intelligence/runs: queue a persisted analysis. Depth
// `score` (3 credits) stores a content score; `full` (6 credits) adds trends, prompt ideas and a
// technical AI-readiness audit. The credits are reserved now and settled or released by the
// worker; poll GET /v1/content-intelligence/runs/{run_id}.
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { ANALYSIS_DEPTHS } from '../../core/content/service.ts';
import { defineRoute } from '../define.ts';
import { Country, Industry, Language, SuppliedTrends } from './shapes.ts';

export const CreateCiRunBody = z.object({
  url: z.string().max(INPUT_LIMITS.url).describe('Page to analyse; an invalid URL gives 400 invalid_url'),
  analysis_depth: z.enum(ANALYSIS_DEPTHS).nullish().describe('score (default, 3 credits) or full (6 credits)'),
  language: Language,
  country: Country,
  trends: SuppliedTrends,
  industry: Industry,
  idempotency_key: z.string().max(INPUT_LIMITS.idempotencyKey).nullish().describe('Retry-safe key, scoped to account and access source'),
});

const Response = z.object({
  run_id: z.string(),
  status: z.string(),
  analysis_depth: z.enum(ANALYSIS_DEPTHS),
  estimated_credits: z.string(),
  reserved_credits: z.string(),
  idempotent_replay: z.boolean().optional(),
});

export default defineRoute({
  method: 'POST',
  url: '/v1/content-intelligence/runs',
  summary: 'Queue a persisted Content Intelligence run (depth score: 3 credits, full: 6)',
  tags: ['content_intelligence'],
  action: 'content_intelligence.runs.create',
  scope: 'content_intelligence:runs:create',
  body: CreateCiRunBody,
  response: Response,
  errors: [400, 402, 413, 422, 503],
  run: (a, ctx, core) => core.content.createRun(ctx, a),
  cli: { command: 'ci run', description: 'queue a Content Intelligence run (score: 3 credits, full: 6); --watch follows it', args: ['url'] },
  tool: {
    name: 'create_content_intelligence_run',
    title: 'Queue a Content Intelligence run', openWorld: true,
    description:
      'Queue a persisted Content Intelligence run (analysis_depth score: 3 credits; full adds trends, prompt ideas and an AI-readiness audit: 6 credits). Poll get_content_intelligence_run.',
  },
});
