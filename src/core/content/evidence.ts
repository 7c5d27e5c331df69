// The evidence a page offers an assistant that might cite it, measured the way the GEO study
// (Aggarwal et al., KDD 2024) found it matters: claims with a named source near them (and a
// link to it), quotations attributed to a person or body, statistics that say where they come
// from; and what works against it: figures with no source, vague attribution ("experts say",
// "studies show") and keyword stuffing. The one thing to know: the unit is the passage (a
// paragraph, list item, table row or quote), never the sentence, so a ":" turned into "." does
// not change what is counted, and counts saturate so a longer page earns nothing for length.
import type { Block, PageDocument } from '../pages/document.ts';
import { phraseTokens } from './keyphrases.ts';
import { fold, stopwords, words, type Lang } from './text.ts';
import { hostOf } from '../../lib/url.ts';

export interface Evidence {
  passages: number;
  /** Passages with a statistic (percentage, amount, multiplier, "N out of M", large count). */
  statistics: number;
  /** …of which name or link their source. */
  sourced_statistics: number;
  /** Passages with a figure and no source: examples. */
  unsourced_figures: string[];
  /** Passages whose claim names a source (according to X, X found, (X, 2024), Source: X). */
  attributed_claims: number;
  /** Passages that link an external source (the anchor sits in the passage). */
  linked_claims: number;
  linked_domains: string[];
  /** Quotations with the speaker named / without one. */
  attributed_quotations: number;
  unattributed_quotations: number;
  /** Passages whose figures are dated three or more years before now ("in 2019, 45%…"). */
  outdated_figures: string[];
  /** Phrases like "experts say", "studies show" with no named source. */
  vague_attribution: string[];
  /** The most repeated phrase when it is stuffed (≥ 8 uses and ≥ 8% of the words; on a page
   * under 60 words, ≥ 5 uses and ≥ 25%), else null. */
  keyword_stuffing: { phrase: string; count: number; density: number } | null;
  /** Placeholder text left on the page ("Lorem ipsum dolor sit amet…"), as found. */
  placeholder_text: string[];
  /** Entries of a reference or sources list at the end of the page (heading "Sources", "References"…). */
  reference_list: number;
  /** …of which link their source. */
  reference_links: number;
}

// Statistical claims: a share, a multiplier, "N out of M", a large count. These need a source.
const STAT_RE = [
  /\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b|prozent\b|pour ?cent\b|por ciento\b)/i,
  /\b\d+(?:[.,]\d+)?\s?(?:million|billion|millionen|milliarden|millions?|milliards?|millones|mil millones)\b/i,
  /\b\d+(?:[.,]\d+)?\s?(?:x|times|mal|fois|veces)\s+(?:faster|more|less|fewer|higher|lower|as|likely|schneller|mehr|weniger|höher|plus|moins|más|menos)\b/i,
  /\b\d+ (?:out of|of every|in every|von|sur|de cada) \d+\b/i,
  // "9 of the 10 highest-scoring models", "1 in 5 adults"
  /\b\d+ (?:of|in) (?:the |all )?\d+\b/i,
];
// Amounts (prices, counts with thousands separators): figures that earn the sourced-statistics
// points when sourced, but a page's own prices are not claims that need a source.
const AMOUNT_RE = [
  /(?:[$€£¥]\s?\d[\d.,]*|\b\d[\d.,]*\s?(?:€|£|(?:eur|usd|dollars?|euros?|cents?|ct|pence|centimes?|céntimos?)\b))/i,
  /\b\d{1,3}(?:[,.]\d{3})+\b/,
  // Measured quantities ("2.7 litres a day", "27.03p per kWh", "a SCOP of 3.5 at 45°C").
  /\b\d+(?:[.,]\d+)?\s?(?:p|litres?|liters?|ml|kWh|kWp|MWh|GWh|kW|MW|GW|kg|km|m²|m2|mm|cm|Pa|°C|°F)(?![\p{L}\p{N}])/u,
];
// The publisher's own measurements ("We ran every robot on the same floor", "in our tests"): the
// page names its method, which is a source an assistant can quote.
const FIRST_PARTY = /\b(?:[Ww]e (?:tested|measured|surveyed|ran|analy[sz]ed|counted|timed|weighed|interviewed|compared)|[Ii]n our (?:tests?|testing|lab|survey|analysis|measurements)|[Ww]ir haben [^.]{0,60}(?:getestet|gemessen|befragt|ausgewertet)|[Nn]ous avons [^.]{0,40}(?:testé|mesuré|interrogé|analysé)|[Hh]emos (?:probado|medido|encuestado|analizado))\b/u;

