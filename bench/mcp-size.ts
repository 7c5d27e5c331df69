// How many bytes an agent's context takes for MCP tools/list: the real server on 127.0.0.1 with a
// fresh SQLite database, one MCP token per scope set (every scope, read-only, each scope alone),
// and the JSON-RPC answer's size split into input schemas, output schemas, descriptions and the
// rest (names, titles, annotations, JSON punctuation). `--tools` adds one line per tool for the
// full scope. Bytes are of the JSON-RPC answer as the server sends it; the parts are each
// schema's or description's JSON. Exits non-zero when the full scope's list is over the budget.
//
//   npm run bench:mcp-size [-- --tools] [-- --budget KB]   (budget default 150)
import { SCOPES } from '../src/core/accounts/scopes.ts';
import { startTestServer } from '../test/helpers/harness.ts';

const args = process.argv.slice(2);
const perTool = args.includes('--tools');
const budgetAt = args.indexOf('--budget');
const budgetKb = budgetAt >= 0 ? Number(args[budgetAt + 1]) : 150;

const s = await startTestServer({}, { worker: false });
const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const kb = (n: number) => (n / 1024).toFixed(1).padStart(6);

type Tool = { name: string; description?: string; inputSchema: unknown; outputSchema?: unknown };
async function toolsList(token: string): Promise<{ total: number; tools: Tool[] }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`tools/list answered ${res.status}: ${body}`);
  return { total: Buffer.byteLength(body), tools: (JSON.parse(body) as { result: { tools: Tool[] } }).result.tools };
}

try {
  const { accountId } = await s.account();
  const sets: [string, Record<string, unknown>][] = [
    ['every scope', {}],
    ['read-only', { readOnly: true }],
    ...SCOPES.map((scope): [string, Record<string, unknown>] => [scope, { scopes: [scope] }]),
  ];
  console.log(`${'token scopes'.padEnd(38)} tools  total KB  inputs  outputs  descr.  rest`);
  let full = 0;
  let fullTools: Tool[] = [];
  for (const [label, opts] of sets) {
    const { total, tools } = await toolsList(await s.key(accountId, { kind: 'mcp', ...opts }));
    const input = tools.reduce((n, t) => n + bytes(t.inputSchema), 0);
    const output = tools.reduce((n, t) => n + (t.outputSchema ? bytes(t.outputSchema) : 0), 0);
    const descr = tools.reduce((n, t) => n + bytes(t.description ?? ''), 0);
    console.log(`${label.padEnd(38)} ${String(tools.length).padStart(5)} ${kb(total)}   ${kb(input)} ${kb(output)} ${kb(descr)} ${kb(total - input - output - descr)}`);
    if (label === 'every scope') [full, fullTools] = [total, tools];
  }
  if (perTool) {
    console.log(`\n${'tool (every scope)'.padEnd(38)} input B  output B  descr. B`);
    for (const t of [...fullTools].sort((a, b) => bytes(b.outputSchema ?? {}) - bytes(a.outputSchema ?? {}))) {
      console.log(`${t.name.padEnd(38)} ${String(bytes(t.inputSchema)).padStart(7)} ${String(bytes(t.outputSchema ?? {})).padStart(9)} ${String(bytes(t.description ?? '')).padStart(9)}`);
    }
  }
  const pass = full <= budgetKb * 1024;
  console.log(`${pass ? 'PASS' : 'FAIL'}: tools/list for every scope is ${(full / 1024).toFixed(1)} KB (budget ${budgetKb} KB)`);
  if (!pass) process.exitCode = 1;
} finally {
  await s.close();
}
