// Which methods a path has: a request whose path exists but not with its method is a 405
// method_not_allowed with an Allow header (RFC 9110 15.5.6), not a 404; a path no route has stays
// a 404. Fastify's router answers both as "not found", so the routes are noted as they are added
// and the not-found handler asks here. The one thing to know: wildcard routes (the console's page
// at /console/*, the /docs files) are left out, or every path under them would "exist".
import type { FastifyInstance } from 'fastify';

interface KnownRoute {
  pattern: RegExp;
  methods: Set<string>;
}

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `/v1/tests/:test_id/runs` → a regular expression matching its concrete paths. */
function patternOf(url: string): RegExp {
  const segments = url.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : escape(seg)));
  return new RegExp(`^${segments.join('/')}/?$`);
}

/** Notes every route added from now on; answers the methods a concrete path has (sorted, empty when none). */
export function trackRouteMethods(app: FastifyInstance): (path: string) => string[] {
  const routes = new Map<string, KnownRoute>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*') || route.url.includes('(')) return;
    const known = routes.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) known.methods.add(m.toUpperCase());
    routes.set(route.url, known);
  });
  return (path) => {
    const allowed = new Set<string>();
    for (const r of routes.values()) if (r.pattern.test(path)) r.methods.forEach((m) => allowed.add(m));
    return [...allowed].sort();
  };
}
