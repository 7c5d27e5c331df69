// The files of the offline demo site (demo/site) as the demo server serves them: routes with
// and without ".html", every https://acme-pm.test URL rewritten to the address the site is
// served on, and every date moved so the newest is a few days old. Pure (no server), so tests
// read the demo site exactly as `npm run demo:site` serves it. The one thing to know: the files
// are written with fixed dates (2025); served as written, the good guide's freshness would fall
// month after month, so dates (ISO and "May 10, 2025") move by the same number of days and lone
// years ("in 2025", "2024 survey") by the same number of years, keeping every age relative.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEMO_ROOT = fileURLToPath(new URL('../../demo/site/', import.meta.url));
/** The origin the demo files are written for. */
export const DEMO_WRITTEN_FOR = 'https://acme-pm.test';
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.xml': 'application/xml', '.txt': 'text/plain; charset=utf-8' };

export interface DemoRoute {
  type: string;
  body: string;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

/** How many days old the newest demo date is when served. */
export const DEMO_NEWEST_AGE_DAYS = 4;
const DAY = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DATES = new RegExp(String.raw`\b(20\d\d)-(\d\d)-(\d\d)\b|\b(${MONTHS.join('|')}) (\d{1,2}), (20\d\d)\b|\b(20\d\d)\b`, 'g');

/** Every date of the texts moved by the days that make the newest ISO date `DEMO_NEWEST_AGE_DAYS` old on `today`. */
function datesMover(texts: string[], today: Date): (text: string) => string {
  const iso = texts.flatMap((t) => [...t.matchAll(/\b20\d\d-\d\d-\d\d\b/g)].map((m) => m[0]));
  const newest = iso.sort().at(-1);
  if (!newest) return (t) => t;
  const target = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - DEMO_NEWEST_AGE_DAYS * DAY;
  const shift = target - Date.parse(newest);
  const years = new Date(target).getUTCFullYear() - Number(newest.slice(0, 4));
  const move = (y: string, m: number, d: string) => new Date(Date.UTC(Number(y), m, Number(d)) + shift);
  return (text) =>
    text.replace(DATES, (all, y1, m1, d1, mName, d2, y2, year) => {
      if (y1) return move(y1, Number(m1) - 1, d1).toISOString().slice(0, 10);
      if (mName) {
        const t = move(y2, MONTHS.indexOf(mName), d2);
        return `${MONTHS[t.getUTCMonth()]} ${t.getUTCDate()}, ${t.getUTCFullYear()}`;
      }
      return year ? String(Number(year) + years) : all;
    });
}

/** Path → what the demo server answers, for a site served on `origin`, with dates as of `today`. */
export function demoSiteRoutes(origin: string, today = new Date()): Map<string, DemoRoute> {
  const routes = new Map<string, DemoRoute>();
  const paths = files(DEMO_ROOT);
  const texts = paths.map((file) => readFileSync(file, 'utf8'));
  const moveDates = datesMover(texts, today);
  for (const [i, file] of paths.entries()) {
    const rel = '/' + relative(DEMO_ROOT, file).split('\\').join('/');
    const route = { type: TYPES[extname(file)] ?? 'application/octet-stream', body: moveDates(texts[i]!).replaceAll(DEMO_WRITTEN_FOR, origin) };
    routes.set(rel, route);
    if (rel.endsWith('/index.html')) routes.set(rel.slice(0, -'index.html'.length), route);
    else if (rel.endsWith('.html')) routes.set(rel.slice(0, -'.html'.length), route);
  }
  return routes;
}
