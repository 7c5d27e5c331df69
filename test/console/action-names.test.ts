// The activity log's "Action" column names every action the server records in words: the
// catalog's operations and the console's own routes (sign-in, keys, team, operator). A walk with a
// team found "Projects shares create" and "Console keys create" there: the words the console
// makes up from an id it has no name for.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { OPERATIONS } from '../../src/operations/index.ts';

const source = (path: string) => readFileSync(new URL(`../../src/${path}`, import.meta.url), 'utf8');
// ui.js runs in the browser only (it touches document when loaded): its table is read as text.
const named = new Set([...source('console/public/js/ui.js').matchAll(/^\s*'([a-z_.]+)': '/gm)].map((m) => m[1]));

test('every operation of the catalog has a name in the activity log', () => {
  const missing = OPERATIONS.map((op) => op.action).filter((a) => !named.has(a));
  assert.deepEqual(missing, []);
});

test("every console route's action has a name (console.<action>, the operator's without operator.)", () => {
  const files = ['console/routes.ts', ...readdirSync(new URL('../../src/console/api/', import.meta.url)).map((f) => `console/api/${f}`)];
  const actions = files.flatMap((f) => [...source(f).matchAll(/(?:\b(?:pub|user|op)\(|action: )'([a-z_.]+)'/g)].map((m) => m[1]));
  assert.ok(actions.includes('keys.create') && actions.includes('operator.accounts.suspend'), actions.join(', '));
  const missing = actions.map((a) => a.replace(/^operator\./, '')).filter((a) => !named.has(a));
  assert.deepEqual(missing, []);
});
