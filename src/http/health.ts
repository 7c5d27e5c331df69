// /healthz (the process answers) and /readyz (the database answers). No key needed.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Core } from '../core/index.ts';
import { z } from 'zod';
import { ErrorBody } from '../operations/define.ts';
import { notReadyDetail } from '../web/errors.ts';

export function registerHealthRoutes(app: FastifyInstance, core: Core) {
  // security: [] says what the root-level bearer requirement does not: no key needed here.
  app.get(
    '/healthz',
    { schema: { operationId: 'healthz', summary: 'Process is up', tags: ['system'], security: [], response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' }),
  );
  const readyzSchema = {
    operationId: 'readyz',
    summary: 'Database is reachable',
    tags: ['system'],
    security: [],
    response: {
      200: z.object({ status: z.literal('ready'), database: z.enum(['sqlite', 'postgres']) }),
      503: ErrorBody.describe('The database is not reachable'),
    },
  };
  app.get('/readyz', { schema: readyzSchema }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(core.store.db);
      return { status: 'ready', database: core.store.dialect };
    } catch (err) {
      // Load balancers stop routing here until the database answers again (the pool reconnects).
      return reply.status(503).header('retry-after', '2').send({ detail: notReadyDetail(err) });
    }
  });
}
