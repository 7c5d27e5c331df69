// Prompt suggestions for AI Visibility runs: questions a person would ask an assistant about
// the page's category, built from the page's own keyphrases, in the request's language
// (en, de, fr, es templates; others fall back to English), covering intents and funnel stages.
// The one thing to know: the brand appears only in branded intents (comparison, alternatives,
// reviews); everything else is unbranded so it measures whether the assistant names the brand
// by itself. Deterministic: same page and input, same prompts in the same order.
import { extractEntities } from './keyphrases.ts';
import { measureSignals, stripSiteName } from './signals.ts';
import type { LoadedSite } from './site.ts';
import { normalizeLang, words, type Lang } from './text.ts';
import { fieldTopics, inferIndustry } from './trends.ts';
import { cap, englishForms, isCommercial, isVendor, pageQuestions, topicQuestions, type QuestionIntent } from './questions.ts';
import { jsonLdTypes } from './keyphrases.ts';
import type { FunnelStage, Intent, PromptSuggestion, PromptsResult, SuggestPromptsInput } from './types.ts';

/** The funnel stage of each prompt intent. */
export const FUNNEL: Record<Intent, FunnelStage> = {
  category_discovery: 'awareness',
  problem_solution: 'awareness',
  how_to: 'awareness',
  comparison: 'consideration',
  alternatives: 'consideration',
  reviews: 'decision',
  pricing: 'decision',
};
const INTENT_ORDER: Intent[] = ['category_discovery', 'comparison', 'problem_solution', 'pricing', 'alternatives', 'how_to', 'reviews'];

// Market phrases per language: how a person says "in <country>".
const MARKETS: Record<string, Partial<Record<Lang, string>>> = {
  US: { en: 'in the US', de: 'in den USA', fr: 'aux États-Unis', es: 'en Estados Unidos' },
  GB: { en: 'in the UK', de: 'in Großbritannien', fr: 'au Royaume-Uni', es: 'en el Reino Unido' },
  UK: { en: 'in the UK', de: 'in Großbritannien', fr: 'au Royaume-Uni', es: 'en el Reino Unido' },
  DE: { en: 'in Germany', de: 'in Deutschland', fr: 'en Allemagne', es: 'en Alemania' },
  AT: { en: 'in Austria', de: 'in Österreich', fr: 'en Autriche', es: 'en Austria' },
  CH: { en: 'in Switzerland', de: 'in der Schweiz', fr: 'en Suisse', es: 'en Suiza' },
  FR: { en: 'in France', de: 'in Frankreich', fr: 'en France', es: 'en Francia' },
  BE: { en: 'in Belgium', de: 'in Belgien', fr: 'en Belgique', es: 'en Bélgica' },
  ES: { en: 'in Spain', de: 'in Spanien', fr: 'en Espagne', es: 'en España' },
  MX: { en: 'in Mexico', de: 'in Mexiko', fr: 'au Mexique', es: 'en México' },
  AR: { en: 'in Argentina', de: 'in Argentinien', fr: 'en Argentine', es: 'en Argentina' },
  IT: { en: 'in Italy', de: 'in Italien', fr: 'en Italie', es: 'en Italia' },
  NL: { en: 'in the Netherlands', de: 'in den Niederlanden', fr: 'aux Pays-Bas', es: 'en los Países Bajos' },
  CA: { en: 'in Canada', de: 'in Kanada', fr: 'au Canada', es: 'en Canadá' },
  AU: { en: 'in Australia', de: 'in Australien', fr: 'en Australie', es: 'en Australia' },
  IE: { en: 'in Ireland', de: 'in Irland', fr: 'en Irlande', es: 'en Irlanda' },
  IN: { en: 'in India', de: 'in Indien', fr: 'en Inde', es: 'en India' },
};

interface Slots {
  /** The category as a bare noun phrase ("project management software", "standing desk"). */
  cat: string;
  /** English forms of the category: plural ("standing desks") and with article ("a standing desk"); mass nouns keep one form. */
  catPlural: string;
  catSingle: string;
  mass: boolean;
  brand: string | null;
  rival: string | null; // a competitor
  m: string; // " in Germany" or ""
}
type Template = (s: Slots) => string | null;

