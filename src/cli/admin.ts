// The operator commands of the `sightline` bin: serve, worker, migrate and the admin commands,
// which open the database themselves. Their words, flags and usage lines are defined once in
// src/operations/operator/commands.ts; the actions the console shares in ./actions.ts there. With --json, stdout holds exactly one JSON document (the result, or on failure
// {"error": code, "message"}); everything else goes to stderr. Exit codes: 0 success, 1 the
// command failed, 2 usage error (bad command, flag or flag value: nothing was done).
// Every flag is checked before the database is opened, so a usage error never writes anything.
import type { accountIdByEmail } from '../core/accounts/accounts.ts';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
// The engine (configuration, database, accounts, billing) is imported only once a command line has
// passed its checks, so --help and usage errors load none of it and answer at once.
import type { Config } from '../config.ts';
import { isScope, SCOPES } from '../core/accounts/scopes.ts';
import { AppError } from '../core/errors.ts';
import { formatCredits, parseCredits } from '../core/money.ts';
import type { OpenedDatabase } from '../server/database.ts';
import { COMMANDS, OPTIONS, SINGLE_WORD, type Flag } from './operator-commands.ts';
import { OPERATOR_COMMANDS, operatorUsageLines } from '../operations/operator/commands.ts';
import { CLI_COMMANDS } from './commands.gen.ts';

const USAGE = `sightline — AI Visibility and Content Intelligence service

Usage:
${OPERATOR_COMMANDS.flatMap(operatorUsageLines).join('\n')}

User commands (a client of a running server: \`sightline login\`, or SIGHTLINE_API_URL and
SIGHTLINE_API_KEY; each has --help and --json):
${userCommandList()}
  sightline login|logout [--profile NAME]      save or forget a server URL and API key
  sightline doctor                             checks URL, clock, database, version, key
  sightline completion bash|zsh|fish           a shell completion script
  sightline --version

Exit codes: 0 done, 1 the command failed, 2 usage error (nothing was done); user commands:
3 auth or scope, 4 credits, 5 not found, 6 rate limited, 7 server unreachable or failing.
With --json, stdout holds one JSON document: the result, or {"error", "message"} on failure.
Every command takes --verbose: it prints the database it uses to stderr (a user command: the
server, profile and key source it uses).
Environment: DATABASE_URL (default sqlite:<SIGHTLINE_DATA_DIR or the package's data/>/sightline.db,
the same file from any working directory), PORT (8080), HOST, SIGHTLINE_* (see README).`;

/**
 * `sightline accounts create --help`: the command's own lines of the usage (its synopsis and the
 * notes under it) and the exit codes; undefined for anything that is not an operator command.
 */
function commandUsage(positionals: string[]): string | undefined {
  const words = SINGLE_WORD.has(positionals[0] ?? '') ? 1 : 2;
  const command = positionals.slice(0, words).join(' ');
  const def = OPERATOR_COMMANDS.find((c) => c.command === command);
  if (!def) return undefined;
  return [
    'Usage:',
    ...operatorUsageLines(def),
    '',
    'Exit codes: 0 done, 1 the command failed, 2 usage error (nothing was done).',
    '--verbose prints the database it uses to stderr.',
  ].join('\n');
}

/** The user commands of the catalog (src/cli/commands.gen.ts), a line per group: `sightline tests list|show|…`. */
function userCommandList(): string {
  const groups = new Map<string, string[]>();
  for (const { command } of CLI_COMMANDS) {
    const [group, name] = command.split(' ');
    groups.set(group, [...(groups.get(group) ?? []), ...(name ? [name] : [])]);
  }
  return [...groups].map(([group, names]) => `  sightline ${group}${names.length ? ` ${names.join('|')}` : ''}`).join('\n');
}

/** A bad command line: exit 2, nothing done. */
class UsageError extends Error {}

/** A failure that is not the core's: exit 1 with a code for the --json error document. */
class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`missing --${flag}`);
  return value.trim();
}

