// Local fake AI providers for tests: one node:http server on 127.0.0.1 (port 0) per platform that
// speaks the provider's real wire format (paths, auth headers, JSON bodies, error bodies), so the
// live drivers run end to end through the AI SDK without the internet. Shapes follow the public API
// references: OpenAI Responses, Perplexity chat completions (citations + search_results), Gemini
// generateContent with groundingMetadata, xAI Responses, Anthropic Messages with web search
// blocks, DeepSeek chat completions. Every request is recorded for assertions; responses are
// scripted per request (status, headers, delay, hang, malformed body) and default to a success.
//
// Usage: const fake = await startFakeProvider('openai', [{ status: 429, headers: { 'retry-after': '0' } }, {}]);
//        createDrivers({ engine: 'live', env: fake.env }) … fake.requests … await fake.close();

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { ApiPlatform as PlatformName } from '../../../src/platforms/types.ts';

export interface FakeCitation {
  url: string;
  title?: string | null;
}

export interface FakeAnswer {
  text?: string;
  citations?: FakeCitation[];
  /** The model name the fake reports (defaults to the requested model). */
  model?: string;
  /**
   * Claude: a text block before the search blocks ("I'll search for …"), as Claude writes one.
   */
  preamble?: string;
  /**
   * Claude: the reply stops after the search (stop_reason pause_turn, no answer text yet), the way
   * the API pauses a long server-tool turn.
   */
  paused?: boolean;
  /** Claude: how many of `citations` the answer text cites (default 1: the first); all are read. */
  cited?: number;
  /**
   * Perplexity (sonar-reasoning): the model's reasoning, sent as a leading `<think>…</think>` block
   * in the message content, as the reasoning models do. `unclosed` leaves out `</think>` and the
   * answer (a reply cut off while still reasoning).
   */
  reasoning?: string;
  reasoningUnclosed?: boolean;
}

export interface FakeStep {
  /** HTTP status (default 200, or 500 when `error` is set). */
  status?: number;
  headers?: Record<string, string>;
  /** A success body built in the provider's wire format. */
  answer?: FakeAnswer;
  /** A provider-format error body with this message. */
  error?: string;
  /** A refusal / safety block in the provider's format (HTTP 200). */
  refusal?: string;
  /** Any JSON body, sent verbatim (overrides answer/error). */
  body?: unknown;
  /** Bytes sent verbatim, e.g. malformed JSON. */
  rawBody?: string;
  /** Wait before answering. */
  delayMs?: number;
  /** Never answer (the client has to time out). */
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: any;
  rawBody: string;
}

export type FakeScript = FakeStep[] | ((req: RecordedRequest, index: number) => FakeStep);

export interface FakeProvider {
  platform: PlatformName;
  /** What the driver's *_BASE_URL is set to. */
  baseUrl: string;
  /** The server origin (http://127.0.0.1:PORT). */
  origin: string;
  /** The key the fake accepts; requests with another key get the provider's 401. */
  apiKey: string;
  /** Env vars pointing a live driver at this fake. */
  env: Record<string, string>;
  /** Every provider request received (redirect lookups excluded), in order. */
  requests: RecordedRequest[];
  /** Gemini grounding redirects the fake serves at /grounding-api-redirect/{token}: token → target URL. */
  redirects: Map<string, string>;
  /** Redirect lookups received (HEAD/GET /grounding-api-redirect/…). */
  redirectLookups: string[];
  setScript(script: FakeScript): void;
  /**
   * Holds the answers to the model listing from now on until `release()`: `received` resolves once
   * a listing request has arrived and is being held.
   */
  holdListings(): ListingHold;
  close(): Promise<void>;
}

export interface ListingHold {
  received: Promise<void>;
  release(): void;
}

