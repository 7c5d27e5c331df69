// Access log formats, one parser each, every one turning a line into the same request record.
// The one thing to know: a line that is not a request of the format (a header, a build log, a
// truncated or garbled line) is `null`, and the reader counts it as skipped; nothing throws.
//
// Field names and layouts, from each vendor's published documentation:
// - combined / common: Apache httpd's LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\"
//   \"%{User-agent}i\"" (https://httpd.apache.org/docs/current/logs.html), which nginx's default
//   `combined` log_format repeats (https://nginx.org/en/docs/http/ngx_http_log_module.html).
// - cloudflare: Logpush `http_requests` dataset, one JSON object a line: ClientIP,
//   ClientRequestHost, ClientRequestMethod, ClientRequestURI, ClientRequestUserAgent,
//   ClientRequestReferer, EdgeResponseStatus, EdgeStartTimestamp (RFC 3339, unix or unixnano by
//   the job's timestamp_format), SecurityAction / WAFAction
//   (https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/).
// - cloudfront: standard logs, W3C extended: `#Version`, `#Fields: date time x-edge-location …`
//   then tab-separated values, `-` for empty, the user agent URL-encoded
//   (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/standard-logs-reference.html).
// - vercel: log drains, NDJSON (or a JSON array) of log objects; request logs carry `proxy`
//   {timestamp, method, host, path, userAgent (a list), referer, statusCode, clientIp}
//   (https://vercel.com/docs/drains/reference/logs).

