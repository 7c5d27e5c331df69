// The sandbox driver: simulated AI answers, generated locally, for development, tests, demos
// and benchmarks. It speaks the same PlatformDriver interface as the live drivers.
// The one thing to know: answers are deterministic. A sha256 of the request (platform, model,
// prompt without directives, language, country, target, competitors, and the repeat index past
// the first ask) seeds a small PRNG, so
// the same request always yields the same answer, and every answer starts with a label line
// saying it is simulated, so nobody mistakes it for a real AI answer.
//
// Prompt directives (docs/concepts.md, the sandbox engine), stripped before seeding:
//   [[sandbox:error]]            fail with a non-retryable PlatformError('sandbox_error')
//   [[sandbox:retryable-error]]  fail with a retryable PlatformError (retryAfterMs 0), every time
//   [[sandbox:mention]]          the target entity appears in the answer text
//   [[sandbox:no-mention]]       the target entity appears neither in the text nor in citation domains
//   [[sandbox:cite]]             a citation of the target URL's domain (no-mention wins over cite)
//   [[sandbox:delay=MS]]         wait MS ms (capped at 30 s, abortable) before answering or failing
//   [[sandbox:no-ai-answer]]     consumer surfaces: the result carries no AI answer
//   [[sandbox:ai-answer]]        consumer surfaces: the result always carries an AI answer
// Consumer surfaces (google_ai_overview, google_ai_mode, copilot, chatgpt_app) are simulated too,
// labelled like every sandbox answer; without a directive the seed decides whether the result
// carries an AI answer at all (AI Overviews are missing most often), and a result without one is
// an empty answer with aiAnswerPresent false, as the live consumer drivers report it.
// When both mention and no-mention are given, the last one in the prompt wins.
//
// The driver reuses the answer analysis's matcher (src/text, shared with core/visibility/analysis) so a
// forced no-mention really does not match: the sandbox must agree with how mentions are counted.

import { hash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  isConsumerPlatform,
  PlatformError,
  type Citation,
  type PlatformDriver,
  type PlatformName,
  type ProbeAnswer,
  type ProbeRequest,
} from './types.ts';
import { createEntityMatcher } from '../text/entity-matcher.ts';
import { domainMatches, registrableDomain } from '../text/domains.ts';

export const SANDBOX_MAX_DELAY_MS = 30_000;

export interface SandboxDirectives {
  /** The prompt with every directive removed and whitespace tidied. */
  prompt: string;
  error: boolean;
  retryableError: boolean;
  /** 'force' puts the target in, 'forbid' keeps it out, null lets the seed decide. */
  mention: 'force' | 'forbid' | null;
  cite: boolean;
  delayMs: number;
  /** Consumer surfaces: 'force' always an AI answer, 'forbid' never, null lets the seed decide. */
  aiAnswer?: 'force' | 'forbid' | null;
}

const DIRECTIVE = /\[\[\s*sandbox\s*:\s*([a-z-]+)\s*(?:=\s*(\d{1,9})\s*)?\]\]/gi;

