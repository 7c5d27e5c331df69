// Passwords a guesser tries first, refused by the password policy (passwords.ts). The list is the
// common-password dictionary of zxcvbn-ts (@zxcvbn-ts/language-common: ~49,000 passwords ranked
// by frequency in public breach corpora, MIT, https://github.com/zxcvbn-ts/zxcvbn), loaded once,
// lower-cased. The patterns catch what no list holds in every length: whitespace only, a
// repeated character or group, an ascending or descending run.
import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | undefined;

function fold(password: string): string {
  return password.normalize('NFKC').toLowerCase();
}

/** Whether the password (case-insensitively, NFKC) is on the bundled list of common passwords. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set((dictionary['passwords-common'] as string[]).map(fold));
  return common.has(fold(password));
}

/** Longest group whose repetition counts as trivial ("abab…", "abcabc…", "1231 2312…"). */
const MAX_REPEATED_GROUP = 4;

/** A description of the trivial pattern the password is, or null. */
export function trivialPattern(password: string): string | null {
  const chars = [...fold(password)];
  if (chars.every((c) => /\s/u.test(c))) return 'only whitespace';
  for (let n = 1; n <= MAX_REPEATED_GROUP && n < chars.length; n++) {
    if (chars.every((c, i) => c === chars[i % n])) return n === 1 ? 'one character repeated' : 'a short group repeated';
  }
  const codes = chars.map((c) => c.codePointAt(0)!);
  for (const step of [1, -1]) {
    // Digits wrap around (…7890, 0987…): the way a keyboard's number row reads.
    const next = (a: number, b: number) => b - a === step || (step === 1 ? a === 0x39 && b === 0x30 : a === 0x30 && b === 0x39);
    if (codes.every((c, i) => i === 0 || next(codes[i - 1]!, c))) return step === 1 ? 'an ascending run' : 'a descending run';
  }
  return null;
}
