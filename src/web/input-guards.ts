// Input checks every route shares, run before schema validation: no NUL character in the body,
// the query or the path parameters (422 with the field's loc, the schema error shape). The MCP
// endpoint checks its tool arguments itself (src/mcp/server.ts), answering in its own shape.
import type { FastifyInstance } from 'fastify';
import { findNulByte, NUL_BYTE_MESSAGE } from '../text/nul-bytes.ts';

const PARTS = [
  ['body', 'body'],
  ['query', 'query'],
  ['params', 'path'],
] as const;

export function registerInputGuards(app: FastifyInstance) {
  app.addHook('preValidation', (request, reply, done) => {
    if (request.url.startsWith('/mcp')) return done();
    for (const [part, name] of PARTS) {
      const hit = findNulByte(request[part], [name]);
      if (hit) {
        reply.status(422).send({ detail: [{ loc: hit, msg: NUL_BYTE_MESSAGE, type: 'string_nul_byte' }] });
        return;
      }
    }
    done();
  });
}