/** The account of `--account ID` or `--email ADDRESS` (exactly one), checked before the database opens. */
function accountFlag(values: { account?: string; email?: string }): (db: Parameters<typeof accountIdByEmail>[0]) => Promise<string> {
  if ((values.account === undefined) === (values.email === undefined))
    throw new UsageError('give the account as --account ID or --email ADDRESS (one of them)');
  if (values.account !== undefined) {
    const id = required(values.account, 'account');
    return async () => id;
  }
  const email = required(values.email, 'email');
  return async (db) => (await import('../core/accounts/accounts.ts')).accountIdByEmail(db, email);
}

function creditsFlag(value: string): number {
  try {
    return parseCredits(value);
  } catch (err) {
    throw new UsageError(`invalid --credits: ${(err as Error).message} (a number of credits with at most two decimals, e.g. 25 or 2.50)`);
  }
}

/** `--scopes a,b`: a non-empty list of known scopes; an empty list would mean every scope. */
function scopesFlag(value: string): string[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0) throw new UsageError(`--scopes needs at least one scope (one of ${SCOPES.join(', ')})`);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new UsageError(`unknown scope${unknown.length > 1 ? 's' : ''} in --scopes: ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
  return scopes;
}

/** The arguments before a `--` terminator: where flags are. */
function flagArgs(argv: string[]): string[] {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
}

/**
 * A string flag followed by nothing or by another flag is a missing value; followed by "-5" a
 * negative one. node's parseArgs says both in several lines; this says it in one.
 */
function checkFlagValues(argv: string[]): void {
  const args = flagArgs(argv);
  args.forEach((arg, i) => {
    if (!arg.startsWith('--') || arg.includes('=')) return;
    const name = arg.slice(2);
    if (!(name in OPTIONS) || OPTIONS[name as Flag].type !== 'string') return;
    const next = args[i + 1];
    if (next === undefined || (next.startsWith('-') && !/^-\d/.test(next))) throw new UsageError(`missing value for --${name}`);
    if (/^-\d/.test(next)) throw new UsageError(`invalid --${name}: ${next} (must not be negative)`);
  });
}

function parse(argv: string[]) {
  checkFlagValues(argv);
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec((err as Error).message)?.[1];
      throw new UsageError(`unknown flag ${option ?? ''}`.trim());
    }
    if (code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((err as Error).message.split('\n').join(' '));
    throw err;
  }
}

function print(json: boolean | undefined, doc: Record<string, unknown>, human: string) {
  if (json) process.stdout.write(JSON.stringify(doc) + '\n');
  else process.stdout.write(human + '\n');
}

/** Whether --json was asked for, read from the raw arguments so that it holds even when parsing fails. */
function wantsJson(argv: string[]): boolean {
  return flagArgs(argv).includes('--json');
}

async function configFrom(port: string | undefined): Promise<Config> {
  if (port !== undefined && (!/^\d+$/.test(port) || Number(port) > 65535)) throw new UsageError(`invalid --port: ${port} (an integer 0..65535)`);
  const { loadConfig } = await import('../config.ts');
  try {
    return loadConfig({ ...process.env, ...(port !== undefined ? { PORT: port } : {}) });
  } catch (err) {
    throw new CliError(
      'invalid_configuration',
      (err as Error).message
        .split('\n')
        .map((l) => l.trim())
        .join(' '),
    );
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    const usage = commandUsage(positionals) ?? USAGE;
    print(values.json, { usage }, usage);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('missing command');
  const words = SINGLE_WORD.has(positionals[0]) ? 1 : 2;
  const command = positionals.slice(0, words).join(' ');
  const allowed = COMMANDS[command];
  if (!allowed) throw new UsageError(`unknown command: ${command}`);
  if (positionals.length > words) throw new UsageError(`unexpected argument: ${positionals[words]}`);
  for (const flag of Object.keys(values) as Flag[]) {
    if (flag !== 'help' && flag !== 'verbose' && !allowed.includes(flag)) throw new UsageError(`--${flag} does not apply to ${command}`);
  }

  // Everything the command needs from its flags, checked before the database is touched.
  const config = await configFrom(values.port);
  const [
    { createKey, openAccount, revokeKey },
    { checkGrant, reconcileBalances },
    { consolePublicUrl, createResetToken, tokenLink },
    { grantCreditsOperation, inviteUserOperation, setAccountStatusOperation },
  ] = await Promise.all([
    import('../core/accounts/accounts.ts'),
    import('../core/billing/ledger.ts'),
    import('../core/accounts/users.ts'),
    import('../operations/operator/actions.ts'),
  ]);
  if (values.verbose) process.stderr.write(`sightline: database ${describeDatabase(config)}\n`);
  switch (command) {
    case 'serve':
      return databaseErrors(config, async () => (await import('../server/serve.ts')).runServe(config, { worker: !values['no-worker'] }));
    case 'worker':
      return databaseErrors(config, async () => (await import('../server/serve.ts')).runWorker(config));
    case 'migrate':
      return databaseErrors(config, () => migrate(config, values.json));
    case 'accounts create': {
      const email = required(values.email, 'email');
      const credits = values.credits === undefined ? 0 : creditsFlag(values.credits);
      if (credits > 0) checkGrant(credits);
      // The first account may come before the server ever ran: this one sets a database up.
      return withDatabase(config, async (db) => {
        const { account, key, available } = await openAccount(db.store, email, credits, { source: 'cli' });
        print(
          values.json,
          { account_id: account.id, email: account.email, api_key: key.api_key, key_id: key.key_id, available_credits: formatCredits(available) },
          `account ${account.id} (${account.email})\napi key (shown once): ${key.api_key}\navailable credits: ${formatCredits(available)}`,
        );
        return 0;
      }, { existing: false });
    }
    case 'accounts suspend':
    case 'accounts unsuspend': {
      const account = accountFlag(values);
      const status = command === 'accounts suspend' ? 'suspended' : 'active';
      return withDatabase(config, async (db) => {
        const id = await account(db.store.db);
        const answer = await setAccountStatusOperation(db, id, status);
        print(values.json, answer, `account ${id} is ${status}`);
        return 0;
      });
    }
    case 'keys create': {
      const account = accountFlag(values);
      if (values['read-only'] && values.scopes !== undefined) {
        throw new UsageError('--read-only and --scopes exclude each other (--read-only means --scopes tests:read,runs:read)');
      }
      const scopes = values.scopes === undefined ? undefined : scopesFlag(values.scopes);
      return withDatabase(config, async (db) => {
        const k = await createKey(db.store.db, await account(db.store.db), {
          name: values.name,
          readOnly: values['read-only'],
          scopes,
          kind: values.mcp ? 'mcp' : 'api',
        });
        print(
          values.json,
          { key_id: k.key_id, api_key: k.api_key, scopes: k.scopes },
          `key ${k.key_id} (shown once): ${k.api_key}\nscopes: ${k.scopes.join(' ')}`,
        );
        return 0;
      });
    }
    case 'keys revoke': {
      const id = required(values.key, 'key');
      return withDatabase(config, async (db) => {
        await revokeKey(db.store.db, id);
        print(values.json, { key_id: id, revoked: true }, `key ${id} revoked`);
        return 0;
      });
    }
    case 'credits grant': {
      const account = accountFlag(values);
      const amount = creditsFlag(required(values.credits, 'credits'));
      if (amount === 0) throw new UsageError('invalid --credits: a grant must be more than 0');
      const topUp = values['top-up'] === true;
      return withDatabase(config, async (db) => {
        const id = await account(db.store.db);
        const answer = await grantCreditsOperation(db, id, amount, { source: 'cli', topUp });
        print(
          values.json,
          { ...answer, top_up: topUp },
          `${topUp ? 'topped up' : 'granted'} ${answer.granted_credits} credits to ${id}; available ${answer.available_credits}`,
        );
        return 0;
      });
    }
    case 'credits reconcile':
      return withDatabase(config, async (db) => {
        const { accounts, corrected } = await reconcileBalances(db.store);
        const rows = corrected.map((c) => ({
          account_id: c.accountId,
          available_before: formatCredits(c.before.available),
          available_after: formatCredits(c.after.available),
        }));
        print(
          values.json,
          { accounts_checked: accounts, corrected: rows },
          `checked ${accounts} accounts; corrected ${corrected.length}${rows.map((r) => `\n  ${r.account_id}: available ${r.available_before} -> ${r.available_after}`).join('')}`,
        );
        return 0;
      });
    case 'users reset-link': {
      const email = required(values.email, 'email');
      return withDatabase(config, async (db) => {
        const issued = await createResetToken(db.store, email);
        if (!issued) throw new AppError('not_found', `no account or user has the email ${email}`);
        const origin = consolePublicUrl(db.config);
        notePublicUrl(db.config, origin);
        const link = tokenLink(origin, 'reset', issued.token);
        print(values.json, { email: issued.email, link, expires_in_minutes: 60 }, `password link for ${issued.email} (works once, for an hour):\n${link}`);
        return 0;
      });
    }
    case 'users invite': {
      const email = required(values.email, 'email');
      const credits = values.credits === undefined ? 0 : creditsFlag(values.credits);
      if (values.role !== undefined && values.account === undefined) throw new UsageError('--role needs --account (a new account\'s first user is its admin)');
      if (values.account !== undefined && values.credits !== undefined) throw new UsageError('--credits does not apply with --account: the account shares its balance (grant with `credits grant`)');
      if (values.role !== undefined && values.role !== 'admin' && values.role !== 'member') throw new UsageError(`invalid --role: ${values.role} (admin or member)`);
      const into = values.account === undefined ? undefined : { accountId: required(values.account, 'account'), accountRole: (values.role ?? 'member') as 'admin' | 'member' };
      return withDatabase(config, async (db) => {
        const origin = consolePublicUrl(db.config);
        const invite = await inviteUserOperation(db, origin, email, credits, 'cli', into);
        notePublicUrl(db.config, origin);
        const what = invite.account_id ? ` to join account ${invite.account_id} as ${invite.role}` : '';
        print(values.json, invite, `invitation for ${invite.email}${what} (works once, for seven days${invite.replaced ? '; the earlier invitation for this address no longer works' : ''}):\n${invite.link}`);
        return 0;
      });
    }
    case 'crawlers refresh':
      return refreshCrawlers(config, values.output, values.json);
    case 'platforms check':
      return checkPlatforms(config, values.json);
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

/**
 * `crawlers refresh`: the vendors' published IP range files downloaded again into the file the
 * server reads (SIGHTLINE_CRAWLER_RANGES_PATH), starting from that file or the bundled snapshot.
 * A vendor that cannot be reached keeps its previous ranges. SIGHTLINE_CRAWLER_RANGES_MIRROR
 * fetches each file's path from another base URL (a mirror inside a closed network).
 */
async function refreshCrawlers(config: Config, output: string | undefined, json: boolean | undefined): Promise<number> {
  const target = output ?? config.SIGHTLINE_CRAWLER_RANGES_PATH;
  if (!target) throw new UsageError('give --output FILE, or set SIGHTLINE_CRAWLER_RANGES_PATH (the file the server reads the ranges from)');
  const { existsSync, writeFileSync, renameSync } = await import('node:fs');
  const { readRangesFile, refreshCrawlerRanges } = await import('../core/sites/ip-ranges.ts');
  const current = readRangesFile(existsSync(target) ? target : undefined);
  const { cleanBaseURL } = await import('../platforms/live/driver.ts');
  const mirror = cleanBaseURL(config.env.SIGHTLINE_CRAWLER_RANGES_MIRROR);
  const rewrite = mirror ? (url: string) => mirror + new URL(url).pathname : undefined;
  const { file, outcomes } = await refreshCrawlerRanges(current, { rewrite });
  const tmp = `${target}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(file, null, 1) + '\n');
  renameSync(tmp, target);
  const updated = outcomes.filter((o) => o.status === 'updated').length;
  print(
    json,
    { path: resolve(target), snapshot_date: file.snapshot_date, updated, kept: outcomes.length - updated, crawlers: outcomes },
    [
      `wrote ${resolve(target)}: ${updated} of ${outcomes.length} crawlers updated`,
      ...outcomes.map((o) => `  ${o.crawler.padEnd(16)} ${o.status.padEnd(7)} ${o.prefixes} prefixes${o.error ? ` (${o.error})` : ''}`),
    ].join('\n'),
  );
  return updated > 0 ? 0 : 1;
}

