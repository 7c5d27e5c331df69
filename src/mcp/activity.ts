// The activity log for the MCP endpoint: every authenticated request is recorded.
// One POST /mcp carries JSON-RPC messages; each becomes one row under the HTTP request's id:
// a tool call with its tool's action (the HTTP route's) and the status its result stands for
// (200, or the error's 4xx/5xx), recorded by the tool handler; every other message (initialize,
// notifications, tools/list, ping) as `mcp.<method>` with the HTTP status of the response,
// recorded when the response is done. A tool call that never reached its handler (refused by
// the rate limit, or by the protocol layer) is recorded then too.
import type { Principal } from '../core/accounts/accounts.ts';
import type { Core } from '../core/index.ts';
import { TOOLS_BY_NAME } from './tools.ts';

interface JsonRpcMessage {
  id?: string | number | null;
  method?: unknown;
  params?: { name?: unknown };
}

/** The JSON-RPC messages of a request body (one message or a batch); non-objects are dropped. */
export function jsonRpcMessages(body: unknown): JsonRpcMessage[] {
  const list = Array.isArray(body) ? body : [body];
  return list.filter((m): m is JsonRpcMessage => typeof m === 'object' && m !== null);
}

/**
 * `mcp.initialize`, `mcp.tools_list`, `mcp.notifications_initialized`: slashes become underscores,
 * so these never read as an API family's `….read`/`….list` (activity kind `reads`).
 */
function protocolAction(method: unknown): string {
  return typeof method === 'string' && /^[\w/.-]{1,80}$/.test(method) ? `mcp.${method.replace(/\//g, '_')}` : 'mcp.request';
}

export class McpActivity {
  /** JSON-RPC ids of the tool calls whose handler ran (and recorded them). */
  private readonly handled = new Set<string | number>();
  private done = false;

  constructor(
    private readonly core: Core,
    private readonly principal: Principal,
    private readonly requestId: string,
  ) {}

  record(action: string, httpStatus: number, credits = 0) {
    this.core.activity.recordRequest({
      principal: this.principal,
      source: 'mcp',
      action,
      method: 'MCP',
      path: '/mcp',
      httpStatus,
      credits,
      requestId: this.requestId,
    });
  }

  /** A tool handler took this call: it records the call's own row. */
  toolCallStarted(jsonRpcId: string | number) {
    this.handled.add(jsonRpcId);
  }

  /** When the response is done: a row for every message not recorded by a tool handler. */
  requestDone(messages: JsonRpcMessage[], httpStatus: number) {
    if (this.done) return;
    this.done = true;
    if (messages.length === 0) return this.record('mcp.request', httpStatus);
    for (const m of messages) {
      if (m.method === 'tools/call') {
        if (m.id !== undefined && m.id !== null && this.handled.has(m.id)) continue;
        const name = m.params?.name;
        const tool = typeof name === 'string' ? TOOLS_BY_NAME.get(name) : undefined;
        // Refused before the tool ran: by the rate limit (429), or by the protocol layer, which
        // answers a malformed call with a JSON-RPC error inside an HTTP 200 (recorded as 400).
        this.record(tool?.action ?? 'mcp.tools_call', Math.max(httpStatus, 400));
      } else {
        this.record(protocolAction(m.method), httpStatus);
      }
    }
  }
}
