// Answer analysis: does an AI answer mention the target brand, where, at which list rank,
// which competitors does it name, and does it cite the target's domain?
// The one thing to know: all positions are UTF-16 offsets into the *original* answer text;
// matching itself runs on a folded copy (see src/text/entity-matcher.ts) and maps back. Text inside
// Markdown link destinations ("](https://acme.com)") is not visible prose and never counts as
// a mention; the link text does.

import type { Citation } from '../../platforms/types.ts';
import { createEntityMatcher, foldText, type EntityMatcher } from '../../text/entity-matcher.ts';
import { domainMatches, registrableDomain } from '../../text/domains.ts';
import { findListSegments, rankAt } from './analysis/lists.ts';

export { createEntityMatcher, registrableDomain, domainMatches };
export type { EntityMatcher };

export interface AnswerAnalysis {
  /** Target entity appears as whole words in the text, or citation_mentioned. */
  brand_mentioned: boolean;
  /** Target entity appears in the answer text itself. */
  text_mentioned: boolean;
  /** Some citation's domain is the target URL's domain or a subdomain of it. */
  citation_mentioned: boolean;
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
}

export interface AnalyzeAnswerInput {
  text: string;
  citations: Citation[];
  targetEntity: string;
  targetUrl: string;
  competitors: string[];
  aliases?: string[];
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

/** Ranges of Markdown link destinations and reference definitions: URLs, not prose. */
function hiddenRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const inline = /\]\([^)\s]*(?:\s+"[^"\n]*")?\)/g;
  for (let m; (m = inline.exec(text)); ) ranges.push([m.index + 1, m.index + m[0].length]);
  const refdef = /^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+/gm;
  for (let m; (m = refdef.exec(text)); ) ranges.push([m.index, m.index + m[0].length]);
  ranges.sort((a, b) => a[0] - b[0]);
  return ranges;
}

function isHidden(ranges: [number, number][], offset: number): boolean {
  // Few ranges per answer; a linear scan is fine.
  for (const [s, e] of ranges) {
    if (offset < s) return false;
    if (offset < e) return true;
  }
  return false;
}

function visibleMentions(matcher: EntityMatcher, folded: ReturnType<typeof foldText>, hidden: [number, number][]): number[] {
  const all = matcher.findFolded(folded);
  return hidden.length ? all.filter((o) => !isHidden(hidden, o)) : all;
}

export function analyzeAnswer(input: AnalyzeAnswerInput): AnswerAnalysis {
  const text = input.text ?? '';
  const folded = foldText(text);
  const hidden = hiddenRanges(text);

  const targetMentions = input.targetEntity.trim()
    ? visibleMentions(createEntityMatcher(input.targetEntity, input.aliases ?? []), folded, hidden)
    : [];

  let listRank: number | null = null;
  if (targetMentions.length) {
    const segments = findListSegments(text);
    for (const offset of targetMentions) {
      listRank = rankAt(segments, offset);
      if (listRank !== null) break;
    }
  }

  const competitors: string[] = [];
  const competitorPositions: Record<string, number> = {};
  const seen = new Set<string>();
  for (const name of input.competitors ?? []) {
    // Spelling variants of one name ("ClickUp", "Click Up") are one competitor: the first wins.
    const matcher = createEntityMatcher(name);
    if (!matcher.variants.length || matcher.variants.some((v) => seen.has(v))) continue;
    for (const v of matcher.variants) seen.add(v);
    const hits = visibleMentions(matcher, folded, hidden);
    if (hits.length) {
      competitors.push(name);
      competitorPositions[name] = hits[0];
    }
  }

  const citedDomains: string[] = [];
  for (const c of input.citations ?? []) {
    const d = citationDomain(c);
    if (d && !citedDomains.includes(d)) citedDomains.push(d);
  }
  const targetDomain = registrableDomain(input.targetUrl ?? '');
  const citationMentioned = citedDomains.some((d) => domainMatches(d, targetDomain));
  const textMentioned = targetMentions.length > 0;

  return {
    brand_mentioned: textMentioned || citationMentioned,
    text_mentioned: textMentioned,
    citation_mentioned: citationMentioned,
    mention_position: textMentioned ? targetMentions[0] : null,
    mention_count: targetMentions.length,
    list_rank: listRank,
    competitors,
    competitor_positions: competitorPositions,
    cited_domains: citedDomains,
  };
}
