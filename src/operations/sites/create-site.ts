// POST /v1/sites: a site whose access logs the account reads; an existing domain answers the existing site.
import { z } from 'zod';
import { createSite } from '../../core/sites/sites.ts';
import { defineRoute } from '../define.ts';
import { Site } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/sites',
  summary: 'Create a site (its domain); an existing domain returns the existing site',
  tags: ['sites'],
  action: 'sites.create',
  scope: 'sites:write',
  body: z.object({
    domain: z.string().min(1).max(300).describe('Host name, e.g. example.com (a URL is accepted; www. is folded)'),
    name: z.string().max(200).nullish().describe('Display name; default: the domain'),
  }),
  response: Site,
  errors: [400, 409, 422],
  run: (a, ctx, core) => createSite(core.store, ctx.accountId, a, core.webhooks.allow, core.config.SIGHTLINE_MAX_SITES_PER_ACCOUNT),
  cli: { command: 'sites create', description: 'a site whose access logs you upload (an existing domain returns the existing site)', args: ['domain'] },
  tool: {
    name: 'create_site',
    title: 'Create a site', idempotent: true,
    description: 'Register a web site (its domain) whose access logs will be read for AI crawler hits and AI referral visits. Free. Creating an existing domain returns the existing site; a new one past the instance\'s cap of sites per account is 409 limit_reached.',
  },
});
