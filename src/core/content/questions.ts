// Questions people would type about a topic, in each supported language, and the filter that
// decides whether a phrase is a topic at all. The one thing to know: a template is only used
// with a word that fits it. Topics are noun phrases (no "not", "when", people's names, the site's
// own name); a secondary topic gets the one question a reader would ask of what the page says
// about it (why use it, how it works, which to choose, what it is); cost and "which is best"
// questions are only asked about things that are bought (a vendor's page, or a topic the page
// prices); and the German, French and Spanish templates are
// built so that no article or gender has to be guessed ("Was versteht man unter X?",
// "X : de quoi s'agit-il ?", "X: ¿qué es y para qué sirve?"). The page's own questions come first.
import { everydayWordRank } from '../../text/everyday-words.ts';
import pluralize from 'pluralize';
import type { PageDocument } from '../pages/document.ts';
import { nlp } from './nlp.ts';
import { isQuestion } from './signals.ts';
import { fold, stopwords, words, type Lang } from './text.ts';

export type QuestionIntent = 'informational' | 'commercial' | 'comparison' | 'navigational';

export interface TopicQuestion {
  question: string;
  intent: QuestionIntent;
}

/** Words that label page furniture or carry no topic on their own. */
const NOT_TOPICS = new Set([
  'source', 'sources', 'quelle', 'quellen', 'fuente', 'fuentes', 'not', 'when', 'where', 'what', 'which', 'user', 'users', 'none',
  'general', 'home', 'menu', 'reply', 'replies', 'comment', 'comments', 'share', 'updated', 'published', 'login', 'search', 'result',
  'results', 'page', 'click', 'link', 'links', 'image', 'photo', 'video', 'small', 'large', 'big', 'new', 'old', 'other', 'thing',
  'option', 'options', 'way', 'ways', 'part', 'kind', 'lot', 'bit', 'case', 'example', 'order', 'document', 'calls', 'call', 'team',
  'teams', 'company', 'companies', 'everything', 'something', 'anything', 'nothing', 'everyone', 'someone', 'data', 'unternehmen', 'firma', 'entreprise', 'empresa', 'measurable', 'objective', 'quarter',
]);
const PRICE_WORDS = /(?:[$€£¥]\s?\d|\d\s?(?:€|eur|usd)\b|\b(price|prices|pricing|cost|costs|plan|plans|per month|per user|subscription|preis|preise|kosten|kostet|tarif|prix|coût|coûte|tarifs|precio|precios|cuesta|coste)\b)/i;

export interface TopicContext {
  lang: Lang;
  /** Names that are not topics: the brand, the site name, people named on the page. */
  names: string[];
  /** Original text of the page (German nouns are recognised by their capital). */
  text: string;
}

/**
 * Words at least this common in everyday use (rank among the language's 10,000 most frequent
 * words, src/text/everyday-words.ts) are too vague alone to be one of a page's topics ("tool",
 * "business", "experts", "header"); see isVagueWord.
 */
const VAGUE_WORD_RANK = 5000;

/**
 * Is this a single everyday word, too vague to be a topic beside the page's main one? A page about
 * coffee has "coffee" as its main topic; beside "project management software", "tool" is noise.
 * Acronyms ("API", "CRM") and rarer words ("workspace", "webhooks") are specific enough.
 */
export function isVagueWord(phrase: string, lang: Lang): boolean {
  const p = phrase.trim();
  if (words(p).length !== 1 || /^\p{Lu}{2,}$/u.test(p)) return false;
  const rank = everydayWordRank(p, lang);
  return rank !== null && rank <= VAGUE_WORD_RANK;
}

