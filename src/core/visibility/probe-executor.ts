// Runs one probe: mark it running, ask the platform, analyze the answer, and record the outcome
// together with its credit movement. Every outcome is a conditional update on the probe's
// status (only a `running` probe can finish), so a probe that runs twice (its worker died, the
// lease expired, another worker took it) still settles exactly once, and a cancelled probe is
// never started.
import type { Citation, PlatformName, ProbeAnswer, ProbeRequest } from '../../platforms/types.ts';
import { PlatformError } from '../../platforms/types.ts';
import { releaseCharge, settleCharge } from '../billing/ledger.ts';
import { nowIso } from '../ids.ts';
import type { Store } from '../store.ts';
import { analyzeAnswer } from './analysis.ts';
import type { Catalog } from './catalog.ts';

/** Asks a platform (with the retry and pacing policy of the composition root). */
export type AskPlatform = (req: ProbeRequest) => Promise<ProbeAnswer>;

const RAW_LIMIT_BYTES = 64 * 1024;

function capRawJson(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw ?? null);
  } catch {
    text = JSON.stringify({ unserializable: true });
  }
  if (Buffer.byteLength(text) <= RAW_LIMIT_BYTES) return text;
  return JSON.stringify({ truncated: true, bytes: Buffer.byteLength(text), head: text.slice(0, RAW_LIMIT_BYTES - 200) });
}

export async function executeProbe(deps: { store: Store; catalog: Catalog; ask: AskPlatform }, probeId: string, signal: AbortSignal): Promise<void> {
  const { store } = deps;
  const startedAt = nowIso();
  const claimed = await store.db
    .updateTable('visibility_probes')
    .set((eb) => ({ status: 'running', started_at: startedAt, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', probeId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return; // cancelled or already finished
  const probe = await store.db
    .selectFrom('visibility_probes')
    .innerJoin('visibility_runs', 'visibility_runs.id', 'visibility_probes.run_id')
    .select([
      'visibility_probes.id',
      'visibility_probes.prompt',
      'visibility_probes.platform',
      'visibility_probes.model',
      'visibility_probes.language',
      'visibility_probes.country',
      'visibility_probes.target_entity',
      'visibility_probes.price',
      'visibility_runs.url',
      'visibility_runs.competitors',
      'visibility_runs.ledger_entry_id',
    ])
    .where('visibility_probes.id', '=', probeId)
    .executeTakeFirstOrThrow();
  const platform = probe.platform as PlatformName;
  const model = deps.catalog.get(platform)?.models.find((m) => m.id === probe.model);
  const competitors = JSON.parse(probe.competitors) as string[];

  let answer: ProbeAnswer | null = null;
  let failure: { code: string; message: string } | null = null;
  try {
    answer = await deps.ask({
      platform,
      modelId: probe.model,
      providerModel: model?.providerModel ?? probe.model,
      prompt: probe.prompt,
      language: probe.language,
      country: probe.country,
      targetEntity: probe.target_entity,
      targetUrl: probe.url,
      competitors,
      signal,
    });
    if (!answer.text.trim() && answer.citations.length === 0) {
      failure = { code: 'provider_empty_answer', message: 'The platform returned neither an answer nor citations.' };
    }
  } catch (err) {
    if (signal.aborted && !(err instanceof PlatformError)) throw err; // worker shutting down: let the lease expire and retry
    failure =
      err instanceof PlatformError
        ? { code: err.code, message: err.message }
        : { code: 'provider_failed', message: 'The platform call failed unexpectedly.' };
  }

  const completedAt = nowIso();
  await store.db.transaction().execute(async (trx) => {
    if (failure || !answer) {
      const res = await trx
        .updateTable('visibility_probes')
        .set({ status: 'errored', error_code: failure!.code, error_message: failure!.message.slice(0, 500), completed_at: completedAt })
        .where('id', '=', probeId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) await releaseCharge(trx, probe.ledger_entry_id, probe.price);
      return;
    }
    const analysis = analyzeAnswer({
      text: answer.text,
      citations: answer.citations,
      targetEntity: probe.target_entity,
      targetUrl: probe.url,
      competitors,
    });
    const citations: Citation[] = answer.citations;
    const res = await trx
      .updateTable('visibility_probes')
      .set({
        status: 'succeeded',
        reported_model: answer.model,
        brand_mentioned: analysis.brand_mentioned ? 1 : 0,
        text_mentioned: analysis.text_mentioned ? 1 : 0,
        citation_mentioned: analysis.citation_mentioned ? 1 : 0,
        mention_position: analysis.mention_position,
        list_rank: analysis.list_rank,
        competitors: JSON.stringify(analysis.competitors),
        citations: JSON.stringify(citations),
        answer: answer.text,
        raw: capRawJson(answer.raw),
        error_code: null,
        error_message: null,
        completed_at: completedAt,
      })
      .where('id', '=', probeId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) await settleCharge(trx, probe.ledger_entry_id, probe.price);
  });
}
