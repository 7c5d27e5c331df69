// Rules that catch template nonsense in any text the engine writes or a model returns: a value
// that leaked into a sentence (undefined, null, NaN, "none", [object …], empty quotes), a word
// doubled by a template, English template words inside a German, French or Spanish prompt, a
// trend named after page furniture or a stopword. Used to reject model output (generator.ts)
// and by the labelled evaluation (test/core/content/label-eval.ts, npm run bench:content).

export interface CheckedText {
  kind: 'prompt' | 'trend' | 'question' | 'recommendation' | 'trend action';
  text: string;
  lang?: string;
}

const PLACEHOLDER = /\b(undefined|NaN|null)\b|\[object \w+\]|""|“”|\{\{|\}\}|\bWhat is none\b/;
const DOUBLED = /\b(\p{L}{2,})\s+\1\b/iu;
const ENGLISH_IN = /\b(what|how|which|best|the|does|cost|would you|recommend)\b/i;
const FURNITURE_TREND = /^(source|sources|not|user|users|none|general|home|menu|read more|click here|share|comment|comments|reply|updated|published|when|where)$/i;

/** Every rule a text breaks, as readable strings (empty = clean). */
export function nonsense(texts: CheckedText[]): string[] {
  const out: string[] = [];
  for (const t of texts) {
    if (PLACEHOLDER.test(t.text)) out.push(`${t.kind}: placeholder in "${t.text.slice(0, 80)}"`);
    if (DOUBLED.test(t.text) && !/\b(\d+)\s+\1\b/.test(t.text)) out.push(`${t.kind}: doubled word in "${t.text.slice(0, 80)}"`);
    if ((t.kind === 'prompt' || t.kind === 'question') && t.lang && t.lang !== 'en' && ENGLISH_IN.test(t.text)) out.push(`${t.kind}: English inside a ${t.lang} text "${t.text}"`);
    if (t.kind === 'trend' && FURNITURE_TREND.test(t.text.trim())) out.push(`trend named "${t.text}"`);
  }
  return out;
}
