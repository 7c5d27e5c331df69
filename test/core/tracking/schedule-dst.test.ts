// Schedules across daylight-saving changes, and counting slots. cron-parser 5 (used before croner)
// skipped the whole day of a spring-forward change: a daily 06:00 in Berlin had no run on
// 2027-03-28, a Sunday noon job in Berlin or New York lost that Sunday, and a Sunday 23:30 in
// Auckland lost 2027-09-26. Counting slots day by day must equal walking them one at a time.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countSlots, latestSlotAtOrBefore, nextSlotAfter, parseSchedule, type Schedule } from '../../../src/core/tracking/schedule.ts';

const local = (at: Date, timezone: string) => at.toLocaleString('sv', { timeZone: timezone });
function slots(s: Schedule, fromIso: string, n: number) {
  const out: string[] = [];
  let at = new Date(fromIso);
  for (let i = 0; i < n; i++) out.push(local((at = nextSlotAfter(s, at)), s.timezone));
  return out;
}
function walk(s: Schedule, from: Date, ms: number) {
  let n = 0;
  for (let at = nextSlotAfter(s, from); at.getTime() <= from.getTime() + ms; at = nextSlotAfter(s, at)) n++;
  return n;
}

describe('schedules across daylight-saving changes', () => {
  test('the day of a spring-forward change keeps its runs', () => {
    assert.deepEqual(slots({ cron: '0 6 * * *', timezone: 'Europe/Berlin' }, '2027-03-26T00:00:00Z', 3), ['2027-03-26 06:00:00', '2027-03-27 06:00:00', '2027-03-28 06:00:00']);
    assert.deepEqual(slots({ cron: '0 12 * * 0', timezone: 'Europe/Berlin' }, '2027-03-24T00:00:00Z', 2), ['2027-03-28 12:00:00', '2027-04-04 12:00:00']);
    assert.deepEqual(slots({ cron: '0 6 * * 0', timezone: 'America/New_York' }, '2027-03-10T00:00:00Z', 2), ['2027-03-14 06:00:00', '2027-03-21 06:00:00']);
    assert.deepEqual(slots({ cron: '30 23 * * 0', timezone: 'Pacific/Auckland' }, '2027-09-20T00:00:00Z', 2), ['2027-09-26 23:30:00', '2027-10-03 23:30:00']);
  });

  test('a fixed time the clock skips runs when the gap ends; one it repeats runs once', () => {
    assert.deepEqual(slots({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, '2027-03-27T00:00:00Z', 3), ['2027-03-27 02:30:00', '2027-03-28 03:00:00', '2027-03-29 02:30:00']);
    const fallBack = { cron: '30 1 * * *', timezone: 'America/New_York' };
    assert.deepEqual(slots(fallBack, '2027-11-06T00:00:00Z', 3), ['2027-11-06 01:30:00', '2027-11-07 01:30:00', '2027-11-08 01:30:00']);
  });

  test('a list or range of fixed times is one run when the clock repeats it and runs when a gap ends', () => {
    assert.deepEqual(slots({ cron: '30 1,13 * * *', timezone: 'America/New_York' }, '2027-11-07T00:00:00Z', 3), ['2027-11-07 01:30:00', '2027-11-07 13:30:00', '2027-11-08 01:30:00']);
    assert.deepEqual(slots({ cron: '30 2,14 * * *', timezone: 'Europe/Berlin' }, '2027-03-27T23:00:00Z', 2), ['2027-03-28 03:00:00', '2027-03-28 14:30:00']);
    // A step over the hours runs at every real occurrence: both 01:00s of the repeated hour.
    const steps = slots({ cron: '0 */1 * * *', timezone: 'America/New_York' }, '2027-11-07T04:30:00Z', 3);
    assert.deepEqual(steps, ['2027-11-07 01:00:00', '2027-11-07 01:00:00', '2027-11-07 02:00:00']);
  });

  test('what cron-parser accepted still parses: "5/15" steps and the @weekdays, @weekends, @minutely macros', () => {
    assert.deepEqual(slots(parseSchedule({ cron: '5/15 * * * *' }), '2027-01-01T00:00:00Z', 4), ['2027-01-01 00:05:00', '2027-01-01 00:20:00', '2027-01-01 00:35:00', '2027-01-01 00:50:00']);
    assert.deepEqual(slots(parseSchedule({ cron: '@weekdays' }), '2027-01-01T12:00:00Z', 2), ['2027-01-04 00:00:00', '2027-01-05 00:00:00']);
    assert.deepEqual(slots(parseSchedule({ cron: '@weekends' }), '2027-01-01T12:00:00Z', 2), ['2027-01-02 00:00:00', '2027-01-03 00:00:00']);
    assert.equal(countSlots(parseSchedule({ cron: '@minutely' }), new Date('2027-01-01T00:00:00Z'), 3_600_000), 60);
  });

  test('a time zone in any case is stored as IANA spells it; one IANA lists otherwise is kept', () => {
    assert.equal(parseSchedule({ cron: '0 6 * * *', timezone: 'eUrOpE/bErLiN' }).timezone, 'Europe/Berlin');
    assert.equal(parseSchedule({ cron: '0 6 * * *', timezone: 'Asia/Kolkata' }).timezone, 'Asia/Kolkata');
    assert.equal(parseSchedule({ cron: '0 6 * * *', timezone: 'utc' }).timezone, 'UTC');
  });

  test('the latest slot at or before a time includes a slot exactly then', () => {
    const s = { cron: '0 6 * * *', timezone: 'UTC' };
    assert.equal(latestSlotAtOrBefore(s, new Date('2027-01-01T06:00:00Z'))!.toISOString(), '2027-01-01T06:00:00.000Z');
    assert.equal(latestSlotAtOrBefore(s, new Date('2027-01-01T05:59:59.999Z'))!.toISOString(), '2026-12-31T06:00:00.000Z');
  });

  test('a cron that never runs, or is not one, is refused', () => {
    assert.throws(() => parseSchedule({ cron: '0 6 31 2 *' }), /never runs/);
    assert.throws(() => parseSchedule({ cron: '61 6 * * *' }), /not a valid cron expression/);
    assert.throws(() => parseSchedule({ cron: '0 6 * *' }), /five fields/);
    assert.deepEqual(parseSchedule({ cron: ' 0  6 * * 1 ', timezone: 'Europe/Berlin' }), { cron: '0 6 * * 1', timezone: 'Europe/Berlin' });
  });
});

describe('counting slots', () => {
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Pacific/Auckland', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kolkata'];
  const crons = ['0 6 * * *', '30 1,13 * * *', '0 1-3 * * *', '*/20 * * * *', '15 9-17 * * 1-5', '30 2 * * *', '0 0 1 * *', '5 0,1,2,3 * * 0', '*/7 1-3 * 3,10,11 *', '0 12 L * *', '0 6 13 * 5'];
  test('day by day equals slot by slot, across the clock changes of a year', () => {
    // Windows around the changes of 2027 in each zone (March/April, September/October/November).
    const starts = ['2027-03-10T07:13:00Z', '2027-09-20T00:00:00Z', '2027-10-28T22:59:30Z', '2027-04-01T11:00:00Z'];
    for (const timezone of zones) {
      for (const cron of crons) {
        for (const start of starts) {
          const s = { cron, timezone };
          const from = new Date(start);
          const ms = 17 * 86_400_000 + 3_600_000 * 5 + 60_000 * 7;
          assert.equal(countSlots(s, from, ms), walk(s, from, ms), `${cron} in ${timezone} from ${start}`);
        }
      }
    }
  });

  test('a window ending on a slot counts it; the cap holds', () => {
    const s = { cron: '0 * * * *', timezone: 'UTC' };
    assert.equal(countSlots(s, new Date('2027-01-01T00:00:00Z'), 3_600_000), 1);
    assert.equal(countSlots(s, new Date('2027-01-01T00:00:00Z'), 3_600_000 - 1), 0);
    assert.equal(countSlots({ cron: '* * * * *', timezone: 'UTC' }, new Date('2027-01-01T00:00:00Z'), 30 * 86_400_000), 43_200);
    assert.equal(countSlots({ cron: '* * * * *', timezone: 'UTC' }, new Date('2027-01-01T00:00:00Z'), 30 * 86_400_000, 100), 100);
  });
});
