// The progress display of `visibility run --watch` on a pseudo-terminal (util-linux `script`),
// against a real server with the sandbox engine: on a terminal one bar redrawn in place, with
// probes done/total and credits, in colour; no colour with NO_COLOR; piped or TERM=dumb, plain
// lines only.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BIN, runCli, serverForCli } from '../helpers/cli.ts';
import { ptySkip } from '../helpers/prerequisites.ts';

const exec = promisify(execFile);
/** Colour and other text styles (SGR), as opposed to the line clearing a redraw uses. */
const SGR = /\x1b\[[0-9;]*m/;
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('user CLI: the progress display on a terminal', { skip: ptySkip() }, () => {
  const srv = serverForCli();

  // Probes that take a while, so the first reads see them unfinished.
  const RUN = ['visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt', 'anvils [[sandbox:mention]] [[sandbox:delay=1500]]', '--prompt', 'hammers [[sandbox:no-mention]] [[sandbox:delay=1500]]', '--platform', 'openai', '--platform', 'claude', '--watch'];

  /** Runs the CLI on a pseudo-terminal: what the terminal showed (stdout and stderr), and the exit code. */
  async function onTerminal(key: string, env: Record<string, string> = {}): Promise<{ code: number; screen: string }> {
    const command = [process.execPath, BIN, ...RUN].map(shellQuote).join(' ');
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NO_COLOR') clean[k] = v;
    const r = await exec('script', ['-qfec', command, '/dev/null'], { env: { ...clean, TERM: 'xterm-256color', SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, ...env } }).then(
      (x) => ({ code: 0, screen: x.stdout }),
      (e) => ({ code: e.code as number, screen: e.stdout as string }),
    );
    return r;
  }

  test('on a terminal: one bar redrawn in place with probes done/total, status and credits, in colour', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const { code, screen } = await onTerminal(key);
    assert.equal(code, 0, screen);
    const plain = screen.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
    assert.match(plain, /\r\[#{24}\] 4\/4 probes · completed · 12\.00 of 12\.00 credits/, 'the last redraw shows every probe done and the credits settled');
    assert.match(plain, /\r\[[#-]{24}\] [0-3]\/4 probes · (queued|running) · [\d.]+ of 12\.00 credits/, 'an earlier redraw shows the run unfinished');
    assert.match(screen, /\r\x1b\[2K/, 'each redraw returns to the start of the line and clears it');
    assert.match(screen, /\x1b\[32m#+\x1b\[39m/, 'the done part of the bar is green');
    assert.match(screen, /\x1b\[32mcompleted\x1b\[39m/, 'the final status is green');
    assert.match(plain, /mention rate 50%/, 'the result follows on stdout');
  });

  test('NO_COLOR on a terminal: the same redrawn bar, without colour', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const { code, screen } = await onTerminal(key, { NO_COLOR: '1' });
    assert.equal(code, 0, screen);
    assert.doesNotMatch(screen, SGR);
    assert.match(screen, /\r\x1b\[2K\[#{24}\] 4\/4 probes · completed · 12\.00 of 12\.00 credits/);
  });

  test('TERM=dumb on a terminal: plain progress lines, no cursor control and no colour', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const { code, screen } = await onTerminal(key, { TERM: 'dumb' });
    assert.equal(code, 0, screen);
    assert.doesNotMatch(screen, /\x1b/);
    assert.match(screen, /\[#{24}\] 4\/4 probes · completed · 12\.00 of 12\.00 credits\r?\n/);
  });

  test('piped: plain progress lines, one per change, no escape codes', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const r = await runCli(RUN, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, FORCE_COLOR: '1' } });
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /\x1b/);
    assert.doesNotMatch(r.err, /\r/);
    const lines = r.err.trim().split('\n');
    assert.match(lines[lines.length - 1], /^\[#{24}\] 4\/4 probes · completed · 12\.00 of 12\.00 credits$/);
    assert.equal(new Set(lines).size, lines.length, 'a line only when the progress changed');
  });
});
