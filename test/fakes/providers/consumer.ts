// Fake SerpApi and DataForSEO on 127.0.0.1, answering in the providers' documented shapes (the
// fixtures in test/fixtures/providers/, each naming its source documents). SerpApi: GET /search
// with api_key, engines google (AI Overview embedded, or a page_token for the google_ai_overview
// follow-up), google_ai_overview, google_ai_mode and bing_copilot. DataForSEO: Basic auth, the task
// flow (task_post → tasks_ready → task_get/advanced/{id}) with a configurable time until a task is
// ready, and the live/advanced endpoints. A `fault` hook answers any request differently (429 with
// Retry-After, 5xx, a malformed body, a stall) for the driver tests.
//
//   const fake = await startFakeSerpApi(); createDrivers({ engine: 'live', env: fake.env }) …

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

const FIXTURES = new URL('../../fixtures/providers/', import.meta.url);

/** A fixture as the provider sends it (without its `_source` note). */
export function fixture(name: string): any {
  const { _source, ...body } = JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
  void _source;
  return body;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  at: number;
}

/** A scripted answer: status, body (object → JSON, string → as is), headers, a delay, or a stall. */
export interface FakeReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Never answer (the client's timeout must fire). */
  stall?: boolean;
}

/** Returns a reply to override the normal answer, or undefined to answer normally. */
export type Fault = (req: FakeRequest, index: number) => FakeReply | undefined;

export interface FakeConsumerProvider {
  origin: string;
  env: Record<string, string>;
  requests: FakeRequest[];
  setFault(fault: Fault | undefined): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, reply: FakeReply): void {
  const status = reply.status ?? 200;
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
  res.end(body);
}

