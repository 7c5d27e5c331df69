// The HTTP edge: socket timeouts, the JSON body parser (UTF-8 only), and not reading a body the
// server has already refused. The one thing to know: Node keeps reading (and discarding) an
// unread request body after the response so the connection can be reused; for a request
// answered with an error before its body was read (401, 403, 413, 415, …) the connection is
// closed instead, so a client cannot make the server read a 63 MB upload it has already refused.
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { JSON_TOO_DEEP_MESSAGE, jsonNestsDeeperThan } from '../text/json-depth.ts';

/** Fastify/Node server options for the timeouts (docs/operating.md, "HTTP edge"). */
export function httpTimeouts(config: Config): Pick<FastifyServerOptions, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout'> & {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    // A socket with no traffic either way for this long is closed (a silent connection).
    connectionTimeout: config.SIGHTLINE_HTTP_IDLE_TIMEOUT_MS,
    // An idle keep-alive connection between requests.
    keepAliveTimeout: config.SIGHTLINE_HTTP_KEEPALIVE_TIMEOUT_MS,
    // Receiving a whole request, body included (a slow-body upload): 408 and closed.
    requestTimeout: config.SIGHTLINE_HTTP_REQUEST_TIMEOUT_MS,
    http: {
      // Receiving the request line and headers.
      headersTimeout: config.SIGHTLINE_HTTP_HEADERS_TIMEOUT_MS,
      // How often Node checks the two above (its default, 30 s, would let them overrun by that much).
      connectionsCheckingInterval: Math.min(1000, config.SIGHTLINE_HTTP_HEADERS_TIMEOUT_MS),
    },
  };
}

const UTF8 = /^utf-?8$/i;

/** The code of the parser's error for a body nested deeper than MAX_JSON_DEPTH. */
export const JSON_TOO_DEEP = 'SIGHTLINE_JSON_TOO_DEEP';
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function mediaError(message: string) {
  return Object.assign(new Error(message), { statusCode: 415, code: 'SIGHTLINE_UNSUPPORTED_CHARSET' });
}

/** A real socket's request whose body was not read to its end (injected requests never are). */
const unreadBody = (raw: IncomingMessage) => raw.complete === false && raw.socket instanceof Socket;

export function registerEdge(app: FastifyInstance) {
  // JSON bodies must be UTF-8 (RFC 8259): a charset other than UTF-8 is 415, and so are bytes that
  // are not valid UTF-8 (decoding them leniently would change the text). An empty body is "no
  // body" (POST …/cancel needs none); malformed JSON is a 422, and so is JSON nested deeper than
  // MAX_JSON_DEPTH (found by a linear scan before JSON.parse recurses).
  app.removeContentTypeParser('application/json');
  // Fastify's built-in text/plain parser would hand a string to a JSON schema (a 422): any body
  // but JSON is 415.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset && !UTF8.test(charset)) return done(mediaError(`Request bodies must be UTF-8 JSON; charset=${charset.slice(0, 40)} is not accepted.`), undefined);
    let text: string;
    try {
      text = decoder.decode(body as Buffer);
    } catch {
      return done(mediaError('The request body is not valid UTF-8.'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    // Nesting is bounded before JSON.parse recurses into it (src/text/json-depth.ts).
    if (jsonNestsDeeperThan(body as Buffer)) {
      return done(Object.assign(new Error(JSON_TOO_DEEP_MESSAGE), { statusCode: 422, code: JSON_TOO_DEEP }), undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = Object.assign(new Error('Body is not valid JSON.'), { statusCode: 400, code: 'SIGHTLINE_INVALID_JSON' });
      done(err, undefined);
    }
  });

  // A request answered with an error while its body was still unread: close the connection
  // rather than read the rest (see the file comment).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && unreadBody(request.raw)) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const raw = request.raw;
    if (unreadBody(raw) && raw.socket && !raw.socket.destroyed && typeof raw.socket.pause === 'function') {
      // The response is flushed ('finish'); stop reading and drop the connection. A short delay
      // lets the kernel send the response before the close.
      raw.socket.pause();
      setTimeout(() => raw.socket?.destroy(), 100).unref();
    }
    done();
  });
}
