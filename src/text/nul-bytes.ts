// Finds a NUL character (U+0000) anywhere in a decoded request input: a string value or an object
// key, at any depth. Postgres text cannot hold NUL (the insert fails, which was a 500) and SQLite
// would store it silently, so both surfaces refuse such input at the edge with a 422 naming
// where it was, before any work starts.

/** The path to the first string (or key) holding a NUL, or null when there is none. */
export function findNulByte(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNulByte(value[i], [...path, i]);
      if (hit) return hit;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key];
      const hit = findNulByte(v, [...path, key]);
      if (hit) return hit;
    }
  }
  return null;
}

export const NUL_BYTE_MESSAGE = 'Text must not contain NUL (U+0000) characters.';
