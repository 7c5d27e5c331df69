// The picture in docs/architecture.md is the imports between the top-level folders of src/:
// every import of one folder by another is an arrow there, and every arrow is an import. When
// this fails after a change of layers, change the picture with the code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'public' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The top-level unit of src/ a file belongs to: its folder, or the file's name without .ts. */
const unitOf = (file: string) => relative(SRC, file).split(sep)[0]!.replace(/\.tsx?$/, '');

function codeEdges(): Set<string> {
  const edges = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const source = readFileSync(file, 'utf8');
    // Value imports and dynamic imports; `import type` is erased at build and does not count.
    const specs = [
      ...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?from\s+'(\.[^']+)'/gm),
      ...source.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g),
    ].map((m) => m[1]!);
    for (const spec of specs) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(SRC)) continue;
      const [from, to] = [unitOf(file), unitOf(target)];
      if (from !== to) edges.add(`${from} -> ${to}`);
    }
  }
  return edges;
}

function pictureEdges(): Set<string> {
  const page = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const mermaid = /```mermaid\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(mermaid, 'docs/architecture.md has a mermaid picture');
  const edges = new Set<string>();
  for (const m of mermaid.matchAll(/^\s*(\w+)\s*(?:-->|-\.->)\s*(\w+)\s*$/gm)) edges.add(`${m[1]} -> ${m[2]}`);
  return edges;
}

test('the architecture picture shows exactly the imports between the folders of src/', () => {
  const code = codeEdges();
  const picture = pictureEdges();
  const missing = [...code].filter((e) => !picture.has(e)).sort();
  const extra = [...picture].filter((e) => !code.has(e)).sort();
  assert.deepEqual({ missing_from_picture: missing, not_in_code: extra }, { missing_from_picture: [], not_in_code: [] });
});
