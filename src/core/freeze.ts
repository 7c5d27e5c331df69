// Answers shared between calls (kept answers, e.g. usage) are deep-frozen, so nobody can change
// one by accident, and their JSON text is computed once and kept with them. An answer built
// around shared parts (a run read whose summary, or whose per-prompt entries, were kept) is
// marked by its builder, and its JSON is written with the parts' kept text spliced in.
import { randomBytes } from 'node:crypto';

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

/** Marks an answer that may hold values frozen by `shareAnswer`, so that toJson reuses their text; returns it. */
export function holdsShared<T extends object>(value: T): T {
  holders.add(value);
  return value;
}

/**
 * Stands for a shared part in the JSON written first: random per process, so no stored text
 * can spell it (a string in an answer is written with its quotes, the token without them).
 */
const TOKEN = `shared-${randomBytes(16).toString('hex')}-`;
const TOKENS = new RegExp(`"${TOKEN}(\\d+)"`, 'g');

/** JSON text of a holder: its own fields written once more, each shared part's kept text spliced in. */
function splicedJson(value: object): string {
  const parts: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v !== value && v !== null && typeof v === 'object' && texts.has(v)) {
      parts.push(toJson(v));
      return `${TOKEN}${parts.length - 1}`;
    }
    return v;
  });
  return parts.length === 0 ? text : text.replace(TOKENS, (_, i: string) => parts[Number(i)]!);
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
