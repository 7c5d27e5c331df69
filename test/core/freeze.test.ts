// toJson and toJsonBytes write an answer that holds shared (kept) parts exactly as JSON.stringify would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsShared, shareAnswer, toJson, toJsonBytes } from '../../src/core/freeze.ts';

test('an answer holding shared parts is written as JSON.stringify writes it', () => {
  const entry = shareAnswer({ prompt: 'best "crm"\n', rate: 0.5, ci: { low: 0.1, high: 0.9 }, list: [1, null, 'x'] });
  const open = { prompt: 'other', rate: null, gone: undefined };
  const byPrompt = holdsShared([entry, open, entry, undefined]);
  const summary = holdsShared({ mention_rate: 0.25, by_prompt: byPrompt, nested: { deep: [entry] }, skip: undefined, fn: () => 1 });
  const answer = holdsShared({ run_id: 'vis_1', status: 'running', summary, empty: holdsShared([]), 'odd "key"': 'é\u2028' });
  const expected = JSON.stringify(answer);
  assert.equal(toJson(answer), expected);
  assert.equal(toJson(answer), expected, 'the second time, from the kept text of the shared entry');
  assert.deepEqual(JSON.parse(toJson(answer)), JSON.parse(expected));
  assert.throws(() => {
    (entry as { rate: number }).rate = 1;
  }, TypeError);
});

test('toJsonBytes writes the same JSON, as bytes once the answer is large', () => {
  const entries = Array.from({ length: 300 }, (_, i) => shareAnswer({ prompt: `best crm ${i} — ü "quoted"\n`, rate: i / 300, list: [i, null] }));
  const open = { prompt: 'ünfinished', rate: null, gone: undefined, fn: () => 1 };
  const answer = holdsShared({
    run_id: 'vis_1',
    skip: undefined,
    summary: holdsShared({ by_prompt: holdsShared([...entries, open, undefined]), empty: holdsShared([]), shared: shareAnswer({ a: 1 }) }),
    'odd "key"': 'é\u2028',
  });
  const expected = JSON.stringify(answer);
  for (let i = 0; i < 2; i++) {
    const out = toJsonBytes(answer);
    assert.equal(typeof out === 'string' ? out : out.toString('utf8'), expected);
  }
  const large = holdsShared({ by_prompt: holdsShared(Array.from({ length: 2000 }, () => entries[0])), status: 'running' });
  const bytes = toJsonBytes(large);
  assert.ok(Buffer.isBuffer(bytes), 'a large answer is written as bytes');
  assert.equal(bytes.toString('utf8'), JSON.stringify(large));
  const small = holdsShared({ status: 'running', entry: entries[1] });
  assert.equal(toJsonBytes(small), JSON.stringify(small), 'a small one as text');
  assert.equal(toJsonBytes({ plain: 'ü' }), JSON.stringify({ plain: 'ü' }));
  assert.equal(toJsonBytes(entries[2]), JSON.stringify(entries[2]));
});
