// A small local HTTP server for tests that need a real peer: pages, redirects, slow answers,
// endless bodies. It listens on 127.0.0.1 port 0 (loopback only, a free port) and records
// every request it receives, so a test can prove that something was NOT requested.
//
// The one thing to know: close() destroys open connections too, so a test that leaves an
// endless or stalled response behind still ends promptly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureRoute {
  /** HTTP status; default 200 (302 when `redirect` is set). */
  status?: number;
  headers?: Record<string, string | string[]>;
  /** Whole body, sent after `delayMs`. Ignored when `chunks` or `endless` is set. */
  body?: string | Buffer;
  /** Wait this long before sending the status line and headers. */
  delayMs?: number;
  /** Send the body in these pieces, `chunkDelayMs` apart (headers are sent first). */
  chunks?: (string | Buffer)[];
  chunkDelayMs?: number;
  /**
   * Keep sending `chunk` every `intervalMs` (default 1 ms) until the client goes away. A function
   * makes each piece different (its argument counts the pieces), as real pages are.
   */
  endless?: { chunk: string | Buffer | ((n: number) => string); intervalMs?: number };
  /** Send headers, then never send a body byte (until the client goes away). */
  stallBody?: boolean;
  /** Location header value, sent exactly as given (a relative reference stays relative). */
  redirect?: string;
}

export type FixtureHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface FixtureServer {
  /** Absolute URL on this server, e.g. url('/a') → http://127.0.0.1:PORT/a */
  url(path?: string): string;
  readonly origin: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** How many requests hit this path (path with query, as sent). */
  hits(path: string): number;
  /** Add or replace a route while running. */
  route(path: string, route: FixtureRoute | FixtureHandler): void;
  close(): Promise<void>;
}

/**
 * Starts a server answering `routes` (keyed by path, query included when the key has one;
 * otherwise the query is ignored). Unknown paths answer 404.
 */
export async function startFixtureServer(
  routes: Record<string, FixtureRoute | FixtureHandler> = {},
): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const route = table.get(path) ?? table.get(path.split('?')[0]!);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    serve(route, req, res);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: (path = '/') => origin + path,
    origin,
    port,
    requests,
    hits: (path) => requests.filter((r) => r.path === path).length,
    route: (path, route) => void table.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function serve(route: FixtureRoute, req: http.IncomingMessage, res: http.ServerResponse): void {
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  let gone = false;
  res.on('close', () => {
    gone = true;
    for (const t of timers) clearTimeout(t);
  });
  req.resume();

  const start = () => {
    if (gone) return;
    const headers: Record<string, string | string[]> = { ...route.headers };
    let status = route.status ?? 200;
    if (route.redirect !== undefined) {
      status = route.status ?? 302;
      headers.location = route.redirect;
    }
    if (route.endless || route.chunks || route.stallBody) {
      res.writeHead(status, headers);
      res.flushHeaders();
      if (route.endless) {
        const { intervalMs = 1 } = route.endless;
        // Repeat the chunk into a block of at least 16 KiB: tiny writes would make the server,
        // not the client under test, the bottleneck.
        const make = route.endless.chunk;
        let n = 0;
        const block = () => {
          const units: Buffer[] = [];
          for (let size = 0; size < 16384; ) {
            const unit = Buffer.from(typeof make === 'function' ? make(n++) : make);
            units.push(unit);
            size += Math.max(unit.length, 1);
          }
          return Buffer.concat(units);
        };
        const fixed = typeof make === 'function' ? null : block();
        const pump = () => {
          if (gone) return;
          // Write while the socket takes it; then wait for drain or the next tick of the interval.
          while (!gone && res.write(fixed ?? block()));
          if (!gone) res.once('drain', () => later(intervalMs, pump));
        };
        pump();
      } else if (route.chunks) {
        const parts = [...route.chunks];
        const next = () => {
          if (gone) return;
          const part = parts.shift();
          if (part === undefined) return void res.end();
          res.write(part);
          later(route.chunkDelayMs ?? 0, next);
        };
        next();
      }
      return;
    }
    const body = route.body ?? '';
    headers['content-length'] ??= String(Buffer.byteLength(body));
    res.writeHead(status, headers).end(body);
  };

  if (route.delayMs) later(route.delayMs, start);
  else start();
}
