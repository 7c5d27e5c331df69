// The live progress line of a watched run, on stderr: on a terminal one line redrawn in place,
// in colour unless NO_COLOR is set (https://no-color.org); piped or on a TERM=dumb terminal, a
// plain line each time the progress changes, so a log holds no escape codes and no repeated lines.
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

export interface Progress {
  /** Shows the latest state: done of total units (probes), the run's status and its credits. */
  update(state: { done: number; total: number; unit: string; status: string; credits: string }): void;
  /** Ends the display (a newline after the redrawn line). */
  end(): void;
}

/** A terminal that can redraw a line in place: a TTY whose TERM is not "dumb" (no cursor control). */
export function liveTerminal(isTTY: boolean, env: Record<string, string | undefined>): boolean {
  return isTTY && env.TERM !== 'dumb';
}

export function colourWanted(isTTY: boolean, env: Record<string, string | undefined>): boolean {
  return liveTerminal(isTTY, env) && !env.NO_COLOR;
}

const STATUS_STYLE: Record<string, Style> = { completed: 'green', partially_completed: 'yellow', failed: 'red', cancelled: 'yellow' };

export function progressDisplay(write: (s: string) => void, isTTY: boolean, env: Record<string, string | undefined>): Progress {
  const colour = colourWanted(isTTY, env);
  // TERM=dumb (Emacs shells, some CI consoles) has no cursor control: plain lines, as when piped.
  const live = liveTerminal(isTTY, env);
  // Colour is decided here (a terminal, no NO_COLOR); styleText's own check looks at stdout and at
  // variables such as CI, which would strip it from a terminal's stderr.
  const paint = (style: Style, text: string) => (colour ? styleText(style, text, { validateStream: false }) : text);
  let last = '';
  let drawn = false;
  return {
    update({ done, total, unit, status, credits }) {
      const width = 24;
      const filled = total ? Math.round((Math.min(done, total) / total) * width) : width;
      const bar = `[${paint('green', '#'.repeat(filled))}${paint('dim', '-'.repeat(width - filled))}]`;
      const line = `${bar} ${paint('bold', `${done}/${total}`)} ${unit} · ${paint(STATUS_STYLE[status] ?? 'cyan', status)} · ${paint('yellow', credits)} credits`;
      if (line === last) return;
      last = line;
      if (live) {
        write(`\r\x1b[2K${line}`);
        drawn = true;
      } else write(`${line}\n`);
    },
    end() {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}
