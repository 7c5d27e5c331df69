// Assembles the process's Fastify app: the shared request plumbing of src/web/ (edge guards,
// errors, auth, rate limit, activity), the OpenAPI document, and the surfaces: the HTTP API
// (src/http/), MCP (src/mcp/), the console (src/console/) and the public pages of report share
// links (src/share/). The surfaces never import each other; only this file puts them side by side.
// No business logic lives here.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { toJsonBytes } from '../core/freeze.ts';
import { newId } from '../lib/ids.ts';
import { PACKAGE_VERSION } from '../lib/version.ts';
import type { Core } from '../core/index.ts';
import { registerAuth } from '../web/auth.ts';
import { frameworkErrors, registerErrorHandling, trackInFlight } from '../web/errors.ts';
import { registerInputGuards } from '../web/input-guards.ts';
import { httpTimeouts, registerEdge } from '../web/edge.ts';
import { registerObservability } from '../web/observability.ts';
import { registerPublicOrigin, trustProxyOption } from '../web/public-origin.ts';
import { requestIdGenerator } from '../web/request-id.ts';
import type { KeyRateLimiter } from '../web/rate-limit.ts';
import { closeObjectSchemas } from '../web/unknown-fields.ts';
import { registerRoutes } from '../http/routes.ts';
import { documentMediaTypes } from '../http/mount.ts';
import { registerMcpEndpoint } from '../mcp/server.ts';
import { registerConsole } from '../console/routes.ts';
import { knownProviderKeys } from './key-check.ts';
import { registerSharePages } from '../share/routes.ts';
import type { PdfRendererOptions } from '../share/pdf-thread.ts';

const DOCS_WORDMARK =
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="32" viewBox="0 0 150 32">' +
  '<circle cx="14" cy="16" r="9" fill="none" stroke="#fff" stroke-width="3"/><circle cx="14" cy="16" r="3" fill="#fff"/>' +
  '<text x="30" y="23" font-family="system-ui,sans-serif" font-size="20" font-weight="600" fill="#fff">sightline</text></svg>';

/** The API reference page's Content-Security-Policy. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface AppOptions {
  core: Core;
  rateLimiter: KeyRateLimiter;
  logger?: boolean | { level: string };
  /** How share-link PDFs are rendered (tests replace the thread's entry). */
  sharePdf?: PdfRendererOptions;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    // A fresh req_… id, or a trusted proxy's X-Request-Id when it is safe to repeat (web/request-id.ts).
    genReqId: requestIdGenerator(opts.core.config, () => newId('req')),
    bodyLimit: 1024 * 1024,
    ...httpTimeouts(opts.core.config),
    // X-Forwarded-For/-Proto/-Host are believed only from SIGHTLINE_TRUST_PROXY's proxies.
    trustProxy: trustProxyOption(opts.core.config),
    logController: new LogController({ disableRequestLogging: true }),
    // Unknown query parameters are ignored, booleans and numbers come as strings: zod coerces.
    ajv: undefined,
    // Router-level failures (a path parameter over 100 characters: 414) in the API's error shape.
    frameworkErrors,
    // A request arriving while shutting down is answered 503 shutting_down by trackInFlight (web/errors.ts).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerEdge(app);
  registerPublicOrigin(app, opts.core.config);
  // Responses are plain JSON built by the core; the schemas document them, they don't filter them.
  // A shared answer (shareAnswer: one the core hands out again, e.g. usage) keeps its text, and a
  // large one holding shared parts is written as UTF-8 bytes (toJsonBytes). Fastify's types say a
  // serializer returns a string; it sends a Buffer as is (content-length from its length).
  app.setSerializerCompiler(() => toJsonBytes as (data: unknown) => string);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  registerErrorHandling(app);
  // Shutdown (src/server/serve.ts) waits for these, then answers what is left 503.
  trackInFlight(app);
  registerInputGuards(app);
  registerObservability(app, opts.core.config);
  registerAuth(app, opts.core, opts.rateLimiter);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'sightline API',
        version: PACKAGE_VERSION,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        description:
          'AI Visibility and Content Intelligence. Every /v1 request carries `Authorization: Bearer svc_api_live_…`. ' +
          'Errors: 422 `{"detail": [{"loc","msg","type"}]}`, otherwise `{"detail": {"error","message"}}`. ' +
          'A method a path does not have is 405 `method_not_allowed` with an `Allow` header; a path no operation has is 404 `not_found`. ' +
          'A request body nested deeper than 64 levels of arrays and objects is 422 with type `json_too_deep`.',
      },
      // Relative: the document describes whichever server serves it (and /docs tries requests there).
      servers: [{ url: '/', description: 'This sightline server' }],
      security: [{ bearer: [] }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'svc_api_live_… API key' } },
      },
    },
    // A request body closes (additionalProperties: false) what the server refuses unknown keys in;
    // a raw body and a download say their media types.
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      closeObjectSchemas((out.schema as { body?: unknown } | undefined)?.body);
      documentMediaTypes(input.route.config?.media, out.schema as Parameters<typeof documentMediaTypes>[1]);
      return out;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Branded as sightline (title and a wordmark in place of Swagger's logo), served locally: no CDN.
    theme: { title: 'sightline API reference' },
    logo: { type: 'image/svg+xml', content: Buffer.from(DOCS_WORDMARK), href: '/docs', target: '_self' },
    uiConfig: { docExpansion: 'list', deepLinking: true, tryItOutEnabled: false },
    // Its own files only, never framed (clickjacking). Swagger UI sets style attributes as it
    // renders, hence 'unsafe-inline' for styles (no scripts: script-src stays 'self').
    staticCSP: DOCS_CSP,
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.header('x-frame-options', 'DENY');
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'no-referrer');
        done();
      },
    },
  });

  await registerRoutes(app, opts.core);
  registerMcpEndpoint(app, opts.core, opts.rateLimiter);
  registerConsole(app, opts.core, { providerKeys: knownProviderKeys });
  registerSharePages(app, opts.core, opts.sharePdf);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
