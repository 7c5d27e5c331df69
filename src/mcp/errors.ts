// How a failed tool call is answered: the same information as the HTTP API's error bodies, as
// the JSON text of an MCP tool error result, with the HTTP status it stands for (recorded in the
// activity log). AppErrors give {"error", "message", …extra} (the HTTP `detail` object), plus
// `request_id` for a status ≥ 500 as HTTP 500s carry it. Argument problems (the tool's schema,
// or a bound the core checks: FieldError) give 422-like
// {"error": "validation_error", "message", "detail": [{"loc", "msg", "type"}]}, the HTTP 422
// detail list with "arguments" in place of "body"/"query"/"path" (a tool has one argument object).
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { AppError, ERROR_CODES, FieldError, ValidationFailed } from '../core/errors.ts';
import { isDatabaseUnavailable, unavailableLogLine } from '../db/resilience.ts';
import { NUL_BYTE_MESSAGE } from '../text/nul-bytes.ts';
import { type ExtraField, suggestedKeys } from '../web/unknown-fields.ts';

export interface ToolFailure {
  status: number;
  body: Record<string, unknown>;
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

const PARTS = new Set(['body', 'query', 'path', 'arguments']);

function validation(detail: ValidationIssue[]): ToolFailure {
  const message = 'Invalid arguments: ' + detail.map((d) => `${d.loc.slice(1).join('.') || 'arguments'}: ${d.msg}`).join('; ');
  return { status: 422, body: { error: 'validation_error', message, detail } };
}

/** The schema issues of a tool's arguments, located as the HTTP API locates them. */
export function argumentsInvalid(error: z.ZodError): ToolFailure {
  return validation(
    error.issues.map((issue) => ({ loc: ['arguments', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], msg: issue.message, type: issue.code })),
  );
}

/**
 * Argument keys the tool does not declare (extra_forbidden). The message names the argument each
 * was probably meant as (`id` → `project_id`), so an agent fixes the call in one step.
 */
export function argumentsUnknown(extra: ExtraField[]): ToolFailure {
  const failure = validation(extra);
  const hints = extra.flatMap((e) => {
    const meant = suggestedKeys(e);
    return meant.length ? [`${e.loc.slice(1).join('.')}: did you mean ${meant.join(' or ')}?`] : [];
  });
  if (hints.length) failure.body.message = `${failure.body.message as string} (${hints.join('; ')})`;
  return failure;
}

/** A NUL character in the arguments (see src/text/nul-bytes.ts), at `loc` under "arguments". */
export function argumentsHoldNul(loc: (string | number)[]): ToolFailure {
  return validation([{ loc: ['arguments', ...loc], msg: NUL_BYTE_MESSAGE, type: 'string_nul_byte' }]);
}

/** An HTTP location (["body", "definition", …]) as a tool-argument location (["arguments", "definition", …]). */
function argumentsLoc(loc: (string | number)[]): (string | number)[] {
  const [part, ...rest] = loc;
  return typeof part === 'string' && PARTS.has(part) ? ['arguments', ...rest] : ['arguments', ...loc];
}

/** The failure for an error thrown by a tool; unexpected errors are logged under the request's id. */
export function toolFailure(err: unknown, requestId: string, log: FastifyBaseLogger, tool: string): ToolFailure {
  if (err instanceof AppError) {
    const body: Record<string, unknown> = { error: err.code, message: err.message, ...err.extra };
    if (err.status >= 500) body.request_id = requestId;
    return { status: err.status, body };
  }
  if (err instanceof FieldError) return validation([{ loc: argumentsLoc(err.loc), msg: err.message, type: err.type }]);
  if (err instanceof ValidationFailed) return validation(err.detail.map((d) => ({ ...d, loc: argumentsLoc(d.loc) })));
  if (isDatabaseUnavailable(err)) {
    const line = unavailableLogLine(err);
    log.warn({ err, tool, ...line.fields }, line.msg);
    return { status: 503, body: { error: 'database_unavailable', message: ERROR_CODES.database_unavailable.message, request_id: requestId } };
  }
  log.error({ err, tool }, 'unhandled error in MCP tool');
  return { status: 500, body: { error: 'internal_error', message: ERROR_CODES.internal_error.message, request_id: requestId } };
}
