// Reading parsed JSON-LD: every object node (following @graph and nested values) and the
// schema.org types the page declares.
import { cmp } from '../../lib/text-match.ts';

/** Every object node in parsed JSON-LD, following @graph and nested values. */
export function walkJsonLd(roots: unknown[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const stack: unknown[] = [...roots].reverse();
  let guard = 0;
  while (stack.length && guard++ < 10_000) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      out.push(o);
      const keys = Object.keys(o);
      for (let i = keys.length - 1; i >= 0; i--) {
        const child = o[keys[i]!];
        if (child && typeof child === 'object') stack.push(child);
      }
    }
  }
  return out;
}


/** Every @type the page's JSON-LD declares, sorted. */
export function jsonLdTypes(roots: unknown[]): string[] {
  const types = new Set<string>();
  for (const node of walkJsonLd(roots)) {
    for (const t of ([] as unknown[]).concat(node['@type'] ?? [])) if (typeof t === 'string') types.add(t);
  }
  return [...types].sort(cmp);
}