const ENV_NAMES: Record<PlatformName, { key: string; base: string }> = {
  openai: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL' },
  perplexity: { key: 'PERPLEXITY_API_KEY', base: 'PERPLEXITY_BASE_URL' },
  gemini: { key: 'GEMINI_API_KEY', base: 'GEMINI_BASE_URL' },
  grok: { key: 'XAI_API_KEY', base: 'XAI_BASE_URL' },
  claude: { key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL' },
  deepseek: { key: 'DEEPSEEK_API_KEY', base: 'DEEPSEEK_BASE_URL' },
};

/** API root as each provider documents it (what the SDK appends its paths to). */
const BASE_PATH: Record<PlatformName, string> = {
  openai: '/v1',
  perplexity: '',
  gemini: '/v1beta',
  grok: '/v1',
  claude: '/v1',
  deepseek: '',
};

export const DEFAULT_ANSWER_TEXT = 'Acme Anvils is a well-known maker of anvils, alongside Globex.';

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/**
 * The free model listing of each provider (GET), answered in its documented shape; Perplexity has
 * none. OpenAI, xAI, DeepSeek: {object:'list', data:[{id, object:'model', created, owned_by}]};
 * Anthropic: {data:[{type:'model', id, display_name, created_at}], has_more, first_id, last_id};
 * Gemini: {models:[{name:'models/…', displayName, supportedGenerationMethods}]}.
 */
function isListing(platform: PlatformName, method: string, path: string): boolean {
  if (method !== 'GET') return false;
  switch (platform) {
    case 'openai':
    case 'grok':
    case 'claude':
      return path === '/v1/models';
    case 'deepseek':
      return path === '/models';
    case 'gemini':
      return path === '/v1beta/models';
    case 'perplexity':
      return false;
  }
}

export function modelListBody(platform: PlatformName): unknown {
  const ids: Record<PlatformName, string[]> = {
    openai: ['gpt-5-mini', 'gpt-4o-mini'],
    perplexity: [],
    gemini: ['gemini-2.5-flash'],
    grok: ['grok-4-fast'],
    claude: ['claude-sonnet-4-5'],
    deepseek: ['deepseek-chat', 'deepseek-reasoner'],
  };
  const list = ids[platform];
  switch (platform) {
    case 'claude':
      return {
        data: list.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' })),
        has_more: false,
        first_id: list[0],
        last_id: list[list.length - 1],
      };
    case 'gemini':
      return { models: list.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent'] })) };
    default:
      return { object: 'list', data: list.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: platform === 'deepseek' ? 'deepseek' : 'system' })) };
  }
}

/** Gemini's answer to a key it does not know: HTTP 400 INVALID_ARGUMENT with reason API_KEY_INVALID. */
const GEMINI_KEY_INVALID = {
  error: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
    ],
  },
};

/** Which endpoint a request is for, and the model it names; null for an unknown path. */
function route(platform: PlatformName, method: string, path: string, body: any): { model: string } | null {
  if (method !== 'POST') return null;
  switch (platform) {
    case 'openai':
    case 'grok':
      return path === '/v1/responses' ? { model: String(body?.model ?? '') } : null;
    case 'claude':
      return path === '/v1/messages' ? { model: String(body?.model ?? '') } : null;
    case 'perplexity':
    case 'deepseek':
      return path === '/chat/completions' || path === '/v1/chat/completions' ? { model: String(body?.model ?? '') } : null;
    case 'gemini': {
      const m = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(path);
      return m ? { model: decodeURIComponent(m[1]!) } : null;
    }
  }
}

