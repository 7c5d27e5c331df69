// The operator commands of the bin (src/cli/admin.ts) and the flags each takes: a table of its
// own so that shell completion (src/cli/completion.ts) lists them without loading the engine.

export const OPTIONS = {
  port: { type: 'string' },
  'no-worker': { type: 'boolean' },
  email: { type: 'string' },
  credits: { type: 'string' },
  json: { type: 'boolean' },
  account: { type: 'string' },
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
export type Flag = keyof typeof OPTIONS;

/** The flags each command takes (besides --help); any other flag is a usage error, never ignored. */
export const COMMANDS: Record<string, readonly Flag[]> = {
  serve: ['port', 'no-worker'],
  worker: [],
  migrate: ['json'],
  'accounts create': ['email', 'credits', 'json'],
  'accounts suspend': ['account', 'json'],
  'accounts unsuspend': ['account', 'json'],
  'keys create': ['account', 'name', 'read-only', 'scopes', 'mcp', 'json'],
  'keys revoke': ['key', 'json'],
  'credits grant': ['account', 'email', 'credits', 'top-up', 'json'],
  'credits reconcile': ['json'],
  'users reset-link': ['email', 'json'],
  'users invite': ['email', 'credits', 'json'],
  'crawlers refresh': ['output', 'json'],
};
export const SINGLE_WORD = new Set(['serve', 'worker', 'migrate']);
