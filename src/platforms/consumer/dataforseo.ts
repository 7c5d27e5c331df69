// DataForSEO: Google AI Overviews (SERP Google organic with load_async_ai_overview; the
// `ai_overview` item), Google AI Mode (SERP Google AI Mode) and the consumer ChatGPT answer (AI
// Optimization ChatGPT LLM Scraper). Basic auth with login:password.
//
// Two methods (SIGHTLINE_DATAFORSEO_METHOD): `task` (default; the Standard queue, cheaper) posts a
// task, waits for it in tasks_ready, then fetches it by its endpoint_advanced; `live` makes one
// POST to the live/advanced endpoint. One poller per driver asks tasks_ready for every waiting
// probe at once, so polling does not grow with the number of probes in flight.
//
// A posted task is paid for, so it is posted once per probe: its id is recorded on the probe
// (ProbeRequest.task) before the wait, a probe taken over by another worker (or retried after a
// failed fetch) resumes that task (task_get first, since it may be ready or even collected
// already; 40601/40602 mean not yet, then the poller), and the wait gives the probe's slots back
// (ProbeRequest.waitOffLane).
//
// Documented shapes (fixtures in test/fixtures/providers/dataforseo/ name their pages):
//   POST /v3/<api>/task_post  [{ keyword, language_code, location_name, … }]
//     → { status_code: 20000, tasks: [{ id, status_code: 20100, status_message: "Task Created." }] }
//   GET  /v3/<api>/tasks_ready → { tasks: [{ result: [{ id, endpoint_advanced }] }] }
//   GET  /v3/<api>/task_get/advanced/{id} (or POST /v3/<api>/live/advanced)
//     (a task not ready yet: tasks[0].status_code 40601 "Task Handed." or 40602 "Task In Queue.")
//     → { status_code: 20000, tasks: [{ status_code: 20000, result: [{ items: [...] | markdown, sources }] }] }
//   SERP: the item `{ type: "ai_overview", markdown, items: [{ type: "ai_overview_element", text,
//   markdown, references }], references: [{ source, domain, url, title, text }] }`.
//   ChatGPT: result `{ model, markdown, sources: [{ url, title, domain }], items }`.

import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError, type ConsumerPlatform, type ProbeRequest } from '../types.ts';
import type { RawCitation } from '../live/citations.ts';
import { undiciFetch } from '../live/http.ts';
import { cleanBaseURL } from '../live/driver.ts';
import { createConsumerDriver, type ConsumerResult } from './driver.ts';
import { requestJson, type ProviderHttp } from './http.ts';
import { countryName, languageCode } from './location.ts';

export const DATAFORSEO_DEFAULT_BASE = 'https://api.dataforseo.com';

export interface DataForSeoConfig {
  login?: string;
  password?: string;
  baseURL?: string;
  fetch?: typeof fetch;
  method?: 'task' | 'live';
  /** How often the shared poller asks tasks_ready (default 2000 ms). */
  pollIntervalMs?: number;
}

/** The API path under /v3 of each surface. */
const API_PATH: Partial<Record<ConsumerPlatform, string>> = {
  google_ai_overview: 'serp/google/organic',
  google_ai_mode: 'serp/google/ai_mode',
  chatgpt_app: 'ai_optimization/chat_gpt/llm_scraper',
};

interface Envelope {
  status_code?: number;
  status_message?: string;
  tasks?: Array<{ id?: string; status_code?: number; status_message?: string; result?: unknown[] | null }>;
}

interface AiItem {
  type?: string;
  text?: string | null;
  markdown?: string | null;
  title?: string | null;
  items?: AiItem[] | null;
  references?: Array<{ url?: string; title?: string; domain?: string }> | null;
}

function refs(list: AiItem['references']): RawCitation[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((r) => (typeof r?.url === 'string' ? [{ url: r.url, title: typeof r.title === 'string' ? r.title : null }] : []));
}

