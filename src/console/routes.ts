// The web console: one static page that drives the public HTTP API with a key kept in the
// browser. It holds no logic of its own; requests it sends carry `x-sightline-surface: console`
// so the activity log and idempotency scoping record the console as their access source.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const PAGE = readFileSync(new URL('./index.html', import.meta.url), 'utf8');

export function registerConsole(app: FastifyInstance) {
  const send = async (_request: unknown, reply: { header: (k: string, v: string) => unknown; type: (t: string) => { send: (b: string) => unknown } }) => {
    reply.header('content-security-policy', "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'");
    reply.header('x-frame-options', 'DENY');
    return reply.type('text/html; charset=utf-8').send(PAGE);
  };
  app.get('/console', { schema: { hide: true } }, send as never);
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console'));
}
