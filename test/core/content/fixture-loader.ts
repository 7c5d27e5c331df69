// A SiteLoader over test/fixtures/content/sites: https://HOST/PATH is served from
// sites/HOST/PATH(.html | /index.html). A sibling FILE.headers.json adds response headers and
// an optional "status". Missing files answer 404, like a real server; nothing leaves the process.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import type { SiteLoader } from '../../../src/core/content/types.ts';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/content/', import.meta.url));
const SITES = join(FIXTURES, 'sites');

interface Meta {
  status?: number;
  headers?: Record<string, string>;
  /** What the page answers a crawler's user agent (token → status and/or HTML body). */
  as?: Record<string, { status?: number; body?: string }>;
}

function resolve(url: string): { file: string; meta: Meta } | null {
  const u = new URL(url);
  const path = decodeURIComponent(u.pathname);
  if (path.includes('..')) return null;
  const base = join(SITES, u.hostname);
  const tries = path.endsWith('/') ? [path + 'index.html'] : [path, path + '.html', path + '/index.html'];
  for (const t of tries) {
    const file = join(base, t);
    if (existsSync(file) && statSync(file).isFile()) {
      const metaFile = file + '.headers.json';
      const meta = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) : {};
      return { file, meta };
    }
  }
  return null;
}

export interface RecordingLoader extends SiteLoader {
  requested: string[];
}

export function fixtureLoader(): RecordingLoader {
  const requested: string[] = [];
  return {
    requested,
    async loadPage(url) {
      requested.push(url);
      const r = resolve(url);
      if (!r) return null;
      const html = readFileSync(r.file, 'utf8');
      return { document: extractPage(html, url), status: r.meta.status ?? 200, headers: r.meta.headers ?? { 'content-type': 'text/html' } };
    },
    async fetchAs(url, userAgent) {
      requested.push(`${url} as ${userAgent.slice(0, 40)}`);
      const r = resolve(url);
      if (!r) return { status: 404, words: 0, title: null, text: '' };
      const token = Object.keys(r.meta.as ?? {}).find((t) => userAgent.toLowerCase().includes(t.toLowerCase()));
      const as = token ? r.meta.as![token]! : {};
      const doc = extractPage(as.body ?? readFileSync(r.file, 'utf8'), url);
      return { status: as.status ?? r.meta.status ?? 200, words: doc.wordCount, title: doc.title, text: doc.bodyText.slice(0, 2000) };
    },
    async fetchText(url) {
      requested.push(url);
      const r = resolve(url);
      if (!r) return { status: 404, body: 'Not found', contentType: 'text/plain' };
      const body = readFileSync(r.file, 'utf8');
      const ct = r.file.endsWith('.xml') ? 'application/xml' : r.file.endsWith('.html') ? 'text/html' : 'text/plain';
      return { status: r.meta.status ?? 200, body, contentType: r.meta.headers?.['content-type'] ?? ct };
    },
  };
}
