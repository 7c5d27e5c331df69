// Offline trend discovery: the "trends" of a page's field are the topic clusters that the page
// and its same-site pages give most prominence to, ranked by weight and spread across pages.
// For each, we measure how well this page covers it (mentions, a section, a question) and say
// what to add. The one thing to know: coverage is token-based, so a supplied trend like
// "AI tools for project management" matches text that uses those words in one sentence.
import type { PageDocument } from '../pages/document.ts';
import { clusterTopics, extractEntities, extractKeyphrases, jsonLdTypes, phraseTokens, type TopicCluster } from './keyphrases.ts';
import { hostOf } from '../../lib/url.ts';
import { stuffing, type Evidence } from './evidence.ts';
import { pageTexts, isQuestion } from './signals.ts';
import { isCommercial, isTopic, isVagueWord, isVendor, pageQuestions, topicQuestions, type QuestionIntent, type TopicQuestion } from './questions.ts';
import type { LoadedSite } from './site.ts';
import { siteNames } from './site-names.ts';
import { fold, normalizeLang, sentences, words, type Lang } from './text.ts';
import type { DiscoverTrendsInput, Trend, TrendCoverage, TrendsResult } from './types.ts';

export interface FieldTopic {
  name: string;
  tokens: string[];
  relevance: number;
}

/** Names that are never topics: the site's and its publisher's names (from every page read: see
 * site-names.ts), the host, and the people and organisations the page names. */
export function nonTopicNames(site: { page: PageDocument; related: PageDocument[] }, lang: Lang): string[] {
  const doc = site.page;
  const names = new Set<string>(siteNames([doc, ...site.related]));
  for (const e of extractEntities(doc.bodyText, doc.jsonLd, lang)) if (e.type === 'person' || e.type === 'organization' || e.type === 'brand') names.add(e.name);
  const hostname = hostOf(doc.url);
  // An address (127.0.0.1, [::1]) names nothing.
  const host = /^[\d.]+$|:|^localhost$/.test(hostname) ? '' : hostname.split('.')[0];
  if (host && host.length > 2) names.add(host.replace(/-/g, ' '));
  if (host) names.add(host.replace(/-/g, ''));
  return [...names];
}

/** Topic clusters of the page plus its related pages, with a 0..100 relevance. Only phrases that
 * are topics (see questions.ts isTopic): no people, no site name, no lone adjectives, and no lone
 * everyday word beside the main topic (isVagueWord). */
