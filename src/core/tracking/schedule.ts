// Schedules of tracked tests: a five-field cron expression read in an IANA time zone, parsed by
// croner. Across daylight-saving changes a slot keeps its wall-clock time: a time named without a
// wildcard or step ("30 2", "30 1,13") that the clock skips runs when the gap ends, one it repeats
// runs once, and the day of a change keeps its slots (cron-parser 5, used before, skipped the
// whole day of a spring-forward change for daily and weekly crons in every zone that has one).
// Slots are instants (ISO UTC): the scheduler takes the latest slot at or before now, so a test
// whose slots were missed during downtime runs once, for the latest one. Pure: no I/O.
import { Cron, CronPattern } from 'croner';
import { AppError } from '../errors.ts';

export interface Schedule {
  cron: string;
  timezone: string;
}

export const MAX_CRON_LENGTH = 120;

/** A bounded map: the oldest entry goes first once it holds `max`. */
function remember<V>(map: Map<string, V>, max: number, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    if (map.size >= max) map.delete(map.keys().next().value!);
    map.set(key, v);
  }
  return v;
}

// A zone as the caches know it: Intl reads zone names in any case, so "eUrOpE/bErLiN" and
// "Europe/Berlin" are one zone and must be one cache entry (else each spelling would hold a
// parsed pattern and date formatters of its own).
const ZONES = new Map<string, string>();
const zoneOf = (timezone: string) => remember(ZONES, 2000, timezone.toLowerCase(), () => new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone);

// Macros cron-parser accepted that croner does not know: a schedule stored before the switch
// keeps its meaning.
const MACROS: Record<string, string> = { '@weekdays': '0 0 * * 1-5', '@weekends': '0 0 * * 0,6', '@minutely': '* * * * *' };
const CRON_OPTIONS = {
  mode: '5-part',
  // "5/15" (from 5, every 15), as cron-parser read it.
  sloppyRanges: true,
  // A time named without a wildcard or step (a list or range too: "30 1,13 * * *") that the clock
  // repeats runs once, and one the clock skips runs when the gap ends, like Vixie cron; only
  // wildcard and step times ("*/15") run at every real occurrence.
  fixedTimeRule: 'no-wildcard',
} as const;

// Parsed patterns, kept: the scheduler asks the same few schedules again every tick.
const PATTERNS = new Map<string, Cron>();
const MAX_PATTERNS = 1000;

function pattern(schedule: Schedule): Cron {
  const timezone = zoneOf(schedule.timezone);
  // No job function: croner only computes dates and starts no timer.
  return remember(PATTERNS, MAX_PATTERNS, `${timezone} ${schedule.cron}`, () => new Cron(MACROS[schedule.cron] ?? schedule.cron, { timezone, ...CRON_OPTIONS }));
}

let zoneSpellings: Map<string, string> | null = null;
/** The zone as IANA spells it when Intl lists it (any case in, one spelling out), else as given. */
function spelledZone(timezone: string): string {
  zoneSpellings ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  const listed = zoneSpellings.get(timezone.toLowerCase());
  if (listed) return listed;
  // Names Intl does not list (UTC, links such as Asia/Kolkata): its own spelling when it only
  // differs in case ("utc" → "UTC"), else as given (Intl would rename Kolkata to Calcutta).
  const resolved = zoneOf(timezone);
  return resolved.toLowerCase() === timezone.toLowerCase() ? resolved : timezone;
}

/** Checks a schedule; throws 400 invalid_schedule saying what is wrong. Returns it normalized. */
export function parseSchedule(input: { cron?: unknown; timezone?: unknown }): Schedule {
  const cron = typeof input.cron === 'string' ? input.cron.trim().replace(/\s+/g, ' ') : '';
  let timezone = typeof input.timezone === 'string' && input.timezone.trim() ? input.timezone.trim() : 'UTC';
  if (!cron) throw new AppError('invalid_schedule', 'schedule.cron must be a cron expression such as "0 6 * * 1".');
  if (cron.length > MAX_CRON_LENGTH) throw new AppError('invalid_schedule', `schedule.cron is at most ${MAX_CRON_LENGTH} characters.`);
  // Five fields (minute hour day month weekday) or a macro such as @daily; a sixth (seconds)
  // field would schedule runs more often than a minute, which the scheduler does not resolve.
  if (!cron.startsWith('@') && cron.split(' ').length !== 5) {
    throw new AppError('invalid_schedule', 'schedule.cron must have five fields: minute hour day-of-month month day-of-week.', { cron });
  }
  try {
    zoneOf(timezone);
  } catch {
    throw new AppError('invalid_schedule', `schedule.timezone ${JSON.stringify(timezone)} is not an IANA time zone (e.g. "Europe/Berlin").`, { timezone });
  }
  timezone = spelledZone(timezone);
  let next: Date | null;
  try {
    next = pattern({ cron, timezone }).nextRun(new Date());
  } catch (err) {
    throw new AppError('invalid_schedule', `schedule.cron is not a valid cron expression: ${(err as Error).message.replace(/^CronPattern: /, '')}`, { cron });
  }
  if (!next) throw new AppError('invalid_schedule', 'schedule.cron never runs (no date matches it, e.g. "0 6 31 2 *").', { cron });
  return { cron, timezone };
}

