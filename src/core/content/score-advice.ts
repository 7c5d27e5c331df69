// The text of the content score's recommendations: for each signal, what to change on this page,
// concretely, in words built from the page's own signals (its title, counts, the crawlers blocked).
import type { PageDocument } from '../pages/document.ts';
import { BLOCKED_CAP, EXPECTED_SCHEMA, plural } from './score-rules.ts';
import { cap } from './questions.ts';
import { isGenericTitle, stripSiteName } from './signals.ts';
import type { Lang } from './text.ts';
import type { CrawlFacts, PageSignals } from './types.ts';

export interface RuleContext {
  s: PageSignals;
  doc: PageDocument;
  topic: string;
  lang: Lang;
  crawl: CrawlFacts | null;
}

export const q = (s: string) => `"${s}"`;

/**
 * The text of each signal's recommendation: what to change on this page, concretely. `also`
 * holds the signals that joined it as one action (see ACTIONS), so the text asks for all of it.
 */
export const ADVICE: Record<string, { title: string | ((c: RuleContext, also: Set<string>) => string); text(c: RuleContext, also: Set<string>): string }> = {
  answer_first: {
    title: 'Lead with a direct answer',
    text: ({ s, doc, topic }) =>
      s.citability.lead_repeats
        ? `Rewrite the opening paragraph: it repeats ${q(s.citability.lead_repeats)} instead of answering. Say in 40–60 words what the page answers and for whom, with one specific fact, and name the phrase once.`
        : s.citability.lead_paragraph_words > 100
        ? `Replace the ${s.citability.lead_paragraph_words}-word opening paragraph with a 40–60 word answer to ${promise(doc, s, topic)}; move the background below it.`
        : `Open the page with a 40–60 word paragraph that answers ${promise(doc, s, topic)}, before any introduction.`,
  },
  named_sources: {
    title: (_c, also) => (also.has('linked_sources') ? 'Name and link the source of each claim' : 'Name the source of each claim'),
    text: ({ s }, also) =>
      `Name who says so next to the page's main claims (${s.evidence.attributed_claims + s.evidence.linked_claims} ${s.evidence.attributed_claims + s.evidence.linked_claims === 1 ? 'passage does' : 'passages do'} today): "according to <organisation>'s <year> <report>", a study's authors, an official body${also.has('linked_sources') ? ', linked in the sentence that uses it (the report, dataset or standard itself, not a homepage)' : ''}.`,
  },
  linked_sources: {
    title: 'Link your sources',
    text: () => 'Link each named source in the sentence that uses it (the report, dataset or standard itself, not a homepage), so an assistant can verify and cite the claim.',
  },
  sourced_statistics: {
    // Every figure may already name its source and still be too few (2 earn full points): then
    // the advice is to add one, not to source what is sourced.
    title: ({ s }) => (s.evidence.statistics > s.evidence.sourced_statistics ? 'Back figures with sources' : 'Add sourced figures'),
    text: ({ s }) =>
      s.evidence.statistics > s.evidence.sourced_statistics
        ? `${s.evidence.statistics - s.evidence.sourced_statistics} of ${plural(s.evidence.statistics, 'passage')} with figures ${s.evidence.statistics - s.evidence.sourced_statistics === 1 ? 'gives' : 'give'} no source: add the publisher and year to each figure and link it.`
        : s.evidence.statistics
          ? `${s.evidence.statistics === 1 ? 'The one passage with a figure names its source' : `All ${s.evidence.statistics} passages with figures name their source`}; add another specific figure (with unit and year) from a named, linked source where the page makes a quantitative claim.`
          : 'Add 2–3 specific figures (with unit and year) from a named, linked source where the page makes quantitative claims.',
  },
  attributed_quotations: {
    title: 'Quote a named expert',
    text: ({ s }) =>
      s.evidence.unattributed_quotations
        ? `Name the speaker (name and role) of the ${plural(s.evidence.unattributed_quotations, 'quotation')} without one.`
        : 'Add a short quotation from a named practitioner or expert (name, role, organisation) where the page gives advice.',
  },
  h1: {
    title: 'Use one H1',
    text: ({ s, doc, topic }) => {
      if (s.structure.h1_count > 1) return `Keep one H1 (${q(s.structure.h1_texts[0]!)}) and turn the other ${s.structure.h1_count - 1} into H2s.`;
      // A generic title ("Home") is no example of a heading that names the page: the topic is.
      const example = doc.title && !isGenericTitle(doc.title) ? stripSiteName(doc.title) : topic !== 'this topic' ? cap(topic) : null;
      return `Add one H1 that names the page${example ? `, e.g. ${q(example)}` : ': what it offers and for whom'}.`;
    },
  },
  sections: {
    title: 'Break the text into sections',
    text: ({ s }, also) =>
      `Split the ${s.structure.word_count} words (${s.structure.h2_count + s.structure.h3_count} subheadings now) into H2/H3 sections of 150–350 words, each heading saying what the section answers${also.has('section_answers') ? ' and each section opening with a 1–2 sentence answer to it' : ''}.`,
  },
  section_answers: {
    title: 'Open each section with its answer',
    text: ({ s }) => `Start each section with a 1–2 sentence answer to its heading (${s.citability.sections_answer_first} of ${s.citability.sections} do), then the detail.`,
  },
  lists_tables: {
    title: 'Add a list or table',
    text: () => 'Turn enumerations into bulleted lists and comparisons or specifications into a table; assistants lift lists and tables verbatim.',
  },
  questions_answered: {
    title: 'Answer the questions people ask',
    text: ({ s }) => `Add an FAQ section with 3–5 questions customers ask about ${s.page_type === 'product' ? 'this product' : 'the topic'}, each answered in 40–60 words, marked up as FAQPage JSON-LD.`,
  },
  paragraph_length: {
    title: 'Shorten long paragraphs',
    text: ({ s }) =>
      `Split the ${plural(s.structure.long_paragraphs, 'paragraph')} longer than 150 words (longest: ${s.structure.longest_paragraph_words}) into paragraphs of 2–4 sentences, each opening with its point.`,
  },
  author: {
    title: 'Show a checkable author',
    text: ({ s }) =>
      s.citability.author
        ? `Link the author ${q(s.citability.author)} to a profile page and add "url" and "sameAs" to the author Person in the JSON-LD.`
        : 'Add a visible byline with the author\'s name and role, linked to a profile page, and an author Person (name, url, sameAs) in the JSON-LD.',
  },
  organization: {
    title: 'Identify the organization',
    text: ({ s }) =>
      s.citability.organization
        ? `Add an Organization for ${q(s.citability.organization)} with url, logo and sameAs (official profiles) to the JSON-LD.`
        : 'Add an Organization (name, url, logo, sameAs) as publisher in the JSON-LD.',
  },
  declared_date: {
    // A page that declares an old date is told to update it, not to declare one.
    title: ({ s }) => (s.freshness.newest_source === 'json-ld/meta' ? `Update the page: last updated ${plural(s.freshness.age_days ?? 0, 'day')} ago` : 'Declare when the page was updated'),
    text: ({ s }) =>
      s.freshness.newest_source === 'json-ld/meta'
        ? `The declared date is ${s.freshness.newest} (${s.freshness.age_days} days ago): review the facts and figures, then set dateModified in the JSON-LD and a visible "Updated" date.`
        : `Declare the page's dates: datePublished and dateModified in the JSON-LD (or article:modified_time) and a visible <time datetime> "Updated" date${s.freshness.newest_source === 'http' ? '; the Last-Modified header alone is not trusted' : ''}.`,
  },
  title: {
    title: 'Write a descriptive title',
    text: ({ s }) =>
      isGenericTitle(s.meta.title)
        ? `Replace the generic title ${q(s.meta.title!)} with a <title> of 50–60 characters that says what the page offers and for whom; assistants and results pages show it as the page's name.`
        : `Write a <title> of 50–60 characters that says what the page offers${s.meta.title ? ` (now ${s.meta.title_length} characters)` : ''}.`,
  },
  meta_description: {
    title: 'Write a meta description',
    text: ({ s }) => `Write a meta description of 140–160 characters summarizing what this ${s.page_type} page answers and for whom${s.meta.description ? ` (now ${s.meta.description_length} characters)` : ''}.`,
  },
  canonical: { title: 'Add a canonical URL', text: ({ doc }) => `Add <link rel="canonical" href="${doc.url}"> so copies and tracking-parameter variants are attributed to this URL.` },
  schema: {
    title: 'Add structured data for the page type',
    text: ({ s }) => {
      const have = new Set(s.citability.json_ld_types);
      const missing = EXPECTED_SCHEMA[s.page_type].filter((e) => !e.types.some((t) => have.has(t)));
      return `Add schema.org JSON-LD: ${missing.map((e) => e.label).join('; ')}.`;
    },
  },
  trend_coverage: { title: 'Cover the topics of the field', text: () => 'See the trend_gap recommendations below for the topics to cover.' },
  keyword_stuffing: {
    title: 'Stop repeating the keyword',
    text: ({ s }) => {
      const k = s.evidence.keyword_stuffing!;
      return `"${k.phrase}" appears ${k.count} times (${(k.density * 100).toFixed(1)}% of the words): write for the reader, use the phrase where it is natural (under 2%) and vary the wording; generative engines do not reward repetition.`;
    },
  },
  placeholder_text: {
    title: 'Replace the placeholder text',
    text: ({ s }) => `Replace the template filler (${q(s.evidence.placeholder_text[0] ?? '')}) with the page's real copy, or keep the page unpublished until it has some; assistants and search engines read filler as a page with nothing to say.`,
  },
  unsourced_figures: {
    title: 'Source or remove unsourced figures',
    text: ({ s }) =>
      `Give each figure its source (publisher and year, linked) or remove it; ${plural(s.evidence.unsourced_figures.length, 'passage')} state figures with none, e.g. ${q(s.evidence.unsourced_figures[0] ?? '')}.`,
  },
  vague_attribution: {
    title: (_c, also) => (also.size ? 'Name and link the source of each claim' : 'Replace vague attribution with names'),
    text: ({ s }, also) =>
      `Replace ${[...new Set(s.evidence.vague_attribution)].slice(0, 3).map(q).join(', ')} with the named study, organisation or person, linked in the sentence (the report itself, not a homepage)` +
      (also.has('named_sources') ? `; name the source of the page's other main claims the same way (${s.evidence.attributed_claims + s.evidence.linked_claims} ${s.evidence.attributed_claims + s.evidence.linked_claims === 1 ? 'passage does' : 'passages do'} today)` : '') +
      '.',
  },
  outdated_figures: {
    title: 'Update old figures',
    text: ({ s }) => `Replace the figures dated three or more years ago with current ones (and their sources), e.g. in ${q(s.evidence.outdated_figures[0] ?? '')}, then update dateModified.`,
  },
  inconsistent_dates: {
    title: 'Make the declared dates agree',
    text: ({ s }) => `dateModified (${s.freshness.modified}) is before datePublished (${s.freshness.published}): set dateModified to the date of the last real update.`,
  },
  json_ld_errors: {
    title: 'Fix broken JSON-LD',
    text: ({ s }) => `Fix the ${plural(s.citability.json_ld_errors, 'JSON-LD block')} that do not parse (trailing commas, unescaped quotes); crawlers ignore invalid blocks.`,
  },
  snippet_restricted: {
    title: 'Allow snippets',
    text: ({ crawl }) => `Remove nosnippet / raise max-snippet (now restricting ${crawl?.snippet_restricted.join(', ')}); AI Overviews and assistants show nothing of a page that forbids snippets. Use data-nosnippet on the few passages you must keep out.`,
  },
  needs_javascript: {
    title: 'Render the content in the HTML',
    text: () => 'Serve the copy in the HTML (server-side rendering or prerendering): GPTBot, ClaudeBot, PerplexityBot and most AI crawlers do not run JavaScript, so they see an empty page.',
  },
  crawl_access: {
    title: 'Let AI search crawlers in',
    text: ({ crawl }) =>
      [
        crawl?.blocked_search.length ? `robots.txt blocks ${crawl.blocked_search.join(', ')}: add "Allow" groups for the search and user-triggered agents you want to be cited by (blocking only training crawlers such as GPTBot, ClaudeBot or Google-Extended is your choice and costs nothing here).` : '',
        crawl?.noindex.length ? `Remove noindex (${crawl.noindex.join(', ')}) from the meta robots tag or X-Robots-Tag header.` : '',
        `Until then the overall score stays at most ${BLOCKED_CAP}, whatever else is fixed.`,
      ].filter(Boolean).join(' '),
  },
};

/** What the page promises, for "answer …": its H1 or title, quoted, unless generic ("Home"),
 * then its topic. */
function promise(doc: PageDocument, s: PageSignals, topic: string): string {
  const name = [s.page_h1, doc.title ? stripSiteName(doc.title) : null].find((n): n is string => !!n && !isGenericTitle(n));
  if (name) return `what ${q(name)} promises`;
  return topic !== 'this topic' ? `what a reader looking for ${q(topic)} came for` : 'what a reader came to the page for';
}
