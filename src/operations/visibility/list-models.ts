import { z } from 'zod';
import { defineRoute } from '../define.ts';

const Model = z.object({
  id: z.string(),
  label: z.string(),
  tier: z.string(),
  default: z.boolean(),
  roles: z.array(z.string()),
  credits_per_probe: z.string(),
  engine: z.enum(['sandbox', 'live']),
  available: z.boolean(),
  surface: z.enum(['api', 'consumer']).describe('api: the provider\'s API; consumer: the answer people see in the product, read through a SERP or scraping provider'),
  provider: z.string().nullable().describe('Consumer surfaces: serpapi, dataforseo (sandbox in sandbox mode), null when none is configured; null for API platforms'),
  supports_country: z.boolean(),
  supports_city: z.boolean(),
});

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/models',
  summary: 'Selectable models per platform with per-probe prices',
  tags: ['visibility'],
  action: 'visibility.models.list',
  scope: 'runs:read',
  response: z.object({
    platforms: z.record(z.string(), z.array(Model)),
    roles: z.record(z.string(), z.object({ default: z.string(), latest: z.string(), prior: z.string() })),
  }),
  errors: [],
  run: (_a, _ctx, core) =>
    core.modelListing(),
  cli: { command: 'visibility models', description: 'selectable models per platform and their price per probe' },
  tool: {
    name: 'list_visibility_models',
    title: 'AI models and prices',
    description:
      'Selectable AI models per platform with their price in credits per probe; price runs from this.',
  },
});
