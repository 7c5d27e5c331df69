// Scrubbing of provider API keys from anything a driver hands out (error messages, raw bodies).
// Providers echo keys back (OpenAI and xAI quote the key in 401 messages), and errors end up in
// logs and the database, so every string that leaves a driver passes through here first.

const REDACTED = '[REDACTED]';

/** The key and the encodings it may appear in (URL query strings percent-encode it). */
function secretVariants(secrets: readonly (string | undefined | null)[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    // Very short values would redact ordinary words; real API keys are long.
    if (!s || s.length < 6) continue;
    out.add(s);
    out.add(encodeURIComponent(s));
  }
  // Longest first so a variant that contains another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

export function scrubText(text: string, secrets: readonly (string | undefined | null)[]): string {
  let out = text;
  for (const v of secretVariants(secrets)) out = out.split(v).join(REDACTED);
  return out;
}

/** True when no variant can occur anywhere in value (checked on its JSON, escapes included). */
function surelyClean(value: unknown, variants: string[]): boolean {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return false; // circular or a BigInt: let the walk decide
  }
  if (json === undefined) return true;
  // A string is serialized with JSON escapes, so look for each variant's escaped form.
  return variants.every((v) => !json.includes(JSON.stringify(v).slice(1, -1)));
}

/**
 * A JSON-like value with every secret replaced in strings and object keys: a deep copy when a
 * secret occurs in it, the value itself when none does (the common case: one serialization and
 * a substring search instead of copying every provider reply).
 */
export function scrubValue<T>(value: T, secrets: readonly (string | undefined | null)[]): T {
  const variants = secretVariants(secrets);
  if (variants.length === 0) return value;
  if (surelyClean(value, variants)) return value;
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v;
      for (const x of variants) s = s.split(x).join(REDACTED);
      return s;
    }
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[Circular]';
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[walk(k) as string] = walk(x);
    return out;
  };
  return walk(value) as T;
}
