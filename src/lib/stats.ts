// The statistics behind every rate sightline reports over time: Wilson score intervals for a
// proportion, share of voice, and the two-proportion z-test that says whether a change between
// two periods is larger than the noise. Pure functions; rates are rounded to 4 decimals.
//
// Why Wilson: AI answers vary from one ask to the next, and tracked tests pool few probes (often
// 10–100). The normal ("Wald") interval collapses to zero width at 0/n and n/n and undercovers at
// small n; Wilson's interval keeps its coverage there (Brown, Cai & DasGupta, Statistical Science
// 2001) and is what Newcombe (1998) recommends for a single proportion.

/** z for a two-sided 95% interval: the 0.975 quantile of the standard normal. */
export const Z_95 = 1.959963984540054;

export interface RateInterval {
  low: number;
  high: number;
  level: 0.95;
  method: 'wilson';
}

/** Rounds a rate to 4 decimals (rates in responses have at most 4). */
export const round4 = (x: number) => Math.round(x * 10000) / 10000;

/** successes ÷ trials rounded, or null when there were no trials. */
export function rate(successes: number, trials: number): number | null {
  return trials === 0 ? null : round4(successes / trials);
}

/**
 * The Wilson score interval for `successes` out of `trials` at 95%, or null without trials.
 * At 0 successes the lower bound is exactly 0, at n successes the upper bound exactly 1 (the
 * closed form gives that up to rounding error, which is clamped away).
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): RateInterval | null {
  if (trials === 0) return null;
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === n ? 1 : Math.min(1, centre + half);
  return { low: round4(low), high: round4(high), level: 0.95, method: 'wilson' };
}

/**
 * One brand's share of voice: its mentioning probes ÷ the sum, over the target and every
 * competitor, of their mentioning probes; null when nobody was mentioned.
 */
export function shareOfVoice(mentions: number, totalMentions: number): number | null {
  return totalMentions === 0 ? null : round4(mentions / totalMentions);
}

/** Standard normal CDF (Abramowitz & Stegun 26.2.17; absolute error below 7.5e-8). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989422804014327 * Math.exp((-x * x) / 2);
  const tail = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x >= 0 ? 1 - tail : tail;
}

export interface ProportionChange {
  /** latest rate − previous rate. */
  change: number;
  z: number | null;
  p_value: number | null;
  /** True when the two-sided two-proportion z-test rejects "no change" at 95%. */
  change_significant: boolean;
  test: 'two_proportion_z';
}

/**
 * Is the move from k1/n1 to k2/n2 larger than the noise? The pooled two-proportion z-test at 95%
 * (two-sided). Chosen over "the two Wilson intervals do not overlap", which is far stricter than
 * its nominal 5% (two 95% intervals can overlap while the difference is significant at 1%).
 * Null when either period has no succeeded probe.
 */
export function compareProportions(k1: number, n1: number, k2: number, n2: number): ProportionChange | null {
  if (n1 === 0 || n2 === 0) return null;
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  const pooled = (k1 + k2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const change = round4(p2 - p1);
  if (se === 0) return { change, z: null, p_value: null, change_significant: false, test: 'two_proportion_z' };
  const z = (p2 - p1) / se;
  const pValue = 2 * (1 - normalCdf(Math.abs(z)));
  return { change, z: round4(z), p_value: round4(pValue), change_significant: Math.abs(z) > Z_95, test: 'two_proportion_z' };
}

/**
 * A sum of doubles kept exactly (Shewchuk's non-overlapping partials, as Python's math.fsum), so
 * it does not depend on the order the values came in: sums of parts can be added later, in any
 * grouping, and `value()` is the exact total correctly rounded. Means of values pooled from
 * stored part-sums then equal the means of the values themselves, to the last bit.
 */
export class ExactSum {
  constructor(readonly partials: number[] = []) {}

  add(value: number): this {
    let x = value;
    let i = 0;
    for (let j = 0; j < this.partials.length; j++) {
      let y = this.partials[j];
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) this.partials[i++] = lo;
      x = hi;
    }
    this.partials.length = i;
    this.partials.push(x);
    return this;
  }

  /** Adds another exact sum's partials (exactly). */
  addAll(partials: readonly number[]): this {
    for (const p of partials) this.add(p);
    return this;
  }

  /** The exact total, correctly rounded to a double (round half to even). */
  value(): number {
    const p = this.partials;
    let n = p.length;
    if (n === 0) return 0;
    n--;
    let hi = p[n];
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n];
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }
}