/** Text and references of an `ai_overview` item: its markdown, else its elements' text. */
export function readAiOverviewItem(item: AiItem): { text: string; citations: RawCitation[] } {
  const elements = Array.isArray(item.items) ? item.items : [];
  const text =
    (typeof item.markdown === 'string' && item.markdown.trim()) ||
    elements
      .map((e) => [e.title, e.markdown ?? e.text].filter((x) => typeof x === 'string' && x.trim()).join('\n'))
      .filter(Boolean)
      .join('\n\n');
  const citations = [...refs(item.references), ...elements.flatMap((e) => refs(e.references))];
  return { text: text || '', citations };
}

function resultOf(platform: ConsumerPlatform, result: Record<string, any>): ConsumerResult {
  if (platform === 'chatgpt_app') {
    const items = Array.isArray(result.items) ? (result.items as AiItem[]) : [];
    const text = (typeof result.markdown === 'string' && result.markdown.trim()) || items.map((i) => i.markdown ?? i.text ?? '').filter(Boolean).join('\n\n');
    const sources = Array.isArray(result.sources) ? (result.sources as AiItem['references']) : [];
    return { text: text || null, citations: text ? refs(sources) : [], model: typeof result.model === 'string' ? result.model : 'chatgpt', raw: result };
  }
  const item = (Array.isArray(result.items) ? (result.items as AiItem[]) : []).find((i) => i?.type === 'ai_overview');
  if (!item) return { text: null, citations: [], model: platform === 'google_ai_mode' ? 'google_ai_mode' : 'google', raw: result };
  const { text, citations } = readAiOverviewItem(item);
  return { text: text || null, citations: text ? citations : [], model: platform === 'google_ai_mode' ? 'google_ai_mode' : 'google', raw: result };
}

