// `sightline logs ingest FILE --site ID [--follow]`: sends an access log file to the server in
// pieces of whole lines (each one POST /v1/sites/{id}/logs through the typed client), so a file
// of any size goes in bounded memory and no request outlives the server's request timeout. A
// .gz file is decompressed here and sent as text. --follow keeps reading what is appended to the
// file (as `tail -f` does; a file that shrinks was rotated and is read again from its start)
// until SIGINT or SIGTERM, then prints the totals. Lines sent twice count once on the server.
// FILE `-` is stdin (`zcat access.log.gz | sightline logs ingest - --site …`), text only.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { operations, SightlineClient } from '../client/index.ts';

/** The largest piece sent in one request. */
const PIECE_BYTES = 8 * 1024 * 1024;

/** One upload's answer, as the typed client knows it. */
type Summary = operations['sitesLogsUpload']['responses'][200]['content']['application/json'];

/** The sum of a file's uploads (format, from and to are null until a piece is read). */
export type IngestTotals = Omit<Summary, 'format'> & { site_id: string; file: string; requests: number; format: Summary['format'] | null };

export type Send = (piece: Buffer) => Promise<Summary>;

/** One piece of the file as one upload request, through the typed client. */
export function uploadPiece(client: SightlineClient, siteId: string, format: string | undefined, piece: Buffer) {
  return client.POST('/v1/sites/{site_id}/logs', {
    params: { path: { site_id: siteId }, query: format ? { format } : {} },
    body: piece as never,
    bodySerializer: (b: unknown) => b as BodyInit,
    headers: { 'content-type': 'text/plain' },
  });
}

function add(t: IngestTotals, s: Summary) {
  t.requests++;
  for (const k of ['lines', 'parsed', 'skipped', 'duplicates', 'duplicates_in_upload', 'duplicates_sent_before', 'ai_crawler_hits', 'ai_referral_visits', 'future_lines', 'too_old_lines'] as const) t[k] += s[k];
  t.format = s.format ?? t.format;
  // The hint explains an upload where nothing could be read; once something is, it no longer applies.
  if (t.parsed > 0) delete t.hint;
  else if (s.hint) t.hint = s.hint;
  if (s.from && (!t.from || s.from < t.from)) t.from = s.from;
  if (s.to && (!t.to || s.to > t.to)) t.to = s.to;
}

/** Cuts a byte stream into pieces of whole lines, each at most PIECE_BYTES (a longer line goes alone). */
async function sendInPieces(bytes: AsyncIterable<Buffer>, send: Send, totals: IngestTotals, final: boolean): Promise<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  const flush = async (upTo: Buffer | null) => {
    const piece = Buffer.concat(upTo ? [...pending, upTo] : pending);
    pending = [];
    size = 0;
    if (piece.length) add(totals, await send(piece));
  };
  for await (const chunk of bytes) {
    let rest = chunk;
    while (rest.length) {
      const room = PIECE_BYTES - size;
      if (rest.length <= room) {
        pending.push(rest);
        size += rest.length;
        break;
      }
      // Cut at the last newline that fits; none: send what is pending and keep going.
      const cut = rest.subarray(0, room).lastIndexOf(10);
      if (cut >= 0) {
        await flush(rest.subarray(0, cut + 1));
        rest = rest.subarray(cut + 1);
      } else if (size > 0) {
        const lastNl = Buffer.concat(pending).lastIndexOf(10);
        if (lastNl < 0) {
          pending.push(rest);
          size += rest.length;
          break;
        }
        const all = Buffer.concat(pending);
        pending = [all.subarray(lastNl + 1)];
        size = pending[0].length;
        add(totals, await send(all.subarray(0, lastNl + 1)));
      } else {
        pending.push(rest);
        size += rest.length;
        break;
      }
    }
  }
  if (final) {
    await flush(null);
    return Buffer.alloc(0);
  }
  // Following: only whole lines go; a partial last line waits for the rest of it.
  const all = Buffer.concat(pending);
  const nl = all.lastIndexOf(10);
  if (nl >= 0) add(totals, await send(all.subarray(0, nl + 1)));
  return Buffer.from(all.subarray(nl + 1));
}

/** Waits ms, or less if signal aborts; the abort listener is removed either way, so a long
 * --follow does not pile one listener per poll onto the signal. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function ingestFile(
  file: string,
  siteId: string,
  send: Send,
  opts: { follow?: boolean; pollMs?: number; signal?: AbortSignal } = {},
): Promise<IngestTotals> {
  const totals: IngestTotals = { site_id: siteId, file, requests: 0, lines: 0, parsed: 0, skipped: 0, duplicates: 0, duplicates_in_upload: 0, duplicates_sent_before: 0, ai_crawler_hits: 0, ai_referral_visits: 0, future_lines: 0, too_old_lines: 0, format: null, from: null, to: null };
  if (file === '-') {
    await sendInPieces(process.stdin, send, totals, true);
    return totals;
  }
  const gz = file.endsWith('.gz');
  if (!opts.follow || gz) {
    const input = createReadStream(file);
    // pipeline, not pipe: a read error of the file (a directory, unreadable) reaches the loop
    // through gunzip instead of being an unhandled 'error' event.
    await sendInPieces(gz ? pipeline(input, createGunzip(), () => {}) : input, send, totals, true);
    return totals;
  }
  let offset = 0;
  let carry: Buffer = Buffer.alloc(0);
  const pollMs = opts.pollMs ?? 1000;
  for (;;) {
    const size = (await stat(file).catch(() => null))?.size ?? offset;
    if (size < offset) {
      // Truncated or replaced by rotation: read the new file from its start.
      offset = 0;
      carry = Buffer.alloc(0);
    }
    if (size > offset) {
      const fh = await open(file, 'r');
      try {
        const stream = fh.createReadStream({ start: offset, end: size - 1, autoClose: false });
        const withCarry = async function* () {
          if (carry.length) yield carry;
          for await (const c of stream) yield c as Buffer;
        };
        carry = await sendInPieces(withCarry(), send, totals, false);
      } finally {
        await fh.close();
      }
      offset = size;
    }
    if (opts.signal?.aborted) break;
    await pause(pollMs, opts.signal);
  }
  if (carry.length) add(totals, await send(carry));
  return totals;
}
