// Language-aware text primitives for the content engine: language codes, word and sentence
// splitting, stopwords (from the `stopword` package), singular forms and syllable counts.
// Everything is pure and deterministic; the one thing to know is that words are compared in
// their folded form (lower case, English plurals singularized) everywhere in the engine.
import pluralize from 'pluralize';
import { deu, eng, fra, ita, nld, por, spa } from 'stopword';
import { cmp, countMatches } from '../../lib/text-match.ts';

export { cmp, countMatches };

export type Lang = 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt';
const SUPPORTED: readonly Lang[] = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'];

/** "de-DE", "DE", "de_AT" → "de"; unknown or missing → "en". */
export function normalizeLang(value: string | null | undefined): Lang {
  const base = (value ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (SUPPORTED as readonly string[]).includes(base) ? (base as Lang) : 'en';
}

// Words that are frequent on web pages but never a topic: navigation and call-to-action words.
const WEB_NOISE = [
  'click', 'read', 'more', 'learn', 'home', 'menu', 'page', 'pages', 'cookie', 'cookies', 'login', 'sign',
  'subscribe', 'newsletter', 'share', 'today', 'new', 'get', 'use', 'using', 'used', 'also', 'many', 'much',
  'way', 'ways', 'thing', 'things', 'lot', 'best', 'good', 'great', 'make', 'need', 'want', 'like', 'just',
  'can', 'will', 'one', 'two', 'three', 'first', 'every', 'each', 'per', 'via', 'etc', 'e.g', 'i.e', 'us',
  'let', 'help', 'helps', 'find', 'know', 'see', 'take', 'start', 'well', 'even', 'still', 'may', 'might',
  'without', 'within', 'across', 'another', 'different', 'important', 'example', 'examples', 'step',
  'year', 'years', 'month', 'months', 'day', 'days', 'week', 'weeks', 'time', 'times', 'people', 'team',
  'yes', 'no', 'question', 'questions', 'answer', 'answers', 'faq', 'section', 'article', 'guide', 'post',
  'updated', 'published', 'author', 'written', 'minute', 'minutes', 'min', 'free', 'right', 'usually',
  'choose', 'choosing', 'pick', 'select', 'buy', 'compare', 'matter', 'matters', 'explained', 'works', 'does', 'doing', 'top', 'ultimate', 'complete',
];
const EXTRA: Record<Lang, string[]> = {
  en: WEB_NOISE,
  de: [...WEB_NOISE, 'mehr', 'sowie', 'bzw', 'z.b', 'ihr', 'ihre', 'ihren', 'ihrem', 'ihrer', 'sie', 'dabei', 'gibt', 'geht', 'beim', 'immer', 'viele', 'vielen', 'neue', 'neuen', 'wichtig', 'einfach', 'jahr', 'jahre', 'jahren', 'schritt', 'frage', 'fragen', 'antwort', 'kosten', 'kostet', 'brauche', 'braucht', 'brauchen', 'häufige', 'häufig', 'pro', 'monat', 'monate', 'welche', 'welcher', 'gibt', 'finden', 'wählen', 'vergleich'],
  fr: [...WEB_NOISE, 'plus', 'comme', 'très', 'aussi', 'tout', 'tous', 'toutes', 'leur', 'leurs', 'votre', 'vos', 'peut', 'faire', 'être', 'avoir', 'bien', 'ainsi', 'chaque', 'année', 'années', 'question', 'questions', 'coût', 'coûte', 'comment', 'combien', 'choisir', 'suffit', 'privilégier', 'quelles', 'quels', 'quelle', 'quel', 'fréquentes', 'bien'],
  es: [...WEB_NOISE, 'más', 'muy', 'también', 'todo', 'todos', 'puede', 'pueden', 'hacer', 'ser', 'cada', 'año', 'años', 'sus', 'su', 'pregunta', 'preguntas', 'cuesta', 'costo', 'cómo', 'cuánto', 'elegir', 'necesita', 'qué', 'cuál', 'frecuentes'],
  it: WEB_NOISE,
  nl: WEB_NOISE,
  pt: WEB_NOISE,
};
const LISTS: Record<Lang, string[]> = { en: eng, de: deu, fr: fra, es: spa, it: ita, nl: nld, pt: por };
const STOP_CACHE = new Map<Lang, Set<string>>();

export function stopwords(lang: Lang): Set<string> {
  let set = STOP_CACHE.get(lang);
  if (!set) {
    // English words are always included: pages in any language mix in English UI words.
    set = new Set([...LISTS[lang], ...EXTRA[lang], ...eng, ...WEB_NOISE].map((w) => w.toLowerCase()));
    STOP_CACHE.set(lang, set);
  }
  return set;
}

const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}'’-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

/** Words in order, original case. Hyphenated words and apostrophes stay whole. */
export function words(text: string): string[] {
  return text.match(WORD_RE) ?? [];
}

/** Folded form used for comparison: lower case, curly apostrophes straightened, English
 * plurals singularized ("tools" and "tool" are one keyphrase). */
export function fold(word: string, lang: Lang): string {
  const w = word.toLowerCase().replace(/’/g, "'");
  if (lang === 'en' && w.length > 3 && /^[a-z]+$/.test(w) && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) {
    return pluralize.singular(w);
  }
  return w;
}

/** Sentences of a text: split after . ! ? … when followed by space and an upper-case letter,
 * digit or quote, and at line breaks. Abbreviations like "e.g." rarely start a capital word. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const parts = line.split(/(?<=[.!?…])\s+(?=[\p{Lu}\p{N}"“'¿¡])/u);
    for (const p of parts) {
      const s = p.trim();
      if (s) out.push(s);
    }
  }
  return out;
}

/** Syllables of one word by vowel groups, for languages the English syllable library does not
 * cover. Vowel-group counting is what German (Amstad), French (Kandel–Moles) and Spanish
 * (Fernández Huerta) readability implementations commonly use; hyphenation patterns count
 * break points, not syllables, and skip word edges. */
export function syllablesByVowelGroups(word: string, lang: Lang): number {
  let w = word.toLowerCase();
  if (lang === 'fr') w = w.replace(/(?<=\p{L}{2})e?s?$/u, (m) => (m.startsWith('e') ? '' : m)); // silent final e/es
  const vowels = lang === 'de' ? /[aeiouyäöü]+/g : lang === 'fr' ? /[aeiouyàâéèêëîïôûùüœæ]+/g : /[aeiouyáéíóúü]+/g;
  const groups = w.match(vowels)?.length ?? 0;
  return Math.max(1, groups);
}
