// How tool failures are rendered (src/mcp/errors.ts): a core FieldError is a validation error
// with the HTTP 422 detail, AppErrors keep their status and extras (request_id from 500 on), and
// anything unexpected is logged and answered as internal_error with the request's id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, FieldError } from '../../src/core/errors.ts';
import { toolFailure } from '../../src/mcp/errors.ts';

function recordingLog() {
  const errors: unknown[][] = [];
  const log = { error: (...args: unknown[]) => void errors.push(args) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

test('a core FieldError is a 422 validation error located in the arguments', () => {
  const { log, errors } = recordingLog();
  const f = toolFailure(new FieldError(['body', 'max_chars'], 'max_chars must be an integer from 1 to 25000.'), 'req_1', log, 'serialize_page');
  assert.equal(f.status, 422);
  assert.deepEqual(f.body, {
    error: 'validation_error',
    message: 'Invalid arguments: max_chars: max_chars must be an integer from 1 to 25000.',
    detail: [{ loc: ['arguments', 'max_chars'], msg: 'max_chars must be an integer from 1 to 25000.', type: 'value_error' }],
  });
  assert.equal(errors.length, 0);
});

test('AppErrors keep status and extras; request_id only from 500', () => {
  const { log, errors } = recordingLog();
  const paid = toolFailure(new AppError('insufficient_credits', 'no', { available_credits: '1.00' }), 'req_2', log, 't');
  assert.deepEqual(paid, { status: 402, body: { error: 'insufficient_credits', message: 'no', available_credits: '1.00' } });
  const failed = toolFailure(new AppError('provider_failed'), 'req_3', log, 't');
  assert.equal(failed.status, 500);
  assert.equal(failed.body.request_id, 'req_3');
  assert.equal(toolFailure(new AppError('credit_storage_unavailable'), 'req_4', log, 't').body.request_id, 'req_4');
  assert.equal(errors.length, 0);
});

test('an unexpected error is logged and answered as internal_error with the request id', () => {
  const { log, errors } = recordingLog();
  const boom = new TypeError('boom');
  const f = toolFailure(boom, 'req_5', log, 'score_content');
  assert.deepEqual(f, { status: 500, body: { error: 'internal_error', message: 'Unexpected server error.', request_id: 'req_5' } });
  assert.equal(errors.length, 1);
  assert.deepEqual(errors[0]![0], { err: boom, tool: 'score_content' });
});
