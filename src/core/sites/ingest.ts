// Reading an access log upload: bytes in (gzip or not), lines, one parser, and rollups out.
// The one thing to know: it is a stream from end to end. Memory holds one partial line, one
// batch of counted lines and their hashes; nothing of a line is kept but its hash (idempotent
// re-upload) and its contribution to the hourly rollups. Client addresses are read to verify a
// crawler and then dropped.
import { createHash } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { AppError } from '../errors.ts';
import { toApiTime } from '../../lib/ids.ts';
import type { Store, Tx } from '../../db/store.ts';
import { crawlerOf, foldHost, isAsset, isBlocked, referralSourceOf, statusClass } from './classify.ts';
import type { CrawlerRanges } from './ip-ranges.ts';
import { AI_CRAWLERS, SEARCH_ROLES } from '../content/crawlers.ts';
import { detectFormat, parserFor, type LineParser, type LogFormat, type LogRecord } from './log-formats.ts';

/** Crawlers whose refusals can be `crawler.blocked` events (training crawlers are left out). */
const SEARCH_TOKENS = new Set(AI_CRAWLERS.filter((c) => SEARCH_ROLES.has(c.role)).map((c) => c.token));

/** The largest upload one request may carry (compressed bytes as sent). */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
/** A line longer than this is no access log line: skipped without being held in memory. */
const MAX_LINE_BYTES = 64 * 1024;
/** Counted lines written per transaction. */
const BATCH_LINES = 5000;
/** Lines looked at to recognise the format. */
const SNIFF_LINES = 50;

export interface IngestSummary {
  format: LogFormat;
  lines: number;
  parsed: number;
  skipped: number;
  duplicates: number;
  ai_crawler_hits: number;
  ai_referral_visits: number;
  from: string | null;
  to: string | null;
}

/** One request's contribution to a rollup, with the hash of its line. */
type Counted =
  | { hash: string; kind: 'crawler'; hour: string; crawler: string; path: string; status_class: '2xx' | '3xx' | '4xx' | '5xx'; verified: number; blocked: number; seen: string }
  | { hash: string; kind: 'referral'; hour: string; source: string; path: string };

/** What one request counts as, before its line hash and hour are added. */
export type Classified =
  | { kind: 'crawler'; crawler: string; path: string; status_class: '2xx' | '3xx' | '4xx' | '5xx'; verified: number; blocked: number }
  | { kind: 'referral'; source: string; path: string };

/** What one request counts as (null: nothing the reports count). */
export function classifyRecord(r: LogRecord, ranges: CrawlerRanges): Classified | null {
  const crawler = crawlerOf(r.userAgent);
  if (crawler) {
    const sc = statusClass(r.status);
    if (!sc) return null;
    return {
      kind: 'crawler', crawler: crawler.token, path: r.path.slice(0, 512), status_class: sc,
      verified: ranges.verify(crawler.token, r.ip) ? 1 : 0, blocked: isBlocked(r.status, r.challenged) ? 1 : 0,
    };
  }
  if (r.status >= 200 && r.status < 300 && (r.method === 'GET' || r.method === '') && !isAsset(r.path)) {
    const source = referralSourceOf(r.referer, r.query);
    if (source) return { kind: 'referral', source, path: r.path.slice(0, 512) };
  }
  return null;
}

/** The upload's bytes, gunzipped when they are gzip (by magic number, whatever the headers say). */
async function* uploadBytes(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const it = body[Symbol.asyncIterator]();
  let received = 0;
  const counted = async function* (first: Buffer | null) {
    if (first) yield first;
    for (;;) {
      const { value, done } = await it.next();
      if (done) return;
      received += (value as Buffer).length;
      if (received > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large', 'A log upload is at most 512 MiB per request; split the file.');
      yield value as Buffer;
    }
  };
  let first: Buffer | null = null;
  while (!first || first.length < 2) {
    const { value, done } = await it.next();
    if (done) break;
    received += (value as Buffer).length;
    first = first ? Buffer.concat([first, value as Buffer]) : Buffer.from(value as Buffer);
  }
  if (!first) return;
  if (first[0] === 0x1f && first[1] === 0x8b) {
    const gunzip = Readable.from(counted(first)).pipe(createGunzip());
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('invalid_request', `The gzip stream is corrupt: ${(err as Error).message}.`);
    }
    return;
  }
  yield* counted(first);
}

