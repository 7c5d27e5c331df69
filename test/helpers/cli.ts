// Runs the `sightline` bin as a user would, in a child process: its stdout, stderr and exit code,
// with --json output parsed; `input` is piped to stdin (login reads a key from a pipe).
import { spawn } from 'node:child_process';
import { after, before } from 'node:test';
import type { TestServer } from './harness.ts';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));

export interface CliResult {
  code: number;
  out: string;
  err: string;
  /** stdout parsed, when the command line has --json. */
  json: any;
}

/** Environment variables of this process that would reach into the user's own CLI configuration. */
const USER_CONFIG = ['SIGHTLINE_API_URL', 'SIGHTLINE_API_KEY', 'SIGHTLINE_PROFILE', 'SIGHTLINE_CONFIG', 'NO_COLOR'];

export function runCli(args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...Object.fromEntries(USER_CONFIG.map((k) => [k, undefined])), ...opts.env })) if (v !== undefined) env[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err, json: args.includes('--json') && out.trim() ? JSON.parse(out) : undefined }));
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * A test server listening on a loopback port for the CLI to reach: started before the suite's
 * tests (after the hooks registered earlier, so `env` may read a fixture site's port), closed after.
 */
export function serverForCli(env: () => Record<string, string> = () => ({})): { s: TestServer; base: string } {
  const ctx = {} as { s: TestServer; base: string };
  before(async () => {
    // Imported here: a suite that only runs the bin (runCli) does not load the server's engine.
    const { startTestServer } = await import('./harness.ts');
    ctx.s = await startTestServer(env());
    ctx.base = await ctx.s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => ctx.s.close());
  return ctx;
}
