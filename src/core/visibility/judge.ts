// The judge: how an answer speaks of each brand it names (positive | neutral | negative), whether
// it recommends it, and which other brands it names. In live mode a model the operator names
// (SIGHTLINE_JUDGE_MODEL=platform:model) answers through the same platform drivers as the probes,
// with its output validated by a zod schema; its cost is the operator's, never the user's. The
// sandbox engine simulates a verdict, labelled engine "sandbox".
// A live judge also confirms the mentions the reader's rule decided weakly (an everyday-word
// name at a sentence start, in a script without capitals, with a particle attached): the answer's
// call carries them too, one question per brand, so confirming costs no extra call.
// The one thing to know: a verdict is a measurement or nothing. A failed call, unparsable or
// invalid output, or a verdict missing a brand the answer names leaves every judged field null
// and records judge_error; nothing is filled in by guess.
import { z } from 'zod';
import { PlatformError, PLATFORMS, type AskPlatform, type Engine, type PlatformName } from '../../platforms/types.ts';
import { createEntityMatcher, foldName, foldText } from '../../text/entity-matcher.ts';
import { sentenceWeights } from './analysis/prominence.ts';
import { addStepTime, stepClock } from './analysis/step-times.ts';

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export interface JudgeInfo {
  platform: string;
  model: string;
  engine: Engine;
}

export interface JudgeInput {
  prompt: string;
  answer: string;
  language: string;
  /** The brands the answer names (target and competitors), as given. */
  brands: string[];
  /**
   * Brands (among `brands`) whose mention the reader's rule decided weakly, each with the answer's
   * words around the occurrence, the occurrence marked ⟦ ⟧: does the answer name the brand there?
   */
  confirm?: { name: string; excerpt: string }[];
  signal: AbortSignal;
  /**
   * Epoch ms by which the verdict must be in (the probe's job budget, less time to record it): a
   * judge still asking then gives up with judge_timeout, so a slow judge never costs the answer.
   */
  deadline?: number;
}

/** At most this many weak decisions are sent to the judge per answer (the first ones, target first). */
export const MAX_CONFIRMATIONS = 8;
/** Characters of the answer on each side of an occurrence sent for confirmation. */
export const CONFIRM_CONTEXT = 120;

export type JudgeResult =
  | {
      ok: true;
      judge: JudgeInfo;
      brands: Map<string, { sentiment: Sentiment; recommended: boolean }>;
      entities: string[] | null;
      /** For each brand asked about in `confirm` and answered: whether the answer names it there. */
      mentions: Map<string, boolean> | null;
    }
  | { ok: false; judge: JudgeInfo; error: { code: string; message: string } };

export interface Judge {
  readonly engine: Engine;
  /** Whether this judge reads `confirm` (a live model does; the sandbox's simulation does not). */
  readonly confirms: boolean;
  judge(input: JudgeInput): Promise<JudgeResult>;
}

/** What the judge model must return (also sent to it, as the shape to follow). */
export const JudgeOutputSchema = z.object({
  brands: z.array(z.object({ name: z.string().min(1).max(200), sentiment: z.enum(SENTIMENTS), recommended: z.boolean() }).strict()).max(50),
  other_brands: z.array(z.string().min(1).max(100)).max(50).optional(),
  mentions: z
    .array(z.object({ name: z.string().min(1).max(200), names_brand: z.boolean() }).strict())
    .max(50)
    .optional(),
});
export type JudgeOutput = z.infer<typeof JudgeOutputSchema>;

/** Parses `platform:model` (SIGHTLINE_JUDGE_MODEL); throws a readable error otherwise. */
export function parseJudgeModel(spec: string): { platform: PlatformName; model: string } {
  const at = spec.indexOf(':');
  const platform = spec.slice(0, at).trim() as PlatformName;
  const model = spec.slice(at + 1).trim();
  if (at < 1 || !model || !PLATFORMS.includes(platform)) {
    throw new Error(`SIGHTLINE_JUDGE_MODEL must be platform:model with platform one of ${PLATFORMS.join(', ')} (got "${spec}").`);
  }
  return { platform, model };
}

