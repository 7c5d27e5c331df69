// Answers shared between calls (kept answers, e.g. usage) are deep-frozen, so nobody can change
// one by accident, and their JSON text is computed once and kept with them.

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

/** JSON.stringify, computed once for a shared answer. */
export function toJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const known = texts.get(value);
  if (known === undefined) return JSON.stringify(value);
  if (known !== null) return known;
  const text = JSON.stringify(value);
  texts.set(value, text);
  return text;
}