// A named source: one or more capitalized words (with "of", "the", "&" between them), or an acronym.
const NAME = String.raw`(?:the |der |die |das |la |le |les |el |los |l['’])?(?:\p{Lu}[\p{L}\p{N}&.'’-]*|\p{N}{4})(?:\s+(?:of|for|and|on|&|de|del|des|du|für|und|der|la)?\s*\p{Lu}[\p{L}\p{N}&.'’-]*){0,6}`;
const NAMED_SOURCE: RegExp[] = [
  // The lead words may open the sentence ("According to…", "Selon l’Insee…").
  new RegExp(String.raw`\b(?:[Aa]ccording to|[Aa]s reported by|[Dd]ata from|[Ff]igures from|per)\s+(?:a\s+|an\s+|the\s+)?(?:\d{4}\s+)?${NAME}`, 'u'),
  new RegExp(String.raw`\b(?:[Ll]aut|[Gg]emäß|zufolge|[Nn]ach Angaben (?:von|der|des))\s+(?:einer?\s+|dem\s+|der\s+|des\s+)?${NAME}`, 'u'),
  new RegExp(String.raw`\b(?:[Ss]elon|[Dd]['’]après)\s+(?:une?\s+|le\s+|la\s+|l['’])?${NAME}`, 'u'),
  new RegExp(String.raw`\b(?:[Ss]egún|[Dd]e acuerdo con)\s+(?:una?\s+|el\s+|la\s+)?${NAME}`, 'u'),
  // "the review published by the OECD", "la synthèse publiée par l’OCDE"
  new RegExp(String.raw`\b(?:published by|conducted by|compiled by|publiée? par|réalisée? par|menée? par|publicad[oa] por|realizad[oa] por|veröffentlicht von|durchgeführt von)\s+(?:dem\s+|der\s+)?${NAME}`, 'u'),
  // "Gartner found", "a 2024 Capterra survey of 1,500 buyers found", "the PMI report shows"
  new RegExp(String.raw`${NAME}(?:['’]s)?\s+(?:\d{4}\s+)?(?:study|survey|report|research|analysis|census|data|index|poll|Studie|Umfrage|Bericht|étude|enquête|rapport|estudio|encuesta|informe)\b`, 'u'),
  /\b(?:\p{Lu}[\p{L}&.-]+)(?:\s+\p{Lu}[\p{L}&.-]+){0,4}\s+(?:found|reports?|reported|estimates?|estimated|published|surveyed|measured|counted|fand|berichtet|schätzt|ermittelte|a constaté|estime|rapporte|encontró|estima|informa)\b/u,
  /\((?:[^()]*\p{Lu}[^()]*),?\s+(?:19|20)\d\d[a-z]?\)/u, // (Gartner, 2024)
  /\b(?:source|sources|quelle|fuente)\s?:\s*\S/i,
  /\[\d{1,3}\]/, // footnote marker; counted when a reference list exists
];
// Words that may open a sentence in capitals but name no source.
const NOT_A_SOURCE = /^(?:the|a|an|this|that|these|those|our|we|it|they|he|she|one|some|many|most|experts?|studies|research|researchers|scientists|analysts|surveys?|reports?|data|der|die|das|diese|wir|les|la|le|nous|el|la|los|nosotros)$/i;

