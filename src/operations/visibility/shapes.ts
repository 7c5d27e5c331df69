// The visibility run as the API answers it, with every field, for the OpenAPI document, the
// generated client and the MCP output schemas. Objects stay open (answers may gain fields).
import { z } from 'zod';
import { Probe } from './get-probe.ts';

const Rate = z.number().nullable().describe('0..1, at most 4 decimals; null while no probe succeeded');
const Credits = z.string().describe('Decimal credits with two places, e.g. "12.00"');
const Time = z.string().describe('ISO 8601 UTC');
export const VisibilityBand = z.enum(['Invisible', 'Low', 'Moderate', 'Good', 'Strong']);

const Interval = z
  .object({ low: z.number(), high: z.number(), level: z.number(), method: z.literal('wilson') })
  .nullable()
  .describe('95% Wilson score interval of the rate; null while no probe succeeded');
const Sentiment = z
  .object({ positive: z.number(), neutral: z.number(), negative: z.number(), unknown: z.number() })
  .passthrough()
  .nullable()
  .describe('Shares of mentioning probes by judged sentiment');
const Prominence = z
  .object({ first_mention_share: z.number().nullable(), pawc: z.number().nullable() })
  .passthrough()
  .nullable()
  .describe('Means over mentioning probes: position of the first mention ÷ answer length, and the GEO position-adjusted word count share');
const CompetitorStats = z
  .object({
    name: z.string(),
    mentions: z.number().int(),
    mention_rate: Rate.optional(),
    mention_rate_ci: Interval.optional(),
    share_of_voice: Rate.optional(),
    sentiment: Sentiment.optional(),
    prominence: Prominence.optional(),
  })
  .passthrough();

/** One prompt's numbers (`by_prompt` of a run summary and of a history point). */
export const PromptStats = z
  .object({
    prompt: z.string(),
    probes: z.number().int().describe('Probes of this prompt (every status)'),
    succeeded: z.number().int().describe('Succeeded probes: the n every rate of this entry rests on'),
    mention_rate: Rate,
    mention_rate_ci: Interval,
    share_of_voice: Rate,
    by_platform: z.array(z.object({ platform: z.string(), mention_rate: Rate, probes: z.number().int() }).passthrough()),
    competitors: z.array(z.object({ name: z.string(), mention_rate: Rate }).passthrough()),
  })
  .passthrough()
  .describe("One prompt's numbers, in the run's prompt order");

export const RunSummary = z
  .object({
    mention_rate: Rate,
    mention_rate_ci: Interval.optional(),
    overall_score: Rate.describe('Equal to mention_rate'),
    visibility_band: VisibilityBand.nullable(),
    citation_rate: Rate,
    share_of_voice: Rate.optional(),
    brand_mentions: z.number().int(),
    citation_mentions: z.number().int(),
    completed_probe_count: z.number().int(),
    competitors: z.array(CompetitorStats),
    cited_domains: z.array(z.object({ domain: z.string(), count: z.number().int() }).passthrough()),
    by_platform: z.array(
      z
        .object({
          platform: z.string(),
          probes: z.number().int(),
          mention_rate: Rate,
          mention_rate_ci: Interval.optional(),
          share_of_voice: Rate.optional(),
          visibility_band: VisibilityBand.nullable().optional(),
          citation_rate: Rate.optional(),
          sentiment: Sentiment.optional(),
          prominence: Prominence.optional(),
          ai_answer_rate: Rate.optional().describe('Consumer surfaces only: share of succeeded probes whose result showed an AI answer'),
          ai_answer_rate_ci: Interval.optional(),
        })
        .passthrough(),
    ),
    sentiment: Sentiment.optional(),
    prominence: Prominence.optional(),
    discovered_entities: z.array(z.object({ name: z.string(), mentions: z.number().int(), platforms: z.array(z.string()) }).passthrough()).optional(),
    by_prompt: z.array(PromptStats).optional(),
    locations: z
      .array(
        z
          .object({
            country: z.string().nullable(),
            city: z.string().nullable(),
            platforms: z.array(z.object({ platform: z.string(), answers: z.number().int() })),
          })
          .passthrough(),
      )
      .optional()
      .describe('Where the answers come from, each (country, city) with its answers (succeeded probes) per platform, most answers first'),
    surface_comparison: z
      .array(
        z
          .object({
            api_platform: z.string(),
            consumer_platform: z.string(),
            prompts_compared: z.number().int(),
            brand_jaccard: Rate.describe('Mean over compared prompts of the Jaccard overlap of brands named (target and competitors)'),
            cited_domain_jaccard: Rate.describe('Mean over compared prompts of the Jaccard overlap of cited domains'),
            api: z.object({ probes: z.number().int(), mention_rate: Rate, mention_rate_ci: Interval }).passthrough(),
            consumer: z.object({ probes: z.number().int(), mention_rate: Rate, mention_rate_ci: Interval, ai_answer_rate: Rate }).passthrough(),
            disagreements: z.array(
              z
                .object({
                  prompt: z.string(),
                  api_mentioned: z.boolean(),
                  consumer_mentioned: z.boolean(),
                  consumer_ai_answer_present: z.boolean(),
                  brands_only_api: z.array(z.string()),
                  brands_only_consumer: z.array(z.string()),
                })
                .passthrough(),
            ),
          })
          .passthrough(),
      )
      .optional()
      .describe('Single-run read only, when the run asked an API platform and its consumer surface (openai ↔ chatgpt_app, copilot; gemini ↔ google_ai_overview, google_ai_mode)'),
  })
  .passthrough();

