// The OpenAPI document exactly as a running server serves it at /openapi.json, built on an
// in-memory SQLite database with nothing listening.
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/server/runtime.ts';
import { buildApp } from '../src/server/app.ts';
import { createKeyRateLimiter } from '../src/web/rate-limit.ts';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const runtime = await openRuntime(loadConfig({ DATABASE_URL: 'sqlite::memory:', SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }));
  try {
    const app = await buildApp({ core: runtime.core, rateLimiter: await createKeyRateLimiter({ perMinute: 600, handle: runtime.handle }) });
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    await app.close();
    return res.json();
  } finally {
    await runtime.close();
  }
}
