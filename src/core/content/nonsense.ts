// Rules that catch template nonsense in any text the engine writes or a model returns: a value
// that leaked into a sentence (undefined, null, NaN, "none", [object …], empty quotes), a word
// doubled by a template, English template words inside a German, French or Spanish prompt, a
// trend named after page furniture or a stopword, a question about no topic ("What is general?"),
// and a topic that is a fragment (a count, or a noun glued to a verb: "surveys say") wherever a
// trend or a question template names it. Used to reject model output (generator.ts)
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
// A question about no topic at all: "What is general?", "What should I know about other?"
const ABOUT_NOTHING = /^(?:what|how|which|who)\b[^?]*?\b(?:is|are|about|for|of|choose|compare)\s+(?:an? |the )?(?:general|none|other|misc|miscellaneous|various|stuff|things?|this topic|it|that)\s*\?$/i;
// A topic starting with a count: "three days", "trois jours".
const COUNT_FIRST = /^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|zwei|drei|vier|fünf|deux|trois|quatre|cinq|dos|tres|cuatro|cinco)\s/i;
// A topic that ends in a verb or adverb: a noun glued to what the sentence said about it
// ("surveys say", "actually cleans", "Anlage rechnet", "Wovon hängt").
const VERB_LAST = /\s(?:say|says|said|show|shows|showed|found|finds|cleans|does|did|is|are|was|were|can|will|should|would|could|may|might|must|actually|really|growing|going|getting|rechnet|hängt|kostet|lohnt|ist|sind|gibt|est|sont|peut|faut|cuesta|hay)$/i;
// Where the templates put a topic into a question.
const TOPIC_SLOT = [
  /^What should I know about (.+)\?$/,
  /^What is (?:an? )?(.+)\?$/,
  /^Why use (?:an? )?(.+)\?$/,
  /^Why does (.+) matter\?$/,
  /^How does (?:an? )?(.+) work\?$/,
  /^Which (.+) should I choose\?$/,
  /^(.+): Was sollte ich wissen\?$/,
  /^(.+): Was ist das und wie funktioniert es\?$/,
  /^(.+) : que faut-il savoir \?$/,
  /^(.+) : de quoi s'agit-il \?$/,
  /^(.+): ¿qué hay que saber\?$/,
  /^(.+): ¿qué es y para qué sirve\?$/,
];

/** Why a topic is a fragment rather than something a person would name, or null. */
function fragment(topic: string, lang: string | undefined): string | null {
  const t = topic.trim();
  if (COUNT_FIRST.test(t)) return 'starts with a count';
  if (VERB_LAST.test(t)) return 'ends in a verb';
  // German nouns are capitalized: a topic ending in a lower-case word ends in a verb or adjective.
  if (lang === 'de' && /\s\p{Ll}[\p{L}-]*$/u.test(t)) return 'ends in a lower-case word';
  return null;
}

/** Every rule a text breaks, as readable strings (empty = clean). */
export function nonsense(texts: CheckedText[]): string[] {
  const out: string[] = [];
  for (const t of texts) {
    if (PLACEHOLDER.test(t.text)) out.push(`${t.kind}: placeholder in "${t.text.slice(0, 80)}"`);
    if (DOUBLED.test(t.text) && !/\b(\d+)\s+\1\b/.test(t.text)) out.push(`${t.kind}: doubled word in "${t.text.slice(0, 80)}"`);
    if ((t.kind === 'prompt' || t.kind === 'question') && t.lang && t.lang !== 'en' && ENGLISH_IN.test(t.text)) out.push(`${t.kind}: English inside a ${t.lang} text "${t.text}"`);
    if (t.kind === 'trend' && FURNITURE_TREND.test(t.text.trim())) out.push(`trend named "${t.text}"`);
    if ((t.kind === 'prompt' || t.kind === 'question') && ABOUT_NOTHING.test(t.text.trim())) out.push(`${t.kind} about no topic: "${t.text}"`);
    const topic = t.kind === 'trend' ? t.text : t.kind === 'prompt' || t.kind === 'question' ? TOPIC_SLOT.map((re) => re.exec(t.text.trim())?.[1]).find(Boolean) : undefined;
    const why = topic ? fragment(topic, t.lang) : null;
    if (why) out.push(`${t.kind}: "${topic}" is a fragment (${why}) in "${t.text.slice(0, 80)}"`);
  }
  return out;
}