export function judgePrompt(input: Pick<JudgeInput, 'prompt' | 'answer' | 'brands' | 'confirm'>): string {
  const confirm = input.confirm ?? [];
  const confirmLines = confirm.length
    ? [
        'Some listed names are also ordinary words or the names of people, places or works, so the answer may use the word or name another thing and not the brand. Add "mentions": [{"name": "<brand as listed>", "names_brand": true | false}] with one entry per brand below: true only when the answer names the brand (the company or its product) at the place marked ⟦ ⟧ (declined or with a particle attached counts), false when it uses the ordinary word or names a person, place or work there.',
        `To confirm: ${JSON.stringify(confirm)}`,
      ]
    : [];
  return [
    'You are a careful analyst. Read the AI assistant answer below and judge how it speaks of each listed brand.',
    'Reply with JSON only, no prose and no code fence, exactly in this shape:',
    '{"brands": [{"name": "<brand as listed>", "sentiment": "positive" | "neutral" | "negative", "recommended": true | false}], "other_brands": ["<other brand, product or organisation the answer names>"]}',
    'Rules: one entry per listed brand, named exactly as listed. "recommended" is true only when the answer recommends the brand to the user. An answer that says it found no information about a brand is neutral and does not recommend it. "other_brands" lists brands, products and organisations the answer names that are not listed, as written in the answer.',
    `Listed brands: ${JSON.stringify(input.brands)}`,
    ...confirmLines,
    `User question: ${JSON.stringify(input.prompt)}`,
    'Answer:',
    '"""',
    input.answer,
    '"""',
  ].join('\n');
}

/** The JSON object in a model's reply: the whole reply, or the text between its first "{" and last "}" (code fences, stray prose). */
function extractJson(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    const start = trimmed.indexOf('{');
    const end = trimmed.lastIndexOf('}');
    if (start < 0 || end <= start) throw new Error('no JSON object in the reply');
    return JSON.parse(trimmed.slice(start, end + 1));
  }
}

/**
 * Checks a judge reply against the schema and the brands asked about, and keeps only other
 * brands the answer really names (a judge may invent). Returns the verdict or the reason it is
 * unusable.
 */
export function readVerdict(
  reply: string,
  input: Pick<JudgeInput, 'answer' | 'brands' | 'confirm'>,
):
  | { ok: true; brands: Map<string, { sentiment: Sentiment; recommended: boolean }>; entities: string[]; mentions: Map<string, boolean> | null }
  | { ok: false; error: { code: string; message: string } } {
  let parsed: unknown;
  try {
    parsed = extractJson(reply);
  } catch (err) {
    return { ok: false, error: { code: 'judge_invalid_output', message: `The judge's reply is not JSON: ${(err as Error).message}.`.slice(0, 300) } };
  }
  const result = JudgeOutputSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    return {
      ok: false,
      error: {
        code: 'judge_invalid_output',
        message: `The judge's reply does not match the schema: ${issue?.path.join('.') || '(root)'}: ${issue?.message}.`.slice(0, 300),
      },
    };
  }
  const byKey = new Map(result.data.brands.map((b) => [foldName(b.name), b]));
  const brands = new Map<string, { sentiment: Sentiment; recommended: boolean }>();
  // A brand listed only to be confirmed may get no sentiment entry (the judge may read no brand there).
  const confirmOnly = new Set((input.confirm ?? []).map((c) => c.name));
  for (const name of input.brands) {
    const b = byKey.get(foldName(name));
    if (!b && confirmOnly.has(name)) continue;
    if (!b) return { ok: false, error: { code: 'judge_invalid_output', message: `The judge's reply has no verdict for "${name}".`.slice(0, 300) } };
    brands.set(name, { sentiment: b.sentiment, recommended: b.recommended });
  }
  const folded = foldText(input.answer);
  const entities = (result.data.other_brands ?? []).filter((e) => createEntityMatcher(e).findFolded(folded).length > 0);
  // Confirmations: only of brands asked about; one not answered keeps its lexical decision.
  let mentions: Map<string, boolean> | null = null;
  if (input.confirm?.length) {
    const said = new Map((result.data.mentions ?? []).map((m) => [foldName(m.name), m.names_brand]));
    mentions = new Map();
    for (const { name } of input.confirm) {
      const v = said.get(foldName(name));
      if (v !== undefined) mentions.set(name, v);
    }
  }
  return { ok: true, brands, entities, mentions };
}

