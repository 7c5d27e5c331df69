// Password hashing for console users: scrypt from node:crypto (OpenSSL's), with OWASP's
// N=2^15, r=8, p=3 (32 MiB). The stored form names its parameters (scrypt$N$r$p$salt$hash) so a
// later change of cost still verifies old hashes. Checking a password for an email that has no
// user hashes against a fixed dummy, so the answer takes as long either way (no existence leak).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../errors.ts';
import { isCommonPassword, trivialPattern } from './common-passwords.ts';

const N = 2 ** 15;
const R = 8;
const P = 3;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/**
 * The password policy (NIST SP 800-63B, 5.1.1.2): at least MIN_PASSWORD_LENGTH characters, no
 * composition rules, and none that a guesser tries first: only whitespace, one character or a
 * short group repeated, a run like 1234567890 or abcdefghij, or a password on the bundled list of
 * common ones (common-passwords.ts). Refusals are `weak_password` with a `reason`.
 */
export function checkPasswordStrength(password: string): void {
  if (typeof password !== 'string' || [...password].length < MIN_PASSWORD_LENGTH) {
    throw new AppError('weak_password', `Passwords need at least ${MIN_PASSWORD_LENGTH} characters.`, { reason: 'too_short' });
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw new AppError('weak_password', `Passwords are at most ${MAX_PASSWORD_LENGTH} characters.`, { reason: 'too_long' });
  const trivial = trivialPattern(password);
  if (trivial) throw new AppError('weak_password', `This password is too easy to guess (${trivial}); a phrase of several words is easy to remember and hard to guess.`, { reason: 'trivial' });
  if (isCommonPassword(password)) {
    throw new AppError('weak_password', 'This password is on the list of the most common passwords; a phrase of several words is easy to remember and hard to guess.', { reason: 'common' });
  }
}

export async function hashPassword(password: string): Promise<string> {
  checkPasswordStrength(password);
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash of nothing anyone knows, verified against when there is no user (equal timing). */
let dummy: Promise<string> | undefined;

/** Whether the password matches; `stored` null (no user, or no password set yet) is always false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const target = stored ?? (await (dummy ??= hashPassword(randomBytes(24).toString('base64url'))));
  const parts = target.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), n, r, p);
  return timingSafeEqual(key, expected) && stored !== null;
}
