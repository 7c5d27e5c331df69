// GET /v1/visibility/runs/{run_id}/export?format=csv|jsonl: one row per probe, streamed a page of
// probes at a time (core/visibility/export.ts), so a large run never sits in memory whole.
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import { csvOptions } from '../../core/csv.ts';
import { assertRunVisible, csvRecord, EXPORT_COLUMNS, exportRunRows } from '../../core/visibility/export.ts';
import { BOM_PARAM, defineRoute, fileFormatParam, filterValue } from '../define.ts';

const FORMATS = ['csv', 'jsonl'] as const;

/** Rows the MCP tool answers at most: one tool result holds them all, unlike the streamed HTTP export. */
const MCP_EXPORT_ROWS = 1000;

/** The MCP tool answers its rows as JSON (the HTTP route streams CSV or JSON Lines). */
const ExportRows = z
  .object({ run_id: z.string(), rows: z.array(z.object({ probe_id: z.string() }).passthrough()), truncated: z.boolean() })
  .passthrough();

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs/:run_id/export',
  summary: 'Export a run, one row per probe (CSV per RFC 4180 with a header row, or JSON Lines)',
  tags: ['visibility'],
  action: 'visibility.runs.export',
  scope: 'runs:read',
  params: z.object({ run_id: z.string().max(64).describe('Visibility run id (vis_…)') }),
  querystring: z.object({ format: fileFormatParam(FORMATS), bom: BOM_PARAM }),
  response: z.string().describe('text/csv or application/x-ndjson, UTF-8'),
  errors: [400, 404, 422],
  run: async (a, ctx, core) => {
      await assertRunVisible(core.store, ctx.accountId, a.run_id);
      const rows = [];
      let truncated = false;
      for await (const r of exportRunRows(core.store, ctx.accountId, a.run_id)) {
        if (rows.length === MCP_EXPORT_ROWS) {
          truncated = true;
          break;
        }
        rows.push(r);
      }
      return { run_id: a.run_id, rows, truncated, export_path: `/v1/visibility/runs/${a.run_id}/export` };
    },
  cli: { command: 'visibility export', description: 'every probe of a run as CSV or JSON Lines, streamed to stdout or --output', args: ['run_id'] },
  tool: {
    name: 'export_visibility_run',
    title: 'Export a visibility run', output: ExportRows,
    description:
      `Every probe of a run as rows (prompt, platform, model, repeat, status, mentions, competitors, citations, answer, brand analysis), at most ${MCP_EXPORT_ROWS} rows (truncated: true beyond; the HTTP export streams any size as CSV or JSON Lines).`,
  },
  handler: async ({ params, query, ctx, reply }, core) => {
    const format = filterValue('format', query.format, FORMATS) ?? 'csv';
    const { accountId } = ctx;
    await assertRunVisible(core.store, accountId, params.run_id);
    const rows = exportRunRows(core.store, accountId, params.run_id);
    reply.header('content-disposition', `attachment; filename="${params.run_id}.${format}"`);
    if (format === 'jsonl') {
      reply.header('content-type', 'application/x-ndjson; charset=utf-8');
      return reply.send(Readable.from((async function* () { for await (const r of rows) yield `${JSON.stringify(r)}\n`; })()));
    }
    reply.header('content-type', 'text/csv; charset=utf-8');
    const csv = stringify({ ...csvOptions(query.bom), columns: [...EXPORT_COLUMNS] });
    // pipeline, not pipe: a failure of the rows (the database, a stored value that does not parse)
    // destroys csv with it, so the reply ends cut off and logged instead of the process dying of an
    // unhandled 'error'; a client that goes away destroys csv, and pipeline stops the rows.
    pipeline(Readable.from((async function* () { for await (const r of rows) yield csvRecord(r); })()), csv, () => {});
    return reply.send(csv);
  },
});
