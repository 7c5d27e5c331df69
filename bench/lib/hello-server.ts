// Child process for bench:api: the baseline, a bare Fastify hello-world (same Fastify as the
// service, logger off, no plugins). The one thing to know: same startup protocol as
// api-server.ts (one JSON line {"port"} on stdout, exits when stdin closes).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(JSON.stringify({ port, pid: process.pid }) + '\n');

const shutdown = () => void app.close().then(() => process.exit(0));
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();
process.on('SIGTERM', shutdown);