/** Is this phrase a topic a person would ask about? */
export function isTopic(phrase: string, ctx: TopicContext): boolean {
  const p = phrase.trim();
  if (p.length < 3) return false;
  const lower = p.toLowerCase();
  if (ctx.names.some((n) => n && (lower === n.toLowerCase() || lower.includes(n.toLowerCase()) || n.toLowerCase().includes(lower)))) return false;
  const ws = words(p);
  if (!ws.length || ws.length > 5) return false;
  const stop = stopwords(ctx.lang);
  if (stop.has(ws[0]!.toLowerCase()) || stop.has(ws[ws.length - 1]!.toLowerCase())) return false;
  if (ws.length === 1) {
    if (NOT_TOPICS.has(lower) || NOT_TOPICS.has(fold(lower, ctx.lang))) return false;
    if (ctx.lang === 'en') {
      const t = nlp(p);
      return t.has('#Noun') && !t.has('#Adjective') && !t.has('#Adverb') && !t.has('#Verb') && !t.has('#Person');
    }
    if (ctx.lang === 'de') return new RegExp(`\\b${escape(p[0]!.toUpperCase() + p.slice(1))}\\b`, 'u').test(ctx.text);
    // French and Spanish adjectives do not head a topic ("automatiques", "rápido").
    if ((ctx.lang === 'fr' || ctx.lang === 'es' || ctx.lang === 'it' || ctx.lang === 'pt') && /(iques?|ables?|ibles?|eux|euses?|ives?|ifs?|ales?|aux|icos?|icas?|ivos?|ivas?|osos?|osas?)$/i.test(p)) return false;
    return p.length >= 6;
  }
  // "three days", "trois jours": a count, not a topic.
  if (NUMBER_WORDS.has(ws[0]!.toLowerCase())) return false;
  if (ctx.lang === 'en') {
    // "key result", "motor noise", "heat pump": ends in a noun, tagged as the phrase reads (alone,
    // "pump" is a verb), and not a verb where the page uses it ("a heat pump work[s]").
    const terms = nlp(p).terms().json() as { terms: { tags: string[] }[] }[];
    const last = terms.flatMap((t) => t.terms).at(-1);
    if (!last || !last.tags.includes('Noun') || last.tags.includes('Person')) return false;
    if (usedAsVerb(p, ctx.text)) return false;
  } else if (ctx.lang === 'de') {
    // A German topic ends in a noun, and German nouns are capitalized: "Anlage rechnet" and
    // "Wovon hängt" are a noun glued to a verb, not topics.
    if (!/^[\p{Lu}\p{N}]/u.test(ws[ws.length - 1]!)) return false;
  }
  if (ctx.lang !== 'de' && properName(ws, ctx.text)) return false;
  return !ws.every((w) => NOT_TOPICS.has(w.toLowerCase()));
}

const NUMBER_WORDS = new Set([
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'twelve', 'twenty', 'hundred',
  'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn',
  'deux', 'trois', 'quatre', 'cinq', 'sept', 'huit', 'neuf', 'dix',
  'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez',
]);

/** Does the page use the phrase's last word as a verb in most of the sentences it appears in? */
function usedAsVerb(phrase: string, text: string): boolean {
  const ws = words(phrase).map((w) => w.toLowerCase());
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${ws.map(escape).join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
  let verb = 0;
  let seen = 0;
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    if (seen >= 3) break;
    if (!re.test(sentence)) continue;
    seen++;
    const terms = (nlp(sentence).terms().json() as { terms: { normal: string; tags: string[] }[] }[]).flatMap((t) => t.terms);
    const at = terms.findIndex((_t, i) => ws.every((w, j) => terms[i + j]?.normal === w));
    const last = at >= 0 ? terms[at + ws.length - 1] : undefined;
    // "Does coffee count towards…", "Can a heat pump work in…": after an auxiliary, the word
    // that a preposition follows is the verb, whatever the tagger says.
    const asked = new RegExp(`^(?:does|do|did|can|will|would|should|could)\\s+(?:(?:a|an|the|your|my|our|their|this|that)\\s+)?${ws.map(escape).join('\\s+')}\\s+(?:towards?|to|on|in|with|for|at|into|about|from|by|out|up|over|well|better|best|more|less|too|all)\\b`, 'iu');
    if ((last && last.tags.includes('Verb') && !last.tags.includes('Noun')) || asked.test(sentence.trim())) verb++;
  }
  return seen > 0 && verb * 2 > seen;
}

