// Schedules of tracked tests: a five-field cron expression read in an IANA time zone, parsed by
// cron-parser (which handles daylight-saving gaps and repeats). Slots are instants (ISO UTC): the
// scheduler takes the latest slot at or before now, so a test whose slots were missed during
// downtime runs once, for the latest one. Pure: no I/O.
import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { AppError } from '../errors.ts';

export interface Schedule {
  cron: string;
  timezone: string;
}

export const MAX_CRON_LENGTH = 120;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function expression(schedule: Schedule, currentDate: Date): CronExpression {
  return CronExpressionParser.parse(schedule.cron, { tz: schedule.timezone, currentDate, strict: false });
}

/** Checks a schedule; throws 400 invalid_schedule saying what is wrong. Returns it normalized. */
export function parseSchedule(input: { cron?: unknown; timezone?: unknown }): Schedule {
  const cron = typeof input.cron === 'string' ? input.cron.trim().replace(/\s+/g, ' ') : '';
  const timezone = typeof input.timezone === 'string' && input.timezone.trim() ? input.timezone.trim() : 'UTC';
  if (!cron) throw new AppError('invalid_schedule', 'schedule.cron must be a cron expression such as "0 6 * * 1".');
  if (cron.length > MAX_CRON_LENGTH) throw new AppError('invalid_schedule', `schedule.cron is at most ${MAX_CRON_LENGTH} characters.`);
  // Five fields (minute hour day month weekday) or a macro such as @daily; a sixth (seconds)
  // field would schedule runs more often than a minute, which the scheduler does not resolve.
  if (!cron.startsWith('@') && cron.split(' ').length !== 5) {
    throw new AppError('invalid_schedule', 'schedule.cron must have five fields: minute hour day-of-month month day-of-week.', { cron });
  }
  if (!isTimeZone(timezone)) {
    throw new AppError('invalid_schedule', `schedule.timezone ${JSON.stringify(timezone)} is not an IANA time zone (e.g. "Europe/Berlin").`, { timezone });
  }
  try {
    const e = expression({ cron, timezone }, new Date());
    e.next();
  } catch (err) {
    throw new AppError('invalid_schedule', `schedule.cron is not a valid cron expression: ${(err as Error).message}`, { cron });
  }
  return { cron, timezone };
}

/** The first slot strictly after `after`. */
export function nextSlotAfter(schedule: Schedule, after: Date): Date {
  return expression(schedule, after).next().toDate();
}

/** The latest slot at or before `at` (null if the expression has none before it). */
export function latestSlotAtOrBefore(schedule: Schedule, at: Date): Date | null {
  // Slots fall on whole minutes and prev() is strictly before its current date, so the slots at or
  // before `at` are those before the next whole minute. (Starting prev() from a time that is not
  // a whole minute costs cron-parser about 20 times more: it walks back second by second.)
  const e = expression(schedule, new Date(Math.floor(at.getTime() / 60_000) * 60_000 + 60_000));
  return e.hasPrev() ? e.prev().toDate() : null;
}

/** The start (as an instant) of the calendar month containing `at` in `timezone`. */
export function monthStart(timezone: string, at: Date): Date {
  // The first midnight of the month in that zone is the cron slot "0 0 1 * *" at or before `at`.
  return latestSlotAtOrBefore({ cron: '0 0 1 * *', timezone }, at)!;
}
