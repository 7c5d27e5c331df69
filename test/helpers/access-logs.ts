// Generated access logs with exactly known counts: one list of requests written in each format
// the service reads (nginx/Apache combined and common, Cloudflare Logpush http_requests NDJSON,
// CloudFront standard logs, Vercel log drains), plus garbage lines. The expected counts below are
// derived by hand from the list, not by the code under test.

export interface LogEvent {
  ip: string;
  time: number;
  method: string;
  host: string;
  path: string;
  query?: string;
  status: number;
  ua: string;
  referer?: string;
  securityAction?: string;
}

export const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
  searchbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  chatgptUser: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  claudebot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  claudeUser: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  perplexitybot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  fake: 'Mozilla/5.0 (compatible; GPTBot-Fake/1.0; +https://example.net/)',
  browser: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

/** Addresses inside the bundled ranges (catalog/crawler-ip-ranges.json) and outside every range. */
export const IP = {
  gptbot: '20.171.206.5', // 20.171.206.0/23
  searchbot: '51.8.102.10', // 51.8.102.0/24
  chatgptUser: '4.151.71.177', // 4.151.71.176/28
  perplexitybot: '18.97.1.229', // 18.97.1.228/30
  spoofed: '203.0.113.7', // TEST-NET-3: in no vendor's ranges
  anthropic: '160.79.104.10',
  browser: '198.51.100.23',
};

/** The requests, `hoursAgo` before `now`, for the site `domain`. */
export function scenario(domain: string, now = Date.now()): { events: LogEvent[]; otherHost: LogEvent[]; cloudflareOnly: LogEvent[] } {
  let n = 0;
  const at = () => now - 3_600_000 * 2 - 60_000 * n++;
  const e = (ip: string, path: string, status: number, ua: string, extra: Partial<LogEvent> = {}): LogEvent => ({ ip, time: at(), method: 'GET', host: domain, path, status, ua, ...extra });
  const events: LogEvent[] = [
    // GPTBot: 5 verified 2xx, 2 spoofed (unverified) 2xx, 2 verified 403 (blocked)
    e(IP.gptbot, '/pricing', 200, UA.gptbot),
    e(IP.gptbot, '/pricing', 200, UA.gptbot),
    e(IP.gptbot, '/pricing', 200, UA.gptbot),
    e(IP.gptbot, '/blog/a', 200, UA.gptbot),
    e(IP.gptbot, '/robots.txt', 200, UA.gptbot),
    e(IP.spoofed, '/pricing', 200, UA.gptbot),
    e(IP.spoofed, '/pricing', 200, UA.gptbot),
    e(IP.gptbot, '/docs', 403, UA.gptbot),
    e(IP.gptbot, '/docs', 403, UA.gptbot),
    // ClaudeBot: 3 (Anthropic publishes no ranges: unverified); Claude-User: 2, a crawler of its own
    e(IP.anthropic, '/pricing', 200, UA.claudebot),
    e(IP.anthropic, '/pricing', 200, UA.claudebot),
    e(IP.anthropic, '/about', 200, UA.claudebot),
    e(IP.anthropic, '/pricing', 200, UA.claudeUser),
    e(IP.anthropic, '/pricing', 200, UA.claudeUser),
    // OAI-SearchBot: a 301 and a 429 (blocked), both verified
    e(IP.searchbot, '/old', 301, UA.searchbot),
    e(IP.searchbot, '/pricing', 429, UA.searchbot),
    // PerplexityBot fetching an asset: still a crawler hit
    e(IP.perplexitybot, '/app.css', 200, UA.perplexitybot),
    // Referral visits: chatgpt 3 (2 by Referer, 1 by utm_source), perplexity 1, gemini 1
    e(IP.browser, '/pricing', 200, UA.browser, { referer: 'https://chatgpt.com/' }),
    e(IP.browser, '/pricing', 200, UA.browser, { referer: 'https://chatgpt.com/c/abc' }),
    e(IP.browser, '/blog/a', 200, UA.browser, { query: 'utm_source=chatgpt.com' }),
    e(IP.browser, '/pricing', 200, UA.browser, { referer: 'https://www.perplexity.ai/search?q=anvils' }),
    e(IP.browser, '/pricing', 200, UA.browser, { referer: 'https://gemini.google.com/' }),
    // Not visits: an asset, a 404, a POST
    e(IP.browser, '/logo.png', 200, UA.browser, { referer: 'https://chatgpt.com/' }),
    e(IP.browser, '/missing', 404, UA.browser, { referer: 'https://chatgpt.com/' }),
    e(IP.browser, '/pricing', 200, UA.browser, { method: 'POST', referer: 'https://chatgpt.com/' }),
    // Ordinary traffic and a user agent that only contains a crawler's name
    e(IP.browser, '/', 200, UA.browser, { referer: 'https://www.google.com/' }),
    e(IP.browser, '/pricing', 200, UA.browser),
    e(IP.spoofed, '/pricing', 200, UA.fake),
  ];
  const otherHost = [e(IP.gptbot, '/pricing', 200, UA.gptbot, { host: 'other.example' }), e(IP.browser, '/pricing', 200, UA.browser, { host: 'other.example', referer: 'https://chatgpt.com/' })];
  const cloudflareOnly = [e(IP.chatgptUser, '/pricing', 503, UA.chatgptUser, { securityAction: 'managedChallenge' })];
  return { events, otherHost, cloudflareOnly };
}

