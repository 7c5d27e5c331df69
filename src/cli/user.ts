// The user commands of the `sightline` bin: a client of a running server's HTTP API through the
// typed client (src/client), configured by SIGHTLINE_API_URL and SIGHTLINE_API_KEY. Parsed by
// commander (per-command --help). With --json, stdout holds exactly one JSON document (the
// answer, or {"error", "message", …} on failure); progress and messages go to stderr.
// Exit codes by failure class: 0 done, 1 the request was refused (400/422), 2 usage error,
// 3 authentication or scope (401/403), 4 credits (402), 5 not found (404), 6 rate limited (429),
// 7 server unreachable or failing (5xx).
import { Command, CommanderError, Option } from 'commander';
import { createSightlineClient, type SightlineClient } from '../client/index.ts';

export const EXIT = { ok: 0, refused: 1, usage: 2, auth: 3, credits: 4, notFound: 5, rateLimited: 6, server: 7 } as const;

const HINTS: Record<number, string> = {
  401: 'check SIGHTLINE_API_KEY: it must be an API key (svc_api_live_…) of this server; `sightline keys create --account ID` makes one',
  402: 'not enough credits: see `sightline usage`, or ask the operator (`sightline credits grant`)',
  403: 'the key lacks the scope this needs, or the account is suspended',
  429: 'rate limited: wait for the Retry-After seconds and retry',
};

/** A failed call, with the exit code of its class. */
class CallFailed extends Error {
  constructor(
    readonly exit: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.error));
  }
}

function exitFor(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 402) return EXIT.credits;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status >= 500) return EXIT.server;
  return EXIT.refused;
}

/** The answer of an openapi-fetch call, or a CallFailed carrying the API's error. */
async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let res: { data?: T; error?: unknown; response: Response };
  try {
    res = await call;
  } catch (err) {
    throw new CallFailed(EXIT.server, { error: 'unreachable', message: `cannot reach the server: ${(err as Error).message} (check SIGHTLINE_API_URL)` });
  }
  if (res.response.ok) return res.data as T;
  const detail = (res.error as { detail?: unknown } | undefined)?.detail;
  const body: Record<string, unknown> = Array.isArray(detail)
    ? { error: 'validation_error', message: detail.map((d: { loc: unknown[]; msg: string }) => `${d.loc.join('.')}: ${d.msg}`).join('; '), detail }
    : typeof detail === 'object' && detail
      ? { ...(detail as Record<string, unknown>) }
      : { error: `http_${res.response.status}`, message: `HTTP ${res.response.status}` };
  body.status = res.response.status;
  if (HINTS[res.response.status]) body.hint = HINTS[res.response.status];
  throw new CallFailed(exitFor(res.response.status), body);
}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  env: Record<string, string | undefined>;
}

function clientFrom(env: Io['env']): SightlineClient {
  const apiKey = env.SIGHTLINE_API_KEY?.trim();
  if (!apiKey) throw new CallFailed(EXIT.auth, { error: 'missing_api_key', message: 'set SIGHTLINE_API_KEY to an API key (svc_api_live_…)' });
  return createSightlineClient({ baseUrl: env.SIGHTLINE_API_URL?.trim() || 'http://localhost:8080', apiKey });
}

const collect = (value: string, previous: string[] = []) => [...previous, value];
const TERMINAL = new Set(['completed', 'partially_completed', 'failed', 'cancelled']);

type RunBody = {
  url: string;
  target_entity: string;
  prompts: string[];
  platforms: ('openai' | 'perplexity' | 'gemini' | 'grok' | 'claude' | 'deepseek')[];
  competitors?: string[];
  repeats?: number;
  models?: Record<string, string>;
  idempotency_key?: string;
};

function runBody(url: string, o: { brand: string; prompt: string[]; platform: string[]; competitor?: string[]; repeats?: string; model?: string[]; idempotencyKey?: string }): RunBody {
  const body: RunBody = { url, target_entity: o.brand, prompts: o.prompt, platforms: o.platform as RunBody['platforms'] };
  if (o.competitor?.length) body.competitors = o.competitor;
  if (o.repeats !== undefined) body.repeats = Number(o.repeats);
  if (o.model?.length) body.models = Object.fromEntries(o.model.map((m) => m.split('=', 2) as [string, string]));
  if (o.idempotencyKey) body.idempotency_key = o.idempotencyKey;
  return body;
}

