// The evidence the learned layer of the page-type rule weighs (./page-type-model.ts): every vote
// the hand-written rules cast (./page-kind.ts), and numbers about what the page asks of its
// reader and how its main content is built, which no single rule decides on:
//
// - voice: who speaks to whom ("we … our team … your project" is a business presenting its offer;
//   "I" is a blogger; a story speaks of third parties);
// - calls to action among the page's link texts, by kind: book, quote, contact, consult, enrol,
//   trial, cart, read more, subscribe, share, comment, download;
// - the layout's counts (cards, priced cards, price boxes, cart buttons, posts, a docs tree);
// - the main text's shape (words, paragraphs, lists, links per 100 words, words per paragraph);
// - the address's shape (depth, words in the last part, a year, a number, a query);
// - the headings' grammar (questions, numbers, "you", "we", imperatives, length);
// - the title's grammar (a question, a number first, a ranking, a year, "you", "we");
// - prices: how many distinct ones, one at the top, exactly one.
//
// Every number is named so that the model's reasons can be read (typeEvidenceLabel). Cheap: a
// few regular expressions over the main text and the link texts the extractor already holds.
import type { PageDocument } from './document.ts';
import type { PageType, PageTypeVote } from './page-kind.ts';

export const PAGE_TYPES: PageType[] = ['article', 'product', 'collection', 'listing', 'documentation', 'forum', 'service', 'home'];

// Calls to action by what they ask the reader to do.
const CTA: Record<string, RegExp> = {
  book: /\b(?:book|schedule|reserve)\b.{0,20}\b(?:appointment|call|consultation|visit|now|online|a tour|demo|session|meeting)\b|\bbook now\b/gi,
  quote: /\b(?:get|request|free)\b.{0,12}\b(?:quote|estimate|proposal|pricing)\b/gi,
  contact: /\b(?:contact us|contact sales|get in touch|call us|call now|talk to|speak (?:to|with)|let.s talk)\b/gi,
  consult: /\bconsultation\b/gi,
  enrol: /\b(?:enrol+|apply now|register|request info(?:rmation)?|admissions?)\b/gi,
  trial: /\b(?:free trial|try (?:it )?(?:for )?free|sign up|get started|start (?:for )?free|get a demo|request a demo|book a demo)\b/gi,
  cart: /\b(?:add to (?:cart|bag|basket)|buy now|add to wishlist|checkout)\b/gi,
  read: /\b(?:read more|continue reading|read the (?:full|article)|related (?:articles|posts|stories))\b/gi,
  subscribe: /\b(?:subscribe|newsletter)\b/gi,
  share: /\b(?:share|tweet|facebook|linkedin)\b/gi,
  comment: /\b(?:leave a (?:reply|comment)|comments?|reply)\b/gi,
  download: /\bdownload\b/gi,
};
const WE = /\b(?:we|our|us|we're|we'll|ours)\b/gi;
const YOU = /\b(?:you|your|you're|you'll|yours)\b/gi;
const I = /\b(?:i|my|me|i'm|i've)\b/gi;
const PHONE = /\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/g;
const IMPERATIVE = /^(?:get|book|learn|discover|explore|find|start|contact|request|schedule|shop|join|try|see|call|why|how we|our|what we)\b/i;
const RANKING = /^\s*(?:the )?(?:\d+\s|best\b|top\b|how\b|why\b|what\b|guide\b)/i;
const PRICE = /[$€£]\s?\d[\d.,]*/g;

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
/** Matches per 100 words (`n`: the text's words, counted once per page). */
const rate = (text: string, re: RegExp, n: number) => (100 * count(text, re)) / Math.max(1, n);
/** The main text read for evidence: its first 200,000 characters, so a huge page costs no more than that. */
const EVIDENCE_CHARS = 200_000;
const share = <T>(xs: T[], test: (x: T) => boolean) => xs.filter(test).length / Math.max(1, xs.length);

