// What `npm test` needs beyond Node and `npm install`, checked the same way for each: a test that
// needs a tool the machine lacks is skipped with one line saying how to enable it, unless CI (or
// the tool's SIGHTLINE_REQUIRE_* variable) asks for it, and then it runs and fails. Postgres is
// not among them: the tests use it only when DATABASE_URL points at one.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** CI asks for every prerequisite (`CI=true`, as most CI services set it; `CI=0`/`false` does not). */
export function ciRequires(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !!ci && ci !== '0' && ci !== 'false';
}

/**
 * The `skip` option for a suite that needs a prerequisite: false when it is there or required
 * (the suite runs, and fails if it is missing), else the one line the test runner prints.
 */
export function skipUnless(available: boolean, requiredBy: string, howToEnable: string, env: NodeJS.ProcessEnv = process.env): string | false {
  if (available) return false;
  if (ciRequires(env) || env[requiredBy] === '1') return false;
  return `${howToEnable} (CI or ${requiredBy}=1 makes this a failure)`;
}

export const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The browser the console's browser tests drive: Debian's Chromium, or SIGHTLINE_CHROMIUM. */
export const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';

export const browserSkip = (): string | false =>
  skipUnless(
    isExecutable(CHROMIUM),
    'SIGHTLINE_REQUIRE_BROWSER',
    `no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set SIGHTLINE_CHROMIUM=/path/to/chrome to run the browser tests`,
  );

/** util-linux's `script`, which gives the progress-display test a pseudo-terminal. */
export const ptySkip = (): string | false =>
  skipUnless(
    spawnSync('script', ['-qfec', 'true', '/dev/null'], { stdio: 'ignore' }).status === 0,
    'SIGHTLINE_REQUIRE_PTY',
    "no util-linux `script` for a pseudo-terminal: install util-linux (Debian: bsdutils) to run the terminal progress tests",
  );

/** The message a required but missing browser fails with. */
export function assertBrowser(): void {
  if (!isExecutable(CHROMIUM)) {
    throw new Error(
      `Chromium is required here (CI or SIGHTLINE_REQUIRE_BROWSER=1) but ${CHROMIUM} is not an executable: install it (apt-get install -y chromium) or set SIGHTLINE_CHROMIUM`,
    );
  }
}
