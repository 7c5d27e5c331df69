// GET /v1/projects/{project_id}/dashboard: the numbers behind a project's dashboard.
import { z } from 'zod';
import { DASHBOARD_WINDOWS, projectDashboard } from '../../core/projects/dashboard.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../define.ts';
import { ProjectId } from './shapes.ts';

/** A rate of the brand or a competitor in a window, with its move from the window before. */
const RateChange = z
  .object({
    mention_rate: z.number().nullable(),
    previous_mention_rate: z.number().nullable().describe('The rate in the window before, when that window asked the same (not_comparable_reason null); else null'),
    change: z
      .number()
      .nullable()
      .describe('mention_rate minus previous_mention_rate, from the counts, rounded once; null when the window before asked something else (see not_comparable_reason) or either has no answers'),
  })
  .passthrough();

export default defineRoute({
  method: 'GET',
  url: '/v1/projects/:project_id/dashboard',
  summary: 'Project dashboard: brand and competitors over time, prompt × platform matrix with changes, topics, prompts where only competitors are named',
  tags: ['projects'],
  action: 'projects.dashboard',
  scope: 'tests:read',
  params: ProjectId,
  querystring: z.object({
    days: clampedInt(90, 1, 730),
    window: filterParam(DASHBOARD_WINDOWS).describe('The period of the series and of the matrix: 7d (default) or 30d'),
    topic: z.string().max(60).optional().describe('Only prompts with this topic'),
    market: z.string().max(30).optional().describe('Only this market, e.g. en-US'),
  }),
  response: z
    .object({
      project_id: z.string(),
      engine: z
        .enum(['sandbox', 'live', 'mixed'])
        .nullable()
        .describe('Which engine answered the runs behind these numbers: sandbox (simulated answers), live, mixed; null without runs'),
      run_count: z.number().int().describe('Runs behind these numbers'),
      sandbox_run_count: z.number().int().describe('Of them, runs the sandbox engine answered (simulated, not real AI answers)'),
      thin_evidence: z.object({ min_answers: z.number(), max_half_width: z.number() }),
      series: z.array(
        z
          .object({
            definition_id: z
              .string()
              .nullable()
              .describe("What the window's runs asked: their one definition id, or for several markets each asking one thing an id of that set; null when a market's runs in the window asked different things"),
            not_comparable_reason: z
              .enum(['no_previous_window', 'definition_changed', 'definition_mixed'])
              .nullable()
              .describe(
                "Why the brand's and competitors' change is null in this window: no_previous_window (the first window with runs), definition_changed (the window before asked something else: prompts, platforms, repeats, markets or competitors), definition_mixed (this window or the one before mixes definitions); null when compared with the window before",
              ),
            brand: RateChange,
            competitors: z.array(RateChange.extend({ name: z.string() }).passthrough()),
          })
          .passthrough(),
      ),
      matrix: z.array(
        z
          .object({
            prompt: z.string(),
            topics: z.array(z.string()),
            n: z.number().int(),
            thin: z.boolean(),
            previous_mention_rate: z.number().nullable().describe('The prompt\'s rate in the window before, when that window asked it the same (not_comparable_reason null); else null'),
            change: z.number().nullable().describe('mention_rate minus previous_mention_rate; null when not compared (see not_comparable_reason) or either has no answers'),
            not_comparable_reason: z
              .enum(['no_previous_window', 'definition_changed', 'definition_mixed'])
              .nullable()
              .describe(
                "Why the prompt's change is null: no_previous_window (no runs in the window before), definition_changed (the window before asked this prompt otherwise: platforms, models, markets, repeats or the brand's aliases and domains), definition_mixed (runs of one market in either window asked it differently); null when compared. Each platform cell compares on its own: a platform added leaves the others' changes",
              ),
          })
          .passthrough(),
      ),
      topics: z.array(z.object({ topic: z.string() }).passthrough()),
      competitors_named_brand_absent: z.array(z.object({ prompt: z.string() }).passthrough()),
      site_activity: z
        .object({
          sites: z.array(z.object({ id: z.string(), domain: z.string() })),
          crawler_requests: z.number().int(),
          crawler_refused: z.number().int(),
          referral_visits: z.number().int(),
          crawlers: z.array(z.object({ name: z.string(), requests: z.number().int(), refused: z.number().int() })),
          referrals: z.array(z.object({ source: z.string(), visits: z.number().int() })),
          days: z.array(z.object({ day: z.string(), crawler_requests: z.number().int(), crawler_refused: z.number().int(), referral_visits: z.number().int() })),
        })
        .nullable()
        .describe("AI crawler requests (refused ones apart) and AI referral visits from the access logs of the account's sites on the brand's domains, over the same days; null when the account has no site on the brand's domains, and null for a key without the scope sites:read"),
    })
    .passthrough(),
  errors: [400, 404, 422],
  run: (a, ctx, core, principal) =>
    projectDashboard(core.store, ctx.accountId, a.project_id, {
      days: a.days,
      window: filterValue('window', a.window, DASHBOARD_WINDOWS) ?? '7d',
      topic: a.topic,
      market: a.market,
      strict: true,
      catalog: core.catalog,
      siteActivity: principal.scopes.has('sites:read'),
    }),
  cli: { command: 'projects dashboard', description: 'brand and competitors over time, the prompt × platform matrix, topics, competitor-only prompts', args: ['project_id'] },
  tool: {
    name: 'get_project_dashboard',
    title: 'Project dashboard numbers',
    description:
      'A project over time (7d or 30d windows): mention rate with 95% interval, share of voice, sentiment and prominence for the brand and each competitor, with the change from the window before when both asked the same (else change null and not_comparable_reason says why); the latest window as a prompt × platform matrix with the change since the window before (filter by topic or market); topics rolled up; prompts where competitors are named and the brand is not. Every rate has n (answers) and thin (n < 10 or interval wider than ±0.20). engine says whether the answers were simulated (sandbox) or real (live).',
  },
});
