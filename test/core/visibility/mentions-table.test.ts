// The labelled answers of issue #18, one test per answer: mentions in words across scripts,
// addresses as citation evidence, emphasis, symbols, everyday-word names, legal forms, accents,
// negation. `npm run bench:mentions` prints precision and recall over the same table.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { LABELLED_ANSWERS } from '../../fixtures/mentions/labelled.ts';
import { analyseLabelled, score } from '../../fixtures/mentions/score.ts';

describe('labelled answers', () => {
  LABELLED_ANSWERS.forEach((answer, i) => {
    test(`#${i + 1} [${answer.lang}, ${answer.rule}] ${answer.brand}: ${JSON.stringify(answer.text).slice(0, 70)}`, () => {
      const o = analyseLabelled(answer);
      assert.equal(o.mentioned, answer.mentioned, 'mentioned in words');
      if (answer.citation !== undefined) assert.equal(o.citation, answer.citation, 'citation evidence');
    });
  });

  test('the table covers every rule in at least eight languages, and scores 1.00', () => {
    assert.ok(LABELLED_ANSWERS.length >= 150, `${LABELLED_ANSWERS.length} answers`);
    assert.ok(new Set(LABELLED_ANSWERS.map((a) => a.lang)).size >= 8);
    for (const rule of ['address', 'segmentation', 'emphasis', 'symbols', 'everyday-word', 'legal-form', 'accents', 'negation']) {
      assert.ok(LABELLED_ANSWERS.filter((a) => a.rule === rule).length >= 8, rule);
    }
    assert.ok(LABELLED_ANSWERS.some((a) => a.mentioned) && LABELLED_ANSWERS.some((a) => !a.mentioned));
    const s = score();
    assert.equal(s.precision, 1);
    assert.equal(s.recall, 1);
    assert.equal(s.citationWrong, 0);
  });
});
