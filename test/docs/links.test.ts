// Every relative link in the repository's Markdown points at a file that exists and, when it
// names an anchor, at a heading of that file (GitHub's heading slugs, through github-slugger).
// Docs move and headings get renamed; a reader following a link should never land nowhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';

const root = resolve(import.meta.dirname, '../..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', '.git', 'out']);

function markdownFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...markdownFiles(path));
    else if (name.endsWith('.md')) found.push(path);
  }
  return found;
}

/** Markdown without fenced code blocks and inline code spans, where brackets are not links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

const anchorsCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorsCache.get(file);
  if (anchors) return anchors;
  const slugger = new GithubSlugger();
  anchors = new Set();
  for (const line of prose(readFileSync(file, 'utf8')).split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(slugger.slug(heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
    for (const id of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  anchorsCache.set(file, anchors);
  return anchors;
}

test('relative Markdown links point at existing files and headings', () => {
  const broken: string[] = [];
  const files = markdownFiles(root);
  assert.ok(files.length > 10, `found ${files.length} Markdown files`);
  for (const file of files) {
    const text = prose(readFileSync(file, 'utf8'));
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const targetFile = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      const where = `${relative(root, file)} → ${target}`;
      if (!existsSync(targetFile)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (anchor && targetFile.endsWith('.md') && !anchorsOf(targetFile).has(decodeURIComponent(anchor))) {
        broken.push(`${where}: no such heading`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
