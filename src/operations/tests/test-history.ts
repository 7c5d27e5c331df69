// GET /v1/tests/{test_id}/history: the test's series (per run or pooled 7d/30d windows), skipped
// slots and the latest change with its significance; format=csv for a spreadsheet.
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { csvOptions } from '../../core/csv.ts';
import { HISTORY_CSV_COLUMNS, HISTORY_INCLUDES, HISTORY_WINDOWS, historyCsvRows, testHistory, type HistoryOptions } from '../../core/tracking/history.ts';
import { findTest } from '../../core/tracking/tests.ts';
import { fileNameOf } from '../../lib/file-name.ts';
import { BOM_PARAM, clampedInt, defineRoute, filterParam, filterValue } from '../define.ts';

function historyOptions(q: { days: number; window?: string; include?: string }, catalog: HistoryOptions['catalog']): HistoryOptions {
  return {
    days: q.days,
    window: filterValue('window', q.window, HISTORY_WINDOWS) ?? 'run',
    include: filterValue('include', q.include, HISTORY_INCLUDES) ?? 'comparable',
    catalog,
  };
}

export default defineRoute({
  method: 'GET',
  url: '/v1/tests/:test_id/history',
  summary: 'A tracked test over time: rates with intervals, share of voice, skipped slots, significance of the latest change',
  tags: ['tests'],
  action: 'tests.history',
  scope: 'tests:read',
  params: z.object({ test_id: z.string().max(64).describe('Saved test id (test_…)') }),
  querystring: z.object({
    days: clampedInt(90, 1, 730),
    window: filterParam(HISTORY_WINDOWS),
    format: filterParam(['json', 'csv']),
    bom: BOM_PARAM,
    include: filterParam(HISTORY_INCLUDES).describe(
      'comparable (default): only runs the test started and runs with its definition; all: every run attached to the test, one-off runs included',
    ),
  }),
  response: z
    .object({
      test_id: z.string(),
      test_type: z.string(),
      window: z.string(),
      points: z.array(z.object({}).passthrough()),
      skipped: z.array(z.object({}).passthrough()),
      other_runs: z
        .array(z.object({ run_id: z.string(), created_at: z.string().nullable(), source: z.string() }).passthrough())
        .optional()
        .describe('Runs attached to the test with another definition (one-off runs): left out of points and comparison unless include=all'),
    })
    .passthrough(),
  // format=csv answers the points as CSV.
  produces: ['application/json', 'text/csv'],
  errors: [400, 404, 422],
  run: (a, ctx, core) => testHistory(core.store, ctx.accountId, a.test_id, historyOptions(a, core.catalog)),
  cli: { command: 'tests history', description: 'a test over time: rates with 95% intervals per run or window (--format csv to a file with --output)', args: ['test_id'] },
  tool: {
    name: 'get_test_history',
    title: 'Tracked test history',
    // The tool answers JSON; the CSV is the HTTP route's (?format=csv).
    omitInput: ['format', 'bom'],
    description:
      'A tracked test over time: per run or pooled (window 7d/30d) mention rate with its 95% Wilson interval, citation rate, share of voice, per platform, per prompt and per competitor, skipped slots, and whether the latest change is significant (days 1..730, default 90). Only comparable runs are pooled (those the test started and those with its definition); other attached runs are listed in other_runs unless include=all.',
  },
  handler: async ({ params, query, ctx, reply }, core) => {
    const format = filterValue('format', query.format, ['json', 'csv'] as const) ?? 'json';
    const history = await testHistory(core.store, ctx.accountId, params.test_id, historyOptions(query, core.catalog));
    if (format === 'json') return history;
    const columns = [...HISTORY_CSV_COLUMNS[history.test_type === 'ai_citations' ? 'ai_citations' : 'content_intelligence']];
    reply.header('content-type', 'text/csv; charset=utf-8');
    // Named by the test (a project's: "<project> (<market>)") and the window, as the share PDF is
    // by its project: an agency downloading each client's markets tells the files apart.
    const name = (await findTest(core.store.db, ctx.accountId, params.test_id)).name;
    reply.header('content-disposition', `attachment; filename="${fileNameOf(name, params.test_id)}-history-${history.window}.csv"`);
    return reply.send(stringify(historyCsvRows(history), { ...csvOptions(query.bom), columns }));
  },
});
