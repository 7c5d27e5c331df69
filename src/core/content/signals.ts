// Measures the raw, offline signals of one extracted page: metadata, structure, readability,
// freshness, AI-citability (answer-first, statistics, quotations, sources, definitions,
// schema, author) and page type. Pure: a PageDocument (plus response headers and a clock)
// in, plain data out. The thing to know: "now" is an input, so results are reproducible.
import type { Block, PageDocument } from '../pages/document.ts';
import { extractEntities, extractKeyphrases, clusterTopics, jsonLdTypes, walkJsonLd, type WeightedText } from './keyphrases.ts';
import { measureReadability } from './readability.ts';
import { cmp, countMatches, fold, normalizeLang, sentences, stopwords, words, type Lang } from './text.ts';
import type { PageSignals } from './types.ts';
import { measureEvidence } from './evidence.ts';
import { pageDates } from './page-dates.ts';
import { detectPageType } from '../pages/page-kind.ts';
import { hostOf } from '../../lib/url.ts';

export type { PageSignals };

export interface SignalOptions {
  headers?: Record<string, string>;
  now?: Date;
  language?: string | null;
}

const DAY = 86_400_000;
/** 0 at or below `from`, 1 at or above `to`, linear between. */
const ramp = (n: number, from: number, to: number) => Math.max(0, Math.min(1, (n - from) / (to - from)));
/** The first statement of a text: up to the first full stop, colon or semicolon (whatever case
 * follows), so that a colon turned into a full stop, or back, measures the same statement. */
const firstClause = (text: string) => text.trim().split(/\s?[.!?…:;](?=\s)/u)[0] ?? '';
const paragraphs = (blocks: Block[]) => blocks.filter((b): b is Extract<Block, { kind: 'paragraph' }> => b.kind === 'paragraph');
const wc = (s: string) => words(s).length;

/** Weighted texts of one page for keyphrase extraction. */
export function pageTexts(doc: PageDocument, source = 0, weight = 1): WeightedText[] {
  const out: WeightedText[] = [];
  if (doc.title) out.push({ text: stripSiteName(doc.title), zone: 'title', source, weight });
  if (doc.description) out.push({ text: doc.description, zone: 'description', source, weight });
  for (const b of doc.blocks) {
    if (b.kind === 'heading') out.push({ text: b.text, zone: b.level === 1 ? 'h1' : 'heading', source, weight });
    else if (b.kind === 'paragraph' || b.kind === 'quote') out.push({ text: b.text, zone: 'body', source, weight });
    else if (b.kind === 'list') for (const it of b.items) out.push({ text: it, zone: 'body', source, weight });
    else if (b.kind === 'table') for (const r of b.rows) out.push({ text: r.join(' . '), zone: 'body', source, weight });
  }
  return out;
}

/** "Pricing | Acme" → "Pricing": the site name repeats on every page and is not a topic. */
export const TITLE_SEPARATOR = /\s+[|–—·•]\s+|\s+-\s+/;
export function stripSiteName(title: string): string {
  const parts = title.split(TITLE_SEPARATOR);
  return parts.length > 1 ? parts.slice(0, -1).join(' ') : title;
}

// Titles a CMS or template gives a page that names nothing it offers, in the supported languages.
const GENERIC_TITLE = /^(?:home(?: ?page)?|welcome(?: to .+)?|untitled(?: (?:page|document))?|index|page|new page|default|start(?:seite)?|willkommen|accueil|bienvenue|inicio|bienvenid[oa]s?|pagina iniziale|benvenut[oi]|página inicial)$/i;

/** Is the title generic ("Home", "Welcome", "Untitled", "Index | Acme"): all it names, besides
 * at most the site, is a word any page could carry? */
export function isGenericTitle(title: string | null | undefined): boolean {
  const parts = (title ?? '').split(TITLE_SEPARATOR).map((p) => p.trim().replace(/[.!:]+$/, '')).filter(Boolean);
  const generic = parts.filter((p) => GENERIC_TITLE.test(p));
  return generic.length > 0 && parts.length - generic.length <= 1;
}

