// The public pages of a share link: GET /share/:token (the report as HTML) and
// GET /share/:token/report.pdf (the same report as a PDF). No sign-in and no API key: the token
// is the only credential and opens that one report, read-only. Every answer is uncacheable, kept
// out of search engines and referrers, and framed by nothing; the HTML page runs no script.
// Lookups are limited per client address (SIGHTLINE_SHARE_LIMIT_PER_MINUTE) before the token is
// looked at, so guessing tokens costs the same as reading a report; a PDF also counts against a
// stricter limit of its own (SIGHTLINE_SHARE_PDF_LIMIT_PER_MINUTE), and a rendered PDF is kept
// until the report's numbers change (pdf-cache.ts), so a link fetched in a loop does not keep the
// server rendering; a PDF is rendered in a worker thread (pdf-thread.ts), never on the event loop
// that answers every other request. An unknown, expired or revoked token, or one whose project or
// account is gone, gets the same 404 page from the same single query (core/reports/shares.ts). A
// link whose topic or market is no longer the project's gets a 410 page saying so, never an empty
// report.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileNameOf } from '../lib/file-name.ts';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Core } from '../core/index.ts';
import { openShare, shareReport, type ShareReport } from '../core/reports/shares.ts';
import { goneHtml, notFoundHtml, reportHtml, SHARE_CSP, tooManyHtml } from './html.ts';
import { PdfCache } from './pdf-cache.ts';
import { pdfVersion } from './pdf.ts';
import { createPdfRenderer, type PdfRenderer, type PdfRendererOptions } from './pdf-thread.ts';

function secure(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-robots-tag', 'noindex, nofollow');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('content-security-policy', SHARE_CSP);
}

const pdfCaches = new WeakMap<FastifyInstance, PdfCache>();
const pdfRenderers = new WeakMap<FastifyInstance, PdfRenderer>();

/** The rendered-PDF cache of an app's share pages (tests read its counters). */
export const sharePdfCache = (app: FastifyInstance) => pdfCaches.get(app);
/** The PDF renderer of an app's share pages (tests read its thread's counts). */
export const sharePdfRenderer = (app: FastifyInstance) => pdfRenderers.get(app);

export function registerSharePages(app: FastifyInstance, core: Core, pdf: PdfRendererOptions = {}) {
  const limiter = new RateLimiterMemory({ points: core.config.SIGHTLINE_SHARE_LIMIT_PER_MINUTE, duration: 60 });
  const pdfLimiter = new RateLimiterMemory({ points: core.config.SIGHTLINE_SHARE_PDF_LIMIT_PER_MINUTE, duration: 60, keyPrefix: 'share-pdf' });
  const pdfCache = new PdfCache(core.config.SIGHTLINE_SHARE_PDF_CACHE_MB * 1024 * 1024);
  pdfCaches.set(app, pdfCache);
  const renderer = createPdfRenderer(pdf);
  pdfRenderers.set(app, renderer);
  app.addHook('onClose', async () => renderer.close());

  /** Counts the request against a limiter; false after answering 429. */
  async function allowed(l: RateLimiterMemory, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    try {
      await l.consume(request.ip);
      return true;
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      reply.header('retry-after', String(Math.ceil(res.msBeforeNext / 1000)));
      reply.code(429).type('text/html; charset=utf-8').send(tooManyHtml());
      return false;
    }
  }

  /** The report the request's token opens, or null after answering otherwise (404, 410 or 429). */
  async function open(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply, pdf = false): Promise<ShareReport | null> {
    secure(reply);
    if (!(await allowed(limiter, request, reply))) return null;
    if (pdf && !(await allowed(pdfLimiter, request, reply))) return null;
    const share = await openShare(core.store, request.params.token);
    if (!share) {
      reply.code(404).type('text/html; charset=utf-8').send(notFoundHtml());
      return null;
    }
    const view = await shareReport(core.store, core.catalog, share);
    if (view.status !== 'ok') {
      reply.code(410).type('text/html; charset=utf-8').send(goneHtml(share, view.status));
      return null;
    }
    return view.report;
  }

  app.get<{ Params: { token: string } }>('/share/:token', { schema: { hide: true } }, async (request, reply) => {
    const report = await open(request, reply);
    if (!report) return reply;
    return reply.type('text/html; charset=utf-8').send(reportHtml(report, request.params.token));
  });

  app.get<{ Params: { token: string } }>('/share/:token/report.pdf', { schema: { hide: true } }, async (request, reply) => {
    const report = await open(request, reply, true);
    if (!report) return reply;
    const { share } = report;
    const pdf = await pdfCache.get(share.id, pdfVersion(report), () => renderer.render(report));
    const name = `${fileNameOf(share.projectName, 'report')}-report.pdf`;
    return reply.type('application/pdf').header('content-disposition', `inline; filename="${name}"`).send(pdf);
  });
}
