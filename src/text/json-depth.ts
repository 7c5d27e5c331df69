// How deeply a JSON text nests, found before it is parsed. JSON.parse and every walk over its
// result (schema validation, the NUL check, unknown-field checks) recurse once per level, so a
// small body nested thousands of levels deep costs seconds of event loop or overflows the stack.
// The one thing to know: this is one pass over the bytes with a counter, no recursion and no
// allocation, so it costs the same for any shape; it only has to be right for valid JSON (an
// invalid text is refused by JSON.parse afterwards, whatever this says).

/** The deepest nesting of arrays and objects a request body may have (`{}` is 1, `{"a": []}` 2). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the UTF-8 JSON text `bytes` nests deeper than `max`. Brackets inside strings do not
 * count (UTF-8 never encodes a non-ASCII character with an ASCII byte, so the bytes can be scanned
 * as they are); stops at the first level over `max`.
 */
export function jsonNestsDeeperThan(bytes: Uint8Array, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

export const JSON_TOO_DEEP_MESSAGE = `Body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`;
