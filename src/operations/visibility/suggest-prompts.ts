// POST /v1/visibility/prompts/suggest: prompt ideas for a page's brand and
// field, for use in a visibility run. 1 credit, charged only when ideas were produced. The schema
// checks types and bounds (422); the URL is checked by the core (400) before anything is reserved.
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { MAX_COMPETITORS, PROMPT_COUNT, SUGGEST_ACTION } from '../../core/content/service.ts';
import { defineRoute } from '../define.ts';
import { Billing, Country, GeneratorFields, Language } from '../content/shapes.ts';

const Body = z.object({
  url: z.string().max(INPUT_LIMITS.url).describe('Page whose brand and topics the prompts are about; an invalid URL gives 400 invalid_url'),
  brand_name: z.string().max(INPUT_LIMITS.name).nullish().describe('Brand to build branded prompts for; default: the organization named on the page'),
  target_entity: z.string().max(INPUT_LIMITS.name).nullish().describe('Alias of brand_name'),
  language: Language,
  country: Country,
  competitors: z.array(z.string().max(INPUT_LIMITS.name)).max(MAX_COMPETITORS).nullish().describe(`Competitor names for comparison prompts (at most ${MAX_COMPETITORS})`),
  count: z.number().int().min(PROMPT_COUNT.min).max(PROMPT_COUNT.max).nullish().describe(`How many prompts, ${PROMPT_COUNT.min}..${PROMPT_COUNT.max}, default ${PROMPT_COUNT.default}`),
});

const Response = z
  .object({
    url: z.string(),
    brand: z.string().nullable(),
    industry: z.string(),
    prompts: z.array(z.string()),
    suggestions: z.array(
      z.object({
        prompt: z.string(),
        intent: z.string(),
        intent_class: z.enum(['informational', 'commercial', 'comparison', 'navigational']).optional().describe('Search-intent class of the prompt'),
        why: z.string(),
        funnel_stage: z.enum(['awareness', 'consideration', 'decision']),
      }),
    ),
    generator: z.string().describe('offline, or model when SIGHTLINE_CONTENT_MODEL wrote it'),
    ...GeneratorFields,
    billing: Billing,
  })
  .describe('Prompt ideas');

export default defineRoute({
  method: 'POST',
  url: '/v1/visibility/prompts/suggest',
  summary: 'Suggest AI visibility prompts for a page (1 credit)',
  tags: ['visibility'],
  action: SUGGEST_ACTION,
  scope: 'visibility:prompts:suggest',
  body: Body,
  response: Response,
  errors: [400, 402, 413, 422, 500, 503],
  run: (a, ctx, core) => core.content.suggestPrompts(ctx, a),
  cli: { command: 'visibility suggest-prompts', description: 'prompt ideas worth tracking for a page (1 credit)', args: ['url'], flags: { brand_name: 'brand' } },
  tool: {
    name: 'suggest_prompts',
    title: 'Suggest prompts to track', openWorld: true,
    description:
      'Prompt ideas worth tracking for a URL and brand (brand_name, alias target_entity): what people ask assistants, across intents and funnel stages. 1 credit.',
  },
});
