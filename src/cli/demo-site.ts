// `npm run demo:site`: the offline demo site (demo/site: a good guide, a weak and a keyword-
// stuffed article, a pricing page, docs, robots.txt, llms.txt, sitemap.xml) served on loopback,
// so every Content Intelligence feature can be tried without the internet. The one thing to
// know: the files are written for https://acme-pm.test and every such URL is rewritten to the
// address the site is served on, so canonical URLs, the sitemap and links point back at it.
// The server's fetcher refuses loopback unless allowed: start sightline with the printed
// SIGHTLINE_FETCH_ALLOW.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../demo/site/', import.meta.url));
const portArg = process.argv.indexOf('--port');
const port = Number(portArg > 0 ? process.argv[portArg + 1] : process.env.DEMO_PORT ?? 8787);
const host = '127.0.0.1';
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.xml': 'application/xml', '.txt': 'text/plain; charset=utf-8' };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

const routes = new Map<string, { type: string; body: string }>();
function load(origin: string) {
  for (const file of files(ROOT)) {
    const rel = '/' + relative(ROOT, file).split('\\').join('/');
    const route = { type: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file, 'utf8').replaceAll('https://acme-pm.test', origin) };
    routes.set(rel, route);
    if (rel.endsWith('/index.html')) routes.set(rel.slice(0, -'index.html'.length), route);
    else if (rel.endsWith('.html')) routes.set(rel.slice(0, -'.html'.length), route);
  }
}

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const route = routes.get(path);
  res.writeHead(route ? 200 : 404, { 'content-type': route?.type ?? 'text/plain; charset=utf-8' });
  res.end(route ? route.body : 'Not found');
});
// Port 0 picks a free port; the first line printed names the address.
server.listen(port, host, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const origin = `http://${host}:${actual}`;
  load(origin);  const pages = [...routes.keys()].filter((p) => !p.endsWith('.html') && !/\.(txt|xml)$/.test(p));
  process.stdout.write(
    [
      `Demo site on ${origin} (Ctrl-C stops it). Pages:`,
      ...pages.map((p) => `  ${origin}${p}`),
      '',
      'Let sightline fetch it (the fetcher refuses loopback addresses otherwise):',
      `  SIGHTLINE_FETCH_ALLOW=${host}:${actual} npm start`,
      '',
    ].join('\n') + '\n',
  );
});
