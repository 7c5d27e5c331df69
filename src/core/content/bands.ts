// Score bands: how a 0..100 score reads (Poor, Fair, Good, Strong), and clamping a computed
// score into that range.
import type { Band } from './types.ts';

/** Band of an integer 0..100 score: below 40 Poor, below 60 Fair, below 80 Good, else Strong. */
export function bandOf(score: number): Band {
  if (score < 40) return 'Poor';
  if (score < 60) return 'Fair';
  if (score < 80) return 'Good';
  return 'Strong';
}

export function clampScore(n: number): number {
  if (!Number.isFinite(n)) return 0;
  return Math.max(0, Math.min(100, Math.round(n)));
}