/** A judge that asks a live model through the platform drivers. */
export function createLiveJudge(spec: string, ask: AskPlatform): Judge {
  const { platform, model } = parseJudgeModel(spec);
  return {
    engine: 'live',
    confirms: true,
    async judge(input) {
      const info: JudgeInfo = { platform, model, engine: 'live' };
      const left = input.deadline === undefined ? null : Math.floor(input.deadline - Date.now());
      const timedOut = () => ({ ok: false as const, judge: info, error: { code: 'judge_timeout', message: "The judge did not answer within the probe's time budget." } });
      if (left !== null && left <= 0) return timedOut();
      const timer = left === null ? null : AbortSignal.timeout(left);
      let reply: string;
      try {
        const answer = await ask({
          platform,
          modelId: model,
          providerModel: model,
          prompt: judgePrompt(input),
          language: 'en',
          country: '',
          targetEntity: '',
          targetUrl: '',
          competitors: [],
          signal: timer ? AbortSignal.any([input.signal, timer]) : input.signal,
        });
        reply = answer.text;
        info.model = answer.model || model;
      } catch (err) {
        if (input.signal.aborted && !(err instanceof PlatformError)) throw err;
        if (timer?.aborted) return timedOut();
        const error =
          err instanceof PlatformError
            ? { code: `judge_${err.code}`.replace(/^judge_judge_/, 'judge_'), message: err.message.slice(0, 300) }
            : { code: 'judge_failed', message: 'The judge call failed unexpectedly.' };
        return { ok: false, judge: info, error };
      }
      const verdict = readVerdict(reply, input);
      return verdict.ok
        ? { ok: true, judge: info, brands: verdict.brands, entities: verdict.entities, mentions: verdict.mentions }
        : { ok: false, judge: info, error: verdict.error };
    },
  };
}

/**
 * Words that speak for or against a brand in the sentences naming it, for the sandbox's simulated
 * judge (en, de, fr, es; matched at word starts, so "recommend" covers "recommended").
 */
const SANDBOX_CUES = {
  positive: [
    'recommend', 'best', 'strong', 'great', 'excellent', 'good', 'praised', 'reliable', 'popular', 'stands out', 'top', 'generous',
    'powerful', 'intuitive', 'worth', 'solid', 'clean', 'flexible', 'favourite', 'favorite',
    'empfohlen', 'empfehl', 'gut', 'stark', 'beliebt', 'zuverlässig', 'gelungen', 'leistungsfähig', 'übersichtlich', 'großzügig',
    'recommand', 'meilleur', 'excellent', 'fiable', 'populaire', 'puissant', 'intuiti', 'généreu',
    'recomend', 'mejor', 'excelente', 'fiable', 'popular', 'potente', 'intuitiv', 'generos',
  ],
  negative: [
    'however', 'drawback', 'downside', 'lack', 'expensive', 'complain', 'critici', 'steep', 'limited', 'slow', 'buggy', 'avoid',
    'weak', 'poor', 'outdated', 'worse', 'worst', 'not recommended', 'problem',
    'allerdings', 'nachteil', 'teuer', 'fehlt', 'steiler', 'begrenzt', 'langsam', 'schwach', 'veraltet', 'kritisiert',
    'cependant', 'inconvénient', 'cher', 'manque', 'limité', 'lent', 'faible', 'critiqu',
    'sin embargo', 'desventaja', 'caro', 'carece', 'limitad', 'lento', 'débil', 'critica',
  ],
  recommends: ['recommend', 'worth', 'pick', 'choose', 'best', 'top', 'empfohlen', 'empfehl', 'recommand', 'recomend'],
};