const VAGUE: RegExp[] = [
  /\b(?:according to|as per)\s+(?:some\s+|many\s+|leading\s+|industry\s+)?(?:experts|specialists|studies|research|researchers|sources|analysts|scientists|reports)\b/i,
  /\b(?:experts|specialists|analysts|scientists|researchers|insiders)\s+(?:say|said|agree|believe|claim|suggest|recommend|warn)\b/i,
  /\b(?:studies|research|surveys|reports|statistics|data)\s+(?:show|shows|showed|have shown|has shown|suggest|suggests|prove|proves|indicate|indicates|confirm|confirms)\b/i,
  /\b(?:it is|it's)\s+(?:widely\s+|generally\s+|commonly\s+)?(?:believed|said|known|thought|accepted)\b/i,
  /\b(?:many|most|some)\s+(?:people|experts|professionals|users)\s+(?:say|believe|agree|think)\b/i,
  /\b(?:laut|nach Ansicht von)\s+(?:den\s+)?(?:Experten|Studien|Fachleuten)\b/i,
  /\b(?:Experten|Fachleute|Studien|Untersuchungen|Forscher)\s+(?:sagen|meinen|zeigen|belegen|bestätigen|empfehlen)\b/i,
  /\b(?:selon|d['’]après)\s+(?:les\s+|des\s+|certains\s+)?(?:experts|études|spécialistes|chercheurs)\b/i,
  /\b(?:les\s+|des\s+)?(?:experts|études|spécialistes|chercheurs)\s+(?:disent|affirment|montrent|prouvent|recommandent)\b/i,
  /\b(?:según|de acuerdo con)\s+(?:los\s+|algunos\s+)?(?:expertos|estudios|especialistas|investigadores)\b/i,
  /\b(?:los\s+)?(?:expertos|estudios|especialistas|investigadores)\s+(?:dicen|afirman|muestran|demuestran|recomiendan)\b/i,
];

const SPEAKER: RegExp[] = [
  /(?:says|said|explains|explained|notes|noted|told|adds|added|writes|wrote|sagt|erklärt|betont|affirme|explique|déclare|afirma|explica|dice)\s+\p{Lu}[\p{L}'’.-]+/u,
  /\p{Lu}[\p{L}'’.-]+(?:\s+\p{Lu}[\p{L}'’.-]+)+[^.]{0,60}?\b(?:says|said|explains|explained|notes|noted|told|adds|added|writes|wrote|sagt|erklärt|affirme|explique|afirma|explica)\b/u,
  /(?:^|\s)[—–-]\s*\p{Lu}[\p{L}'’.-]+(?:\s+\p{Lu}[\p{L}'’.-]+)+/u,
  /\baccording to\s+\p{Lu}[\p{L}'’.-]+\s+\p{Lu}/u,
];
const INLINE_QUOTE = /[“"«„][^”"»“]{25,}[”"»“]/;
const REFERENCE_HEADING = /^(?:sources?|references?|bibliography|further reading|citations?|works cited|notes|quellen|literatur|quellenangaben|einzelnachweise|sources et références|références|bibliographie|fuentes|referencias|bibliografía)\b/i;

interface Passage {
  text: string;
  quote: boolean;
  row: boolean;
}

function passages(blocks: Block[]): { list: Passage[]; referenceList: number } {
  const list: Passage[] = [];
  let inReferences = false;
  let referenceList = 0;
  for (const b of blocks) {
    if (b.kind === 'heading') {
      inReferences = b.level >= 2 && REFERENCE_HEADING.test(b.text.trim());
      continue;
    }
    if (inReferences) {
      // Entries of a reference list are sources, not claims.
      referenceList += b.kind === 'list' ? b.items.length : b.kind === 'paragraph' ? 1 : 0;
      continue;
    }
    if (b.kind === 'paragraph') list.push({ text: b.text, quote: false, row: false });
    else if (b.kind === 'quote') list.push({ text: b.text, quote: true, row: false });
    else if (b.kind === 'list') for (const it of b.items) list.push({ text: it, quote: false, row: false });
    else if (b.kind === 'table') for (const r of b.rows) list.push({ text: r.join(' | '), quote: false, row: true });
  }
  return { list, referenceList };
}

function hasNamedSource(text: string, footnotes: boolean): boolean {
  for (const re of NAMED_SOURCE) {
    const m = re.exec(text);
    if (!m) continue;
    if (re.source === String.raw`\[\d{1,3}\]` && !footnotes) continue;
    // "According to the experts" is caught by VAGUE; reject a "name" that is only a common word.
    const name = m[0].replace(/^(?:according to|as reported by|data from|figures from|per|laut|gemäß|zufolge|selon|d['’]après|según|de acuerdo con|published by|conducted by|compiled by|publiée? par|réalisée? par|menée? par|publicad[oa] por|realizad[oa] por|veröffentlicht von|durchgeführt von)\s+/i, '').trim().split(/\s+/);
    const meaningful = name.filter((w) => !NOT_A_SOURCE.test(w) && !/^\d+$/.test(w));
    if (meaningful.length === 0) continue;
    return true;
  }
  return false;
}

export function measureEvidence(doc: PageDocument, lang: Lang, mainPhrase: string | null, nowYear = new Date().getUTCFullYear()): Evidence {
  const fromBlocks = passages(doc.blocks);
  const list = fromBlocks.list;
  // A reference list inside the main text, or the one the extractor keeps beside it.
  const references = doc.page?.references ?? [];
  const referenceList = Math.max(fromBlocks.referenceList, references.length);
  const pageHost = hostOf(doc.url);
  const external = doc.links.main.filter((l) => {
    const h = hostOf(l.href);
    return /^https?:/i.test(l.href) && h && h !== pageHost && !h.endsWith('.' + pageHost) && l.text.trim().length >= 3;
  });
  const out: Evidence = {
    passages: list.length,
    statistics: 0,
    sourced_statistics: 0,
    unsourced_figures: [],
    attributed_claims: 0,
    linked_claims: 0,
    linked_domains: [],
    attributed_quotations: 0,
    unattributed_quotations: 0,
    outdated_figures: [],
    vague_attribution: [],
    keyword_stuffing: null,
    placeholder_text: [],
    reference_list: referenceList,
    reference_links: references.filter((r) => r.href).length,
  };
  const domains = new Set<string>();
  for (const p of list) {
    const linked = external.filter((l) => p.text.includes(l.text.trim()));
    for (const l of linked) domains.add(hostOf(l.href));
    const named = hasNamedSource(p.text, referenceList > 0);
    const vague = VAGUE.map((re) => re.exec(p.text)?.[0]).filter((x): x is string => !!x);
    const isQuote = p.quote || INLINE_QUOTE.test(p.text);
    const spoken = isQuote && (SPEAKER.some((re) => re.test(p.text)) || named);
    // A figure said by a named speaker, or measured by the publisher itself, has its source.
    const sourced = named || linked.length > 0 || spoken || FIRST_PARTY.test(p.text);
    if (linked.length) out.linked_claims++;
    if (named) out.attributed_claims++;
    if (vague.length && !sourced) out.vague_attribution.push(...vague);
    if (isQuote) {
      if (spoken) out.attributed_quotations++;
      else out.unattributed_quotations++;
    }
    const claim = STAT_RE.some((re) => re.test(p.text));
    if (claim || AMOUNT_RE.some((re) => re.test(p.text))) {
      out.statistics++;
      const years = [...p.text.matchAll(/\b(19[5-9]\d|20\d\d)\b/g)].map((m) => Number(m[1])).filter((y) => y <= nowYear);
      if (claim && years.length && Math.max(...years) <= nowYear - 3) out.outdated_figures.push(p.text.length > 120 ? p.text.slice(0, 117) + '...' : p.text);
      if (sourced) out.sourced_statistics++;
      // Table cells are data the table's caption or column sources; a bare price is an offer.
      else if (claim && !p.row) out.unsourced_figures.push(p.text.length > 120 ? p.text.slice(0, 117) + '...' : p.text);
    }
  }
  for (const r of references) if (r.href) domains.add(hostOf(r.href));
  out.linked_domains = [...domains].sort();
  out.keyword_stuffing = stuffing(doc, lang, mainPhrase);
  out.placeholder_text = placeholders(doc);
  return out;
}

/** The page's prose: paragraphs, quotes, headings and list items (not tables or code). */
function proseOf(doc: PageDocument): string {
  return doc.blocks.map((b) => (b.kind === 'paragraph' || b.kind === 'quote' || b.kind === 'heading' ? b.text : b.kind === 'list' ? b.items.join('\n') : '')).join('\n');
}

// Filler text of templates and mock-ups: the Lorem ipsum family (its opening words, or two of its
// rarer Latin words together), and the wording of unfinished templates. Any one is unambiguous.
const PLACEHOLDER = [
  /\blorem ipsum\b/i,
  /\b(?:dolor sit amet|consectetur adipiscing|sed do eiusmod|tempor incididunt|ut labore et dolore)\b/i,
  /\b(?:insert|add|your) (?:text|content|copy) here\b/i,
];

/** Placeholder passages left on the page, at most three, each cut to 80 characters. */
function placeholders(doc: PageDocument): string[] {
  const out: string[] = [];
  for (const line of [...(doc.page?.placeholders ?? []), ...proseOf(doc).split('\n')]) {
    if (out.length < 3 && PLACEHOLDER.some((re) => re.test(line))) out.push(line.length > 80 ? line.slice(0, 77) + '...' : line.trim());
  }
  return out;
}

/**
 * Keyword stuffing: a 2–4 word phrase repeated far beyond what the prose needs. Counted over the
 * main text; the page's main phrase is checked first, then every repeated n-gram of content
 * words. Threshold: at least 8 uses and at least 8% of the page's words spent on the phrase. A
 * focused page repeats its topic: the fixture guide on "project management software" spends 5%
 * of its words on it, a stuffed page 15% and more. Under 60 words, eight uses may be more than
 * the page can hold, but a quarter of the words on one phrase used five times is unambiguous
 * ("CRM CRM CRM…"); that the page is thin is its own finding.
 */
export function stuffing(doc: PageDocument, lang: Lang, mainPhrase: string | null): Evidence['keyword_stuffing'] {
  const stop = stopwords(lang);
  // Prose only: a pricing table repeats "per user per month" by design.
  const tokens = words(proseOf(doc)).map((w) => fold(w, lang));
  const total = tokens.length;
  const [minCount, minDensity] = total < 60 ? [5, 0.25] : [8, 0.08];
  const counts = new Map<string, number>();
  for (let n = 2; n <= 4; n++) {
    for (let i = 0; i + n <= total; i++) {
      const gram = tokens.slice(i, i + n);
      if (stop.has(gram[0]!) || stop.has(gram[n - 1]!)) continue;
      const key = gram.join(' ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  if (mainPhrase) {
    const key = phraseTokens(mainPhrase, lang).join(' ');
    if (key && !counts.has(key)) counts.set(key, 0);
  }
  let best: Evidence['keyword_stuffing'] = null;
  for (const [key, count] of counts) {
    const density = (count * key.split(' ').length) / total;
    if (count >= minCount && density >= minDensity && (!best || density > best.density)) best = { phrase: key, count, density: Math.round(density * 1000) / 1000 };
  }
  // "crm crm" is one word said over and over: name the word and count its uses.
  const same = best?.phrase.split(' ');
  if (best && same!.every((t) => t === same![0])) {
    const count = tokens.filter((t) => t === same![0]).length;
    best = { phrase: same![0]!, count, density: Math.round((count / total) * 1000) / 1000 };
  }
  return best;
}
