// Prefixed identifiers that sort by creation time: `vis_…`, `probe_…`.
// The body is 10 Crockford base32 characters of milliseconds then 16 random ones; within one
// process ids made in the same millisecond still increase, so "newest first" by id is exact
// for one writer and correct to the millisecond across several.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
let lastTime = 0;

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

// Random bytes come from a pool refilled 4 KiB at a time: one call into the CSPRNG per 256 ids
// instead of one per id (two ids per API request, request and activity row: bench:api).
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
/** The random part of the last id, 16 base32 digits (0–31), changed in place. */
const random = new Uint8Array(16);

function freshRandom(): void {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  for (let i = 0; i < 16; i++) random[i] = pool[poolOffset + i]! & 31;
  poolOffset += 16;
}

/** The next random part after the last one (same millisecond: ids keep increasing). */
function incrementRandom(): void {
  for (let i = 15; i >= 0; i--) {
    if (random[i]! < 31) {
      random[i]!++;
      return;
    }
    random[i] = 0;
  }
  freshRandom();
}

export type IdPrefix = 'vis' | 'ci' | 'probe' | 'test' | 'key' | 'acct' | 'act' | 'req' | 'led' | 'job' | 'usr' | 'ses' | 'tok' | 'wh' | 'msg' | 'evt' | 'proj' | 'pp' | 'site' | 'shr';

let lastTimeText = '';

/**
 * The smallest id with `prefix` made at `ms` (epoch): every id made earlier sorts below it, every
 * id made then or later at or above it; a range scan of a primary key by creation time.
 */
export function idFloor(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(Math.max(0, Math.floor(ms)))}`;
}

export function newId(prefix: IdPrefix): string {
  const now = Date.now();
  if (now <= lastTime) {
    incrementRandom();
  } else {
    lastTime = now;
    lastTimeText = encodeTime(now);
    freshRandom();
  }
  // One string from 16 char codes (no per-character concatenation), and the time part once per
  // millisecond: request and activity ids are made on every API request (bench:api).
  const r = random;
  const c = CODES;
  return (
    prefix +
    '_' +
    lastTimeText +
    String.fromCharCode(c[r[0]!]!, c[r[1]!]!, c[r[2]!]!, c[r[3]!]!, c[r[4]!]!, c[r[5]!]!, c[r[6]!]!, c[r[7]!]!,
      c[r[8]!]!, c[r[9]!]!, c[r[10]!]!, c[r[11]!]!, c[r[12]!]!, c[r[13]!]!, c[r[14]!]!, c[r[15]!]!)
  );
}

let lastIsoMs = 0;
let lastIso = '';

/**
 * Stored timestamps keep milliseconds (ordering); responses show whole seconds (toApiTime).
 * The string is made once per millisecond (every API request records one: bench:api).
 */
export function nowIso(): string {
  const now = Date.now();
  if (now !== lastIsoMs) {
    lastIsoMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

export function toApiTime(iso: string): string;
export function toApiTime(iso: string | null): string | null;
export function toApiTime(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/\.\d+Z$/, 'Z');
}
