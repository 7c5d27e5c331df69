// Serves one of the Content Intelligence fixture sites (test/fixtures/content/sites/HOST) from a
// loopback fixture server, so the HTTP tests exercise the real SSRF-safe fetcher. Absolute links
// to https://HOST in the files are rewritten to the server's origin, so canonical URLs, sitemaps
// and same-site links point back at it; `.headers.json` siblings add headers and a status.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';

const SITES = fileURLToPath(new URL('../fixtures/content/sites/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return name.endsWith('.headers.json') ? [] : [full];
  });
}

function contentType(file: string): string {
  if (file.endsWith('.html')) return 'text/html; charset=utf-8';
  if (file.endsWith('.xml')) return 'application/xml';
  return 'text/plain; charset=utf-8';
}

/** Serves sites/HOST at http://127.0.0.1:PORT; `extra` adds or overrides routes. */
export async function serveFixtureSite(host: string, extra: Parameters<typeof startFixtureServer>[0] = {}): Promise<FixtureServer> {
  const root = join(SITES, host);
  const server = await startFixtureServer();
  for (const file of filesUnder(root)) {
    const rel = '/' + relative(root, file).split('\\').join('/');
    const metaFile = file + '.headers.json';
    const meta = existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, 'utf8')) as { status?: number; headers?: Record<string, string> }) : {};
    const body = readFileSync(file, 'utf8').replaceAll(`https://${host}`, server.origin);
    const route = { status: meta.status ?? 200, headers: { 'content-type': contentType(file), ...meta.headers }, body };
    const paths = [rel];
    if (rel.endsWith('/index.html')) paths.push(rel.slice(0, -'index.html'.length));
    else if (rel.endsWith('.html')) paths.push(rel.slice(0, -'.html'.length));
    for (const p of paths) server.route(p, route);
  }
  for (const [path, route] of Object.entries(extra)) server.route(path, route);
  return server;
}