/**
 * `platforms check`: each configured provider key tried with the provider's free listing call
 * (src/platforms/keycheck.ts); no database is opened. Exit 1 when a configured key is refused, its
 * endpoint unknown or the provider unreachable.
 */
async function checkPlatforms(config: Config, json: boolean | undefined): Promise<number> {
  const { checkProviderKeys, checksFailed } = await import('../platforms/keycheck.ts');
  const checks = await checkProviderKeys(config.env, { judgeModel: config.SIGHTLINE_JUDGE_MODEL });
  const failed = checksFailed(checks);
  const engine = config.SIGHTLINE_PLATFORM_ENGINE;
  const lines = checks.map((c) => {
    const what = c.status.replace(/_/g, ' ');
    const where = c.url ? ` ${c.url}` : '';
    const code = c.http_status !== undefined && c.status !== 'ok' ? ` HTTP ${c.http_status}` : '';
    const head = `  ${c.name.padEnd(11)} ${what.padEnd(16)}`;
    if (!where) return `${head} ${c.detail ?? ''}`.trimEnd();
    return `${head}${where}${code}${c.detail ? `\n  ${' '.repeat(11)} ${c.detail}` : ''}`;
  });
  const note = engine === 'live' ? '' : `\n(SIGHTLINE_PLATFORM_ENGINE is ${engine}: the keys are used once it is live)`;
  print(json, { engine, ok: !failed, checks }, `${lines.join('\n')}${note}`);
  return failed ? 1 : 0;
}

