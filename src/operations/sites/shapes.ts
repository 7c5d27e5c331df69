// Response shapes of the sites routes.
import { z } from 'zod';

export const Site = z.object({
  id: z.string().describe('Site id (site_…)'),
  domain: z.string().describe('Host name, lowercased, www. folded'),
  name: z.string(),
  created_at: z.string(),
});

export const SiteParams = z.object({ site_id: z.string().max(64).describe('Site id (site_…)') });

export const CrawlerReport = z.object({
  site_id: z.string(),
  from: z.string(),
  to: z.string(),
  crawlers: z.array(
    z.object({
      name: z.string().describe("The crawler catalog's name, e.g. GPTBot"),
      vendor: z.string(),
      role: z.enum(['training', 'search', 'user']),
      hits: z.number().int(),
      verified_hits: z.number().int().describe("Hits from inside the vendor's published IP ranges"),
      unverified_hits: z.number().int().describe('Hits from elsewhere, or from a vendor that publishes no ranges'),
      verifiable: z.boolean().describe("Whether the vendor publishes IP ranges the server holds; false: every hit is unverified because none can be checked, not because it was spoofed"),
      unverifiable_reason: z.string().nullable().describe('Why hits of this crawler cannot be verified, e.g. "Anthropic publishes no IP ranges for its crawlers."; null when they can'),
      status: z.object({ '2xx': z.number().int(), '3xx': z.number().int(), '4xx': z.number().int(), '5xx': z.number().int() }),
      blocked_hits: z.number().int().describe('Answered 401, 403, 429 or 451, or with a bot challenge'),
      last_seen: z.string(),
      top_paths: z.array(z.object({ path: z.string(), hits: z.number().int(), blocked_hits: z.number().int() })),
      daily: z
        .array(z.object({ day: z.string().describe('UTC day, YYYY-MM-DD'), hits: z.number().int(), blocked_hits: z.number().int() }))
        .describe('Hits per UTC day that had any, oldest first'),
    }),
  ),
});

export const ReferralReport = z.object({
  site_id: z.string(),
  from: z.string(),
  to: z.string(),
  sources: z.array(
    z.object({
      source: z.enum(['chatgpt', 'perplexity', 'gemini', 'copilot', 'claude', 'deepseek', 'grok', 'meta_ai', 'mistral']),
      visits: z.number().int(),
      top_landing_pages: z.array(z.object({ path: z.string(), visits: z.number().int() })),
      daily: z.array(z.object({ day: z.string().describe('UTC day, YYYY-MM-DD'), visits: z.number().int() })).describe('Visits per UTC day that had any, oldest first'),
    }),
  ),
});

export const IngestSummary = z.object({
  format: z.enum(['combined', 'common', 'cloudflare', 'cloudfront', 'vercel']),
  lines: z.number().int().describe('Non-empty lines read'),
  parsed: z.number().int().describe("Requests of this site's host read from them"),
  skipped: z.number().int().describe('Lines that are no request of the format, or requests for another host'),
  duplicates: z.number().int().describe('Lines not counted again because the same bytes were already counted: duplicates_in_upload + duplicates_sent_before'),
  duplicates_in_upload: z.number().int().describe('Of the duplicates: lines repeated within this upload (a second copy of a line earlier in it)'),
  duplicates_sent_before: z.number().int().describe('Of the duplicates: lines another upload counted first (an earlier one, or one sent at the same time)'),
  ai_crawler_hits: z.number().int(),
  ai_referral_visits: z.number().int(),
  from: z.string().nullable().describe('The earliest request time read'),
  to: z.string().nullable().describe('The latest request time read'),
  future_lines: z
    .number()
    .int()
    .describe(
      "Of the parsed lines: those dated more than an hour after the server's clock (a log written with a wrong time zone or clock). They are counted, but the reports end now and show them only once that time has passed",
    ),
  too_old_lines: z
    .number()
    .int()
    .describe(
      "Of the parsed lines: those dated further back than the server keeps log line hashes (SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS days, 400 by default). A copy sent before could no longer be recognised, so they are not counted (nor lines older than hashes it already removed, whatever its setting now)",
    ),
  hint: z.string().optional().describe('Only when lines were sent and none could be read in the format: which format they look like, or that none matched'),
});