export function createDataForSeoDriver(platform: ConsumerPlatform, config: DataForSeoConfig) {
  const path = API_PATH[platform];
  if (!path) throw new Error(`DataForSEO does not serve ${platform}.`);
  const login = config.login?.trim() || undefined;
  const password = config.password?.trim() || undefined;
  const base = cleanBaseURL(config.baseURL) ?? DATAFORSEO_DEFAULT_BASE;
  const basic = login && password ? Buffer.from(`${login}:${password}`).toString('base64') : undefined;
  const secrets = [password, basic, login && password ? `${login}:${password}` : undefined];
  const http: ProviderHttp = { platform, provider: 'dataforseo', fetch: config.fetch ?? undiciFetch, secrets };
  const headers = { authorization: `Basic ${basic ?? ''}`, 'content-type': 'application/json' };
  const method = config.method ?? 'task';
  const pollMs = Math.max(10, config.pollIntervalMs ?? 2000);

  /** The envelope's first task, with DataForSEO's own status codes checked (HTTP 200 is not success). */
  const firstTask = (body: unknown, accepted: number[]) => {
    const env = body as Envelope;
    const who = `${platform} (dataforseo)`;
    if (typeof env.status_code !== 'number') throw new PlatformError('provider_malformed_response', `${who}: the reply has no status_code.`);
    const check = (code: number, message: string | undefined) => {
      if (accepted.includes(code)) return;
      const text = `${who}: ${String(message ?? 'error').slice(0, 300)} (status ${code})`;
      if (code >= 50000) throw new PlatformError('provider_unavailable', text, { retryable: true });
      if (code >= 40100 && code < 40200) throw new PlatformError('provider_auth_failed', text);
      throw new PlatformError('provider_bad_request', text);
    };
    check(env.status_code, env.status_message);
    const task = Array.isArray(env.tasks) ? env.tasks[0] : undefined;
    if (!task || typeof task.status_code !== 'number') throw new PlatformError('provider_malformed_response', `${who}: the reply holds no task.`);
    check(task.status_code, task.status_message);
    return task;
  };

  // The shared poller: task id → waiter. One loop runs while anything waits.
  const waiting = new Map<string, { resolve: (endpoint: string) => void; reject: (e: unknown) => void }>();
  let polling = false;
  async function pollLoop() {
    polling = true;
    try {
      while (waiting.size > 0) {
        await sleep(pollMs);
        if (waiting.size === 0) break;
        let body: unknown;
        try {
          body = await requestJson(http, `${base}/v3/${path}/tasks_ready`, { method: 'GET', headers });
        } catch (err) {
          // A passing failure (throttled, 5xx, network) leaves the posted tasks valid: poll again.
          // Anything else (credentials refused) fails every waiter alike; nothing will come.
          if (err instanceof PlatformError && err.retryable) continue;
          for (const [id, w] of waiting) {
            waiting.delete(id);
            w.reject(err);
          }
          break;
        }
        const tasks = (body as Envelope).tasks ?? [];
        for (const t of tasks) {
          for (const r of (Array.isArray(t?.result) ? t.result : []) as Array<{ id?: string; endpoint_advanced?: string | null }>) {
            const w = r?.id ? waiting.get(r.id) : undefined;
            if (!w || !r.id) continue;
            waiting.delete(r.id);
            w.resolve(r.endpoint_advanced || `/v3/${path}/task_get/advanced/${r.id}`);
          }
        }
      }
    } finally {
      polling = false;
      if (waiting.size > 0) void pollLoop();
    }
  }
  function whenReady(id: string, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        waiting.delete(id);
        reject(signal!.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.set(id, {
        resolve: (e) => (signal?.removeEventListener('abort', onAbort), resolve(e)),
        reject: (e) => (signal?.removeEventListener('abort', onAbort), reject(e)),
      });
      if (!polling) void pollLoop();
    });
  }

  function taskBody(req: ProbeRequest): Record<string, unknown> {
    const task: Record<string, unknown> = { keyword: req.prompt, language_code: languageCode(req.language) };
    // A city is passed as given (DataForSEO's full location name, e.g. "London,England,United Kingdom").
    const where = req.city?.trim() || countryName(req.country);
    if (where) task.location_name = where;
    if (platform === 'google_ai_overview') task.load_async_ai_overview = true;
    if (platform === 'chatgpt_app') task.force_web_search = true;
    return task;
  }

  /** Task status codes of a task posted but not done yet (DataForSEO's appendix of errors). */
  const NOT_READY = [40601, 40602];
  const notReady = (body: unknown) => NOT_READY.includes(Number((body as Envelope)?.tasks?.[0]?.status_code));

  const absolute = (endpoint: string) => (/^https?:\/\//.test(endpoint) ? `${base}${new URL(endpoint).pathname}` : `${base}${endpoint.startsWith('/') ? '' : '/'}${endpoint}`);

  async function call(req: ProbeRequest): Promise<ConsumerResult> {
    const body = JSON.stringify([taskBody(req)]);
    let envelope: unknown;
    if (method === 'live') {
      envelope = await requestJson(http, `${base}/v3/${path}/live/advanced`, { method: 'POST', headers, body, signal: req.signal });
    } else {
      let id = req.task?.posted ?? null;
      if (id) {
        // Posted earlier for this probe: never posted again. It may be ready, or collected already.
        const got = await requestJson(http, `${base}/v3/${path}/task_get/advanced/${encodeURIComponent(id)}`, { method: 'GET', headers, signal: req.signal });
        if (!notReady(got)) envelope = got;
      } else {
        const posted = firstTask(await requestJson(http, `${base}/v3/${path}/task_post`, { method: 'POST', headers, body, signal: req.signal }), [20000, 20100]);
        if (typeof posted.id !== 'string') throw new PlatformError('provider_malformed_response', `${platform} (dataforseo): the posted task has no id.`);
        id = posted.id;
        await req.task?.record(id);
      }
      if (envelope === undefined) {
        const taskId = id;
        // The wait is not work: the probe's slots are given back while it lasts.
        const endpoint = await (req.waitOffLane ? req.waitOffLane(() => whenReady(taskId, req.signal)) : whenReady(taskId, req.signal));
        envelope = await requestJson(http, absolute(endpoint), { method: 'GET', headers, signal: req.signal });
      }
    }
    const task = firstTask(envelope, [20000]);
    const result = Array.isArray(task.result) ? (task.result[0] as Record<string, any> | undefined) : undefined;
    if (!result || typeof result !== 'object') throw new PlatformError('provider_malformed_response', `${platform} (dataforseo): the task holds no result.`);
    return resultOf(platform, result);
  }

  return createConsumerDriver({ platform, provider: 'dataforseo', secrets, configured: basic !== undefined, call });
}