export function fieldTopics(site: { page: PageDocument; related: PageDocument[] }, lang: Lang, max = 10): FieldTopic[] {
  const texts = [
    ...pageTexts(site.page, 0, 1),
    ...site.related.flatMap((d, i) => pageTexts(d, i + 1, 0.6)),
  ];
  // Single words ("tool", "teams") make vague trends: weigh them down so multi-word phrases
  // label the clusters, and keep them only when the page offers little else.
  const phrases = extractKeyphrases(texts, lang, 40)
    .map((p) => (p.tokens.length === 1 ? { ...p, score: Math.round(p.score * 40) / 100 } : p))
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const ctx = { lang, names: nonTopicNames(site, lang), text: [site.page.title ?? '', site.page.bodyText].join('\n') };
  const topical = phrases.filter((p) => isTopic(p.phrase, ctx));
  // The page's subject, the strongest topic its title or H1 names ("robot vacuum" in "Best robot
  // vacuum 2025: how to choose one").
  const subject = topical.filter((p) => p.sources.includes(0) && (p.zones.includes('h1') || p.zones.includes('title')))[0];
  // A topic only a related page names is the page's field only if that page is about the page's
  // subject (onSubject): the developer docs' "API token" is no trend of a buyer's guide.
  const onSubject = site.related.map((d) => !subject || aboutSubject(d, subject.tokens, lang));
  const byKey = new Map(topical.map((p) => [p.key, p]));
  const sourcesOf = (c: TopicCluster) => {
    const sources = new Set<number>();
    for (const k of c.phrases) for (const s of byKey.get(k)?.sources ?? []) sources.add(s);
    return sources;
  };
  const clusters = clusterTopics(topical, Math.max(max, 1) + 4).filter((c) => [...sourcesOf(c)].some((s) => s === 0 || onSubject[s - 1]));
  const totalSources = 1 + site.related.length;
  const maxWeight = clusters[0]?.weight ?? 1;
  const out = clusters.map((c: TopicCluster) => {
    const sources = sourcesOf(c);
    const label = byKey.get(c.phrases[0]!)!;
    const relevance = Math.round(65 * (c.weight / maxWeight) + 35 * (sources.size / totalSources));
    return { name: label.phrase, tokens: label.tokens, relevance: Math.max(1, Math.min(100, relevance)) };
  });
  out.sort((a, b) => b.relevance - a.relevance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // The page's subject leads: it replaces a shorter form of itself ("robot").
  if (subject) {
    const within = (t: FieldTopic) => t.tokens.every((k) => subject.tokens.includes(k));
    const top = out[0]?.relevance ?? 100;
    const rest = out.filter((t) => !within(t));
    const had = out.find((t) => t.tokens.join(' ') === subject.key);
    out.splice(0, out.length, { name: had?.name ?? subject.phrase, tokens: subject.tokens, relevance: Math.max(top, had?.relevance ?? 0) }, ...rest);
  }
  // A single everyday word can be the main topic (a page about coffee), never one beside it.
  return out.filter((t, i) => i === 0 || !isVagueWord(t.name, lang)).slice(0, max);
}

/** A related page names the subject at least this often (sentences, list items, table rows) to
 * be about it, when its title, H1 and H2/H3 headings do not name it. */
const SUBJECT_MENTIONS = 2;

/** Is a related page about the page's subject: named in its title or H1, a section heading, or
 * SUBJECT_MENTIONS passages? Its topics are then the page's field too. */
export function aboutSubject(doc: PageDocument, subject: string[], lang: Lang): boolean {
  const m = measureMentions(doc, subject, lang);
  return m.inTitle || m.inSection !== null || m.mentions >= SUBJECT_MENTIONS;
}

interface Mentions {
  mentions: number;
  inTitle: boolean;
  inSection: string | null; // the H2/H3 text that covers it
  inQuestion: boolean;
  inListOrTable: boolean;
}

function matches(text: string, tokens: string[], lang: Lang): boolean {
  if (!tokens.length) return false;
  const ws = new Set(words(text).map((w) => fold(w, lang)));
  const need = tokens.length <= 2 ? tokens.length : Math.ceil(tokens.length * 0.6);
  let have = 0;
  for (const t of tokens) if (ws.has(t)) have++;
  return have >= need;
}

export function measureMentions(doc: PageDocument, tokens: string[], lang: Lang): Mentions {
  let mentions = 0;
  let inSection: string | null = null;
  let inQuestion = false;
  let inListOrTable = false;
  for (const b of doc.blocks) {
    if (b.kind === 'heading') {
      if (matches(b.text, tokens, lang)) {
        if (b.level >= 2 && !inSection) inSection = b.text;
        if (isQuestion(b.text, lang)) inQuestion = true;
      }
    } else if (b.kind === 'paragraph' || b.kind === 'quote') {
      for (const s of sentences(b.text)) if (matches(s, tokens, lang)) mentions++;
    } else if (b.kind === 'list') {
      for (const it of b.items) if (matches(it, tokens, lang)) ((mentions += 1), (inListOrTable = true));
    } else if (b.kind === 'table') {
      for (const r of b.rows) if (matches(r.join(' '), tokens, lang)) ((mentions += 1), (inListOrTable = true));
    }
  }
  const inTitle = matches(doc.title ?? '', tokens, lang) || doc.headings.some((h) => h.level === 1 && matches(h.text, tokens, lang));
  return { mentions, inTitle, inSection, inQuestion, inListOrTable };
}

/** The trend is the stuffed phrase, or a part of it ("project management" of "best project
 * management software"): folded tokens either way round. */
function isStuffedTrend(tokens: string[], phrase: string): boolean {
  const stuffedTokens = phrase.split(' ');
  return tokens.length > 0 && (tokens.every((t) => stuffedTokens.includes(t)) || stuffedTokens.every((t) => tokens.includes(t)));
}

export function cap(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** Question strings for a trend (see questions.ts topicQuestions). */
export function trendQuestions(name: string, other: string | null, lang: Lang, opts: { commercial?: boolean; pageQuestions?: string[] } = {}): string[] {
  return topicQuestions(name, { lang, commercial: opts.commercial ?? false, other, pageQuestions: opts.pageQuestions }).map((q) => q.question);
}

/** Coverage of one trend by the page, with the gap and a concrete action. */
export function assessTrend(doc: PageDocument, name: string, tokens: string[], lang: Lang, question?: string, stuffed?: Evidence['keyword_stuffing']): TrendCoverage {
  const m = measureMentions(doc, tokens, lang);
  const coverage = Math.min(
    100,
    (m.inTitle ? 25 : 0) + (m.inSection ? 30 : 0) + Math.min(25, m.mentions * 5) + (m.inQuestion ? 10 : 0) + (m.inListOrTable ? 10 : 0),
  );
  let gap: string;
  let action: string;
  if (stuffed && isStuffedTrend(tokens, stuffed.phrase)) {
    // Repetition is not coverage: the row says what the keyword_stuffing recommendation says.
    gap = `Repeated ${stuffed.count} times (${(stuffed.density * 100).toFixed(1)}% of the words): stuffed, not covered.`;
    action = `Stop repeating "${name}": use it where it is natural (under 2% of the words) and let ${m.inSection ? `"${m.inSection}"` : 'one section'} answer the question about it with specifics.`;
  } else if (m.mentions === 0 && !m.inSection && !m.inTitle) {
    gap = `Not mentioned on the page.`;
    action = `Add an H2 section "${cap(name)}" that opens with a 40–60 word answer${question ? ` to "${question}"` : ''}, then give specifics in a list or table.`;
  } else if (!m.inSection) {
    // The count is of passages (sentences, list items, table rows) naming it, not of repetitions.
    gap = `Mentioned in ${m.mentions} passage${m.mentions === 1 ? '' : 's'} but no H2/H3 section covers it.`;
    action = `Add an H2 "${question ? question.replace(/[?？]\s*$/, '').trim() : cap(name)}" with a 40–60 word answer-first paragraph and supporting data.`;
  } else if (!m.inQuestion) {
    gap = `Has the section "${m.inSection}" but no question-style heading or FAQ entry.`;
    action = question ? `Add "${question}" to an FAQ section with a direct 40–60 word answer.` : `Add a question about ${name} to an FAQ section with a direct 40–60 word answer.`;
  } else if (m.mentions < 3) {
    gap = `Covered in a section but only briefly (mentioned in ${m.mentions} passage${m.mentions === 1 ? '' : 's'}).`;
    action = `Expand the "${m.inSection}" section with a statistic, its source and an example.`;
  } else {
    gap = 'Covered: section, question and repeated mentions.';
    // Not "show a visible Updated date": the page may show one already (the date is scored apart).
    action = `Keep "${name}" current: refresh the figures in "${m.inSection}" when they change, and the page's "Updated" date with them.`;
  }
  return { trend: name, coverage, gap, action };
}

export function inferIndustry(explicit: string | null | undefined, topics: FieldTopic[]): string {
  if (explicit && explicit.trim()) return explicit.trim();
  return topics[0]?.name ?? 'general';
}

export interface TopicAdvice {
  topic: FieldTopic;
  coverage: TrendCoverage;
  questions: TopicQuestion[];
  intent: QuestionIntent;
}

/**
 * Each topic's questions, coverage and action, worded in this one place for discover_trends and
 * score_content alike. The first topic is the page's main one unless `main: false` (supplied
 * trends); `asked`: the pages' own questions are in the analysed language.
 */
export function topicAdvice(doc: PageDocument, related: PageDocument[], topics: FieldTopic[], lang: Lang, opts: { main?: boolean; asked?: boolean } = {}): TopicAdvice[] {
  const vendor = isVendor([doc, ...related], [doc, ...related].map((d) => jsonLdTypes(d.jsonLd)));
  const asked = opts.asked ?? true ? [doc, ...related].flatMap((d) => pageQuestions(d, lang)) : [];
  const text = [doc, ...related].map((d) => d.bodyText).join('\n');
  const stuffed = stuffing(doc, lang, topics[0]?.name ?? null);
  return topics.map((t, i) => {
    const main = (opts.main ?? true) && i === 0;
    // Only the page's main topic can be a thing people buy; the rest are asked about, not priced.
    const commercial = main && isCommercial(t.name, doc, vendor);
    // A comparison pairs two things that are both bought.
    const questions = topicQuestions(t.name, { lang, commercial, other: null, pageQuestions: asked, main, text });
    const coverage = assessTrend(doc, t.name, t.tokens, lang, questions[0]?.question, stuffed);
    return { topic: t, coverage, questions, intent: commercial ? 'commercial' : 'informational' };
  });
}

/** The pure part of discoverTrends, for a site already loaded. */
export function trendsFromSite(site: LoadedSite, input: DiscoverTrendsInput): TrendsResult {
  const doc = site.page.document;
  const lang = normalizeLang(input.language ?? doc.language);
  const max = Math.max(1, Math.min(25, Math.floor(input.maxTrends ?? 8)));
  const related = site.related.map((p) => p.document);
  const topics = fieldTopics({ page: doc, related }, lang, max);
  const trends: Trend[] = topicAdvice(doc, related, topics, lang, { asked: normalizeLang(doc.language) === lang }).map(({ topic: t, coverage: c, questions: qs, intent }) => ({
    name: t.name,
    relevance: t.relevance,
    intent,
    gap: c.gap,
    action: c.action,
    questions: qs.map((q) => q.question),
    question_intents: qs.map((q) => q.intent),
  }));
  const sources = [site.page, ...site.related].map((p) => ({
    title: p.document.title ?? p.document.url,
    url: p.document.url,
  }));
  return { url: input.url, industry: inferIndustry(input.industry, topics), generator: 'offline', trends, sources };
}


/** Supplied trend names → tokens (for scoring against supplied trends). */
export function suppliedTopics(trends: (string | { name: string })[], lang: Lang): FieldTopic[] {
  const out: FieldTopic[] = [];
  const seen = new Set<string>();
  for (const t of trends) {
    const name = (typeof t === 'string' ? t : t?.name ?? '').trim();
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push({ name, tokens: phraseTokens(name, lang), relevance: 100 });
  }
  return out;
}


