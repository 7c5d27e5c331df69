// Answers shared between calls (kept answers, e.g. usage) are deep-frozen, so nobody can change
// one by accident, and their JSON text is computed once and kept with them. An answer built
// around shared parts (a run read whose summary, or whose per-prompt entries, were kept) is
// marked by its builder, and its JSON is written with the parts' kept text spliced in.
// For HTTP, toJsonBytes writes such an answer as UTF-8 bytes: the parts' bytes are kept too, so a
// large answer (a 2,000-prompt run read is 2.3 MB) is one copy into one buffer per read, not a
// join into a new string that the server then encodes again (bench:runs).

/** JSON text of each value frozen by `shareAnswer`, once it has been asked for (null until then). */
const texts = new WeakMap<object, string | null>();

function deepFreeze(value: unknown): void {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // The own values, as Object.values gives them, without an array of them per object.
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const k in value) if (Object.hasOwn(value, k)) deepFreeze((value as Record<string, unknown>)[k]);
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

/** UTF-8 bytes of the JSON of each value frozen by `shareAnswer`, once a large answer held it (toJsonBytes). */
const bytesOf = new WeakMap<object, Buffer>();

/** Below this many characters an answer is sent as text: kept bytes only pay off for large answers. */
const BYTES_FROM = 64 * 1024;

/** A shared part's JSON as UTF-8, encoded once. */
function sharedBytes(value: object): Buffer {
  let bytes = bytesOf.get(value);
  if (!bytes) bytesOf.set(value, (bytes = Buffer.from(toJson(value))));
  return bytes;
}

/** What toJsonBytes gathers: text written between shared parts, and the shared parts, in order. */
class JsonPieces {
  readonly parts: (string | object)[] = [];
  chars = 0;
  private text = '';
  add(text: string): void {
    this.text += text;
  }
  addShared(value: object): void {
    this.flush();
    this.parts.push(value);
    this.chars += toJson(value).length;
  }
  flush(): void {
    if (this.text === '') return;
    this.parts.push(this.text);
    this.chars += this.text.length;
    this.text = '';
  }
}

/** Writes a holder as splicedJson does, into `out`; shared parts are kept as themselves. */
function gather(value: object, out: JsonPieces): void {
  if (texts.has(value)) return out.addShared(value);
  if (!holders.has(value)) return out.add(JSON.stringify(value));
  const part = (v: unknown): boolean => {
    if (v !== null && typeof v === 'object' && (texts.has(v) || holders.has(v))) {
      gather(v, out);
      return true;
    }
    const text = JSON.stringify(v);
    if (text === undefined) return false;
    out.add(text);
    return true;
  };
  if (Array.isArray(value)) {
    out.add('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.add(',');
      if (!part(value[i])) out.add('null');
    }
    out.add(']');
    return;
  }
  out.add('{');
  let first = true;
  for (const [k, v] of Object.entries(value)) {
    // What JSON.stringify leaves out of an object (undefined, functions, symbols) writes no key.
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    out.add(first ? `${JSON.stringify(k)}:` : `,${JSON.stringify(k)}:`);
    first = false;
    part(v);
  }
  out.add('}');
}

/**
 * The JSON of an answer for the HTTP serializer: the text toJson writes, as UTF-8 bytes when the
 * answer is large and holds shared parts (their kept bytes copied into one buffer: no string of
 * the whole answer is built, and the server does not encode it again), else as that text.
 */
export function toJsonBytes(value: unknown): string | Buffer {
  if (value === null || typeof value !== 'object' || !(texts.has(value) || holders.has(value))) return JSON.stringify(value);
  const out = new JsonPieces();
  gather(value, out);
  out.flush();
  if (out.chars < BYTES_FROM) return out.parts.map((p) => (typeof p === 'string' ? p : toJson(p))).join('');
  // Most text between shared parts is a separator (',' between the entries of a list): ASCII text
  // is measured and written without a call into the encoder, kept bytes with TypedArray#set.
  let size = 0;
  const chunks = out.parts.map((p) => {
    if (typeof p !== 'string') {
      const bytes = sharedBytes(p);
      size += bytes.length;
      return bytes;
    }
    size += isShortAscii(p) ? p.length : Buffer.byteLength(p);
    return p;
  });
  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  for (const c of chunks) {
    if (typeof c !== 'string') {
      buf.set(c, at);
      at += c.length;
    } else if (isShortAscii(c)) {
      for (let i = 0; i < c.length; i++) buf[at++] = c.charCodeAt(i);
    } else {
      at += buf.write(c, at);
    }
  }
  return buf;
}

/** Text of at most 32 UTF-16 units, all ASCII: its UTF-8 bytes are its char codes. */
function isShortAscii(text: string): boolean {
  if (text.length > 32) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
