// A run's probe rows for its summaries, read again and again while clients poll a run: the rows
// of finished probes are kept in this process between reads, so a read fetches only the probes
// from the first unfinished one on, and a finished run costs no query at all.
// The one thing to know: this is exact because a probe that reached a final status (succeeded,
// errored, cancelled, skipped) is never written again (every update of a probe is conditional on
// it being queued or running) and a run's probes are all created with it; rows are only kept from
// reads outside a transaction, which see committed rows only. Kept rows are shared between reads
// (the summaries' own caches key on them): callers must not change them.
// Queued probes' rows are kept too, and reused while their attempts and started_at are unchanged:
// every write of an unfinished probe changes its status, attempts or started_at (or only columns
// not read here, such as its checkpoint), so an unchanged queued row is the same row. A read then
// fetches whole rows only for probes that are running or finished since, and three columns of the
// queued ones.
import { sql } from 'kysely';
import type { Executor } from '../../db/store.ts';
import { keptRowBytes, readCacheBytes } from './read-cache.ts';

const FINAL = new Set(['succeeded', 'errored', 'cancelled', 'skipped']);

/** The probe columns every summary and the probe list read (never the answer or raw text). */
export const RUN_PROBE_COLUMNS = [
  'id',
  'seq',
  'prompt',
  'platform',
  'model',
  'engine',
  'language',
  'country',
  'target_entity',
  'status',
  'price',
  'reported_model',
  'brand_mentioned',
  'text_mentioned',
  'citation_mentioned',
  'mention_position',
  'list_rank',
  'competitors',
  'citations',
  'error_code',
  'error_message',
  'attempts',
  'started_at',
  'completed_at',
  'repeat',
  'analysis',
  'surface',
  'provider',
  'ai_answer_present',
  'city',
] as const;

type Row = Record<string, unknown>;

interface KeptRun {
  /** Every probe's seq, ascending (a run's probes are all created with it). */
  seqs: number[];
  /** Finished probes' rows by seq. */
  final: Map<number, Row>;
  /** Rows of the probes that were queued at the last read, by seq. */
  queued: Map<number, Row>;
  /** seqs[0 .. below - 1] are all finished and kept. */
  below: number;
  /** Estimated heap of the kept rows (keptRowBytes): the finished ones, and all. */
  finalBytes: number;
  bytes: number;
}

/**
 * Kept runs per database (a process may hold several, as tests do), least recently read first,
 * with the estimated heap of their rows: runs are dropped past the read cache's budget
 * (read-cache.ts), the run just read too when it alone exceeds it.
 */
const keptBy = new WeakMap<object, { runs: Map<string, KeptRun>; bytes: number }>();

/** The runs and estimated bytes kept for a database (tests). */
export function keptRunStats(db: Executor): { runs: string[]; bytes: number } {
  const cache = keptBy.get(db);
  return { runs: [...(cache?.runs.keys() ?? [])], bytes: cache?.bytes ?? 0 };
}


/** Whether readRunProbes keeps this run's rows now (a run alone past the budget is not kept). */
export function isKeptRun(db: Executor, runId: string): boolean {
  return keptBy.get(db)?.runs.has(runId) ?? false;
}

const columnList = sql.join(RUN_PROBE_COLUMNS.map((c) => sql.ref(c)));

const readAll = async (db: Executor, runId: string) =>
  (await sql<Row>`select ${columnList} from visibility_probes where run_id = ${runId} order by seq`.execute(db)).rows;

/**
 * The run's probe rows in seq order (RUN_PROBE_COLUMNS). Inside a transaction they are read
 * whole; otherwise from the first probe not kept on (the rows before it are all kept), none once
 * every probe has finished.
 */
export async function readRunProbes<R>(db: Executor, runId: string): Promise<R[]> {
  if (db.isTransaction) return (await readAll(db, runId)) as R[];
  let cache = keptBy.get(db);
  if (!cache) keptBy.set(db, (cache = { runs: new Map(), bytes: 0 }));
  const run = cache.runs.get(runId);
  let fresh: Row[];
  if (!run) {
    fresh = await readAll(db, runId);
    if (fresh.length === 0) return [];
  } else if (run.below >= run.seqs.length) {
    fresh = [];
  } else {
    fresh = await rowsPast(db, runId, run);
  }
  const entry: KeptRun = run ?? { seqs: fresh.map((r) => Number(r.seq)), final: new Map(), queued: new Map(), below: 0, finalBytes: 0, bytes: 0 };
  const open = new Map<number, Row>();
  // What the cache holds for this run now, not before the await: another read may have dropped it
  // (eviction) or put a fresh entry in its place meanwhile; either way the count stays exact.
  const live = cache.runs.get(runId);
  if (live) cache.bytes -= live.bytes;
  for (const row of fresh) {
    const seq = Number(row.seq);
    if (entry.final.has(seq)) continue;
    if (FINAL.has(row.status as string)) {
      entry.final.set(seq, row);
      entry.finalBytes += keptRowBytes(row);
    } else open.set(seq, row);
  }
  entry.queued.clear();
  entry.bytes = entry.finalBytes;
  for (const [seq, row] of open) {
    if (row.status !== 'queued') continue;
    entry.queued.set(seq, row);
    entry.bytes += keptRowBytes(row);
  }
  while (entry.below < entry.seqs.length && entry.final.has(entry.seqs[entry.below]!)) entry.below++;
  cache.bytes += entry.bytes;
  cache.runs.delete(runId);
  cache.runs.set(runId, entry);
  while (cache.bytes > readCacheBytes() && cache.runs.size > 0) {
    const [oldest, old] = cache.runs.entries().next().value!;
    cache.runs.delete(oldest);
    cache.bytes -= old.bytes;
  }
  const out: Row[] = [];
  for (const seq of entry.seqs) {
    const row = entry.final.get(seq) ?? open.get(seq);
    if (row) out.push(row);
  }
  return out as R[];
}

/**
 * The rows of the probes from the first one not kept on, in statements of fixed text (their
 * prepared statements are reused): the queued ones' seq, attempts and started_at first (a kept
 * queued row with the same values is reused), then whole rows of the others. A probe that is in
 * neither answer (put back in the queue between the two) or a queued one not kept is read again
 * with the whole range, as before.
 */
async function rowsPast(db: Executor, runId: string, run: KeptRun): Promise<Row[]> {
  const from = run.seqs[run.below]!;
  const { rows: queued } = await sql<{ seq: number; attempts: number; started_at: string | null }>`
    select seq, attempts, started_at from visibility_probes where run_id = ${runId} and seq >= ${from} and status = 'queued' order by seq`.execute(db);
  const { rows: others } = await sql<Row>`
    select ${columnList} from visibility_probes where run_id = ${runId} and seq >= ${from} and status <> 'queued' order by seq`.execute(db);
  const bySeq = new Map<number, Row>();
  let whole = true;
  for (const q of queued) {
    const kept = run.queued.get(Number(q.seq));
    if (kept && kept.attempts === q.attempts && kept.started_at === q.started_at) bySeq.set(Number(q.seq), kept);
    else whole = false;
  }
  for (const row of others) bySeq.set(Number(row.seq), row);
  for (let i = run.below; whole && i < run.seqs.length; i++) {
    const seq = run.seqs[i]!;
    if (!bySeq.has(seq) && !run.final.has(seq)) whole = false;
  }
  if (whole) return [...bySeq.values()];
  return (await sql<Row>`select ${columnList} from visibility_probes where run_id = ${runId} and seq >= ${from} order by seq`.execute(db)).rows;
}
