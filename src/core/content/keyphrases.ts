// Keyphrases, entities and topic clusters from a page (and its same-site pages). Keyphrases are
// RAKE-style: candidate phrases are runs of content words between stopwords and punctuation,
// weighted by where they occur (title and headings count more than body text). Entities come
// from compromise (English) and from JSON-LD names (any language). Hand-written because no
// maintained npm keyphrase library is multilingual; everything is sorted with explicit
// tie-breaks so the same input always gives the same output.
import { nlp } from './nlp.ts';
import { cmp, fold, stopwords, words, type Lang } from './text.ts';
import { jsonLdTypes, walkJsonLd } from '../pages/json-ld.ts';
import { everydayWordRank } from '../../text/everyday-words.ts';

export { jsonLdTypes, walkJsonLd };

export type Zone = 'title' | 'h1' | 'heading' | 'description' | 'body';
export interface WeightedText {
  text: string;
  zone: Zone;
  /** Multiplier for the whole text, e.g. 0.5 for a linked page rather than the page itself. */
  weight?: number;
  /** Which source this text belongs to (0 = the page itself). */
  source?: number;
}

export interface Keyphrase {
  phrase: string; // display form (most frequent surface form)
  key: string; // folded tokens joined by one space
  tokens: string[];
  score: number; // rounded to 2 decimals
  count: number;
  zones: Zone[];
  sources: number[];
}

export interface Entity {
  name: string;
  type: 'person' | 'organization' | 'place' | 'product' | 'brand';
  count: number;
}

export interface TopicCluster {
  name: string; // label: the strongest member phrase
  weight: number;
  phrases: string[]; // member keys, strongest first
}

