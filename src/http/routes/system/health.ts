// /healthz (the process answers) and /readyz (the database answers). No key needed.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Core } from '../../../core/index.ts';
import { ErrorBody } from '../../schemas.ts';

export function registerHealthRoutes(app: FastifyInstance, core: Core) {
  app.get('/healthz', { schema: { summary: 'Process is up', tags: ['system'] } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { summary: 'Database is reachable', tags: ['system'], response: { 503: ErrorBody.describe('The database is not reachable') } } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(core.store.db);
      return { status: 'ready', database: core.store.dialect };
    } catch {
      // Load balancers stop routing here until the database answers again (the pool reconnects).
      return reply.status(503).header('retry-after', '2').send({ detail: { error: 'not_ready', message: 'The database is not reachable.' } });
    }
  });
}
