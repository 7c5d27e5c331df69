// Shared plumbing for the service benchmarks: argument parsing, a throwaway SQLite database,
// an account with a key and credits, and CPU pinning. The one thing to know: every database
// lives in a fresh temp dir that is removed on cleanup, so benches never touch ./data.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { createAccount, createKey } from '../../src/core/accounts/accounts.ts';
import { grantCredits } from '../../src/core/billing/ledger.ts';
import type { Store } from '../../src/db/store.ts';
import type { Database } from '../../src/db/schema.ts';

export function parseArgs(argv: string[] = process.argv.slice(2)) {
  const opt = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, def: number): number => {
    const v = opt(name);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got ${v})`);
    return n;
  };
  return { opt, num, flag: (name: string) => argv.includes(name) };
}

export function tempSqliteUrl(label: string): { url: string; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `sightline-bench-${label}-`));
  return { url: `sqlite:${join(dir, 'bench.db')}`, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A database of its own for one bench phase: a temp SQLite file, or a new Postgres database on
 * BENCH_POSTGRES_URL (default the local server) that `drop` removes.
 */
export async function freshBenchDb(kind: 'sqlite' | 'postgres', label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const t = tempSqliteUrl(label);
    return { url: t.url, drop: async () => t.cleanup() };
  }
  const base = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `sightline_bench_${label}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** An account with one full-scope API key and `credits` whole credits. */
export async function seedAccount(store: Store, credits: number): Promise<{ accountId: string; key: string }> {
  const db = store.db as Kysely<Database>;
  const acct = await createAccount(db, `bench_${process.pid}_${Date.now()}@example.com`);
  const k = await createKey(db, acct.id, { name: 'bench' });
  if (credits > 0) await grantCredits(store, acct.id, Math.round(credits * 100));
  return { accountId: acct.id, key: k.api_key };
}

/** Pins a process to a CPU list (e.g. "1") with taskset; returns false where that is not possible. */
export function pinToCpus(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/**
 * Starts the V8 CPU profiler in this process (for profiling only a measured phase, not startup);
 * the returned function stops it and writes a .cpuprofile for Chrome DevTools.
 */
export async function startCpuProfile(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * Shutdown of a bench child server: runs `close` once when stdin closes (the parent is done or
 * died) or on SIGTERM, then exits.
 */
export function exitWhenParentLeaves(close: () => Promise<void>): void {
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await close();
    process.exit(0);
  };
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.stdin.resume();
  process.on('SIGTERM', shutdown);
}
