// Where a bench's database time goes, for bench:runs: every SQLite statement the service runs
// (better-sqlite3's run/all/get/iterate on the service's connection, Kysely's and the direct
// paths alike, BEGIN and COMMIT included) is counted and timed by its kind (its first words and
// table: "update jobs", "commit"…), and the process's threads are told apart (the event loop
// against V8's and SQLite's background threads: scavenges, compilation, WAL checkpoints).
// The one thing to know: a statement is synchronous native work on the event loop, so timing
// it with the monotonic clock around the call counts nothing of another probe's (as the analysis
// steps, see src/core/visibility/analysis/step-times.ts); the wrapping costs two clock reads a
// statement (well under a microsecond) and is installed only by the bench.
import { readdirSync, readFileSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';

export interface StatementTimes {
  /** Statements run and their milliseconds, by kind, since the last reset. */
  byKind: Map<string, { n: number; ms: number }>;
  reset(): void;
}

/** The kind of a statement: its verb and table ("select visibility_probes", "update jobs", "begin"). */
export function statementKind(source: string): string {
  const text = source.replace(/\s+/g, ' ').trim().toLowerCase();
  // BENCH_SQL_TEXT=1: the statement's text itself (its first 160 characters), to tell apart statements of one kind.
  if (process.env.BENCH_SQL_TEXT) return text.slice(0, 160);
  const verb = /^(\w+)/.exec(text)?.[1] ?? '?';
  if (verb === 'begin' || verb === 'commit' || verb === 'rollback' || verb === 'savepoint' || verb === 'release' || verb === 'pragma') return verb;
  if (verb === 'with') return 'with ' + (/ from "?(\w+)/.exec(text)?.[1] ?? '?');
  const table = verb === 'insert' ? /^insert into "?(\w+)/.exec(text)?.[1] : verb === 'update' ? /^update "?(\w+)/.exec(text)?.[1] : / from "?(\w+)/.exec(text)?.[1];
  return `${verb} ${table ?? '?'}`;
}

/**
 * Wraps the statements the connection prepares from now on (its prepare() is already the
 * statement cache of src/db/connection.ts, so each cached statement is wrapped once).
 */
export function timeStatements(sqlite: BetterSqlite3.Database): StatementTimes {
  const byKind = new Map<string, { n: number; ms: number }>();
  const wrapped = new WeakSet<object>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const stmt = prepare(source);
    if (wrapped.has(stmt)) return stmt;
    wrapped.add(stmt);
    const kind = statementKind(source);
    for (const method of ['run', 'all', 'get', 'iterate'] as const) {
      const original = (stmt[method] as (...args: unknown[]) => unknown).bind(stmt);
      (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return original(...args);
        } finally {
          const slot = byKind.get(kind) ?? { n: 0, ms: 0 };
          slot.n++;
          slot.ms += performance.now() - t0;
          byKind.set(kind, slot);
        }
      };
    }
    return stmt;
  }) as typeof sqlite.prepare;
  return { byKind, reset: () => byKind.clear() };
}

/** CPU time of each of this process's threads so far, ms, by thread id (Linux; empty elsewhere). */
export function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        out.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // Not Linux.
  }
  return out;
}

/** The event loop's (main thread's) CPU and the other threads' between two threadCpu() readings, ms. */
export function threadSplit(before: Map<string, number>, after: Map<string, number>): { main: number; others: number } | undefined {
  if (after.size === 0) return undefined;
  const main = String(process.pid);
  let others = 0;
  for (const [tid, ms] of after) if (tid !== main) others += ms - (before.get(tid) ?? 0);
  return { main: (after.get(main) ?? 0) - (before.get(main) ?? 0), others };
}
