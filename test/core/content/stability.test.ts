// A score an expert trusts does not move with edits that do not change what the page says: over
// the excellent pages and every labelled article, each of many small edits (a colon or semicolon
// turned into a full stop, doubled spaces, line breaks, a dropped comma, one word swapped for a
// synonym in one sentence; test/core/content/edits.ts) moves the overall score by at most 3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { manifest } from './label-eval.ts';
import { meaningPreservingEdits, fixtureHtml, scoreUnderEdits } from './edits.ts';

const now = new Date(manifest.now);
const pages = [...new Map(manifest.cases.filter((c) => c.page_type === 'article' && c.band && fixtureHtml(c.url)).map((c) => [c.url, c])).values()];

test('the edits are many and each changes the page', () => {
  assert.ok(pages.length >= 15, `${pages.length} pages`);
  const html = fixtureHtml('https://expert.test/health/daily-water-intake')!;
  const edits = meaningPreservingEdits(html, 'en', 3);
  assert.ok(edits.length >= 8, edits.map((e) => e.name).join(', '));
  for (const e of edits) assert.notEqual(e.apply(html), html, e.name);
  assert.ok(edits.some((e) => e.kind === 'synonym'));
});

test('a colon turned into a full stop in the lead does not move the score', async () => {
  // The lead's first statement ends at a colon; with a full stop it is two sentences.
  const r = await scoreUnderEdits('https://expert.test/health/daily-water-intake', now, 'en', 0, ['punctuation']);
  for (const m of r.moves) assert.equal(m.delta, 0, `${m.edit.name}: ${r.base} → ${m.score}`);
});

test('meaning-preserving edits move no labelled article by more than 3 points', async () => {
  const moved: string[] = [];
  let edits = 0;
  for (const c of pages) {
    const r = await scoreUnderEdits(c.url, now, c.language ?? 'en', 2);
    edits += r.moves.length;
    for (const m of r.moves) if (Math.abs(m.delta) > 3) moved.push(`${c.url} ${m.edit.name}: ${r.base} → ${m.score}`);
  }
  assert.ok(edits >= 150, `${edits} edits`);
  assert.deepEqual(moved, []);
});