// Vendor intents: asked about something bought, so they are used only when the site sells
// (see questions.ts isVendor). The German, French and Spanish sentences need no article or
// gender for the category: "Anbieter für X", "fournisseurs de X", "proveedores de X", "X : …".
const T: Record<'en' | 'de' | 'fr' | 'es', Partial<Record<Intent, Template[]>>> = {
  en: {
    category_discovery: [
      (s) => `Which ${s.catPlural} would you recommend${s.m}?`,
      (s) => `What are the leading ${s.cat} providers${s.m}?`,
      (s) => `I'm looking for ${s.mass ? s.cat : s.catSingle}${s.m}. What are my best options?`,
    ],
    how_to: [
      (s) => `How do I choose the right ${s.cat}?`,
      (s) => `What should I look for when comparing ${s.catPlural}?`,
    ],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} or ${s.rival}: which is better?` : null),
      (s) => (s.brand ? `How does ${s.brand} compare to other ${s.cat} providers?` : null),
      (s) => (!s.brand ? `Can you compare the most popular ${s.catPlural}${s.m}?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `What are good alternatives to ${s.rival}?` : null),
      (s) => (s.brand ? `What are the best alternatives to ${s.brand}?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `Is ${s.brand} any good? What do customers say about it?` : null),
      (s) => (s.brand ? `What are the pros and cons of ${s.brand}?` : null),
      (s) => (s.rival ? `What do reviews say about ${s.rival}?` : null),
    ],
    pricing: [
      (s) => `How much does ${s.mass ? s.cat : s.catSingle} typically cost${s.m}?`,
      (s) => (s.mass ? `Is there affordable ${s.cat} for a small team${s.m}?` : `Are there affordable ${s.catPlural} for a small budget${s.m}?`),
    ],
  },
  de: {
    category_discovery: [
      (s) => `Welche Anbieter für ${s.cat} kannst du${s.m} empfehlen?`,
      (s) => `Wer sind die führenden Anbieter für ${s.cat}${s.m}?`,
    ],
    how_to: [(s) => `${cap(s.cat)}: Worauf sollte ich bei der Auswahl achten?`, (s) => `${cap(s.cat)}: Welche Kriterien helfen beim Vergleich der Anbieter?`],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} oder ${s.rival}: Was ist besser?` : null),
      (s) => (s.brand ? `Wie schneidet ${s.brand} im Vergleich zu anderen Anbietern für ${s.cat} ab?` : null),
      (s) => (!s.brand ? `Kannst du die bekanntesten Anbieter für ${s.cat}${s.m} vergleichen?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `Was sind gute Alternativen zu ${s.rival}?` : null),
      (s) => (s.brand ? `Welche Alternativen zu ${s.brand} gibt es?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `Ist ${s.brand} empfehlenswert? Was sagen Kunden?` : null),
      (s) => (s.brand ? `Was sind die Vor- und Nachteile von ${s.brand}?` : null),
      (s) => (s.rival ? `Welche Erfahrungen gibt es mit ${s.rival}?` : null),
    ],
    pricing: [(s) => `${cap(s.cat)}: Mit welchen Kosten muss ich${s.m} rechnen?`, (s) => `Gibt es günstige Angebote für ${s.cat}${s.m}?`],
  },
  fr: {
    category_discovery: [
      (s) => `Quels fournisseurs de ${s.cat} me recommandes-tu${s.m} ?`,
      (s) => `Quels sont les principaux fournisseurs de ${s.cat}${s.m} ?`,
    ],
    how_to: [(s) => `${cap(s.cat)} : quels critères pour bien choisir ?`, (s) => `Quels critères comparer entre les offres de ${s.cat} ?`],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} ou ${s.rival} : lequel choisir ?` : null),
      (s) => (s.brand ? `Comment ${s.brand} se situe-t-il face aux autres fournisseurs de ${s.cat} ?` : null),
      (s) => (!s.brand ? `Peux-tu comparer les offres de ${s.cat} les plus connues${s.m} ?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `Quelles sont les bonnes alternatives à ${s.rival} ?` : null),
      (s) => (s.brand ? `Quelles alternatives à ${s.brand} existent ?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `${s.brand} : que disent les avis clients ?` : null),
      (s) => (s.brand ? `Quels sont les avantages et inconvénients de ${s.brand} ?` : null),
      (s) => (s.rival ? `Que disent les avis sur ${s.rival} ?` : null),
    ],
    pricing: [(s) => `${cap(s.cat)} : quel budget prévoir${s.m} ?`, (s) => `Existe-t-il des offres de ${s.cat} abordables${s.m} ?`],
  },
  es: {
    category_discovery: [
      (s) => `¿Qué proveedores de ${s.cat} me recomiendas${s.m}?`,
      (s) => `¿Cuáles son los principales proveedores de ${s.cat}${s.m}?`,
    ],
    how_to: [(s) => `${cap(s.cat)}: ¿qué criterios seguir para elegir bien?`, (s) => `¿Qué debo comparar entre las ofertas de ${s.cat}?`],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} o ${s.rival}: ¿cuál elegir?` : null),
      (s) => (s.brand ? `¿Cómo se compara ${s.brand} con otros proveedores de ${s.cat}?` : null),
      (s) => (!s.brand ? `¿Puedes comparar las opciones de ${s.cat} más conocidas${s.m}?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `¿Cuáles son buenas alternativas a ${s.rival}?` : null),
      (s) => (s.brand ? `¿Qué alternativas a ${s.brand} existen?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `${s.brand}: ¿qué opinan los clientes?` : null),
      (s) => (s.brand ? `¿Cuáles son las ventajas y desventajas de ${s.brand}?` : null),
      (s) => (s.rival ? `¿Qué dicen las opiniones sobre ${s.rival}?` : null),
    ],
    pricing: [(s) => `${cap(s.cat)}: ¿cuánto cuesta${s.m}?`, (s) => `¿Hay opciones de ${s.cat} asequibles${s.m}?`],
  },
};

