// The SSRF-safe page fetcher: GET one http(s) URL on behalf of an API caller and return its
// decoded text, following redirects itself.
//
// The one thing to know: every hop is resolved by us, every resolved address is checked
// (public unicast or operator-allowlisted), and the connection is pinned to the checked
// addresses through the socket's `lookup` hook, so a DNS answer that changes between the check
// and the connect (rebinding) cannot steer the socket anywhere else. A host the fetcher did not
// check has no pinned answer and cannot be connected to at all.
//
// Also bounded: connect/header/body timeouts, a cap on decoded body bytes (also against
// compression bombs), at most 5 redirects. The fetcher never reads process.env: the operator's
// allowlist (SIGHTLINE_FETCH_ALLOW) is passed in as `allow`.
import dns from 'node:dns';
import net from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { EMPTY_ALLOWLIST, isAddressAllowed, type FetchAllowlist } from './address-policy.ts';
import { decodeBody, parseContentType } from './charset.ts';
import { FetchError, HOST_NOT_PUBLIC } from './errors.ts';

export const USER_AGENT = 'sightline/0.1 (+https://github.com/sightline; page serializer)';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the default wraps dns.lookup with all: true). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchOptions {
  /** Non-public targets the operator allows (parsed SIGHTLINE_FETCH_ALLOW). Default: none. */
  allow?: FetchAllowlist;
  /** 'html' (default): anything but HTML/XHTML is refused as unsupported_content. 'any': text of any non-binary type. */
  accept?: 'html' | 'any';
  /** Name resolution, replaceable for tests and for operators with their own resolver. */
  lookup?: HostResolver;
  /** Time for DNS plus TCP/TLS connect, per hop. Default 5 s. */
  connectTimeoutMs?: number;
  /** Time from sending the request to receiving the response headers, per hop. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to read the whole body. Default 20 s. */
  bodyTimeoutMs?: number;
  /** Cap on decoded body bytes; the rest is not read and `truncated` is set. Default 5 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Return 4xx/5xx answers as pages instead of throwing http_error (robots.txt: 404 means "none"). */
  allowHttpErrors?: boolean;
  userAgent?: string;
  /** Extra request headers (for example Accept-Language). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface FetchedPage {
  /** The requested URL, as normalized by the URL parser. */
  url: string;
  /** The URL the body came from, after redirects. */
  finalUrl: string;
  status: number;
  /** Response headers, lowercased names; repeated headers joined with ", " (set-cookie dropped). */
  headers: Record<string, string>;
  /** Media type essence, e.g. "text/html"; null when the server sent none. */
  contentType: string | null;
  /** The WHATWG name of the encoding the body was decoded with. */
  charset: string;
  /** Decoded text. */
  body: string;
  /** Decoded (uncompressed) body bytes read. */
  bytes: number;
  /** True when the body was larger than maxBytes and was cut there. */
  truncated: boolean;
  /** Each redirect target followed, in order (empty without redirects). */
  redirects: string[];
}

/** The default body cap: bigger bodies are cut here and marked truncated. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

const DEFAULTS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 20_000,
  maxBytes: DEFAULT_MAX_BYTES,
  maxRedirects: 5,
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Resolver codes for a name that does not exist or has no address (EAI_AGAIN, a timeout, is not one). */
const PERMANENT_DNS = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Types that are never text; refused even with accept 'any'. */
const BINARY_TYPE = /^(image|audio|video|font)\/|^application\/(pdf|zip|gzip|x-gzip|octet-stream|x-tar|x-7z-compressed|vnd\.|msword|x-shockwave-flash|wasm)/;