/** The database a command uses, for --verbose: the SQLite file's absolute path, or Postgres without its password. */
export function describeDatabase(config: Config): string {
  const url = config.DATABASE_URL;
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    const source = config.env.DATABASE_URL?.trim() ? 'DATABASE_URL' : config.env.SIGHTLINE_DATA_DIR?.trim() ? 'SIGHTLINE_DATA_DIR' : 'default data directory';
    return `sqlite:${path === ':memory:' ? path : resolve(path)} (${source})`;
  }
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return `${u.toString()} (DATABASE_URL)`;
  } catch {
    return 'postgres (DATABASE_URL)';
  }
}

/**
 * A printed console link without SIGHTLINE_PUBLIC_URL starts with this shell's HOST and PORT
 * (default 8080), which need not be the server's: said on stderr, the link still printed.
 */
function notePublicUrl(config: Config, origin: string) {
  if (config.SIGHTLINE_PUBLIC_URL) return;
  process.stderr.write(
    `sightline: SIGHTLINE_PUBLIC_URL is not set, so the link starts with ${origin} (HOST and PORT of this shell; PORT defaults to 8080). ` +
      "If the console is reached elsewhere, set SIGHTLINE_PUBLIC_URL to its address, as for the server, and print the link again.\n",
  );
}

/**
 * The database, migrated, for the commands on accounts, keys and credits: opened without the
 * engine (../server/database.ts), so they load and start in a fraction of the time.
 */
