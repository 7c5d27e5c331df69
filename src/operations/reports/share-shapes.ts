// Share links' response shape, shared by the create, list and revoke operations.
import { z } from 'zod';

export const Share = z.object({
  id: z.string().describe('Share id (shr_…)'),
  project_id: z.string(),
  window: z.string().describe('The report\'s period: 7d or 30d'),
  days: z.number().int().describe('Days of history the report covers'),
  topic: z.string().nullable().describe('Only prompts with this topic, or null'),
  market: z.string().nullable().describe('Only this market, or null'),
  status: z.enum(['active', 'expired', 'revoked']),
  report_status: z
    .enum(['ok', 'topic_gone', 'market_gone'])
    .describe("ok, or topic_gone / market_gone: the link's topic or market is no longer the project's (its prompts deleted, the market removed), so the link opens a page saying so instead of the report"),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
});
