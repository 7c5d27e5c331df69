import { getSite } from '../../core/sites/sites.ts';
import { defineRoute } from '../define.ts';
import { Site, SiteParams } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/sites/:site_id',
  summary: 'Read one site',
  tags: ['sites'],
  action: 'sites.read',
  scope: 'sites:read',
  params: SiteParams,
  response: Site,
  errors: [404],
  run: (a, ctx, core) => getSite(core.store, ctx.accountId, a.site_id),
  cli: { command: 'sites show', description: 'one site', args: ['site_id'] },
  tool: { name: 'get_site', title: 'Read a site', description: 'One site by id: its domain and name. Its AI crawlers and AI referrals: get_site_crawlers, get_site_referrals.' },
});