async function withDatabase(config: Config, fn: (db: OpenedDatabase) => Promise<number>, opts: { existing?: boolean } = { existing: true }): Promise<number> {
  const { openConfiguredDatabase, DatabaseNotSetUp } = await import('../server/database.ts');
  const db = await databaseErrors(config, () =>
    openConfiguredDatabase(config, { existing: opts.existing }).catch((err: unknown) => {
      if (!(err instanceof DatabaseNotSetUp)) throw err;
      throw new CliError(
        'database_not_set_up',
        `the database ${describeDatabase(config)} is not a sightline database: ${err.reason}. This command acts on existing accounts; ` +
          'point DATABASE_URL (or SIGHTLINE_DATA_DIR) at the database the server uses, or set one up first (sightline migrate, or sightline accounts create).',
      );
    }),
  );
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * Runs fn, turning a failure to reach or use the database (refused, unknown host, no such
 * database, credentials refused, a SQLite file that cannot be opened) into one line naming the
 * database (never its password) and what failed, instead of the driver's stack.
 */
async function databaseErrors<T>(config: Config, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if ((err as Error)?.name === 'DatabaseNewerThanCode') throw new CliError('database_too_new', `the database ${describeDatabase(config)} ${(err as Error).message}.`);
    const reason = databaseFailure(err, config);
    if (reason === undefined) throw err;
    throw new CliError(
      'database_unavailable',
      `cannot use the database ${describeDatabase(config)}: ${reason}. Check DATABASE_URL, and that the database server runs and takes connections.`,
    );
  }
}

