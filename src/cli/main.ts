// The `sightline` bin (API-NOTES operating contract): serve, worker, migrate and the admin
// commands. With --json, stdout holds exactly one JSON document; everything else goes to stderr.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createAccount, createKey, revokeKey, setAccountStatus } from '../core/accounts/accounts.ts';
import { grantCredits, reconcileBalances } from '../core/billing/ledger.ts';
import { AppError } from '../core/errors.ts';
import { formatCredits, parseCredits } from '../core/money.ts';
import { openRuntime } from './runtime.ts';
import { runServe, runWorker } from './serve.ts';

const USAGE = `sightline — AI Visibility and Content Intelligence service

Usage:
  sightline serve [--port N] [--no-worker]     API server (+ embedded worker)
  sightline worker                             a worker process only
  sightline migrate                            apply database migrations
  sightline accounts create --email EMAIL [--credits N] [--json]
  sightline accounts suspend --account ID
  sightline accounts unsuspend --account ID
  sightline keys create --account ID [--name NAME] [--read-only] [--scopes a,b] [--mcp] [--json]
  sightline keys revoke --key ID
  sightline credits grant --account ID --credits N [--top-up] [--json]
                                               (--top-up: bought credits, at least 250)
  sightline credits reconcile [--json]         recompute balances from the ledger (processes stopped)

Environment: DATABASE_URL (sqlite:./data/sightline.db), PORT (8080), HOST, SIGHTLINE_* (see README).`;

const OPTIONS = {
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
  help: { type: 'boolean', short: 'h' },
} as const;

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

class UsageError extends Error {}

function print(json: boolean | undefined, doc: Record<string, unknown>, human: string) {
  if (json) process.stdout.write(JSON.stringify(doc) + '\n');
  else process.stdout.write(human + '\n');
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, sub] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE + '\n');
    return command ? 0 : 1;
  }
  const config = loadConfig({ ...process.env, ...(values.port ? { PORT: values.port } : {}) });

  if (command === 'serve') return runServe(config, { worker: !values['no-worker'] });
  if (command === 'worker') return runWorker(config);

  const runtime = await openRuntime(config);
  const { db } = runtime.core.store;
  try {
    const key = `${command} ${sub ?? ''}`.trim();
    switch (key) {
      case 'migrate':
        process.stderr.write('migrations applied\n');
        return 0;
      case 'accounts create': {
        const credits = values.credits ? parseCredits(values.credits) : 0;
        const account = await createAccount(db, required(values.email, 'email'));
        const k = await createKey(db, account.id, { name: 'Default key' });
        let available = 0;
        if (credits > 0) available = (await grantCredits(runtime.core.store, account.id, credits, { source: 'cli' })).balance.available;
        print(
          values.json,
          { account_id: account.id, email: account.email, api_key: k.api_key, key_id: k.key_id, available_credits: formatCredits(available) },
          `account ${account.id} (${account.email})\napi key (shown once): ${k.api_key}\navailable credits: ${formatCredits(available)}`,
        );
        return 0;
      }
      case 'accounts suspend':
      case 'accounts unsuspend': {
        const id = required(values.account, 'account');
        const status = sub === 'suspend' ? 'suspended' : 'active';
        await setAccountStatus(db, id, status);
        print(values.json, { account_id: id, status }, `account ${id} is ${status}`);
        return 0;
      }
      case 'keys create': {
        const k = await createKey(db, required(values.account, 'account'), {
          name: values.name,
          readOnly: values['read-only'],
          scopes: values.scopes ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
          kind: values.mcp ? 'mcp' : 'api',
        });
        print(values.json, { key_id: k.key_id, api_key: k.api_key, scopes: k.scopes }, `key ${k.key_id} (shown once): ${k.api_key}\nscopes: ${k.scopes.join(' ')}`);
        return 0;
      }
      case 'keys revoke': {
        const id = required(values.key, 'key');
        await revokeKey(db, id);
        print(values.json, { key_id: id, revoked: true }, `key ${id} revoked`);
        return 0;
      }
      case 'credits grant': {
        const id = required(values.account, 'account');
        const amount = parseCredits(required(values.credits, 'credits'));
        const topUp = values['top-up'] === true;
        const { entryId, balance } = await grantCredits(runtime.core.store, id, amount, { source: 'cli', topUp });
        print(
          values.json,
          { account_id: id, granted_credits: formatCredits(amount), available_credits: formatCredits(balance.available), ledger_entry_id: entryId, top_up: topUp },
          `${topUp ? 'topped up' : 'granted'} ${formatCredits(amount)} credits to ${id}; available ${formatCredits(balance.available)}`,
        );
        return 0;
      }
      case 'credits reconcile': {
        const { accounts, corrected } = await reconcileBalances(runtime.core.store);
        const rows = corrected.map((c) => ({
          account_id: c.accountId,
          available_before: formatCredits(c.before.available),
          available_after: formatCredits(c.after.available),
        }));
        print(values.json, { accounts_checked: accounts, corrected: rows }, `checked ${accounts} accounts; corrected ${corrected.length}${rows.map((r) => `\n  ${r.account_id}: available ${r.available_before} -> ${r.available_after}`).join('')}`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${key}`);
    }
  } finally {
    await runtime.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined && code !== -1) process.exitCode = code;
  },
  (err) => {
    if (err instanceof UsageError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`sightline: ${(err as Error).message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (err instanceof AppError) {
      process.stderr.write(`sightline: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`sightline: ${(err as Error)?.stack ?? String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
