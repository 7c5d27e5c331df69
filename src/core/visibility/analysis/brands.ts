// The per-probe answer analysis stored with a succeeded probe (column visibility_probes.analysis,
// JSON) and shown as the probe's `brands`, `judge` and `judge_error` (docs/concepts.md, "Answer
// analysis"): for the target and each competitor, whether and where it is named, its list rank,
// prominence, and the judge's sentiment and recommendation; plus the other names the answer
// holds (summed into the run's discovered_entities).
// The one thing to know: everything but sentiment and recommended is computed here from the text,
// deterministically; those two come only from a judge (judge.ts), else they are null.
import type { AnswerAnalysis, MentionEvidence } from '../analysis.ts';
import type { Judge, JudgeInfo, Sentiment } from '../judge.ts';
import { findNamedEntities, withoutListed } from './entities.ts';
import { firstMentionShare, pawc, sentenceWeights } from './prominence.ts';
import { addStepTime, stepClock } from './step-times.ts';

export interface BrandEntry {
  name: string;
  role: 'target' | 'competitor';
  mentioned: boolean;
  mention_position: number | null;
  list_rank: number | null;
  first_mention_share: number | null;
  pawc: number;
  sentiment: Sentiment | null;
  recommended: boolean | null;
  /** Which rule decided `mentioned`, and the text it read (null when nothing resembled the name). */
  evidence?: MentionEvidence | null;
}

export interface ProbeAnalysis {
  brands: BrandEntry[];
  judge: JudgeInfo | null;
  judge_error: { code: string; message: string } | null;
  /** Other brands, products and organisations the answer names. */
  entities: string[];
}

export interface ProbeAnalysisInput {
  prompt: string;
  text: string;
  language: string;
  target: string;
  competitors: string[];
  analysis: AnswerAnalysis;
  judge: Judge | null;
  signal: AbortSignal;
}

/** The deterministic part: one entry for the target and one per competitor (as given, deduplicated). */
export function brandEntries(text: string, target: string, competitors: string[], a: AnswerAnalysis): BrandEntry[] {
  const sentences = sentenceWeights(text);
  const entries: BrandEntry[] = [
    {
      name: target,
      role: 'target',
      mentioned: a.brand_mentioned,
      mention_position: a.mention_position,
      list_rank: a.list_rank,
      first_mention_share: firstMentionShare(a.mention_position, text.length),
      pawc: pawc(sentences, a.target_spans),
      sentiment: null,
      recommended: null,
      evidence: a.target_evidence ?? null,
    },
  ];
  const seen = new Set<string>();
  for (const name of competitors) {
    if (seen.has(name)) continue;
    seen.add(name);
    const spans = a.competitor_spans[name] ?? [];
    const position = spans[0]?.start ?? null;
    entries.push({
      name,
      role: 'competitor',
      mentioned: spans.length > 0,
      mention_position: position,
      list_rank: a.competitor_list_ranks[name] ?? null,
      first_mention_share: firstMentionShare(position, text.length),
      pawc: pawc(sentences, spans),
      sentiment: null,
      recommended: null,
      evidence: a.competitor_evidence?.[name] ?? null,
    });
  }
  return entries;
}

/**
 * The whole probe analysis: the deterministic entries, then the judge (when there is one and the
 * answer names at least one of the brands). A brand the answer does not name is not recommended
 * by it (false) and has no sentiment (null); a failed judge leaves both null for every brand.
 */
export async function analyseProbe(input: ProbeAnalysisInput): Promise<ProbeAnalysis> {
  sentenceWeights(input.text); // timed as 'prominence'; brandEntries and the judge reuse it
  let t = stepClock();
  const brands = brandEntries(input.text, input.target, input.competitors, input.analysis);
  t = addStepTime('brands', t);
  let entities = findNamedEntities(input.text, { language: input.language, exclude: [input.target, ...input.competitors] });
  t = addStepTime('entities', t);
  const named = brands.filter((b) => b.mentioned).map((b) => b.name);
  if (!input.judge || named.length === 0) return { brands, judge: null, judge_error: null, entities };
  const verdict = await input.judge.judge({ prompt: input.prompt, answer: input.text, language: input.language, brands: named, signal: input.signal });
  if (!verdict.ok) return { brands, judge: verdict.judge, judge_error: verdict.error, entities };
  for (const b of brands) {
    const v = verdict.brands.get(b.name);
    b.sentiment = v?.sentiment ?? null;
    b.recommended = v ? v.recommended : false;
  }
  if (verdict.entities) {
    // The judge's list refines the structural one; names of the target or competitors stay out.
    entities = withoutListed(verdict.entities, [input.target, ...input.competitors]);
  }
  return { brands, judge: verdict.judge, judge_error: null, entities };
}
