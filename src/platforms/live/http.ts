// A `fetch` for the live drivers built on `undici.request`: the WHATWG fetch of Node spends
// ~0.6 ms CPU per provider call more (request/response objects, web streams, body mixins) than
// undici's plain request API, and every probe makes one such call. It returns a real `Response`,
// so the AI SDK is unaware of it. What a reader must know: anything this adapter does not handle
// the same way as fetch (a Request object as input, a body that is not a string or bytes, a
// followed redirect) is handed to the global fetch, so behaviour never differs, only speed.
import { Readable } from 'node:stream';
import { request } from 'undici';

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function headerRecord(h: FetchInit['headers']): Record<string, string> | undefined {
  if (!h) return undefined;
  if (h instanceof Headers) return Object.fromEntries(h);
  if (Array.isArray(h)) return Object.fromEntries(h as [string, string][]);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) h.append(k, x);
    else h.append(k, v);
  }
  return h;
}

export const undiciFetch: typeof fetch = async (input: FetchInput, init?: FetchInit): Promise<Response> => {
  const body = init?.body;
  const simpleBody = body == null || typeof body === 'string' || body instanceof Uint8Array;
  if (!(typeof input === 'string' || input instanceof URL) || !simpleBody) return fetch(input, init);
  const signal = init?.signal ?? undefined;
  signal?.throwIfAborted();
  const method = (init?.method ?? 'GET').toUpperCase();
  const res = await request(input, {
    method: method as 'GET',
    headers: headerRecord(init?.headers),
    body: body as string | Uint8Array | null | undefined,
    signal,
  });
  const redirect = init?.redirect ?? 'follow';
  if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location !== undefined && redirect !== 'manual') {
    await res.body.dump();
    if (redirect === 'error') throw new TypeError(`fetch failed: redirect (${res.statusCode}) with redirect mode "error"`);
    // Provider APIs do not redirect; when one does, fetch's own redirect rules apply.
    return fetch(input, init);
  }
  const headers = responseHeaders(res.headers);
  if (NULL_BODY.has(res.statusCode) || method === 'HEAD') {
    await res.body.dump();
    return new Response(null, { status: res.statusCode, headers });
  }
  // Server-sent events are passed on as a stream (streamText reads them as they come); a JSON
  // reply is read whole here, which is cheaper than a web stream the SDK reads at once anyway.
  const type = res.headers['content-type'];
  if (typeof type === 'string' && type.includes('text/event-stream')) {
    return new Response(Readable.toWeb(res.body) as ReadableStream<Uint8Array>, { status: res.statusCode, headers });
  }
  const bytes = new Uint8Array(await res.body.arrayBuffer());
  return new Response(bytes, { status: res.statusCode, headers });
};
