// Brands, products and organisations an answer names besides the ones the user listed, so a user
// can add them as competitors (the run summary's `discovered_entities`).
// The one thing to know: candidates come from the answer's structure, which works in every
// language: the label of each list item or numbered heading ("1. **Pipedrive** – …",
// "- Zoho CRM: …", "### 2. 飞书"), bold spans and link texts. A candidate is kept when it looks
// like a name: one to five words, each word of a cased script capitalised (connectors such as
// "of", "&", "de" aside), not an everyday word of the answer's language ("Pros", "Price"), and not
// the target or a listed competitor. In live mode a judge model's list, checked against the text,
// replaces it (judge.ts). Line-based, anchored regexes: linear in the answer length.
import { createEntityMatcher, foldName, foldText, type FoldedText } from '../../../text/entity-matcher.ts';
import { everydayWordRank } from '../../../text/everyday-words.ts';

const LIST_LABEL =
  /^[ \t]*(?:#{1,6}[ \t]+)?(?:\*\*|__)?(?:\d{1,3}[.)]|[-*+•▪◦‣●])?(?:\*\*|__)?[ \t]*(?:\*\*|__)?(?:\d{1,3}[.)][ \t]+)?(?:\*\*|__)?\[?([^\n*_:：[\]()（）–—|]{1,60}?)\]?(?:\*\*|__)?(?:\([^)\n]*\))?[ \t]*(?:[:：]|[ \t][–—-][ \t]|\*\*|__|$)/;
const LIST_START = /^[ \t]*(?:#{1,6}[ \t]+(?:\*\*|__)?\d{1,3}[.)]|(?:\*\*|__)?\d{1,3}[.)]|[-*+•▪◦‣●][ \t])/;
const BOLD = /\*\*([^*\n]{1,60})\*\*|__([^_\n]{1,60})__/g;
const LINK_TEXT = /\[([^\]\n]{1,60})\]\(/g;
const CONNECTORS = new Set(['of', 'and', 'for', 'the', 'de', 'du', 'des', 'la', 'le', 'y', 'et', 'und', 'von', 'del', 'da', 'do', 'di', '&', '+', 'by']);
const CASED_LETTER = /^[\p{Lu}\p{Ll}\p{Lt}]/u;

/** Whether a candidate reads as a name in the given language. */
export function looksLikeName(candidate: string, language: string): boolean {
  const name = candidate.trim().replace(/[.,;!?]+$/, '');
  if (name.length < 2 || name.length > 60 || !/\p{L}/u.test(name)) return false;
  const words = name.split(/\s+/);
  if (words.length > 5) return false;
  // One lower-case word may be a brand's own spelling ("freee", "sevDesk") unless it is an everyday word.
  const single = words.length === 1;
  for (const [i, w] of words.entries()) {
    if (single) break;
    if (i > 0 && CONNECTORS.has(w.toLowerCase())) continue;
    // Words of cased scripts start with a capital or a digit ("Zoho CRM", "3M", "iPhone" aside:
    // a lower-case first letter followed by a capital is a product spelling).
    if (CASED_LETTER.test(w) && w[0] === w[0]!.toLowerCase() && !/^\p{Ll}+\p{Lu}/u.test(w)) return false;
  }
  // German capitalises its nouns, so there a capitalised entry is an everyday word too.
  const anyCase = /^(de|lb)\b/i.test(language);
  if (words.length === 1 && everydayWordRank(name, language, { anyCase }) !== null) return false;
  if (single && everydayWordRank(name.toLowerCase(), 'en') !== null && /^[A-Za-z][a-z]+$/.test(name)) {
    // An English everyday word alone ("Pricing", "Summary", "cheap") is a heading or a word, not a name.
    return false;
  }
  return true;
}

/** Candidate names in the answer, in order of first appearance, deduplicated by folded form. */
export function findNamedEntities(text: string, opts: { language: string; exclude: string[] }): string[] {
  const found = new Map<string, string>();
  const add = (raw: string | undefined) => {
    const name = (raw ?? '')
      .trim()
      .replace(/^\d{1,3}[.)]\s+/, '')
      .replace(/[.,;!?:]+$/, '')
      .trim();
    if (!name || !looksLikeName(name, opts.language)) return;
    const key = foldName(name);
    if (key && !found.has(key)) found.set(key, name);
  };
  for (const line of text.split('\n')) {
    if (!LIST_START.test(line)) continue;
    add(LIST_LABEL.exec(line)?.[1]);
  }
  for (const m of text.matchAll(BOLD)) add(m[1] ?? m[2]);
  for (const m of text.matchAll(LINK_TEXT)) add(m[1]);
  return withoutListed([...found.values()], opts.exclude);
}

/** The names that do not name the target or a listed competitor ("Acme CRM" names "Acme"). */
export function withoutListed(names: string[], listed: string[]): string[] {
  if (!names.length) return [];
  const matchers = listed.filter((n) => n.trim()).map((n) => createEntityMatcher(n));
  return names.filter((name) => {
    const ft: FoldedText = foldText(name);
    return !matchers.some((m) => m.findFolded(ft).length > 0);
  });
}
