// GET /metrics on a port of its own (SIGHTLINE_METRICS_PORT), for worker processes (which have
// no HTTP server) or to keep metrics off the public API port. Binds to SIGHTLINE_METRICS_HOST
// (127.0.0.1 by default): put it on a private network, it has no authentication.
import http from 'node:http';
import { getMetrics } from './metrics.ts';

export async function startMetricsServer(port: number, host: string): Promise<http.Server> {
  const metrics = getMetrics();
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