/** The evidence for one page, by name; `votes` and `ruleType` are the hand-written rules' own. */
export function typeEvidence(doc: PageDocument, votes: PageTypeVote[], ruleType: PageType): Record<string, number> {
  const f: Record<string, number> = {};
  for (const v of votes) f[`vote:${v.rule}>${v.type}`] = 1;
  for (const t of PAGE_TYPES) f[`points:${t}`] = Math.log1p(votes.filter((v) => v.type === t).reduce((a, v) => a + v.points, 0));
  f[`rule:${ruleType}`] = 1;

  const text = doc.bodyText.length > EVIDENCE_CHARS ? doc.bodyText.slice(0, EVIDENCE_CHARS) : doc.bodyText;
  const n = words(text);
  const w = Math.max(1, doc.wordCount);
  f['voice:we'] = rate(text, WE, n);
  f['voice:you'] = rate(text, YOU, n);
  f['voice:i'] = rate(text, I, n);
  f['voice:we×you'] = f['voice:we'] * f['voice:you'];
  const anchors = doc.links.all
    .map((l) => l.text.trim())
    .filter(Boolean)
    .join(' \n');
  for (const [kind, re] of Object.entries(CTA)) {
    f[`link:${kind}`] = Math.log1p(count(anchors, re));
    f[`text:${kind}`] = Math.log1p(count(text, re));
  }
  f.phone = Math.log1p(count(`${text} ${anchors}`, PHONE));

  const L = doc.page?.layout;
  const cards = L?.cards ?? 0;
  const pricedCards = L?.pricedCards ?? 0;
  f['layout:cards'] = Math.log1p(cards);
  f['layout:priced cards'] = Math.log1p(pricedCards);
  f['layout:priced share of cards'] = pricedCards / Math.max(1, cards);
  f['layout:prices'] = Math.log1p(L?.prices ?? 0);
  f['layout:cart buttons'] = Math.log1p(L?.cartButtons ?? 0);
  f['layout:calls to action'] = Math.log1p(L?.ctas ?? 0);
  f['layout:posts'] = Math.log1p(L?.posts ?? 0);
  f['layout:nav tree'] = Math.log1p(L?.navTreeLinks ?? 0);
  f['layout:code'] = Math.log1p(L?.codeBlocks ?? 0);
  f['layout:pager'] = L?.pagination ? 1 : 0;

  const paras = doc.blocks.filter((b) => b.kind === 'paragraph').length;
  f['main:words'] = Math.log1p(doc.wordCount);
  f['main:paragraphs'] = Math.log1p(paras);
  f['main:lists'] = Math.log1p(doc.blocks.filter((b) => b.kind === 'list').length);
  f['main:code'] = Math.log1p(doc.blocks.filter((b) => b.kind === 'code').length);
  f['main:links'] = Math.log1p(doc.links.main.length);
  f['main:links per 100 words'] = doc.links.main.length / Math.max(1, w / 100);
  f['main:published'] = doc.dates.published ? 1 : 0;
  f['main:words per paragraph'] = Math.log1p(w / Math.max(1, paras));

  let path = '/';
  let query = '';
  try {
    const u = new URL(doc.url);
    path = u.pathname;
    query = u.search;
  } catch {
    /* keep "/" */
  }
  const segs = path.toLowerCase().split('/').filter(Boolean);
  const last = (segs.at(-1) ?? '').replace(/\.\w+$/, '');
  f['url:depth'] = segs.length;
  f['url:words in last part'] = last.split(/[-_]/).filter(Boolean).length;
  f['url:year'] = /\/(?:19|20)\d\d\//.test(path) ? 1 : 0;
  f['url:number'] = /\d{3,}/.test(path) ? 1 : 0;
  f['url:query'] = query.length > 1 ? 1 : 0;

  const all = doc.headings.map((h) => h.text);
  const hs = all.slice(1);
  f['headings:count'] = Math.log1p(hs.length);
  f['headings:questions'] = share(hs, (h) => h.trim().endsWith('?'));
  f['headings:numbered'] = share(hs, (h) => /^\s*#?\d+[.):]?\s/.test(h));
  f['headings:you'] = share(hs, (h) => /\b(?:you|your)\b/i.test(h));
  f['headings:we'] = share(hs, (h) => /\b(?:we|our|us)\b/i.test(h));
  f['headings:imperative'] = share(hs, (h) => IMPERATIVE.test(h.trim()));
  f['headings:words'] = hs.reduce((a, h) => a + words(h), 0) / Math.max(1, hs.length);
  f['headings:short'] = share(hs, (h) => words(h) <= 4);

  const title = doc.title ?? '';
  const titleHead = (title.split(/\s[|–—-]\s/)[0] ?? '').trim().toLowerCase();
  f['title:question'] = title.includes('?') ? 1 : 0;
  f['title:number first'] = /^\s*\d/.test(title) ? 1 : 0;
  f['title:ranking'] = RANKING.test(title) ? 1 : 0;
  f['title:words'] = Math.log1p(words(title));
  f['title:year'] = /\b20\d\d\b/.test(title) ? 1 : 0;
  f['title:you'] = /\b(?:your|you)\b/i.test(title) ? 1 : 0;
  f['title:we'] = /\b(?:we|our|us)\b/i.test(title) ? 1 : 0;
  f['title:is first heading'] = all.length && all[0]!.trim().toLowerCase().slice(0, 30) === titleHead.slice(0, 30) ? 1 : 0;
  const og = doc.openGraph['type'] ?? '';
  f['og:article'] = og === 'article' ? 1 : 0;
  f['og:website'] = og === 'website' ? 1 : 0;
  f['og:none'] = og ? 0 : 1;

  const sentences = text.split(/(?<=[.!?])\s+/);
  f['text:question sentences'] = share(sentences, (s) => s.endsWith('?'));
  f['text:numbers per 100 words'] = rate(text, /\b\d[\d,.]*\b/g, n);
  const prices = text.match(PRICE) ?? [];
  f['prices:distinct'] = Math.log1p(new Set(prices).size);
  f['prices:one at the top'] = /[$€£]\s?\d/.test(text.slice(0, 500)) ? 1 : 0;
  f['prices:exactly one'] = new Set(prices).size === 1 ? 1 : 0;
  return f;
}