/** Lines of the upload as strings (without line ends), bounded in length. */
async function* linesOf(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest: Buffer | null = null;
  let dropping = false;
  for await (const chunk of bytes) {
    let buf: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    rest = null;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) break;
      if (dropping) dropping = false;
      else {
        const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
        yield buf.toString('utf8', start, end);
      }
      start = nl + 1;
    }
    if (start < buf.length) {
      if (buf.length - start > MAX_LINE_BYTES) {
        // Too long for an access log line: yield a marker (counted, skipped) and drop to the next newline.
        if (!dropping) yield '\u0000';
        dropping = true;
      } else rest = Buffer.from(buf.subarray(start));
    }
    buf = Buffer.alloc(0);
  }
  if (rest && rest.length && !dropping) yield rest.toString('utf8');
}

const hourKeys = new Map<number, string>();
function hourOf(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  let key = hourKeys.get(h);
  if (!key) {
    if (hourKeys.size > 50_000) hourKeys.clear();
    key = new Date(h * 3_600_000).toISOString().slice(0, 13);
    hourKeys.set(h, key);
  }
  return key;
}

/**
 * Reads one upload into the site's rollups. `format` 'auto' recognises it from the first lines.
 * Lines already counted for the site (same bytes) are `duplicates` and count nothing again.
 */
export async function ingestLog(
  store: Store,
  site: { id: string; domain: string },
  body: AsyncIterable<Buffer>,
  opts: {
    format: LogFormat | 'auto';
    ranges: CrawlerRanges;
    /** Told, after the last batch, how many new lines were search or user crawlers refused (crawler.blocked checks). */
    onBlockedHits?: (count: number) => Promise<void>;
  },
): Promise<IngestSummary> {
  // An allow-listed `host:port` domain: log lines name the host, with or without the port.
  const siteHost = foldHost(site.domain);
  let newBlocked = 0;
  const sum = { lines: 0, parsed: 0, skipped: 0, duplicates: 0, ai_crawler_hits: 0, ai_referral_visits: 0 };
  let minTime = Infinity;
  let maxTime = -Infinity;
  let parser: LineParser | null = opts.format === 'auto' ? null : parserFor(opts.format);
  const sniffed: string[] = [];
  let batch: Counted[] = [];

  const flush = async () => {
    if (!batch.length) return;
    const { added, duplicates } = await writeBatch(store, site.id, batch);
    sum.duplicates += duplicates;
    sum.ai_crawler_hits += added.crawler;
    sum.ai_referral_visits += added.referral;
    newBlocked += added.blocked;
    batch = [];
  };

  const handle = async (line: string) => {
    if (!line.trim()) return;
    sum.lines++;
    const r = line.charCodeAt(0) === 0 ? null : parser!.parse(line);
    if (!r || Number.isNaN(r.time)) {
      // A CloudFront header line is no request and no garbage either: it is not counted as a line.
      if (parser!.format === 'cloudfront' && line.charCodeAt(0) === 35) sum.lines--;
      else sum.skipped++;
      return;
    }
    if (r.host && foldHost(r.host) !== siteHost) {
      sum.skipped++;
      return;
    }
    sum.parsed++;
    if (r.time < minTime) minTime = r.time;
    if (r.time > maxTime) maxTime = r.time;
    const c = classifyRecord(r, opts.ranges);
    if (!c) return;
    const hash = createHash('sha1').update(line).digest('base64').slice(0, 22);
    batch.push({ ...c, hash, hour: hourOf(r.time), ...(c.kind === 'crawler' ? { seen: new Date(r.time).toISOString() } : {}) } as Counted);
    if (batch.length >= BATCH_LINES) await flush();
  };

  for await (const line of linesOf(uploadBytes(body))) {
    if (!parser) {
      sniffed.push(line);
      if (sniffed.length < SNIFF_LINES) continue;
      parser = recognised(sniffed);
      for (const l of sniffed.splice(0)) await handle(l);
      continue;
    }
    await handle(line);
  }
  if (!parser) {
    parser = recognised(sniffed);
    for (const l of sniffed.splice(0)) await handle(l);
  }
  await flush();
  if (newBlocked) await opts.onBlockedHits?.(newBlocked);
  return {
    format: parser.format,
    ...sum,
    from: minTime === Infinity ? null : toApiTime(new Date(minTime).toISOString()),
    to: maxTime === -Infinity ? null : toApiTime(new Date(maxTime).toISOString()),
  };
}

