import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { getVisibilityProbe } from '../../core/visibility/read.ts';
import { defineRoute } from '../define.ts';

const Credits = z.string().describe('Decimal credits with two places');

export const Probe = z
  .object({
    probe_id: z.string(),
    prompt: z.string(),
    repeat: z.number().int().describe('1..repeats: which asking of this (prompt, platform) it is'),
    platform: z.string(),
    model: z.string(),
    engine: z.enum(['live', 'sandbox']),
    language: z.string(),
    country: z.string(),
    city: z.string().nullable().optional().describe('City the probe was localised to (consumer surfaces that take one), else null'),
    surface: z.enum(['api', 'consumer']).optional().describe('api: asked through the provider API; consumer: read from the product through a SERP or scraping provider'),
    provider: z.string().nullable().optional().describe('Consumer surfaces: the provider that fetched the answer; null for API platforms'),
    ai_answer_present: z
      .boolean()
      .nullable()
      .optional()
      .describe('Consumer surfaces: false when the result carried no AI answer (the probe still succeeds); null for API platforms'),
    target_entity: z.string(),
    status: z.enum(['queued', 'running', 'succeeded', 'errored', 'cancelled', 'skipped']),
    brand_mentioned: z.boolean().nullable(),
    citation_mentioned: z.boolean().nullable(),
    mention_position: z.number().int().nullable().describe('Character offset of the first mention, or null'),
    list_rank: z.number().int().nullable().describe('Rank of the brand in a numbered or bulleted list of the answer, or null'),
    competitors: z.array(z.string()).describe('Competitors the answer mentions'),
    citations: z.array(z.object({ title: z.string().nullable().optional(), url: z.string(), domain: z.string() }).passthrough()),
    brands: z
      .array(
        z
          .object({
            name: z.string(),
            role: z.enum(['target', 'competitor']),
            mentioned: z.boolean(),
            mention_position: z.number().int().nullable(),
            list_rank: z.number().int().nullable(),
            first_mention_share: z.number().nullable(),
            pawc: z.number().nullable(),
            sentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
            recommended: z.boolean().nullable(),
            evidence: z
              .object({
                rule: z.string(),
                text: z.string(),
                ambiguous: z.literal(true).optional().describe('Only weak rules decided: a reader could decide either way, and a live judge is asked'),
                lexicon: z
                  .enum(['dictionary', 'given_name'])
                  .optional()
                  .describe(
                    "dictionary: the name is an everyday word only by the language's spelling dictionary (not its frequency list), and that decided the reading; given_name: the name is also a given name and is named bare, so the decision is ambiguous",
                  ),
                doubt: z
                  .enum(['dated', 'name_run', 'caseless_word', 'name_list'])
                  .optional()
                  .describe(
                    'Why a mention taken by strong rules is marked ambiguous all the same: dated (its sentence carries an earlier century\'s year or a year in brackets), name_run (part of a person\'s name), caseless_word (a word of the language in a script without capitals), name_list (a name of people or places in a spelling dictionary, named once and bare)',
                  ),
                judged: z.literal(true).optional().describe("Set when a live judge confirmed or overturned the ambiguous decision"),
                verdict: z.enum(['mentioned', 'not_mentioned']).optional().describe("The judge's reading, which decides `mentioned`"),
              })
              .nullable()
              .optional()
              .describe('Which rule decided `mentioned` (exact, inflected, attached, capitalised, possessive, …, everyday_word_rejected, citation) and the text it read'),
          })
          .passthrough(),
      )
      .nullable()
      .optional()
      .describe('The target and each competitor as this answer treats them (answer analysis); null when the probe has no analysed answer'),
    judge: z.object({ platform: z.string(), model: z.string(), engine: z.string() }).passthrough().nullable().optional().describe('The model that judged sentiment and recommendation, or null'),
    judge_error: z.object({ code: z.string(), message: z.string() }).passthrough().nullable().optional().describe('Why the judge gave no verdict, or null'),
    error: z.object({ code: z.string(), message: z.string().nullable() }).nullable(),
    attempts: z.number().int().describe('How many times the platform was called for this probe: more than 1 only when a worker stopped (or lost its job) after calling and before the answer was kept; a worker taking over a probe whose answer was kept does not call again'),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    credits: z.object({ reserved: Credits, settled: Credits, released: Credits }),
    answer: z.string().nullable().optional().describe('The full answer (with include_results, and always on the single probe read)'),
  })
  .passthrough();

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs/:run_id/probes/:probe_id',
  summary: "Read one probe of a visibility run with its full answer, citations and analysis",
  tags: ['visibility'],
  action: 'visibility.probes.read',
  scope: 'runs:read',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id).describe('Visibility run id (vis_…)'), probe_id: z.string().max(INPUT_LIMITS.id).describe('Probe id (probe_…), from the run read with include_probes') }),
  response: Probe.extend({ run_id: z.string() }),
  errors: [404, 422],
  run: (a, ctx, core) => getVisibilityProbe(core.store, ctx.accountId, a.run_id, a.probe_id),
  cli: { command: 'visibility probe', description: "one probe's full answer, citations and analysis", args: ['run_id', 'probe_id'] },
  tool: {
    name: 'get_visibility_probe',
    title: 'Read one probe answer',
    description:
      "One probe of a run: the platform's full answer text, its citations (title, url, domain), whether and where the brand and competitors were mentioned, sentiment and prominence. Probe ids come from get_visibility_run with include_probes. Free.",
  },
});
