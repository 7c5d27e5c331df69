// Answers shared between calls (kept answers, e.g. usage) are deep-frozen, so nobody can change
// one by accident, and their JSON text is computed once and kept with them. An answer built
// around shared parts (a run read whose summary, or whose per-prompt entries, were kept) is
// marked by its builder, and its JSON is written with the parts' kept text spliced in.

/** JSON text of each value frozen by `shareAnswer`, once it has been asked for (null until then). */
const texts = new WeakMap<object, string | null>();

function deepFreeze(value: unknown): void {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
}

/** Freezes a plain JSON-like answer and everything in it, to be handed out again; returns it. */
export function shareAnswer<T extends object>(value: T): T {
  deepFreeze(value);
  texts.set(value, null);
  return value;
}

/** Answers that may hold shared parts (see holdsShared). */
const holders = new WeakSet<object>();

/**
 * Marks an object or array that may hold values frozen by `shareAnswer` (directly, or inside
 * other marked ones), so that toJson reuses their text; returns it. Objects with a toJSON method
 * are not marked.
 */
export function holdsShared<T extends object>(value: T): T {
  holders.add(value);
  return value;
}

/**
 * JSON text of a holder, as JSON.stringify writes it: a shared part is its kept text, a nested
 * holder is written the same way, anything else by JSON.stringify itself (its fast path).
 */
function splicedJson(value: object): string {
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const v of value) items.push(partJson(v) ?? 'null');
    return `[${items.join(',')}]`;
  }
  const fields: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const text = partJson(v);
    if (text !== undefined) fields.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}

/** A value inside a holder as JSON (undefined for what JSON leaves out: undefined, functions, symbols). */
function partJson(v: unknown): string | undefined {
  if (v !== null && typeof v === 'object' && (texts.has(v) || holders.has(v))) return toJson(v);
  return JSON.stringify(v);
}

/** JSON.stringify, computed once for a shared answer. */
export function toJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const known = texts.get(value);
  if (known === undefined) return holders.has(value) ? splicedJson(value) : JSON.stringify(value);
  if (known !== null) return known;
  const text = JSON.stringify(value);
  texts.set(value, text);
  return text;
}
