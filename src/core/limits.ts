// The documented maximum length of every free-text input, in characters (docs/api.md, "Input limits").
// The HTTP schemas (and through them the MCP tools) enforce them with a 422, so no input can cost
// CPU, storage or an index entry out of proportion: a name is matched against every answer and
// copied into every probe row, and Postgres refuses an index entry over about 2.7 KB.
import { AppError } from './errors.ts';

export const INPUT_LIMITS = {
  /** target_entity, brand_name, competitor names, industry, trend names. */
  name: 200,
  /** Every URL (a page to fetch, a run's target, a report lookup). */
  url: 2048,
  /** One prompt of a visibility run. */
  prompt: 500,
  /** A model id or role keyword. */
  model: 200,
  /** BCP 47 language tag. */
  language: 35,
  /** Country or market code. */
  country: 8,
  /** idempotency_key. */
  idempotencyKey: 160,
  /** An object id in a path, or a list cursor (starting_after). */
  id: 64,
  /** extraction_mode and other short keywords checked by the core. */
  keyword: 32,
} as const;

/**
 * The longest platform answer a probe keeps and analyses, in characters (docs/operating.md, "Job
 * claiming"); a longer one is cut here. Real answers are far shorter (a few thousand characters; a
 * model's output limit of 8–16k tokens is about 32–64k), and the answer analysis is linear in its
 * length, so no answer can hold a worker's event loop for long (about 0.2 s at this length,
 * measured under load), and the watchdog and the lease heartbeat keep their time.
 */
export const ANSWER_MAX_CHARS = 100_000;

/**
 * Throws 409 `limit_reached` when `count` already fills `limit`: the one check behind every cap on
 * what an account or a project may hold (keys, webhook endpoints, projects, sites, share links).
 * The caller counts under the holder's lock, so two creates at once cannot both see room.
 */
export function checkCap(count: number | string | bigint, limit: number, what: { holder: 'account' | 'project'; things: string; allows: string; advice: string }): void {
  const n = Number(count);
  if (n >= limit) throw new AppError('limit_reached', `This ${what.holder} has ${n} ${what.things}, the most ${what.allows} (${limit}); ${what.advice}`, { limit });
}