async function serve(
  handle: (req: FakeRequest) => FakeReply,
  envOf: (origin: string) => Record<string, string>,
): Promise<FakeConsumerProvider> {
  const requests: FakeRequest[] = [];
  let fault: Fault | undefined;
  const stalled = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const r: FakeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: await readBody(req),
      at: Date.now(),
    };
    const index = requests.push(r) - 1;
    const reply = fault?.(r, index) ?? handle(r);
    if (reply.stall) {
      stalled.add(res);
      res.on('close', () => stalled.delete(res));
      return;
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (!res.destroyed) send(res, reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    env: envOf(origin),
    requests,
    setFault: (f) => void (fault = f),
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const SERPAPI_TEST_KEY = 'serpapi-test-key-0123456789abcdef';

export interface SerpApiOptions {
  /** engine=google answers: 'embedded' (default), 'page_token' (follow-up needed) or 'none' (no AI Overview). */
  overview?: 'embedded' | 'page_token' | 'none';
  /** google_ai_mode / bing_copilot answer without text blocks (no AI answer). */
  noAnswer?: boolean;
}

export async function startFakeSerpApi(opts: SerpApiOptions = {}): Promise<FakeConsumerProvider> {
  const key = SERPAPI_TEST_KEY;
  return serve(
    (r) => {
      if (r.method === 'GET' && r.path === '/account.json') {
        // The Account API (https://serpapi.com/account-api): free, the key in api_key.
        if (r.query.api_key !== key) return { status: 401, body: fixture('serpapi/error-invalid-key.json') };
        return {
          body: {
            account_id: '5ac54d6adefb2f1dba1663f5',
            account_email: 'tester@example.com',
            account_status: 'Active',
            plan_id: 'developer',
            plan_name: 'Developer Plan',
            searches_per_month: 5000,
            plan_searches_left: 4990,
            extra_credits: 0,
            total_searches_left: 4990,
            this_month_usage: 10,
            this_hour_searches: 0,
            last_hour_searches: 0,
            account_rate_limit_per_hour: 1000,
          },
        };
      }
      if (r.method !== 'GET' || r.path !== '/search') return { status: 404, body: { error: 'Not found.' } };
      if (r.query.api_key !== key) return { status: 401, body: fixture('serpapi/error-invalid-key.json') };
      const withQ = (body: any) => ({ ...body, search_parameters: { ...body.search_parameters, q: r.query.q } });
      switch (r.query.engine) {
        case 'google':
          if (opts.overview === 'none') return { body: withQ(fixture('serpapi/google-no-ai-overview.json')) };
          if (opts.overview === 'page_token') return { body: withQ(fixture('serpapi/google-ai-overview-page-token.json')) };
          return { body: withQ(fixture('serpapi/google-ai-overview.json')) };
        case 'google_ai_overview':
          if (!r.query.page_token) return { status: 400, body: { error: 'Missing query `page_token` parameter.' } };
          return { body: fixture('serpapi/google-ai-overview-follow-up.json') };
        case 'google_ai_mode':
        case 'bing_copilot': {
          const body = withQ(fixture(r.query.engine === 'google_ai_mode' ? 'serpapi/google-ai-mode.json' : 'serpapi/bing-copilot.json'));
          if (opts.noAnswer) {
            delete body.text_blocks;
            delete body.references;
          }
          return { body };
        }
        default:
          return { status: 400, body: { error: `Unsupported \`${r.query.engine}\` search engine.` } };
      }
    },
    (origin) => ({ SERPAPI_API_KEY: key, SERPAPI_BASE_URL: origin }),
  );
}

export const DATAFORSEO_TEST_LOGIN = 'tester@example.com';
export const DATAFORSEO_TEST_PASSWORD = 'dfs-test-password-0123456789';

export interface DataForSeoOptions {
  /** Time from task_post until the task shows in tasks_ready (ms, or drawn per task). Default 30 ms. */
  taskLatencyMs?: number | (() => number);
  /** The result carries no AI answer (no ai_overview item; an empty ChatGPT markdown). */
  noAnswer?: boolean;
}

const RESULT_FIXTURE: Record<string, string> = {
  'serp/google/organic': 'dataforseo/organic-task-get-advanced.json',
  'serp/google/ai_mode': 'dataforseo/ai-mode-task-get-advanced.json',
  'ai_optimization/chat_gpt/llm_scraper': 'dataforseo/chatgpt-llm-scraper-task-get-advanced.json',
};

const API_RE = /^\/v3\/(serp\/google\/organic|serp\/google\/ai_mode|ai_optimization\/chat_gpt\/llm_scraper)\/(task_post|tasks_ready|task_get\/advanced\/([^/]+)|live\/advanced)$/;

export async function startFakeDataForSeo(opts: DataForSeoOptions = {}): Promise<FakeConsumerProvider & { tasks: Map<string, { readyAt: number; postedAt: number; collected: boolean; api: string }> }> {
  const auth = `Basic ${Buffer.from(`${DATAFORSEO_TEST_LOGIN}:${DATAFORSEO_TEST_PASSWORD}`).toString('base64')}`;
  const tasks = new Map<string, { readyAt: number; postedAt: number; collected: boolean; api: string; data: any }>();
  const latency = () => (typeof opts.taskLatencyMs === 'function' ? opts.taskLatencyMs() : (opts.taskLatencyMs ?? 30));

  const resultEnvelope = (api: string, id: string, data: any) => {
    const env = fixture(api === 'serp/google/organic' && opts.noAnswer ? 'dataforseo/organic-no-ai-overview.json' : RESULT_FIXTURE[api]!);
    const task = env.tasks[0];
    task.id = id;
    task.data = { ...task.data, ...data };
    const result = task.result[0];
    result.keyword = data?.keyword ?? result.keyword;
    if (opts.noAnswer && api === 'serp/google/ai_mode') {
      result.items = [];
      result.item_types = [];
    }
    if (opts.noAnswer && api === 'ai_optimization/chat_gpt/llm_scraper') {
      result.markdown = '';
      result.items = [];
      result.sources = [];
    }
    return env;
  };

  const fake = await serve(
    (r) => {
      if (r.headers.authorization !== auth) {
        return { status: 401, body: { version: '0.1.20250526', status_code: 40100, status_message: 'You are not authorized to access this resource.', tasks_count: 0, tasks_error: 0, tasks: null } };
      }
      if (r.method === 'GET' && r.path === '/v3/appendix/user_data') {
        // appendix/user_data (https://docs.dataforseo.com/v3/appendix/user_data/): free, the account's data.
        return {
          body: {
            version: '0.1.20250526',
            status_code: 20000,
            status_message: 'Ok.',
            time: '0.0210 sec.',
            cost: 0,
            tasks_count: 1,
            tasks_error: 0,
            tasks: [
              {
                id: randomUUID(),
                status_code: 20000,
                status_message: 'Ok.',
                time: '0.0131 sec.',
                cost: 0,
                result_count: 1,
                path: ['v3', 'appendix', 'user_data'],
                data: { api: 'appendix', function: 'user_data' },
                result: [{ login: DATAFORSEO_TEST_LOGIN, timezone: 'UTC', money: { total: 50, balance: 49.5 } }],
              },
            ],
          },
        };
      }
      const m = API_RE.exec(r.path);
      if (!m) return { status: 404, body: { status_code: 40400, status_message: 'Not Found.', tasks: null } };
      const api = m[1]!;
      const fn = m[2]!;
      if (fn === 'task_post' && r.method === 'POST') {
        const data = Array.isArray(r.body) ? r.body[0] : undefined;
        const id = randomUUID();
        const postedAt = Date.now();
        tasks.set(id, { readyAt: postedAt + latency(), postedAt, collected: false, api, data });
        const env = fixture('dataforseo/task-post.json');
        Object.assign(env.tasks[0], { id, path: ['v3', ...api.split('/'), 'task_post'], data: { ...env.tasks[0].data, ...data } });
        return { body: env };
      }
      if (fn === 'tasks_ready' && r.method === 'GET') {
        const now = Date.now();
        const ready = [...tasks].filter(([, t]) => t.api === api && !t.collected && t.readyAt <= now);
        const env = fixture('dataforseo/tasks-ready.json');
        const [se, seType] = api === 'ai_optimization/chat_gpt/llm_scraper' ? ['chat_gpt', 'llm_scraper'] : ['google', api.split('/').pop()];
        env.tasks[0].result = ready.map(([id, t]) => ({
          id,
          se,
          se_type: seType,
          date_posted: new Date(t.readyAt).toISOString().replace('T', ' ').replace(/\..+$/, ' +00:00'),
          tag: null,
          endpoint_regular: null,
          endpoint_advanced: `/v3/${api}/task_get/advanced/${id}`,
          endpoint_html: `/v3/${api}/task_get/html/${id}`,
        }));
        env.tasks[0].result_count = ready.length;
        return { body: env };
      }
      if (fn.startsWith('task_get/advanced/') && r.method === 'GET') {
        const id = m[3]!;
        const t = tasks.get(id);
        if (!t || t.api !== api) return { body: { status_code: 20000, status_message: 'Ok.', tasks: [{ id, status_code: 40400, status_message: 'Not Found.', result: null }] } };
        // Not done yet: DataForSEO answers the task with 40602 "Task In Queue." and no result.
        if (t.readyAt > Date.now()) return { body: { status_code: 20000, status_message: 'Ok.', tasks: [{ id, status_code: 40602, status_message: 'Task In Queue.', result: null }] } };
        t.collected = true;
        return { body: resultEnvelope(api, id, t.data) };
      }
      if (fn === 'live/advanced' && r.method === 'POST') {
        const data = Array.isArray(r.body) ? r.body[0] : undefined;
        return { body: resultEnvelope(api, randomUUID(), data) };
      }
      return { status: 404, body: { status_code: 40400, status_message: 'Not Found.', tasks: null } };
    },
    (origin) => ({ DATAFORSEO_LOGIN: DATAFORSEO_TEST_LOGIN, DATAFORSEO_PASSWORD: DATAFORSEO_TEST_PASSWORD, DATAFORSEO_BASE_URL: origin }),
  );
  return Object.assign(fake, { tasks });
}