const WHY: Record<Intent, string> = {
  category_discovery: 'Unbranded category question: shows whether the assistant names the brand on its own when asked for options',
  problem_solution: 'Problem-first question from the awareness stage: the brand has to be recommended as the solution',
  how_to: 'How-to question: assistants answer with guides and often cite or name providers along the way',
  comparison: 'Comparison question from the consideration stage: shows how the brand is positioned against others',
  alternatives: 'Alternatives question: shows whether the brand is listed when buyers look past a named product',
  reviews: 'Review question from the decision stage: shows what the assistant says about reputation',
  pricing: 'Pricing question from the decision stage: shows which providers the assistant names for cost-conscious buyers',
};

function normalizeForDedupe(s: string): string {
  return s.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

const INTENT_CLASS: Record<Intent, QuestionIntent> = {
  category_discovery: 'commercial',
  pricing: 'commercial',
  reviews: 'commercial',
  how_to: 'informational',
  problem_solution: 'informational',
  comparison: 'comparison',
  alternatives: 'comparison',
};
const VENDOR_INTENTS = new Set<Intent>(['category_discovery', 'pricing', 'reviews', 'comparison', 'alternatives']);

/**
 * The pure part: prompts from an already-known category and topics. Vendor intents (which
 * providers, pricing, reviews, comparisons, alternatives) only when the site sells; every site
 * gets the informational questions of its topics (the page's own questions first).
 */
export function buildPrompts(opts: {
  lang: Lang;
  country?: string | null;
  category: string;
  topics: string[];
  brand: string | null;
  competitors: string[];
  count: number;
  /** The site sells something (default true). A publisher, forum or reference site does not. */
  vendor?: boolean;
  /** Questions the site's pages already ask. */
  pageQuestions?: string[];
  /** The category is bought (the page prices it): unbranded buying prompts fit even when the site does not sell it. */
  commercialCategory?: boolean;
  /** The site's text (decides English count/mass forms). */
  text?: string;
}): PromptSuggestion[] {
  const tl = opts.lang === 'de' || opts.lang === 'fr' || opts.lang === 'es' ? opts.lang : 'en';
  const vendor = opts.vendor ?? true;
  const templates = T[tl];
  const market = opts.country ? MARKETS[opts.country.toUpperCase()]?.[tl] : undefined;
  const en = englishForms(opts.category, opts.text);
  const catBare = en.mass ? opts.category : en.single.replace(/^an? /, '');
  const rivals = opts.competitors.length ? opts.competitors : [null];
  // Informational prompts: the questions of each topic (never a cost question for a topic not bought).
  const informational: { prompt: string; topic: string }[] = [];
  for (const topic of [opts.category, ...opts.topics]) {
    for (const q of topicQuestions(topic, { lang: opts.lang, commercial: (vendor || !!opts.commercialCategory) && topic === opts.category, pageQuestions: opts.pageQuestions, main: topic === opts.category, text: opts.text })) {
      if (q.intent === 'informational') informational.push({ prompt: q.question, topic });
    }
  }
  const out: PromptSuggestion[] = [];
  const seen = new Set<string>();
  const add = (prompt: string, intent: Intent, why: string) => {
    const clean = cap(prompt.replace(/\s+/g, ' ').trim());
    const key = normalizeForDedupe(clean);
    if (seen.has(key) || out.length >= opts.count) return false;
    seen.add(key);
    out.push({ prompt: clean, intent, intent_class: INTENT_CLASS[intent], funnel_stage: FUNNEL[intent], why });
    return true;
  };
  // A publisher or forum writing about something people buy gets the unbranded buying prompts
  // (which providers, what it costs, how to choose); brand reviews, comparisons and alternatives
  // are for vendors only.
  const order: Intent[] = vendor
    ? INTENT_ORDER
    : opts.commercialCategory
      ? ['category_discovery', 'problem_solution', 'pricing', 'how_to']
      : ['how_to', 'problem_solution'];
  const brand = vendor ? opts.brand : null;
  let info = 0;
  for (let round = 0; round < 12 && out.length < opts.count; round++) {
    for (const intent of order) {
      if (out.length >= opts.count) break;
      if (intent === 'problem_solution' || (intent === 'how_to' && !vendor && !opts.commercialCategory)) {
        // Informational: the next topic question.
        while (info < informational.length) {
          const q = informational[info++]!;
          const kind: Intent = /^(how|wie|comment|cómo|¿cómo)\b/i.test(q.prompt) ? 'how_to' : 'problem_solution';
          if (add(q.prompt, kind, `${WHY[kind]}; asked about the page's topic "${q.topic}".`)) break;
        }
        continue;
      }
      if (!VENDOR_INTENTS.has(intent) && intent !== 'how_to') continue;
      const list = templates[intent] ?? [];
      for (let attempt = 0; attempt < list.length * rivals.length; attempt++) {
        const k = round + attempt;
        const tpl = list[k % list.length]!;
        const rival = rivals[k % rivals.length] ?? null;
        const m = market && (round % 2 === 0 || intent === 'pricing') ? ' ' + market : '';
        const text = tpl({ cat: tl === 'en' ? catBare : opts.category, catPlural: en.plural, catSingle: en.single, mass: en.mass, brand, rival: vendor ? rival : null, m });
        if (!text) continue;
        const prompt = text.replace(/\s+([?.,:])/g, (_x, p: string) => (tl === 'fr' && (p === '?' || p === ':') ? ' ' + p : p));
        if (add(prompt, intent, `${WHY[intent]}; about the site's category "${opts.category}".`)) break;
      }
    }
    if (!vendor && !opts.commercialCategory && info >= informational.length) break;
  }
  return out;
}

/** The pure, CPU-bound part of suggestPrompts for a site already loaded (runs in an analysis thread). */
export function promptsFromSite(site: LoadedSite, input: SuggestPromptsInput): PromptsResult {
  const count = Math.max(1, Math.min(25, Math.floor(input.count ?? 10)));
  const doc = site.page.document;
  const lang = normalizeLang(input.language ?? doc.language);
  const topics = fieldTopics({ page: doc, related: site.related.map((p) => p.document) }, lang, 6);
  const industry = inferIndustry(null, topics);
  const signals = measureSignals(doc, { language: lang, now: new Date(0) });
  let brand = input.brand?.trim() || null;
  if (!brand) {
    const org = extractEntities('', doc.jsonLd, lang).find((e) => e.type === 'organization' || e.type === 'brand');
    brand = org?.name ?? signals.citability.organization ?? doc.openGraph['site_name'] ?? null;
  }
  const brandLower = brand?.toLowerCase() ?? '';
  // Topic phrases must not contain the brand: unbranded prompts stay unbranded.
  const clean = topics.map((t) => t.name).filter((n) => !brandLower || !n.toLowerCase().includes(brandLower));
  const related = site.related.map((p) => p.document);
  const competitors = (input.competitors ?? []).map((c) => c.trim()).filter(Boolean);
  const vendor = competitors.length > 0 || isVendor([doc, ...related], [doc, ...related].map((d) => jsonLdTypes(d.jsonLd)));
  // The category a vendor sells: the first topic the page prices or names in its title.
  const titled = clean.find((n) => (doc.title ?? '').toLowerCase().includes(n.toLowerCase()) && isCommercial(n, doc, vendor));
  // With no topic found, the page's own heading names what it is about; "general" never does.
  const heading = (signals.page_h1 ?? (doc.title ? stripSiteName(doc.title) : '')).replace(/[?!.:]+$/, '').trim();
  const category = titled ?? clean[0] ?? (heading && words(heading).length <= 5 ? heading.toLowerCase() : industry);
  const suggestions = buildPrompts({
    lang,
    country: input.country,
    category,
    topics: clean.filter((n) => n !== category),
    brand,
    competitors,
    count,
    vendor,
    commercialCategory: isCommercial(category, doc, vendor),
    // The page's own questions only when they are in the language asked for.
    pageQuestions: normalizeLang(doc.language) === lang ? [doc, ...related].flatMap((d) => pageQuestions(d, lang)) : [],
    text: [doc, ...related].map((d) => d.bodyText).join('\n'),
  });
  return {
    url: input.url,
    brand,
    industry,
    generator: 'offline',
    prompts: suggestions.map((s) => s.prompt),
    suggestions,
  };
}