export const LOG_FORMATS = ['combined', 'common', 'cloudflare', 'cloudfront', 'vercel'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogRecord {
  /** Request time, ms since the epoch (NaN when the line has none). */
  time: number;
  /** The client address as logged: used to verify a crawler, never stored. */
  ip: string;
  method: string;
  /** The Host the request named, when the format logs it. */
  host: string | null;
  /** Path without the query. */
  path: string;
  query: string;
  status: number;
  userAgent: string;
  referer: string;
  /** The CDN answered with a bot challenge (Cloudflare's SecurityAction). */
  challenged: boolean;
}

export interface LineParser {
  readonly format: LogFormat;
  parse(line: string): LogRecord | null;
}

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

const digits = (s: string, from: number, n: number) => {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
};

const MONTH_BY_CODE = new Map(Object.entries(MONTHS).map(([name, m]) => [name.charCodeAt(0) * 65536 + name.charCodeAt(1) * 256 + name.charCodeAt(2), m]));
/** The last day converted: consecutive log lines are nearly always on the same day. */
let lastDayKey = -1;
let lastDayMs = 0;

/** `10/Oct/2000:13:55:36 -0700` (at `at` in `t`) → ms since the epoch. */
export function parseClfTime(t: string, at = 0): number {
  if (t.length < at + 26) return NaN;
  const month = MONTH_BY_CODE.get(t.charCodeAt(at + 3) * 65536 + t.charCodeAt(at + 4) * 256 + t.charCodeAt(at + 5));
  if (month === undefined) return NaN;
  const year = digits(t, at + 7, 4);
  const day = digits(t, at, 2);
  const dayKey = year * 10_000 + month * 100 + day;
  if (dayKey !== lastDayKey) {
    lastDayMs = Date.UTC(year, month, day);
    lastDayKey = dayKey;
  }
  const clock = digits(t, at + 12, 2) * 3_600_000 + digits(t, at + 15, 2) * 60_000 + digits(t, at + 18, 2) * 1000;
  const sign = t.charCodeAt(at + 21) === 45 ? -1 : 1;
  const offset = sign * (digits(t, at + 22, 2) * 60 + digits(t, at + 24, 2));
  return lastDayMs + clock - offset * 60_000;
}

/** Every parser's records are made here, so they share one shape (the classifier stays fast). */
function record(time: number, ip: string, method: string, host: string | null, target: string, status: number, userAgent: string, referer: string, challenged: boolean): LogRecord {
  const q = target.indexOf('?');
  return {
    time, ip, method, host,
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? '' : target.slice(q + 1),
    status, userAgent, referer, challenged,
  };
}

/** An absolute-form request target (`GET http://host/path`): its host and the rest. */
function absoluteTarget(target: string): { host: string | null; target: string } {
  if (target.charCodeAt(0) === 47 || !(target.startsWith('http://') || target.startsWith('https://'))) return { host: null, target };
  const from = target.indexOf('//') + 2;
  const slash = target.indexOf('/', from);
  return { host: target.slice(from, slash < 0 ? undefined : slash), target: slash < 0 ? '/' : target.slice(slash) };
}

/** nginx/Apache combined (and common, which simply lacks the two quoted fields at the end). */
export class CombinedParser implements LineParser {
  constructor(readonly format: 'combined' | 'common' = 'combined') {}
  parse(line: string): LogRecord | null {
    const sp = line.indexOf(' ');
    if (sp <= 0) return null;
    const open = line.indexOf('[', sp);
    if (open < 0) return null;
    const close = line.indexOf(']', open);
    if (close < 0 || line.charCodeAt(close + 1) !== 32 || line.charCodeAt(close + 2) !== 34) return null;
    const time = close - open === 27 ? parseClfTime(line, open + 1) : NaN;
    if (Number.isNaN(time)) return null;
    // The request line ends at the quote followed by " <status>"; a quote inside is escaped.
    let reqEnd = close + 3;
    for (;;) {
      reqEnd = line.indexOf('" ', reqEnd);
      if (reqEnd < 0) return null;
      const c = line.charCodeAt(reqEnd + 2);
      if (c >= 48 && c <= 57 && line.charCodeAt(reqEnd - 1) !== 92) break;
      reqEnd++;
    }
    const status = digits(line, reqEnd + 2, 3);
    if (Number.isNaN(status) || (line.length > reqEnd + 5 && line.charCodeAt(reqEnd + 5) !== 32)) return null;
    const request = line.slice(close + 3, reqEnd);
    const m1 = request.indexOf(' ');
    const m2 = request.lastIndexOf(' ');
    const method = m1 > 0 ? request.slice(0, m1) : '';
    const abs = absoluteTarget(m1 > 0 ? request.slice(m1 + 1, m2 > m1 ? m2 : undefined) : '');
    let referer = '';
    let userAgent = '';
    const afterBytes = line.indexOf(' "', reqEnd + 6);
    if (afterBytes >= 0) {
      const refEnd = line.indexOf('" "', afterBytes + 2);
      if (refEnd >= 0) {
        referer = line.slice(afterBytes + 2, refEnd);
        const uaEnd = line.indexOf('"', refEnd + 3) >= 0 ? lastQuote(line, refEnd + 3) : -1;
        userAgent = uaEnd > refEnd + 3 ? line.slice(refEnd + 3, uaEnd) : '';
      }
    }
    return record(time, line.slice(0, sp), method, abs.host, abs.target, status, userAgent === '-' ? '' : userAgent, referer === '-' ? '' : referer, false);
  }
}

/** The closing quote of the user agent: the first quote not escaped by a backslash. */
function lastQuote(line: string, from: number): number {
  let i = from;
  for (;;) {
    i = line.indexOf('"', i);
    if (i < 0) return -1;
    if (line.charCodeAt(i - 1) !== 92) return i;
    i++;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A JSON timestamp: RFC 3339 text, or a number in s, ms, µs or ns (whichever is plausible). */
export function parseJsonTime(v: unknown): number {
  if (typeof v === 'string') return /^\d+$/.test(v) ? parseJsonTime(Number(v)) : Date.parse(v);
  if (typeof v !== 'number' || !Number.isFinite(v)) return NaN;
  if (v > 1e17) return Math.floor(v / 1e6);
  if (v > 1e14) return Math.floor(v / 1e3);
  if (v > 1e11) return v;
  return v * 1000;
}

function parseJsonLine(line: string): Record<string, unknown> | null {
  if (line.charCodeAt(0) !== 123) return null;
  try {
    const v = JSON.parse(line) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const CHALLENGES = /challenge/i;
const SOLVED = /solved|bypass/i;

export class CloudflareParser implements LineParser {
  readonly format = 'cloudflare' as const;
  parse(line: string): LogRecord | null {
    const o = parseJsonLine(line);
    if (!o) return null;
    const uri = str(o.ClientRequestURI);
    const status = Number(o.EdgeResponseStatus);
    if (!uri || !Number.isInteger(status)) return null;
    const action = `${str(o.SecurityAction)} ${str(o.WAFAction)}`;
    return record(
      parseJsonTime(o.EdgeStartTimestamp), str(o.ClientIP), str(o.ClientRequestMethod), str(o.ClientRequestHost) || null, uri, status,
      str(o.ClientRequestUserAgent), str(o.ClientRequestReferer), CHALLENGES.test(action) && !SOLVED.test(action),
    );
  }
}

export class VercelParser implements LineParser {
  readonly format = 'vercel' as const;
  parse(line: string): LogRecord | null {
    const o = parseJsonLine(line);
    const proxy = o?.proxy as Record<string, unknown> | undefined;
    if (!o || !proxy || typeof proxy !== 'object') return null;
    const target = str(proxy.path);
    const status = Number(proxy.statusCode);
    if (!target || !Number.isInteger(status) || status < 100) return null;
    const ua = Array.isArray(proxy.userAgent) ? proxy.userAgent.filter((u) => typeof u === 'string').join(' ') : str(proxy.userAgent);
    return record(parseJsonTime(proxy.timestamp ?? o.timestamp), str(proxy.clientIp), str(proxy.method), str(proxy.host) || str(o.host) || null, target, status, ua, str(proxy.referer), false);
  }
}

/** The documented field order, used until a file's own `#Fields` line says otherwise. */
const CLOUDFRONT_DEFAULT_FIELDS =
  'date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end';

const decodeW3c = (v: string | undefined) => {
  if (!v || v === '-') return '';
  if (!v.includes('%')) return v;
  try {
    // CloudFront encodes spaces and some characters twice over (%2520); decoding once matches the docs' examples.
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

export class CloudFrontParser implements LineParser {
  readonly format = 'cloudfront' as const;
  private idx = this.indexes(CLOUDFRONT_DEFAULT_FIELDS);
  private indexes(fields: string) {
    const names = fields.trim().split(/\s+/);
    const at = (n: string) => names.indexOf(n);
    return {
      date: at('date'), time: at('time'), ip: at('c-ip'), method: at('cs-method'), stem: at('cs-uri-stem'), status: at('sc-status'),
      referer: at('cs(Referer)'), ua: at('cs(User-Agent)'), query: at('cs-uri-query'), host: at('x-host-header'), count: names.length,
    };
  }
  parse(line: string): LogRecord | null {
    if (line.charCodeAt(0) === 35) {
      if (line.startsWith('#Fields:')) this.idx = this.indexes(line.slice(8));
      return null;
    }
    const f = line.split('\t');
    const i = this.idx;
    if (f.length < Math.max(i.date, i.time, i.stem, i.status) + 1 || i.date < 0 || i.stem < 0 || i.status < 0) return null;
    const status = digits(f[i.status], 0, 3);
    const time = Date.parse(`${f[i.date]}T${f[i.time] ?? '00:00:00'}Z`);
    if (Number.isNaN(status) || f[i.status].length !== 3 || Number.isNaN(time)) return null;
    const query = i.query >= 0 ? f[i.query] : '-';
    const host = i.host >= 0 ? f[i.host] : '-';
    return record(
      time, i.ip >= 0 ? f[i.ip] : '', i.method >= 0 ? f[i.method] : '', host && host !== '-' ? host : null,
      query && query !== '-' ? `${f[i.stem]}?${query}` : f[i.stem], status,
      decodeW3c(i.ua >= 0 ? f[i.ua] : ''), decodeW3c(i.referer >= 0 ? f[i.referer] : ''), false,
    );
  }
}

export function parserFor(format: LogFormat): LineParser {
  switch (format) {
    case 'combined':
    case 'common':
      return new CombinedParser(format);
    case 'cloudflare':
      return new CloudflareParser();
    case 'cloudfront':
      return new CloudFrontParser();
    case 'vercel':
      return new VercelParser();
  }
}

/** The format of a log from its first non-empty lines (null: none recognised). */
export function detectFormat(lines: string[]): LogFormat | null {
  for (const line of lines) {
    if (!line.trim()) continue;
    if (line.startsWith('#Version') || line.startsWith('#Fields')) return 'cloudfront';
    const o = parseJsonLine(line);
    if (o) {
      if ('ClientRequestURI' in o || 'EdgeStartTimestamp' in o || 'EdgeResponseStatus' in o) return 'cloudflare';
      if ('proxy' in o || 'deploymentId' in o) return 'vercel';
      continue;
    }
    if (line.includes('\t') && /^\d{4}-\d\d-\d\d\t/.test(line)) return 'cloudfront';
    const r = new CombinedParser().parse(line);
    if (r) return r.userAgent || /" \d{3} \S+ "/.test(line) ? 'combined' : 'common';
  }
  return null;
}
