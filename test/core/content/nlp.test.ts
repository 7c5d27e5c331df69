// compromise runs in a V8 context of its own (src/core/content/nlp.ts), so that loading its lexicon
// cannot exhaust the transitions of the process's empty-object map: past that limit every object
// literal with a new first key, Node's nextTick tick objects included, gets a map of its own and
// takes V8's slow path on every request. Checked in a child process with V8's natives syntax.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { extractEntities, extractKeyphrases } from '../../../src/core/content/keyphrases.ts';

const child = fileURLToPath(new URL('../../fixtures/nlp/shared-maps.ts', import.meta.url));

test('after compromise has run, object literals with computed keys still share one map', () => {
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', child], { encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').pop()!);
  assert.ok(result.entities.includes('Tim Cook'), `compromise ran in the child: ${out}`);
  assert.equal(result.sameMap, true);
});

test('the probe detects the problem it guards against: many distinct first keys on {} do split maps', () => {
  const script =
    "const keep = []; for (let i = 0; i < 2000; i++) { const o = {}; o['k' + i] = i; keep.push(o); }" +
    "const a = Symbol(), b = Symbol(); const make = () => ({ [a]: 1, [b]: 2 });" +
    'console.log(%HaveSameMap(make(), make()), keep.length);';
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' });
  assert.equal(out.trim(), 'false 2000');
});

test('compromise from its own context tags English text: people, organizations, places and parts of speech', () => {
  const entities = extractEntities('Tim Cook visited Paris with engineers from Microsoft. Tim Cook spoke first.', [], 'en');
  assert.deepEqual(
    entities.map((e) => [e.name, e.type, e.count]),
    [
      ['Tim Cook', 'person', 2],
      ['Microsoft', 'organization', 1],
      ['Paris', 'place', 1],
    ],
  );
  // "choose" is tagged only as a verb here, so it never heads a keyphrase.
  const phrases = extractKeyphrases([{ text: 'Choose project management software. Teams choose tools.', zone: 'title' }], 'en').map((k) => k.key);
  assert.ok(phrases.includes('project management'), phrases.join('|'));
  assert.ok(!phrases.some((p) => p.split(' ').includes('choose')), phrases.join('|'));
});
