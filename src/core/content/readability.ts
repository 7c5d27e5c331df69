// Readability of a page's body text. English uses `text-readability` (Flesch reading ease,
// Flesch–Kincaid, Gunning fog, SMOG, Coleman–Liau); German, French and Spanish use their own
// Flesch adaptations (Amstad, Kandel–Moles, Fernández Huerta) with vowel-group syllables,
// which no maintained npm library offers. `ease` is always on the 0..100 Flesch scale.
import readabilityLib from 'text-readability';
import { sentences, syllablesByVowelGroups, words, type Lang } from './text.ts';

export interface ReadabilityResult {
  language: Lang;
  formula: string;
  /** Flesch-style reading ease, clamped to 0..100 (higher is easier). */
  ease: number;
  /** US grade level where the formula gives one (English), else null. */
  grade: number | null;
  gunningFog: number | null;
  smog: number | null;
  colemanLiau: number | null;
  avgSentenceWords: number;
  avgSyllablesPerWord: number;
  sentences: number;
  words: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp100 = (n: number) => Math.max(0, Math.min(100, round1(n)));

export function measureReadability(text: string, lang: Lang): ReadabilityResult {
  const sents = sentences(text).filter((s) => words(s).length > 0);
  const ws = words(text).filter((w) => /\p{L}/u.test(w));
  const nSent = Math.max(1, sents.length);
  const nWords = Math.max(1, ws.length);
  const asl = ws.length / nSent;

  if (lang === 'en') {
    const sample = sents.join('\n');
    const syll = readabilityLib.syllableCount(sample);
    return {
      language: lang,
      formula: 'flesch_reading_ease',
      ease: ws.length ? clamp100(206.835 - 1.015 * asl - 84.6 * (syll / nWords)) : 0,
      grade: ws.length ? round1(readabilityLib.fleschKincaidGrade(sample)) : null,
      gunningFog: ws.length ? round1(readabilityLib.gunningFog(sample)) : null,
      smog: ws.length ? round1(readabilityLib.smogIndex(sample)) : null,
      colemanLiau: ws.length ? round1(readabilityLib.colemanLiauIndex(sample)) : null,
      avgSentenceWords: round1(asl),
      avgSyllablesPerWord: round1(syll / nWords),
      sentences: sents.length,
      words: ws.length,
    };
  }

  let syll = 0;
  for (const w of ws) syll += syllablesByVowelGroups(w, lang);
  const asw = syll / nWords;
  let ease: number;
  let formula: string;
  if (lang === 'de') {
    ease = 180 - asl - 58.5 * asw;
    formula = 'flesch_amstad_de';
  } else if (lang === 'fr') {
    ease = 207 - 1.015 * asl - 73.6 * asw;
    formula = 'flesch_kandel_moles_fr';
  } else if (lang === 'es') {
    ease = 206.84 - 0.6 * (asw * 100) - 1.02 * asl;
    formula = 'fernandez_huerta_es';
  } else {
    ease = 206.835 - 1.015 * asl - 84.6 * asw;
    formula = 'flesch_reading_ease_approx';
  }
  return {
    language: lang,
    formula,
    ease: ws.length ? clamp100(ease) : 0,
    grade: null,
    gunningFog: null,
    smog: null,
    colemanLiau: null,
    avgSentenceWords: round1(asl),
    avgSyllablesPerWord: round1(asw),
    sentences: sents.length,
    words: ws.length,
  };
}
