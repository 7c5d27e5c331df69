// `sightline logs ingest --follow`: each poll's wait listens for the abort signal and stops
// listening when the wait ends, so a long follow does not grow the signal's listeners (Node warns
// "MaxListenersExceededWarning ... 11 abort listeners" past ten).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestFile, type Send } from '../../src/cli/log-ingest.ts';

test('--follow removes each poll abort listener; abort ends the follow with the totals', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-ingest-'));
  try {
    const file = join(dir, 'access.log');
    writeFileSync(file, '1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"\n');
    const send: Send = async (piece) => {
      const lines = piece.toString().split('\n').filter(Boolean).length;
      return {
        lines,
        parsed: lines,
        skipped: 0,
        duplicates: 0,
        ai_crawler_hits: 0,
        ai_referral_visits: 0,
        format: 'combined',
        from: null,
        to: null,
      } as Awaited<ReturnType<Send>>;
    };
    const ac = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const done = ingestFile(file, 'site_1', send, { follow: true, pollMs: 2, signal: ac.signal });
    await new Promise((r) => setTimeout(r, 150)); // dozens of polls
    const during = getEventListeners(ac.signal, 'abort').length;
    ac.abort();
    assert.ok(during <= 1, `abort listeners after dozens of polls: ${during}`);
    const totals = await done;
    process.off('warning', onWarning);
    assert.equal(totals.lines, 1);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
    assert.deepEqual(
      warnings.filter((w) => w === 'MaxListenersExceededWarning'),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the totals keep the hint of pieces where nothing was read, and drop it once something is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-ingest-'));
  try {
    const file = join(dir, 'access.log');
    writeFileSync(file, 'a line\n');
    const hint = 'No line was read as vercel; the lines look like combined: send them again with format combined (or auto).';
    const piece = (parsed: number) =>
      ({
        lines: 1,
        parsed,
        skipped: 1 - parsed,
        duplicates: 0,
        ai_crawler_hits: 0,
        ai_referral_visits: 0,
        format: 'vercel',
        from: null,
        to: null,
        ...(parsed ? {} : { hint }),
      }) as Awaited<ReturnType<Send>>;
    assert.equal((await ingestFile(file, 'site_1', async () => piece(0))).hint, hint);
    assert.equal((await ingestFile(file, 'site_1', async () => piece(1))).hint, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a .gz that cannot be read rejects with the read error, not an unhandled stream error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-ingest-'));
  try {
    const file = join(dir, 'access.log.gz');
    mkdirSync(file);
    const send: Send = async () => assert.fail('nothing is sent');
    await assert.rejects(ingestFile(file, 'site_1', send), { code: 'EISDIR' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
