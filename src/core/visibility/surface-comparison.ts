// API vs consumer: for a run that asks the same prompts of an API platform and its consumer
// surface (openai ↔ chatgpt_app and copilot, gemini ↔ google_ai_overview and google_ai_mode), how
// far the two agree. Per pair: the Jaccard overlap of the brands named (target and competitors) and
// of the cited domains, averaged over the prompts both answered; the target's mention rate on each
// side with its Wilson interval; and the prompts where one side names the target and the other
// does not. A consumer result without an AI answer counts as an answer that names nobody: that is
// what the user saw. Pure: rows in, numbers out (read.ts adds it to a run's summary).

import { rate, round4, wilsonInterval } from '../../lib/stats.ts';

/** API platform → its consumer surfaces, in the order the comparison lists them. */
export const SURFACE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['openai', 'chatgpt_app'],
  ['openai', 'copilot'],
  ['gemini', 'google_ai_overview'],
  ['gemini', 'google_ai_mode'],
];

/** What the comparison reads of a probe (rows as stored: 0/1 flags, JSON text lists). */
export interface ComparisonProbe {
  prompt: string;
  platform: string;
  status: string;
  brand_mentioned: number | null;
  competitors: string | null;
  citations: string | null;
  ai_answer_present?: number | null;
}

interface Side {
  probes: number;
  mentions: number;
  aiAnswers: number;
  brands: Set<string>;
  domains: Set<string>;
}

/** |A ∩ B| / |A ∪ B|; null when both are empty (nothing to agree or disagree on). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number | null {
  if (a.size === 0 && b.size === 0) return null;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

const mean = (xs: number[]) => (xs.length ? round4(xs.reduce((s, x) => s + x, 0) / xs.length) : null);

function parseList<T>(json: string | null): T[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

/** Per prompt, one side's succeeded probes pooled (repeats together). */
function sidesByPrompt(probes: readonly ComparisonProbe[], platform: string, target: string): Map<string, Side> {
  const out = new Map<string, Side>();
  for (const p of probes) {
    if (p.platform !== platform || p.status !== 'succeeded') continue;
    let s = out.get(p.prompt);
    if (!s) out.set(p.prompt, (s = { probes: 0, mentions: 0, aiAnswers: 0, brands: new Set(), domains: new Set() }));
    s.probes++;
    if (p.ai_answer_present === 1) s.aiAnswers++;
    if (p.brand_mentioned === 1) {
      s.mentions++;
      s.brands.add(target);
    }
    for (const c of parseList<string>(p.competitors)) s.brands.add(c);
    for (const c of parseList<{ domain?: string }>(p.citations)) if (c.domain) s.domains.add(c.domain);
  }
  return out;
}

export function compareSurfaces(probes: readonly ComparisonProbe[], target: string) {
  const present = new Set(probes.map((p) => p.platform));
  const pairs = [];
  for (const [api, consumer] of SURFACE_PAIRS) {
    if (!present.has(api) || !present.has(consumer)) continue;
    const a = sidesByPrompt(probes, api, target);
    const c = sidesByPrompt(probes, consumer, target);
    const prompts = [...a.keys()].filter((p) => c.has(p));
    const brandOverlap: number[] = [];
    const domainOverlap: number[] = [];
    const disagreements = [];
    const totals = { api: { probes: 0, mentions: 0 }, consumer: { probes: 0, mentions: 0, aiAnswers: 0 } };
    for (const prompt of prompts) {
      const sa = a.get(prompt)!;
      const sc = c.get(prompt)!;
      const bj = jaccard(sa.brands, sc.brands);
      if (bj !== null) brandOverlap.push(bj);
      const dj = jaccard(sa.domains, sc.domains);
      if (dj !== null) domainOverlap.push(dj);
      totals.api.probes += sa.probes;
      totals.api.mentions += sa.mentions;
      totals.consumer.probes += sc.probes;
      totals.consumer.mentions += sc.mentions;
      totals.consumer.aiAnswers += sc.aiAnswers;
      if (sa.mentions > 0 !== sc.mentions > 0) {
        disagreements.push({
          prompt,
          api_mentioned: sa.mentions > 0,
          consumer_mentioned: sc.mentions > 0,
          consumer_ai_answer_present: sc.aiAnswers > 0,
          brands_only_api: [...sa.brands].filter((b) => !sc.brands.has(b)),
          brands_only_consumer: [...sc.brands].filter((b) => !sa.brands.has(b)),
        });
      }
    }
    pairs.push({
      api_platform: api,
      consumer_platform: consumer,
      prompts_compared: prompts.length,
      brand_jaccard: mean(brandOverlap),
      cited_domain_jaccard: mean(domainOverlap),
      api: {
        probes: totals.api.probes,
        mention_rate: rate(totals.api.mentions, totals.api.probes),
        mention_rate_ci: wilsonInterval(totals.api.mentions, totals.api.probes),
      },
      consumer: {
        probes: totals.consumer.probes,
        mention_rate: rate(totals.consumer.mentions, totals.consumer.probes),
        mention_rate_ci: wilsonInterval(totals.consumer.mentions, totals.consumer.probes),
        ai_answer_rate: rate(totals.consumer.aiAnswers, totals.consumer.probes),
      },
      disagreements,
    });
  }
  return pairs;
}

/** Adds `surface_comparison` to a run summary when the run asked an API platform and its consumer surface. */
export function addSurfaceComparison(summary: Record<string, unknown>, probes: readonly ComparisonProbe[], target: string): void {
  const pairs = compareSurfaces(probes, target);
  if (pairs.length) summary.surface_comparison = pairs;
}
