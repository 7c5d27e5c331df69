// Small string primitives shared by the extractor and Content Intelligence.

/** How many times re matches in text (all matches, whether or not re has the g flag). */
export function countMatches(text: string, re: RegExp): number {
  const flags = re.flags.includes('g') ? re.flags : re.flags + 'g';
  return (text.match(new RegExp(re.source, flags)) ?? []).length;
}

/** Stable string compare for deterministic sorting (no locale dependence). */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
