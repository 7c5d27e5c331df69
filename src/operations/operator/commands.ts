// The operator commands of the `sightline` bin, each once: its words, the flags it takes and its
// lines of the usage text. The CLI (src/cli/admin.ts) parses and documents them from here, and
// shell completion lists them without loading the engine, so this file imports nothing.

export const OPERATOR_OPTIONS = {
  port: { type: 'string' },
  'no-worker': { type: 'boolean' },
  email: { type: 'string' },
  credits: { type: 'string' },
  json: { type: 'boolean' },
  account: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  'read-only': { type: 'boolean' },
  scopes: { type: 'string' },
  mcp: { type: 'boolean' },
  'top-up': { type: 'boolean' },
  key: { type: 'string' },
  output: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  verbose: { type: 'boolean', short: 'v' },
} as const;
export type OperatorFlag = keyof typeof OPERATOR_OPTIONS;

export interface OperatorCommand {
  /** The words after `sightline`. */
  command: string;
  /** The flags it takes (besides --help and --verbose); any other is a usage error, never ignored. */
  flags: readonly OperatorFlag[];
  /** Its synopsis after the command words, as the usage shows it. */
  synopsis: string;
  /** A short description beside the synopsis. */
  summary?: string;
  /** Lines under the synopsis (longer explanations). */
  notes?: string[];
}

export const OPERATOR_COMMANDS: readonly OperatorCommand[] = [
  { command: 'serve', flags: ['port', 'no-worker'], synopsis: '[--port N] [--no-worker]', summary: 'API server (+ embedded worker)' },
  { command: 'worker', flags: [], synopsis: '', summary: 'a worker process only' },
  { command: 'migrate', flags: ['json'], synopsis: '[--json]', summary: 'apply database migrations' },
  { command: 'accounts create', flags: ['email', 'credits', 'json'], synopsis: '--email EMAIL [--credits N] [--json]' },
  { command: 'accounts suspend', flags: ['account', 'email', 'json'], synopsis: '--account ID|--email ADDRESS [--json]' },
  { command: 'accounts unsuspend', flags: ['account', 'email', 'json'], synopsis: '--account ID|--email ADDRESS [--json]' },
  {
    command: 'keys create',
    flags: ['account', 'email', 'name', 'read-only', 'scopes', 'mcp', 'json'],
    synopsis: '--account ID|--email ADDRESS [--name NAME] [--read-only | --scopes a,b] [--mcp] [--json]',
  },
  { command: 'keys revoke', flags: ['key', 'json'], synopsis: '--key ID [--json]' },
  {
    command: 'credits grant',
    flags: ['account', 'email', 'credits', 'top-up', 'json'],
    synopsis: '--account ID|--email ADDRESS --credits N [--top-up] [--json]',
    notes: ['(--top-up: bought credits, at least 250)'],
  },
  { command: 'credits reconcile', flags: ['json'], synopsis: '[--json]', summary: 'recompute balances from the ledger (processes stopped)' },
  {
    command: 'users reset-link',
    flags: ['email', 'json'],
    synopsis: '--email EMAIL [--json]',
    notes: ['a one-time console password link (also the first', 'password of an account made with accounts create)'],
  },
  {
    command: 'users invite',
    flags: ['email', 'credits', 'account', 'role', 'json'],
    synopsis: '--email EMAIL [--credits N | --account ID [--role admin|member]] [--json]',
    notes: ['a console invitation link: a new account (SIGHTLINE_SIGNUP', 'invite|open), or with --account into that account', '(any SIGHTLINE_SIGNUP; --role default member)'],
  },
  {
    command: 'platforms check',
    flags: ['json'],
    synopsis: '[--json]',
    summary: 'try each configured provider key',
    notes: ['with a free call (a model or account listing);', 'exit 1 when a configured key or base URL fails'],
  },
  {
    command: 'crawlers refresh',
    flags: ['output', 'json'],
    synopsis: '[--output FILE] [--json]',
    notes: ["download the AI crawlers' published IP ranges into", 'FILE (default SIGHTLINE_CRAWLER_RANGES_PATH)'],
  },
];

/** The column where a command's summary and notes start in the usage. */
const USAGE_COLUMN = 47;

/** A command's lines of the usage text: its synopsis (with its summary beside it) and its notes. */
export function operatorUsageLines(c: OperatorCommand): string[] {
  const synopsis = `  sightline ${c.command}${c.synopsis ? ` ${c.synopsis}` : ''}`;
  const first = c.summary ? `${synopsis.padEnd(USAGE_COLUMN - 1)} ${c.summary}` : synopsis;
  return [first, ...(c.notes ?? []).map((n) => `${' '.repeat(USAGE_COLUMN)}${n}`)];
}
