// `npm run demo:site`: the offline demo site (demo/site: a good guide, a weak and a keyword-
// stuffed article, a pricing page, docs, robots.txt, llms.txt, sitemap.xml) served on loopback,
// so every Content Intelligence feature can be tried without the internet. The one thing to
// know: the files are written for https://acme-pm.test and every such URL is rewritten to the
// address the site is served on, so canonical URLs, the sitemap and links point back at it.
// The server's fetcher refuses loopback unless allowed: start sightline with the printed
// SIGHTLINE_FETCH_ALLOW.
import http from 'node:http';
import { demoSiteRoutes, type DemoRoute } from './demo-site-files.ts';

const portArg = process.argv.indexOf('--port');
const port = Number(portArg > 0 ? process.argv[portArg + 1] : process.env.DEMO_PORT ?? 8787);
const host = '127.0.0.1';

let routes = new Map<string, DemoRoute>();

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
  routes = demoSiteRoutes(origin);
  const pages = [...routes.keys()].filter((p) => !p.endsWith('.html') && !/\.(txt|xml)$/.test(p));
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
