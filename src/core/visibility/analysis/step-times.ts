// Time spent per step of a probe's answer analysis in this process (mentions, prominence, brands,
// entities, the sandbox judge) and in run summaries, for `npm run bench:runs`, which prints the
// split per probe; what the process spent besides (HTTP, database, worker, the platform) is the
// rest of its CPU time.
// The one thing to know: only synchronous work is timed (stepClock() around code that does not
// await), so no other probe's work, interleaved at an await, is ever counted in a step. The clock
// is the monotonic clock (performance.now(), well under a microsecond a read): synchronous code on
// the event loop is on a CPU the whole time unless the machine preempts it, so on a quiet machine
// this is the step's CPU time; on a loaded one a step also counts the time it waited for a CPU.
// (It was the process's CPU time, getrusage: about 15 µs a read in a process with a dozen threads,
// nine reads a probe, and it counted the GC threads' CPU of the same moment into the step.)
// Timing is off until resetStepTimes() (the bench): a service does not read a clock several times
// per probe for figures nobody reads.

/** Off until a bench asks (resetStepTimes): then every step reads the clock. */
let timing = false;

/** The monotonic clock, ms; 0 while step times are off. */
export function stepClock(): number {
  return timing ? performance.now() : 0;
}

export type ProbeStep = 'mentions' | 'prominence' | 'brands' | 'entities' | 'judge' | 'summary';

const totals = new Map<ProbeStep, number>();

/** Adds the time since `t0` (stepClock()) to a step; returns now, to chain steps. */
export function addStepTime(step: ProbeStep, t0: number): number {
  if (!timing) return 0;
  const now = stepClock();
  totals.set(step, (totals.get(step) ?? 0) + (now - t0));
  return now;
}

/** The accumulated milliseconds per step since the process started (or the last reset). */
export function stepTimes(): Record<string, number> {
  return Object.fromEntries(totals);
}

/** Starts (or restarts) the step times from zero; until the first call nothing is timed. */
export function resetStepTimes(): void {
  timing = true;
  totals.clear();
}