const QUESTION_START: Record<Lang, RegExp> = {
  en: /^(what|how|why|when|where|which|who|can|does|do|is|are|should|will)\b/i,
  de: /^(was|wie|warum|wann|wo|welche[rsmn]?|wer|kann|können|ist|sind|gibt)\b/i,
  fr: /^(qu['’]|que|quoi|comment|pourquoi|quand|où|quel(le)?s?|qui|est-ce|peut-on|combien)\b/i,
  es: /^(¿|qué|cómo|por qué|cuándo|dónde|cuál(es)?|quién|puedo|es|son|cuánto)/i,
  it: /^(cosa|come|perché|quando|dove|quale|chi)\b/i,
  nl: /^(wat|hoe|waarom|wanneer|waar|welke|wie)\b/i,
  pt: /^(o que|como|por que|quando|onde|qual|quem)\b/i,
};
const FAQ_HEADING = /\b(faq|faqs|frequently asked|common questions)\b|häufig gestellte|häufige fragen|questions fréquentes|foire aux questions|preguntas frecuentes/i;
const FILLER_OPENER = /^(welcome|hello|hi\b|in (this|today['’]s) (post|article|guide|blog)|have you ever|are you looking|we are (excited|happy|thrilled)|let['’]s|before we (start|begin)|herzlich willkommen|willkommen|bienvenue|bienvenido)/i;

export function isQuestion(text: string, lang: Lang): boolean {
  const t = text.trim();
  return t.endsWith('?') || QUESTION_START[lang].test(t);
}

const STAT_RE = [
  /\d+(?:[.,]\d+)?\s?(?:%|percent|prozent|pour ?cent|por ciento)/i,
  /(?:[$€£¥]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|(?:eur|usd|dollars?|euros?)\b))/i,
  /\d+(?:[.,]\d+)?\s?(?:million|billion|thousand|millionen|milliarden|millions?|milliards?|millones|mil millones)\b/i,
  /\b\d+\s?(?:x|times|mal|fois|veces)\s+(?:faster|more|higher|lower|schneller|mehr|plus|más)\b/i,
  /\b\d+ (?:out of|of every|von|sur|de cada) \d+\b/i,
];
const ATTRIBUTION = /\b(said|says|according to|explains|notes|told|laut|sagt|erklärt|selon|affirme|explique|según|afirma|explica)\b/i;
const SOURCE_MENTION = /\b(according to|source:|sources:|study by|report by|survey by|laut|quelle:|selon|source :|según|fuente:)/i;
const DEFINITION: Record<Lang, RegExp> = {
  en: /^(?:an? |the )?[\p{L}\p{N}][\p{L}\p{N}\- ]{1,50}? (?:is|are) (?:an?|the) /iu,
  de: /^(?:ein(?:e)? |der |die |das )?[\p{L}\p{N}][\p{L}\p{N}\- ]{1,50}? (?:ist|sind) (?:ein(?:e)?|der|die|das) /iu,
  fr: /^(?:une? |le |la |l['’]|les )?[\p{L}\p{N}][\p{L}\p{N}\-' ]{1,50}? (?:est|sont) (?:une?|le|la|des) /iu,
  es: /^(?:una? |el |la |los |las )?[\p{L}\p{N}][\p{L}\p{N}\- ]{1,50}? (?:es|son) (?:una?|el|la) /iu,
  it: /^[\p{L}\p{N}][\p{L}\p{N}\- ]{1,50}? (?:è|sono) (?:una?|il|la) /iu,
  nl: /^[\p{L}\p{N}][\p{L}\p{N}\- ]{1,50}? (?:is|zijn) (?:een|de|het) /iu,
  pt: /^[\p{L}\p{N}][\p{L}\p{N}\- ]{1,50}? (?:é|são) (?:uma?|o|a) /iu,
};
const REFERS = /\b(refers to|is defined as|means|bezeichnet|versteht man|désigne|se définit|se refiere a|se define como)\b/i;

const MONTHS: Record<string, number> = {
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
  jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  januar: 1, februar: 2, märz: 3, mai: 5, juni: 6, juli: 7, oktober: 10, dezember: 12,
  janvier: 1, février: 2, mars: 3, avril: 4, juin: 6, juillet: 7, août: 8, septembre: 9, octobre: 10, novembre: 11, décembre: 12,
  enero: 1, febrero: 2, marzo: 3, abril: 4, mayo: 5, junio: 6, julio: 7, agosto: 8, septiembre: 9, octubre: 10, noviembre: 11, diciembre: 12,
};
const iso = (y: number, m: number, d: number) => {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

/** Full dates written in visible text (ISO, "March 3, 2024", "3 March 2024", "03.03.2024",
 * "3. März 2024", "3 de marzo de 2024"). Year-only mentions are not dates of the page. */
export function visibleDates(text: string): string[] {
  const out = new Set<string>();
  const monthNames = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');
  for (const m of text.matchAll(/\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/g)) {
    const d = iso(+m[1]!, +m[2]!, +m[3]!);
    if (d) out.add(d);
  }
  for (const m of text.matchAll(new RegExp(`\\b(${monthNames})\\.? (\\d{1,2})(?:st|nd|rd|th)?,? ((?:19|20)\\d\\d)\\b`, 'giu'))) {
    const d = iso(+m[3]!, MONTHS[m[1]!.toLowerCase()]!, +m[2]!);
    if (d) out.add(d);
  }
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:\\.|er)? (?:de )?(${monthNames})\\.?,? (?:de )?((?:19|20)\\d\\d)\\b`, 'giu'))) {
    const d = iso(+m[3]!, MONTHS[m[2]!.toLowerCase()]!, +m[1]!);
    if (d) out.add(d);
  }
  for (const m of text.matchAll(/\b(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)\b/g)) {
    const d = iso(+m[3]!, +m[2]!, +m[1]!);
    if (d) out.add(d);
  }
  return [...out].sort(cmp);
}

/**
 * The phrase an opening repeats instead of answering ("Best project management software is the
 * best project management software for teams that need the best project management software"),
 * or null. Repetition, not length: a third of the first sentence's content words said again, or
 * half of the paragraph's. A focused answer names its topic once or twice among new words.
 */
export function repeatedOpening(text: string, lang: Lang): string | null {
  const stop = stopwords(lang);
  const content = (t: string) => words(t).map((w) => fold(w, lang)).filter((w) => !stop.has(w) && !/^\d+$/.test(w));
  const repeatedShare = (toks: string[]) => (toks.length ? (toks.length - new Set(toks).size) / toks.length : 0);
  const first = content(sentences(text)[0] ?? '');
  const all = content(text);
  if (!((first.length >= 4 && repeatedShare(first) >= 0.3) || (all.length >= 12 && repeatedShare(all) >= 0.5))) return null;
  // Name the repeated phrase: the longest run of 1–4 words, bounded by content words, said most often.
  const toks = words(text).map((w) => fold(w, lang));
  let best: { phrase: string; score: number } | null = null;
  for (let n = 4; n >= 1; n--) {
    const counts = new Map<string, number>();
    for (let i = 0; i + n <= toks.length; i++) {
      const gram = toks.slice(i, i + n);
      if (stop.has(gram[0]!) || stop.has(gram[n - 1]!) || /^\d+$/.test(gram[0]!)) continue;
      counts.set(gram.join(' '), (counts.get(gram.join(' ')) ?? 0) + 1);
    }
    for (const [phrase, c] of counts) if (c >= 2 && (!best || c * n > best.score)) best = { phrase, score: c * n };
  }
  return best?.phrase ?? null;
}

function firstString(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (Array.isArray(v)) {
    for (const x of v) {
      const s = firstString(x);
      if (s) return s;
    }
    return null;
  }
  if (v && typeof v === 'object') return firstString((v as Record<string, unknown>).name);
  return null;
}

const BYLINE: Record<Lang, RegExp> = {
  en: /(?:^|\n)\s*(?:[Bb]y|[Ww]ritten by|[Aa]uthor:)\s+(\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,2})/u,
  de: /(?:^|\n)\s*(?:[Vv]on|[Aa]utor(?:in)?:)\s+(\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,2})/u,
  fr: /(?:^|\n)\s*(?:[Pp]ar|[Aa]uteur\s?:)\s+(\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,2})/u,
  es: /(?:^|\n)\s*(?:[Pp]or|[Aa]utor(?:a)?:)\s+(\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,2})/u,
  it: /(?:^|\n)\s*(?:di|autore:)\s+(\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,2})/u,
  nl: /(?:^|\n)\s*(?:door|auteur:)\s+(\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,2})/u,
  pt: /(?:^|\n)\s*(?:por|autor:)\s+(\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,2})/u,
};

export function measureSignals(doc: PageDocument, opts: SignalOptions = {}): PageSignals {
  const now = opts.now ?? new Date();
  const lang = normalizeLang(opts.language ?? doc.language);
  const blocks = doc.blocks;
  const paras = paragraphs(blocks);
  const paraWords = paras.map((p) => wc(p.text));
  const headings = blocks.filter((b): b is Extract<Block, { kind: 'heading' }> => b.kind === 'heading');
  const mainH1 = headings.filter((h) => h.level === 1);
  // An H1 above the main block (in a page header) is still the page's H1.
  const h1 = mainH1.length ? mainH1 : (doc.page?.h1s ?? []).map((text) => ({ kind: 'heading' as const, level: 1, text }));
  const h2 = headings.filter((h) => h.level === 2).length;
  const h3 = headings.filter((h) => h.level === 3).length;
  const types = jsonLdTypes(doc.jsonLd);
  const nodes = walkJsonLd(doc.jsonLd);
  const wordCount = doc.wordCount;

  // --- FAQ and question headings
  const questionHeadings = headings.filter((h) => h.level >= 2 && isQuestion(h.text, lang)).length;
  let faqSource: PageSignals['structure']['faq']['source'] = null;
  let faqQuestions = 0;
  const faqNode = nodes.find((n) => ([] as unknown[]).concat(n['@type'] ?? []).includes('FAQPage'));
  if (faqNode) {
    faqSource = 'json-ld';
    faqQuestions = ([] as unknown[]).concat(faqNode.mainEntity ?? []).length;
  } else if (headings.some((h) => FAQ_HEADING.test(h.text))) {
    faqSource = 'heading';
    faqQuestions = questionHeadings;
  } else if (questionHeadings >= 3) {
    faqSource = 'questions';
    faqQuestions = questionHeadings;
  }

  // --- sections and answer-first
  let sections = 0;
  let sectionsAnswerFirst = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.kind !== 'heading' || b.level < 2 || b.level > 3) continue;
    sections++;
    const next = blocks[i + 1];
    if (next?.kind === 'paragraph') {
      const n = wc(next.text);
      if (n >= 15 && n <= 90 && !FILLER_OPENER.test(next.text)) sectionsAnswerFirst++;
    } else if (next?.kind === 'list' || next?.kind === 'table') sectionsAnswerFirst++;
  }
  // The lead is the first real paragraph: bylines and date lines ("By Dana · Updated May 10")
  // are not where an answer could be.
  const lead = paras.find((p) => wc(p.text) >= 12 && !BYLINE[lang].test(p.text) && !/^(updated|published|last updated|aktualisiert|mis à jour|actualizado)\b/i.test(p.text));
  const leadWords = lead ? wc(lead.text) : 0;
  const leadFirstSentence = lead ? wc(firstClause(lead.text)) : 0;
  const leadRepeats = lead ? repeatedOpening(lead.text, lang) : null;
  // How direct the opening is, 0..1. Length and the first statement's length phase out over a
  // range instead of at a cut-off, so a word more or less moves the score by a fraction of a point.
  const answerFirstStrength =
    !lead || FILLER_OPENER.test(lead.text) || leadRepeats ? 0 : Math.min(ramp(leadWords, 12, 20), 1 - ramp(leadWords, 100, 160), 1 - ramp(leadFirstSentence, 45, 70));
  const answerFirst = answerFirstStrength >= 0.5;

  // --- statistics, quotations, sources, definitions
  const allSentences = [
    ...paras.flatMap((p) => sentences(p.text)),
    ...blocks.flatMap((b) => (b.kind === 'list' ? b.items : b.kind === 'table' ? b.rows.map((r) => r.join(' ')) : [])),
  ];
  const statSentences = allSentences.filter((s) => STAT_RE.some((re) => re.test(s)));
  const quoteBlocks = blocks.filter((b) => b.kind === 'quote').length;
  const inlineQuotes = paras.filter((p) => /[“"«„][^”"»“]{25,}[”"»“]/.test(p.text) && ATTRIBUTION.test(p.text)).length;
  const pageHost = hostOf(doc.url);
  const externalDomains = new Set<string>();
  for (const l of doc.links.main) {
    const h = hostOf(l.href);
    if (h && h !== pageHost && !h.endsWith('.' + pageHost) && /^https?:/.test(l.href)) externalDomains.add(h);
  }
  const sourceMentions = countMatches(doc.bodyText, SOURCE_MENTION);
  const definitions = allSentences.filter((s) => DEFINITION[lang].test(s) || REFERS.test(s)).length;

  // --- author / organization
  let author: string | null = null;
  let organization: string | null = null;
  let authorCheckable = false;
  let orgCheckable = false;
  const checkable = (v: unknown, keys: string[]) =>
    ([] as unknown[]).concat(v ?? []).some((x) => !!x && typeof x === 'object' && keys.some((k) => firstString((x as Record<string, unknown>)[k]) || typeof (x as Record<string, unknown>)[k] === 'object'));
  // A node may point at another by "@id" only (the usual @graph form): read the node it names.
  const byId = new Map<string, Record<string, unknown>>();
  for (const n of nodes) if (typeof n['@id'] === 'string' && Object.keys(n).length > 1) byId.set(n['@id'], n);
  const deref = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(deref) : v && typeof v === 'object' && typeof (v as Record<string, unknown>)['@id'] === 'string' && Object.keys(v).length === 1 ? (byId.get((v as Record<string, string>)['@id']!) ?? v) : v;
  for (const n of nodes) {
    if (!author && n.author) {
      author = firstString(deref(n.author));
      authorCheckable = checkable(deref(n.author), ['url', 'sameAs']);
    }
    if (!organization && n.publisher) {
      organization = firstString(deref(n.publisher));
      orgCheckable = checkable(deref(n.publisher), ['url', 'sameAs', 'logo']);
    }
    const nt = ([] as unknown[]).concat(n['@type'] ?? []).map(String);
    if (!organization && nt.some((x) => /Organization|Corporation|LocalBusiness/.test(x))) {
      organization = firstString(n.name);
      orgCheckable = checkable(n, ['url', 'sameAs', 'logo']);
    }
  }
  if (!author) author = BYLINE[lang].exec(doc.bodyText)?.[1] ?? null;
  // A byline that links the author's profile page can be checked, whether or not the JSON-LD
  // Person carries a url too.
  if (author && !authorCheckable) authorCheckable = doc.links.all.some((l) => l.text.trim() === author && hostOf(l.href) !== '');
  if (!organization) organization = doc.openGraph['site_name'] ?? null;

  // --- freshness
  const headers = lowerKeys(opts.headers ?? {});
  const httpLm = headers['last-modified'] ? toIsoDay(headers['last-modified']) : null;
  const vis = visibleDates(doc.bodyText);
  const limit = now.getTime() + 2 * DAY; // a declared date in the future is an event or a typo, not the page's date
  const futureIgnored: string[] = [];
  const declared = (d: string | null) => {
    const day = d ? toIsoDay(d) : null;
    if (!day) return null;
    if (Date.parse(day) > limit) {
      futureIgnored.push(day);
      return null;
    }
    return day;
  };
  // The page's own dates: not those of an event, study or comment its structured data describes.
  const own = pageDates(doc);
  const published = declared(own.published);
  const modified = declared(own.modified);
  const consistent = !(published && modified && modified < published);
  // The declared date decides: dateModified when it is consistent, else datePublished. The
  // Last-Modified header (which most CMSs and CDNs set to "now") counts only when nothing is
  // declared, and as a weak signal; dates written in the body never do.
  let newest: { date: string; source: 'json-ld/meta' | 'http' } | null = null;
  const declaredDay = (consistent ? modified : null) ?? published ?? modified;
  if (declaredDay) newest = { date: declaredDay, source: 'json-ld/meta' };
  else if (httpLm && Date.parse(httpLm) <= limit) newest = { date: httpLm, source: 'http' };
  const ageDays = newest ? Math.max(0, Math.floor((now.getTime() - Date.parse(newest.date)) / DAY)) : null;

  // --- metadata
  const robots = (doc.metaRobots ?? '').toLowerCase();
  const canonical = doc.canonicalUrl;
  const ogMissing = ['title', 'description', 'image', 'type', 'url'].filter((k) => !doc.openGraph[k]);

  // --- keyphrases, entities, topics (of the page alone; the site view is added by callers)
  const keyphrases = extractKeyphrases(pageTexts(doc), lang, 20);
  const entities = extractEntities(doc.bodyText, doc.jsonLd, lang);
  const topics = clusterTopics(keyphrases, 8);
  const pageType = detectPageType(doc);

  return {
    language: lang,
    page_type: pageType.type,
    page_type_reason: pageType.reason,
    meta: {
      title: doc.title,
      title_length: doc.title?.length ?? 0,
      site_name: doc.openGraph['site_name'] ?? null,
      description: doc.description,
      description_length: doc.description?.length ?? 0,
      canonical,
      canonical_self: canonical ? sameUrl(canonical, doc.url) : null,
      meta_robots: doc.metaRobots,
      noindex: /\b(noindex|none)\b/.test(robots),
      nofollow: /\b(nofollow|none)\b/.test(robots),
      open_graph_missing: ogMissing,
    },
    structure: {
      word_count: wordCount,
      h1_count: h1.length,
      h1_texts: h1.map((h) => h.text),
      h2_count: h2,
      h3_count: h3,
      paragraph_count: paras.length,
      list_count: blocks.filter((b) => b.kind === 'list').length,
      table_count: blocks.filter((b) => b.kind === 'table').length,
      code_count: blocks.filter((b) => b.kind === 'code').length,
      quote_count: quoteBlocks,
      long_paragraphs: paraWords.filter((n) => n > 150).length,
      longest_paragraph_words: paraWords.reduce((a, b) => Math.max(a, b), 0),
      avg_paragraph_words: paraWords.length ? Math.round(paraWords.reduce((a, b) => a + b, 0) / paraWords.length) : 0,
      words_per_section: Math.round(wordCount / Math.max(1, h2 + h3)),
      question_headings: questionHeadings,
      faq: { present: faqSource !== null, source: faqSource, questions: faqQuestions },
    },
    readability: measureReadability(paras.map((p) => p.text).join('\n') || doc.bodyText, lang),
    freshness: {
      published: own.published,
      modified: own.modified,
      http_last_modified: httpLm,
      visible_dates: vis,
      newest: newest?.date ?? null,
      newest_source: newest?.source ?? null,
      age_days: ageDays,
      future_ignored: futureIgnored,
      consistent,
    },
    citability: {
      lead_paragraph_words: leadWords,
      answer_first: answerFirst,
      answer_first_strength: Math.round(answerFirstStrength * 100) / 100,
      lead_repeats: leadRepeats,
      sections,
      sections_answer_first: sectionsAnswerFirst,
      statistics: statSentences.length,
      statistic_examples: statSentences.slice(0, 3).map((s) => (s.length > 140 ? s.slice(0, 137) + '...' : s)),
      quotations: quoteBlocks + inlineQuotes,
      sources_cited: externalDomains.size + (externalDomains.size === 0 ? Math.min(sourceMentions, 3) : 0),
      source_domains: [...externalDomains].sort(cmp),
      definitions,
      json_ld_types: types,
      json_ld_errors: doc.jsonLdErrors,
      author,
      organization,
      author_checkable: !!author && authorCheckable,
      organization_checkable: !!organization && orgCheckable,
    },
    evidence: measureEvidence(doc, lang, keyphrases[0]?.phrase ?? null, now.getUTCFullYear()),
    page_h1: h1[0]?.text ?? doc.page?.h1s[0] ?? null,
    keyphrases,
    entities,
    topics,
  };
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(h)) out[k.toLowerCase()] = h[k]!;
  return out;
}

function toIsoDay(value: string): string | null {
  const t = Date.parse(value);
  if (Number.isNaN(t)) return null;
  return new Date(t).toISOString().slice(0, 10);
}

export function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const norm = (u: URL) => `${u.hostname.replace(/^www\./, '')}${u.pathname.replace(/\/+$/, '') || '/'}${u.search}`;
    return norm(x) === norm(y);
  } catch {
    return a === b;
  }
}