/** The first slot strictly after `after`. */
export function nextSlotAfter(schedule: Schedule, after: Date): Date {
  const next = pattern(schedule).nextRun(after);
  // parseSchedule refuses a pattern that never runs; one stored before that check ran gets none.
  if (!next) throw new AppError('invalid_schedule', `schedule.cron ${JSON.stringify(schedule.cron)} never runs.`);
  return next;
}

/** The latest slot at or before `at` (null if the expression has none before it). */
export function latestSlotAtOrBefore(schedule: Schedule, at: Date): Date | null {
  // previousRuns counts runs strictly before its reference, and one earlier in the same second:
  // a slot exactly at `at` is found from 1 ms later.
  return pattern(schedule).previousRuns(1, new Date(at.getTime() + 1))[0] ?? null;
}

/** The start (as an instant) of the calendar month containing `at` in `timezone`. */
export function monthStart(timezone: string, at: Date): Date {
  // The first midnight of the month in that zone is the cron slot "0 0 1 * *" at or before `at`.
  return latestSlotAtOrBefore({ cron: '0 0 1 * *', timezone }, at)!;
}

// ---- Counting slots (the sample plan's runs a month, a project's estimate) ----

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;
const clocks = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight of `at` in `timezone`. */
function wallMinutes(timezone: string, at: Date): number {
  const zone = zoneOf(timezone);
  const f = remember(clocks, 1000, zone, () => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));
  const [h, m] = f.format(at).split(':').map(Number);
  return h! * 60 + m!;
}

// How many of a day's minutes are slots at or after each minute of the day, per pattern.
const SLOTS_FROM = new Map<string, Int32Array>();

function slotsFromMinute(cron: string): Int32Array {
  return remember(SLOTS_FROM, MAX_PATTERNS, cron, () => {
    const p = new CronPattern(MACROS[cron] ?? cron, undefined, CRON_OPTIONS);
    const from = new Int32Array(DAY_MINUTES + 1);
    for (let w = DAY_MINUTES - 1; w >= 0; w--) from[w] = from[w + 1]! + (p.hour[Math.floor(w / 60)] && p.minute[w % 60] ? 1 : 0);
    return from;
  });
}

/**
 * Slots in (from, from + ms], at most `cap`. A day that has a slot has all of that day's times of
 * the pattern, so once the clock cannot change before the day ends the rest of the day is counted
 * from the pattern's minutes and hours at once; a clock change is found by halving and counted
 * up to. Cost: a few steps a scheduled day, whatever its slots (walking a per-minute cron slot by
 * slot took seconds for one month).
 */
export function countSlots(schedule: Schedule, from: Date, ms: number, cap = 50_000): number {
  const end = from.getTime() + ms;
  const slotsFrom = slotsFromMinute(schedule.cron);
  const offset = (x: number) => (((wallMinutes(schedule.timezone, new Date(x)) - Math.floor(x / MINUTE_MS)) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  let n = 0;
  let at = from;
  for (;;) {
    const slot = nextSlotAfter(schedule, at);
    const t = slot.getTime();
    if (t > end || n >= cap) return Math.min(n, cap);
    const w = wallMinutes(schedule.timezone, slot);
    // Local midnight if the clock does not change before it; a change leaves the wall clock off
    // midnight by its size there.
    const dayEnd = t + (DAY_MINUTES - w) * MINUTE_MS;
    // The last instant counted at once: the day's end, or the last minute before a clock change
    // (found by halving, the offset being wall time minus instant); counting goes on after it.
    let last = dayEnd - 1;
    if (wallMinutes(schedule.timezone, new Date(dayEnd)) !== 0) {
      const before = offset(t);
      let hi = dayEnd;
      last = t;
      while (hi - last > MINUTE_MS) {
        const mid = last + Math.floor((hi - last) / 2 / MINUTE_MS) * MINUTE_MS;
        if (offset(mid) === before) last = mid;
        else hi = mid;
      }
    }
    const stop = Math.min(end, last);
    // This slot (which may be a fixed time moved past a gap earlier that day), then the pattern's
    // later times of the day up to the stop.
    n += 1 + slotsFrom[w + 1]! - slotsFrom[w + Math.floor((stop - t) / MINUTE_MS) + 1]!;
    at = new Date(stop);
  }
}

// ---- Calendar months (the budget's month: the schedule's time zone) ----

// A full month's count never changes: kept, so a form asking again as its user types (or a dense
// cron over 24 months) counts each month once.
const MONTH_RUNS = new Map<string, number>();

/** The rest of the current calendar month, then `ahead` full ones, with the slots of each. */
export function calendarMonths(schedule: Schedule, now: Date, ahead: number) {
  const first = { cron: '0 0 1 * *', timezone: schedule.timezone };
  const label = new Intl.DateTimeFormat('en-CA', { timeZone: zoneOf(schedule.timezone), year: 'numeric', month: '2-digit' });
  const out: { month: string; from: Date; runs: number }[] = [];
  let start = monthStart(schedule.timezone, now);
  for (let i = 0; i <= ahead; i++) {
    const next = nextSlotAfter(first, start);
    const from = i === 0 ? now : start;
    // Slots from `from` (inclusive) to the next month's start (exclusive).
    const count = () => countSlots(schedule, new Date(from.getTime() - 1), next.getTime() - from.getTime());
    const runs = i === 0 ? count() : remember(MONTH_RUNS, 10_000, `${zoneOf(schedule.timezone)} ${schedule.cron} ${start.toISOString()}`, count);
    const parts = label.formatToParts(start);
    out.push({ month: `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`, from, runs });
    start = next;
  }
  return out;
}