export const GARBAGE = ['this is not a log line', '{"half": "a json'];

const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
function clfTime(ms: number) {
  // Written in +0200 to check the offset is applied.
  const d = new Date(ms + 2 * 3_600_000);
  return `${pad(d.getUTCDate())}/${MON[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0200`;
}
const target = (e: LogEvent) => e.path + (e.query ? `?${e.query}` : '');

export const render = {
  combined: (e: LogEvent) => `${e.ip} - - [${clfTime(e.time)}] "${e.method} ${target(e)} HTTP/1.1" ${e.status} 512 "${e.referer ?? '-'}" "${e.ua}"`,
  common: (e: LogEvent) => `${e.ip} - - [${clfTime(e.time)}] "${e.method} ${target(e)} HTTP/1.1" ${e.status} 512`,
  cloudflare: (e: LogEvent) =>
    JSON.stringify({
      ClientIP: e.ip, ClientRequestHost: e.host, ClientRequestMethod: e.method, ClientRequestURI: target(e), ClientRequestUserAgent: e.ua,
      ClientRequestReferer: e.referer ?? '', EdgeResponseStatus: e.status, EdgeStartTimestamp: e.time * 1_000_000, RayID: '8c0ffee', SecurityAction: e.securityAction ?? '',
    }),
  cloudfront: (e: LogEvent) => {
    const d = new Date(e.time).toISOString();
    const enc = (v: string | undefined) => (v ? encodeURIComponent(v).replace(/%2F/g, '/').replace(/%3A/g, ':') : '-');
    return [d.slice(0, 10), d.slice(11, 19), 'FRA56-P1', '512', e.ip, e.method, 'd111111abcdef8.cloudfront.net', e.path, String(e.status), enc(e.referer), enc(e.ua), e.query ?? '-', '-', 'Hit', 'req-id', e.host, 'https', '120', '0.002', '-', 'TLSv1.3', 'TLS_AES_128_GCM_SHA256', 'Hit', 'HTTP/2.0', '-', '-', '51234', '0.001', 'Hit', 'text/html', '512', '-', '-'].join('\t');
  },
  vercel: (e: LogEvent) =>
    JSON.stringify({
      id: `log${e.time}`, deploymentId: 'dpl_233NRGRjVZX1caZrXWtz5g1TAksD', source: 'edge', host: e.host, timestamp: e.time, projectId: 'prj_1', level: 'info',
      proxy: { timestamp: e.time, method: e.method, host: e.host, path: target(e), userAgent: [e.ua], referer: e.referer ?? '', statusCode: e.status, clientIp: e.ip, region: 'fra1', scheme: 'https' },
    }),
};

export const CLOUDFRONT_HEADER =
  '#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end\n';

export type Format = keyof typeof render;

/** The log text of a format: every event (host-aware formats also get the other-host ones), then garbage. */
export function logText(format: Format, domain: string, now?: number) {
  const { events, otherHost, cloudflareOnly } = scenario(domain, now);
  const hostAware = format === 'cloudflare' || format === 'cloudfront' || format === 'vercel';
  const all = [...events, ...(hostAware ? otherHost : []), ...(format === 'cloudflare' ? cloudflareOnly : [])];
  const lines = all.map(render[format]);
  const body = (format === 'cloudfront' ? CLOUDFRONT_HEADER : '') + [...lines.slice(0, 10), GARBAGE[0], ...lines.slice(10), GARBAGE[1]].join('\n') + '\n';
  return { body, requests: all.length - (hostAware ? otherHost.length : 0), otherHost: hostAware ? otherHost.length : 0, cloudflareOnly: format === 'cloudflare' ? cloudflareOnly.length : 0 };
}
