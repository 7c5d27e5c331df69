// The matcher's decision on one sentence, as the round tests read it: each accepted and each
// turned-down occurrence with its text, rule and weakness.
import { createEntityMatcher, foldText } from '../../src/text/entity-matcher.ts';

export function decide(name: string, language: string, text: string) {
  const d = createEntityMatcher(name, [], { language }).decide(foldText(text));
  const show = (s: { start: number; end: number; rule?: string; weak?: boolean }) => ({
    text: text.slice(s.start, s.end),
    rule: s.rule,
    weak: s.weak === true,
  });
  return { spans: d.spans.map(show), rejected: d.rejected.map(show) };
}
