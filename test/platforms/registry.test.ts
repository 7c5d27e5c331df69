// The driver registry and settings: sandbox engine → sandbox drivers everywhere; live engine →
// one live driver per platform, available only with its API key, pointed at its base URL;
// pacing settings from SIGHTLINE_* variables with their defaults.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDrivers, platformSettingsFromEnv } from '../../src/platforms/registry.ts';
import { API_PLATFORMS, PLATFORMS } from '../../src/platforms/types.ts';
import { probeRequest, startFakeProviders } from '../fakes/providers/index.ts';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

test('sandbox engine: sandbox drivers for every platform, whatever the env says', () => {
  const drivers = createDrivers({ engine: 'sandbox', env: { OPENAI_API_KEY: 'sk-something-long' }, sandboxLatencyMs: 0 });
  for (const p of PLATFORMS) {
    assert.equal(drivers[p].platform, p);
    assert.equal(drivers[p].engine, 'sandbox');
    assert.equal(drivers[p].available(), true);
  }
});

test('live engine: available exactly where an API key is set (blank counts as unset)', () => {
  const drivers = createDrivers({
    engine: 'live',
    env: { OPENAI_API_KEY: 'sk-live-1234567890', XAI_API_KEY: '  ', ANTHROPIC_API_KEY: 'sk-ant-1234567890', GEMINI_API_KEY: undefined },
  });
  const available = PLATFORMS.filter((p) => drivers[p].available());
  // No SerpApi or DataForSEO credentials: no consumer surface is available.
  assert.deepEqual(available, ['openai', 'claude']);
  for (const p of PLATFORMS) assert.equal(drivers[p].engine, 'live');
});

const fakes = await startFakeProviders(API_PLATFORMS);
after(() => fakes.close());

test('live engine: every driver reaches its own base URL with its own key', async () => {
  const drivers = createDrivers({ engine: 'live', env: fakes.env });
  for (const p of API_PLATFORMS) {
    const answer = await drivers[p].ask(probeRequest(p));
    assert.equal(answer.engine, 'live', p);
    assert.equal(fakes.fakes[p]!.requests.length, 1, p);
  }
});

test('platformSettingsFromEnv: defaults', () => {
  const s = platformSettingsFromEnv({});
  for (const p of PLATFORMS) {
    assert.deepEqual(s[p], { concurrency: 4, requestsPerMinute: 0, timeoutMs: 120_000, maxAttempts: 4 });
  }
});

test('platformSettingsFromEnv: per-platform concurrency and RPM, global timeout and attempts', () => {
  const s = platformSettingsFromEnv({
    SIGHTLINE_OPENAI_CONCURRENCY: '10',
    SIGHTLINE_GROK_RPM: '30',
    SIGHTLINE_CLAUDE_CONCURRENCY: '1',
    SIGHTLINE_PROBE_TIMEOUT_MS: '45000',
    SIGHTLINE_PROBE_MAX_ATTEMPTS: '2',
  });
  assert.deepEqual(s.openai, { concurrency: 10, requestsPerMinute: 0, timeoutMs: 45_000, maxAttempts: 2 });
  assert.deepEqual(s.grok, { concurrency: 4, requestsPerMinute: 30, timeoutMs: 45_000, maxAttempts: 2 });
  assert.equal(s.claude.concurrency, 1);
  assert.equal(s.deepseek.requestsPerMinute, 0);
});

test('platformSettingsFromEnv: invalid values fail loudly', () => {
  assert.throws(() => platformSettingsFromEnv({ SIGHTLINE_OPENAI_CONCURRENCY: '0' }), /SIGHTLINE_OPENAI_CONCURRENCY/);
  assert.throws(() => platformSettingsFromEnv({ SIGHTLINE_GEMINI_RPM: 'fast' }), /SIGHTLINE_GEMINI_RPM/);
  assert.throws(() => platformSettingsFromEnv({ SIGHTLINE_PROBE_MAX_ATTEMPTS: '-1' }), /SIGHTLINE_PROBE_MAX_ATTEMPTS/);
});
