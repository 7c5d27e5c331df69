// The public pages of a share link: GET /share/:token (the report as HTML) and
// GET /share/:token/report.pdf (the same report as a PDF). No sign-in and no API key: the token
// is the only credential and opens that one report, read-only. Every answer is uncacheable, kept
// out of search engines and referrers, and framed by nothing; the HTML page runs no script.
// Lookups are limited per client address (SIGHTLINE_SHARE_LIMIT_PER_MINUTE) before the token is
// looked at, so guessing tokens costs the same as reading a report. An unknown, expired or
// revoked token, or one whose project or account is gone, gets the same 404 page from the same
// single query (core/reports/shares.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Core } from '../core/index.ts';
import { openShare, shareReport, type OpenShare } from '../core/reports/shares.ts';
import { notFoundHtml, reportHtml, SHARE_CSP, tooManyHtml } from './html.ts';
import { reportPdf } from './pdf.ts';

function secure(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-robots-tag', 'noindex, nofollow');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('content-security-policy', SHARE_CSP);
}

export function registerSharePages(app: FastifyInstance, core: Core) {
  const limiter = new RateLimiterMemory({ points: core.config.SIGHTLINE_SHARE_LIMIT_PER_MINUTE, duration: 60 });

  /** The share the request's token opens, or null after answering it (404 or 429). */
  async function open(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply): Promise<OpenShare | null> {
    secure(reply);
    try {
      await limiter.consume(request.ip);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      reply.header('retry-after', String(Math.ceil(res.msBeforeNext / 1000)));
      reply.code(429).type('text/html; charset=utf-8').send(tooManyHtml());
      return null;
    }
    const share = await openShare(core.store, request.params.token);
    if (!share) {
      reply.code(404).type('text/html; charset=utf-8').send(notFoundHtml());
      return null;
    }
    return share;
  }

  app.get<{ Params: { token: string } }>('/share/:token', { schema: { hide: true } }, async (request, reply) => {
    const share = await open(request, reply);
    if (!share) return reply;
    const report = await shareReport(core.store, core.catalog, share);
    return reply.type('text/html; charset=utf-8').send(reportHtml(report, request.params.token));
  });

  app.get<{ Params: { token: string } }>('/share/:token/report.pdf', { schema: { hide: true } }, async (request, reply) => {
    const share = await open(request, reply);
    if (!share) return reply;
    const report = await shareReport(core.store, core.catalog, share);
    const pdf = await reportPdf(report);
    const name = `${share.projectName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'report'}-report.pdf`;
    return reply.type('application/pdf').header('content-disposition', `inline; filename="${name}"`).send(pdf);
  });
}
