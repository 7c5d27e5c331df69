// Finds a NUL character (U+0000) anywhere in a decoded request input: a string value or an object
// key, at any depth. Postgres text cannot hold NUL (the insert fails, which was a 500) and SQLite
// would store it silently, so both surfaces refuse such input at the edge with a 422 naming
// where it was, before any work starts.
// The walk is iterative with its own stack, and each node links to its parent instead of copying
// the path: linear in the size of the input whatever its depth (the path is built once, on a hit).

interface Node {
  value: unknown;
  /** The key or index under the parent; undefined for the root. */
  key?: string | number;
  parent: Node | null;
  /** An object entry: its key is checked before its value. */
  isEntry: boolean;
}

function pathOf(node: Node, base: (string | number)[]): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let n: Node | null = node; n && n.key !== undefined; n = n.parent) keys.push(n.key);
  return [...base, ...keys.reverse()];
}

/** The path to the first string (or key) holding a NUL, or null when there is none. */
export function findNulByte(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  const stack: Node[] = [{ value, parent: null, isEntry: false }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isEntry && (node.key as string).includes('\u0000')) return pathOf(node, path);
    const v = node.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(node, path);
    } else if (Array.isArray(v)) {
      // Pushed last to first, so the first element is looked at first.
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: node, isEntry: false });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: node, isEntry: true });
    }
  }
  return null;
}

export const NUL_BYTE_MESSAGE = 'Text must not contain NUL (U+0000) characters.';