const ProbeCounts = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  succeeded: z.number().int(),
  errored: z.number().int(),
  cancelled: z.number().int(),
  skipped: z.number().int(),
});

export const RUN_STATUS_VALUES = ['queued', 'running', 'completed', 'partially_completed', 'failed', 'cancelled'] as const;

export const CompactRun = z
  .object({
    run_id: z.string(),
    object: z.literal('visibility_run'),
    status: z.enum(RUN_STATUS_VALUES).describe('Derived from the probe counts and the cancel flag'),
    source: z.string().describe('Surface that created it: api, mcp, console, schedule'),
    engine: z.enum(['live', 'sandbox']),
    url: z.string(),
    target_entity: z.string(),
    competitors: z.array(z.string()),
    brand_terms: z
      .object({
        target_aliases: z.array(z.string()),
        target_domains: z.array(z.string()),
        competitors: z.array(z.object({ name: z.string(), aliases: z.array(z.string()), domains: z.array(z.string()) })),
      })
      .nullable()
      .describe("The brands' aliases and domains the run was given (target_aliases, target_domains, competitors as objects); null when it named the brands only"),
    language: z.string(),
    country: z.string(),
    test_id: z.string().nullable().describe('The saved test the run belongs to'),
    project_id: z
      .string()
      .nullable()
      .describe("The project whose market's tracked test the run belongs to (GET /v1/visibility/runs?project_id= lists them); null when its test belongs to no project. Kept after the market is removed or the project deleted"),
    created_at: Time,
    started_at: Time.nullable(),
    completed_at: Time.nullable(),
    cancel_requested: z.boolean(),
    prompt_count: z.number().int(),
    platform_count: z.number().int(),
    probe_count: z.number().int(),
    queued_probe_count: z.number().int(),
    skipped_probe_count: z.number().int(),
    skipped_reason: z.literal('insufficient_credits').nullable(),
    probe_counts: ProbeCounts,
    billing: z
      .object({
        status: z.string(),
        estimated_credits: Credits,
        reserved_credits: Credits,
        settled_credits: Credits,
        released_credits: Credits,
        outstanding_credits: Credits,
      })
      .passthrough(),
    overall_score: Rate.describe('The mention rate (summary.overall_score), at the top level'),
    visibility_band: VisibilityBand.nullable(),
    summary: RunSummary,
  })
  .passthrough();

/** A run read with its probes (include_probes / include_results). */
export const VisibilityRun = CompactRun.extend({ probes: z.array(Probe).optional().describe('With include_probes or include_results') });

export const RunList = z.object({
  object: z.literal('list'),
  runs: z.array(CompactRun),
  has_more: z.boolean(),
  next_starting_after: z.string().nullable(),
});

/** What a visibility run costs, as the create and run-now tools tell an agent. */
export const RUN_COST =
  "Costs each probe's model price (credits_per_probe in list_visibility_models; the shipped catalog's default models cost 1 to 4 credits), reserved now, settled when the probe succeeds, released when it fails or is cancelled; a balance that covers only the first probes queues those (partially_queued). Quote first with estimate_visibility_run (free).";
