// Builds the Fastify app: plugins (errors, auth, rate limit, activity, OpenAPI) and routes.
// No business logic lives here; every handler calls the core.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { toJson } from '../core/freeze.ts';
import { newId } from '../core/ids.ts';
import type { Core } from '../core/index.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerInputGuards } from './plugins/input-guards.ts';
import { httpTimeouts, registerEdge } from './plugins/edge.ts';
import { registerObservability } from './plugins/observability.ts';
import type { KeyRateLimiter } from './plugins/rate-limit.ts';
import { registerRoutes } from './routes/index.ts';
import { registerMcpEndpoint } from '../mcp/server.ts';
import { registerConsole } from '../console/routes.ts';

export interface AppOptions {
  core: Core;
  rateLimiter: KeyRateLimiter;
  logger?: boolean | { level: string };
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    genReqId: () => newId('req'),
    bodyLimit: 1024 * 1024,
    ...httpTimeouts(opts.core.config),
    logController: new LogController({ disableRequestLogging: true }),
    // Unknown query parameters are ignored, booleans and numbers come as strings: zod coerces.
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerEdge(app);
  // Responses are plain JSON built by the core; the schemas document them, they don't filter them.
  // A shared answer (shareAnswer: one the core hands out again, e.g. usage) keeps its text.
  app.setSerializerCompiler(() => toJson);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  registerErrorHandling(app);
  registerInputGuards(app);
  registerObservability(app, opts.core.config);
  registerAuth(app, opts.core, opts.rateLimiter);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'sightline API',
        version: '1.0.0',
        description:
          'AI Visibility and Content Intelligence. Every /v1 request carries `Authorization: Bearer svc_api_live_…`. ' +
          'Errors: 422 `{"detail": [{"loc","msg","type"}]}`, otherwise `{"detail": {"error","message"}}`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'svc_api_live_… API key' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await registerRoutes(app, opts.core);
  registerMcpEndpoint(app, opts.core, opts.rateLimiter);
  registerConsole(app, opts.core);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