function runOptions(cmd: Command): Command {
  return cmd
    .argument('<url>', 'the page whose brand is measured')
    .requiredOption('--brand <name>', 'the brand (target entity) to look for')
    .requiredOption('--prompt <text>', 'a question to ask (repeat for more)', collect)
    .requiredOption('--platform <name>', 'openai, perplexity, gemini, grok, claude or deepseek (repeat for more)', collect)
    .option('--competitor <name>', 'a competitor to count (repeat for more)', collect)
    .option('--model <platform=model>', 'a model per platform, e.g. openai=gpt-5.1 (repeat for more)', collect)
    .option('--repeats <n>', 'ask each probe n times (1..10)');
}

function progressLine(run: { status: string; probe_count: number; probe_counts: Record<string, number>; billing: { settled_credits: string; reserved_credits: string } }): string {
  const c = run.probe_counts;
  const done = c.succeeded + c.errored + c.cancelled + c.skipped;
  const width = 20;
  const filled = run.probe_count ? Math.round((done / run.probe_count) * width) : width;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${run.probe_count} probes · ${run.status} · ${run.billing.settled_credits} of ${run.billing.reserved_credits} credits settled`;
}

/** Builds the user commands onto `program`; each action resolves to an exit code. */
export function userCommands(program: Command, io: Io, setExit: (code: number) => void, version: string) {
  const json = (cmd: Command) => cmd.addOption(new Option('--json', 'print one JSON document'));
  const act =
    <A extends unknown[]>(fn: (client: SightlineClient, ...args: A) => Promise<{ doc: unknown; human: string }>) =>
    async (...args: A) => {
      const cmd = args[args.length - 1] as Command;
      const asJson = !!cmd.opts().json;
      try {
        const { doc, human } = await fn(clientFrom(io.env), ...args);
        io.out(asJson ? JSON.stringify(doc) : human);
        setExit(EXIT.ok);
      } catch (err) {
        if (!(err instanceof CallFailed)) throw err;
        if (asJson) io.out(JSON.stringify(err.body));
        io.err(`sightline: ${err.message}${err.body.hint ? ` (${err.body.hint})` : ''}`);
        setExit(err.exit);
      }
    };

  const vis = program.command('visibility').description('AI Visibility runs on a sightline server (SIGHTLINE_API_URL, SIGHTLINE_API_KEY)');

  json(vis.command('models').description('selectable models per platform and their price per probe')).action(
    act(async (c) => {
      const d = await answer(c.GET('/v1/visibility/models'));
      const lines = Object.entries(d.platforms).flatMap(([p, models]) =>
        models.map((m) => `${p.padEnd(11)} ${m.id.padEnd(28)} ${m.credits_per_probe.padStart(6)} credits${m.default ? '  (default)' : ''}${m.available ? '' : '  unavailable'}`),
      );
      return { doc: d, human: lines.join('\n') };
    }),
  );

  json(runOptions(vis.command('estimate').description('what a run would cost and reserve now (free)'))).action(
    act(async (c, url: string, o: Parameters<typeof runBody>[1]) => {
      const d = await answer(c.POST('/v1/visibility/runs/estimate', { body: runBody(url, o) }));
      return {
        doc: d,
        human: `${d.probe_count} probes, ${d.estimated_credits} credits; available ${d.available_credits}; a run now would queue ${d.fundable_probe_count} (${d.would_be_status}) and reserve ${d.would_reserve_credits}`,
      };
    }),
  );

  json(
    runOptions(vis.command('run').description('queue a run (reserves credits); --watch follows it to the end'))
      .option('--idempotency-key <key>', 'retry-safe key: the same key returns the same run, charged once')
      .option('--watch', 'follow the run until it ends, with progress on stderr'),
  ).action(
    act(async (c, url: string, o: Parameters<typeof runBody>[1] & { watch?: boolean }) => {
      const created = await answer(c.POST('/v1/visibility/runs', { body: runBody(url, o) }));
      if (!o.watch) return { doc: created, human: `run ${created.run_id} ${created.status}: ${created.queued_probe_count}/${created.probe_count} probes, ${created.reserved_credits} credits reserved` };
      const tty = io.isTTY && !io.env.NO_COLOR;
      for (;;) {
        const run = await answer(c.GET('/v1/visibility/runs/{run_id}', { params: { path: { run_id: created.run_id } } }));
        const line = progressLine(run as never);
        io.err(tty ? `\r${line}` : line);
        if (TERMINAL.has(run.status)) {
          if (tty) io.err('\n');
          return { doc: run, human: `run ${run.run_id} ${run.status}: mention rate ${run.summary.mention_rate ?? '—'} (${run.visibility_band ?? 'no answers'})` };
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    }),
  );

  json(vis.command('status').description('one run: status, counts, billing, summary').argument('<run_id>', 'vis_… id')).action(
    act(async (c, runId: string) => {
      const run = await answer(c.GET('/v1/visibility/runs/{run_id}', { params: { path: { run_id: runId } } }));
      return { doc: run, human: `${progressLine(run as never)}\nmention rate ${run.summary.mention_rate ?? '—'} (${run.visibility_band ?? 'no answers'})` };
    }),
  );

  json(vis.command('list').description('runs, newest first').option('--limit <n>', 'at most n runs (1..100)', '20')).action(
    act(async (c, o: { limit: string }) => {
      const d = await answer(c.GET('/v1/visibility/runs', { params: { query: { limit: Number(o.limit) } } }));
      return { doc: d, human: d.runs.map((r) => `${r.run_id}  ${r.status.padEnd(19)} ${r.target_entity}  ${r.url}`).join('\n') || 'no runs' };
    }),
  );

  json(vis.command('cancel').description('cancel the queued probes of a run (credits released)').argument('<run_id>', 'vis_… id')).action(
    act(async (c, runId: string) => {
      const run = await answer(c.POST('/v1/visibility/runs/{run_id}/cancel', { params: { path: { run_id: runId } } }));
      return { doc: run, human: `run ${run.run_id} ${run.status}; released ${run.billing.released_credits} credits` };
    }),
  );

  const tests = program.command('tests').description('saved and tracked tests');
  json(tests.command('list').description('saved tests, most recently run first').option('--limit <n>', 'at most n tests (1..50)', '50')).action(
    act(async (c, o: { limit: string }) => {
      const d = await answer(c.GET('/v1/tests', { params: { query: { limit: Number(o.limit) } } }));
      return { doc: d, human: d.tests.map((t) => `${t.id}  ${t.test_type.padEnd(20)} ${t.paused ? 'paused ' : ''}${t.name}`).join('\n') || 'no tests' };
    }),
  );
  json(tests.command('show').description('one test with its runs').argument('<test_id>', 'test_… id')).action(
    act(async (c, testId: string) => {
      const t = await answer(c.GET('/v1/tests/{test_id}', { params: { path: { test_id: testId } } }));
      const runs = t.runs.map((r) => `  ${r.run_id}  ${r.status.padEnd(19)} score ${r.overall_score ?? '—'} ${r.visibility_band ?? r.overall_band ?? ''}`);
      return { doc: t, human: [`${t.id} ${t.name} (${t.test_type}) ${t.url}`, ...runs].join('\n') };
    }),
  );
  json(
    tests
      .command('history')
      .description('a test over time: rates with 95% intervals per run or window')
      .argument('<test_id>', 'test_… id')
      .option('--window <w>', 'run, 7d or 30d', 'run')
      .option('--days <n>', 'how far back (1..730)', '90'),
  ).action(
    act(async (c, testId: string, o: { window: string; days: string }) => {
      const d = await answer(c.GET('/v1/tests/{test_id}/history', { params: { path: { test_id: testId }, query: { window: o.window, days: Number(o.days) } } }));
      const points = (d.points as Record<string, unknown>[]).map((p) => `  ${String(p.start)}  ${pointLine(p)}`);
      return { doc: d, human: [`${d.test_id} (${d.window})`, ...points].join('\n') };
    }),
  );
  for (const [name, paused] of [['pause', true], ['resume', false]] as const) {
    json(tests.command(name).description(`${name} a tracked test's schedule`).argument('<test_id>', 'test_… id')).action(
      act(async (c, testId: string) => {
        const t = await answer(c.PATCH('/v1/tests/{test_id}', { params: { path: { test_id: testId } }, body: { paused } }));
        return { doc: t, human: `${t.id} ${t.paused ? 'paused' : 'active'}` };
      }),
    );
  }
  json(tests.command('run').description("run a tracked test's definition now (costs what the definition costs)").argument('<test_id>', 'test_… id')).action(
    act(async (c, testId: string) => {
      const r = await answer(c.POST('/v1/tests/{test_id}/runs', { params: { path: { test_id: testId } }, body: {} }));
      return { doc: r, human: `run ${r.run_id} ${r.status} for ${r.test_id}` };
    }),
  );

  json(program.command('doctor').description('check the server URL, readiness, the API key, the clock and the server version')).action(async (opts: { json?: boolean }) => {
    const asJson = !!opts.json;
    const baseUrl = io.env.SIGHTLINE_API_URL?.trim() || 'http://localhost:8080';
    const checks: { check: string; ok: boolean; detail: string }[] = [];
    let worst: number = EXIT.ok;
    const fail = (check: string, detail: string, exit: number) => {
      checks.push({ check, ok: false, detail });
      if (worst === EXIT.ok) worst = exit;
    };
    try {
      const health = await fetch(new URL('/healthz', baseUrl));
      checks.push({ check: 'url', ok: health.ok, detail: `${baseUrl} answers ${health.status}` });
      const serverDate = Date.parse(health.headers.get('date') ?? '');
      const skew = Number.isNaN(serverDate) ? null : Math.round((Date.now() - serverDate) / 1000);
      if (skew === null || Math.abs(skew) <= 60) checks.push({ check: 'clock', ok: true, detail: skew === null ? 'no Date header' : `${skew} s from the server` });
      else fail('clock', `${skew} s from the server: fix this machine's clock`, EXIT.refused);
      const ready = await fetch(new URL('/readyz', baseUrl));
      if (ready.ok) checks.push({ check: 'database', ok: true, detail: `ready (${((await ready.json()) as { database: string }).database})` });
      else fail('database', `readyz answers ${ready.status}`, EXIT.server);
      const doc = (await (await fetch(new URL('/openapi.json', baseUrl))).json()) as { info?: { version?: string } };
      checks.push({ check: 'server_version', ok: true, detail: `API ${doc.info?.version ?? 'unknown'}; this CLI ${version}` });
    } catch (err) {
      fail('url', `cannot reach ${baseUrl}: ${(err as Error).message} (check SIGHTLINE_API_URL)`, EXIT.server);
    }
    if (worst !== EXIT.server) {
      try {
        const usage = await answer(clientFrom(io.env).GET('/v1/usage'));
        checks.push({ check: 'api_key', ok: true, detail: `accepted; ${usage.credits.available_credit_units} credits available` });
      } catch (err) {
        if (!(err instanceof CallFailed)) throw err;
        fail('api_key', `${err.message}${err.body.hint ? ` (${err.body.hint})` : ''}`, err.exit);
      }
    }
    io.out(asJson ? JSON.stringify({ ok: worst === EXIT.ok, checks }) : checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.check.padEnd(15)} ${c.detail}`).join('\n'));
    setExit(worst);
  });

  json(program.command('usage').description('credit balance and recent credit movements')).action(
    act(async (c) => {
      const d = await answer(c.GET('/v1/usage'));
      return { doc: d, human: `available ${d.credits.available_credit_units}, reserved ${d.credits.reserved_credit_units}, used ${d.credits.used_credit_units}` };
    }),
  );
}

/** Runs a user command line (argv without node and the script); resolves to the exit code. */
export async function runUserCli(argv: string[], io: Io, version: string): Promise<number> {
  let exit: number = EXIT.ok;
  const program = new Command('sightline')
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });
  userCommands(program, io, (code) => (exit = code), version);
  for (const cmd of program.commands.flatMap((c) => [c, ...c.commands])) cmd.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    throw err;
  }
  return exit;
}

export const USER_COMMANDS = new Set(['visibility', 'tests', 'usage', 'doctor']);

/** One history point for people: a visibility rate with its 95% interval and probe count, or a content score. */
function pointLine(p: Record<string, unknown>): string {
  if (p.overall_score !== undefined) return `score ${String(p.overall_score ?? '—')} (${String(p.overall_band ?? 'no result')})`;
  const ci = p.mention_rate_ci as { low: number; high: number } | null;
  const interval = ci ? ` [95% ${ci.low}–${ci.high}]` : '';
  return `mention rate ${String(p.mention_rate ?? '—')}${interval} over ${String(p.succeeded ?? 0)} answers`;
}
