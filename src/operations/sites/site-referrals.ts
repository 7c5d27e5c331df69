// GET /v1/sites/{id}/referrals?days=30: page visits referred by AI assistants.
import { z } from 'zod';
import { siteReferrals } from '../../core/sites/sites.ts';
import { clampedInt, defineRoute } from '../define.ts';
import { ReferralReport, SiteParams } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/sites/:site_id/referrals',
  summary: 'Visits referred by AI assistants (Referer or utm_source), per assistant and landing page',
  tags: ['sites'],
  action: 'sites.referrals',
  scope: 'sites:read',
  params: SiteParams,
  querystring: z.object({ days: clampedInt(30, 1, 365) }),
  response: ReferralReport,
  errors: [404, 422],
  run: (a, ctx, core) => siteReferrals(core.store, ctx.accountId, a.site_id, a.days),
  cli: { command: 'sites referrals', description: 'visits referred by AI assistants, most first', args: ['site_id'] },
  tool: {
    name: 'get_site_referrals',
    title: 'AI referral visits of a site',
    description:
      'Successful page visits (not assets) whose Referer host or utm_source names an AI assistant (chatgpt, perplexity, gemini, copilot, claude, deepseek, grok, meta_ai, mistral) over the last `days` days, with the top landing pages.',
  },
});
