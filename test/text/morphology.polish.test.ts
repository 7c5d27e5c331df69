// The Polish fleeting e: masculine names in -ek, -ec, -eł, -el, -eń lose the e in their oblique
// cases ("Wedel" → "Wedla"), as the matcher reads them through src/text/morphology.ts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { inflectionFor } from '../../src/text/morphology.ts';
import { createEntityMatcher, foldText } from '../../src/text/entity-matcher.ts';

const spans = (name: string, text: string) => createEntityMatcher(name, [], { language: 'pl' }).decide(foldText(text)).spans;

describe('Polish fleeting e', () => {
  test('-el, -ec and -ek stems drop the e in the genitive, locative and instrumental', () => {
    const wedel = inflectionFor('Wedel', 'pl')!;
    for (const w of ['wedla', 'wedlu', 'wedlem', 'wedlowi']) assert.ok(wedel.accepts(w), w);
    const zywiec = inflectionFor('Żywiec', 'pl')!;
    for (const w of ['żywca', 'żywcu', 'żywcem', 'zywca']) assert.ok(zywiec.accepts(w), w);
    const kubek = inflectionFor('Kubek', 'pl')!;
    for (const w of ['kubka', 'kubku', 'kubkiem']) assert.ok(kubek.accepts(w), w);
  });
  test('the regular forms that keep the e still count ("Wawel" → "Wawelu")', () => {
    const wawel = inflectionFor('Wawel', 'pl')!;
    assert.ok(wawel.accepts('wawelu'));
    assert.ok(wawel.accepts('wawla'));
  });
  test('an unrelated word sharing the beginning is not a form ("wedle" is "according to")', () => {
    const wedel = inflectionFor('Wedel', 'pl')!;
    for (const w of ['wedding', 'wedle', 'wedlowie']) assert.equal(wedel.accepts(w), false, w);
  });
  test('the matcher reads the dropped forms as the name, with rule inflected', () => {
    const s = spans('Wedel', 'Czekolada Wedla to klasyczny prezent.');
    assert.equal(s.length, 1);
    assert.equal(s[0]!.rule, 'inflected');
    assert.equal(spans('Żywiec', 'Reklamy Żywca zawsze pokazują góry.').length, 1);
  });
});
