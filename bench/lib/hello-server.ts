// Child process for bench:api: the baseline, a bare Fastify hello-world (same Fastify as the
// service, logger off, no plugins). The one thing to know: same startup protocol as
// api-server.ts (one JSON line {"port"} on stdout, exits when stdin closes).
// With BENCH_HELLO_SHAPE=usage (bench:api --breakdown) it answers what GET /v1/usage answers
// instead: a usage body of the same size and the same four extra headers, and nothing else of
// the service (no auth, limiter, database or activity row): the cost of the answer's bytes.
import Fastify from 'fastify';

const usageShaped = process.env.BENCH_HELLO_SHAPE === 'usage';
const usageBody = {
  credits: { available_credit_units: '1000.00', reserved_credit_units: '0.00', used_credit_units: '0.00', granted_credit_units: '1000.00', active_grant_count: 1 },
  recent: [
    {
      id: 'led_01m80tjcay2k62t0kvxe97vg21', time: '2026-11-22T05:09:55Z', updated_at: '2026-11-22T05:09:55Z', source: 'cli', action: 'credits.grant',
      kind: 'grant', credits: '1000.00', status: 'granted', reserved_credits: '0.00', settled_credits: '0.00', released_credits: '0.00',
    },
  ],
};

const app = Fastify({ logger: false });
app.get('/', async (_request, reply) => {
  if (!usageShaped) return { hello: 'world' };
  reply.header('x-request-id', 'req_01m80tjdffx4p3nf3185vq486b');
  reply.header('RateLimit-Limit', 100000000);
  reply.header('RateLimit-Remaining', 99999999);
  reply.header('RateLimit-Reset', 60);
  return usageBody;
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(JSON.stringify({ port, pid: process.pid }) + '\n');

const shutdown = () => void app.close().then(() => process.exit(0));
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();
process.on('SIGTERM', shutdown);
