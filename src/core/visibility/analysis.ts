// Answer analysis: does an AI answer mention the target brand, where, at which list rank,
// which competitors does it name, and does it cite the target's domain?
// The one thing to know: all positions are UTF-16 offsets into the *original* answer text;
// matching itself runs on a folded copy (see src/text/entity-matcher.ts) and maps back. Addresses
// (URLs, autolinks, e-mail addresses, bare domains, Markdown link destinations: src/text/links.ts)
// are not prose and never count as a mention; a link's visible text does when it names the brand
// in words. An address pointing at the target's domain is citation evidence (citation_mentioned).

import type { Citation } from '../../platforms/types.ts';
import { createEntityMatcher, foldText, type EntityMatcher, type FoldedText, type MentionRule, type MentionSpan } from '../../text/entity-matcher.ts';
import { domainMatches, registrableDomain } from '../../text/domains.ts';
import { findAddresses, isProseMention, type AddressRange } from '../../text/links.ts';
import { isGivenName } from '../../text/given-names.ts';
import { mentionDoubt, type MentionDoubt } from '../../text/mention-doubt.ts';
import { findListSegments, rankAt } from './analysis/lists.ts';
import type { BrandTerms } from './plan.ts';

export { createEntityMatcher, registrableDomain, domainMatches };
export type { EntityMatcher };

/**
 * Which rule decided whether the answer names a brand, and the text it read (a probe's
 * `brands[].evidence`): the first mention's rule (see MentionRule), `citation` when only the
 * platform's citation of the brand's site counts, `everyday_word_rejected` when every candidate
 * was the everyday word; null when nothing in the answer resembles the name.
 */
export interface MentionEvidence {
  rule: MentionRule | 'citation';
  text: string;
  /**
   * Set when only weak rules decided (every mention is a weak one, or, with no mention, a
   * candidate was rejected by a weak rule): a judge may confirm it (see analysis/brands.ts).
   */
  ambiguous?: true;
  /**
   * `dictionary`: the name is an everyday word only by the language's spelling dictionary (the
   * frequency list misses it), and that decided the reading (see MentionSpan.lexicon).
   * `given_name`: the name is also a person's given name (Ford, Mercedes, Hilton) and nothing
   * around its mentions says which is meant, so the decision is marked ambiguous for a judge.
   */
  lexicon?: 'dictionary' | 'given_name';
  /**
   * Why a mention taken by strong rules is in doubt all the same, and so marked ambiguous for a
   * judge: a sign that the letters may name a person, a place, a work or a word (see MentionDoubt
   * in src/text/mention-doubt.ts: `dated`, `name_run`, `caseless_word`, `name_list`).
   */
  doubt?: MentionDoubt;
  /** Set when the judge confirmed or overturned an ambiguous decision; `verdict` is its reading. */
  judged?: true;
  verdict?: 'mentioned' | 'not_mentioned';
}

export interface AnswerAnalysis {
  /** Target entity appears as whole words in the text, or citation_mentioned. */
  brand_mentioned: boolean;
  /** Target entity appears in the answer text itself. */
  text_mentioned: boolean;
  /** Some citation's domain is the target URL's domain or a subdomain of it. */
  citation_mentioned: boolean;
  /** The platform's own citations point at the target's site (brand_mentioned even without words). */
  cited_by_platform: boolean;
  /** UTF-16 offset in the original text of the first text mention, or null. */
  mention_position: number | null;
  mention_count: number;
  /** 1-based rank of the first list item (numbered or bulleted) mentioning the brand, or null. */
  list_rank: number | null;
  /** Competitor names, as given, that the answer text mentions (in the order given). */
  competitors: string[];
  /** First offset per mentioned competitor. */
  competitor_positions: Record<string, number>;
  /** Distinct citation domains, in citation order. */
  cited_domains: string[];
  /** Original ranges of the target's text mentions (for prominence). */
  target_spans: MentionSpan[];
  /** Original ranges of each mentioned competitor's text mentions, by name as given. */
  competitor_spans: Record<string, MentionSpan[]>;
  /** 1-based list rank of each mentioned competitor's first listed mention (null when none is in a list). */
  competitor_list_ranks: Record<string, number | null>;
  /** Why the target counts as mentioned or not (see MentionEvidence). */
  target_evidence: MentionEvidence | null;
  /** The same per competitor, by name as given (mentioned or not). */
  competitor_evidence: Record<string, MentionEvidence | null>;
  /** For each brand (target or competitor, by name as given) whose evidence is ambiguous: the occurrence a judge is asked about. */
  ambiguous_spans: Record<string, MentionSpan>;
}

