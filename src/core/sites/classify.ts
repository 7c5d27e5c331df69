// What a request is, for the site reports: an AI crawler (by the whole product token of its user
// agent, from the crawler catalog), a page or an asset, and a visit referred by an AI assistant
// (by its Referer host or its utm_source). The one thing to know: tokens match whole, so
// `Claude-User/1.0` is Claude-User and never ClaudeBot, and `GPTBot-Fake` is no crawler at all.
import { AI_CRAWLERS, type CrawlerEntry } from '../content/crawlers.ts';

/** The crawlers a user agent can name: the catalog's entries that send a user agent of their own. */
const BY_TOKEN = new Map<string, CrawlerEntry>();
for (const c of AI_CRAWLERS) if (c.user_agent) BY_TOKEN.set(c.token.toLowerCase(), c);

const isTokenChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 46;

/** The catalog crawler a user agent names by a whole product token, or null. */
function crawlerOfUncached(ua: string): CrawlerEntry | null {
  const lower = ua.toLowerCase();
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if (isTokenChar(c)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      // A product token is a name; a trailing "." (end of a sentence) is not part of it.
      let end = i;
      while (end > start && lower.charCodeAt(end - 1) === 46) end--;
      const hit = BY_TOKEN.get(lower.slice(start, end));
      if (hit) return hit;
      start = -1;
    }
  }
  return null;
}

/** User agents repeat heavily in access logs: the answer per distinct agent is kept (bounded). */
const cache = new Map<string, CrawlerEntry | null>();
const CACHE_LIMIT = 20_000;
export function crawlerOf(ua: string): CrawlerEntry | null {
  if (!ua) return null;
  const hit = cache.get(ua);
  if (hit !== undefined) return hit;
  const found = crawlerOfUncached(ua);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(ua, found);
  return found;
}

/** Static files: requests for them are not page views (referral visits count pages only). */
const ASSET_EXTENSIONS = new Set([
  'css', 'js', 'mjs', 'map', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'ico', 'bmp', 'tif', 'tiff',
  'woff', 'woff2', 'ttf', 'otf', 'eot', 'mp4', 'webm', 'mp3', 'wav', 'ogg', 'm4a', 'mov', 'zip', 'gz', 'wasm', 'json', 'webmanifest',
]);

export function isAsset(path: string): boolean {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash) return false;
  return ASSET_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

export const REFERRAL_SOURCES = ['chatgpt', 'perplexity', 'gemini', 'copilot', 'claude', 'deepseek', 'grok', 'meta_ai', 'mistral'] as const;
export type ReferralSource = (typeof REFERRAL_SOURCES)[number];

/** Assistant hosts (a Referer's host, or a utm_source naming one), each with the hosts it answers from. */
const SOURCE_HOSTS: Record<ReferralSource, string[]> = {
  chatgpt: ['chatgpt.com', 'chat.openai.com'],
  perplexity: ['perplexity.ai'],
  gemini: ['gemini.google.com', 'bard.google.com'],
  copilot: ['copilot.microsoft.com', 'copilot.cloud.microsoft'],
  claude: ['claude.ai'],
  deepseek: ['chat.deepseek.com', 'deepseek.com'],
  grok: ['grok.com'],
  meta_ai: ['meta.ai'],
  mistral: ['chat.mistral.ai'],
};
const HOST_SOURCE = new Map<string, ReferralSource>();
for (const [source, hosts] of Object.entries(SOURCE_HOSTS) as [ReferralSource, string[]][]) for (const h of hosts) HOST_SOURCE.set(h, source);
/** utm_source values assistants set that are not a host name. */
const UTM_NAMES: Record<string, ReferralSource> = {
  chatgpt: 'chatgpt', openai: 'chatgpt', perplexity: 'perplexity', gemini: 'gemini', copilot: 'copilot', claude: 'claude',
  deepseek: 'deepseek', grok: 'grok', 'meta.ai': 'meta_ai', meta_ai: 'meta_ai', mistral: 'mistral', lechat: 'mistral',
};

function sourceOfHost(host: string): ReferralSource | null {
  let h = host.toLowerCase();
  if (h.startsWith('www.')) h = h.slice(4);
  const direct = HOST_SOURCE.get(h);
  if (direct) return direct;
  // A subdomain of an assistant host (e.g. labs.perplexity.ai) is the same assistant.
  for (let dot = h.indexOf('.'); dot >= 0; dot = h.indexOf('.', dot + 1)) {
    const s = HOST_SOURCE.get(h.slice(dot + 1));
    if (s && h.slice(dot + 1).includes('.')) return s;
  }
  return null;
}

/** The assistant that referred a request, by Referer host then utm_source; null for none. */
export function referralSourceOf(referer: string, query: string): ReferralSource | null {
  if (referer) {
    const start = referer.indexOf('//');
    if (start >= 0) {
      const rest = referer.slice(start + 2);
      const end = rest.search(/[/?#:]/);
      const s = sourceOfHost(end < 0 ? rest : rest.slice(0, end));
      if (s) return s;
    }
  }
  if (query && query.includes('utm_source=')) {
    const m = /(?:^|&)utm_source=([^&]*)/.exec(query);
    if (m) {
      let v = m[1];
      try {
        v = decodeURIComponent(v.replace(/\+/g, ' '));
      } catch {
        /* keep it as sent */
      }
      v = v.trim().toLowerCase();
      return UTM_NAMES[v] ?? sourceOfHost(v);
    }
  }
  return null;
}

/** 401, 403, 429 and 451, or a bot challenge, are a crawler kept out. */
export function isBlocked(status: number, challenged: boolean): boolean {
  return challenged || status === 401 || status === 403 || status === 429 || status === 451;
}

export function statusClass(status: number): '2xx' | '3xx' | '4xx' | '5xx' | null {
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 300 && status < 400) return '3xx';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500 && status < 600) return '5xx';
  return null;
}

/** A host name as a site is keyed: lowercased, port and trailing dot dropped, `www.` folded. */
export function foldHost(host: string): string {
  let h = host.trim().toLowerCase();
  const colon = h.lastIndexOf(':');
  if (colon > 0 && !h.includes(']') && h.indexOf(':') === colon) h = h.slice(0, colon);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h.startsWith('www.') ? h.slice(4) : h;
}
