// API vs consumer: for a run that asks the same prompts of an API platform and its consumer
// surface (openai ↔ chatgpt_app and copilot, gemini ↔ google_ai_overview and google_ai_mode), how
// far the two agree. Per pair: the Jaccard overlap of the brands named (target and competitors) and
// of the cited domains, averaged over the prompts both answered; the target's mention rate on each
// side with its Wilson interval; and the prompts where one side names the target and the other
// does not. A consumer result without an AI answer counts as an answer that names nobody: that is
// what the user saw. Pure: rows in, numbers out (read.ts adds it to a run's summary).

import { rate, round4, wilsonInterval } from '../../lib/stats.ts';
import { Layered } from '../../lib/layered.ts';

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

const cloneSide = (s: Side): Side => ({ ...s, brands: new Set(s.brands), domains: new Set(s.domains) });

/** The platforms on either side of a pair: only their probes are compared. */
const PAIRED = new Set(SURFACE_PAIRS.flat());

/**
 * Per platform of a pair and per prompt, that side's succeeded probes pooled (repeats together),
 * as a fold that branches (see SummaryFold): a run's finished prefix is folded once and each read
 * goes on over the other probes on a branch. Prompts keep the order of their first answer, so
 * the comparison lists them as one fold of every probe does.
 */
export class SurfaceFold {
  /** Every platform seen, whatever its probes' status: a pair is compared once both are in the run. */
  private readonly present: Set<string>;
  private readonly sides: Map<string, Layered<string, Side>>;

  constructor(
    private readonly target: string,
    from?: SurfaceFold,
  ) {
    this.present = new Set(from?.present);
    this.sides = new Map(from ? [...from.sides].map(([platform, side]) => [platform, side.branch()]) : []);
  }

  /** A fold that goes on from this one's state; adding to it leaves this one unchanged. */
  branch(): SurfaceFold {
    return new SurfaceFold(this.target, this);
  }

  add(p: ComparisonProbe): void {
    this.present.add(p.platform);
    if (p.status !== 'succeeded' || !PAIRED.has(p.platform)) return;
    let sides = this.sides.get(p.platform);
    if (!sides) this.sides.set(p.platform, (sides = new Layered(undefined, cloneSide)));
    const s = sides.own(p.prompt) ?? { probes: 0, mentions: 0, aiAnswers: 0, brands: new Set<string>(), domains: new Set<string>() };
    s.probes++;
    if (p.ai_answer_present === 1) s.aiAnswers++;
    if (p.brand_mentioned === 1) {
      s.mentions++;
      s.brands.add(this.target);
    }
    for (const c of parseList<string>(p.competitors)) s.brands.add(c);
    for (const c of parseList<{ domain?: string }>(p.citations)) if (c.domain) s.domains.add(c.domain);
    sides.set(p.prompt, s);
  }

  result() {
    const none = new Map<string, Side>();
    const sidesOf = (platform: string) => new Map(this.sides.get(platform)?.entries() ?? none);
    const pairs = [];
    for (const [api, consumer] of SURFACE_PAIRS) {
      if (!this.present.has(api) || !this.present.has(consumer)) continue;
      pairs.push(comparePair(api, consumer, sidesOf(api), sidesOf(consumer)));
    }
    return pairs;
  }
}

function comparePair(api: string, consumer: string, a: ReadonlyMap<string, Side>, c: ReadonlyMap<string, Side>) {
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
  return {
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
  };
}

export function compareSurfaces(probes: readonly ComparisonProbe[], target: string) {
  const fold = new SurfaceFold(target);
  for (const p of probes) fold.add(p);
  return fold.result();
}
