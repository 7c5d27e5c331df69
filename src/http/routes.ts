// The HTTP API: health and every operation of the catalog mounted as a route.
import type { FastifyInstance } from 'fastify';
import type { Core } from '../core/index.ts';
import { OPERATIONS } from '../operations/index.ts';
import { registerHealthRoutes } from './health.ts';
import { mountRoute } from './mount.ts';

export async function registerRoutes(app: FastifyInstance, core: Core) {
  registerHealthRoutes(app, core);
  for (const route of OPERATIONS) mountRoute(app, core, route as never);
}
