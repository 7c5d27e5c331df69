// An operation's answer is typed by its response schema: `npx tsc --noEmit` (npm run typecheck)
// refuses a `run` or `handler` whose answer lacks a field, has a field of another type, or is
// not an object at all. Each `@ts-expect-error` below holds a deliberately wrong answer: if the
// typing ever loosens, the directive is unused and the typecheck fails. At run time the test
// only checks that the definitions it typechecks are what defineRoute returns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { defineRoute } from '../../src/operations/define.ts';

const Answer = z.object({ id: z.string(), object: z.literal('thing'), count: z.number().int() }).passthrough();
const base = {
  method: 'GET' as const,
  url: '/v1/things/:id',
  summary: 'A thing',
  tags: ['things'],
  action: 'things.read',
  scope: null,
  params: z.object({ id: z.string() }),
  response: Answer,
  errors: [404],
  cli: { command: 'things show' },
};

const right = defineRoute({ ...base, run: async (a) => ({ id: a.id, object: 'thing', count: 1, extra: true }) });
const sync = defineRoute({ ...base, run: (a) => ({ id: a.id, object: 'thing', count: 1 }) });

// @ts-expect-error a field is missing (count)
const missing = defineRoute({ ...base, run: async (a) => ({ id: a.id, object: 'thing' }) });
// @ts-expect-error a field has another type (count as text)
const wrongType = defineRoute({ ...base, run: async (a) => ({ id: a.id, object: 'thing', count: '1' }) });
// @ts-expect-error not an object at all
const notObject = defineRoute({ ...base, run: () => 'thing' });
const wrongHandler = defineRoute({
  ...base,
  run: async (a) => ({ id: a.id, object: 'thing', count: 1 }),
  // @ts-expect-error an HTTP handler's body is held to the same schema
  handler: async ({ params }) => ({ id: params.id }),
});
// A tool answering another shape is held to its own output schema.
const toolOutput = z.object({ rows: z.array(z.string()) });
const wrongTool = defineRoute({
  ...base,
  tool: { name: 'read_thing', title: 'Read a thing', description: 'Free.', output: toolOutput },
  // @ts-expect-error run answers the tool's output (rows), not the HTTP response
  run: async (a) => ({ id: a.id, object: 'thing', count: 1 }),
});

test('defineRoute returns the definition it is given', () => {
  for (const spec of [right, sync, missing, wrongType, notObject, wrongHandler, wrongTool]) assert.equal(spec.url, '/v1/things/:id');
});