function recognised(lines: string[]): LineParser {
  const format = detectFormat(lines);
  if (!format) {
    if (!lines.some((l) => l.trim())) return parserFor('combined');
    throw new AppError('invalid_request', 'The log format could not be recognised from its first lines; name it with ?format=combined|common|cloudflare|cloudfront|vercel.');
  }
  return parserFor(format);
}

/** Rows per INSERT: well under SQLite's and Postgres' bound-parameter limits. */
const ROWS_PER_INSERT = 300;
const chunks = <T>(list: T[], n: number) => Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

/**
 * One transaction: the batch's line hashes are inserted (a hash already there is a duplicate,
 * decided by the database, so two uploads at once never count a line twice), and the new
 * lines' counts are added to the rollups.
 */
async function writeBatch(store: Store, siteId: string, batch: Counted[]) {
  const unique = new Map<string, Counted>();
  for (const c of batch) if (!unique.has(c.hash)) unique.set(c.hash, c);
  let duplicates = batch.length - unique.size;
  return store.db.transaction().execute(async (trx) => {
    const fresh: Counted[] = [];
    for (const part of chunks([...unique.keys()], 1000)) {
      const inserted = await trx
        .insertInto('site_log_lines')
        .values(part.map((line_hash) => ({ site_id: siteId, line_hash })))
        .onConflict((oc) => oc.columns(['site_id', 'line_hash']).doNothing())
        .returning('line_hash')
        .execute();
      for (const r of inserted) fresh.push(unique.get(r.line_hash)!);
      duplicates += part.length - inserted.length;
    }
    const added = await addToRollups(trx, siteId, fresh);
    return { added, duplicates };
  });
}

async function addToRollups(trx: Tx, siteId: string, fresh: Counted[]) {
  const crawlerRows = new Map<string, { site_id: string; hour: string; crawler: string; path: string; status_class: '2xx' | '3xx' | '4xx' | '5xx'; verified: number; blocked: number; hits: number; last_seen: string }>();
  const referralRows = new Map<string, { site_id: string; hour: string; source: string; path: string; visits: number }>();
  let crawler = 0;
  let referral = 0;
  let blocked = 0;
  for (const c of fresh) {
    if (c.kind === 'crawler') {
      crawler++;
      if (c.blocked && SEARCH_TOKENS.has(c.crawler)) blocked++;
      const key = `${c.hour}\u0001${c.crawler}\u0001${c.path}\u0001${c.status_class}\u0001${c.verified}\u0001${c.blocked}`;
      const row = crawlerRows.get(key);
      if (row) {
        row.hits++;
        if (c.seen > row.last_seen) row.last_seen = c.seen;
      } else {
        crawlerRows.set(key, { site_id: siteId, hour: c.hour, crawler: c.crawler, path: c.path, status_class: c.status_class, verified: c.verified, blocked: c.blocked, hits: 1, last_seen: c.seen });
      }
    } else {
      referral++;
      const key = `${c.hour}\u0001${c.source}\u0001${c.path}`;
      const row = referralRows.get(key);
      if (row) row.visits++;
      else referralRows.set(key, { site_id: siteId, hour: c.hour, source: c.source, path: c.path, visits: 1 });
    }
  }
  for (const part of chunks([...crawlerRows.values()], ROWS_PER_INSERT)) {
    await trx
      .insertInto('site_crawler_hits')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['site_id', 'hour', 'crawler', 'path', 'status_class', 'verified', 'blocked']).doUpdateSet({
          hits: sql`site_crawler_hits.hits + excluded.hits`,
          last_seen: sql`case when excluded.last_seen > site_crawler_hits.last_seen then excluded.last_seen else site_crawler_hits.last_seen end`,
        }),
      )
      .execute();
  }
  for (const part of chunks([...referralRows.values()], ROWS_PER_INSERT)) {
    await trx
      .insertInto('site_referral_visits')
      .values(part)
      .onConflict((oc) => oc.columns(['site_id', 'hour', 'source', 'path']).doUpdateSet({ visits: sql`site_referral_visits.visits + excluded.visits` }))
      .execute();
  }
  return { crawler, referral, blocked };
}
