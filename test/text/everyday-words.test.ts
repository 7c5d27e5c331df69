// The frequency lists and dictionaries are looked up by a word's trimmed, NFC, lower-case form
// (src/text/everyday-words.ts): ASCII words skip the NFC step, which must not change an answer,
// and a language tag is read by its primary subtag whatever its case or region.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dictionaryWord, everydayWordRank } from '../../src/text/everyday-words.ts';

test('a word is looked up trimmed, lower-cased and in NFC, ASCII or not', () => {
  const rank = everydayWordRank('time', 'en');
  assert.notEqual(rank, null);
  for (const form of ['Time', ' TIME ', '\ttime\n']) assert.equal(everydayWordRank(form, 'en'), rank, JSON.stringify(form));
  // "café" composed and decomposed (e + U+0301) are one word.
  const composed = everydayWordRank('café', 'fr');
  assert.notEqual(composed, null);
  assert.equal(everydayWordRank('cafe\u0301', 'fr'), composed);
  assert.equal(everydayWordRank(' CAFE\u0301 ', 'fr'), composed);
  assert.equal(dictionaryWord('cafe\u0301', 'fr'), dictionaryWord('café', 'fr'));
});

test('the language is read by its primary subtag, English when none is given', () => {
  const rank = everydayWordRank('maison', 'fr');
  assert.notEqual(rank, null);
  for (const tag of ['fr-FR', 'FR', 'fr_CA', 'Fr-be']) assert.equal(everydayWordRank('maison', tag), rank, tag);
  assert.equal(everydayWordRank('the', ''), everydayWordRank('the', 'en'));
  assert.equal(everydayWordRank('the', 'xx-unknown'), everydayWordRank('the', 'en'));
});