const ZONE_WEIGHT: Record<Zone, number> = { title: 4, h1: 4, heading: 2.5, description: 2, body: 1 };
const LENGTH_BONUS = [0, 1, 1.7, 2.1];
const CHUNK_SPLIT = /[.,;:!?()[\]{}"“”„«»|•·/\\–—…]+|\s-\s|\n/;

interface Acc {
  key: string;
  tokens: string[];
  score: number;
  count: number;
  zones: Set<Zone>;
  sources: Set<number>;
  surfaces: Map<string, number>;
}

function isContentWord(w: string, stop: Set<string>): boolean {
  const lw = w.toLowerCase().replace(/’/g, "'");
  if (lw.length < 3) return false;
  if (!/\p{L}/u.test(lw)) return false; // pure numbers
  if (/^\p{N}/u.test(lw) && !/^\p{N}+[a-z]{1,2}$/u.test(lw)) return false;
  if (lw.includes("'")) return false; // contractions: don't, it's
  if (/-(il|elle|on|ils|elles)$/.test(lw)) return false; // French inversions: suffit-il
  return !stop.has(lw);
}

/** English words that compromise tags only as verbs or adverbs in this text ("choose",
 * "does"): they never head a topic. A word also used as a noun ("cost") is kept. */
function englishNonTopicWords(texts: WeightedText[]): Set<string> {
  const joined = texts.map((t) => t.text).join('\n').slice(0, 80_000);
  const counts = new Map<string, { topic: number; other: number }>();
  const terms = nlp(joined).terms().json() as { terms: { normal: string; tags: string[] }[] }[];
  for (const t of terms) {
    for (const term of t.terms) {
      const w = term.normal;
      let c = counts.get(w);
      if (!c) counts.set(w, (c = { topic: 0, other: 0 }));
      if (term.tags.includes('Noun') || term.tags.includes('Adjective') || term.tags.includes('Acronym')) c.topic++;
      else if (term.tags.includes('Verb') || term.tags.includes('Adverb')) c.other++;
    }
  }
  const out = new Set<string>();
  for (const [w, c] of counts) if (c.other > 0 && c.topic === 0) out.add(w);
  return out;
}

export function extractKeyphrases(texts: WeightedText[], lang: Lang, limit = 30): Keyphrase[] {
  let stop = stopwords(lang);
  if (lang === 'en') stop = new Set([...stop, ...englishNonTopicWords(texts)]);
  const acc = new Map<string, Acc>();
  const midCaps = midSentenceCapitals(texts);
  for (const t of texts) {
    const zoneWeight = ZONE_WEIGHT[t.zone] * (t.weight ?? 1);
    const source = t.source ?? 0;
    for (const chunk of t.text.split(CHUNK_SPLIT)) {
      const ws = words(chunk);
      let run: string[] = [];
      const flush = () => {
        for (let n = 1; n <= 3; n++) {
          for (let i = 0; i + n <= run.length; i++) {
            const surface = run.slice(i, i + n);
            const tokens = surface.map((w) => fold(w, lang));
            const key = tokens.join(' ');
            let a = acc.get(key);
            if (!a) {
              a = { key, tokens, score: 0, count: 0, zones: new Set(), sources: new Set(), surfaces: new Map() };
              acc.set(key, a);
            }
            a.score += zoneWeight * LENGTH_BONUS[n]!;
            a.count += 1;
            a.zones.add(t.zone);
            a.sources.add(source);
            const s = surface.join(' ');
            a.surfaces.set(s, (a.surfaces.get(s) ?? 0) + 1);
          }
        }
        run = [];
      };
      for (const w of ws) {
        if (isContentWord(w, stop)) run.push(w);
        else flush();
      }
      flush();
    }
  }

  // A candidate counts if it repeats or sits in the title/headings.
  let cands = [...acc.values()].filter(
    (a) => a.count >= 2 || a.zones.has('title') || a.zones.has('h1') || a.zones.has('heading'),
  );
  // Drop phrases that mostly occur inside a longer candidate ("management" inside
  // "project management"), and long phrases seen once (accidental word runs).
  cands = cands.filter((a) => !(a.tokens.length === 3 && a.count < 2));
  const byKey = new Map(cands.map((a) => [a.key, a]));
  cands = cands.filter((a) => {
    for (const b of cands) {
      if (b.tokens.length <= a.tokens.length) continue;
      if (!(' ' + b.key + ' ').includes(' ' + a.key + ' ')) continue;
      if (b.count >= 0.6 * a.count) return false;
    }
    return true;
  });
  void byKey;
  cands.sort((x, y) => y.score - x.score || y.count - x.count || cmp(x.key, y.key));
  return cands.slice(0, limit).map((a) => ({
    phrase: pickSurface(a.surfaces, lang, midCaps),
    key: a.key,
    tokens: a.tokens,
    score: Math.round(a.score * 100) / 100,
    count: a.count,
    zones: [...a.zones].sort(cmp),
    sources: [...a.sources].sort((p, q) => p - q),
  }));
}

function pickSurface(surfaces: Map<string, number>, lang: Lang, midCaps: Set<string>): string {
  // Most frequent surface; lower case unless it is an acronym or mixed-case name ("QuickBooks"),
  // or a word consistently capitalized that the prose also capitalizes in mid-sentence or that is
  // no everyday word of the language (brand names: "Xero" opening every item keeps its capital):
  // the capital of a list item's or sentence's first everyday word ("Deadline") is not the word's.
  // Ties broken alphabetically for determinism.
  const entries = [...surfaces.entries()].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
  const best = entries[0]![0];
  if (lang === 'de') return best; // German nouns are capitalized: keep the written form
  return best
    .split(' ')
    .map((w) => (/^\p{Lu}[\p{Lu}\p{N}]+$|\p{Ll}\p{Lu}/u.test(w) ? w : allCapitalized(w, surfaces) && (midCaps.has(w) || everydayWordRank(w, lang) === null) ? w : w.toLowerCase()))
    .join(' ');
}

/** Capitalized words the body text writes in mid-sentence: not after a sentence's end, a line
 * break or a bullet. Headings and titles are left out: they are often in title case. */
function midSentenceCapitals(texts: WeightedText[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) {
    if (t.zone !== 'body' && t.zone !== 'description') continue;
    for (const m of t.text.matchAll(/\p{Lu}[\p{L}\p{N}'’-]*/gu)) {
      let i = m.index! - 1;
      if (i >= 0 && /[\p{L}\p{N}]/u.test(t.text[i]!)) continue; // inside a word ("iPhone")
      while (i >= 0 && /[ \t\u00a0"“”‘’'([*•·–—-]/u.test(t.text[i]!)) i--;
      if (i >= 0 && !/[.!?:;\r\n|]/.test(t.text[i]!)) out.add(m[0].replace(/['’-]+$/, ''));
    }
  }
  return out;
}

function allCapitalized(word: string, surfaces: Map<string, number>): boolean {
  if (!/^\p{Lu}/u.test(word)) return false;
  let seenLower = false;
  for (const s of surfaces.keys()) if (s.split(' ').some((w) => w === word.toLowerCase())) seenLower = true;
  let seen = 0;
  for (const n of surfaces.values()) seen += n;
  return !seenLower && seen > 1;
}

/** Does `text` mention the keyphrase (all its folded tokens, in order, adjacent)? Counts occurrences. */
export function countPhrase(text: string, tokens: string[], lang: Lang): number {
  if (!tokens.length) return 0;
  const ws = words(text).map((w) => fold(w, lang));
  let n = 0;
  for (let i = 0; i + tokens.length <= ws.length; i++) {
    let ok = true;
    for (let j = 0; j < tokens.length; j++) {
      if (ws[i + j] !== tokens[j]) {
        ok = false;
        break;
      }
    }
    if (ok) n++;
  }
  return n;
}

/** Folded content tokens of a free-text phrase (for supplied trend names). */
export function phraseTokens(phrase: string, lang: Lang): string[] {
  const stop = stopwords(lang);
  return words(phrase)
    .filter((w) => isContentWord(w, stop) || /^\p{Lu}{2,}$/u.test(w))
    .map((w) => fold(w, lang));
}

/** Group keyphrases into topics: a phrase joins the first (strongest) cluster whose label shares
 * at least half of the shorter phrase's tokens. */
export function clusterTopics(phrases: Keyphrase[], maxClusters = 12): TopicCluster[] {
  const clusters: { label: Keyphrase; members: Keyphrase[]; weight: number }[] = [];
  for (const p of phrases) {
    let home = null;
    for (const c of clusters) {
      const shared = p.tokens.filter((t) => c.label.tokens.includes(t)).length;
      if (shared > 0 && shared >= Math.min(p.tokens.length, c.label.tokens.length) / 2) {
        home = c;
        break;
      }
    }
    if (home) {
      home.members.push(p);
      home.weight += p.score;
    } else if (clusters.length < maxClusters) {
      clusters.push({ label: p, members: [p], weight: p.score });
    }
  }
  return clusters
    .map((c) => ({ name: c.label.phrase, weight: Math.round(c.weight * 100) / 100, phrases: c.members.map((m) => m.key) }))
    .sort((a, b) => b.weight - a.weight || cmp(a.name, b.name));
}

const ENTITY_TYPES: Record<string, Entity['type']> = {
  organization: 'organization', corporation: 'organization', localbusiness: 'organization', ngo: 'organization',
  educationalorganization: 'organization', store: 'organization', onlinestore: 'organization',
  person: 'person', place: 'place', city: 'place', country: 'place', product: 'product',
  softwareapplication: 'product', brand: 'brand', service: 'product',
};

// Nouns that say the name before or after them is a product: "Drake software", "the Drake app".
const PRODUCT_NOUN = /^(?:software|app|apps|application|applications|tool|tools|platform|platforms|suite|suites|program|programs|package|packages|plugin|plugins|integration|integrations|edition|editions|version|versions|release|plan|plans|license|licence|subscription|product|products|desktop|cloud|saas|erp|crm|system|systems|solution|solutions|module|modules|api|extension|extensions|device|devices|model|models)$/i;
// Words that say the name is a person's: speech, roles, pronouns, titles.
const PERSON_CUE = /^(?:said|says|told|tells|explained|explains|wrote|writes|thinks|recalls|founder|ceo|cto|cfo|director|manager|partner|owner|who|whom|he|she|his|her|him|mr|mrs|ms|dr|prof)$/i;

/**
 * Is a name compromise takes for a person's written as a product's on this page? For a one-word
 * name ("Drake"), each use is weighed: a product noun within two words of it, or a place in a
 * series of other names that are not people ("Drake, Lacerte, UltraTax or ProSeries"), against
 * a person's cue (said, founder, he, her…). A full name ("Maria Lopez") stays a person.
 */
function namesProduct(name: string, text: string): boolean {
  const n = name.trim().replace(/[^\p{L}\p{N}'’ -]/gu, '');
  if (!n || /\s/.test(n)) return false;
  let product = 0;
  let person = 0;
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    const ws = sentence.split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
    for (let i = 0; i < ws.length; i++) {
      if (ws[i] !== n) continue;
      const near = [...ws.slice(Math.max(0, i - 2), i), ...ws.slice(i + 1, i + 3)];
      if (near.some((w) => PERSON_CUE.test(w))) person++;
      else if (near.some((w) => PRODUCT_NOUN.test(w)) || inSeriesOfThings(n, sentence)) product++;
    }
  }
  return product > 0 && product >= person;
}

/** Is the name one item of a series of three or more short names, some of them not people's? */
function inSeriesOfThings(name: string, sentence: string): boolean {
  const items = sentence.split(/[,;:]|\s(?:and|or)\s/).map((x) => x.trim().replace(/[.!?]+$/, ''));
  const named = items.filter((x) => /^\p{Lu}[\p{L}\p{N}'’-]*(?:\s\p{Lu}[\p{L}\p{N}'’-]*)?$/u.test(x));
  if (named.length < 3 || !named.some((x) => x.split(/\s/)[0] === name)) return false;
  return named.some((x) => x.split(/\s/)[0] !== name && !(nlp(x).people().out('array') as string[]).length);
}

/** Named entities: JSON-LD names of organizations, people, products and brands (any language),
 * plus compromise's people/organizations/places for English text. */
export function extractEntities(text: string, jsonLd: unknown[], lang: Lang): Entity[] {
  const found = new Map<string, Entity>();
  const add = (name: string, type: Entity['type'], count = 1) => {
    const clean = name.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/\s+/g, ' ').trim();
    if (clean.length < 2 || clean.length > 60) return;
    const k = clean.toLowerCase();
    const e = found.get(k);
    if (e) e.count += count;
    else found.set(k, { name: clean, type, count });
  };
  for (const node of walkJsonLd(jsonLd)) {
    const types = ([] as unknown[]).concat(node['@type'] ?? []).map((t) => String(t).toLowerCase());
    const name = typeof node.name === 'string' ? node.name : null;
    if (!name) continue;
    for (const t of types) {
      const et = ENTITY_TYPES[t];
      if (et) {
        add(name, et);
        break;
      }
    }
  }
  if (lang === 'en' && text) {
    const doc = nlp(text.slice(0, 60_000));
    const take = (arr: string[], type: Entity['type']) => {
      for (const s of arr) if (/^\p{Lu}/u.test(s.trim())) add(s, type);
    };
    // A given name is also a product's ("Drake" tax software): where the page writes it as one,
    // the context decides, not the list of names compromise knows.
    const people = doc.people().out('array') as string[];
    const products = new Set(people.filter((n) => namesProduct(n, text)));
    take(people.filter((n) => !products.has(n)), 'person');
    take(people.filter((n) => products.has(n)), 'product');
    // compromise guesses organizations from capitalization; a name also written in lower case
    // in the same text ("Project management") is a heading word, not a company.
    const lower = text.toLowerCase();
    const lowerCount = (n: string) => lower.split(n.toLowerCase()).length - 1;
    const inLower = (n: string) => text.split(n).length - 1 < lowerCount(n);
    take((doc.organizations().out('array') as string[]).filter((n) => !inLower(n.replace(/[^\p{L}\p{N} ]/gu, '').trim())), 'organization');
    take(doc.places().out('array') as string[], 'place');
  }
  return [...found.values()].sort((a, b) => b.count - a.count || cmp(a.name, b.name)).slice(0, 20);
}
