// Which runs a tracked test's history may compare: a run's definition, reduced to an id. Two runs
// measure the same thing when they asked the same prompts on the same platforms and models, as
// many times each, in the same language and country, for the same target, against the same
// competitors. The id is derived from what a run actually planned (its probe rows, skipped ones
// included, since partial funding does not change what was asked for), so runs made before this
// existed, through any surface, get one too. Order does not matter: the same prompts asked in
// another order measure the same thing.
import { createHash } from 'node:crypto';
import type { PlatformName } from '../../platforms/types.ts';
import { foldName } from '../../text/entity-matcher.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { planRun, type BrandTerms, type CreateRunInput } from '../visibility/plan.ts';
import { storedBrandTerms } from '../visibility/citation-sources.ts';
import type { PromptProbe } from '../visibility/by-prompt.ts';
import { toApiTime } from '../../lib/ids.ts';
import { compareProportions } from '../../lib/stats.ts';

/** What a definition id reads of a planned or stored probe. */
export interface DefinitionProbe {
  prompt: string;
  platform: string;
  model: string;
  language: string;
  country: string;
  target_entity: string;
}

/** The id of a run definition: `def_` and 16 hex digits of a sha256 over its canonical form. */
export function definitionId(probes: readonly DefinitionProbe[], competitors: readonly string[], terms: BrandTerms | null = null): string {
  const asks = new Map<string, number>();
  for (const p of probes) {
    const key = JSON.stringify([p.prompt.trim(), p.platform, p.model, p.language, p.country.toUpperCase(), foldName(p.target_entity)]);
    asks.set(key, (asks.get(key) ?? 0) + 1);
  }
  const canonical = JSON.stringify({
    asks: [...asks].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    competitors: [...new Set(competitors.map(foldName))].sort(),
    // Aliases and domains change what counts as a mention, so they are part of the definition;
    // runs given none keep the ids they had before brand terms existed.
    ...(terms ? { terms: canonicalTerms(terms) } : {}),
  });
  return `def_${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}

const sortedFold = (xs: readonly string[]) => [...new Set(xs.map(foldName))].sort();

/**
 * The part of a run's brand terms that decides whether the target is named or cited (its aliases
 * and domains), canonical: '' for a run given none. Competitors' terms move only their own rates.
 */
export function targetTermsKey(t: BrandTerms | null): string {
  if (!t || (t.target_aliases.length === 0 && t.target_domains.length === 0)) return '';
  return JSON.stringify([sortedFold(t.target_aliases), [...new Set(t.target_domains)].sort()]);
}

function canonicalTerms(t: BrandTerms) {
  return {
    target_aliases: sortedFold(t.target_aliases),
    target_domains: [...new Set(t.target_domains)].sort(),
    competitors: t.competitors
      .map((c) => [foldName(c.name), sortedFold(c.aliases), [...new Set(c.domains)].sort()] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  };
}

/**
 * The definition id a test's stored definition plans to, or null when it has none (a test made
 * implicitly by a run) or it no longer plans (a model left the catalog). Availability is not
 * asked: a platform down today does not change what the definition means.
 */
export function plannedDefinitionId(definitionJson: string | null, catalog: Catalog): string | null {
  if (!definitionJson) return null;
  try {
    const plan = planRun(JSON.parse(definitionJson) as CreateRunInput, catalog, (_p: PlatformName) => true);
    return definitionId(
      plan.probes.map((p) => ({ prompt: p.prompt, platform: p.platform, model: p.modelId, language: p.language, country: p.country, target_entity: p.targetEntity })),
      plan.competitors,
      plan.brandTerms,
    );
  } catch {
    return null;
  }
}

/** A probe as the history reads it: what the summary, the per-prompt entries and the definition id need. */
export type HistoryProbe = DefinitionProbe & PromptProbe & { run_id: string; seq: number; analysis: string | null };

interface HistoryRun {
  id: string;
  created_at: string;
  source: string;
  started_by_test: number;
  competitors: string;
  brand_terms?: string | null;
}

/**
 * Splits a test's runs into the comparable ones (started by the test, or with the test's
 * definition) and the others, listed apart. A test without a definition (made implicitly by a
 * run) has nothing to compare against: every run counts, and comparisons still only pair runs of
 * one definition.
 */
export function splitComparable<R extends HistoryRun>(runs: readonly R[], probesOf: Map<string, readonly DefinitionProbe[]>, testDefinition: string | null) {
  const definitionOf = new Map<string, string>();
  const comparable: R[] = [];
  const others: { run_id: string; created_at: string | null; source: string; definition_id: string }[] = [];
  for (const r of runs) {
    const id = definitionId(probesOf.get(r.id) ?? [], JSON.parse(r.competitors) as string[], storedBrandTerms(r.brand_terms));
    definitionOf.set(r.id, id);
    if (testDefinition === null || Number(r.started_by_test) === 1 || id === testDefinition) comparable.push(r);
    else others.push({ run_id: r.id, created_at: toApiTime(r.created_at), source: r.source, definition_id: id });
  }
  return { comparable, others, definitionOf, testDefinition };
}

interface ComparablePoint {
  start: string | null;
  end: string | null;
  definition_id: string | null;
  complete: boolean;
  brand_mentions: number;
  succeeded: number;
  mention_rate: number | null;
  mention_rate_ci: unknown;
}

/** The two points a comparison sets against each other: the latest finished one and the most recent earlier finished one of its definition. */
export function comparedPoints<P extends Pick<ComparablePoint, 'complete' | 'definition_id'>>(points: readonly P[]): { previous?: P; latest?: P } {
  const done = points.filter((p) => p.complete && p.definition_id !== null);
  const latest = done.at(-1);
  return { latest, previous: latest && done.slice(0, -1).findLast((p) => p.definition_id === latest.definition_id) };
}

/**
 * The latest finished point against the most recent earlier finished point of the same
 * definition (a point pooling several definitions is never compared), with the two-proportion
 * z-test of stats.ts; null when there is no such pair.
 */
export function latestComparison(points: readonly ComparablePoint[]) {
  const { previous, latest } = comparedPoints(points);
  if (!latest || !previous) return null;
  const test = compareProportions(previous.brand_mentions, previous.succeeded, latest.brand_mentions, latest.succeeded);
  const side = (p: ComparablePoint) => ({ start: p.start, end: p.end, mention_rate: p.mention_rate, mention_rate_ci: p.mention_rate_ci, succeeded: p.succeeded });
  return {
    previous: side(previous),
    latest: side(latest),
    definition_id: latest.definition_id,
    change: test?.change ?? null,
    change_significant: test?.change_significant ?? null,
    test: 'two_proportion_z',
    z: test?.z ?? null,
    p_value: test?.p_value ?? null,
  };
}
