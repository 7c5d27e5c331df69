// POST /v1/sites/{id}/logs?format=…: raw access log bytes (text, NDJSON or gzip), read as a
// stream into the site's rollups (core/sites/ingest.ts). The body is never buffered: the route's
// content-type parser hands the request stream through (`rawBody` in ../define.ts, mounted by src/http/mount.ts).
import { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { crawlerRanges } from '../../core/sites/ip-ranges.ts';
import { ingestLog, uploadTooLarge } from '../../core/sites/ingest.ts';
import { LOG_FORMATS } from '../../core/sites/log-formats.ts';
import { getSiteRow } from '../../core/sites/sites.ts';
import { queueBlockedCheck } from '../../core/sites/blocked.ts';
import type { Core } from '../../core/index.ts';
import { defineRoute, filterParam, filterValue, RawBody } from '../define.ts';
import { IngestSummary, SiteParams } from './shapes.ts';

const FORMATS = ['auto', ...LOG_FORMATS] as const;

/** The media types a log upload may be sent as (gzip also as Content-Encoding: gzip). */
export const LOG_MEDIA_TYPES = ['text/plain', 'application/x-ndjson', 'application/gzip', 'application/x-gzip', 'application/octet-stream'];

/** Reading options; refused search or user crawlers queue a `crawler.blocked` check (core/sites/blocked.ts). */
function ingestOptions(core: Core, site: { id: string; account_id: string }, format: (typeof FORMATS)[number]) {
  return {
    format,
    ranges: crawlerRanges(core.config.SIGHTLINE_CRAWLER_RANGES_PATH),
    limits: { maxBytes: core.config.SIGHTLINE_LOG_UPLOAD_MAX_BYTES, maxUnpackedBytes: core.config.SIGHTLINE_LOG_UPLOAD_MAX_UNPACKED_BYTES },
    // Lines older than the hash window are not counted (too_old_lines): their copies could not be told apart.
    retainDays: core.config.SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS,
    onBlockedHits: async () => {
      await queueBlockedCheck(core.store, site);
      core.notifyWork();
    },
  };
}

export default defineRoute({
  method: 'POST',
  url: '/v1/sites/:site_id/logs',
  summary: 'Upload access log lines (nginx/Apache combined or common, Cloudflare, CloudFront, Vercel; gzip or not; up to 512 MiB)',
  tags: ['sites'],
  action: 'sites.logs.upload',
  scope: 'sites:write',
  params: SiteParams,
  querystring: z.object({ format: filterParam(FORMATS) }),
  rawBody: LOG_MEDIA_TYPES,
  response: IngestSummary,
  errors: [400, 404, 413, 415, 422],
  // The MCP tool's way in: the lines as text (HTTP streams the raw body through `handler`).
  run: async (a, ctx, core) => {
    const lines = (a as { lines?: unknown }).lines;
    if (typeof lines !== 'string') throw new AppError('invalid_request', 'Send the log lines as `lines` (text), or upload the file over HTTP.');
    const site = await getSiteRow(core.store, ctx.accountId, a.site_id);
    const format = filterValue('format', a.format, FORMATS) ?? 'auto';
    return ingestLog(core.store, site, Readable.from([Buffer.from(lines)]), ingestOptions(core, site, format));
  },
  cli: { command: 'logs ingest', description: 'upload an access log file (- reads stdin), or follow a growing one, to a site', flags: { site_id: 'site' } },
  tool: {
    name: 'upload_site_logs',
    title: 'Upload access log lines',
    idempotent: true,
    extraInput: { lines: z.string().max(1024 * 1024).describe('Access log lines, newline-separated (at most 1 MiB; larger files go over HTTP)') },
    description:
      'Read access log lines of a site (nginx/Apache combined or common, Cloudflare Logpush http_requests NDJSON, CloudFront standard logs, Vercel log drains; format auto-detected) into its AI crawler and AI referral reports. Free. Lines already read count once (duplicates: repeated within this upload, or sent in an earlier one).',
  },
  handler: async ({ params, query, ctx, request }, core) => {
    const format = filterValue('format', query.format, FORMATS) ?? 'auto';
    const { accountId } = ctx;
    const site = await getSiteRow(core.store, accountId, params.site_id);
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > core.config.SIGHTLINE_LOG_UPLOAD_MAX_BYTES) throw uploadTooLarge(core.config.SIGHTLINE_LOG_UPLOAD_MAX_BYTES);
    const body = request.body instanceof RawBody ? request.body.stream : null;
    if (!body) throw new AppError('invalid_request', 'Send the log lines as the request body.');
    return ingestLog(core.store, site, body, ingestOptions(core, site, format));
  },
});
