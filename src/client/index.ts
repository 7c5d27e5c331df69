// The typed sightline client: openapi-fetch over the types openapi-typescript generated from the
// server's own /openapi.json (src/client/schema.d.ts, `npm run client:generate`). The user CLI is
// built on it, so the CLI exercises the client and the document together.
import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { paths, operations, components } from './schema.d.ts';

export interface ClientOptions {
  /** The server, e.g. http://localhost:8080 (no /v1). */
  baseUrl: string;
  /** An API key, svc_api_live_… */
  apiKey: string;
  /**
   * How long the server may stay silent, in milliseconds: until the answer's headers, then
   * between two pieces of its body (a streamed export goes on as long as it moves). Past it the
   * request is abandoned with a ServerSilent error. Default: none (the platform's own limits).
   */
  timeoutMs?: number;
}

/** A request abandoned because the server said nothing for `ms` milliseconds. */
export class ServerSilent extends Error {
  override readonly name = 'ServerSilent';
  constructor(
    readonly ms: number,
    /** The request's method: a POST abandoned may still have been carried out. */
    readonly method: string,
  ) {
    super(`the server sent nothing for ${ms / 1000} s`);
  }
}

/** fetch with a silence limit: until the headers come, then while each body piece is awaited. */
export function silenceLimitedFetch(ms: number): (input: Request) => Promise<Response> {
  return async (input) => {
    const ac = new AbortController();
    let timer = setTimeout(() => ac.abort(new ServerSilent(ms, input.method)), ms);
    const rearm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => ac.abort(new ServerSilent(ms, input.method)), ms);
    };
    let res: Response;
    try {
      res = await fetch(input, { signal: AbortSignal.any([input.signal, ac.signal]) });
    } catch (err) {
      clearTimeout(timer);
      throw ac.signal.aborted ? ac.signal.reason : err;
    }
    clearTimeout(timer);
    if (!res.body) return res;
    // The body: the clock runs only while a piece is awaited from the server, so a reader that
    // takes its time (`… | less`) is not mistaken for a silent server.
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        rearm();
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (err) {
          controller.error(ac.signal.aborted ? ac.signal.reason : err);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

export function createSightlineClient(opts: ClientOptions) {
  return createClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${opts.apiKey}` },
    ...(opts.timeoutMs ? { fetch: silenceLimitedFetch(opts.timeoutMs) } : {}),
  });
}

export type SightlineClient = ReturnType<typeof createSightlineClient>;
