// Request logs and metrics. Every routed request ends in one structured log line (method,
// route, status, duration, request id, account id, client address; never a key or a header) and in the
// per-route Prometheus counters. GET /metrics serves the Prometheus text on the API port when
// SIGHTLINE_METRICS_TOKEN is set (Bearer that token); without it the endpoint does not exist
// here, and SIGHTLINE_METRICS_PORT serves it on a port of its own (src/ops/metrics-server.ts).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import { getMetrics } from '../ops/metrics.ts';

export function registerObservability(app: FastifyInstance, config: Config) {
  const metrics = getMetrics();
  const observe = (method: string, route: string): onResponseHookHandler => (request, reply, done) => {
    const ms = reply.elapsedTime;
    metrics.httpRequest(method, route, reply.statusCode, ms / 1000);
    request.log.info(
      // ip: the client's address, as Fastify's trustProxy reads it (X-Forwarded-For only from SIGHTLINE_TRUST_PROXY's proxies).
      { req_id: request.id, method, route, status: reply.statusCode, ms: Math.round(ms * 10) / 10, account_id: request.principal?.accountId ?? null, ip: request.ip },
      'request',
    );
    done();
  };
  // Per route, with its URL pattern in hand (reading request.routeOptions costs on every request).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    const hooks = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse];
    route.onResponse = [...hooks, observe(methods, route.url)];
  });

  const token = config.SIGHTLINE_METRICS_TOKEN;
  if (!token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.status(401).send({ detail: { error: 'unauthorized', message: 'GET /metrics needs Authorization: Bearer SIGHTLINE_METRICS_TOKEN.' } });
    }
    return reply.header('content-type', metrics.contentType).send(await metrics.render());
  });
}
