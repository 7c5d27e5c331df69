// DELETE /v1/sites/{id}: the site and all of its log data (rollups and line hashes).
import { z } from 'zod';
import { deleteSite } from '../../core/sites/sites.ts';
import { defineRoute } from '../define.ts';
import { SiteParams } from './shapes.ts';

export default defineRoute({
  method: 'DELETE',
  url: '/v1/sites/:site_id',
  summary: 'Delete a site and its log data',
  tags: ['sites'],
  action: 'sites.delete',
  scope: 'sites:write',
  params: SiteParams,
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  errors: [404],
  run: (a, ctx, core) => deleteSite(core.store, ctx.accountId, a.site_id),
  cli: { command: 'sites delete', description: 'delete a site and its log data', args: ['site_id'] },
  tool: { name: 'delete_site', title: 'Delete a site', destructive: true, idempotent: true, description: 'Delete a site and everything read from its logs. Free.' },
});