export interface AnalyzeAnswerInput {
  text: string;
  citations: Citation[];
  targetEntity: string;
  targetUrl: string;
  competitors: string[];
  /** Other names of the target that count as mentions of it. */
  aliases?: string[];
  /** The target's domains besides the URL's: citing them is citation evidence for it. */
  targetDomains?: string[];
  /** Other names of each competitor, by name. */
  competitorAliases?: Record<string, string[]>;
  /** The answer's language (BCP 47): names that are everyday words count only where written as names. */
  language?: string;
}

/** The analysis inputs a run's brand terms give (none when it has none). */
export function analysisTerms(terms: BrandTerms | null): Pick<AnalyzeAnswerInput, 'aliases' | 'targetDomains' | 'competitorAliases'> {
  if (!terms) return {};
  return {
    aliases: terms.target_aliases,
    targetDomains: terms.target_domains,
    competitorAliases: Object.fromEntries(terms.competitors.map((c) => [c.name, c.aliases])),
  };
}

/** Domain a citation really points at: resolved_url, then the domain field, then the url. */
export function citationDomain(c: Citation): string {
  if (c.resolved_url) {
    const d = registrableDomain(c.resolved_url);
    if (d) return d;
  }
  if (c.domain) {
    const d = registrableDomain(c.domain);
    if (d) return d;
  }
  return registrableDomain(c.url);
}

/** Rules that read only the name's spelling and place, so a person of that name reads the same. */
const BARE_NAME_RULES: ReadonlySet<string> = new Set(['exact', 'capitalised', 'sentence_start']);

/**
 * Rejections where the grammar found a sign of the other reading (a person, a place, a work, a
 * count, another word class): still weak in the matcher, but not sent to a judge. On the
 * development tables 1 in 166 of them was wrong, against 1 in 5 or more of the doubts below
 * (src/text/mention-doubt.ts): a judge's calls go where the errors are (docs/mentions.md).
 */
const SIGNED_REJECTIONS: ReadonlySet<string> = new Set([
  'place_name',
  'counted_noun',
  'other_name',
  'person_name',
  'adjective_after_noun',
  'adverbial',
  'given_name_before',
  'named_place_or_venue',
  'myth_or_legend',
  'person_cue',
  'possessed_noun',
  'number_expression',
  'noun_in_construct',
]);

function proseMentions(
  name: string,
  matcher: EntityMatcher,
  folded: FoldedText,
  addresses: AddressRange[],
  language: string | undefined,
): { spans: MentionSpan[]; evidence: MentionEvidence | null; candidate: MentionSpan | null } {
  const { spans: all, rejected } = matcher.decide(folded);
  const spans = addresses.length ? all.filter((m) => isProseMention(addresses, m.start, m.end)) : all;
  // Ambiguous: no mention but by a weak rule, or no mention at all and a weakly rejected candidate
  // (but for a rejection whose grammar read a sign of the other meaning, SIGNED_REJECTIONS).
  const weakRejection = spans.length === 0 ? rejected.find((r) => r.weak) : undefined;
  const routedRejection = spans.length === 0 ? rejected.find((r) => r.weak && !SIGNED_REJECTIONS.has(r.rule ?? '')) : undefined;
  let ambiguous = spans.length > 0 ? spans.every((m) => m.weak) : routedRejection !== undefined;
  // A brand that is also a given name (Ford, Mercedes, Hilton), named only bare, with no product
  // word, possessive, compound or list around it: "Mercedes told me…" reads the same as "Mercedes
  // builds…", so a judge is asked. Without one the mention stands.
  const givenName = !ambiguous && spans.length > 0 && spans.every((m) => BARE_NAME_RULES.has(m.rule ?? 'exact')) && isGivenName(name);
  if (givenName) ambiguous = true;
  // Mentions taken by strong rules that a reader who knows the world might read otherwise.
  const doubt = !ambiguous && spans.length > 0 ? mentionDoubt(name, folded.text, spans, language ?? 'en') : null;
  if (doubt) ambiguous = true;
  const first = spans[0] ?? routedRejection ?? weakRejection ?? rejected[0];
  const evidence: MentionEvidence | null = first ? { rule: first.rule ?? 'exact', text: folded.text.slice(first.start, first.end) } : null;
  if (evidence && ambiguous) evidence.ambiguous = true;
  if (evidence && first?.lexicon) evidence.lexicon = first.lexicon;
  else if (evidence && givenName) evidence.lexicon = 'given_name';
  if (evidence && doubt) evidence.doubt = doubt;
  return { spans, evidence, candidate: first ?? null };
}

