// Prompt suggestions for AI Visibility runs: questions a person would ask an assistant about
// the page's category, built from the page's own keyphrases, in the request's language
// (en, de, fr, es templates; others fall back to English), covering intents and funnel stages.
// The one thing to know: the brand appears only in branded intents (comparison, alternatives,
// reviews); everything else is unbranded so it measures whether the assistant names the brand
// by itself. Deterministic: same page and input, same prompts in the same order.
import { extractEntities } from './keyphrases.ts';
import { measureSignals } from './signals.ts';
import { loadSite } from './site.ts';
import { normalizeLang, type Lang } from './text.ts';
import { cap, fieldTopics, inferIndustry } from './trends.ts';
import type { FunnelStage, Intent, PromptSuggestion, PromptsResult, SiteLoader, SuggestPromptsInput } from './types.ts';

const FUNNEL: Record<Intent, FunnelStage> = {
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
  cat: string; // category phrase
  topic: string; // a secondary keyphrase
  brand: string | null;
  rival: string | null; // a competitor
  m: string; // " in Germany" or ""
}
type Template = (s: Slots) => string | null;

const T: Record<'en' | 'de' | 'fr' | 'es', Record<Intent, Template[]>> = {
  en: {
    category_discovery: [
      (s) => `Which ${s.cat} would you recommend${s.m}?`,
      (s) => `What are the leading providers of ${s.cat}${s.m}?`,
      (s) => `I'm looking for ${s.cat}${s.m}. What are my best options?`,
      (s) => `Which companies are known for ${s.topic}${s.m}?`,
    ],
    problem_solution: [
      (s) => `I need help with ${s.topic}. What kind of solution should I look for?`,
      (s) => `What's the best way to handle ${s.topic} for a small business?`,
      (s) => `We keep running into problems with ${s.topic}. How do other companies solve this?`,
    ],
    how_to: [
      (s) => `How do I choose the right ${s.cat}?`,
      (s) => `How do I get started with ${s.topic}?`,
      (s) => `What should I look for when comparing ${s.cat} options?`,
    ],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} or ${s.rival}: which is better for ${s.topic}?` : null),
      (s) => (s.brand ? `How does ${s.brand} compare to other ${s.cat} providers?` : null),
      (s) => (!s.brand ? `Can you compare the most popular ${s.cat} options${s.m}?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `What are good alternatives to ${s.rival} for ${s.cat}?` : null),
      (s) => (s.brand ? `What are the best alternatives to ${s.brand}?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `Is ${s.brand} any good? What do customers say about it?` : null),
      (s) => (s.brand ? `What are the pros and cons of ${s.brand} for ${s.topic}?` : null),
      (s) => (s.rival ? `What do reviews say about ${s.rival}?` : null),
    ],
    pricing: [
      (s) => `How much does ${s.cat} typically cost${s.m}?`,
      (s) => `Is there affordable ${s.cat} for a small team${s.m}?`,
    ],
  },
  de: {
    category_discovery: [
      (s) => `Welche Anbieter für ${s.cat} kannst du${s.m} empfehlen?`,
      (s) => `Wer sind die führenden Anbieter für ${s.cat}${s.m}?`,
      (s) => `Ich suche ${s.cat}${s.m}. Was sind meine besten Optionen?`,
      (s) => `Welche Firmen sind bekannt für ${s.topic}${s.m}?`,
    ],
    problem_solution: [
      (s) => `Ich brauche Hilfe bei ${s.topic}. Nach welcher Lösung sollte ich suchen?`,
      (s) => `Wie lösen andere Unternehmen Probleme mit ${s.topic}?`,
    ],
    how_to: [
      (s) => `Wie finde ich die richtige Lösung für ${s.cat}?`,
      (s) => `Wie fange ich mit ${s.topic} an?`,
      (s) => `Worauf sollte ich beim Vergleich von Anbietern für ${s.cat} achten?`,
    ],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} oder ${s.rival}: was ist besser für ${s.topic}?` : null),
      (s) => (s.brand ? `Wie schneidet ${s.brand} im Vergleich zu anderen Anbietern für ${s.cat} ab?` : null),
      (s) => (!s.brand ? `Kannst du die bekanntesten Anbieter für ${s.cat}${s.m} vergleichen?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `Was sind gute Alternativen zu ${s.rival} für ${s.cat}?` : null),
      (s) => (s.brand ? `Welche Alternativen zu ${s.brand} gibt es?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `Ist ${s.brand} gut? Was sagen Kunden darüber?` : null),
      (s) => (s.brand ? `Was sind die Vor- und Nachteile von ${s.brand}?` : null),
      (s) => (s.rival ? `Wie sind die Erfahrungen mit ${s.rival}?` : null),
    ],
    pricing: [
      (s) => `Was kostet ${s.cat}${s.m} normalerweise?`,
      (s) => `Gibt es günstige Angebote für ${s.cat}${s.m}?`,
    ],
  },
  fr: {
    category_discovery: [
      (s) => `Quelles solutions de ${s.cat} me recommandes-tu${s.m} ?`,
      (s) => `Quels sont les principaux fournisseurs de ${s.cat}${s.m} ?`,
      (s) => `Je cherche une solution de ${s.cat}${s.m}. Quelles sont les meilleures options ?`,
      (s) => `Quelles entreprises sont connues pour ${s.topic}${s.m} ?`,
    ],
    problem_solution: [
      (s) => `J'ai besoin d'aide pour ${s.topic}. Quel type de solution dois-je chercher ?`,
      (s) => `Comment les autres entreprises gèrent-elles ${s.topic} ?`,
    ],
    how_to: [
      (s) => `Comment choisir la bonne solution de ${s.cat} ?`,
      (s) => `Comment débuter avec ${s.topic} ?`,
      (s) => `Quels critères comparer entre les offres de ${s.cat} ?`,
    ],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} ou ${s.rival} : lequel est le meilleur pour ${s.topic} ?` : null),
      (s) => (s.brand ? `Comment ${s.brand} se compare-t-il aux autres offres de ${s.cat} ?` : null),
      (s) => (!s.brand ? `Peux-tu comparer les offres de ${s.cat} les plus connues${s.m} ?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `Quelles sont les bonnes alternatives à ${s.rival} pour ${s.cat} ?` : null),
      (s) => (s.brand ? `Quelles alternatives à ${s.brand} existent ?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `${s.brand} est-il fiable ? Qu'en disent les clients ?` : null),
      (s) => (s.brand ? `Quels sont les avantages et inconvénients de ${s.brand} ?` : null),
      (s) => (s.rival ? `Que disent les avis sur ${s.rival} ?` : null),
    ],
    pricing: [
      (s) => `Combien coûte une solution de ${s.cat}${s.m} en général ?`,
      (s) => `Existe-t-il des offres de ${s.cat} abordables${s.m} ?`,
    ],
  },
  es: {
    category_discovery: [
      (s) => `¿Qué opciones de ${s.cat} me recomiendas${s.m}?`,
      (s) => `¿Cuáles son los principales proveedores de ${s.cat}${s.m}?`,
      (s) => `Busco ${s.cat}${s.m}. ¿Cuáles son las mejores opciones?`,
      (s) => `¿Qué empresas son conocidas por ${s.topic}${s.m}?`,
    ],
    problem_solution: [
      (s) => `Necesito ayuda con ${s.topic}. ¿Qué tipo de solución debería buscar?`,
      (s) => `¿Cómo resuelven otras empresas los problemas de ${s.topic}?`,
    ],
    how_to: [
      (s) => `¿Cómo elijo la opción de ${s.cat} adecuada?`,
      (s) => `¿Cómo empiezo con ${s.topic}?`,
      (s) => `¿Qué debo comparar entre las ofertas de ${s.cat}?`,
    ],
    comparison: [
      (s) => (s.brand && s.rival ? `${s.brand} o ${s.rival}: ¿cuál es mejor para ${s.topic}?` : null),
      (s) => (s.brand ? `¿Cómo se compara ${s.brand} con otros proveedores de ${s.cat}?` : null),
      (s) => (!s.brand ? `¿Puedes comparar las opciones de ${s.cat} más conocidas${s.m}?` : null),
    ],
    alternatives: [
      (s) => (s.rival ? `¿Cuáles son buenas alternativas a ${s.rival} para ${s.cat}?` : null),
      (s) => (s.brand ? `¿Qué alternativas a ${s.brand} existen?` : null),
    ],
    reviews: [
      (s) => (s.brand ? `¿Es bueno ${s.brand}? ¿Qué opinan los clientes?` : null),
      (s) => (s.brand ? `¿Cuáles son las ventajas y desventajas de ${s.brand}?` : null),
      (s) => (s.rival ? `¿Qué dicen las opiniones sobre ${s.rival}?` : null),
    ],
    pricing: [
      (s) => `¿Cuánto cuesta normalmente ${s.cat}${s.m}?`,
      (s) => `¿Hay opciones de ${s.cat} asequibles${s.m}?`,
    ],
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

/** The pure part: prompts from an already-known category and topics. */
export function buildPrompts(opts: {
  lang: Lang;
  country?: string | null;
  category: string;
  topics: string[];
  brand: string | null;
  competitors: string[];
  count: number;
}): PromptSuggestion[] {
  const tl = opts.lang === 'de' || opts.lang === 'fr' || opts.lang === 'es' ? opts.lang : 'en';
  const templates = T[tl];
  const market = opts.country ? MARKETS[opts.country.toUpperCase()]?.[tl] : undefined;
  const topics = opts.topics.length ? opts.topics : [opts.category];
  const rivals = opts.competitors.length ? opts.competitors : [null];
  const out: PromptSuggestion[] = [];
  const seen = new Set<string>();
  // Round-robin over intents, then over templates and topics, so a small count still covers
  // several intents and funnel stages.
  const maxRounds = 12;
  for (let round = 0; round < maxRounds && out.length < opts.count; round++) {
    for (const intent of INTENT_ORDER) {
      if (out.length >= opts.count) break;
      const list = templates[intent];
      // Each round tries the next (template, topic, rival) combination for this intent.
      for (let attempt = 0; attempt < list.length * topics.length; attempt++) {
        const k = round + attempt;
        const tpl = list[k % list.length]!;
        const topic = topics[Math.floor(k / list.length) % topics.length]!;
        const rival = rivals[k % rivals.length] ?? null;
        // The market is mentioned where natural: on every other discovery/pricing prompt.
        const m = market && (round % 2 === 0 || intent === 'pricing') ? ' ' + market : '';
        const text = tpl({ cat: opts.category, topic, brand: opts.brand, rival, m });
        if (!text) continue;
        const prompt = cap(text.replace(/\s+/g, ' ').replace(/\s+([?.,:])/g, (_x, p: string) => (tl === 'fr' && (p === '?' || p === ':') ? ' ' + p : p)).trim());
        const key = normalizeForDedupe(prompt);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({
          prompt,
          intent,
          funnel_stage: FUNNEL[intent],
          why: `${WHY[intent]}; built from the page's ${topic === opts.category ? 'category' : 'keyphrase'} "${topic}".`,
        });
        break;
      }
    }
  }
  return out;
}

export async function suggestPrompts(input: SuggestPromptsInput, loader: SiteLoader): Promise<PromptsResult> {
  const count = Math.max(1, Math.min(25, Math.floor(input.count ?? 10)));
  const site = await loadSite(input.url, loader, 2);
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
  const category = clean[0] ?? industry;
  const competitors = (input.competitors ?? []).map((c) => c.trim()).filter(Boolean);
  const suggestions = buildPrompts({ lang, country: input.country, category, topics: clean.slice(1).length ? clean.slice(1) : [category], brand, competitors, count });
  return {
    url: input.url,
    brand,
    industry,
    generator: 'offline',
    prompts: suggestions.map((s) => s.prompt),
    suggestions,
  };
}
