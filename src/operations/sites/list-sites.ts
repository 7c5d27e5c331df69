import { z } from 'zod';
import { listSites } from '../../core/sites/sites.ts';
import { defineRoute } from '../define.ts';
import { Site } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/sites',
  summary: "List the account's sites, newest first",
  tags: ['sites'],
  action: 'sites.list',
  scope: 'sites:read',
  response: z.object({ sites: z.array(Site) }),
  errors: [],
  run: (_a, ctx, core) => listSites(core.store, ctx.accountId),
  cli: { command: 'sites list', description: "the account's sites" },
  tool: { name: 'list_sites', title: 'List sites', description: "The account's sites (domains whose access logs are read)." },
});
