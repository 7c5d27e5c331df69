// How much memory what run reads keep between reads may take (SIGHTLINE_READ_CACHE_MB): the kept
// rows of finished and queued probes (run-probes.ts) and the kept summaries of finished runs
// (read.ts) each stay within it, least recently read runs dropped first, so that memory does not
// grow with the size of the runs read. A run whose rows alone exceed it is not kept at all: its
// reads cost what a cold read costs.
// The one thing to know: the bytes are an estimate (keptRowBytes), not a measurement. bench:runs
// (2026-11-28, a036f8d) kept about 16 KB of heap per finished probe of 1.4 K characters of row
// text: the row, what the summaries parse from it (competitors, citations, the analysis), its
// prompt's entry with that entry's JSON text and bytes, and its share of the run's summary.

/** The budget, bytes, until the core sets it: SIGHTLINE_READ_CACHE_MB's default, 64 MB (about 4,000 finished probes of bench:runs' kind). */
let budget = 64 * 1024 * 1024;

/** Sets the budget (bytes) for each of the two caches; 0 keeps nothing between reads. */
export function useReadCacheBytes(bytes: number): void {
  budget = Math.max(0, bytes);
}

/** The budget, bytes, of each of the two caches. */
export function readCacheBytes(): number {
  return budget;
}

/** Fixed heap per kept row, bytes: the row object, its parsed parts and their containers. */
const ROW_BASE_BYTES = 2048;
/** Heap per character of a kept row's text: the text and what is parsed, built and written from it. */
const BYTES_PER_ROW_CHAR = 10;

const bytesOf = new WeakMap<object, number>();

/** The estimated heap a kept probe row holds (see the header), once per row object. */
export function keptRowBytes(row: object): number {
  let bytes = bytesOf.get(row);
  if (bytes === undefined) {
    let chars = 0;
    // for…in over the row's own columns (a plain object from the driver): no array of its values per row.
    for (const k in row) {
      const v = (row as Record<string, unknown>)[k];
      if (typeof v === 'string') chars += v.length;
    }
    bytes = ROW_BASE_BYTES + BYTES_PER_ROW_CHAR * chars;
    bytesOf.set(row, bytes);
  }
  return bytes;
}
