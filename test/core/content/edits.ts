// Edits that do not change what a page says: a colon or semicolon turned into a full stop,
// doubled spaces and line breaks, a comma dropped, one word replaced by a synonym in one
// sentence. Applied to the text of the page's paragraphs and list items only (never inside a
// tag), they let a test or bench score a page before and after and bound how far the score moves.
// Used by test/core/content/stability.test.ts and `npm run bench:content`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crawlFactsFor } from '../../../src/core/content/access.ts';
import { scoreDocument } from '../../../src/core/content/score.ts';
import { loadSite } from '../../../src/core/content/site.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { FIXTURES, fixtureLoader } from './fixture-loader.ts';

export interface Edit {
  kind: 'punctuation' | 'whitespace' | 'synonym';
  name: string;
  apply(html: string): string;
}

/** One word and its synonym, both ways, per language; each pair keeps the sentence's meaning. */
const SYNONYMS: Record<string, [string, string][]> = {
  en: [['about', 'roughly'], ['often', 'frequently'], ['choose', 'pick'], ['large', 'big'], ['usually', 'typically'], ['buy', 'purchase'], ['help', 'assist'], ['important', 'essential'], ['quickly', 'fast'], ['start', 'begin'], ['shows', 'indicates'], ['most', 'the majority of']],
  de: [['oft', 'häufig'], ['wichtig', 'bedeutend'], ['etwa', 'rund'], ['schnell', 'rasch'], ['meist', 'meistens'], ['beginnen', 'anfangen']],
  fr: [['souvent', 'fréquemment'], ['important', 'essentiel'], ['environ', 'à peu près'], ['choisir', 'sélectionner'], ['rapidement', 'vite']],
  es: [['a menudo', 'con frecuencia'], ['importante', 'esencial'], ['aproximadamente', 'alrededor de'], ['elegir', 'escoger'], ['rápidamente', 'deprisa']],
};

// A colon between words; the full stop that replaces it starts a new sentence with a capital.
const COLON = /(\S) ?: (\S)/gu;
const stop = (_m: string, before: string, after: string) => `${before}. ${after.toUpperCase()}`;

/** Replace in the text of <p> and <li> elements only, leaving tags and attributes alone. */
function inText(html: string, edit: (text: string, state: { done: boolean }) => string): string {
  const state = { done: false };
  return html.replace(/<(p|li)(\s[^>]*)?>([\s\S]*?)<\/\1>/g, (_m, tag: string, attrs: string | undefined, inner: string) => {
    const out = inner.split(/(<[^>]+>)/).map((part) => (part.startsWith('<') ? part : edit(part, state))).join('');
    return `<${tag}${attrs ?? ''}>${out}</${tag}>`;
  });
}

/** Every meaning-preserving edit this module knows, for a page in `lang`; `synonyms` caps how many single-word swaps. */
export function meaningPreservingEdits(html: string, lang = 'en', synonyms = 6): Edit[] {
  const edits: Edit[] = [
    { kind: 'punctuation', name: '": " → ". " everywhere', apply: (h) => inText(h, (t) => t.replace(COLON, stop)) },
    { kind: 'punctuation', name: 'first ": " → ". "', apply: (h) => inText(h, (t, s) => (s.done || !COLON.test(t) ? t : ((s.done = true), t.replace(new RegExp(COLON.source, 'u'), stop)))) },
    { kind: 'punctuation', name: '"; " → ". "', apply: (h) => inText(h, (t) => t.replace(/(\S); (\S)/gu, stop)) },
    { kind: 'punctuation', name: 'first comma dropped', apply: (h) => inText(h, (t, s) => (s.done || !t.includes(', ') ? t : ((s.done = true), t.replace(', ', ' ')))) },
    { kind: 'whitespace', name: 'doubled spaces', apply: (h) => inText(h, (t) => t.replace(/ /g, '  ')) },
    { kind: 'whitespace', name: 'line breaks between words', apply: (h) => inText(h, (t) => t.replace(/ (?=\p{Ll})/gu, '\n  ')) },
  ];
  let found = 0;
  for (const [a, b] of SYNONYMS[lang] ?? SYNONYMS.en!) {
    for (const [from, to] of [[a, b], [b, a]] as const) {
      if (found >= synonyms) break;
      const re = new RegExp(`(?<![\\p{L}\\p{N}])${from}(?![\\p{L}\\p{N}])`, 'u');
      // Only where it occurs in paragraph or list text.
      let occurs = false;
      inText(html, (t) => ((occurs ||= re.test(t)), t));
      if (!occurs) continue;
      found++;
      edits.push({ kind: 'synonym', name: `"${from}" → "${to}" once`, apply: (h) => inText(h, (t, s) => (s.done || !re.test(t) ? t : ((s.done = true), t.replace(re, to)))) });
    }
  }
  return edits;
}

export function fixtureHtml(url: string): string | null {
  const u = new URL(url);
  const file = [join(FIXTURES, 'sites', u.hostname, u.pathname + '.html'), join(FIXTURES, 'sites', u.hostname, u.pathname, 'index.html')].find(existsSync);
  return file ? readFileSync(file, 'utf8') : null;
}

export interface Moves {
  base: number;
  moves: { edit: Edit; score: number; delta: number }[];
}

/** The page's score, and its score after each meaning-preserving edit (the site around it unchanged). */
export async function scoreUnderEdits(url: string, now: Date, lang = 'en', synonyms = 6, kinds?: Edit['kind'][]): Promise<Moves> {
  const loader = fixtureLoader();
  const site = await loadSite(url, loader, 3);
  const crawl = await crawlFactsFor(site.page, loader);
  const html = fixtureHtml(url);
  if (!html) throw new Error(`no fixture for ${url}`);
  const score = (doc: typeof site.page.document) =>
    scoreDocument(doc, { headers: site.page.headers, now, language: lang, related: site.related.map((p) => p.document), trendSource: 'discovered', crawl }).overall_score;
  const base = score(site.page.document);
  const moves: Moves['moves'] = [];
  for (const edit of meaningPreservingEdits(html, lang, synonyms)) {
    if (kinds && !kinds.includes(edit.kind)) continue;
    const s = score(extractPage(edit.apply(html), url));
    moves.push({ edit, score: s, delta: s - base });
  }
  return { base, moves };
}
