// Prefixed identifiers that sort by creation time (API-NOTES Conventions): `vis_…`, `probe_…`.
// The body is 10 Crockford base32 characters of milliseconds then 16 random ones; within one
// process ids made in the same millisecond still increase, so "newest first" by id is exact
// for one writer and correct to the millisecond across several.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
let lastTime = 0;
let lastRandom: number[] = [];

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

function freshRandom(): number[] {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = new Array<number>(16);
  for (let i = 0; i < 16; i++) out[i] = pool[poolOffset + i] & 31;
  poolOffset += 16;
  return out;
}

function incrementRandom(r: number[]): number[] {
  const next = r.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom();
}

export type IdPrefix = 'vis' | 'ci' | 'probe' | 'test' | 'key' | 'acct' | 'act' | 'req' | 'led' | 'job';

let lastTimeText = '';

export function newId(prefix: IdPrefix): string {
  const now = Date.now();
  if (now <= lastTime) {
    lastRandom = incrementRandom(lastRandom);
  } else {
    lastTime = now;
    lastTimeText = encodeTime(now);
    lastRandom = freshRandom();
  }
  // Built by concatenation (no map/join), and the time part once per millisecond: request and
  // activity ids are made on every API request (bench:api).
  let body = lastTimeText;
  for (let i = 0; i < 16; i++) body += ALPHABET[lastRandom[i]!];
  return prefix + '_' + body;
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