/** What went wrong, when err is the database's (the driver's, or the server's answer); else undefined. */
function databaseFailure(err: unknown, config: Config): string | undefined {
  const e = err as { name?: string; code?: unknown; message?: string; cause?: unknown; errors?: unknown[]; port?: unknown; hostname?: unknown } | null;
  if (!e || typeof e !== 'object') return undefined;
  if (e.name === 'DatabaseUnavailableError' && e.cause) return databaseFailure(e.cause, config) ?? e.message;
  const code = typeof e.code === 'string' ? e.code : undefined;
  // node's net errors (ECONNREFUSED, ENOTFOUND, …); an AggregateError (every address of a host refused) has no message of its own.
  const message = (e.message || (e.errors?.[0] as Error | undefined)?.message || code || '').split('\n')[0]!.trim();
  const isPgServer = code !== undefined && /^[0-9A-Z]{5}$/.test(code) && 'severity' in e;
  // A socket error is the database's only when it is the Postgres server's address: not a port
  // the process could not listen on, not Redis or a metrics port (serve and worker run whole in here).
  const isSocket = code !== undefined && /^E[A-Z]+$/.test(code) && code !== 'ERR_MODULE_NOT_FOUND' && isDatabaseSocket(e, config.DATABASE_URL);
  const isSqlite = code?.startsWith('SQLITE_') || e.name === 'SqliteError';
  const isPgClient = /Connection terminated|connection timeout|pool exhausted|database unavailable/i.test(message);
  if (!isPgServer && !isSocket && !isSqlite && !isPgClient) return undefined;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** Whether a socket error (its port, or the host name a lookup failed for) is the Postgres server's of DATABASE_URL. */
function isDatabaseSocket(e: { port?: unknown; hostname?: unknown; errors?: unknown[] }, url: string | undefined): boolean {
  if (!url || !/^postgres(ql)?:/.test(url)) return false;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const first = (e.errors?.[0] ?? e) as { port?: unknown; hostname?: unknown };
  if (first.port !== undefined) return String(first.port) === (target.port || '5432');
  if (typeof first.hostname === 'string') return first.hostname === target.hostname;
  return true;
}

/** `sightline migrate`: applies what is pending and names it ({"applied": [...]}, empty when up to date). */
async function migrate(config: Config, json: boolean | undefined): Promise<number> {
  const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../db/connection.ts'), import('../db/migrations.ts')]);
  const handle = openDatabase(config.DATABASE_URL);
  try {
    const applied = await migrateToLatest(handle.db);
    print(
      json,
      { applied, database: handle.dialect },
      applied.length ? `applied ${applied.length} migration${applied.length > 1 ? 's' : ''}: ${applied.join(', ')}` : 'database is up to date',
    );
    return 0;
  } finally {
    await handle.close();
  }
}

function fail(argv: string[], err: unknown): number {
  const json = wantsJson(argv);
  let code: string;
  let message: string;
  let extra: Record<string, unknown> = {};
  let exit = 1;
  if (err instanceof UsageError) {
    code = 'usage_error';
    message = err.message;
    exit = 2;
    process.stderr.write(`sightline: ${message} (see sightline --help)\n`);
  } else if (err instanceof AppError) {
    ({ code, message, extra } = err);
    process.stderr.write(`sightline: ${message}\n`);
  } else if (err instanceof CliError) {
    ({ code, message } = err);
    process.stderr.write(`sightline: ${message}\n`);
  } else if ((err as Error)?.message?.startsWith('Invalid configuration:')) {
    // A setting found wrong while the process was being assembled (a file a variable names, a
    // platform setting): one line naming it, like a variable that does not parse.
    code = 'invalid_configuration';
    message = (err as Error).message
      .split('\n')
      .map((l) => l.trim())
      .join(' ');
    process.stderr.write(`sightline: ${message}\n`);
  } else {
    // Unexpected (the database unreachable, a bug): the stack goes to stderr for the operator.
    code = 'internal_error';
    message = (err as Error)?.message ?? String(err);
    process.stderr.write(`sightline: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  if (json) process.stdout.write(JSON.stringify({ error: code, message, ...extra }) + '\n');
  return exit;
}

/** Runs an operator command line; resolves to the exit code (undefined or -1: a server that keeps running sets its own). */
export function runAdmin(argv: string[]): Promise<number | undefined> {
  return main(argv).catch((err) => fail(argv, err));
}
