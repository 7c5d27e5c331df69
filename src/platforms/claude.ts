// Live Claude driver: the Anthropic Messages API with the server-side web search tool
// (web_search_20250305), through the AI SDK (@ai-sdk/anthropic). The country goes into the tool's
// user_location, language into the system prompt.
//
// The answer is read from the reply's content blocks, not from the SDK's text (which glues every
// text block together with ''): text Claude writes before its last search result ("I'll search
// for …", "Let me look for more …") is narration, not answer, and is dropped unless it cites a
// result; the kept runs of text are separated by a blank line. Citations are only what the answer
// cites (web_search_result_location citations on the kept text blocks); results Claude merely read
// stay in `raw`, as OpenAI's and Grok's url_citation annotations do.
//
// stop_reason "pause_turn" means the API paused a long server-tool turn (the SDK reports it as a
// plain 'stop'). As Anthropic documents, the paused assistant content is sent back so Claude
// continues the turn, at most MAX_CONTINUATIONS times; a turn still paused after that fails
// retryably (provider_incomplete), so the probe's credits are released if it never completes.
// stop_reason "max_tokens" (finish reason 'length') keeps the answer: the beginning of the answer,
// which is what a visibility check reads, is there, and a retry with the same budget would be cut
// off again; an answer cut off before any text fails as an empty answer.
//
// Request: POST {ANTHROPIC_BASE_URL|https://api.anthropic.com/v1}/messages, x-api-key: KEY,
// anthropic-version: 2023-06-01, {model, max_tokens, system, messages:[{role:'user'}(,{role:'assistant'})],
//  tools:[{type:'web_search_20250305', name:'web_search', max_uses, user_location:{type:'approximate', country}}]}

import type { LanguageModelUsage, ModelMessage, ToolSet } from 'ai';
import { PlatformError, type PlatformDriver, type ProbeRequest } from './types.ts';
import { createLiveDriver, providerSettings, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import type { RawCitation } from './live/citations.ts';
import { aiOnFirstCall } from './live/sdk.ts';

/** Searches Claude may run per probe; claude.ai runs a handful per question. */
const MAX_SEARCHES = 5;
/** The Messages API requires max_tokens; enough for a full answer with citations. */
const MAX_OUTPUT_TOKENS = 4096;
/** Follow-up requests for a turn the API paused (stop_reason pause_turn). */
export const MAX_CONTINUATIONS = 2;

interface ContentBlock {
  type?: string;
  text?: string;
  citations?: Array<{ type?: string; url?: string; title?: string | null }>;
  content?: unknown;
}

interface MessagesBody {
  id?: string;
  model?: string;
  stop_reason?: string;
  content?: ContentBlock[];
}

/**
 * The answer's text and what it cites, from the assistant turn's content blocks. Text blocks are
 * grouped into runs between non-text blocks (tool use, tool results); a run before the last tool
 * block is kept only when it cites a result. Blocks within a run are fragments of one passage
 * (Claude splits at citation boundaries) and join with ''; runs join with a blank line.
 */
export function answerOf(blocks: readonly ContentBlock[]): { text: string; citations: RawCitation[] } {
  const runs: ContentBlock[][] = [];
  let current: ContentBlock[] | null = null;
  let lastToolRun = -1; // runs before this index precede the last tool block
  for (const block of blocks) {
    if (block?.type === 'text') {
      if (!current) runs.push((current = []));
      current.push(block);
    } else {
      current = null;
      lastToolRun = runs.length;
    }
  }
  const cites = (b: ContentBlock) =>
    (b.citations ?? []).some((c) => c?.type === 'web_search_result_location' && typeof c.url === 'string');
  const textOf = (run: ContentBlock[]) => run.map((b) => (typeof b.text === 'string' ? b.text : '')).join('').trim();
  const finalRuns = runs.slice(Math.max(0, lastToolRun));
  let kept = runs.filter((run, i) => i >= lastToolRun || run.some(cites));
  // No answer after the last search (a turn that ends on a tool block): keep everything said.
  if (!finalRuns.some((run) => textOf(run))) kept = runs;
  const text = kept.map(textOf).filter(Boolean).join('\n\n');
  const citations: RawCitation[] = [];
  for (const block of kept.flat()) {
    for (const c of block.citations ?? []) {
      if (c?.type === 'web_search_result_location' && typeof c.url === 'string') citations.push({ url: c.url, title: c.title || null });
    }
  }
  return { text, citations };
}

function addUsage(a: LanguageModelUsage | undefined, b: LanguageModelUsage): LanguageModelUsage {
  if (!a) return b;
  const sum = (x: number | undefined, y: number | undefined) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return { ...b, inputTokens: sum(a.inputTokens, b.inputTokens), outputTokens: sum(a.outputTokens, b.outputTokens), totalTokens: sum(a.totalTokens, b.totalTokens) };
}

export function createClaudeDriver(config: LiveDriverConfig): PlatformDriver {
  const sdk = aiOnFirstCall(async () => (await import('@ai-sdk/anthropic')).createAnthropic(providerSettings(config)));
  return createLiveDriver({
    platform: 'claude',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const { generateText, provider } = await sdk();
      const country = req.country?.toUpperCase();
      const messages: ModelMessage[] = [{ role: 'user', content: req.prompt }];
      const bodies: MessagesBody[] = [];
      let usage: LanguageModelUsage | undefined;
      let modelId: string | undefined;
      let finishReason: string | undefined;
      for (let continuation = 0; ; continuation++) {
        const result = await generateText({
          model: provider.messages(req.providerModel),
          system: marketInstruction(req.language, req.country, { includeCountry: false }),
          messages,
          maxOutputTokens: MAX_OUTPUT_TOKENS,
          // The cast bridges two installed copies of @ai-sdk/provider-utils; same object at runtime.
          tools: {
            web_search: provider.tools.webSearch_20250305({
              maxUses: MAX_SEARCHES,
              ...(country ? { userLocation: { type: 'approximate', country } } : {}),
            }),
          } as unknown as ToolSet,
          maxRetries: 0,
          abortSignal: req.signal,
        });
        const body = (result.response.body ?? {}) as MessagesBody;
        bodies.push(body);
        usage = addUsage(usage, result.usage);
        modelId = body.model ?? result.response.modelId ?? modelId;
        finishReason = result.finishReason;
        if (body.stop_reason !== 'pause_turn') break;
        if (continuation >= MAX_CONTINUATIONS) {
          throw new PlatformError(
            'provider_incomplete',
            `claude: the provider paused the answer (stop_reason pause_turn) ${continuation + 1} times without finishing it.`,
            { retryable: true },
          );
        }
        // The paused assistant content goes back as-is (the SDK turns its server tool call and
        // result parts back into server_tool_use / web_search_tool_result blocks).
        messages.push(...result.response.messages);
      }
      const last = bodies[bodies.length - 1]!;
      const blocks = bodies.flatMap((b) => (Array.isArray(b.content) ? b.content : []));
      const { text, citations } = answerOf(blocks);
      // One assistant turn, however many requests it took: its blocks in order, for audit.
      const raw = bodies.length === 1 ? last : { ...last, content: blocks, pause_turn_continuations: bodies.length - 1 };
      return {
        text,
        citations,
        model: modelId ?? null,
        raw,
        usage,
        finishReason,
        refusal: last.stop_reason === 'refusal' ? text.trim() || 'refused' : null,
      };
    },
  });
}