export function parseSandboxDirectives(prompt: string): SandboxDirectives {
  const d: SandboxDirectives = { prompt: '', error: false, retryableError: false, mention: null, cite: false, delayMs: 0 };
  for (const m of prompt.matchAll(DIRECTIVE)) {
    const name = m[1].toLowerCase();
    if (name === 'error') d.error = true;
    else if (name === 'retryable-error') d.retryableError = true;
    else if (name === 'mention') d.mention = 'force';
    else if (name === 'no-mention') d.mention = 'forbid';
    else if (name === 'cite') d.cite = true;
    else if (name === 'no-ai-answer') d.aiAnswer = 'forbid';
    else if (name === 'ai-answer') d.aiAnswer = 'force';
    else if (name === 'delay' && m[2] !== undefined) d.delayMs = Math.min(Number(m[2]), SANDBOX_MAX_DELAY_MS);
    // Unknown directives are stripped and ignored.
  }
  d.prompt = prompt.replace(DIRECTIVE, ' ').replace(/\s+/g, ' ').trim();
  return d;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** sfc32: tiny, fast, good enough for text variety; seeded from the request's sha256. */
class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(digest: Buffer) {
    this.a = digest.readUInt32BE(0);
    this.b = digest.readUInt32BE(4);
    this.c = digest.readUInt32BE(8);
    this.d = digest.readUInt32BE(12);
    for (let i = 0; i < 12; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Language packs

interface Phrases {
  intros: ((topic: string) => string)[];
  plainIntros: string[];
  descriptions: string[];
  proseItem: ((name: string, desc: string) => string)[];
  targetNotes: ((name: string) => string)[];
  outros: string[];
  wiki: string;
  reviewSites: { host: string; title: string }[];
  reviewTitles: ((name: string) => string)[];
}

const PHRASES: Record<'en' | 'de' | 'fr' | 'es', Phrases> = {
  en: {
    intros: [
      (t) => `Here is an overview of good options for “${t}”:`,
      (t) => `Based on recent reviews and comparisons, these are strong choices for “${t}”:`,
      (t) => `Short answer: it depends on your budget and team size. For “${t}”, people most often recommend:`,
    ],
    plainIntros: [
      'Here are several options that are frequently recommended:',
      'Several tools come up again and again in reviews and comparisons:',
      'There is no single best choice, but these are widely used:',
    ],
    descriptions: [
      'strong reporting and an intuitive interface',
      'good value for small teams',
      'a generous free tier and quick onboarding',
      'deep integrations with popular tools',
      'enterprise-grade security and admin controls',
      'excellent customer support according to user reviews',
      'flexible pricing that scales with usage',
      'a clean mobile app and offline access',
      'powerful automation for repetitive work',
      'extensive customisation options',
      'solid performance with a focus on privacy',
      'a large community and many templates',
    ],
    proseItem: [
      (n, d) => `${n} is known for ${d}.`,
      (n, d) => `Many users choose ${n} because of ${d}.`,
      (n, d) => `${n} stands out with ${d}.`,
    ],
    targetNotes: [
      (n) => `${n}’s approach is often praised as straightforward.`,
      (n) => `If simplicity matters most, ${n} is worth a closer look.`,
      (n) => `Reviewers regularly mention ${n} as a reliable pick.`,
    ],
    outros: [
      'Try a free trial of two or three of these before deciding.',
      'The right choice depends on your integrations, budget and how your team works.',
      'Compare pricing pages carefully, since plans change often.',
    ],
    wiki: 'en.wikipedia.org',
    reviewSites: [
      { host: 'www.g2.com', title: 'G2' },
      { host: 'www.capterra.com', title: 'Capterra' },
      { host: 'www.trustradius.com', title: 'TrustRadius' },
      { host: 'www.techradar.com', title: 'TechRadar' },
      { host: 'www.pcmag.com', title: 'PCMag' },
      { host: 'www.forbes.com', title: 'Forbes Advisor' },
      { host: 'www.reddit.com', title: 'Reddit' },
    ],
    reviewTitles: [(n) => `${n}: best picks compared`, (n) => `${n}: reviews and ratings`, (n) => `${n}: our top recommendations`],
  },
  de: {
    intros: [
      (t) => `Hier ein Überblick über gute Optionen zu „${t}“:`,
      (t) => `Laut aktuellen Tests und Vergleichen sind das starke Kandidaten für „${t}“:`,
      (t) => `Kurz gesagt: Es kommt auf Budget und Teamgröße an. Für „${t}“ werden häufig empfohlen:`,
    ],
    plainIntros: [
      'Folgende Lösungen werden häufig empfohlen:',
      'In Tests und Vergleichen tauchen immer wieder diese Anbieter auf:',
      'Die eine beste Wahl gibt es nicht, aber diese Lösungen sind weit verbreitet:',
    ],
    descriptions: [
      'übersichtliche Auswertungen und eine intuitive Oberfläche',
      'ein gutes Preis-Leistungs-Verhältnis für kleine Teams',
      'einen großzügigen Gratis-Tarif und schnellen Einstieg',
      'viele Integrationen mit gängigen Tools',
      'DSGVO-konformes Hosting in der EU',
      'sehr guten Kundenservice laut Nutzerbewertungen',
      'flexible Preise, die mit der Nutzung wachsen',
      'eine gelungene mobile App mit Offline-Zugriff',
      'leistungsfähige Automatisierungen',
      'eine steilere Lernkurve, dafür viele Anpassungen',
    ],
    proseItem: [
      (n, d) => `${n} ist bekannt für ${d}.`,
      (n, d) => `Viele Nutzer schätzen an ${n} ${d}.`,
      (n, d) => `${n} überzeugt durch ${d}.`,
    ],
    targetNotes: [
      (n) => `Wer es einfach mag, sollte sich ${n} genauer ansehen.`,
      (n) => `In Bewertungen wird ${n} oft als zuverlässige Wahl genannt.`,
    ],
    outros: [
      'Testen Sie am besten zwei oder drei Lösungen kostenlos, bevor Sie sich entscheiden.',
      'Die richtige Wahl hängt von Integrationen, Budget und Arbeitsweise Ihres Teams ab.',
    ],
    wiki: 'de.wikipedia.org',
    reviewSites: [
      { host: 'www.chip.de', title: 'CHIP' },
      { host: 't3n.de', title: 't3n' },
      { host: 'www.computerbild.de', title: 'COMPUTER BILD' },
      { host: 'www.capterra.com.de', title: 'Capterra Deutschland' },
      { host: 'omr.com', title: 'OMR Reviews' },
      { host: 'www.heise.de', title: 'heise online' },
    ],
    reviewTitles: [(n) => `${n}: Die besten Anbieter im Vergleich`, (n) => `${n} – Test und Erfahrungen`],
  },
  fr: {
    intros: [
      (t) => `Voici un aperçu des bonnes options pour « ${t} » :`,
      (t) => `D’après les tests et comparatifs récents, voici de bons choix pour « ${t} » :`,
      (t) => `En bref : tout dépend du budget et de la taille de l’équipe. Pour « ${t} », on recommande souvent :`,
    ],
    plainIntros: [
      'Voici plusieurs solutions souvent recommandées :',
      'Ces outils reviennent régulièrement dans les comparatifs :',
      'Il n’y a pas de choix unique, mais ces solutions sont très utilisées :',
    ],
    descriptions: [
      'des rapports clairs et une interface intuitive',
      'un bon rapport qualité-prix pour les petites équipes',
      'une offre gratuite généreuse et une prise en main rapide',
      'de nombreuses intégrations avec les outils courants',
      'un hébergement conforme au RGPD',
      'un support client très bien noté',
      'une tarification flexible',
      'une application mobile réussie',
      'des automatisations puissantes',
    ],
    proseItem: [
      (n, d) => `${n} est connu pour ${d}.`,
      (n, d) => `Beaucoup d’utilisateurs choisissent ${n} pour ${d}.`,
      (n, d) => `${n} se distingue par ${d}.`,
    ],
    targetNotes: [
      (n) => `Si la simplicité compte avant tout, ${n} mérite un coup d’œil.`,
      (n) => `Les avis citent souvent ${n} comme un choix fiable.`,
    ],
    outros: [
      'Essayez deux ou trois de ces solutions gratuitement avant de décider.',
      'Le bon choix dépend de vos intégrations, de votre budget et de vos méthodes de travail.',
    ],
    wiki: 'fr.wikipedia.org',
    reviewSites: [
      { host: 'www.lesnumeriques.com', title: 'Les Numériques' },
      { host: 'www.journaldunet.com', title: 'Journal du Net' },
      { host: 'www.capterra.fr', title: 'Capterra France' },
      { host: 'www.clubic.com', title: 'Clubic' },
      { host: 'www.01net.com', title: '01net' },
    ],
    reviewTitles: [(n) => `${n} : comparatif des meilleures solutions`, (n) => `${n} – avis et tests`],
  },
  es: {
    intros: [
      (t) => `Aquí tienes un resumen de buenas opciones para «${t}»:`,
      (t) => `Según reseñas y comparativas recientes, estas son buenas opciones para «${t}»:`,
      (t) => `Respuesta corta: depende del presupuesto y del tamaño del equipo. Para «${t}» se recomiendan a menudo:`,
    ],
    plainIntros: [
      'Estas son varias opciones que se recomiendan con frecuencia:',
      'Estas herramientas aparecen una y otra vez en las comparativas:',
      'No hay una única opción ideal, pero estas son muy utilizadas:',
    ],
    descriptions: [
      'informes claros y una interfaz intuitiva',
      'una buena relación calidad-precio para equipos pequeños',
      'un plan gratuito generoso y una puesta en marcha rápida',
      'muchas integraciones con herramientas populares',
      'un soporte al cliente muy valorado',
      'precios flexibles que crecen con el uso',
      'una buena aplicación móvil',
      'automatizaciones potentes',
    ],
    proseItem: [
      (n, d) => `${n} es conocido por ${d}.`,
      (n, d) => `Muchos usuarios eligen ${n} por ${d}.`,
      (n, d) => `${n} destaca por ${d}.`,
    ],
    targetNotes: [
      (n) => `Si buscas sencillez, vale la pena mirar ${n} con más detalle.`,
      (n) => `Las reseñas mencionan a menudo ${n} como una opción fiable.`,
    ],
    outros: [
      'Prueba gratis dos o tres de estas opciones antes de decidir.',
      'La mejor elección depende de tus integraciones, tu presupuesto y tu forma de trabajar.',
    ],
    wiki: 'es.wikipedia.org',
    reviewSites: [
      { host: 'www.xataka.com', title: 'Xataka' },
      { host: 'www.genbeta.com', title: 'Genbeta' },
      { host: 'www.capterra.es', title: 'Capterra España' },
      { host: 'www.computerhoy.com', title: 'Computer Hoy' },
    ],
    reviewTitles: [(n) => `${n}: comparativa de las mejores opciones`, (n) => `${n}: opiniones y análisis`],
  },
};

function phrasesFor(language: string): Phrases {
  const base = (language || 'en').toLowerCase().split(/[-_]/)[0];
  return base in PHRASES ? PHRASES[base as keyof typeof PHRASES] : PHRASES.en;
}

const PLATFORM_LABELS: Record<PlatformName, string> = {
  openai: 'ChatGPT',
  perplexity: 'Perplexity',
  gemini: 'Gemini',
  grok: 'Grok',
  claude: 'Claude',
  deepseek: 'DeepSeek',
  google_ai_overview: 'Google AI Overviews',
  google_ai_mode: 'Google AI Mode',
  copilot: 'Microsoft Copilot',
  chatgpt_app: 'the ChatGPT app',
};

/**
 * How often a simulated consumer result carries no AI answer (per mille). Google shows AI
 * Overviews for a minority of queries; the chat surfaces nearly always answer.
 */
const NO_AI_ANSWER_PER_MILLE: Partial<Record<PlatformName, number>> = {
  google_ai_overview: 350,
  google_ai_mode: 50,
  copilot: 100,
  chatgpt_app: 20,
};

/** The simulated provider of a consumer surface (what `provider` says in sandbox mode). */
const SANDBOX_PROVIDER = 'sandbox';

const BRAND_HEADS = ['Nex', 'Bright', 'Lumi', 'Vant', 'Quill', 'Orbi', 'Tera', 'Sol', 'Kin', 'Zen', 'Vero', 'Pulse', 'Astra', 'Fern', 'Cobalt', 'Harbor', 'Nimbus', 'Beacon', 'Mosaic', 'Juno'];
const BRAND_TAILS = ['ora', 'ly', 'io', 'lane', 'wise', 'stack', 'hub', 'desk', 'loop', 'works', 'ify', 'point', 'base', 'grid'];

function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** "best CRM für KMU" → "best-crm-fur-kmu", for plausible article paths. */
function pathSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** A plausible home domain for an entity name: the name itself if it is a domain, else slug.com. */
function domainFor(name: string): string | null {
  const trimmed = name.trim().toLowerCase();
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(trimmed)) return trimmed;
  const s = slug(name);
  return s ? `${s}.com` : null;
}

function httpUrl(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Answer generation

interface Generated {
  text: string;
  citations: Citation[];
}

function generate(req: ProbeRequest, d: SandboxDirectives, rng: Rng): Generated {
  const p = phrasesFor(req.language);
  const target = req.targetEntity.trim();
  const targetMatcher = createEntityMatcher(target);
  const competitorMatchers = req.competitors.map((c) => createEntityMatcher(c));
  const seen = collisionsFor(target, req.competitors);
  const collides = (s: string) => {
    let hit = seen.get(s);
    if (hit === undefined) seen.set(s, (hit = targetMatcher.find(s).length > 0 || competitorMatchers.some((m) => m.find(s).length > 0)));
    return hit;
  };

  // The seed decides the mention (about 45%), directives override it. A citation of the
  // target's domain adds a few citation-only mentions, landing brand_mentioned near 50%.
  const mention = d.mention === 'force' ? true : d.mention === 'forbid' ? false : rng.chance(0.45);
  const targetDomain = registrableDomain(req.targetUrl);
  const citeTarget =
    d.mention === 'forbid' ? false : d.cite ? true : mention ? rng.chance(0.35) : rng.chance(0.1);

  // Entities: some competitors, invented brands to fill up, the target at a random rank.
  const listSize = rng.int(3, 7);
  const chosenCompetitors = rng
    .shuffle(req.competitors.filter((c) => c.trim()))
    .filter(() => rng.chance(0.65))
    .slice(0, listSize - (mention ? 2 : 1));
  const invented: string[] = [];
  for (let tries = 0; invented.length + chosenCompetitors.length < listSize - (mention ? 1 : 0) && tries < 60; tries++) {
    const name = rng.pick(BRAND_HEADS) + rng.pick(BRAND_TAILS);
    if (invented.includes(name) || collides(name)) continue;
    invented.push(name);
  }
  const entities = rng.shuffle([...chosenCompetitors, ...invented]);
  const targetRank = mention ? rng.int(0, entities.length) : -1;
  const linkTarget = mention && httpUrl(req.targetUrl) !== null && rng.chance(0.3);
  if (mention) entities.splice(targetRank, 0, target);

  const descriptions = rng.shuffle(p.descriptions);
  const describe = (i: number) => descriptions[i % descriptions.length];
  const display = (name: string) => (name === target && linkTarget ? `[${name}](${req.targetUrl})` : name);
  const refMark = req.platform === 'perplexity' ? (i: number) => ` [${(i % 3) + 1}]` : () => '';

  const topic = d.prompt.replace(/[?？!.。]+$/, '').slice(0, 140).trim();
  const lines: string[] = [];
  // Under no-mention, a prompt that names the target is never echoed (intro, citation titles).
  const topicSafe = !(d.mention === 'forbid' && targetMatcher.find(topic).length > 0);
  const useTopic = topic.length > 0 && rng.chance(0.7) && topicSafe;
  lines.push(useTopic ? rng.pick(p.intros)(topic) : rng.pick(p.plainIntros), '');

  const style = rng.next();
  if (style < 0.55) {
    const fmt = rng.int(0, 3);
    entities.forEach((name, i) => {
      const n = i + 1;
      const desc = describe(i);
      if (fmt === 0) lines.push(`${n}. **${display(name)}** – ${desc}${refMark(i)}`);
      else if (fmt === 1) lines.push(`**${n}. ${display(name)}** — ${desc}${refMark(i)}`);
      else if (fmt === 2) lines.push(`${n}) ${display(name)}: ${desc}${refMark(i)}`);
      else lines.push(`### ${n}. ${display(name)}`, '', rng.pick(p.proseItem)(name, desc) + refMark(i), '');
    });
  } else if (style < 0.85) {
    const bullet = rng.pick(['-', '*', '•']);
    const bold = rng.chance(0.6);
    entities.forEach((name, i) => {
      const shown = bold ? `**${display(name)}**` : display(name);
      lines.push(`${bullet} ${shown}: ${describe(i)}${refMark(i)}`);
    });
  } else {
    const sentences = entities.map((name, i) => rng.pick(p.proseItem)(display(name), describe(i)) + refMark(i));
    const cut = Math.ceil(sentences.length / 2);
    lines.push(sentences.slice(0, cut).join(' '), '', sentences.slice(cut).join(' '));
  }
  lines.push('');
  if (mention && rng.chance(0.4)) lines.push(rng.pick(p.targetNotes)(target) + ' ' + rng.pick(p.outros));
  else lines.push(rng.pick(p.outros));

  // Citations: review sites, an encyclopedia page, home pages of listed entities, maybe the target.
  const pool: { title: string; url: string }[] = [];
  const subject = (topicSafe && topic) || entities.find((e) => e !== target) || 'software';
  const subjectPath = pathSlug(subject) || 'compare';
  for (const site of rng.shuffle(p.reviewSites).slice(0, 3)) {
    pool.push({ title: `${rng.pick(p.reviewTitles)(subject.slice(0, 60))} | ${site.title}`, url: `https://${site.host}/${subjectPath}` });
  }
  const wikiSubject = entities.find((e) => e !== target) ?? 'Software';
  pool.push({ title: `${wikiSubject} – Wikipedia`, url: `https://${p.wiki}/wiki/${encodeURIComponent(wikiSubject.replace(/ /g, '_'))}` });
  for (const name of entities) {
    if (name === target) continue;
    const dom = domainFor(name);
    if (dom) pool.push({ title: name, url: `https://www.${dom}/` });
  }
  const count = rng.int(2, 6);
  let picked = rng.shuffle(pool).slice(0, count);
  const targetHttp = httpUrl(req.targetUrl);
  if (citeTarget && targetHttp) {
    const cite = { title: target || targetHttp.hostname, url: targetHttp.href };
    picked = picked.slice(0, Math.max(1, count - 1));
    picked.splice(rng.int(0, picked.length), 0, cite);
  }
  let citations: Citation[] = picked.map((c) => ({ title: c.title, url: c.url, domain: registrableDomain(c.url) }));
  if (d.mention === 'forbid') citations = citations.filter((c) => !domainMatches(c.domain, targetDomain));

  let text = lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  if (d.mention === 'forbid') text = removeTargetLines(text, targetMatcher);
  return { text, citations };
}

/** Last line of defence for [[sandbox:no-mention]]: drop any line that still matches the target (e.g. a generic-word brand). */
function removeTargetLines(text: string, matcher: ReturnType<typeof createEntityMatcher>): string {
  if (matcher.find(text).length === 0) return text;
  const kept = text.split('\n').filter((line) => matcher.find(line).length === 0);
  const body = kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  return body || '…';
}

function labelLine(platform: PlatformName, target: string): string {
  const key = `${platform}\n${target}`;
  let line = labels.get(key);
  if (line === undefined) {
    line = `[sandbox answer — simulated, not from ${PLATFORM_LABELS[platform]}]`;
    // The label must never create a mention on its own (a brand named "Claude", say).
    if (target.trim() && createEntityMatcher(target).find(line).length > 0) line = '[sandbox answer — simulated, not a real AI answer]';
    if (labels.size >= MEMO_SIZE) labels.clear();
    labels.set(key, line);
  }
  return line;
}

/**
 * What the matcher said, kept by platform and target (the label line) and by target and
 * competitors (whether an invented name reads as one of them): every answer of a run asks the
 * same questions again, and a matcher's reading of a short text costs more than the rest of the
 * answer's generation. Cleared when full.
 */
const labels = new Map<string, string>();
const collisions = new Map<string, Map<string, boolean>>();
const MEMO_SIZE = 1024;

function collisionsFor(target: string, competitors: readonly string[]): Map<string, boolean> {
  const key = JSON.stringify([target, competitors]);
  let seen = collisions.get(key);
  if (!seen) {
    if (collisions.size >= MEMO_SIZE) collisions.clear();
    collisions.set(key, (seen = new Map()));
  }
  return seen;
}

export function sandboxSeed(req: ProbeRequest, prompt: string): Buffer {
  const material = JSON.stringify([
    req.platform,
    req.providerModel,
    prompt,
    (req.language || '').toLowerCase(),
    (req.country || '').toUpperCase(),
    req.targetEntity,
    req.targetUrl,
    req.competitors,
    // Repeats vary the answer as a real assistant's do; the first ask keeps the seed it always had.
    ...(req.repeat && req.repeat > 1 ? [req.repeat] : []),
  ]);
  return hash('sha256', material, 'buffer');
}

export function createSandboxDriver(platform: PlatformName, opts: { latencyMs?: number } = {}): PlatformDriver {
  const latencyMs = Math.max(0, opts.latencyMs ?? 0);
  return {
    platform,
    engine: 'sandbox',
    ...(isConsumerPlatform(platform) ? { provider: SANDBOX_PROVIDER } : {}),
    available: () => true,
    async ask(req: ProbeRequest): Promise<ProbeAnswer> {
      req.signal?.throwIfAborted();
      const d = parseSandboxDirectives(req.prompt);
      const wait = latencyMs + d.delayMs;
      if (wait > 0) await sleep(wait, undefined, { signal: req.signal });

      if (d.error) {
        throw new PlatformError('sandbox_error', 'Simulated provider failure requested by [[sandbox:error]].', {
          retryable: false,
          httpStatus: 400,
        });
      }
      if (d.retryableError) {
        throw new PlatformError(
          'sandbox_retryable_error',
          'Simulated transient provider failure requested by [[sandbox:retryable-error]].',
          { retryable: true, retryAfterMs: 0, httpStatus: 503 },
        );
      }

      const digest = sandboxSeed(req, d.prompt);
      const seed = digest.subarray(0, 8).toString('hex');
      const consumer = isConsumerPlatform(platform);
      if (consumer) {
        // The last two bytes of the digest decide presence, independently of the answer's content.
        const roll = digest.readUInt16BE(digest.length - 2) % 1000;
        const absent = d.aiAnswer === 'forbid' || (d.aiAnswer !== 'force' && roll < (NO_AI_ANSWER_PER_MILLE[platform] ?? 0));
        if (absent) {
          return {
            text: '',
            citations: [],
            model: `sandbox:${req.providerModel}`,
            engine: 'sandbox',
            raw: { engine: 'sandbox', seed, ai_answer: null },
            aiAnswerPresent: false,
            provider: SANDBOX_PROVIDER,
          };
        }
      }
      const rng = new Rng(digest);
      const body = generate(req, d, rng);
      const text = `${labelLine(platform, req.targetEntity)}\n\n${body.text}`;
      return {
        text,
        citations: body.citations,
        model: `sandbox:${req.providerModel}`,
        engine: 'sandbox',
        raw: { engine: 'sandbox', seed },
        usage: { input_tokens: Math.ceil(d.prompt.length / 4), output_tokens: Math.ceil(text.length / 4) },
        ...(consumer ? { aiAnswerPresent: true, provider: SANDBOX_PROVIDER } : {}),
      };
    },
  };
}