function firstListRank(segments: ReturnType<typeof findListSegments>, spans: MentionSpan[]): number | null {
  for (const { start } of spans) {
    const rank = rankAt(segments, start);
    if (rank !== null) return rank;
  }
  return null;
}

export function analyzeAnswer(input: AnalyzeAnswerInput): AnswerAnalysis {
  const text = input.text ?? '';
  const folded = foldText(text);
  const addresses = findAddresses(text);
  const matcherOptions = input.language ? { language: input.language } : {};

  const target = input.targetEntity.trim()
    ? proseMentions(input.targetEntity, createEntityMatcher(input.targetEntity, input.aliases ?? [], matcherOptions), folded, addresses, input.language)
    : { spans: [], evidence: null, candidate: null };
  const targetSpans = target.spans;
  const ambiguousSpans: Record<string, MentionSpan> = {};
  let segments: ReturnType<typeof findListSegments> | undefined;
  const listSegments = () => (segments ??= findListSegments(text));
  const listRank = targetSpans.length ? firstListRank(listSegments(), targetSpans) : null;

  const competitors: string[] = [];
  const competitorPositions: Record<string, number> = {};
  const competitorSpans: Record<string, MentionSpan[]> = {};
  const competitorRanks: Record<string, number | null> = {};
  const competitorEvidence: Record<string, MentionEvidence | null> = {};
  const seen = new Set<string>();
  for (const name of input.competitors ?? []) {
    // Spelling variants of one name ("ClickUp", "Click Up") are one competitor: the first wins.
    const matcher = createEntityMatcher(name, input.competitorAliases?.[name] ?? [], matcherOptions);
    if (!matcher.variants.length || matcher.variants.some((v) => seen.has(v))) continue;
    for (const v of matcher.variants) seen.add(v);
    const { spans: hits, evidence, candidate } = proseMentions(name, matcher, folded, addresses, input.language);
    competitorEvidence[name] = evidence;
    if (evidence?.ambiguous && candidate) ambiguousSpans[name] = candidate;
    if (hits.length) {
      competitors.push(name);
      competitorPositions[name] = hits[0]!.start;
      competitorSpans[name] = hits;
      competitorRanks[name] = firstListRank(listSegments(), hits);
    }
  }

  const citedDomains: string[] = [];
  for (const c of input.citations ?? []) {
    const d = citationDomain(c);
    if (d && !citedDomains.includes(d)) citedDomains.push(d);
  }
  const targetDomain = registrableDomain(input.targetUrl ?? '');
  // An address in the text pointing at the target's site (a link, an autolink, "acme.com",
  // sales@acme.com) is evidence of the same kind as a citation of it.
  const ownDomains = [targetDomain, ...(input.targetDomains ?? [])].filter(Boolean);
  const isOwn = (d: string) => ownDomains.some((own) => domainMatches(d, own));
  const citedByPlatform = citedDomains.some(isOwn);
  const citationMentioned = citedByPlatform || addresses.some((a) => isOwn(a.domain));
  const textMentioned = targetSpans.length > 0;
  const targetEvidence: MentionEvidence | null =
    textMentioned || !citedByPlatform ? target.evidence : { rule: 'citation', text: citedDomains.find(isOwn) ?? targetDomain };
  if (targetEvidence?.ambiguous && target.candidate) ambiguousSpans[input.targetEntity] = target.candidate;

  return {
    // A brand that appears only inside an address in the text is citation evidence, never a
    // mention; the platform citing the target's site still counts (docs/mentions.md).
    brand_mentioned: textMentioned || citedByPlatform,
    text_mentioned: textMentioned,
    citation_mentioned: citationMentioned,
    cited_by_platform: citedByPlatform,
    mention_position: textMentioned ? targetSpans[0]!.start : null,
    mention_count: targetSpans.length,
    list_rank: listRank,
    competitors,
    competitor_positions: competitorPositions,
    cited_domains: citedDomains,
    target_spans: targetSpans,
    competitor_spans: competitorSpans,
    competitor_list_ranks: competitorRanks,
    target_evidence: targetEvidence,
    competitor_evidence: competitorEvidence,
    ambiguous_spans: ambiguousSpans,
  };
}
