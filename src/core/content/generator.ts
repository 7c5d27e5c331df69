// Model-generated trends and prompt ideas (live mode, SIGHTLINE_CONTENT_MODEL=platform:model):
// the page's title, headings and opening text go to the named model through the same platform
// drivers visibility probes use (with web search where the platform has it), and the answer must
// be one JSON object that a zod schema accepts. The one thing to know: the model's output is
// never trusted as is. It is parsed and validated; names and questions are checked by the same
// rules as the offline generator (no placeholders, no English in a German prompt); and anything
// that fails makes the caller fall back to the offline generator, saying so in the result.
import { z } from 'zod';
import type { PageDocument } from '../pages/document.ts';
import type { Citation, PlatformName, ProbeAnswer, ProbeRequest } from '../../platforms/types.ts';
import type { Lang } from './text.ts';

export interface ContentModel {
  platform: PlatformName;
  modelId: string;
  providerModel: string;
  ask(req: ProbeRequest): Promise<ProbeAnswer>;
}

export interface ModelInfo {
  platform: PlatformName;
  model: string;
}

const Intent = z.enum(['informational', 'commercial', 'comparison', 'navigational']);
const Text = z.string().trim().min(3).max(300);

export const ModelTrends = z.object({
  trends: z
    .array(
      z.object({
        name: z.string().trim().min(2).max(80),
        relevance: z.number().int().min(0).max(100),
        intent: Intent,
        questions: z.array(Text).min(1).max(6),
      }),
    )
    .min(1)
    .max(25),
});

export const ModelPrompts = z.object({
  prompts: z
    .array(
      z.object({
        prompt: Text,
        intent: z.enum(['category_discovery', 'comparison', 'alternatives', 'problem_solution', 'how_to', 'reviews', 'pricing']),
        intent_class: Intent,
        why: z.string().trim().min(3).max(300),
      }),
    )
    .min(1)
    .max(25),
});

const LANGUAGE_NAME: Record<string, string> = { en: 'English', de: 'German', fr: 'French', es: 'Spanish', it: 'Italian', nl: 'Dutch', pt: 'Portuguese' };

export class GenerationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GenerationError';
  }
}

/** What the model is shown of the page: enough to know its subject, not the whole page. */
function pageBrief(doc: PageDocument): string {
  const headings = doc.headings.slice(0, 20).map((h) => `${'#'.repeat(h.level)} ${h.text}`).join('\n');
  return [`URL: ${doc.url}`, `Title: ${doc.title ?? ''}`, `Description: ${doc.description ?? ''}`, 'Headings:', headings, 'Opening text:', doc.bodyText.slice(0, 1500)].join('\n');
}

/** The first JSON object in a model's answer (it may wrap it in a code fence or a sentence). */
export function jsonFromAnswer(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = fenced ? fenced[1]! : text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new GenerationError('the answer holds no JSON object');
  try {
    return JSON.parse(body.slice(start, end + 1));
  } catch (err) {
    throw new GenerationError(`the answer is not valid JSON (${(err as Error).message})`);
  }
}

async function askJson<T>(
  model: ContentModel,
  schema: z.ZodType<T>,
  prompt: string,
  ctx: { url: string; lang: Lang; country: string; signal?: AbortSignal },
): Promise<{ value: T; citations: Citation[]; model: string }> {
  let answer: ProbeAnswer;
  try {
    answer = await model.ask({
      platform: model.platform,
      modelId: model.modelId,
      providerModel: model.providerModel,
      prompt,
      language: ctx.lang,
      country: ctx.country,
      targetEntity: '',
      targetUrl: ctx.url,
      competitors: [],
      signal: ctx.signal,
    });
  } catch (err) {
    throw new GenerationError(`${model.platform} failed: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(jsonFromAnswer(answer.text));
  if (!parsed.success) throw new GenerationError(`the answer does not match the schema: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return { value: parsed.data, citations: answer.citations, model: answer.model || model.modelId };
}

export async function generateTrends(
  model: ContentModel,
  doc: PageDocument,
  opts: { lang: Lang; country: string; max: number; industry?: string | null; vendor: boolean; signal?: AbortSignal },
) {
  const language = LANGUAGE_NAME[opts.lang] ?? 'English';
  const prompt = [
    `You are a search and content strategist. Search the web for what people currently ask about the subject of this page${opts.industry ? ` (industry: ${opts.industry})` : ''} in ${opts.country}.`,
    `Return the ${opts.max} most relevant topics (subjects people search for, not phrases copied from the page, not people's names, not the site's own name) with the questions a customer would type, written in natural ${language}.`,
    opts.vendor ? 'The site sells this: include commercial and comparison questions where people ask them.' : 'The site does not sell this (publisher, forum or reference): ask informational questions only; no pricing or "best provider" questions.',
    'Answer with one JSON object and nothing else, exactly this shape:',
    '{"trends":[{"name":"topic","relevance":0-100,"intent":"informational|commercial|comparison|navigational","questions":["question 1","question 2"]}]}',
    '',
    pageBrief(doc),
  ].join('\n');
  return askJson(model, ModelTrends, prompt, { url: doc.url, lang: opts.lang, country: opts.country, signal: opts.signal });
}

export async function generatePrompts(
  model: ContentModel,
  doc: PageDocument,
  opts: { lang: Lang; country: string; count: number; brand: string | null; competitors: string[]; vendor: boolean; signal?: AbortSignal },
) {
  const language = LANGUAGE_NAME[opts.lang] ?? 'English';
  const prompt = [
    `You help a marketer test whether AI assistants mention ${opts.brand ?? 'this site'}. Write ${opts.count} prompts a real customer in ${opts.country} would type into an AI assistant about the subject of this page, in natural ${language} (no other language inside).`,
    opts.vendor
      ? `The site sells this. Mix unbranded prompts (category discovery, problems, how-to, pricing) with a few that name the brand${opts.competitors.length ? ` or these competitors: ${opts.competitors.join(', ')}` : ''} (comparison, alternatives, reviews).`
      : 'The site does not sell this (publisher, forum or reference): informational prompts only, never a prompt that names the site as a vendor.',
    'Answer with one JSON object and nothing else, exactly this shape:',
    '{"prompts":[{"prompt":"…","intent":"category_discovery|comparison|alternatives|problem_solution|how_to|reviews|pricing","intent_class":"informational|commercial|comparison|navigational","why":"one sentence"}]}',
    '',
    pageBrief(doc),
  ].join('\n');
  return askJson(model, ModelPrompts, prompt, { url: doc.url, lang: opts.lang, country: opts.country, signal: opts.signal });
}
