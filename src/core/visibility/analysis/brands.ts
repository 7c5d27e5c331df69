// The per-probe answer analysis stored with a succeeded probe (column visibility_probes.analysis,
// JSON) and shown as the probe's `brands`, `judge` and `judge_error` (docs/concepts.md, "Answer
// analysis"): for the target and each competitor, whether and where it is named, its list rank,
// prominence, and the judge's sentiment and recommendation; plus the other names the answer
// holds (summed into the run's discovered_entities).
// The one thing to know: everything but sentiment and recommended is computed here from the text,
// deterministically; those two come only from a judge (judge.ts), else they are null. The one
// exception: a live judge confirms the mentions the reader's rule decided weakly (evidence
// `ambiguous`), and its reading then decides `mentioned` (evidence `judged`, `verdict`).
import type { AnswerAnalysis, MentionEvidence } from '../analysis.ts';
import type { MentionSpan } from '../../../text/entity-matcher.ts';
import { CONFIRM_CONTEXT, MAX_CONFIRMATIONS, type Judge, type JudgeInfo, type Sentiment } from '../judge.ts';
import { findListSegments, rankAt } from './lists.ts';
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
  /** Epoch ms by which the judge must have answered (JudgeInput.deadline). */
  judgeDeadline?: number;
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
  const confirm = input.judge?.confirms ? toConfirm(input.text, brands, input.analysis) : [];
  const named = brands.filter((b) => b.mentioned || confirm.some((c) => c.name === b.name)).map((b) => b.name);
  if (!input.judge || named.length === 0) return { brands, judge: null, judge_error: null, entities };
  const verdict = await input.judge.judge({
    prompt: input.prompt,
    answer: input.text,
    language: input.language,
    brands: named,
    ...(confirm.length ? { confirm } : {}),
    signal: input.signal,
    deadline: input.judgeDeadline,
  });
  if (!verdict.ok) return { brands, judge: verdict.judge, judge_error: verdict.error, entities };
  for (const [name, mentioned] of verdict.mentions ?? []) {
    const b = brands.find((e) => e.name === name);
    const span = input.analysis.ambiguous_spans[name];
    if (b && span) applyConfirmation(input.text, b, span, mentioned, input.analysis);
  }
  for (const b of brands) {
    if (!b.mentioned) {
      b.sentiment = null;
      b.recommended = false;
      continue;
    }
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

/**
 * The weak decisions to confirm: each brand whose evidence is ambiguous, with the answer's words
 * around the occurrence read (the occurrence marked ⟦ ⟧); at most MAX_CONFIRMATIONS, target first.
 */
function toConfirm(text: string, brands: BrandEntry[], analysis: AnswerAnalysis): { name: string; excerpt: string }[] {
  const out: { name: string; excerpt: string }[] = [];
  for (const b of brands) {
    const span = analysis.ambiguous_spans[b.name];
    if (!b.evidence?.ambiguous || !span || out.length >= MAX_CONFIRMATIONS) continue;
    const from = Math.max(0, span.start - CONFIRM_CONTEXT);
    const to = Math.min(text.length, span.end + CONFIRM_CONTEXT);
    const excerpt = `${from > 0 ? '…' : ''}${text.slice(from, span.start)}⟦${text.slice(span.start, span.end)}⟧${text.slice(span.end, to)}${to < text.length ? '…' : ''}`;
    out.push({ name: b.name, excerpt });
  }
  return out;
}

/**
 * The judge's reading of one ambiguous decision: recorded in the evidence, and where it differs
 * from the lexical one, it decides. The brand entry and the answer analysis (whose target fields
 * become the probe's brand_mentioned, mention_position and list_rank, and whose competitor list
 * becomes the probe's competitors) change together, so the probe agrees with its brands.
 */
function applyConfirmation(text: string, b: BrandEntry, span: MentionSpan, mentioned: boolean, a: AnswerAnalysis): void {
  b.evidence = {
    ...(b.evidence ?? { rule: span.rule ?? 'exact', text: text.slice(span.start, span.end) }),
    judged: true,
    verdict: mentioned ? 'mentioned' : 'not_mentioned',
  };
  if (mentioned === b.mentioned) return;
  const spans: MentionSpan[] = mentioned ? [{ start: span.start, end: span.end, ...(span.rule ? { rule: span.rule } : {}) }] : [];
  const position = mentioned ? span.start : null;
  const listRank = mentioned ? rankAt(findListSegments(text), span.start) : null;
  b.mentioned = mentioned;
  b.mention_position = position;
  b.list_rank = listRank;
  b.first_mention_share = firstMentionShare(position, text.length);
  b.pawc = pawc(sentenceWeights(text), spans);
  if (b.role === 'target') {
    a.text_mentioned = mentioned;
    a.brand_mentioned = mentioned || a.cited_by_platform;
    a.mention_position = position;
    a.mention_count = spans.length;
    a.list_rank = listRank;
    a.target_spans = spans;
  } else {
    a.competitors = mentioned ? [...a.competitors, b.name] : a.competitors.filter((n) => n !== b.name);
    if (mentioned) a.competitor_positions[b.name] = span.start;
    else delete a.competitor_positions[b.name];
    a.competitor_spans[b.name] = spans;
    a.competitor_list_ranks[b.name] = listRank;
  }
}
