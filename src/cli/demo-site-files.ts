// The files of the offline demo site (demo/site) as the demo server serves them: routes with
// and without ".html", and every https://acme-pm.test URL rewritten to the address the site is
// served on. Pure (no server), so tests can read the demo site exactly as `npm run demo:site`
// serves it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEMO_ROOT = fileURLToPath(new URL('../../demo/site/', import.meta.url));
/** The origin the demo files are written for. */
export const DEMO_WRITTEN_FOR = 'https://acme-pm.test';
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.xml': 'application/xml', '.txt': 'text/plain; charset=utf-8' };

export interface DemoRoute {
  type: string;
  body: string;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

/** Path → what the demo server answers, for a site served on `origin`. */
export function demoSiteRoutes(origin: string): Map<string, DemoRoute> {
  const routes = new Map<string, DemoRoute>();
  for (const file of files(DEMO_ROOT)) {
    const rel = '/' + relative(DEMO_ROOT, file).split('\\').join('/');
    const route = { type: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file, 'utf8').replaceAll(DEMO_WRITTEN_FOR, origin) };
    routes.set(rel, route);
    if (rel.endsWith('/index.html')) routes.set(rel.slice(0, -'index.html'.length), route);
    else if (rel.endsWith('.html')) routes.set(rel.slice(0, -'.html'.length), route);
  }
  return routes;
}
