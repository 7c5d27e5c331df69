// A webhook receiver on 127.0.0.1 (a free port) for tests and bench:webhooks: records every
// request (headers and raw body, the bytes a signature covers) and answers with what the test
// says, per request, so a test can fail the first attempts, answer late, or redirect.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = { status: number; delayMs?: number; headers?: Record<string, string> };

export interface Receiver {
  url(path?: string): string;
  readonly received: Received[];
  /** Decides each answer (default 200); `n` counts earlier requests with the same webhook-id. */
  answer: (r: Received, n: number) => Answer;
  /** Resolves once `count` requests matched `filter`. */
  waitFor(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const perId = new Map<string, number>();
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      const id = String(req.headers['webhook-id'] ?? '');
      const n = perId.get(id) ?? 0;
      perId.set(id, n + 1);
      waiters.forEach((w) => w());
      const a = receiver.answer(r, n);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status, a.headers ?? {});
        res.end('ok');
      };
      if (a.delayMs) setTimeout(send, a.delayMs).unref();
      else send();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer: () => ({ status: 200 }),
    waitFor(count, filter = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hits = received.filter(filter);
          if (hits.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hits);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: ${received.filter(filter).length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}

/** Polls `fn` every 50 ms until it answers something truthy (which it resolves to), or throws after timeoutMs. */
export async function until<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