/** The key the request presents, read the way the provider reads it. */
function presentedKey(platform: PlatformName, req: RecordedRequest): string | null {
  switch (platform) {
    case 'claude':
      return req.headers['x-api-key'] ?? null;
    case 'gemini':
      return req.headers['x-goog-api-key'] ?? req.query.key ?? null;
    default: {
      const auth = req.headers.authorization ?? '';
      return auth.startsWith('Bearer ') ? auth.slice(7) : null;
    }
  }
}

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const ANTHROPIC_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** An error body in the provider's documented shape. */
export function errorBody(platform: PlatformName, status: number, message: string): unknown {
  switch (platform) {
    case 'openai':
    case 'deepseek':
      return {
        error: {
          message,
          type: status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_request_error' : 'server_error',
          param: null,
          code: status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null,
        },
      };
    case 'perplexity':
      return { error: { message, type: status === 401 ? 'invalid_api_key' : 'error', code: status } };
    case 'gemini':
      return { error: { code: status, message, status: GOOGLE_STATUS[status] ?? 'UNKNOWN' } };
    case 'grok':
      return { code: status === 401 ? 'Client specified an invalid argument' : 'Service error', error: message };
    case 'claude':
      return { type: 'error', error: { type: ANTHROPIC_TYPE[status] ?? 'api_error', message } };
  }
}

/** A success body in the provider's wire format. */
export function answerBody(platform: PlatformName, requestedModel: string, answer: FakeAnswer = {}, refusal?: string): unknown {
  const text = answer.text ?? DEFAULT_ANSWER_TEXT;
  const citations = answer.citations ?? [];
  const model = answer.model ?? requestedModel;
  switch (platform) {
    case 'openai': {
      let cursor = 0;
      const annotations = citations.map((c) => {
        const start = Math.min(cursor, text.length);
        cursor += 5;
        return { type: 'url_citation', start_index: start, end_index: Math.min(start + 5, text.length), url: c.url, title: c.title ?? '' };
      });
      const message = refusal
        ? { type: 'message', id: id('msg'), status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal }] }
        : {
            type: 'message',
            id: id('msg'),
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text, annotations, logprobs: [] }],
          };
      return {
        id: id('resp'),
        object: 'response',
        created_at: now(),
        status: 'completed',
        error: null,
        model,
        output: [
          { type: 'web_search_call', id: id('ws'), status: 'completed', action: { type: 'search', query: 'anvil makers' } },
          message,
        ],
        usage: {
          input_tokens: 42,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 17,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 59,
        },
      };
    }
    case 'grok':
      return {
        id: id('resp'),
        object: 'response',
        created_at: now(),
        status: 'completed',
        model,
        output: [
          { type: 'web_search_call', id: id('ws'), status: 'completed', name: 'web_search', arguments: '{"query":"anvil makers"}' },
          {
            type: 'message',
            id: id('msg'),
            status: 'completed',
            role: 'assistant',
            content: [
              {
                type: 'output_text',
                text,
                annotations: citations.map((c, i) => ({ type: 'url_citation', url: c.url, title: c.title ?? String(i + 1), start_index: 0, end_index: 0 })),
              },
            ],
          },
        ],
        usage: { input_tokens: 40, output_tokens: 20, total_tokens: 60, num_sources_used: citations.length, num_server_side_tools_used: 1 },
      };
    case 'perplexity':
      return {
        id: id('pplx'),
        model,
        created: now(),
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            finish_reason: answer.reasoningUnclosed ? 'length' : 'stop',
            message: {
              role: 'assistant',
              content:
                answer.reasoning === undefined
                  ? text
                  : answer.reasoningUnclosed
                    ? `<think>\n${answer.reasoning}`
                    : `<think>\n${answer.reasoning}\n</think>\n\n${text}`,
            },
          },
        ],
        citations: citations.map((c) => c.url),
        search_results: citations.map((c) => ({ title: c.title ?? null, url: c.url, date: '2025-01-15' })),
        usage: { prompt_tokens: 12, completion_tokens: 30, total_tokens: 42, search_context_size: 'low' },
      };
    case 'deepseek':
      return {
        id: id('chatcmpl'),
        object: 'chat.completion',
        created: now(),
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 11, completion_tokens: 22, total_tokens: 33 },
        system_fingerprint: 'fp_fake',
      };
    case 'gemini': {
      if (refusal) {
        return {
          promptFeedback: { blockReason: 'SAFETY', blockReasonMessage: refusal },
          usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
          modelVersion: model,
          responseId: id('gem'),
        };
      }
      return {
        candidates: [
          {
            content: { role: 'model', parts: [{ text }] },
            finishReason: 'STOP',
            index: 0,
            groundingMetadata: {
              webSearchQueries: ['anvil makers'],
              searchEntryPoint: { renderedContent: '<div></div>' },
              groundingChunks: citations.map((c) => ({ web: { uri: c.url, title: c.title ?? undefined } })),
              groundingSupports: citations.length
                ? [{ segment: { startIndex: 0, endIndex: Math.min(10, text.length), text: text.slice(0, 10) }, groundingChunkIndices: [0], confidenceScores: [0.9] }]
                : [],
            },
          },
        ],
        usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 21, totalTokenCount: 30 },
        modelVersion: model,
        responseId: id('gem'),
      };
    }
    case 'claude': {
      const toolId = id('srvtoolu');
      const search = [
        { type: 'server_tool_use', id: toolId, name: 'web_search', input: { query: 'anvil makers' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: toolId,
          content: citations.map((c) => ({
            type: 'web_search_result',
            url: c.url,
            title: c.title ?? '',
            encrypted_content: 'EqgfCioIARgBIiQ3',
            page_age: 'April 30, 2025',
          })),
        },
      ];
      const content: unknown[] = refusal
        ? [{ type: 'text', text: refusal }]
        : [
            ...(answer.preamble !== undefined ? [{ type: 'text', text: answer.preamble }] : []),
            ...search,
            ...(answer.paused
              ? []
              : [
                  {
                    type: 'text',
                    text,
                    citations: citations.slice(0, answer.cited ?? 1).map((c) => ({
                      type: 'web_search_result_location',
                      url: c.url,
                      title: c.title ?? '',
                      cited_text: 'Acme Anvils makes anvils.',
                      encrypted_index: 'Eo8BCioIAhgBIiQ',
                    })),
                  },
                ]),
          ];
      return {
        id: id('msg'),
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: refusal ? 'refusal' : answer.paused ? 'pause_turn' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 25, server_tool_use: { web_search_requests: 1 } },
      };
    }
  }
}