export const defaultResolver: HostResolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Parses and checks the syntax of a URL the fetcher is asked to fetch or redirected to. */
function parseTarget(input: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new FetchError('invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('unsupported_scheme');
  // Credentials in a URL we fetch on someone's behalf are never intended for us to send.
  if (url.username || url.password) throw new FetchError('invalid_url', 'URLs with credentials are not fetched.');
  if (!url.hostname) throw new FetchError('invalid_url');
  url.hash = '';
  return url;
}

/**
 * A redirect's target: the same checks, but a bad Location is the page's failure, not a bad
 * request (the caller's URL was valid), so it is `bad_redirect` (500 extraction_failed).
 */
function redirectTarget(location: string, from: URL): URL {
  try {
    return parseTarget(location, from);
  } catch (err) {
    if (err instanceof FetchError) throw new FetchError('bad_redirect', undefined, { url: from.href });
    throw err;
  }
}

function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** The URL parser keeps IPv6 literals bracketed; sockets and the address check want them bare. */
function bareHost(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') ? h.slice(1, -1) : h;
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves the URL's host and checks every address. Throws blocked_address when any answer is
 * not allowed: a name with one private answer among public ones is refused, because the
 * operating system may pick any of them. A name that does not exist or has no address is refused
 * the same way, in the same words (HOST_NOT_PUBLIC), so the fetcher tells no one which internal
 * names exist; a resolver's temporary failure (EAI_AGAIN, a dropped answer) may pass, so it stays
 * a network error, retryable.
 */
async function resolveAndCheck(
  url: URL,
  allow: FetchAllowlist,
  lookup: HostResolver,
  timeoutMs: number,
): Promise<ResolvedAddress[]> {
  const host = bareHost(url);
  const port = effectivePort(url);
  let addresses: ResolvedAddress[];
  const family = net.isIP(host);
  const named = !family && !/(^|\.)localhost\.?$/i.test(host);
  if (family) {
    addresses = [{ address: host, family: family as 4 | 6 }];
  } else if (!named) {
    // RFC 6761: localhost names are loopback whatever a resolver says; answer them ourselves.
    addresses = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
  } else {
    try {
      addresses = await withTimeout(lookup(host), timeoutMs, () => new FetchError('timeout'));
    } catch (err) {
      if (err instanceof FetchError) throw err;
      if (!PERMANENT_DNS.has((err as NodeJS.ErrnoException)?.code ?? '')) {
        throw new FetchError('network', 'The host name could not be resolved.', { url: url.href, cause: err });
      }
      addresses = [];
    }
  }
  if (addresses.length === 0 || addresses.some((a) => !net.isIP(a.address) || !isAddressAllowed(host, port, a.address, allow))) {
    throw new FetchError('blocked_address', named ? HOST_NOT_PUBLIC : undefined, { url: url.href });
  }
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A socket `lookup` that answers only from the addresses we checked. Node calls it for every
 * connection to a host name (IP literals skip it; those were checked as they are).
 */
function pinnedLookup(pins: Map<string, ResolvedAddress[]>) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    let answers = pins.get(hostname.toLowerCase()) ?? [];
    if (options.family === 4 || options.family === 6) answers = answers.filter((a) => a.family === options.family);
    if (answers.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`no checked address for ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, '');
      return;
    }
    if (options.all) callback(null, answers.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, answers[0]!.address, answers[0]!.family);
  };
}

/** A URL the address policy let through: its checked addresses and a socket lookup pinned to them. */
export interface CheckedTarget {
  url: URL;
  addresses: ResolvedAddress[];
  /** For undici's `connect.lookup`: answers only the checked addresses (see pinnedLookup). */
  connectLookup: ReturnType<typeof pinnedLookup>;
}

/**
 * The fetcher's URL and address checks for another request this server makes to a URL a user
 * gave (a webhook delivery): parse and syntax check, resolve, check every address, pin. Throws
 * FetchError (invalid_url, unsupported_scheme, blocked_address, network, timeout).
 */
export async function checkOutboundTarget(
  input: string,
  opts: { allow?: FetchAllowlist; lookup?: HostResolver; timeoutMs?: number } = {},
): Promise<CheckedTarget> {
  const url = parseTarget(input);
  const addresses = await resolveAndCheck(url, opts.allow ?? EMPTY_ALLOWLIST, opts.lookup ?? defaultResolver, opts.timeoutMs ?? DEFAULTS.connectTimeoutMs);
  const pins = new Map([[bareHost(url).toLowerCase(), addresses]]);
  return { url, addresses, connectLookup: pinnedLookup(pins) };
}

/**
 * Stops reading a stream we no longer want. undici reports a destroyed body as an 'error'
 * (RequestAbortedError); we asked for it, so that error is swallowed rather than left unhandled.
 */
function discard(stream: Readable): void {
  stream.on('error', () => {});
  stream.destroy();
}

function flattenHeaders(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || name === 'set-cookie') continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Waits for the first bytes of a stream and puts them back, to look at a compression header. */
async function peek(stream: Readable): Promise<Buffer | null> {
  for (;;) {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      stream.unshift(chunk);
      return chunk;
    }
    if (stream.readableEnded || stream.destroyed) return null;
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.off('readable', done);
        stream.off('end', done);
        stream.off('error', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('readable', done);
      stream.on('end', done);
      stream.on('error', done);
      stream.on('close', done);
    });
  }
}

/**
 * Undoes Content-Encoding (gzip, deflate, br; stacked encodings in reverse order). The decoders
 * flush on a premature end instead of failing, as browsers do with a cut-off compressed page.
 */
async function decodeContent(body: Readable, contentEncoding: string | undefined): Promise<Readable> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  let stream = body;
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!;
    const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    let decoder: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress;
    if (coding === 'gzip' || coding === 'x-gzip') decoder = zlib.createGunzip(flush);
    else if (coding === 'br') decoder = zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    else if (coding === 'deflate') {
      // HTTP "deflate" means zlib-wrapped, but some servers send raw deflate; browsers accept both.
      const head = i === codings.length - 1 ? await peek(stream) : null;
      const zlibWrapped = !head || head.length < 2 || ((head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0);
      decoder = zlibWrapped ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
    } else {
      throw new FetchError('unsupported_content', 'The page uses a content encoding this server cannot decode.');
    }
    const source = stream;
    source.on('error', (err) => decoder.destroy(err));
    decoder.on('close', () => discard(source));
    stream = source.pipe(decoder);
  }
  return stream;
}

/** Does an untyped body look like HTML? (A short form of the WHATWG MIME sniffing patterns.) */
function looksLikeHtml(head: Buffer): boolean {
  const text = head.subarray(0, 512).toString('latin1').replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart().toLowerCase();
  return /^<(!doctype html|html|head|body|title|script|iframe|h1|div|font|table|a|style|b|br|p|!--)[\s>]/.test(text);
}

interface ReadResult {
  bytes: Buffer;
  truncated: boolean;
}

async function readCapped(stream: Readable, maxBytes: number, timeoutMs: number, onDestroy: () => void): Promise<ReadResult> {
  const parts: Buffer[] = [];
  let size = 0;
  let truncated = false;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    discard(stream);
    onDestroy();
  }, timeoutMs);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length > maxBytes) {
        parts.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break; // leaving the loop destroys the stream, so no more bytes are read
      }
      parts.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    if (timedOut) throw new FetchError('timeout');
    throw err;
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) throw new FetchError('timeout');
  if (truncated) onDestroy();
  return { bytes: Buffer.concat(parts, size), truncated };
}

/** Maps a low-level failure to a FetchError with a safe message. */
function toFetchError(err: unknown, url: URL): FetchError {
  if (err instanceof FetchError) return err;
  const code = (err as { code?: string } | null)?.code;
  const name = (err as { name?: string } | null)?.name;
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    name === 'TimeoutError'
  ) {
    return new FetchError('timeout', undefined, { url: url.href, cause: err });
  }
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED') {
    return new FetchError('network', 'The fetch was cancelled.', { url: url.href, cause: err });
  }
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'ERR__ERROR_FORMAT_PADDING_1' || (code ?? '').startsWith('ERR_BROTLI')) {
    return new FetchError('network', 'The page body could not be decompressed.', { url: url.href, cause: err });
  }
  return new FetchError('network', undefined, { url: url.href, cause: err });
}

/**
 * Fetches `input` with GET and returns its decoded text. Throws FetchError (see its codes) for
 * every refusal or failure; never another error type.
 */
export async function fetchPage(input: string, opts: FetchOptions = {}): Promise<FetchedPage> {
  const allow = opts.allow ?? EMPTY_ALLOWLIST;
  const accept = opts.accept ?? 'html';
  const lookup = opts.lookup ?? defaultResolver;
  const connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
  const headersTimeoutMs = opts.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs;
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs;
  const maxBytes = opts.maxBytes ?? DEFAULTS.maxBytes;
  const maxRedirects = opts.maxRedirects ?? DEFAULTS.maxRedirects;

  const start = parseTarget(input);
  let url = start;
  const redirects: string[] = [];
  const pins = new Map<string, ResolvedAddress[]>();
  // One agent per fetch: its sockets can only reach the pinned addresses of this fetch, and
  // nothing (sessions, keep-alive sockets) outlives it.
  const agent = new Agent({
    connect: { timeout: connectTimeoutMs, lookup: pinnedLookup(pins) },
    headersTimeout: headersTimeoutMs,
    bodyTimeout: bodyTimeoutMs,
    connections: 1,
    keepAliveTimeout: 1_000,
  });
  const requestHeaders: Record<string, string> = {
    ...opts.headers,
    'user-agent': opts.userAgent ?? USER_AGENT,
    accept:
      accept === 'html'
        ? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1'
        : 'text/plain,text/markdown,application/xml,text/xml,text/html;q=0.9,*/*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
  };

  try {
    for (;;) {
      if (opts.signal?.aborted) throw new FetchError('network', 'The fetch was cancelled.');
      const addresses = await resolveAndCheck(url, allow, lookup, connectTimeoutMs);
      pins.set(bareHost(url).toLowerCase(), addresses);

      const res = await agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'GET',
        headers: requestHeaders,
        signal: opts.signal,
      });
      const headers = flattenHeaders(res.headers);

      if (REDIRECT_STATUSES.has(res.statusCode) && headers.location) {
        discard(res.body);
        if (redirects.length >= maxRedirects) {
          throw new FetchError('too_many_redirects', undefined, { url: url.href, status: res.statusCode });
        }
        url = redirectTarget(headers.location, url);
        redirects.push(url.href);
        continue;
      }

      const status = res.statusCode;
      const { essence, charset: headerCharset } = parseContentType(headers['content-type']);
      const fail = (code: 'http_error' | 'unsupported_content', message?: string): never => {
        discard(res.body);
        throw new FetchError(code, message, { url: url.href, status, contentType: essence });
      };
      if (status >= 400 && !opts.allowHttpErrors) fail('http_error', `The page answered with HTTP ${status}.`);
      if (essence && BINARY_TYPE.test(essence)) fail('unsupported_content');
      if (accept === 'html' && essence && !HTML_TYPES.has(essence)) fail('unsupported_content');

      const body = await decodeContent(res.body, headers['content-encoding']);
      const read = await readCapped(body, maxBytes, bodyTimeoutMs, () => discard(res.body));

      let isHtml = essence ? HTML_TYPES.has(essence) : false;
      if (!essence) {
        isHtml = looksLikeHtml(read.bytes);
        if (accept === 'html' && !isHtml) fail('unsupported_content');
      }
      const { text, charset } = decodeBody(read.bytes, headerCharset, isHtml, read.truncated);
      return {
        url: start.href,
        finalUrl: url.href,
        status,
        headers,
        contentType: essence,
        charset,
        body: text,
        bytes: read.bytes.length,
        truncated: read.truncated,
        redirects,
      };
    }
  } catch (err) {
    throw toFetchError(err, url);
  } finally {
    agent.destroy().catch(() => {});
  }
}
