// Reading an access log upload: bytes in (gzip or not), lines, one parser, and rollups out.
// The one thing to know: it is a stream from end to end, and almost nothing of a line outlives
// its turn of the loop. A batch keeps, per counted line, its SHA-1 (idempotent re-upload), its
// request time and the index of its rollup row, in typed arrays allocated once per upload, plus
// the batch's distinct rollup rows; so the garbage a gigabyte leaves behind dies young instead of
// piling up in V8's old generation. While a batch is written nothing more is read from the
// request. Client addresses are read to verify a crawler and then dropped.
import { createHash, randomInt } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import { pipeline, Readable } from 'node:stream';
import { sql } from 'kysely';
import { AppError } from '../errors.ts';
import { toApiTime } from '../../lib/ids.ts';
import type { Store, Tx } from '../../db/store.ts';
import { crawlerOf, foldHost, isAsset, isBlocked, referralSourceOf, statusClass } from './classify.ts';
import type { CrawlerRanges } from './ip-ranges.ts';
import { AI_CRAWLERS, SEARCH_ROLES } from '../content/crawlers.ts';
import { detectFormat, LOG_FORMATS, parserFor, type LineParser, type LogFormat, type LogRecord } from './log-formats.ts';

/** Crawlers whose refusals can be `crawler.blocked` events (training crawlers are left out). */
const SEARCH_TOKENS = new Set(AI_CRAWLERS.filter((c) => SEARCH_ROLES.has(c.role)).map((c) => c.token));

/** The largest upload one request may carry by default (bytes as sent: compressed when gzip). */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
/** What a gzip upload may unpack to by default, per request. */
export const MAX_UNPACKED_BYTES = 4 * 1024 * 1024 * 1024;
/**
 * A gzip upload may unpack to at most this many times the compressed bytes read so far (access
 * logs gzip 5–30×; a bomb of newlines about 1000×), once past UNPACK_RATIO_FLOOR: the CPU an
 * upload costs stays in proportion to the bytes its sender had to send.
 */
export const MAX_UNPACK_RATIO = 100;
const UNPACK_RATIO_FLOOR = 1024 * 1024;

/** The byte limits of one upload (config: SIGHTLINE_LOG_UPLOAD_MAX_BYTES, SIGHTLINE_LOG_UPLOAD_MAX_UNPACKED_BYTES). */
export interface UploadLimits {
  /** Bytes as sent (compressed when gzip). */
  maxBytes: number;
  /** Bytes a gzip upload unpacks to. */
  maxUnpackedBytes: number;
}

