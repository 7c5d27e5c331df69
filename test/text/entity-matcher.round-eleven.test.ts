// Round eleven of the mention rules, the part that was kept: new declined forms (recall). The
// round's rejection rules (given names of more languages, places in apposition, works with a
// year, people of legend, Japanese 「XというN」) were measured and not merged: they changed nothing
// on the unseen twelfth table and a review turned down 71 of 174 real brand mentions with them
// (bench/HISTORY.md, "A twelfth held-out table; round eleven …").
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from './decide.ts';

/** The name is mentioned (its first occurrence is a span). */
function read(name: string, language: string, text: string) {
  const d = decide(name, language, text);
  assert.ok(d.spans.length > 0, `${name} in ${text}: ${JSON.stringify(d)}`);
}

describe('recall: Polish adjective names, Romanian -ei and -ului, Finnish -kse-, a katakana name before a model number', () => {
  test('the declined forms are the name', () => {
    read('Wyborowa', 'pl', 'Do tego drinka weź 40 ml Wyborowej i sok z cytryny.');
    read('Krakowska', 'pl', 'W sklepie Krakowskiej brakuje dziś pieczywa.');
    read('Catena', 'ro', 'Farmaciile Catenei sunt deschise și duminica.');
    read('Borsec', 'ro', 'Prețul Borsecului a crescut anul acesta.');
    read('Oras', 'fi', 'Oraksen hanat ovat kestäviä, ja varaosia saa rautakaupasta.');
    read('Kuvas', 'fi', 'Tilasin Kuvakselta uudet valokuvat.');
    read('セイコー', 'ja', '手頃な機械式時計なら、セイコー5スポーツが定番です。');
  });
  test('a longer word or a counted thing is not the name', () => {
    const none = (name: string, language: string, text: string) => assert.deepEqual(decide(name, language, text).spans, [], text);
    none('Oras', 'fi', 'Orasten kasvu oli hidasta keväällä.');
    none('Catena', 'ro', 'Catenele montane din nord sunt înalte.');
    none('Wyborowa', 'pl', 'To była wyborowa jednostka strzelców.');
    none('トンボ', 'ja', 'トンボ2匹が飛んでいます。');
  });
});