/**
 * A phrase capitalized wherever the page writes it, at least once in mid-sentence, is a name
 * ("Nicholas Bloom", "Energy Saving Trust", "Stanford"), not a topic. Acronyms are topics ("SCOP").
 * Not for German, where every noun is capitalized.
 */
function properName(ws: string[], text: string): boolean {
  if (ws.length === 1 && /^[\p{Lu}\p{N}-]{2,}$/u.test(ws[0]!)) return false;
  const re = new RegExp(`(^|[^\\p{L}\\p{N}])(${ws.map(escape).join('\\s+')})(?![\\p{L}\\p{N}])`, 'giu');
  let midSentence = false;
  let found = 0;
  for (const m of text.matchAll(re)) {
    found++;
    if (!m[2]!.split(/\s+/).every((w) => /^\p{Lu}/u.test(w))) return false;
    const before = text.slice(Math.max(0, m.index! - 3), m.index! + m[1]!.length);
    if (!/(^|[.!?:]\s*|\n\s*)$/.test(before)) midSentence = true;
  }
  return found > 0 && midSentence;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Is the topic something bought: priced on the page, or sold by the site? */
export function isCommercial(topic: string, doc: PageDocument, vendor: boolean): boolean {
  if (vendor) return true;
  const tokens = words(topic).map((w) => w.toLowerCase());
  for (const b of doc.blocks) {
    const texts = b.kind === 'paragraph' || b.kind === 'quote' || b.kind === 'heading' ? [b.text] : b.kind === 'list' ? b.items : b.kind === 'table' ? b.rows.map((r) => r.join(' ')) : [];
    for (const t of texts) if (PRICE_WORDS.test(t) && tokens.every((k) => t.toLowerCase().includes(k))) return true;
  }
  return false;
}

/** English noun forms: "a standing desk" / "standing desks", or "project management software" for both. */
export function englishForms(topic: string, text?: string): { single: string; plural: string; mass: boolean } {
  const ws = topic.split(/\s+/);
  const head = ws[ws.length - 1]!;
  const lower = head.toLowerCase();
  // Acronyms and names with digits ("HTTPS", "GPT-4") are used as they are.
  if (/^[\p{Lu}\d-]{2,}s?$/u.test(head) || /\d/.test(head)) return { single: topic, plural: topic, mass: true };
  if (text) {
    // How the page itself uses the word decides: "a task", "tasks" → countable; "storage" only → mass.
    const sing = pluralize.singular(lower);
    const plur = pluralize.plural(sing);
    // Words between the article and the noun describe it ("a standing desk", "a 30-day rollout
    // plan"); a preposition
    // ends the phrase ("a day from water" is not "a water").
    const countable = new RegExp(`\\b(?:a|an|each|every|one|another)\\s+(?:(?!(?:of|from|in|on|for|to|with|by|at|per|and|or|than)\\s)[\\p{L}\\p{N}-]+\\s+){0,2}${escape(sing)}\\b|\\b${escape(plur)}\\b`, 'iu').test(text);
    // Neither "a portal" nor "portals": only a use with no determiner at all, in mid-sentence
    // ("we sell storage"), says mass; "our client portal" and "the client portal" say nothing,
    // and then the word's own grammar decides ("a client portal", "client portals").
    if (!countable && plur !== sing && (usedBare(sing, text) || uncountable(lower))) return { single: topic, plural: topic, mass: true };
  }
  const mass = pluralize.isPlural(lower) ? pluralize.singular(lower) === lower : pluralize.plural(lower) === lower;
  if (mass) return { single: topic, plural: topic, mass: true };
  const singularHead = pluralize.isPlural(lower) ? pluralize.singular(head) : head;
  const singular = [...ws.slice(0, -1), singularHead].join(' ');
  const article = /^[aeiou]/i.test(singular) && !/^(uni|use|eu)/i.test(singular) ? 'an' : 'a';
  return { single: `${article} ${singular}`, plural: [...ws.slice(0, -1), pluralize.plural(singularHead)].join(' '), mass: false };
}

const DETERMINER = /^(?:a|an|the|this|that|these|those|our|your|their|its|my|his|her|each|every|any|no|one|another|which|whose|what|some|per|[\p{L}\p{N}]+['’]s)$/iu;

/**
 * Does the text use the noun with no determiner, in mid-sentence ("we sell storage by the
 * gigabyte")? A determiner up to four words before governs it ("our secure, encrypted client
 * portal"); a line's first word or two (headings and list items drop articles) say nothing.
 */
function usedBare(noun: string, text: string): boolean {
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escape(noun)}(?![\\p{L}\\p{N}'’-])`, 'giu');
  for (const line of text.split(/(?<=[.!?:;])\s+|\n+/)) {
    for (const m of line.matchAll(re)) {
      const before = line.slice(0, m.index).trim().split(/\s+/).filter(Boolean);
      if (before.length < 2) continue;
      if (before.slice(-4).some((w) => DETERMINER.test(w.replace(/[^\p{L}\p{N}'’]/gu, '')))) continue;
      // A noun before another content word describes it ("client portal features"): not its use.
      const after = line.slice(m.index! + m[0].length).match(/^\s+([\p{L}\p{N}'’-]+)/u)?.[1];
      if (after && !stopwords('en').has(after.toLowerCase())) continue;
      return true;
    }
  }
  return false;
}

/** A word compromise's lexicon knows as uncountable ("advice", "equipment"). */
function uncountable(word: string): boolean {
  return nlp(word).has('#Uncountable');
}

/**
 * The question a reader would ask about a secondary topic, chosen by what the page says of it:
 * what it does for them ("lets", "saves", "helps" → why use it), how it works ("set up",
 * "steps" → how), which to pick ("choose", "compare", "best" → which), else what it is.
 */
function readerQuestion(topic: string, f: { single: string; plural: string; mass: boolean }, text: string): string {
  const tokens = words(topic).map((w) => w.toLowerCase());
  const cues = { why: 0, how: 0, which: 0 };
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    const lower = sentence.toLowerCase();
    if (!tokens.every((t) => lower.includes(t))) continue;
    if (/\b(?:lets?|allows?|helps?|saves?|keeps?|reduces?|cuts?|protects?|prevents?|avoids?|improves?|because|so that|benefits?)\b/.test(lower)) cues.why++;
    if (/\b(?:how|works?|steps?|set ?up|setting up|install|configure|connects?)\b/.test(lower)) cues.how++;
    if (/\b(?:choose|choosing|compare|comparing|best|types?|kinds?|vs\.?|versus)\b/.test(lower)) cues.which++;
  }
  const top = Math.max(cues.why, cues.how, cues.which);
  const bare = f.single.replace(/^an? /, '');
  if (top > 0 && cues.why === top) return f.mass ? `Why does ${topic} matter?` : `Why use ${f.single}?`;
  // "How does client work work?": a topic that is itself work is asked what it is.
  if (top > 0 && cues.how === top && !/^work/i.test(tokens.at(-1) ?? '')) return `How does ${f.mass ? topic : f.single} work?`;
  if (top > 0 && cues.which === top) return `Which ${f.mass ? topic : bare} should I choose?`;
  return `What is ${f.mass ? topic : f.single}?`;
}

/** The questions of one topic: the page's own first, then the templates that fit it. */
export function topicQuestions(
  topic: string,
  opts: { lang: Lang; commercial: boolean; other?: string | null; pageQuestions?: string[]; main?: boolean; text?: string },
): TopicQuestion[] {
  const out: TopicQuestion[] = [];
  const seen = new Set<string>();
  const push = (question: string, intent: QuestionIntent) => {
    const k = question.toLowerCase();
    if (!seen.has(k)) (seen.add(k), out.push({ question, intent }));
  };
  const tokens = words(topic).map((w) => w.toLowerCase());
  for (const q of opts.pageQuestions ?? []) {
    const lower = q.toLowerCase();
    if (tokens.every((t) => lower.includes(t))) push(q.trim(), PRICE_WORDS.test(q) ? 'commercial' : / vs\.? | or | oder | ou | o /i.test(q) ? 'comparison' : 'informational');
  }
  const other = opts.commercial ? opts.other ?? null : null;
  // A secondary topic gets the page's own questions and one open question; the "what is / how
  // does it work / what does it cost" templates are for the page's main topic only, where they fit.
  const main = opts.main ?? true;
  switch (opts.lang) {
    case 'en': {
      const f = englishForms(topic, opts.text);
      if (!main) {
        push(readerQuestion(topic, f, opts.text ?? ''), 'informational');
        break;
      }
      push(f.mass ? `What is ${topic}?` : `What is ${f.single}?`, 'informational');
      if (opts.commercial) {
        push(`How do I choose the right ${f.mass ? topic : f.single.replace(/^an? /, '')}?`, 'commercial');
        push(f.mass ? `How much does ${topic} cost?` : `How much does ${f.single} cost?`, 'commercial');
        if (other) push(`${cap(topic)} or ${other}: which is better?`, 'comparison');
      }
      break;
    }
    case 'de':
      // Colon forms: no case or article has to be guessed for the noun.
      if (!main) {
        push(`${cap(topic)}: Was sollte ich wissen?`, 'informational');
        break;
      }
      push(`${cap(topic)}: Was ist das und wie funktioniert es?`, 'informational');
      if (opts.commercial) {
        push(`${cap(topic)}: Worauf sollte ich bei der Auswahl achten?`, 'commercial');
        push(`${cap(topic)}: Mit welchen Kosten muss ich rechnen?`, 'commercial');
        if (other) push(`${cap(topic)} oder ${other}: Was ist besser?`, 'comparison');
      }
      break;
    case 'fr':
      if (!main) {
        push(`${cap(topic)} : que faut-il savoir ?`, 'informational');
        break;
      }
      push(`${cap(topic)} : de quoi s'agit-il ?`, 'informational');
      if (opts.commercial) {
        push(`${cap(topic)} : comment bien choisir ?`, 'commercial');
        push(`${cap(topic)} : combien ça coûte ?`, 'commercial');
        if (other) push(`${cap(topic)} ou ${other} : que choisir ?`, 'comparison');
      }
      break;
    case 'es':
      if (!main) {
        push(`${cap(topic)}: ¿qué hay que saber?`, 'informational');
        break;
      }
      push(`${cap(topic)}: ¿qué es y para qué sirve?`, 'informational');
      if (opts.commercial) {
        push(`${cap(topic)}: ¿cómo elegir bien?`, 'commercial');
        push(`${cap(topic)}: ¿cuánto cuesta?`, 'commercial');
        if (other) push(`${cap(topic)} o ${other}: ¿cuál elegir?`, 'comparison');
      }
      break;
    default:
      // Italian, Dutch, Portuguese: only the page's own questions; no template we could not check.
      break;
  }
  return out;
}

/** Question-style headings of the page (H2–H4): what its author already answers. */
export function pageQuestions(doc: PageDocument, lang: Lang): string[] {
  return doc.headings.filter((h) => h.level >= 2 && h.level <= 4 && h.text.trim().endsWith('?') && isQuestion(h.text, lang)).map((h) => h.text.trim());
}

/** Does the site sell something (vs a publisher, forum or reference site)? */
export function isVendor(docs: PageDocument[], types: string[][]): boolean {
  const sold = /^(Product|ProductGroup|Offer|AggregateOffer|Service|SoftwareApplication|WebApplication|LocalBusiness|Store|OnlineStore|ProfessionalService)$/;
  if (types.some((ts) => ts.some((t) => sold.test(t)))) return true;
  for (const d of docs) {
    for (const l of d.links.all) {
      try {
        if (/^\/(pricing|preise|tarifs|precios|plans|products?|shop|store|cart|checkout|buy|demo|services?|leistungen)(\/|$)/i.test(new URL(l.href).pathname)) return true;
      } catch {
        /* not a URL */
      }
    }
  }
  return false;
}

export function cap(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}