/** 536870912 → "512 MiB"; 1000 → "1000 bytes". */
export function byteSize(n: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} bytes`;
}

/** The 413 of an upload larger than `maxBytes` as sent. */
export const uploadTooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', `A log upload is at most ${byteSize(maxBytes)} per request (as sent); split the file.`);

/** A line longer than this is no access log line: skipped without being held in memory. */
const MAX_LINE_BYTES = 64 * 1024;
/** Counted lines written per transaction. */
const BATCH_LINES = 5000;
/** Bytes of a SHA-1 digest. */
const DIGEST_BYTES = 20;
/** Lines looked at to recognise the format. */
const SNIFF_LINES = 50;

export interface IngestSummary {
  format: LogFormat;
  lines: number;
  parsed: number;
  skipped: number;
  duplicates: number;
  /** Of the duplicates: lines repeated within this upload. */
  duplicates_in_upload: number;
  /** Of the duplicates: lines another upload (an earlier one, or one at the same time) counted first. */
  duplicates_sent_before: number;
  ai_crawler_hits: number;
  ai_referral_visits: number;
  from: string | null;
  to: string | null;
  /**
   * Of the parsed lines: those dated more than FUTURE_SLACK_MS after the server's clock (a log
   * written with a wrong time zone or clock). They are counted, but the reports end now and show
   * them only once that time has passed; decided here, by the server's clock, for every surface.
   */
  future_lines: number;
  /**
   * Of the parsed lines: those dated before the log line hash window (retainDays, the server's
   * SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS). Their hashes may already be gone, so a copy sent
   * before could not be told from a new line: they are not counted. Decided here, by the server's
   * clock, for every surface; 0 when hashes are kept for good.
   */
  too_old_lines: number;
  /** Only when lines were sent and none could be read in the format: what they look like instead. */
  hint?: string;
}

/** How far after the server's clock a line may be dated before it counts as dated after now (clocks drift; logs flush late). */
export const FUTURE_SLACK_MS = 60 * 60 * 1000;

const DAY_MS = 86_400_000;

/**
 * Before when (epoch ms) a line is too old to count at `now` when line hashes are kept
 * `retainDays` days (0: never too old). The retention sweep removes a hash only once its hour
 * ended an hour before this (core/retention.ts), so a line is refused before its hash can go.
 */
export function tooOldBefore(now: number, retainDays: number): number {
  return retainDays > 0 ? now - retainDays * DAY_MS : -Infinity;
}

/** retention_marks' row for the log line hashes: the hour before which the sweep may have removed them. */
export const LOG_LINE_HASH_MARK = 'site_log_lines';

/**
 * Before when (epoch ms) the retention sweep may already have removed log line hashes, whatever
 * the window is now (it may have been shorter before): -Infinity when it never removed any.
 */
export async function logLineHashMark(store: Store): Promise<number> {
  const row = await store.db.selectFrom('retention_marks').select('value').where('name', '=', LOG_LINE_HASH_MARK).executeTakeFirst();
  return row ? Date.parse(`${row.value}:00:00.000Z`) : -Infinity;
}

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

/**
 * The upload's bytes, gunzipped when they are gzip (by magic number, whatever the headers say),
 * within `limits`. An error of the request (the client went away: `aborted`) or of the limits
 * is thrown to the reader, never left to a stream nobody listens to.
 */
async function* uploadBytes(body: AsyncIterable<Buffer>, limits: UploadLimits): AsyncGenerator<Buffer> {
  const it = body[Symbol.asyncIterator]();
  let received = 0;
  const next = async () => {
    const r = await it.next();
    if (!r.done) {
      received += (r.value as Buffer).length;
      if (received > limits.maxBytes) throw uploadTooLarge(limits.maxBytes);
    }
    return r;
  };
  const counted = async function* (first: Buffer | null) {
    if (first) yield first;
    for (;;) {
      const { value, done } = await next();
      if (done) return;
      yield value as Buffer;
    }
  };
  let first: Buffer | null = null;
  while (!first || first.length < 2) {
    const { value, done } = await next();
    if (done) break;
    first = first ? Buffer.concat([first, value as Buffer]) : Buffer.from(value as Buffer);
  }
  if (!first) return;
  if (first[0] === 0x1f && first[1] === 0x8b) {
    const gunzip = createGunzip();
    // pipeline, not pipe: an error of the source (an aborted request, payload_too_large) destroys
    // gunzip with it, so the loop below throws it; a loop that stops early destroys gunzip, and
    // pipeline ends the source (and the request's iterator) with it.
    pipeline(Readable.from(counted(first)), gunzip, () => {});
    let unpacked = 0;
    try {
      for await (const chunk of gunzip) {
        unpacked += (chunk as Buffer).length;
        if (unpacked > limits.maxUnpackedBytes) {
          throw new AppError('payload_too_large', `A gzip log upload unpacks to at most ${byteSize(limits.maxUnpackedBytes)} per request; split the file.`);
        }
        // bytesWritten: the compressed bytes gunzip has consumed (not those read ahead of it).
        if (unpacked > UNPACK_RATIO_FLOOR && unpacked > MAX_UNPACK_RATIO * gunzip.bytesWritten) {
          throw new AppError('payload_too_large', `The gzip upload unpacks to more than ${MAX_UNPACK_RATIO} times its size, which no access log does; send it uncompressed or split it.`);
        }
        yield chunk as Buffer;
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      // zlib's own errors (Z_DATA_ERROR, Z_BUF_ERROR, …) are a corrupt stream; the request's are not.
      const code = (err as NodeJS.ErrnoException).code;
      if (typeof code === 'string' && code.startsWith('Z_')) throw new AppError('invalid_request', `The gzip stream is corrupt: ${(err as Error).message}.`);
      throw err;
    }
    return;
  }
  yield* counted(first);
}

/** A line's text without its line end (LF or CRLF). */
const textOf = (buf: Buffer, start: number, nl: number) => buf.toString('utf8', start, nl > start && buf[nl - 1] === 13 ? nl - 1 : nl);

/**
 * Cuts the upload's bytes into lines, bounded in length. `lines(chunk)` yields the chunk's
 * complete lines; the bytes after its last newline wait for the next chunk (only they are
 * copied), and `end()` returns them as the last line. A line longer than MAX_LINE_BYTES is one
 * NUL marker (counted, skipped) and its bytes are dropped up to the next newline, never held.
 */
class LineSplitter {
  private rest: Buffer | null = null;
  private dropping = false;

  *lines(chunk: Buffer): Generator<string> {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (this.rest || this.dropping) {
      if (nl < 0) {
        if (this.rest) yield* this.hold(Buffer.concat([this.rest, chunk]));
        return;
      }
      if (this.dropping) this.dropping = false;
      else {
        const line = Buffer.concat([this.rest!, chunk.subarray(0, nl)]);
        this.rest = null;
        yield textOf(line, 0, line.length);
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    for (; nl >= 0; start = nl + 1, nl = chunk.indexOf(10, start)) yield textOf(chunk, start, nl);
    if (start < chunk.length) yield* this.hold(Buffer.from(chunk.subarray(start)));
  }

  /** The last line, when the upload does not end with a line end. */
  end(): string | null {
    const rest = this.rest;
    this.rest = null;
    return rest?.length ? rest.toString('utf8') : null;
  }

  private *hold(partial: Buffer): Generator<string> {
    if (partial.length <= MAX_LINE_BYTES) {
      this.rest = partial;
      return;
    }
    this.rest = null;
    this.dropping = true;
    yield '\u0000';
  }
}

const hourKeys = new Map<number, string>();
export function hourOf(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  let key = hourKeys.get(h);
  if (!key) {
    if (hourKeys.size > 50_000) hourKeys.clear();
    key = new Date(h * 3_600_000).toISOString().slice(0, 13);
    hourKeys.set(h, key);
  }
  return key;
}

/** A rollup row counted lines add to: a crawler's hits or an assistant's referral visits, for one hour and path. */
type Row =
  | { kind: 'crawler'; hour: string; crawler: string; path: string; status_class: '2xx' | '3xx' | '4xx' | '5xx'; verified: number; blocked: number }
  | { kind: 'referral'; hour: string; source: string; path: string };

/**
 * The counted lines waiting for their transaction. Per line only numbers, in arrays allocated
 * once and reused: the SHA-1 of its text, its request time and the index of its rollup row. The
 * rows are the batch's distinct keys (hour, crawler or source, path, …), a few per hour and page.
 */
class Batch {
  readonly digests = Buffer.alloc(BATCH_LINES * DIGEST_BYTES);
  readonly times = new Float64Array(BATCH_LINES);
  readonly rowOf = new Int32Array(BATCH_LINES);
  rows: Row[] = [];
  length = 0;
  private keys = new Map<string, number>();

  /** Adds a counted line; true when the batch is full. */
  add(line: string, time: number, c: Classified): boolean {
    const hour = hourOf(time);
    const key =
      c.kind === 'crawler'
        ? `c\u0001${hour}\u0001${c.crawler}\u0001${c.path}\u0001${c.status_class}\u0001${c.verified}\u0001${c.blocked}`
        : `r\u0001${hour}\u0001${c.source}\u0001${c.path}`;
    let row = this.keys.get(key);
    if (row === undefined) {
      row = this.rows.length;
      this.rows.push({ ...c, hour });
      this.keys.set(key, row);
    }
    const i = this.length++;
    createHash('sha1').update(line).digest().copy(this.digests, i * DIGEST_BYTES);
    this.times[i] = time;
    this.rowOf[i] = row;
    return this.length === BATCH_LINES;
  }

  /** Line i's hash as stored: the first 22 characters of its SHA-1 in base64. */
  hash(i: number): string {
    return this.digests.toString('base64', i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES).slice(0, 22);
  }

  /** Drops the lines dated before `before` (kept in order); returns how many. */
  dropOlderThan(before: number): number {
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      if (this.times[i]! < before) continue;
      if (kept !== i) {
        this.digests.copy(this.digests, kept * DIGEST_BYTES, i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES);
        this.times[kept] = this.times[i]!;
        this.rowOf[kept] = this.rowOf[i]!;
      }
      kept++;
    }
    const dropped = this.length - kept;
    this.length = kept;
    return dropped;
  }

  clear() {
    this.length = 0;
    this.rows = [];
    this.keys = new Map();
  }
}

/**
 * Reads one upload into the site's rollups. `format` 'auto' recognises it from the first lines.
 * Lines already counted for the site (same bytes) are `duplicates` and count nothing again; lines
 * older than the hash window (`retainDays`) are `too_old_lines` and count nothing either.
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
    /** Default: MAX_UPLOAD_BYTES and MAX_UNPACKED_BYTES. */
    limits?: UploadLimits;
    /** Days line hashes are kept (SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS); older lines are not counted. Default 0: kept for good. */
    retainDays?: number;
    /** The clock (epoch ms); default Date.now. */
    now?: () => number;
  },
): Promise<IngestSummary> {
  // An allow-listed `host:port` domain: log lines name the host, with or without the port.
  const siteHost = foldHost(site.domain);
  let newBlocked = 0;
  const sum = { lines: 0, parsed: 0, skipped: 0, duplicates: 0, duplicates_in_upload: 0, duplicates_sent_before: 0, ai_crawler_hits: 0, ai_referral_visits: 0, future_lines: 0, too_old_lines: 0 };
  const clock = opts.now ?? Date.now;
  const retainDays = opts.retainDays ?? 0;
  const futureAfter = clock() + FUTURE_SLACK_MS;
  // Lines dated before this are not counted; moved on at every batch, and checked again just
  // before a batch is written (a slow upload must not write a line whose hash may be gone).
  // Nor lines from before the hashes the sweep already removed: a window made longer (or turned
  // off) since then does not bring them back.
  const mark = await logLineHashMark(store);
  const refuseBefore = () => Math.max(tooOldBefore(clock(), retainDays), mark);
  let oldBefore = refuseBefore();
  // This upload's mark on the lines it counts first: a line already there with it was repeated
  // within the upload, one without it was sent before (two uploads share one at odds of 2^-47).
  const upload = { mark: randomInt(1, 2 ** 47), counted: 0 };
  let minTime = Infinity;
  let maxTime = -Infinity;
  let parser: LineParser | null = opts.format === 'auto' ? null : parserFor(opts.format);
  const sniffed: string[] = [];
  /** Lines that parsed as requests of the format (before the host check), and the first lines, for the hint. */
  let readable = 0;
  const sample: string[] = [];
  const batch = new Batch();

  const flush = async () => {
    oldBefore = refuseBefore();
    sum.too_old_lines += batch.dropOlderThan(oldBefore);
    if (!batch.length) return batch.clear();
    const { added, duplicates, repeated } = await writeBatch(store, site.id, upload, batch);
    sum.duplicates += duplicates;
    sum.duplicates_in_upload += repeated;
    sum.duplicates_sent_before += duplicates - repeated;
    sum.ai_crawler_hits += added.crawler;
    sum.ai_referral_visits += added.referral;
    newBlocked += added.blocked;
    batch.clear();
  };

  /** Reads one line (synchronously: no promise per line); true when the batch is full and must be written. */
  const handle = (line: string): boolean => {
    if (!line.trim()) return false;
    sum.lines++;
    if (sample.length < SNIFF_LINES) sample.push(line);
    const r = line.charCodeAt(0) === 0 ? null : parser!.parse(line);
    if (r && !Number.isNaN(r.time)) readable++;
    if (!r || Number.isNaN(r.time)) {
      // A CloudFront header line is no request and no garbage either: it is not counted as a line.
      if (parser!.format === 'cloudfront' && line.charCodeAt(0) === 35) sum.lines--;
      else sum.skipped++;
      return false;
    }
    if (r.host && foldHost(r.host) !== siteHost) {
      sum.skipped++;
      return false;
    }
    sum.parsed++;
    if (r.time < minTime) minTime = r.time;
    if (r.time > maxTime) maxTime = r.time;
    if (r.time > futureAfter) sum.future_lines++;
    if (r.time < oldBefore) {
      sum.too_old_lines++;
      return false;
    }
    const c = classifyRecord(r, opts.ranges);
    return c ? batch.add(line, r.time, c) : false;
  };

  /** The first lines are held until the format is recognised, then read in order. */
  const sniff = async (line: string | null) => {
    if (line !== null) sniffed.push(line);
    if (line !== null && sniffed.length < SNIFF_LINES) return;
    parser = recognised(sniffed);
    for (const l of sniffed.splice(0)) if (handle(l)) await flush();
  };

  const splitter = new LineSplitter();
  for await (const chunk of uploadBytes(body, opts.limits ?? { maxBytes: MAX_UPLOAD_BYTES, maxUnpackedBytes: MAX_UNPACKED_BYTES })) {
    for (const line of splitter.lines(chunk)) {
      if (!parser) await sniff(line);
      else if (handle(line)) await flush();
    }
  }
  const last = splitter.end();
  if (last !== null) {
    if (!parser) await sniff(last);
    else if (handle(last)) await flush();
  }
  if (!parser) await sniff(null);
  await flush();
  if (newBlocked) await opts.onBlockedHits?.(newBlocked);
  const hint = sum.lines > 0 && readable === 0 ? formatHint(parser!.format, sample) : undefined;
  return {
    format: parser!.format,
    ...sum,
    from: minTime === Infinity ? null : toApiTime(new Date(minTime).toISOString()),
    to: maxTime === -Infinity ? null : toApiTime(new Date(maxTime).toISOString()),
    ...(hint ? { hint } : {}),
  };
}

/** Why nothing was read: the format the first lines look like, when the parsers can tell. */
export function formatHint(format: LogFormat, firstLines: string[]): string {
  const looks = detectFormat(firstLines);
  if (looks && looks !== format) return `No line was read as ${format}; the lines look like ${looks}: send them again with format ${looks} (or auto).`;
  if (looks) return `No line was read as ${format}: none is a complete ${format} request line.`;
  return `No line was read as ${format}, and the first lines match none of the formats read here (${LOG_FORMATS.join(', ')}).`;
}

function recognised(lines: string[]): LineParser {
  const format = detectFormat(lines);
  if (!format) {
    if (!lines.some((l) => l.trim())) return parserFor('combined');
    throw new AppError('invalid_request', 'The log format could not be recognised from its first lines: name it (combined, common, cloudflare, cloudfront or vercel) with ?format=, `--format` of `sightline logs ingest`, or the Format menu of the console.');
  }
  return parserFor(format);
}

/** Line hashes per INSERT (four parameters each): well under SQLite's and Postgres' bound-parameter limits. */
const HASHES_PER_INSERT = 1024;
/** Rollup rows per INSERT (nine parameters each). */
const ROWS_PER_INSERT = 256;

/**
 * `n` cut in pieces of `max` (a power of two), then what is left in falling powers of two
 * (1,000 = 512 + 256 + 128 + 64 + 32 + 8): each table is written with a dozen statement shapes at
 * most, so SQLite's prepared-statement cache holds a few, not one per batch's remainder size.
 */
function pieceSizes(n: number, max: number): number[] {
  const out: number[] = [];
  for (; n >= max; n -= max) out.push(max);
  for (let size = max >> 1; size >= 1; size >>= 1) {
    if (n < size) continue;
    out.push(size);
    n -= size;
  }
  return out;
}

function pieces<T>(list: readonly T[], max: number): T[][] {
  let at = 0;
  return pieceSizes(list.length, max).map((size) => list.slice(at, (at += size)));
}

/**
 * One transaction: the batch's line hashes are inserted (a hash already there is a duplicate,
 * decided by the database, so two uploads at once never count a line twice; so is a line repeated
 * within the batch), and the new lines' counts are added to the rollups. Hash strings exist for
 * one INSERT at a time. Nothing outside the transaction changes, so a retried transaction counts
 * the same.
 */
/**
 * `upload.counted`: lines this upload has inserted so far. While it is 0 no line carries its mark,
 * so a duplicate was sent before without asking (a file sent again costs no extra read).
 */
async function writeBatch(store: Store, siteId: string, upload: { mark: number; counted: number }, batch: Batch) {
  return store.db.transaction().execute(async (trx) => {
    let duplicates = 0;
    /** Of the duplicates, lines this upload had already counted (in this piece or an earlier one). */
    let repeated = 0;
    // Per rollup row: the new lines it counts and the latest of their times.
    const hits = new Int32Array(batch.rows.length);
    const seen = new Float64Array(batch.rows.length).fill(-Infinity);
    let from = 0;
    for (const size of pieceSizes(batch.length, HASHES_PER_INSERT)) {
      // Hash → its first line in this piece (a repeat is inserted too, and the database skips it).
      const lineOf = new Map<string, number>();
      const values: { site_id: string; line_hash: string; upload: number; hour: string }[] = [];
      for (let i = from; i < from + size; i++) {
        const line_hash = batch.hash(i);
        if (!lineOf.has(line_hash)) lineOf.set(line_hash, i);
        values.push({ site_id: siteId, line_hash, upload: upload.mark, hour: hourOf(batch.times[i]!) });
      }
      from += size;
      const inserted = await trx
        .insertInto('site_log_lines')
        .values(values)
        .onConflict((oc) => oc.columns(['site_id', 'line_hash']).doNothing())
        .returning('line_hash')
        .execute();
      for (const { line_hash } of inserted) {
        const i = lineOf.get(line_hash)!;
        const row = batch.rowOf[i];
        hits[row]++;
        if (batch.times[i] > seen[row]) seen[row] = batch.times[i];
      }
      duplicates += size - inserted.length;
      // Copies of a line this upload counted first (in this piece or an earlier one) were
      // repeated within it; every copy of a line another upload counted first was sent before.
      const copies = new Map<string, number>();
      if (inserted.length < size) for (const v of values) copies.set(v.line_hash, (copies.get(v.line_hash) ?? 0) + 1);
      for (const { line_hash } of copies.size ? inserted : []) {
        repeated += copies.get(line_hash)! - 1;
        copies.delete(line_hash);
      }
      if (copies.size && upload.counted > 0) {
        const mine = await trx
          .selectFrom('site_log_lines')
          .select('line_hash')
          .where('site_id', '=', siteId)
          .where('line_hash', 'in', [...copies.keys()])
          .where('upload', '=', upload.mark)
          .execute();
        for (const { line_hash } of mine) repeated += copies.get(line_hash)!;
      }
      upload.counted += inserted.length;
    }
    const added = await addToRollups(trx, siteId, batch.rows, hits, seen);
    return { added, duplicates, repeated };
  });
}

async function addToRollups(trx: Tx, siteId: string, rows: readonly Row[], hits: Int32Array, seen: Float64Array) {
  const crawlerRows: { site_id: string; hour: string; crawler: string; path: string; status_class: '2xx' | '3xx' | '4xx' | '5xx'; verified: number; blocked: number; hits: number; last_seen: string }[] = [];
  const referralRows: { site_id: string; hour: string; source: string; path: string; visits: number }[] = [];
  let crawler = 0;
  let referral = 0;
  let blocked = 0;
  rows.forEach((row, k) => {
    const n = hits[k];
    if (!n) return;
    if (row.kind === 'crawler') {
      crawler += n;
      if (row.blocked && SEARCH_TOKENS.has(row.crawler)) blocked += n;
      crawlerRows.push({
        site_id: siteId, hour: row.hour, crawler: row.crawler, path: row.path, status_class: row.status_class,
        verified: row.verified, blocked: row.blocked, hits: n, last_seen: new Date(seen[k]).toISOString(),
      });
    } else {
      referral += n;
      referralRows.push({ site_id: siteId, hour: row.hour, source: row.source, path: row.path, visits: n });
    }
  });
  for (const part of pieces(crawlerRows, ROWS_PER_INSERT)) {
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
  for (const part of pieces(referralRows, ROWS_PER_INSERT)) {
    await trx
      .insertInto('site_referral_visits')
      .values(part)
      .onConflict((oc) => oc.columns(['site_id', 'hour', 'source', 'path']).doUpdateSet({ visits: sql`site_referral_visits.visits + excluded.visits` }))
      .execute();
  }
  return { crawler, referral, blocked };
}