function headerRecord(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export async function startFakeProvider(platform: PlatformName, script: FakeScript = []): Promise<FakeProvider> {
  const apiKey = `fake-${platform}-key-${randomBytes(12).toString('hex')}`;
  let current: FakeScript = script;
  const requests: RecordedRequest[] = [];
  const redirects = new Map<string, string>();
  const redirectLookups: string[] = [];
  const pending = new Set<NodeJS.Timeout>();
  let hold: { released: Promise<void>; arrived: () => void } | null = null;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const rawBody = Buffer.concat(chunks).toString('utf8');

      const redirect = /^\/grounding-api-redirect\/(.+)$/.exec(url.pathname);
      if (redirect && (req.method === 'GET' || req.method === 'HEAD')) {
        redirectLookups.push(url.pathname);
        const target = redirects.get(redirect[1]!);
        if (target) res.writeHead(302, { location: target }).end();
        else res.writeHead(404).end();
        return;
      }

      let body: any = null;
      try {
        body = rawBody ? JSON.parse(rawBody) : null;
      } catch {
        body = null;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: headerRecord(req.headers),
        body,
        rawBody,
      };
      const index = requests.length;
      requests.push(recorded);

      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        if (res.destroyed) return;
        const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(text);
      };

      // Authentication the way the provider does it: Google answers a key it does not know with
      // 400 API_KEY_INVALID, the others with 401, quoting the presented key back as OpenAI and xAI
      // do (so tests can prove drivers scrub it); then Anthropic's version header. True when refused.
      const refused = (): boolean => {
        const key = presentedKey(platform, recorded);
        if (key !== apiKey) {
          if (platform === 'gemini') send(400, GEMINI_KEY_INVALID);
          else send(401, errorBody(platform, 401, `Incorrect API key provided: ${key ?? '(none)'}.`));
          return true;
        }
        if (platform === 'claude' && !recorded.headers['anthropic-version']) {
          send(400, errorBody(platform, 400, 'anthropic-version: header is required'));
          return true;
        }
        return false;
      };

      if (isListing(platform, recorded.method, recorded.path)) {
        const answer = () => {
          if (!refused()) send(200, modelListBody(platform));
        };
        if (!hold) return answer();
        hold.arrived();
        void hold.released.then(answer);
        return;
      }
      const r = route(platform, recorded.method, recorded.path, body);
      if (!r) return send(404, errorBody(platform, 404, `Unknown path ${recorded.path}`));
      if (refused()) return;

      const step: FakeStep = typeof current === 'function' ? current(recorded, index) : (current[index] ?? {});
      const respond = () => {
        if (step.rawBody !== undefined) return send(step.status ?? 200, step.rawBody, step.headers);
        if (step.body !== undefined) return send(step.status ?? 200, step.body, step.headers);
        if (step.error !== undefined) {
          const status = step.status ?? 500;
          return send(status, errorBody(platform, status, step.error), step.headers);
        }
        const status = step.status ?? 200;
        if (status >= 400) return send(status, errorBody(platform, status, `HTTP ${status} from the fake ${platform}`), step.headers);
        return send(status, answerBody(platform, r.model, step.answer, step.refusal), step.headers);
      };
      if (step.hang) return; // closed by the client's abort or by close()
      if (step.delayMs) {
        const t = setTimeout(() => {
          pending.delete(t);
          respond();
        }, step.delayMs);
        pending.add(t);
      } else respond();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = origin + BASE_PATH[platform];
  const names = ENV_NAMES[platform];

  return {
    platform,
    baseUrl,
    origin,
    apiKey,
    env: { [names.key]: apiKey, [names.base]: baseUrl },
    requests,
    redirects,
    redirectLookups,
    setScript(s: FakeScript) {
      current = s;
    },
    holdListings() {
      let release!: () => void;
      let arrived!: () => void;
      const received = new Promise<void>((r) => (arrived = r));
      const released = new Promise<void>((r) => (release = r));
      hold = { released, arrived };
      return {
        received,
        release: () => {
          hold = null;
          release();
        },
      };
    },
    async close() {
      for (const t of pending) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Start a fake for several platforms at once; env merges all of them. */
export async function startFakeProviders(
  platforms: readonly PlatformName[],
): Promise<{ fakes: Record<string, FakeProvider>; env: Record<string, string>; close(): Promise<void> }> {
  const fakes: Record<string, FakeProvider> = {};
  for (const p of platforms) fakes[p] = await startFakeProvider(p);
  const env = Object.assign({}, ...Object.values(fakes).map((f) => f.env)) as Record<string, string>;
  return { fakes, env, close: async () => void (await Promise.all(Object.values(fakes).map((f) => f.close()))) };
}

/** A ProbeRequest for a platform with the catalog's default model, overridable per test. */
export function probeRequest(
  platform: PlatformName,
  overrides: Partial<import('../../../src/platforms/types.ts').ProbeRequest> = {},
): import('../../../src/platforms/types.ts').ProbeRequest {
  const model: Record<PlatformName, string> = {
    openai: 'gpt-5-mini',
    perplexity: 'sonar',
    gemini: 'gemini-2.5-flash',
    grok: 'grok-4-fast',
    claude: 'claude-sonnet-4-5',
    deepseek: 'deepseek-chat',
  };
  return {
    platform,
    modelId: model[platform],
    providerModel: model[platform],
    prompt: 'Which companies make the best anvils?',
    language: 'de',
    country: 'DE',
    targetEntity: 'Acme Anvils',
    targetUrl: 'https://acme.example/',
    competitors: ['Globex'],
    ...overrides,
  };
}
