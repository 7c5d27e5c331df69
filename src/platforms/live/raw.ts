// Size capping for the `raw` provider response kept for audit. Callers store raw as JSON, so a
// capped value must still serialize to valid JSON within the byte budget: we prune (shorten long
// strings, drop array tails) rather than cut the serialized text, and only fall back to a text
// preview when pruning cannot get small enough.

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

function prune(v: unknown, maxString: number, maxArray: number, depth: number): unknown {
  if (typeof v === 'string') {
    return v.length > maxString ? `${v.slice(0, maxString)}…[truncated ${v.length - maxString} chars]` : v;
  }
  if (v === null || typeof v !== 'object') return v;
  if (depth > 32) return '[truncated: too deep]';
  if (Array.isArray(v)) {
    const kept = v.slice(0, maxArray).map((x) => prune(x, maxString, maxArray, depth + 1));
    if (v.length > maxArray) kept.push(`[truncated ${v.length - maxArray} items]`);
    return kept;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = prune(x, maxString, maxArray, depth + 1);
  return out;
}

/** Cut a string to at most maxBytes of UTF-8 without splitting a surrogate pair. */
function sliceUtf8(s: string, maxBytes: number): string {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (utf8(s.slice(0, mid)) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  const code = s.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return s.slice(0, end);
}

/**
 * Returns raw unchanged when its JSON fits in maxBytes, otherwise a pruned copy that does, or as a
 * last resort `{ truncated: true, original_bytes, preview }`. The result always JSON-serializes.
 */
export function capRaw(raw: unknown, maxBytes: number): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(raw);
  } catch {
    return { truncated: true, original_bytes: null, preview: '[unserializable]' };
  }
  if (json === undefined) return null;
  const originalBytes = utf8(json);
  if (originalBytes <= maxBytes) return raw;
  for (let maxString = 4096, maxArray = 64; maxString >= 32; maxString >>= 1, maxArray = Math.max(1, maxArray >> 1)) {
    const pruned = { truncated: true, original_bytes: originalBytes, value: prune(JSON.parse(json), maxString, maxArray, 0) };
    if (utf8(JSON.stringify(pruned)) <= maxBytes) return pruned;
  }
  const shell = { truncated: true, original_bytes: originalBytes, preview: '' };
  let budget = maxBytes - utf8(JSON.stringify(shell));
  if (budget <= 0) return { truncated: true };
  // JSON escaping can grow a preview; shrink until the serialized form fits.
  let preview = sliceUtf8(json, budget);
  while (preview.length > 0 && utf8(JSON.stringify({ ...shell, preview })) > maxBytes) {
    budget = Math.floor(budget * 0.8);
    preview = sliceUtf8(json, budget);
  }
  return { ...shell, preview };
}