/** Every cue by its first two letters, to find the cues starting at a word start in one pass. */
const CUES_BY_PREFIX = new Map<string, string[]>();
for (const cue of new Set([...SANDBOX_CUES.positive, ...SANDBOX_CUES.negative, ...SANDBOX_CUES.recommends])) {
  const key = cue.slice(0, 2);
  CUES_BY_PREFIX.set(key, [...(CUES_BY_PREFIX.get(key) ?? []), cue]);
}
const LETTER = /\p{L}/u;

/** The cues that start a word of `text` (lower-cased): at its start or after a character that is not a letter. */
function cuesIn(text: string): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i < text.length - 1; i++) {
    const before = i === 0 ? 32 : text.charCodeAt(i - 1);
    if (before < 128 ? (before >= 97 && before <= 122) || (before >= 65 && before <= 90) : LETTER.test(text[i - 1]!)) continue;
    const candidates = CUES_BY_PREFIX.get(text.slice(i, i + 2));
    if (candidates) for (const cue of candidates) if (text.startsWith(cue, i)) found.add(cue);
  }
  return found;
}

/** How many entries of a cue list were found (a cue listed twice counts twice). */
function cueCount(found: Set<string>, cues: readonly string[]): number {
  let n = 0;
  for (const cue of cues) if (found.has(cue)) n++;
  return n;
}

/**
 * The sandbox's simulated judge: reads the sentences that name each brand and weighs the words
 * for and against it, so its verdict agrees with what the (simulated) answer says: a brand
 * described as strong or recommended is positive, one described as expensive or lacking is
 * negative, one only listed is neutral; recommended when positive and recommended in so many
 * words, or the first item of a list. Deterministic; labelled engine "sandbox", never presented
 * as measured.
 */
export function createSandboxJudge(): Judge {
  return {
    engine: 'sandbox',
    confirms: false,
    async judge(input) {
      const t0 = stepClock();
      const brands = new Map<string, { sentiment: Sentiment; recommended: boolean }>();
      const { starts } = sentenceWeights(input.answer);
      const sentenceOf = (offset: number) => {
        let i = 0;
        while (i + 1 < starts.length && starts[i + 1]! <= offset) i++;
        return input.answer.slice(starts[i] ?? 0, starts[i + 1] ?? input.answer.length).toLowerCase();
      };
      const firstListItem = /^\s*(?:1[.)]|[-*•])\s+(.*)$/m.exec(input.answer)?.[1] ?? '';
      for (const name of input.brands) {
        const matcher = createEntityMatcher(name, [], { language: input.language });
        const offsets = matcher.find(input.answer);
        if (offsets.length === 0) continue;
        const said = [...new Set(offsets.map(sentenceOf))].join(' ');
        const found = cuesIn(said);
        const balance = cueCount(found, SANDBOX_CUES.positive) - cueCount(found, SANDBOX_CUES.negative);
        const sentiment: Sentiment = balance > 0 ? 'positive' : balance < 0 ? 'negative' : 'neutral';
        const firstListed = matcher.find(firstListItem).length > 0;
        brands.set(name, { sentiment, recommended: sentiment === 'positive' && (cueCount(found, SANDBOX_CUES.recommends) > 0 || firstListed) });
      }
      addStepTime('judge', t0);
      return { ok: true, judge: { platform: 'sandbox', model: 'sandbox-judge', engine: 'sandbox' }, brands, entities: null, mentions: null };
    },
  };
}

/**
 * The judge for an engine: the sandbox simulates; live mode judges only when the operator named
 * a judge model, else null (and every judged field stays null).
 */
export function createJudge(opts: { engine: Engine; spec: string | undefined; ask: AskPlatform }): Judge | null {
  if (opts.engine === 'sandbox') return createSandboxJudge();
  const spec = opts.spec?.trim();
  return spec ? createLiveJudge(spec, opts.ask) : null;
}
