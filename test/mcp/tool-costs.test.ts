// The MCP server instructions promise that every tool that can change anything states its cost
// in its description ("Free." or the credits it spends) and that readOnlyHint tools never spend
// credits. Checked over the whole catalog so a new tool without a cost fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MCP_TOOLS } from '../../src/mcp/tools.ts';

/** The wordings the catalog uses for a cost: "Free.", "1 credit", "3 credits", "costs what ...". */
const STATES_COST = /\bfree\b|\b\d+ credits?\b|\bcosts?\b/i;

test('every tool that is not readOnlyHint states its cost in its description', () => {
  const missing = MCP_TOOLS.filter((t) => !t.annotations.readOnlyHint && !STATES_COST.test(t.description)).map((t) => t.name);
  assert.deepEqual(missing, []);
});

test('the server instructions make the same promise', async () => {
  const { readFileSync } = await import('node:fs');
  const server = readFileSync(new URL('../../src/mcp/server.ts', import.meta.url), 'utf8');
  assert.match(server, /not readOnlyHint states its cost/);
});
